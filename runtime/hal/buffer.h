// Buffer and BufferView: device memory and its tensor interpretation.
//
// A Buffer is a byte range of device memory with the memory type and usage
// bits it was allocated with (buffer_bits.h). It is either a *root* (an
// allocation made by an Allocator) or a *subspan* (a window into a root; a
// subspan of a subspan points at the root directly).
//
// Two counts, deliberately separate (ARCHITECTURE 1.2):
//   - the object reference count is std::shared_ptr's: who holds a handle.
//     When the last handle to the root goes, its memory goes back to the
//     allocator, whatever the ownership count says;
//   - the ownership count (preserve / discard / isTerminal) lives on the root
//     and says who is responsible for deallocating. It starts at 1 for the
//     creator. discard() returns true only for the owner that removed the
//     last; discarding below zero is an error, never a wrap.
//
// Memory goes back exactly once: at an explicit release() (queue dealloca:
// the program says the memory is dead even though handles remain) or else
// with the last reference. After release the Buffer is a husk: data() is null
// and every device operation on it fails saying so.
//
// Placement records where a buffer came from: its origin device (weakly: the
// buffer does not keep a device alive), queue affinity and flags
// (asynchronous: queue-ordered memory a dealloca may free; indeterminate
// lifetime: deallocas are ignored). A queue alloca's buffer is *pending*
// (data() null) until the alloca executes on its queue.
//
// Host access goes through map(), which enforces the capability bits; data()
// is the device address that drivers use after their own checks.
//
// A BufferView is a Buffer plus a shape and an element type: what a tensor
// argument or result of a program is. Views are immutable after creation.
//
// Ownership/threads: both are held by std::shared_ptr. Ownership counting,
// release() and the pending -> live transition are thread-safe; reading and
// writing the bytes is not synchronized (fences order device work).
#ifndef FERRY_RUNTIME_HAL_BUFFER_H_
#define FERRY_RUNTIME_HAL_BUFFER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/hal/element_type.h"

namespace ferry::hal {

class Allocator;
class Device;

enum BufferPlacementFlags : uint32_t {
  kBufferPlacementNone = 0,
  // Queue-ordered memory (a queue alloca): a queue dealloca frees it. Buffers
  // allocated synchronously or imported lack it; deallocas of them only
  // order the timeline.
  kBufferPlacementAsynchronous = 1u << 0,
  // Nobody can say when the buffer dies: deallocas are ignored and memory
  // goes with the last reference.
  kBufferPlacementIndeterminateLifetime = 1u << 1,
};

struct BufferPlacement {
  std::weak_ptr<Device> device; // origin device; empty: none known
  uint64_t queueAffinity = 0;   // origin queues (bit i: queue i); 0: none
  uint32_t flags = kBufferPlacementNone;
};

// Where a root's memory came from and how to give it back (Allocator use).
struct BufferStorage {
  enum class Kind : uint8_t {
    kMapped,       // its own anonymous mapping (above the largest pool
                   // class), unmapped on release
    kPool,         // a pool block of `capacity` bytes, returned to the pool
    kMemfd,        // a mapping of `fd` (exportable as an opaque fd)
    kImportedHost, // a caller's host allocation; `onRelease` is called
    kImportedFd,   // a mapping of an imported fd, unmapped on release
    kConstant,     // a module's constant data (Allocator::wrapConstant);
                   // `onRelease` lets go of it, and it counts as no
                   // allocation
  };
  Kind kind = Kind::kMapped;
  uint32_t heap = 0;     // allocator heap index
  uint64_t capacity = 0; // bytes reserved (>= the buffer's length)
  int fd = -1;
  // Imported host allocations and constants only. Boxed so that the common case
  // (pool blocks) keeps a pointer-sized field on the buffer's hot cache lines.
  std::unique_ptr<std::function<void()>> onRelease;
};

// Ways a host may map a buffer.
enum class MappingMode : uint8_t {
  kScoped,     // for a short access; needs MappingScoped or MappingPersistent
  kPersistent, // kept for the buffer's lifetime; needs MappingPersistent
};

class Buffer {
public:
  ~Buffer();
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;

  // A window [offset, offset + length) of `buffer` sharing its root's memory,
  // bits, placement and ownership count. Fails on a null buffer or a range
  // outside it.
  static Result<std::shared_ptr<Buffer>>
  subspan(const std::shared_ptr<Buffer> &buffer, uint64_t offset,
          uint64_t length);

  // The device address of this buffer's first byte. Null while pending (a
  // queue alloca that has not executed) and after release.
  uint8_t *data() const {
    uint8_t *base = root_->storage_.load(std::memory_order_acquire);
    return base ? base + offset_ : nullptr;
  }
  std::span<uint8_t> bytes() const {
    uint8_t *d = data();
    return {d, d ? size_ : 0};
  }
  uint64_t byteLength() const { return size_; }
  // Offset within the root allocation.
  uint64_t byteOffset() const { return offset_; }
  uint32_t memoryType() const { return root_->memoryType_; }
  uint32_t usage() const { return root_->usage_; }
  const BufferPlacement &placement() const { return root_->placement_; }
  Allocator &allocator() const { return *root_->allocator_; }
  // The root allocation (itself for a root).
  const Buffer &root() const { return *root_; }
  bool isSubspan() const { return root_.get() != this; }
  // "buffer 7 (64 bytes)" or "buffer 7 [16, +32)" for a subspan: how
  // errors name it. Ids count up per allocator.
  std::string describe() const;

  bool isReleased() const {
    return root_->released_.load(std::memory_order_acquire);
  }
  // Gives the root's memory back to its allocator now. Fails (and changes
  // nothing) if it was already released.
  Status release();

  // --- Ownership (acts on the root; see the header comment). ---
  // Adds an owner. Relaxed: like a reference-count increment, the caller
  // already owns the buffer, so there is nothing to synchronize with.
  void preserve() {
    root_->ownerCount_.fetch_add(1, std::memory_order_relaxed);
  }
  // Removes an owner; true only for the one that removed the last (it now
  // must deallocate). Release on the decrement and acquire for the last, so
  // the last owner sees every other owner's writes. Discarding with no
  // owner left fails and restores the count to 0 (a racing observer may
  // briefly see -1; it can never wrap).
  Result<bool> discard() {
    int64_t previous =
        root_->ownerCount_.fetch_sub(1, std::memory_order_acq_rel);
    if (previous <= 0) [[unlikely]]
      return discardUnderflow(); // restores the count
    return previous == 1;
  }
  // True when the caller is the only owner (safe to reuse in place). Acquire,
  // pairing with the release of the discards that brought it to 1.
  bool isTerminal() const {
    return root_->ownerCount_.load(std::memory_order_acquire) == 1;
  }
  int64_t ownerCount() const {
    return root_->ownerCount_.load(std::memory_order_acquire);
  }

  // --- Capability enforcement. ---
  // Maps [offset, offset + length) for host access. Needs HostVisible memory
  // and a mapping usage bit (kScoped: MappingScoped or MappingPersistent;
  // kPersistent: MappingPersistent), a live buffer and an in-range window.
  Result<std::span<uint8_t>> map(MappingMode mode, uint64_t offset = 0,
                                 uint64_t length = UINT64_MAX) const;
  // Fails naming this buffer, `operation` and the first missing usage bit.
  Status requireUsage(uint32_t bits, std::string_view operation) const;
  // Same for memory type bits.
  Status requireMemoryType(uint32_t bits, std::string_view operation) const;
  // Fails if released ("... was already deallocated") or still pending.
  Status requireLive(std::string_view operation) const;

  // --- Transfer mirrors (buffer_import.h). ---
  // The other device's buffer this one stands in for, when a device that
  // cannot reach that buffer's memory uses it through a copy; null
  // otherwise. Every queue operation using the mirror copies the source in
  // first and, if it writes the mirror, back out after. Set once, by
  // importBufferToDevice, before the mirror is shared.
  const std::shared_ptr<Buffer> &transferSource() const {
    return root_->transferSource_;
  }
  void setTransferSource(std::shared_ptr<Buffer> source) {
    root_->transferSource_ = std::move(source);
  }

  // --- Dealloca bookkeeping (Device use). ---
  // Marks that a dealloca was issued; false if one already was.
  bool markDeallocaIssued() {
    return !root_->deallocaIssued_.exchange(true, std::memory_order_acq_rel);
  }
  // Pending -> live: binds the root's memory (the queue alloca executed).
  // If the buffer was released meanwhile the memory goes straight back.
  void commitStorage(uint8_t *storage);

protected:
  friend class Allocator;
  // A root. `storage` may be null (pending).
  Buffer(std::shared_ptr<Allocator> allocator, uint64_t id, uint8_t *storage,
         BufferStorage storageInfo, uint64_t size, uint32_t memoryType,
         uint32_t usage, BufferPlacement placement);
  // A subspan of `root`.
  Buffer(std::shared_ptr<Buffer> root, uint64_t offset, uint64_t size);

private:
  Status discardUnderflow();
  // `atLastReference`: called by the destructor, no release() before.
  void freeStorage(bool atLastReference = false);

  // Field order matters: a queue dealloca and the final release of a root
  // touch only the fields up to and including storageInfo_, so that with the
  // shared_ptr control block in front of the object they span as few cache
  // lines as possible. A buffer deallocated long after its alloca is cold,
  // and every line it touches is a potential cache miss on the round trip.
  //
  // The root: for a subspan it owns the root; for a root it aliases `this`
  // without owning anything (no cycle, and no atomic counts touched).
  std::shared_ptr<Buffer> root_;
  std::atomic<uint8_t *> storage_{nullptr};
  uint64_t size_;
  // Root-only state (but offset_, which is the subspan's).
  std::shared_ptr<Allocator> allocator_;
  std::atomic<bool> released_{false};
  std::atomic<bool> deallocaIssued_{false};
  BufferPlacement placement_;
  BufferStorage storageInfo_;
  // Cold: not touched by the alloca / dealloca round trip.
  uint64_t offset_ = 0;
  uint64_t id_ = 0;
  uint32_t memoryType_ = 0;
  uint32_t usage_ = 0;
  std::atomic<int64_t> ownerCount_{1};
  std::shared_ptr<Buffer> transferSource_;
};

// Null-tolerant ownership helpers for callers holding possibly-null handles
// (the VM, embedders): preserving null does nothing, discarding null removes
// no owner (false), and null is never terminal (nothing to reuse in place).
inline void allocationPreserve(Buffer *buffer) {
  if (buffer)
    buffer->preserve();
}
inline Result<bool> allocationDiscard(Buffer *buffer) {
  if (!buffer)
    return false;
  return buffer->discard();
}
inline bool allocationIsTerminal(const Buffer *buffer) {
  return buffer && buffer->isTerminal();
}

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
