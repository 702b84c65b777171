// Allocator: hands out Buffers on one device and counts what it hands out.
//
// Every Buffer remembers the allocator it came from (by shared_ptr, so an
// allocator outlives its buffers) and gives its memory back exactly once:
// when a queue dealloca releases it early, or else when the last reference to
// the Buffer goes. The allocator itself counts allocations, deallocations and
// live/peak bytes, so the statistics that tools report cannot be skewed by a
// caller forgetting to count.
//
// Later growth: pools, placement-aware allocation and capability checks hang
// off allocate()'s memory type / usage arguments; subclasses replace only the
// storage hooks.
//
// Ownership/threads: always held by std::shared_ptr (create() functions);
// every public method is thread-safe.
#ifndef FERRY_RUNTIME_HAL_ALLOCATOR_H_
#define FERRY_RUNTIME_HAL_ALLOCATOR_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "runtime/base/status.h"

namespace ferry::hal {

class Buffer;

struct AllocatorStatistics {
  uint64_t allocations = 0;    // successful allocate() calls
  uint64_t deallocations = 0;  // buffers whose memory went back
  uint64_t bytesAllocated = 0; // total over all allocations
  uint64_t peakBytes = 0;      // highest liveBytes ever seen
  uint64_t liveBytes = 0;      // allocated and not yet given back
};

class Allocator : public std::enable_shared_from_this<Allocator> {
public:
  virtual ~Allocator() = default;
  Allocator(const Allocator &) = delete;
  Allocator &operator=(const Allocator &) = delete;

  // Allocates `size` bytes with the given memory type / usage bits
  // (runtime/hal/buffer_bits.h). `allocaFlags` records the queue alloca flags
  // (device.h) on the buffer. The new Buffer holds a reference to this
  // allocator. Contents are zero-initialized so that reading a buffer that a
  // program never wrote is deterministic rather than undefined.
  Result<std::shared_ptr<Buffer>> allocate(uint32_t memoryType, uint32_t usage,
                                           uint64_t size,
                                           uint32_t allocaFlags = 0);

  AllocatorStatistics statistics() const;
  // Who this allocator serves, for messages ("device 'cpu0' heap").
  const std::string &name() const { return name_; }

protected:
  explicit Allocator(std::string name) : name_(std::move(name)) {}

  // Storage hooks: return `size` bytes (non-null even for size 0) or fail;
  // free what allocateStorage returned.
  virtual Result<uint8_t *> allocateStorage(uint64_t size) = 0;
  virtual void freeStorage(uint8_t *storage, uint64_t size) = 0;

private:
  friend class Buffer;
  // Called by Buffer exactly once per allocation.
  void release(uint8_t *storage, uint64_t size);

  std::string name_;
  mutable std::mutex mutex_;
  AllocatorStatistics stats_;
};

// Plain host memory from the C++ heap, 64-byte aligned.
class HeapAllocator final : public Allocator {
public:
  // Requests above `maxAllocationBytes` fail cleanly instead of asking the
  // system for absurd amounts (a corrupt or hostile module can ask for any
  // size). 0 means "the machine's physical memory".
  static std::shared_ptr<HeapAllocator> create(std::string name,
                                               uint64_t maxAllocationBytes = 0);

protected:
  Result<uint8_t *> allocateStorage(uint64_t size) override;
  void freeStorage(uint8_t *storage, uint64_t size) override;

private:
  HeapAllocator(std::string name, uint64_t maxAllocationBytes);
  uint64_t maxAllocationBytes_;
};

} // namespace ferry::hal

#endif // FERRY_RUNTIME_HAL_ALLOCATOR_H_
