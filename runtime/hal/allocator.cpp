#include "runtime/hal/allocator.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <new>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

#include "runtime/hal/buffer_bits.h"

namespace ferry::hal {

std::string_view externalBufferTypeName(ExternalBufferType type) {
  switch (type) {
  case ExternalBufferType::kHostAllocation:
    return "host_allocation";
  case ExternalBufferType::kOpaqueFd:
    return "opaque_fd";
  }
  return "unknown";
}

std::string formatExternalBufferTypes(uint32_t mask) {
  std::string out;
  for (ExternalBufferType type :
       {ExternalBufferType::kHostAllocation, ExternalBufferType::kOpaqueFd}) {
    if (mask & uint32_t(type))
      out += strCat(out.empty() ? "" : "|", externalBufferTypeName(type));
  }
  return out.empty() ? "none" : out;
}

static constexpr std::align_val_t kHeapAlignment{64};

// Pool blocks of a page or more come straight from the OS rather than the
// malloc heap. In the heap they would sit between the small Buffer objects,
// one object per page, so deallocating an old buffer (touching its object)
// would cost a TLB miss on top of the cache miss. Fresh mappings are zero.
static constexpr uint64_t kPoolPageBytes = 4096;

static uint8_t *allocatePoolBlock(uint64_t capacity) {
  if (capacity < kPoolPageBytes) {
    auto *block = static_cast<uint8_t *>(
        ::operator new(capacity, kHeapAlignment, std::nothrow));
    if (block)
      std::memset(block, 0, capacity);
    return block;
  }
  void *block = mmap(nullptr, capacity, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return block == MAP_FAILED ? nullptr : static_cast<uint8_t *>(block);
}

static void freePoolBlock(uint8_t *block, uint64_t capacity) {
  if (capacity < kPoolPageBytes)
    ::operator delete(block, kHeapAlignment);
  else
    munmap(block, capacity);
}

// Lets make_shared reach Buffer's protected constructors.
struct SharedBuffer : Buffer {
  template <typename... Args>
  explicit SharedBuffer(Args &&...args) : Buffer(std::forward<Args>(args)...) {}
};
static constexpr uint32_t kAllHostBits =
    kHostVisible | kHostCoherent | kHostCached | kHostLocal;

static uint64_t physicalMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0)
    return uint64_t(1) << 36;
  return uint64_t(pages) * uint64_t(pageSize);
}

std::shared_ptr<Allocator> Allocator::create(std::string name,
                                             AllocatorOptions options) {
  return std::shared_ptr<Allocator>(new Allocator(std::move(name), options));
}

Allocator::Allocator(std::string name, AllocatorOptions options)
    : name_(std::move(name)), options_(options) {
  if (!options_.maxAllocationBytes)
    options_.maxAllocationBytes = physicalMemoryBytes();
  if (options_.hostVisible) {
    // The CPU's memory is everything at once.
    heaps_.push_back({"unified", kAllHostBits | kDeviceVisible | kDeviceLocal});
  } else {
    heaps_.push_back({"device", kDeviceLocal | kDeviceVisible});
    heaps_.push_back({"host staging", kAllHostBits | kDeviceVisible});
  }
  freeBlocks_.resize(heaps_.size());
}

Allocator::~Allocator() { trim(); }

uint32_t Allocator::importableTypes() const {
  if (!options_.externalHandles)
    return 0;
  return options_.hostVisible ? uint32_t(ExternalBufferType::kHostAllocation) |
                                    uint32_t(ExternalBufferType::kOpaqueFd)
                              : uint32_t(ExternalBufferType::kOpaqueFd);
}

uint32_t Allocator::exportableTypes() const { return importableTypes(); }

CompatibilityResult Allocator::queryCompatibility(
    BufferParams params, uint64_t size,
    std::optional<ExternalBufferType> importType) const {
  CompatibilityResult result;
  bool wantsHost = (params.memoryType & kHostVisible) ||
                   ((params.usage & (kMappingScoped | kMappingPersistent)) &&
                    !(params.usage & kMappingOptional));
  result.heap = (!options_.hostVisible && wantsHost) ? 1 : 0;
  const Heap &heap = heaps_[result.heap];
  // The buffer gets the heap's real bits; a request for DeviceLocal that
  // lands in a host heap works but is flagged as low performance.
  result.params.memoryType = heap.memoryType;
  result.params.usage = params.usage;
  if ((params.memoryType & ~heap.memoryType) != 0)
    result.compatibility |= kCompatibilityLowPerformance;
  result.allocationSize = std::max<uint64_t>(size, 1);
  if (size > options_.maxAllocationBytes) {
    result.reason = strCat(name_, ": cannot allocate ", size, " bytes (limit ",
                           options_.maxAllocationBytes, ")");
    return result;
  }
  result.compatibility |= kCompatibilityAllocatable;
  if (importType ? (importableTypes() & uint32_t(*importType))
                 : importableTypes() != 0)
    result.compatibility |= kCompatibilityImportable;
  if ((params.usage & kSharingExport) && exportableTypes())
    result.compatibility |= kCompatibilityExportable;
  return result;
}

void Allocator::countAllocationLocked(uint64_t size) {
  ++stats_.allocations;
  stats_.bytesAllocated += size;
  stats_.liveBytes += size;
  stats_.peakBytes = std::max(stats_.peakBytes, stats_.liveBytes);
}

namespace {

// Owns a file descriptor until release(): allocateMemfd's error paths all
// close the memfd here, and a successful allocation hands it to the buffer
// (Allocator::release closes it then).
class OwnedFd {
public:
  explicit OwnedFd(int fd) : fd_(fd) {}
  OwnedFd(const OwnedFd &) = delete;
  OwnedFd &operator=(const OwnedFd &) = delete;
  ~OwnedFd() {
    if (fd_ >= 0)
      close(fd_);
  }
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

private:
  int fd_;
};

} // namespace

Result<uint8_t *> Allocator::allocateMemfd(uint64_t size, int &fd) {
  fd = -1;
  OwnedFd memfd(memfd_create(name_.c_str(), MFD_CLOEXEC));
  if (memfd.get() < 0)
    return resourceExhausted(name_,
                             ": memfd_create failed: ", std::strerror(errno));
  // The error Statuses below read errno before ~OwnedFd closes the memfd.
  uint64_t capacity = std::max<uint64_t>(size, 1);
  if (ftruncate(memfd.get(), off_t(capacity)) != 0)
    return resourceExhausted(name_, ": cannot size a memfd to ", capacity,
                             " bytes: ", std::strerror(errno));
  void *mapping = mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_SHARED,
                       memfd.get(), 0);
  if (mapping == MAP_FAILED)
    return resourceExhausted(name_, ": cannot map a memfd of ", capacity,
                             " bytes: ", std::strerror(errno));
  fd = memfd.release();
  return static_cast<uint8_t *>(mapping);
}

Result<uint8_t *> Allocator::takeBlock(uint64_t size, BufferStorage &info,
                                       bool &fresh) {
  uint32_t sizeClass = uint32_t(
      std::bit_width((std::max(size, kPoolMinBytes) - 1) / kPoolMinBytes));
  uint8_t *storage = nullptr;
  if (sizeClass < kPoolClasses) {
    info.kind = BufferStorage::Kind::kPool;
    info.capacity = kPoolMinBytes << sizeClass;
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<uint8_t *> &blocks = freeBlocks_[info.heap][sizeClass];
    if (!blocks.empty()) {
      storage = blocks.back();
      blocks.pop_back();
      ++stats_.poolHits;
      stats_.poolReservedBytes -= info.capacity;
      countAllocationLocked(size);
      fresh = false;
      return storage;
    }
  } else {
    info.kind = BufferStorage::Kind::kMapped;
    info.capacity = size;
  }
  // New memory is zero: fresh mappings are, and allocatePoolBlock clears the
  // small blocks it takes from the malloc heap.
  storage = allocatePoolBlock(info.capacity);
  if (!storage)
    return resourceExhausted(name_, ": out of memory allocating ", size,
                             " bytes");
  std::lock_guard<std::mutex> lock(mutex_);
  if (info.kind == BufferStorage::Kind::kPool)
    ++stats_.poolMisses;
  countAllocationLocked(size);
  fresh = true;
  return storage;
}

Result<std::shared_ptr<Buffer>>
Allocator::allocate(uint32_t memoryType, uint32_t usage, uint64_t size,
                    AllocationContents contents) {
  CompatibilityResult fit = queryCompatibility({memoryType, usage}, size);
  if (!(fit.compatibility & kCompatibilityAllocatable))
    return resourceExhausted(fit.reason);
  BufferStorage info;
  info.heap = fit.heap;
  info.capacity = fit.allocationSize;
  uint8_t *storage = nullptr;
  if (usage & kSharingExport) {
    // A new memfd's pages are zero: nothing to clear.
    info.kind = BufferStorage::Kind::kMemfd;
    FERRY_ASSIGN_OR_RETURN(storage, allocateMemfd(size, info.fd));
    {
      std::lock_guard<std::mutex> lock(mutex_);
      countAllocationLocked(size);
    }
  } else {
    bool fresh = false;
    FERRY_ASSIGN_OR_RETURN(storage, takeBlock(size, info, fresh));
    // Fresh blocks are zero already; reused ones hold old contents.
    if (contents == AllocationContents::kZeroed && !fresh)
      std::memset(storage, 0, size);
  }
  // One allocation for the buffer and its control block.
  return std::shared_ptr<Buffer>(std::make_shared<SharedBuffer>(
      shared_from_this(), nextId(), storage, std::move(info), size,
      fit.params.memoryType, fit.params.usage, BufferPlacement{}));
}

Result<std::shared_ptr<Buffer>>
Allocator::importBuffer(BufferParams params, const ExternalBuffer &external,
                        std::function<void()> onRelease) {
  std::string_view typeName = externalBufferTypeName(external.type);
  if (!(importableTypes() & uint32_t(external.type)))
    return failedPrecondition(
        "import into ", name_, ": cannot import handle type ", typeName,
        " (importable: ", formatExternalBufferTypes(importableTypes()), ")");
  CompatibilityResult fit =
      queryCompatibility(params, external.size, external.type);
  if (!(fit.compatibility & kCompatibilityAllocatable))
    return resourceExhausted(fit.reason);
  BufferStorage info;
  info.heap = fit.heap;
  info.capacity = fit.allocationSize;
  uint8_t *storage = nullptr;
  if (external.type == ExternalBufferType::kHostAllocation) {
    if (!external.hostPointer)
      return invalidArgument("import into ", name_,
                             ": host allocation pointer is null");
    info.kind = BufferStorage::Kind::kImportedHost;
    if (onRelease)
      info.onRelease =
          std::make_unique<std::function<void()>>(std::move(onRelease));
    storage = static_cast<uint8_t *>(external.hostPointer);
  } else {
    struct stat st;
    if (external.fd < 0 || fstat(external.fd, &st) != 0)
      return invalidArgument("import into ", name_, ": fd ", external.fd,
                             " is not open");
    if (uint64_t(st.st_size) < info.capacity)
      return outOfRange("import into ", name_, ": fd ", external.fd, " has ",
                        st.st_size, " bytes, the import needs ", external.size);
    void *mapping = mmap(nullptr, info.capacity, PROT_READ | PROT_WRITE,
                         MAP_SHARED, external.fd, 0);
    if (mapping == MAP_FAILED)
      return invalidArgument("import into ", name_, ": cannot map fd ",
                             external.fd, ": ", std::strerror(errno));
    info.kind = BufferStorage::Kind::kImportedFd;
    storage = static_cast<uint8_t *>(mapping);
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    countAllocationLocked(external.size);
  }
  return std::shared_ptr<Buffer>(
      new Buffer(shared_from_this(), nextId(), storage, std::move(info),
                 external.size, fit.params.memoryType,
                 fit.params.usage | kSharingImport, BufferPlacement{}));
}

std::shared_ptr<Buffer>
Allocator::wrapConstant(std::shared_ptr<const uint8_t> data, uint64_t size) {
  BufferStorage info;
  info.kind = BufferStorage::Kind::kConstant;
  info.heap = options_.hostVisible ? 0 : 1;
  info.capacity = size;
  uint8_t *storage = const_cast<uint8_t *>(data.get());
  info.onRelease = std::make_unique<std::function<void()>>(
      [data = std::move(data)]() mutable { data.reset(); });
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stats_.constantBytes += size;
  }
  uint32_t memoryType = heaps_[info.heap].memoryType;
  return std::shared_ptr<Buffer>(new Buffer(
      shared_from_this(), nextId(), storage, std::move(info), size, memoryType,
      kTransferSource | kDispatchStorageRead | kMappingScoped |
          kSharingImmutable,
      BufferPlacement{}));
}

Result<ExternalBuffer> Allocator::exportBuffer(const Buffer &buffer,
                                               ExternalBufferType type) const {
  std::string operation = strCat("export as ", externalBufferTypeName(type));
  FERRY_RETURN_IF_ERROR(buffer.requireUsage(kSharingExport, operation));
  if (!(exportableTypes() & uint32_t(type)))
    return failedPrecondition(buffer.describe(), ": ", operation, ": ", name_,
                              " cannot export that handle type (exportable: ",
                              formatExternalBufferTypes(exportableTypes()),
                              ")");
  FERRY_RETURN_IF_ERROR(buffer.requireLive(operation));
  ExternalBuffer external;
  external.type = type;
  external.size = buffer.byteLength();
  if (type == ExternalBufferType::kHostAllocation) {
    FERRY_RETURN_IF_ERROR(buffer.requireMemoryType(kHostVisible, operation));
    external.hostPointer = buffer.data();
    return external;
  }
  const Buffer &root = buffer.root();
  if (root.storageInfo_.fd < 0 || buffer.isSubspan())
    return failedPrecondition(buffer.describe(), ": ", operation,
                              ": only whole buffers allocated with "
                              "SharingExport have an fd");
  external.fd = dup(root.storageInfo_.fd);
  if (external.fd < 0)
    return resourceExhausted(buffer.describe(), ": ", operation,
                             ": dup failed: ", std::strerror(errno));
  return external;
}

Result<std::shared_ptr<Buffer>>
Allocator::createPending(const CompatibilityResult &fit, uint64_t size,
                         BufferPlacement placement) {
  if (!(fit.compatibility & kCompatibilityAllocatable))
    return resourceExhausted(fit.reason);
  BufferStorage info;
  info.heap = fit.heap;
  info.capacity = fit.allocationSize;
  // One allocation for the buffer and its control block: this is the queue
  // alloca hot path.
  return std::shared_ptr<Buffer>(std::make_shared<SharedBuffer>(
      shared_from_this(), nextId(), nullptr, std::move(info), size,
      fit.params.memoryType, fit.params.usage, std::move(placement)));
}

Status Allocator::commitPooled(Buffer &buffer) {
  BufferStorage &info = buffer.storageInfo_;
  uint64_t size = buffer.byteLength();
  if (buffer.usage() & kSharingExport) {
    info.kind = BufferStorage::Kind::kMemfd;
    FERRY_ASSIGN_OR_RETURN(uint8_t * storage, allocateMemfd(size, info.fd));
    {
      std::lock_guard<std::mutex> lock(mutex_);
      countAllocationLocked(size);
    }
    buffer.commitStorage(storage);
    return okStatus();
  }
  bool fresh = false;
  FERRY_ASSIGN_OR_RETURN(uint8_t * storage, takeBlock(size, info, fresh));
  buffer.commitStorage(storage);
  return okStatus();
}

void Allocator::release(uint8_t *storage, uint64_t size,
                        const BufferStorage &info, bool atLastReference) {
  switch (info.kind) {
  case BufferStorage::Kind::kPool: {
    uint32_t sizeClass =
        uint32_t(std::countr_zero(info.capacity / kPoolMinBytes));
    std::lock_guard<std::mutex> lock(mutex_);
    freeBlocks_[info.heap][sizeClass].push_back(storage);
    stats_.poolReservedBytes += info.capacity;
    ++stats_.deallocations;
    stats_.reclaimedAtLastReference += atLastReference;
    stats_.liveBytes -= size;
    return;
  }
  case BufferStorage::Kind::kMapped:
    freePoolBlock(storage, info.capacity);
    break;
  case BufferStorage::Kind::kMemfd:
    munmap(storage, info.capacity);
    close(info.fd);
    break;
  case BufferStorage::Kind::kImportedHost:
    if (info.onRelease)
      (*info.onRelease)();
    break;
  case BufferStorage::Kind::kImportedFd:
    munmap(storage, info.capacity);
    break;
  case BufferStorage::Kind::kConstant:
    (*info.onRelease)();
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  ++stats_.deallocations;
  stats_.reclaimedAtLastReference += atLastReference;
  stats_.liveBytes -= size;
}

void Allocator::trim() {
  std::vector<std::pair<uint8_t *, uint64_t>> blocks; // block, capacity
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto &heap : freeBlocks_)
      for (uint32_t sizeClass = 0; sizeClass < kPoolClasses; ++sizeClass) {
        for (uint8_t *block : heap[sizeClass])
          blocks.emplace_back(block, kPoolMinBytes << sizeClass);
        heap[sizeClass].clear();
      }
    stats_.poolReservedBytes = 0;
  }
  for (auto [block, capacity] : blocks)
    freePoolBlock(block, capacity);
}

AllocatorStatistics Allocator::statistics() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

} // namespace ferry::hal
