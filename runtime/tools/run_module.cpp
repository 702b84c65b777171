#include "runtime/tools/run_module.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "runtime/drivers/builtin_drivers.h"
#include "runtime/hal/buffer_bits.h"
#include "runtime/hal/driver_registry.h"
#include "runtime/hal/topology.h"
#include "runtime/modules/plugin.h"
#include "runtime/tools/chrome_trace.h"
#include "runtime/tools/file_reader.h"
#include "runtime/tools/host_tensor.h"
#include "runtime/tools/npy.h"
#include "runtime/tools/scalar_value.h"
#include "runtime/vm/context.h"
#include "runtime/vm/module.h"

#include "runtime/tools/json.h"

namespace ferry::tools {
namespace {

std::string statsFields(const DeviceReport &r, std::string_view indent) {
  std::pair<const char *, uint64_t> fields[] = {
      {"allocations", r.allocator.allocations},
      {"deallocations", r.allocator.deallocations},
      {"bytes_allocated", r.allocator.bytesAllocated},
      {"peak_bytes", r.allocator.peakBytes},
      {"live_bytes_at_exit", r.allocator.liveBytes},
      {"copies", r.device.copies},
      {"bytes_copied", r.device.bytesCopied},
      {"fills", r.device.fills},
      {"dispatches", r.device.dispatches},
      {"transfers", r.device.transfers},
      {"bytes_transferred", r.device.bytesTransferred},
      {"constant_bytes", r.allocator.constantBytes},
      {"reclaimed_at_last_reference", r.allocator.reclaimedAtLastReference},
  };
  std::string out;
  for (size_t i = 0; i < std::size(fields); ++i)
    out += strCat(i ? ",\n" : "", indent, "\"", fields[i].first,
                  "\": ", fields[i].second);
  return out;
}

// The program handed its results to the host, which frees the queue-ordered
// ones as their owner, once each: what the allocators count as reclaimed at
// the last reference is then only what the program failed to free.
Status releaseResults(std::span<const vm::Value> results) {
  std::set<const hal::Buffer *> released;
  for (const vm::Value &value : results) {
    if (value.isI64())
      continue;
    const std::shared_ptr<hal::Buffer> &buffer =
        value.refAs<hal::BufferView>()->buffer();
    uint32_t flags = buffer->placement().flags;
    if (!(flags & hal::kBufferPlacementAsynchronous) ||
        (flags & hal::kBufferPlacementIndeterminateLifetime) ||
        !released.insert(&buffer->root()).second)
      continue;
    FERRY_RETURN_IF_ERROR(buffer->release());
  }
  return okStatus();
}

// Everything a run creates; destroyed as a unit before stats are read.
struct Run {
  std::vector<std::shared_ptr<hal::Device>> devices;
  std::shared_ptr<hal::DeviceGroup> group;
  // Declared before the context, so they outlive it.
  std::vector<std::shared_ptr<const vm::NativeModule>> modules;
  std::optional<vm::Context> context;
  std::vector<vm::Value> results;
};

// Host memory the device can copy to and from: where inputs are written and
// results read when the device's own memory is not host-visible.
Result<std::shared_ptr<hal::Buffer>> allocateStaging(hal::Device &device,
                                                     uint64_t size) {
  return device.allocator().allocate(
      hal::kHostVisible | hal::kHostCoherent | hal::kDeviceVisible,
      hal::kTransfer | hal::kMappingScoped, size);
}

// Copies `length` bytes on `device`'s queue and waits for the copy.
Status copyAndWait(hal::Device &device,
                   const std::shared_ptr<hal::Buffer> &source,
                   const std::shared_ptr<hal::Buffer> &target,
                   uint64_t length) {
  auto done = hal::Fence::create();
  FERRY_RETURN_IF_ERROR(
      device.queueCopy(nullptr, done, source, 0, target, 0, length));
  return done->wait();
}

// Puts an input into `device`'s memory: mapped and written directly when that
// memory is host-visible, else written to a staging buffer and copied over
// on the device's queue (the path a discrete GPU needs). `shared`: other
// devices of the run may use it, so it is made exportable where the device
// can export (a device that cannot reach its memory imports it, see
// hal.device.import_buffer).
Result<std::shared_ptr<hal::BufferView>>
uploadInput(hal::Device &device, const HostTensor &tensor, bool shared) {
  uint64_t size = tensor.bytes.size();
  bool hostVisible = device.allocator().defaultMemoryType() & hal::kHostVisible;
  uint32_t sharing = shared && (device.allocator().exportableTypes() &
                                uint32_t(hal::ExternalBufferType::kOpaqueFd))
                         ? hal::kSharingExport
                         : 0;
  std::shared_ptr<hal::Buffer> buffer;
  if (hostVisible) {
    FERRY_ASSIGN_OR_RETURN(
        buffer,
        device.allocator().allocate(
            hal::kHostVisible | hal::kHostCoherent | hal::kDeviceVisible,
            hal::kTransfer | hal::kDispatchStorage | hal::kMapping | sharing,
            size));
    FERRY_ASSIGN_OR_RETURN(std::span<uint8_t> mapped,
                           buffer->map(hal::MappingMode::kScoped));
    if (size)
      std::memcpy(mapped.data(), tensor.bytes.data(), size);
  } else {
    FERRY_ASSIGN_OR_RETURN(
        buffer, device.allocator().allocate(
                    hal::kDeviceLocal,
                    hal::kTransfer | hal::kDispatchStorage | sharing, size));
    if (size) {
      FERRY_ASSIGN_OR_RETURN(std::shared_ptr<hal::Buffer> staging,
                             allocateStaging(device, size));
      FERRY_ASSIGN_OR_RETURN(std::span<uint8_t> mapped,
                             staging->map(hal::MappingMode::kScoped));
      std::memcpy(mapped.data(), tensor.bytes.data(), size);
      FERRY_RETURN_IF_ERROR(copyAndWait(device, staging, buffer, size));
    }
  }
  return hal::BufferView::create(std::move(buffer), tensor.shape,
                                 tensor.elementType);
}

Result<HostTensor> parseInput(const std::string &input) {
  if (input.starts_with("@"))
    return readNpyFile(input.substr(1)); // its errors name the file
  Result<HostTensor> tensor = parseTensorLiteral(input);
  return tensor.ok() ? tensor
                     : tensor.status().withContext(strCat("--input=", input));
}

// The scalar type of i64 argument or result `i` of `function` (`types` is
// its argTypes or resultTypes): the reflected one, else i64.
vm::bytecode::ScalarType
scalarTypeAt(const std::vector<std::optional<vm::bytecode::ScalarType>> &types,
             size_t i) {
  return i < types.size() && types[i] ? *types[i]
                                      : vm::bytecode::ScalarType::kI64;
}

// Scalar argument `index` of `function` from --input=TYPE=VALUE or
// --input=@FILE.npy (a 0-d array); the type must be the argument's.
Result<int64_t> parseScalarInput(const std::string &input,
                                 const vm::Function &function, size_t index) {
  vm::bytecode::ScalarType type = scalarTypeAt(function.argTypes, index);
  std::string_view typeName = vm::bytecode::scalarTypeName(type);
  std::string what = strCat("argument ", index, " of @", function.name, " is ",
                            typeName, ", got ", input);
  Result<HostTensor> tensor = [&]() -> Result<HostTensor> {
    if (input.starts_with("@"))
      return readNpyFile(input.substr(1));
    size_t equals = input.find('=');
    if (equals == std::string::npos || input.substr(0, equals) != typeName)
      return invalidArgument(what);
    Result<hal::ElementType> elementType = scalarElementType(type);
    if (!elementType.ok())
      return elementType.status().withContext(what);
    Result<HostTensor> parsed = parseTensorLiteral(
        strCat(hal::elementTypeName(*elementType), input.substr(equals)));
    return parsed.ok() ? parsed : parsed.status().withContext(what);
  }();
  if (!tensor.ok())
    return tensor.status();
  Result<int64_t> value = scalarFromTensor(*tensor, type);
  if (!value.ok())
    return value.status().withContext(what);
  return value;
}

// Checks a result is a readable view and returns a copy of its bytes. A
// buffer the host cannot map (memory that is not host-visible, or no mapping
// usage) is first copied into a staging buffer on the queue of the device
// whose allocator made it.
Result<std::vector<uint8_t>>
resultBytes(const vm::Value &value, size_t index,
            std::span<const std::shared_ptr<hal::Device>> devices) {
  auto view = value.refAs<hal::BufferView>();
  if (!view)
    return invalidArgument(
        "result ", index, " is ",
        value.isI64() ? "an i64" : strCat("a ", vm::refTypeName(value.ref())),
        ", not a tensor (buffer view)");
  const std::shared_ptr<hal::Buffer> &buffer = view->buffer();
  if (buffer->isReleased())
    return failedPrecondition("result ", index,
                              " is a view of a deallocated buffer");
  uint64_t length = view->byteLength();
  bool mappable =
      (buffer->memoryType() & hal::kHostVisible) &&
      (buffer->usage() & (hal::kMappingScoped | hal::kMappingPersistent));
  if (!mappable && !length)
    return std::vector<uint8_t>(); // nothing to copy back
  std::shared_ptr<hal::Buffer> readable = buffer;
  if (!mappable) {
    auto owner = std::find_if(devices.begin(), devices.end(), [&](auto &d) {
      return &d->allocator() == &buffer->allocator();
    });
    if (owner == devices.end())
      return failedPrecondition("result ", index, ": ", buffer->describe(),
                                " is not host-visible and belongs to no "
                                "device of this run to stage it through");
    Status status = [&]() -> Status {
      FERRY_ASSIGN_OR_RETURN(readable, allocateStaging(**owner, length));
      return copyAndWait(**owner, buffer, readable, length);
    }();
    if (!status.ok())
      return status.withContext(strCat("result ", index, " (staging it)"));
  }
  Result<std::span<uint8_t>> mapped =
      readable->map(hal::MappingMode::kScoped, 0, length);
  if (!mapped.ok())
    return mapped.status().withContext(strCat("result ", index));
  return std::vector<uint8_t>(mapped->begin(), mapped->end());
}

// `recorder` (null: no --trace) is attached to every device and the context.
Status runInto(const RunOptions &options, Run &run, std::ostream &out,
               TraceRecorder *recorder) {
  Result<std::vector<uint8_t>> file = readModuleFile(options.modulePath);
  if (!file.ok())
    return file.status();
  Result<vm::Module> loaded = vm::Module::load(*file);
  if (!loaded.ok())
    return loaded.status().withContext(strCat("'", options.modulePath, "'"));
  auto module = std::make_shared<const vm::Module>(std::move(*loaded));
  // A module without tensors declares no devices: its functions run on the
  // host alone (scalars in and out), and only a tensor input needs one.
  const std::vector<std::string> &deviceNames = module->deviceNames();

  // Bind devices to drivers.
  std::map<std::string, std::string, std::less<>> drivers;
  for (const DeviceBinding &binding : options.devices) {
    if (std::find(deviceNames.begin(), deviceNames.end(), binding.device) ==
        deviceNames.end()) {
      std::string known;
      for (const std::string &name : deviceNames)
        known += strCat(known.empty() ? "" : ", ", "'", name, "'");
      return notFound(
          "--device=", binding.device, "=", binding.driver,
          ": the module has no device '", binding.device, "' (",
          known.empty() ? "it declares none" : strCat("devices: ", known), ")");
    }
    drivers[binding.device] = binding.driver;
  }
  hal::DriverRegistry registry;
  FERRY_RETURN_IF_ERROR(drivers::registerBuiltinDrivers(registry));
  for (const std::string &name : deviceNames) {
    auto it = drivers.find(name);
    std::string_view driver =
        it == drivers.end() ? drivers::kDefaultDriverName : it->second;
    Result<std::shared_ptr<hal::Device>> device =
        registry.createDevice(driver, name);
    if (!device.ok())
      return device.status().withContext(strCat("device '", name, "'"));
    if (recorder)
      recorder->attach(**device);
    run.devices.push_back(std::move(*device));
  }
  // One group: the devices learn their links (copies between them, device
  // queries from the program).
  FERRY_ASSIGN_OR_RETURN(run.group, hal::DeviceGroup::create(run.devices));
  for (const std::string &path : options.pluginPaths) {
    Result<std::vector<std::shared_ptr<const vm::NativeModule>>> loaded =
        modules::loadPlugin(path);
    if (!loaded.ok())
      return loaded.status().withContext(strCat("--module=", path));
    run.modules.insert(run.modules.end(), loaded->begin(), loaded->end());
  }
  Result<vm::Context> context = vm::Context::create(
      module, run.devices, run.modules, {.fenceTimeout = options.timeout});
  if (!context.ok()) {
    if (context.status().code() == StatusCode::kNotFound &&
        !module->imports().empty())
      return notFound(context.status().message(),
                      "; load a plugin that provides it with --module=PATH.so");
    return context.status();
  }
  run.context.emplace(std::move(*context));
  if (recorder)
    recorder->attach(*run.context);

  const vm::Function *function = module->lookupFunction(options.function);
  if (!function)
    return notFound("module has no function '", options.function,
                    "' (functions: ", module->functionNamesString(), ")");
  if (function->argKinds.size() != options.inputs.size())
    return invalidArgument("function '", function->name, "' expects ",
                           function->argKinds.size(), " input",
                           function->argKinds.size() == 1 ? "" : "s", ", got ",
                           options.inputs.size());
  if (options.outputPaths.size() > function->resultKinds.size())
    return invalidArgument(
        options.outputPaths.size(), " --output files given but function '",
        function->name, "' has ", function->resultKinds.size(), " results");

  std::vector<vm::Value> args;
  for (const std::string &input : options.inputs) {
    if (function->argKinds[args.size()] == vm::RegisterKind::kI64) {
      FERRY_ASSIGN_OR_RETURN(int64_t value,
                             parseScalarInput(input, *function, args.size()));
      args.emplace_back(value);
      continue;
    }
    FERRY_ASSIGN_OR_RETURN(HostTensor tensor, parseInput(input));
    if (run.devices.empty())
      return failedPrecondition(
          "--input=", input, ": function '", function->name,
          "' takes a tensor as input ", args.size(), ", but '",
          options.modulePath,
          "' declares no devices to hold it (a module declares a device "
          "when it has tensors)");
    Result<std::shared_ptr<hal::BufferView>> view =
        uploadInput(*run.devices.front(), tensor, run.devices.size() > 1);
    if (!view.ok())
      return view.status().withContext(strCat("--input=", input));
    args.emplace_back(std::move(*view));
  }

  if (recorder)
    recorder->sampleLiveBytes(); // the uploaded inputs
  auto start = TraceRecorder::Clock::now();
  // The host holds its inputs until the call returns (the program may drop
  // its references to a lent input at its last use, but the memory is the
  // host's), then lets them go before reading the results back.
  Result<std::vector<vm::Value>> results =
      run.context->invoke(options.function, args);
  args.clear();
  if (recorder)
    recorder->recordVmSpan(strCat("invoke ", options.function), start,
                           TraceRecorder::Clock::now());
  if (!results.ok())
    return results.status();
  run.results = std::move(*results);
  // The inputs and the program's temporaries went back to the allocators'
  // pools; give those blocks back to the system before the results are
  // read back, so a large run's resident memory does not carry them.
  for (const std::shared_ptr<hal::Device> &device : run.devices)
    device->allocator().trim();

  // Each result is read back once (staging counts as a copy in --stats),
  // all of them before anything prints.
  std::vector<std::vector<uint8_t>> resultData(run.results.size());
  for (size_t i = 0; i < run.results.size(); ++i) {
    if (!run.results[i].isI64()) {
      FERRY_ASSIGN_OR_RETURN(resultData[i],
                             resultBytes(run.results[i], i, run.devices));
    }
  }
  for (size_t i = 0; i < run.results.size(); ++i) {
    const vm::Value &value = run.results[i];
    if (value.isI64()) {
      out << formatScalar(value.i64(), scalarTypeAt(function->resultTypes, i))
          << '\n';
      continue;
    }
    auto view = value.refAs<hal::BufferView>();
    writeTensorLine(out, view->shape(), view->elementType(), resultData[i],
                    options.printMaxElements);
  }
  for (size_t i = 0; i < options.outputPaths.size(); ++i) {
    const vm::Value &value = run.results[i];
    // A scalar is a 0-d array.
    if (value.isI64()) {
      Result<HostTensor> scalar =
          scalarToTensor(value.i64(), scalarTypeAt(function->resultTypes, i));
      if (!scalar.ok())
        return scalar.status().withContext(strCat("result ", i));
      FERRY_RETURN_IF_ERROR(writeNpyFile(options.outputPaths[i], {},
                                         scalar->elementType, scalar->bytes));
      continue;
    }
    std::span<const uint8_t> bytes = resultData[i];
    auto view = value.refAs<hal::BufferView>();
    FERRY_RETURN_IF_ERROR(writeNpyFile(options.outputPaths[i], view->shape(),
                                       view->elementType(), bytes));
  }
  return releaseResults(run.results);
}

} // namespace

std::string formatStatsJson(std::span<const DeviceReport> reports) {
  DeviceReport total;
  std::string out = "{\n  \"devices\": {";
  for (size_t i = 0; i < reports.size(); ++i) {
    const DeviceReport &r = reports[i];
    out += strCat(i ? "," : "", "\n    ", jsonString(r.name), ": {\n",
                  statsFields(r, "      "), "\n    }");
    total.allocator.allocations += r.allocator.allocations;
    total.allocator.deallocations += r.allocator.deallocations;
    total.allocator.bytesAllocated += r.allocator.bytesAllocated;
    total.allocator.peakBytes += r.allocator.peakBytes;
    total.allocator.liveBytes += r.allocator.liveBytes;
    total.device.copies += r.device.copies;
    total.device.bytesCopied += r.device.bytesCopied;
    total.device.fills += r.device.fills;
    total.device.dispatches += r.device.dispatches;
    total.device.transfers += r.device.transfers;
    total.device.bytesTransferred += r.device.bytesTransferred;
    total.allocator.constantBytes += r.allocator.constantBytes;
    total.allocator.reclaimedAtLastReference +=
        r.allocator.reclaimedAtLastReference;
  }
  out += reports.empty() ? "},\n" : "\n  },\n";
  out += statsFields(total, "  ");
  out += "\n}\n";
  return out;
}

Status runModule(const RunOptions &options, std::ostream &out) {
  std::vector<DeviceReport> reports;
  Status status;
  // Outlives the run: asynchronous work reports to it until the end.
  std::optional<TraceRecorder> recorder;
  if (!options.tracePath.empty())
    recorder.emplace();
  {
    Run run;
    status = runInto(options, run, out, recorder ? &*recorder : nullptr);
    // Release the program's objects first, then read what the allocators
    // saw once every buffer is gone; they outlive the devices that own them.
    run.results.clear();
    run.context.reset();
    run.modules.clear(); // unloads plugins
    std::vector<std::shared_ptr<hal::Allocator>> allocators;
    for (const std::shared_ptr<hal::Device> &device : run.devices) {
      reports.push_back({device->name(), {}, device->statistics()});
      allocators.push_back(device->sharedAllocator());
    }
    run.group.reset();
    run.devices.clear();
    for (size_t i = 0; i < reports.size(); ++i)
      reports[i].allocator = allocators[i]->statistics();
  }
  if (recorder) {
    // Everything is released: the counters end at what leaked.
    recorder->sampleLiveBytes();
    std::string json = recorder->json();
    Status written = writeFileBytes(
        options.tracePath,
        std::span<const uint8_t>(reinterpret_cast<const uint8_t *>(json.data()),
                                 json.size()));
    if (!written.ok() && status.ok())
      return written.withContext("--trace");
  }
  if (!status.ok())
    return status;
  if (!options.statsPath.empty()) {
    std::string json = formatStatsJson(reports);
    FERRY_RETURN_IF_ERROR(writeFileBytes(
        options.statsPath,
        std::span<const uint8_t>(reinterpret_cast<const uint8_t *>(json.data()),
                                 json.size())));
  }
  return okStatus();
}

} // namespace ferry::tools
