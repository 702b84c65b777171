#include "runtime/hal/buffer_import.h"

#include <unistd.h>

#include "runtime/hal/buffer_bits.h"

namespace ferry::hal {

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
  if (std::shared_ptr<const Topology> topology = device.topology()) {
    std::optional<size_t> self = topology->indexOf(device.name());
    std::optional<size_t> other = topology->indexOfAllocator(&owner);
    if (self && other) {
      if (topology->link(*self, *other).transparentAccess)
        return buffer; // shared memory: nothing to import
      ownerName = strCat("device '", topology->node(*other).name, "'");
    }
  }
  std::string operation =
      strCat("import from ", ownerName, " into device '", device.name(), "'");

  FERRY_RETURN_IF_ERROR(buffer->requireUsage(kSharingExport, operation));
  constexpr auto kFd = ExternalBufferType::kOpaqueFd;
  if (!(owner.exportableTypes() & uint32_t(kFd)))
    return failedPrecondition(
        buffer->describe(), ": ", operation, ": ", ownerName,
        " cannot export opaque fds (exports: ",
        formatExternalBufferTypes(owner.exportableTypes()), ")");
  Allocator &target = device.allocator();
  if (!(target.importableTypes() & uint32_t(kFd)))
    return failedPrecondition(
        buffer->describe(), ": ", operation, ": device '", device.name(),
        "' cannot import opaque fds (imports: ",
        formatExternalBufferTypes(target.importableTypes()), ")");

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
