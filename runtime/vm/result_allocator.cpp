#include "runtime/vm/result_allocator.h"

#include "runtime/hal/buffer_bits.h"
#include "runtime/hal/queue_flags.h"

namespace ferry::vm {

Result<std::shared_ptr<hal::BufferView>>
ResultAllocator::allocateResult(size_t index, std::span<const int64_t> shape,
                                hal::ElementType elementType) {
  if (index >= requests_.size() || !requests_[index].device)
    return failedPrecondition(
        "result_allocate: result ", index,
        index >= requests_.size()
            ? strCat(" does not exist (the call has ", requests_.size(),
                     " results the program lets it allocate)")
            : std::string(" is tied to an operand (or the program was "
                          "compiled without new results): write it in place"));
  if (allocated_[index])
    return failedPrecondition("result_allocate: result ", index,
                              " was allocated already");
  uint64_t bytes = hal::elementByteSize(elementType);
  for (int64_t dim : shape) {
    if (dim < 0)
      return invalidArgument("result_allocate: result ", index,
                             " has a negative dimension ", dim);
    if (dim != 0 && bytes > UINT64_MAX / uint64_t(dim))
      return invalidArgument("result_allocate: result ", index,
                             " is larger than 2^64 bytes");
    bytes *= uint64_t(dim);
  }
  const Request &request = requests_[index];
  hal::Device &device = *request.device;
  auto named = [&](const Status &status) {
    return status.withContext(strCat("result_allocate: result ", index, " (",
                                     hal::formatTensorType(shape, elementType),
                                     ") on device '", device.name(), "'"));
  };
  std::vector<int64_t> dims(shape.begin(), shape.end());
  auto allocated = hal::Fence::create();
  Result<std::shared_ptr<hal::Buffer>> buffer =
      device.queueAlloca(nullptr, allocated, request.memoryType, request.usage,
                         bytes, hal::kQueueAllocaNone);
  if (!buffer.ok())
    return named(buffer.status());
  FERRY_ASSIGN_OR_RETURN(std::shared_ptr<hal::BufferView> view,
                         hal::BufferView::create(*buffer, dims, elementType));
  allocations_.push_back(allocated);
  if (request.memoryType & hal::kHostVisible) {
    allocated_[index] = view;
    return view;
  }
  // External code writes through the host: a host-visible stand-in, copied
  // into the result once the callee signals (ImportStaging::finish).
  auto stagingReady = hal::Fence::create();
  Result<std::shared_ptr<hal::Buffer>> stagingBuffer = device.queueAlloca(
      nullptr, stagingReady, hal::kHostVisible | hal::kHostCoherent,
      hal::kTransfer | hal::kMapping, bytes, hal::kQueueAllocaNone);
  if (!stagingBuffer.ok())
    return named(stagingBuffer.status());
  FERRY_ASSIGN_OR_RETURN(
      std::shared_ptr<hal::BufferView> stagingView,
      hal::BufferView::create(*stagingBuffer, dims, elementType));
  allocations_.push_back(stagingReady);
  if (!staging_)
    return named(failedPrecondition("no staging for a call without fences"));
  staging_->addStagedResult(view, stagingView, request.device);
  allocated_[index] = stagingView;
  return stagingView;
}

Status ResultAllocator::checkResults(std::span<const Value> results) const {
  for (size_t i = 0; i < requests_.size() && i < results.size(); ++i) {
    if (!requests_[i].device)
      continue;
    if (!allocated_[i])
      return failedPrecondition(
          "new result ", i,
          " was not allocated with result_allocate (plugin_api.h): the "
          "runtime allocates a new result where the program uses it");
    if (results[i].isI64() ||
        results[i].refAs<hal::BufferView>() != allocated_[i])
      return failedPrecondition(
          "new result ", i,
          " is not the view result_allocate gave for it (plugin_api.h): "
          "return that view, not a buffer made another way");
  }
  return okStatus();
}

} // namespace ferry::vm
