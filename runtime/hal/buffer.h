// Buffer and BufferView: device memory and its tensor interpretation.
//
// A Buffer is a byte range allocated by an Allocator, with the memory type
// and usage bits it was allocated with (buffer_bits.h). It is reference
// counted with std::shared_ptr; its memory goes back to its allocator when
// released explicitly (queue dealloca: the program says the memory is dead
// even though handles may remain) or, failing that, when the last reference
// goes. After an explicit release the Buffer is a husk: data() is null and
// every device operation on it fails with a message saying so.
//
// Later growth (ARCHITECTURE 1.2): the ownership count (preserve / discard /
// is_terminal) and the placement (origin device, queue affinity) live here;
// BufferPlacement already carries the alloca flags.
//
// A BufferView is a Buffer plus a shape and an element type: what a tensor
// argument or result of a program is. Views are immutable after creation.
//
// Ownership/threads: both are held by std::shared_ptr. Reference counting and
// release() are thread-safe; reading and writing the bytes is not
// synchronized (fences order device work).
#ifndef FERRY_RUNTIME_HAL_BUFFER_H_
#define FERRY_RUNTIME_HAL_BUFFER_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/hal/element_type.h"

namespace ferry::hal {

class Allocator;

struct BufferPlacement {
  uint32_t allocaFlags = 0; // QueueAllocaFlags the buffer was allocated with
};

class Buffer {
public:
  ~Buffer();
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;

  // Null once the memory has been released.
  uint8_t *data() const { return storage_.load(std::memory_order_acquire); }
  std::span<uint8_t> bytes() const { return {data(), data() ? size_ : 0}; }
  uint64_t byteLength() const { return size_; }
  uint32_t memoryType() const { return memoryType_; }
  uint32_t usage() const { return usage_; }
  const BufferPlacement &placement() const { return placement_; }
  Allocator &allocator() const { return *allocator_; }

  bool isReleased() const { return data() == nullptr; }
  // Gives the memory back to the allocator now. Fails (and changes nothing)
  // if it was already released: a second dealloca is a program bug.
  Status release();

private:
  friend class Allocator;
  Buffer(std::shared_ptr<Allocator> allocator, uint8_t *storage, uint64_t size,
         uint32_t memoryType, uint32_t usage, BufferPlacement placement);

  std::shared_ptr<Allocator> allocator_;
  std::atomic<uint8_t *> storage_;
  uint64_t size_;
  uint32_t memoryType_;
  uint32_t usage_;
  BufferPlacement placement_;
};

// Views have at most this many dimensions: far beyond any real tensor, and a
// bound that keeps code walking a shape (printing, indexing) from recursing or
// allocating without limit on a hostile module's say-so.
inline constexpr size_t kMaxRank = 64;

// Number of elements of `shape`, failing on a negative dim or overflow.
Result<uint64_t> shapeElementCount(std::span<const int64_t> shape);
// Bytes needed for `shape` of `type`, failing on overflow.
Result<uint64_t> shapeByteLength(std::span<const int64_t> shape,
                                 ElementType type);
// "2x3xf32", "i32" for rank 0: the spelling ferry-run and messages use.
std::string formatTensorType(std::span<const int64_t> shape, ElementType type);

class BufferView {
public:
  // Fails if a dim is negative, the rank exceeds kMaxRank, the type is
  // unknown, or the shape needs more bytes than `buffer` has.
  static Result<std::shared_ptr<BufferView>>
  create(std::shared_ptr<Buffer> buffer, std::vector<int64_t> shape,
         ElementType elementType);

  const std::shared_ptr<Buffer> &buffer() const { return buffer_; }
  std::span<const int64_t> shape() const { return shape_; }
  size_t rank() const { return shape_.size(); }
  ElementType elementType() const { return elementType_; }
  uint64_t elementCount() const { return elementCount_; }
  uint64_t byteLength() const {
    return elementCount_ * elementByteSize(elementType_);
  }
  std::string typeString() const {
    return formatTensorType(shape_, elementType_);
  }

private:
  BufferView(std::shared_ptr<Buffer> buffer, std::vector<int64_t> shape,
             ElementType elementType, uint64_t elementCount)
      : buffer_(std::move(buffer)), shape_(std::move(shape)),
        elementType_(elementType), elementCount_(elementCount) {}

  std::shared_ptr<Buffer> buffer_;
  std::vector<int64_t> shape_;
  ElementType elementType_;
  uint64_t elementCount_;
};

} // namespace ferry::hal

#endif // FERRY_RUNTIME_HAL_BUFFER_H_
