// Allocator: hands out Buffers on one device, imports and exports them, and
// counts what it hands out.
//
// An allocator owns one or more *heaps*, each with the memory type bits its
// memory really has. A request (memory type + usage bits) is matched to a heap
// by queryCompatibility(), which also says what the allocator would adjust
// (bits added because the memory has them anyway, DeviceLocal dropped when a
// host-visible request on a discrete device lands in the host heap) and
// whether the request could be imported or exported. allocate(), import and
// queue allocas all go through it, so a buffer's bits are always the bits of
// the memory it actually got.
//
// Storage kinds: pool blocks (power-of-two size classes per heap, for
// allocate() and queue allocas alike; stream ordered for queue allocas
// because the device returns and takes blocks while executing its queue in
// order, so memory a dealloca freed is reused by a later alloca with no host
// round trip); a mapping of its own for anything above the largest class;
// memfd mappings (any buffer with SharingExport, so it can be exported as an
// opaque fd); imported host allocations and imported fds. Nothing writes
// new memory: it is zero when fresh, and holds old contents when reused.
//
// Every Buffer holds a reference to its allocator (an allocator outlives its
// buffers) and gives its memory back exactly once. The allocator counts
// allocations, deallocations and live/peak bytes itself, so statistics cannot
// be skewed by a caller forgetting to count. Pool blocks held for reuse are
// not live bytes; they are reported separately.
//
// Ownership/threads: always held by std::shared_ptr (create() functions);
// every public method is thread-safe.
#ifndef FERRY_RUNTIME_HAL_ALLOCATOR_H_
#define FERRY_RUNTIME_HAL_ALLOCATOR_H_

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/hal/buffer.h"

namespace ferry::hal {

struct AllocatorStatistics {
  uint64_t allocations = 0;    // buffers handed out (allocate, alloca, import)
  uint64_t deallocations = 0;  // buffers whose memory went back
  uint64_t bytesAllocated = 0; // total over all allocations
  uint64_t peakBytes = 0;      // highest liveBytes ever seen
  uint64_t liveBytes = 0;      // allocated and not yet given back
  uint64_t poolHits = 0; // allocations (queue or not) served by a reused block
  uint64_t poolMisses = 0;        // pooled allocations that needed new memory
  uint64_t poolReservedBytes = 0; // bytes of free blocks kept for reuse
  // Module constants wrapped for this allocator's device (wrapConstant):
  // read in place, never allocated, so not in the byte counts above.
  uint64_t constantBytes = 0;
  // Queue-ordered buffers (queue allocas) whose memory went back with the
  // last reference, freed by no dealloca although their lifetime was known:
  // the program missed a free (or its caller let a result go unreleased).
  // Buffers of indeterminate lifetime do not count.
  uint64_t reclaimedAtLastReference = 0;
};

// What a fresh allocation holds.
enum class AllocationContents {
  kUndefined, // whatever the memory held (never read before written)
  kZeroed,    // all zero bytes
};

struct BufferParams {
  uint32_t memoryType = 0; // MemoryTypeBits
  uint32_t usage = 0;      // BufferUsageBits
};

enum AllocatorCompatibility : uint32_t {
  kCompatibilityNone = 0,
  kCompatibilityAllocatable = 1u << 0,
  kCompatibilityImportable = 1u << 1,
  kCompatibilityExportable = 1u << 2,
  // Works, but not with the memory asked for (e.g. DeviceLocal dropped).
  kCompatibilityLowPerformance = 1u << 3,
};

// External handle types (bit values, so sets of them are masks).
enum class ExternalBufferType : uint32_t {
  kHostAllocation = 1u << 0, // a host pointer
  kOpaqueFd = 1u << 1,       // a file descriptor (memfd) to mmap
};
std::string_view externalBufferTypeName(ExternalBufferType type);
// "host_allocation|opaque_fd", "none".
std::string formatExternalBufferTypes(uint32_t mask);

// An external buffer handle. Import does not take ownership of `fd` (it maps
// it); export hands the caller a new fd to close.
struct ExternalBuffer {
  ExternalBufferType type = ExternalBufferType::kHostAllocation;
  uint64_t size = 0;
  void *hostPointer = nullptr;
  int fd = -1;
};

struct CompatibilityResult {
  uint32_t compatibility = kCompatibilityNone; // AllocatorCompatibility bits
  BufferParams params;         // what the buffer would really have
  uint64_t allocationSize = 0; // bytes it would reserve
  uint32_t heap = 0;           // heap index it would come from
  std::string reason;          // why it is not allocatable, if it is not
};

struct AllocatorOptions {
  // Requests above this fail cleanly instead of asking the system for
  // absurd amounts (a hostile module can ask for any size). 0: physical RAM.
  uint64_t maxAllocationBytes = 0;
  // false: a "discrete" memory model for testing (a device heap that is not
  // host-visible plus a host-visible staging heap; imports and exports only
  // through opaque fds), so GPU paths are testable without a GPU.
  bool hostVisible = true;
  // false: imports and exports no handle type at all, like a GPU without
  // external-memory support: another device reaches its memory only through
  // transfers (buffer_import.h).
  bool externalHandles = true;
};

class Allocator : public std::enable_shared_from_this<Allocator> {
public:
  static std::shared_ptr<Allocator> create(std::string name,
                                           AllocatorOptions options = {});
  ~Allocator();
  Allocator(const Allocator &) = delete;
  Allocator &operator=(const Allocator &) = delete;

  // Who this allocator serves, for messages ("device 'cpu0' heap").
  const std::string &name() const { return name_; }
  const AllocatorOptions &options() const { return options_; }
  // The memory type bits of the default (device) heap.
  uint32_t defaultMemoryType() const { return heaps_[0].memoryType; }
  // ExternalBufferType masks this allocator can import / export.
  uint32_t importableTypes() const;
  uint32_t exportableTypes() const;

  // What allocating (or importing as `importType`, if given) `size` bytes
  // with `params` would give. Never fails; see `compatibility`.
  CompatibilityResult
  queryCompatibility(BufferParams params, uint64_t size,
                     std::optional<ExternalBufferType> importType = {}) const;

  // Allocates now (synchronously): no origin device, not queue-ordered.
  // Contents are undefined unless `contents` is kZeroed: the allocator does
  // not touch the memory otherwise (a 1 MiB memset costs about 12 us, more
  // than everything else in an allocation), and callers that write the
  // whole buffer anyway (inputs, staging) should not pay for it.
  Result<std::shared_ptr<Buffer>>
  allocate(uint32_t memoryType, uint32_t usage, uint64_t size,
           AllocationContents contents = AllocationContents::kUndefined);
  // Wraps external memory. Host allocations: `onRelease` runs when the
  // buffer's memory goes back (the caller frees its memory then). Fds are
  // mapped (the caller keeps its fd). Fails naming the handle type if this
  // allocator cannot import it.
  Result<std::shared_ptr<Buffer>>
  importBuffer(BufferParams params, const ExternalBuffer &external,
               std::function<void()> onRelease = {});
  // A read-only buffer over a module's constant data, for this allocator's
  // device: no allocation and no copy (the memory is host memory in a heap
  // the device reads, the staging heap where device memory is not
  // host-visible), usage TransferSource, DispatchStorageRead, MappingScoped
  // and SharingImmutable only, so every write and export is refused. Holds
  // `data` until the buffer goes. Counted in constantBytes, not as an
  // allocation.
  std::shared_ptr<Buffer> wrapConstant(std::shared_ptr<const uint8_t> data,
                                       uint64_t size);
  // Exports `buffer` as `type`. Needs SharingExport usage; host allocations
  // also need HostVisible memory. An fd export returns a new fd the caller
  // must close; the buffer must outlive any use of the export.
  Result<ExternalBuffer> exportBuffer(const Buffer &buffer,
                                      ExternalBufferType type) const;

  // Queue alloca support (Device use). createPending makes the Buffer with
  // its final bits and placement but no memory; commitPooled, run when the
  // alloca executes on its queue, binds a pool block (or memfd memory for
  // exportable buffers).
  Result<std::shared_ptr<Buffer>> createPending(const CompatibilityResult &fit,
                                                uint64_t size,
                                                BufferPlacement placement);
  Status commitPooled(Buffer &buffer);

  // Frees every pool block kept for reuse.
  void trim();

  AllocatorStatistics statistics() const;

private:
  friend class Buffer;
  struct Heap {
    std::string name;
    uint32_t memoryType;
  };
  // Pool size classes: 64 B << i for i < kPoolClasses (up to 256 MiB).
  static constexpr uint32_t kPoolClasses = 23;
  static constexpr uint64_t kPoolMinBytes = 64;

  Allocator(std::string name, AllocatorOptions options);
  // A shared mapping of a new memfd of max(size, 1) bytes; the memfd goes to
  // `fd` on success (-1 on failure, with nothing left open or mapped).
  Result<uint8_t *> allocateMemfd(uint64_t size, int &fd);
  // A block for `size` bytes (a pool block of its size class, reused when
  // one is free, or a mapping of its own above the largest class); sets
  // info's kind and capacity, counts the allocation, and says whether the
  // memory is new (and so zero).
  Result<uint8_t *> takeBlock(uint64_t size, BufferStorage &info, bool &fresh);
  // Called by Buffer exactly once per root allocation; `atLastReference`:
  // a queue-ordered buffer no dealloca freed (reclaimedAtLastReference).
  void release(uint8_t *storage, uint64_t size, const BufferStorage &info,
               bool atLastReference);
  uint64_t nextId() {
    return nextId_.fetch_add(1, std::memory_order_relaxed) + 1;
  }
  void countAllocationLocked(uint64_t size);

  std::string name_;
  AllocatorOptions options_;
  std::vector<Heap> heaps_;
  std::atomic<uint64_t> nextId_{0};

  mutable std::mutex mutex_; // guards stats_ and freeBlocks_
  AllocatorStatistics stats_;
  // [heap][class] -> free blocks.
  std::vector<std::array<std::vector<uint8_t *>, kPoolClasses>> freeBlocks_;
};

// The local CPU's plain host memory (64-byte aligned); kept as the name
// tests and tools use for a unified-memory allocator.
class HeapAllocator {
public:
  static std::shared_ptr<Allocator> create(std::string name,
                                           uint64_t maxAllocationBytes = 0) {
    return Allocator::create(std::move(name),
                             AllocatorOptions{maxAllocationBytes, true});
  }
};

} // namespace ferry::hal

#endif // FERRY_RUNTIME_HAL_ALLOCATOR_H_
