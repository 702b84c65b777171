#include "runtime/hal/buffer_import.h"

#include <unistd.h>

#include "runtime/hal/buffer_bits.h"

namespace ferry::hal {
namespace {

// A buffer on `device` standing in for `buffer`, which no handle type can
// bring there: the queue operations copy it in and write it back.
Result<std::shared_ptr<Buffer>>
makeTransferMirror(Device &device, const std::shared_ptr<Buffer> &buffer,
                   std::string_view operation) {
  Allocator &target = device.allocator();
  uint32_t usage = kTransfer | (buffer->usage() & kDispatchStorage);
  Result<std::shared_ptr<Buffer>> mirror =
      target.allocate(target.defaultMemoryType(), usage, buffer->byteLength());
  if (!mirror.ok())
    return mirror.status().withContext(
        strCat(buffer->describe(), ": ", operation,
               ": allocating the buffer it is transferred into"));
  (*mirror)->setTransferSource(buffer);
  return mirror;
}

} // namespace

Result<std::shared_ptr<Buffer>>
importBufferToDevice(Device &device, const std::shared_ptr<Buffer> &buffer,
                     const std::shared_ptr<Fence> &wait) {
  if (!buffer)
    return invalidArgument("import into device '", device.name(),
                           "': the buffer is null");
  Allocator &owner = buffer->allocator();
  if (&owner == &device.allocator())
    return buffer;

  // Name the owner by its device when the group knows it.
  std::string ownerName = owner.name();
  bool inGroup = false;
  if (std::shared_ptr<const Topology> topology = device.topology()) {
    std::optional<size_t> self = topology->indexOf(device.name());
    std::optional<size_t> other = topology->indexOfAllocator(&owner);
    if (self && other) {
      if (topology->link(*self, *other).transparentAccess)
        return buffer; // shared memory: nothing to import
      inGroup = true;
      ownerName = strCat("device '", topology->node(*other).name, "'");
    }
  }
  std::string operation =
      strCat("import from ", ownerName, " into device '", device.name(), "'");

  // No handle type both sides know: the device uses a copy instead (a
  // transfer, staged through host memory by the queue operations).
  constexpr auto kFd = ExternalBufferType::kOpaqueFd;
  Allocator &target = device.allocator();
  if (!(owner.exportableTypes() & target.importableTypes() & uint32_t(kFd))) {
    if (!inGroup)
      return failedPrecondition(
          buffer->describe(), ": ", operation,
          ": no handle type connects them (exports: ",
          formatExternalBufferTypes(owner.exportableTypes()),
          "; imports: ", formatExternalBufferTypes(target.importableTypes()),
          ") and a transfer needs both devices in one device group");
    return makeTransferMirror(device, buffer, operation);
  }
  FERRY_RETURN_IF_ERROR(buffer->requireUsage(kSharingExport, operation));

  // A pending buffer gets its memory (and fd) when its alloca executes.
  if (!buffer->data() && !buffer->isReleased() && wait) {
    Status waited = wait->wait();
    if (!waited.ok())
      return waited.withContext(strCat(buffer->describe(), ": ", operation,
                                       ": waiting for its allocation"));
  }

  Result<ExternalBuffer> exported = owner.exportBuffer(*buffer, kFd);
  if (!exported.ok())
    return exported.status().withContext(operation);
  BufferParams params{buffer->memoryType(), buffer->usage() & ~kSharingExport};
  Result<std::shared_ptr<Buffer>> imported =
      target.importBuffer(params, *exported);
  close(exported->fd); // the import maps it; the mapping keeps the memory
  if (!imported.ok())
    return imported.status().withContext(
        strCat(buffer->describe(), ": ", operation));
  return imported;
}

} // namespace ferry::hal
