#include "runtime/hal/buffer.h"

#include <limits>

#include "runtime/hal/allocator.h"

namespace ferry::hal {

Buffer::Buffer(std::shared_ptr<Allocator> allocator, uint8_t *storage,
               uint64_t size, uint32_t memoryType, uint32_t usage,
               BufferPlacement placement)
    : allocator_(std::move(allocator)), storage_(storage), size_(size),
      memoryType_(memoryType), usage_(usage), placement_(placement) {}

Buffer::~Buffer() {
  if (uint8_t *storage = storage_.exchange(nullptr))
    allocator_->release(storage, size_);
}

Status Buffer::release() {
  // exchange makes concurrent releases safe: exactly one sees the storage.
  uint8_t *storage = storage_.exchange(nullptr, std::memory_order_acq_rel);
  if (!storage)
    return failedPrecondition("buffer of ", size_,
                              " bytes was already deallocated");
  allocator_->release(storage, size_);
  return okStatus();
}

Result<uint64_t> shapeElementCount(std::span<const int64_t> shape) {
  uint64_t count = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0)
      return invalidArgument("dimension ", i, " is negative (", shape[i], ")");
    uint64_t dim = uint64_t(shape[i]);
    if (dim != 0 && count > std::numeric_limits<uint64_t>::max() / dim)
      return outOfRange("shape element count overflows");
    count *= dim;
  }
  return count;
}

Result<uint64_t> shapeByteLength(std::span<const int64_t> shape,
                                 ElementType type) {
  size_t elementSize = elementByteSize(type);
  if (elementSize == 0)
    return invalidArgument("unknown element type ", uint32_t(type));
  FERRY_ASSIGN_OR_RETURN(uint64_t count, shapeElementCount(shape));
  if (count > std::numeric_limits<uint64_t>::max() / elementSize)
    return outOfRange("shape byte length overflows");
  return count * elementSize;
}

std::string formatTensorType(std::span<const int64_t> shape, ElementType type) {
  std::string out;
  for (int64_t dim : shape) {
    out += std::to_string(dim);
    out += 'x';
  }
  out += elementTypeName(type);
  return out;
}

Result<std::shared_ptr<BufferView>>
BufferView::create(std::shared_ptr<Buffer> buffer, std::vector<int64_t> shape,
                   ElementType elementType) {
  if (!buffer)
    return invalidArgument("buffer view needs a buffer, got null");
  if (shape.size() > kMaxRank)
    return outOfRange("buffer view rank ", shape.size(),
                      " exceeds the maximum of ", kMaxRank);
  Result<uint64_t> bytes = shapeByteLength(shape, elementType);
  if (!bytes.ok())
    return bytes.status().withContext(
        strCat("buffer view ", formatTensorType(shape, elementType)));
  if (*bytes > buffer->byteLength())
    return outOfRange("buffer view ", formatTensorType(shape, elementType),
                      " needs ", *bytes, " bytes but its buffer has ",
                      buffer->byteLength());
  uint64_t count = *shapeElementCount(shape);
  return std::shared_ptr<BufferView>(
      new BufferView(std::move(buffer), std::move(shape), elementType, count));
}

} // namespace ferry::hal
