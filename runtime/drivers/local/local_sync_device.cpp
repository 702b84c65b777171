#include "runtime/drivers/local/local_sync_device.h"

#include "runtime/drivers/local/elementwise_kernels.h"

namespace ferry::drivers::local {

std::shared_ptr<LocalSyncDevice>
LocalSyncDevice::create(std::string_view name, uint64_t maxAllocationBytes) {
  auto allocator = hal::HeapAllocator::create(
      strCat("device '", name, "' heap"), maxAllocationBytes);
  return std::shared_ptr<LocalSyncDevice>(
      new LocalSyncDevice(std::string(name), std::move(allocator)));
}

Status
LocalSyncDevice::awaitDependency(std::string_view op,
                                 const std::shared_ptr<hal::Fence> &wait,
                                 const std::shared_ptr<hal::Fence> &signal) {
  if (!signal)
    return invalidArgument(op, " on device '", name(),
                           "': the signal fence is null");
  if (!wait)
    return okStatus();
  Status status = wait->wait();
  if (!status.ok())
    signal->fail(status);
  return status;
}

Status LocalSyncDevice::complete(const std::shared_ptr<hal::Fence> &signal,
                                 Status status) {
  if (status.ok())
    signal->signal();
  else
    signal->fail(status);
  return status;
}

Result<std::shared_ptr<hal::Buffer>>
LocalSyncDevice::queueAlloca(const std::shared_ptr<hal::Fence> &wait,
                             const std::shared_ptr<hal::Fence> &signal,
                             uint32_t memoryType, uint32_t usage, uint64_t size,
                             uint32_t flags) {
  FERRY_RETURN_IF_ERROR(awaitDependency("queue alloca", wait, signal));
  if (flags & ~hal::kQueueAllocaKnownFlags)
    return complete(signal,
                    invalidArgument("queue alloca on device '", name(),
                                    "': unknown flags 0x", std::hex,
                                    flags & ~hal::kQueueAllocaKnownFlags));
  Result<std::shared_ptr<hal::Buffer>> buffer =
      allocator().allocate(memoryType, usage, size, flags);
  if (!buffer.ok())
    return complete(signal, buffer.status().withContext(strCat(
                                "queue alloca on device '", name(), "'")));
  signal->signal();
  return buffer;
}

Status
LocalSyncDevice::queueDealloca(const std::shared_ptr<hal::Fence> &wait,
                               const std::shared_ptr<hal::Fence> &signal,
                               const std::shared_ptr<hal::Buffer> &buffer,
                               uint32_t flags) {
  FERRY_RETURN_IF_ERROR(awaitDependency("queue dealloca", wait, signal));
  std::string context = strCat("queue dealloca on device '", name(), "'");
  if (flags & ~hal::kQueueDeallocaKnownFlags)
    return complete(signal,
                    invalidArgument(context, ": unknown flags 0x", std::hex,
                                    flags & ~hal::kQueueDeallocaKnownFlags));
  if (!buffer)
    return complete(signal, invalidArgument(context, ": the buffer is null"));
  // Indeterminate lifetime: the last reference frees it; this only orders.
  if (buffer->placement().allocaFlags & hal::kQueueAllocaIndeterminateLifetime)
    return complete(signal, okStatus());
  return complete(signal, buffer->release().withContext(context));
}

Status LocalSyncDevice::queueDispatch(
    const std::shared_ptr<hal::Fence> &wait,
    const std::shared_ptr<hal::Fence> &signal, hal::BuiltinKernel kernel,
    hal::ElementType elementType, uint64_t count,
    std::span<const std::shared_ptr<hal::Buffer>> bindings) {
  FERRY_RETURN_IF_ERROR(awaitDependency("queue dispatch", wait, signal));
  std::string context = strCat("queue dispatch on device '", name(), "'");
  Status status = hal::validateDispatch(kernel, elementType, count, bindings);
  if (!status.ok())
    return complete(signal, status.withContext(context));
  recordDispatch();
  status = runElementwiseKernel(kernel, elementType, count, bindings[0]->data(),
                                bindings[1]->data(), bindings[2]->data());
  return complete(signal, status.withContext(context));
}

Status registerLocalSyncDriver(hal::DriverRegistry &registry) {
  return registry.registerDriver(
      std::string(kLocalSyncDriverName),
      [](std::string_view name) -> Result<std::shared_ptr<hal::Device>> {
        return std::shared_ptr<hal::Device>(LocalSyncDevice::create(name));
      });
}

} // namespace ferry::drivers::local
