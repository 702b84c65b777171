// LocalDevice: the local CPU driver, in three configurations.
//
//   local-sync      queue operations run inline on the calling thread: wait,
//                   run, resolve the signal fence, return. The reference
//                   driver, simple enough to be obviously right.
//   local-task      a TaskExecutor: one in-order queue thread per device plus
//                   helper threads that split copies, fills and dispatches
//                   (an executable's grid by workgroups);
//                   queue calls return as soon as the work is queued. A
//                   small self-contained operation (no host call or
//                   transfer, at most 1 MiB touched) submitted while the
//                   queue is idle and its wait fence resolved runs on the
//                   submitting thread instead. Helpers split a small
//                   dispatch's workgroups only if they are awake or the
//                   work looks worth waking them for (task_executor.h).
//   local-discrete  a TESTING device: local-sync whose default memory is
//                   not host-visible (a device heap plus a host-visible
//                   staging heap), with its own address space and imports /
//                   exports only through opaque fds. It gives the paths real
//                   GPUs need (explicit transfers, staging, export/import,
//                   no transparent access from other devices) a device to
//                   run on without a GPU. Its memory is still host memory, so
//                   it proves the runtime's checks, not a driver's.
//   local-isolated  a TESTING device: local-discrete that imports and exports
//                   no handle type, so no other device can use its memory
//                   and it can use no other device's: buffers cross only by
//                   transfers through host staging (buffer_import.h).
//
// Every instance has its own allocator (heaps and pools). Memory, queue
// policy and capability checks come from hal::Device; this file supplies how
// work runs and the compute.
//
// Ownership/threads: held by std::shared_ptr; queue operations may come from
// any thread. Destroying a local-task device runs what was queued first.
#ifndef FERRY_RUNTIME_DRIVERS_LOCAL_LOCAL_DEVICE_H_
#define FERRY_RUNTIME_DRIVERS_LOCAL_LOCAL_DEVICE_H_

#include <memory>
#include <string_view>

#include "runtime/drivers/builtin_backends.h"
#include "runtime/drivers/local/task_executor.h"
#include "runtime/hal/device.h"
#include "runtime/hal/driver_registry.h"

namespace ferry::drivers::local {

// Driver names, shared with the compiler: runtime/drivers/builtin_backends.h.
using drivers::kLocalDiscreteDriverName;
using drivers::kLocalIsolatedDriverName;
using drivers::kLocalSyncDriverName;
using drivers::kLocalTaskDriverName;

struct LocalDeviceOptions {
  // Run on a TaskExecutor (local-task) rather than inline (local-sync).
  bool asynchronous = false;
  // Threads sharing one operation on local-task; 0: the machine's cores.
  uint32_t workerCount = 0;
  // local-task: run small self-contained operations on the submitting
  // thread when the queue is idle (see above); false queues every one
  // (tests of the queue thread's path).
  bool inlineSmallOperations = true;
  // The discrete testing memory model (see above).
  bool discrete = false;
  // false: no external handle types (local-isolated, see above).
  bool externalHandles = true;
  // Bounds a single allocation (0: physical memory).
  uint64_t maxAllocationBytes = 0;
};

class LocalDevice final : public hal::Device {
public:
  static std::shared_ptr<LocalDevice> create(std::string_view name,
                                             LocalDeviceOptions options = {});
  ~LocalDevice() override;

  std::string_view driverName() const override;
  hal::DeviceCapabilities capabilities() const override;
  const LocalDeviceOptions &options() const { return options_; }
  // local-task: how many queue operations ran on their submitting thread
  // (see above); 0 on the other configurations.
  uint64_t operationsRunInline() const {
    return executor_ ? executor_->itemsRunInline() : 0;
  }
  // local-task: how many small operations' workgroups ran on one thread
  // because waking a parked helper was not worth it (task_executor.h); 0
  // on the other configurations.
  uint64_t splitsDeclined() const {
    return executor_ ? executor_->splitsDeclined() : 0;
  }

protected:
  Status submit(const std::shared_ptr<hal::Fence> &wait,
                const std::shared_ptr<hal::Fence> &signal,
                std::function<Status()> work, WorkHints hints) override;
  void executeFill(uint8_t *target, uint64_t length, uint64_t pattern,
                   uint32_t patternLength) override;
  void executeCopy(const uint8_t *source, uint8_t *target,
                   uint64_t length) override;
  Status executeDispatch(hal::BuiltinKernel kernel,
                         hal::ElementType elementType, uint64_t count,
                         std::span<uint8_t *const> bindings) override;
  Status executeWorkgroups(
      uint64_t count,
      const std::function<Status(uint64_t, uint64_t)> &run) override;

private:
  LocalDevice(std::string name, std::shared_ptr<hal::Allocator> allocator,
              LocalDeviceOptions options);

  LocalDeviceOptions options_;
  std::unique_ptr<TaskExecutor> executor_; // local-task only
  // local-task: the running operation touches at most kInlineMaxBytes (its
  // hints). Set by the thread that runs an operation before running it, read
  // by that thread in the compute hooks; the executor runs one operation at
  // a time and hands over under its lock.
  bool runningSmallOperation_ = false;
};

// Registers local-sync, local-task, local-discrete and local-isolated.
Status registerLocalDrivers(hal::DriverRegistry &registry);

} // namespace ferry::drivers::local

#endif // FERRY_RUNTIME_DRIVERS_LOCAL_LOCAL_DEVICE_H_
