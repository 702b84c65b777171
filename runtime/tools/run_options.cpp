#include "runtime/tools/run_options.h"

#include <charconv>
#include <cmath>

namespace ferry::tools {
namespace {

// --timeout=SECONDS: a positive decimal number of seconds ("30", "0.5").
Result<std::chrono::nanoseconds> parseTimeout(std::string_view value) {
  double seconds = 0;
  const char *end = value.data() + value.size();
  std::from_chars_result parsed = std::from_chars(value.data(), end, seconds);
  // Below 2^63 ns (292 years), so the count fits.
  constexpr double kMaxSeconds = 9e9;
  if (value.empty() || parsed.ec != std::errc() || parsed.ptr != end ||
      !std::isfinite(seconds) || seconds <= 0 || seconds > kMaxSeconds)
    return invalidArgument("--timeout=", value,
                           ": expected a positive number of seconds (e.g. "
                           "--timeout=30 or --timeout=0.5)");
  auto timeout = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::duration<double>(seconds));
  return std::max(timeout, std::chrono::nanoseconds(1));
}

// --print-max-elements=N: a non-negative decimal count.
Result<uint64_t> parsePrintMaxElements(std::string_view value) {
  uint64_t count = 0;
  const char *end = value.data() + value.size();
  std::from_chars_result parsed = std::from_chars(value.data(), end, count);
  if (value.empty() || parsed.ec != std::errc() || parsed.ptr != end)
    return invalidArgument("--print-max-elements=", value,
                           ": expected a number of elements (e.g. "
                           "--print-max-elements=100000), or --print-all");
  return count;
}

} // namespace

Result<RunOptions> parseRunOptions(std::span<const std::string_view> args) {
  RunOptions options;
  for (std::string_view arg : args) {
    if (arg == "--help" || arg == "-h") {
      options.help = true;
      continue;
    }
    if (arg == "--print-all") {
      options.printMaxElements = UINT64_MAX;
      continue;
    }
    if (!arg.starts_with("-")) {
      if (!options.modulePath.empty())
        return invalidArgument("unexpected argument '", arg,
                               "' (the module is already '", options.modulePath,
                               "')");
      options.modulePath = std::string(arg);
      continue;
    }
    size_t equals = arg.find('=');
    std::string_view flag = arg.substr(0, equals);
    bool known = flag == "--function" || flag == "--input" ||
                 flag == "--output" || flag == "--stats" ||
                 flag == "--device" || flag == "--module" ||
                 flag == "--trace" || flag == "--timeout" ||
                 flag == "--print-max-elements";
    if (!known)
      return invalidArgument("unknown flag '", flag,
                             "' (see ferry-run --help)");
    if (equals == std::string_view::npos)
      return invalidArgument(flag, " needs a value: ", flag, "=VALUE");
    std::string value(arg.substr(equals + 1));
    if (flag == "--function") {
      if (value.empty())
        return invalidArgument("--function needs a function name");
      options.function = value;
    } else if (flag == "--input") {
      options.inputs.push_back(value);
    } else if (flag == "--output") {
      if (value.size() < 2 || value.front() != '@')
        return invalidArgument("--output=", value,
                               ": expected @PATH.npy (e.g. --output=@out.npy)");
      options.outputPaths.push_back(value.substr(1));
    } else if (flag == "--module") {
      if (value.empty())
        return invalidArgument("--module needs the path of a plugin (.so)");
      options.pluginPaths.push_back(value);
    } else if (flag == "--stats") {
      if (value.empty())
        return invalidArgument("--stats needs a path");
      options.statsPath = value;
    } else if (flag == "--trace") {
      if (value.empty())
        return invalidArgument("--trace needs a path");
      options.tracePath = value;
    } else if (flag == "--timeout") {
      FERRY_ASSIGN_OR_RETURN(options.timeout, parseTimeout(value));
    } else if (flag == "--print-max-elements") {
      FERRY_ASSIGN_OR_RETURN(options.printMaxElements,
                             parsePrintMaxElements(value));
    } else { // --device
      size_t split = value.find('=');
      if (split == std::string::npos || split == 0 || split + 1 == value.size())
        return invalidArgument("--device=", value,
                               ": expected NAME=DRIVER (e.g. "
                               "--device=device_a=local-sync)");
      std::string device = value.substr(0, split);
      for (const DeviceBinding &earlier : options.devices)
        if (earlier.device == device)
          return invalidArgument("--device=", value, ": device '", device,
                                 "' is already bound to '", earlier.driver,
                                 "' by an earlier --device; bind each "
                                 "device once");
      options.devices.push_back({device, value.substr(split + 1)});
    }
  }
  if (!options.help && options.modulePath.empty())
    return invalidArgument("no module file given (usage: ferry-run "
                           "MODULE.fvm [flags]; see --help)");
  return options;
}

std::string runUsage() {
  return R"(usage: ferry-run MODULE.fvm [flags]

Loads a Ferry bytecode module (written by ferry-compile), runs one of its
functions on the given inputs and prints each result on its own line.

Flags:
  --function=NAME        function to run (default: main)
  --input=SHAPExTYPE=V0,V1,...
                         a tensor argument, in order (repeatable). Values are
                         row-major; TYPE is i1 (values 0 or 1), i8, i16, i32,
                         i64, f16, bf16, f32 or f64 (f16 and bf16 values are
                         decimals rounded to nearest even once, and print as
                         the shortest decimal of the float they hold).
                           --input=4xi32=1,2,3,4
                           --input=2x3xf32=1,2,3,4,5,6
                           --input=3xbf16=1.5,-2,0.1
                           --input=i32=5          (rank 0)
                           --input=0xi32=         (empty)
  --input=@PATH.npy      a tensor argument read from a NumPy .npy file
                         (little-endian, C order, dtypes |b1 (bool: i1) |i1
                         <i2 <i4 <i8 <f2 (f16) <f4 <f8, and <u2 for bf16:
                         NumPy has no bf16, so a bf16 tensor is a uint16
                         array of its bits, the upper half of an f32:
                         (x.view(np.uint32) >> 16).astype(np.uint16); read
                         back with (b.astype(np.uint32) << 16).view(np.float32))
  --input=TYPE=VALUE     a scalar argument; TYPE must be the argument's:
                         i1 (0 or 1), i8, i16, i32, i64, index, f16, bf16,
                         f32 or f64
                           --input=i32=5 --input=f32=2.5 --input=index=7
                           --input=f16=1.5
                         (a mismatch names the argument: "argument 1 of
                         @main is i32, got f32=2.5"). @PATH.npy of a 0-d
                         array feeds one too (i1 as bool, index as i64,
                         bf16 as <u2 bits)
  --output=@PATH.npy     write result N (the Nth --output) to a .npy file
                         (repeatable, in result order; always every
                         element; a scalar as a 0-d array; dtypes as for
                         --input=@PATH.npy, bf16 as <u2 bits); results still
                         print
  --print-max-elements=N print a result of more than N elements (default:
                         1000) summarized, like NumPy: in each dimension
                         longer than 6 only the first and last 3 entries,
                         with "..." between them:
                           2000xi32=[0 1 2 ... 1997 1998 1999]
  --print-all            print every element of every result, however large
                         (the last of --print-all and --print-max-elements
                         wins)
  --stats=PATH           after a successful run, write allocation and device
                         statistics as JSON, counted once everything the run
                         created is released:
                           {"devices": {"NAME": {"allocations": N, ...}},
                            "allocations": N, ...}
                         keys: allocations deallocations bytes_allocated
                         peak_bytes live_bytes_at_exit copies bytes_copied
                         fills dispatches transfers bytes_transferred
                         constant_bytes reclaimed_at_last_reference
                         (copies: queue copies and runs of copy kernels, a
                         strided slice's gather or scatter, counted by the
                         slice's bytes; dispatches: compute kernels;
                         transfers: copies into or back out of a device's
                         stand-in for a buffer of a device it shares no
                         memory or handle type with, staged through host
                         memory; the staging copies count as copies;
                         reclaimed_at_last_reference: queue-allocated
                         buffers no dealloca freed, whose memory went back
                         only when the last reference went: a free the
                         compiled program missed (0 in a correct program;
                         results count as freed by the host))
  --trace=PATH           after the run (also a failed one), write a Chrome
                         trace event JSON file of what it did; open it in
                         the Perfetto UI (ui.perfetto.dev) or
                         chrome://tracing. One track per device queue with
                         every executed alloca, dealloca, barrier, fill,
                         copy, dispatch and host call (args: bytes, kernel),
                         a "live_bytes" counter per device (its allocator's
                         live bytes after each operation), and a "vm" track
                         with the invocation and each external function
                         call (plus an async span until a coarse-fences
                         call signals its fence)
  --device=NAME=DRIVER   run the module's device NAME on DRIVER (repeatable,
                         once per device; default: every device on
                         local-sync; a module without tensors declares no
                         devices and runs on the host alone). Drivers:
                           local-sync      the CPU, operations run inline
                           local-task      the CPU, an in-order queue thread
                                           per device plus helper threads
                           local-discrete  a TESTING device: the CPU with
                                           memory that is not host-visible
                                           and no direct access from other
                                           devices, like a discrete GPU
                           local-isolated  a TESTING device: local-discrete
                                           that imports and exports no
                                           buffer handles, so buffers cross
                                           to and from it only by transfers
                           --device=device_a=local-task
  --module=PATH.so       load a native plugin module (repeatable): a shared
                         library providing the module's imports, e.g. the
                         seed example's Double.function and Triple.function
                         (samples/custom_module; plugin ABI in
                         runtime/modules/plugin_api.h)
  --timeout=SECONDS      fail the run, naming the function, when an external
                         function has not signalled its fence SECONDS after
                         its call returned (e.g. --timeout=30, 0.5), rather
                         than wait for it forever; default: no limit. A
                         function that blocks inside its call is not
                         interrupted
  --help                 show this text

Results print as SHAPExTYPE=[...], scalars as TYPE=VALUE:
  4xi32=[11 22 33 44]    2x3xi32=[1 2 3][4 5 6]    i32=5    0xi32=[]
  index=7    f32=2.5    i1=1
  8x8xi32=[0 1 2 ... 5 6 7][8 9 10 ... 13 14 15][16 17 18 ... 21 22 23]...
          [40 41 42 ... 45 46 47][48 49 50 ... 53 54 55][56 57 58 ... 61 62 63]
                         (summarized, as with --print-max-elements=63; on
                         one line)

Errors print one line, "ferry-run: error: ...", and exit with status 1.
)";
}

} // namespace ferry::tools
