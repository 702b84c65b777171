// LocalSyncDevice: the local CPU driver ("local-sync"), synchronous.
//
// Every queue operation runs inline on the calling thread: it waits for the
// wait fence, runs, and resolves the signal fence before returning (see the
// queue contract in runtime/hal/device.h). Memory comes from a HeapAllocator.
// It is the reference driver: simple enough to be obviously right, and what
// asynchronous drivers are checked against.
//
// Ownership/threads: held by std::shared_ptr; operations from several threads
// are safe but not ordered with each other except through fences.
#ifndef FERRY_RUNTIME_DRIVERS_LOCAL_LOCAL_SYNC_DEVICE_H_
#define FERRY_RUNTIME_DRIVERS_LOCAL_LOCAL_SYNC_DEVICE_H_

#include <memory>
#include <string_view>

#include "runtime/hal/device.h"
#include "runtime/hal/driver_registry.h"

namespace ferry::drivers::local {

inline constexpr std::string_view kLocalSyncDriverName = "local-sync";

class LocalSyncDevice final : public hal::Device {
public:
  // `maxAllocationBytes` bounds a single allocation (0: physical memory); see
  // HeapAllocator.
  static std::shared_ptr<LocalSyncDevice>
  create(std::string_view name, uint64_t maxAllocationBytes = 0);

  std::string_view driverName() const override { return kLocalSyncDriverName; }

  Result<std::shared_ptr<hal::Buffer>>
  queueAlloca(const std::shared_ptr<hal::Fence> &wait,
              const std::shared_ptr<hal::Fence> &signal, uint32_t memoryType,
              uint32_t usage, uint64_t size, uint32_t flags) override;
  Status queueDealloca(const std::shared_ptr<hal::Fence> &wait,
                       const std::shared_ptr<hal::Fence> &signal,
                       const std::shared_ptr<hal::Buffer> &buffer,
                       uint32_t flags) override;
  Status queueDispatch(
      const std::shared_ptr<hal::Fence> &wait,
      const std::shared_ptr<hal::Fence> &signal, hal::BuiltinKernel kernel,
      hal::ElementType elementType, uint64_t count,
      std::span<const std::shared_ptr<hal::Buffer>> bindings) override;

private:
  using hal::Device::Device;
  // Waits for `wait`; on failure fails `signal` and returns the failure.
  Status awaitDependency(std::string_view op,
                         const std::shared_ptr<hal::Fence> &wait,
                         const std::shared_ptr<hal::Fence> &signal);
  // Resolves `signal` with `status` and returns it.
  Status complete(const std::shared_ptr<hal::Fence> &signal, Status status);
};

// Registers "local-sync".
Status registerLocalSyncDriver(hal::DriverRegistry &registry);

} // namespace ferry::drivers::local

#endif // FERRY_RUNTIME_DRIVERS_LOCAL_LOCAL_SYNC_DEVICE_H_
