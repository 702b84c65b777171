#include "runtime/drivers/local/local_device.h"

#include <cstring>
#include <thread>

#include "runtime/drivers/local/elementwise_kernels.h"

namespace ferry::drivers::local {

// Below this many bytes an operation runs on the queue thread alone: handing
// chunks to helpers costs more than it saves.
static constexpr uint64_t kParallelGrainBytes = uint64_t(1) << 20;

// local-task runs a self-contained operation touching at most this many
// bytes on the submitting thread when its queue is idle and its wait fence
// resolved: two thread hand-offs (to the queue thread, back to a host
// waiting on the signal fence) cost more than such an operation's work.
// Larger ones stay on the queue thread, so the host can issue more work
// (to this device or another) while they run.
static constexpr uint64_t kInlineMaxBytes = uint64_t(1) << 20;

std::shared_ptr<LocalDevice> LocalDevice::create(std::string_view name,
                                                 LocalDeviceOptions options) {
  hal::AllocatorOptions allocatorOptions;
  allocatorOptions.maxAllocationBytes = options.maxAllocationBytes;
  allocatorOptions.hostVisible = !options.discrete;
  allocatorOptions.externalHandles = options.externalHandles;
  auto allocator = hal::Allocator::create(strCat("device '", name, "' heap"),
                                          allocatorOptions);
  return std::shared_ptr<LocalDevice>(
      new LocalDevice(std::string(name), std::move(allocator), options));
}

LocalDevice::LocalDevice(std::string name,
                         std::shared_ptr<hal::Allocator> allocator,
                         LocalDeviceOptions options)
    : hal::Device(std::move(name), std::move(allocator),
                  /*executesInline=*/!options.asynchronous),
      options_(options) {
  if (options_.asynchronous) {
    if (!options_.workerCount)
      options_.workerCount = std::max(1u, std::thread::hardware_concurrency());
    executor_ = std::make_unique<TaskExecutor>(options_.workerCount);
  } else {
    options_.workerCount = 1;
  }
}

// Work still queued (after an error the program stopped waiting for it)
// uses this device: its members, its allocator and `executor_` itself for
// the parallel parts. So the queue drains and every thread joins first,
// while all of that is intact; only then does the executor go (with the
// members). Resetting `executor_` first raced the queue thread reading it.
LocalDevice::~LocalDevice() {
  if (executor_)
    executor_->shutdown();
}

std::string_view LocalDevice::driverName() const {
  if (options_.discrete)
    return options_.externalHandles ? kLocalDiscreteDriverName
                                    : kLocalIsolatedDriverName;
  return options_.asynchronous ? kLocalTaskDriverName : kLocalSyncDriverName;
}

hal::DeviceCapabilities LocalDevice::capabilities() const {
  hal::DeviceCapabilities caps;
  // Every non-discrete local device shares the process's memory; a discrete
  // one pretends to have its own.
  caps.addressSpace =
      options_.discrete ? strCat("local-discrete:", name()) : "host";
  caps.hostVisible = !options_.discrete;
  caps.hostCoherent = !options_.discrete;
  caps.unifiedMemory = !options_.discrete;
  caps.memoryTypes = allocator().defaultMemoryType();
  caps.importTypes = allocator().importableTypes();
  caps.exportTypes = allocator().exportableTypes();
  caps.concurrency = options_.workerCount;
  caps.maxAllocationBytes = allocator().options().maxAllocationBytes;
  return caps;
}

Status LocalDevice::submit(const std::shared_ptr<hal::Fence> &wait,
                           const std::shared_ptr<hal::Fence> &signal,
                           std::function<Status()> work, WorkHints hints) {
  if (!executor_)
    return runOrdered(wait, signal, work);
  bool small = hints.bytes <= kInlineMaxBytes;
  // Like a queued operation, one run here reports its failure through
  // `signal` only.
  if (options_.inlineSmallOperations && hints.selfContained && small &&
      (!wait || wait->isResolved()) && executor_->runIfIdle([&] {
        runningSmallOperation_ = small;
        (void)runOrdered(wait, signal, work);
      }))
    return okStatus();
  signal->addPendingSignal();
  executor_->enqueue(
      [this, small, wait, signal, work = std::move(work)]() mutable {
        runningSmallOperation_ = small;
        (void)runOrdered(wait, signal, work);
      });
  return okStatus();
}

// Fills with an 8-byte pattern (already widened; 1-byte patterns use memset).
static void fillRange(uint8_t *target, uint64_t length, uint64_t wide,
                      uint32_t patternLength) {
  if (patternLength == 1) {
    std::memset(target, int(wide & 0xff), length);
    return;
  }
  uint64_t words = length / 8;
#if defined(__x86_64__)
  // `rep stosq` takes the same fast-string path as memset for large sizes
  // (no read-for-ownership of the target lines); a plain store loop reaches
  // only about a third of memset's bandwidth here.
  {
    void *destination = target;
    uint64_t count = words;
    asm volatile("rep stosq"
                 : "+D"(destination), "+c"(count)
                 : "a"(wide)
                 : "memory");
  }
#else
  for (uint64_t i = 0; i < words; ++i)
    std::memcpy(target + i * 8, &wide, 8);
#endif
  std::memcpy(target + words * 8, &wide, length - words * 8);
}

void LocalDevice::executeFill(uint8_t *target, uint64_t length,
                              uint64_t pattern, uint32_t patternLength) {
  // Widen the pattern to 8 bytes; a pattern of one repeated byte is memset.
  uint64_t wide = 0;
  for (uint32_t i = 0; i < 8; i += patternLength)
    std::memcpy(reinterpret_cast<uint8_t *>(&wide) + i, &pattern,
                patternLength);
  uint8_t first = uint8_t(wide);
  if (wide == first * 0x0101010101010101ull)
    patternLength = 1;
  if (!executor_) {
    fillRange(target, length, wide, patternLength);
    return;
  }
  // Chunks start at multiples of 8 bytes so the pattern stays in phase.
  uint64_t words = (length + 7) / 8;
  executor_->parallelFor(
      words, kParallelGrainBytes / 8, [&](uint64_t begin, uint64_t end) {
        uint64_t from = begin * 8;
        uint64_t to = std::min(length, end * 8);
        fillRange(target + from, to - from, wide, patternLength);
      });
}

void LocalDevice::executeCopy(const uint8_t *source, uint8_t *target,
                              uint64_t length) {
  if (!executor_) {
    std::memcpy(target, source, length);
    return;
  }
  executor_->parallelFor(
      length, kParallelGrainBytes, [&](uint64_t begin, uint64_t end) {
        std::memcpy(target + begin, source + begin, end - begin);
      });
}

Status LocalDevice::executeDispatch(hal::BuiltinKernel kernel,
                                    hal::ElementType elementType,
                                    uint64_t count,
                                    std::span<uint8_t *const> bindings) {
  if (!executor_)
    return runElementwiseKernel(kernel, elementType, count, bindings[0],
                                bindings[1], bindings[2]);
  size_t size = hal::elementByteSize(elementType);
  std::mutex mutex;
  Status result;
  executor_->parallelFor(
      count, kParallelGrainBytes / size, [&](uint64_t begin, uint64_t end) {
        uint64_t at = begin * size;
        Status status = runElementwiseKernel(kernel, elementType, end - begin,
                                             bindings[0] + at, bindings[1] + at,
                                             bindings[2] + at);
        if (!status.ok()) {
          std::lock_guard<std::mutex> lock(mutex);
          if (result.ok())
            result = status;
        }
      });
  return result;
}

Status LocalDevice::executeWorkgroups(
    uint64_t count, const std::function<Status(uint64_t, uint64_t)> &run) {
  if (!executor_)
    return run(0, count);
  // Workgroups are the unit of work: each chunk runs a range of them. A
  // small operation's few microseconds of workgroups are not worth waking a
  // parked helper for (task_executor.h).
  std::mutex mutex;
  Status result;
  executor_->parallelFor(
      count, 1,
      [&](uint64_t begin, uint64_t end) {
        Status status = run(begin, end);
        if (!status.ok()) {
          std::lock_guard<std::mutex> lock(mutex);
          if (result.ok())
            result = status;
        }
      },
      runningSmallOperation_ ? TaskExecutor::Split::kIfWorthAWakeUp
                             : TaskExecutor::Split::kAtOnce);
  return result;
}

Status registerLocalDrivers(hal::DriverRegistry &registry) {
  struct Entry {
    std::string_view name;
    LocalDeviceOptions options;
  };
  const Entry entries[] = {
      {kLocalSyncDriverName, {}},
      {kLocalTaskDriverName, {.asynchronous = true}},
      {kLocalDiscreteDriverName, {.discrete = true}},
      {kLocalIsolatedDriverName, {.discrete = true, .externalHandles = false}},
  };
  for (const Entry &entry : entries) {
    LocalDeviceOptions options = entry.options;
    FERRY_RETURN_IF_ERROR(registry.registerDriver(
        std::string(entry.name),
        [options](
            std::string_view name) -> Result<std::shared_ptr<hal::Device>> {
          return std::shared_ptr<hal::Device>(
              LocalDevice::create(name, options));
        }));
  }
  return okStatus();
}

} // namespace ferry::drivers::local
