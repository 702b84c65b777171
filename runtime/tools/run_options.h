// ferry-run's command line: parsing flags into RunOptions, and the --help
// text. Kept apart from the tool's main() so it is unit-tested.
//
// Flags are `--flag=value` (see runUsage() for the full list). The first
// argument that does not start with "--" is the module path.
//
// Ownership/threads: plain values and pure functions.
#ifndef FERRY_RUNTIME_TOOLS_RUN_OPTIONS_H_
#define FERRY_RUNTIME_TOOLS_RUN_OPTIONS_H_

#include <chrono>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/tools/host_tensor.h"

namespace ferry::tools {

struct DeviceBinding {
  std::string device; // a device symbol of the module
  std::string driver; // a registered driver name
};

struct RunOptions {
  bool help = false;
  std::string modulePath;
  std::string function = "main";
  std::vector<std::string> inputs;      // each "SHAPExTYPE=..." or "@PATH.npy"
  std::vector<std::string> outputPaths; // .npy paths, in result order
  std::string statsPath;                // empty: no stats
  std::string tracePath;                // empty: no trace
  std::vector<DeviceBinding> devices;
  std::vector<std::string> pluginPaths; // --module=PATH.so, in order
  // --timeout: how long an external function may take to signal its fence
  // (vm::ContextOptions::fenceTimeout). Zero: no limit.
  std::chrono::nanoseconds timeout{0};
  // Results with more elements print summarized (--print-max-elements;
  // --print-all: no limit).
  uint64_t printMaxElements = kDefaultPrintMaxElements;
};

// `args` excludes the program name. Messages name the offending flag.
Result<RunOptions> parseRunOptions(std::span<const std::string_view> args);

std::string runUsage();

} // namespace ferry::tools

#endif // FERRY_RUNTIME_TOOLS_RUN_OPTIONS_H_
