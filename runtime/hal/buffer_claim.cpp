#include "runtime/hal/buffer_claim.h"

#include "runtime/hal/buffer_bits.h"
#include "runtime/hal/fence.h"

namespace ferry::hal {

Result<std::shared_ptr<Buffer>>
claimBuffer(Device &device, const std::shared_ptr<Buffer> &buffer) {
  if (!buffer)
    return invalidArgument("claim: the buffer is null");
  FERRY_RETURN_IF_ERROR(buffer->requireLive("claim"));
  if (buffer->isTerminal())
    return buffer;
  FERRY_RETURN_IF_ERROR(buffer->requireUsage(
      kTransferSource, "claim (a copy, as another owner shares it)"));
  auto allocated = Fence::create();
  auto copied = Fence::create();
  FERRY_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> copy,
                         device.queueAlloca(/*wait=*/nullptr, allocated,
                                            buffer->memoryType(),
                                            buffer->usage() | kTransferTarget,
                                            buffer->byteLength(), /*flags=*/0));
  FERRY_RETURN_IF_ERROR(device.queueCopy(allocated, copied, buffer, 0, copy, 0,
                                         buffer->byteLength()));
  FERRY_RETURN_IF_ERROR(copied->wait());
  // Another owner remains, so this is not the last share and frees nothing;
  // if the others discarded meanwhile, the memory goes with the last
  // reference.
  FERRY_RETURN_IF_ERROR(buffer->discard().status());
  return copy;
}

} // namespace ferry::hal
