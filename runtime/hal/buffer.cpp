#include "runtime/hal/buffer.h"

#include <limits>

#include "runtime/hal/allocator.h"
#include "runtime/hal/buffer_bits.h"

namespace ferry::hal {

Buffer::Buffer(std::shared_ptr<Allocator> allocator, uint64_t id,
               uint8_t *storage, BufferStorage storageInfo, uint64_t size,
               uint32_t memoryType, uint32_t usage, BufferPlacement placement)
    : root_(std::shared_ptr<Buffer>(), this), storage_(storage), size_(size),
      allocator_(std::move(allocator)), placement_(std::move(placement)),
      storageInfo_(std::move(storageInfo)), id_(id), memoryType_(memoryType),
      usage_(usage) {}

Buffer::Buffer(std::shared_ptr<Buffer> root, uint64_t offset, uint64_t size)
    : root_(std::move(root)), size_(size), offset_(offset) {}

Buffer::~Buffer() {
  if (!isSubspan())
    freeStorage(/*atLastReference=*/true);
}

void Buffer::freeStorage(bool atLastReference) {
  // exchange: exactly one of release(), commitStorage() and the destructor
  // sees the storage.
  uint8_t *storage = storage_.exchange(nullptr, std::memory_order_acq_rel);
  if (!storage)
    return;
  // Only the destructor gets here unreleased (release() and a release
  // while pending set released_ first).
  uint32_t flags = placement_.flags;
  bool missedFree = atLastReference && (flags & kBufferPlacementAsynchronous) &&
                    !(flags & kBufferPlacementIndeterminateLifetime);
  allocator_->release(storage, size_, storageInfo_, missedFree);
}

Status Buffer::release() {
  if (root_->released_.exchange(true, std::memory_order_acq_rel))
    return failedPrecondition(describe(), " was already deallocated");
  root_->freeStorage();
  return okStatus();
}

void Buffer::commitStorage(uint8_t *storage) {
  root_->storage_.store(storage, std::memory_order_release);
  if (root_->released_.load(std::memory_order_acquire))
    root_->freeStorage();
}

Result<std::shared_ptr<Buffer>>
Buffer::subspan(const std::shared_ptr<Buffer> &buffer, uint64_t offset,
                uint64_t length) {
  if (!buffer)
    return invalidArgument("subspan of a null buffer");
  if (offset > buffer->size_ || length > buffer->size_ - offset)
    return outOfRange(buffer->describe(), ": subspan [", offset, ", +", length,
                      ") is outside its ", buffer->size_, " bytes");
  // A root's root_ does not own it; only a subspan's may be copied.
  std::shared_ptr<Buffer> root = buffer->isSubspan() ? buffer->root_ : buffer;
  return std::shared_ptr<Buffer>(
      new Buffer(std::move(root), buffer->offset_ + offset, length));
}

std::string Buffer::describe() const {
  if (isSubspan())
    return strCat("buffer ", root_->id_, " [", offset_, ", +", size_, ")");
  return strCat("buffer ", id_, " (", size_, " bytes)");
}

Status Buffer::discardUnderflow() {
  // Undo the decrement: the count never stays below zero (and, being 64-bit,
  // can never wrap).
  root_->ownerCount_.fetch_add(1, std::memory_order_relaxed);
  return failedPrecondition(
      describe(), ": allocation discard with no owner left (ownership count "
                  "is 0; a preserve is missing or a discard is repeated)");
}

Status Buffer::requireUsage(uint32_t bits, std::string_view operation) const {
  uint32_t missing = bits & ~usage();
  if (!missing)
    return okStatus();
  uint32_t first = missing & (~missing + 1);
  return failedPrecondition(
      describe(), ": ", operation, ": missing buffer usage bit ",
      formatBufferUsage(first), " (usage is ", formatBufferUsage(usage()), ")");
}

Status Buffer::requireMemoryType(uint32_t bits,
                                 std::string_view operation) const {
  uint32_t missing = bits & ~memoryType();
  if (!missing)
    return okStatus();
  uint32_t first = missing & (~missing + 1);
  return failedPrecondition(describe(), ": ", operation,
                            ": missing memory type bit ",
                            formatMemoryType(first), " (memory type is ",
                            formatMemoryType(memoryType()), ")");
}

Status Buffer::requireLive(std::string_view operation) const {
  if (isReleased())
    return failedPrecondition(describe(), ": ", operation,
                              ": was already deallocated");
  if (!data())
    return failedPrecondition(
        describe(), ": ", operation,
        ": its queue alloca has not executed yet (wait on its fence)");
  return okStatus();
}

Result<std::span<uint8_t>> Buffer::map(MappingMode mode, uint64_t offset,
                                       uint64_t length) const {
  std::string_view operation =
      mode == MappingMode::kPersistent ? "persistent map" : "map";
  FERRY_RETURN_IF_ERROR(requireMemoryType(kHostVisible, operation));
  if (mode == MappingMode::kPersistent) {
    FERRY_RETURN_IF_ERROR(requireUsage(kMappingPersistent, operation));
  } else if (!(usage() & (kMappingScoped | kMappingPersistent))) {
    return failedPrecondition(describe(), ": ", operation,
                              ": missing buffer usage bit MappingScoped "
                              "(or MappingPersistent) (usage is ",
                              formatBufferUsage(usage()), ")");
  }
  FERRY_RETURN_IF_ERROR(requireLive(operation));
  if (length == UINT64_MAX && offset <= size_)
    length = size_ - offset;
  if (offset > size_ || length > size_ - offset)
    return outOfRange(describe(), ": ", operation, ": range [", offset, ", +",
                      length, ") is outside its ", size_, " bytes");
  return std::span<uint8_t>(data() + offset, length);
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
