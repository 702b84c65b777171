#include "runtime/hal/allocator.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <unistd.h>

#include "runtime/hal/buffer.h"

namespace ferry::hal {

Result<std::shared_ptr<Buffer>> Allocator::allocate(uint32_t memoryType,
                                                    uint32_t usage,
                                                    uint64_t size,
                                                    uint32_t allocaFlags) {
  FERRY_ASSIGN_OR_RETURN(uint8_t * storage, allocateStorage(size));
  std::memset(storage, 0, size);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.allocations;
    stats_.bytesAllocated += size;
    stats_.liveBytes += size;
    stats_.peakBytes = std::max(stats_.peakBytes, stats_.liveBytes);
  }
  return std::shared_ptr<Buffer>(new Buffer(shared_from_this(), storage, size,
                                            memoryType, usage,
                                            BufferPlacement{allocaFlags}));
}

AllocatorStatistics Allocator::statistics() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void Allocator::release(uint8_t *storage, uint64_t size) {
  freeStorage(storage, size);
  std::lock_guard<std::mutex> lock(mutex_);
  ++stats_.deallocations;
  stats_.liveBytes -= size;
}

static constexpr std::align_val_t kHeapAlignment{64};

static uint64_t physicalMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0)
    return uint64_t(1) << 36;
  return uint64_t(pages) * uint64_t(pageSize);
}

HeapAllocator::HeapAllocator(std::string name, uint64_t maxAllocationBytes)
    : Allocator(std::move(name)),
      maxAllocationBytes_(maxAllocationBytes ? maxAllocationBytes
                                             : physicalMemoryBytes()) {}

std::shared_ptr<HeapAllocator>
HeapAllocator::create(std::string name, uint64_t maxAllocationBytes) {
  return std::shared_ptr<HeapAllocator>(
      new HeapAllocator(std::move(name), maxAllocationBytes));
}

Result<uint8_t *> HeapAllocator::allocateStorage(uint64_t size) {
  if (size > maxAllocationBytes_)
    return resourceExhausted(name(), ": cannot allocate ", size,
                             " bytes (limit ", maxAllocationBytes_, ")");
  // One byte for empty buffers keeps data() non-null, which means "live".
  void *storage =
      ::operator new(std::max<uint64_t>(size, 1), kHeapAlignment, std::nothrow);
  if (!storage)
    return resourceExhausted(name(), ": out of memory allocating ", size,
                             " bytes");
  return static_cast<uint8_t *>(storage);
}

void HeapAllocator::freeStorage(uint8_t *storage, uint64_t size) {
  ::operator delete(storage, kHeapAlignment);
}

} // namespace ferry::hal
