#include "runtime/hal/device.h"

#include <cstring>
#include <limits>

#include "runtime/hal/buffer_bits.h"

namespace ferry::hal {

DeviceStatistics Device::statistics() const {
  DeviceStatistics stats;
  stats.copies = copies_.load(std::memory_order_relaxed);
  stats.bytesCopied = bytesCopied_.load(std::memory_order_relaxed);
  stats.fills = fills_.load(std::memory_order_relaxed);
  stats.dispatches = dispatches_.load(std::memory_order_relaxed);
  stats.allocas = allocas_.load(std::memory_order_relaxed);
  stats.deallocas = deallocas_.load(std::memory_order_relaxed);
  stats.barriers = barriers_.load(std::memory_order_relaxed);
  stats.hostCalls = hostCalls_.load(std::memory_order_relaxed);
  stats.transfers = transfers_.load(std::memory_order_relaxed);
  stats.bytesTransferred = bytesTransferred_.load(std::memory_order_relaxed);
  return stats;
}

void Device::attachTopology(std::shared_ptr<const Topology> topology) {
  std::lock_guard<std::mutex> lock(topologyMutex_);
  topology_ = std::move(topology);
}

std::shared_ptr<const Topology> Device::topology() const {
  std::lock_guard<std::mutex> lock(topologyMutex_);
  return topology_;
}

std::optional<LinkCapabilities> Device::linkTo(std::string_view peer) const {
  if (peer == name_) {
    DeviceCapabilities caps = capabilities();
    return Topology::deriveLink(caps, caps, /*self=*/true);
  }
  std::shared_ptr<const Topology> topo = topology();
  if (!topo)
    return std::nullopt;
  std::optional<size_t> self = topo->indexOf(name_);
  std::optional<size_t> other = topo->indexOf(peer);
  if (!self || !other)
    return std::nullopt;
  return topo->link(*self, *other);
}

static DeviceQueryResult answer(int64_t value) { return {true, value}; }

DeviceQueryResult Device::query(std::string_view category,
                                std::string_view key) const {
  if (category == kQueryCategoryDevice) {
    if (key.starts_with("driver."))
      return answer(key.substr(7) == driverName());
    if (key.starts_with("name."))
      return answer(key.substr(5) == name_);
    if (key == "concurrency")
      return answer(capabilities().concurrency);
    return {};
  }
  if (category == kQueryCategoryMemory) {
    DeviceCapabilities caps = capabilities();
    auto has = [](uint32_t mask, ExternalBufferType type) {
      return answer((mask & uint32_t(type)) != 0);
    };
    if (key == "host_visible")
      return answer(caps.hostVisible);
    if (key == "host_coherent")
      return answer(caps.hostCoherent);
    if (key == "unified_memory")
      return answer(caps.unifiedMemory);
    if (key == "device_local")
      return answer((caps.memoryTypes & kDeviceLocal) != 0);
    if (key == "memory_types")
      return answer(caps.memoryTypes);
    if (key == "max_allocation_size")
      return answer(int64_t(caps.maxAllocationBytes));
    if (key == "import.host_allocation")
      return has(caps.importTypes, ExternalBufferType::kHostAllocation);
    if (key == "import.opaque_fd")
      return has(caps.importTypes, ExternalBufferType::kOpaqueFd);
    if (key == "export.host_allocation")
      return has(caps.exportTypes, ExternalBufferType::kHostAllocation);
    if (key == "export.opaque_fd")
      return has(caps.exportTypes, ExternalBufferType::kOpaqueFd);
    return {};
  }
  if (category == kQueryCategoryLink) {
    size_t colon = key.rfind(':');
    if (colon == std::string_view::npos)
      return {};
    std::string_view peer = key.substr(0, colon);
    std::string_view property = key.substr(colon + 1);
    std::optional<LinkCapabilities> link = linkTo(peer);
    if (property == "exists") {
      if (link)
        return answer(1);
      // Known absent only when this device is in a group to look in.
      return topology() ? answer(0) : DeviceQueryResult{};
    }
    if (!link)
      return {};
    if (property == "transparent_access")
      return answer(link->transparentAccess);
    if (property == "unified_memory")
      return answer(link->unifiedMemory);
    if (property == "import.opaque_fd")
      return answer(
          (link->importTypes & uint32_t(ExternalBufferType::kOpaqueFd)) != 0);
    if (property == "import.host_allocation")
      return answer((link->importTypes &
                     uint32_t(ExternalBufferType::kHostAllocation)) != 0);
    return {};
  }
  return {};
}

Status Device::reject(const std::shared_ptr<Fence> &signal, Status status) {
  signal->fail(status);
  return status;
}

Status Device::checkAccess(const Buffer &buffer,
                           std::string_view operation) const {
  const Allocator *owner = &buffer.allocator();
  if (owner == allocator_.get())
    return okStatus();
  std::shared_ptr<const Topology> topo = topology();
  std::optional<size_t> self, other;
  if (topo) {
    self = topo->indexOf(name_);
    other = topo->indexOfAllocator(owner);
  }
  if (!self || !other)
    return failedPrecondition(buffer.describe(), ": ", operation,
                              ": the buffer belongs to ", owner->name(),
                              ", which is in no device group with device '",
                              name_, "'");
  if (!topo->link(*self, *other).transparentAccess)
    return failedPrecondition(
        buffer.describe(), ": ", operation, ": device '", name_,
        "' has no transparent access to the memory of device '",
        topo->node(*other).name,
        "' (export and import it, or stage it through host memory)");
  return okStatus();
}

Status Device::transferMirror(const Buffer &mirror, bool in) {
  const std::shared_ptr<Buffer> &source = mirror.transferSource();
  std::string operation = strCat(in ? "transfer of " : "write-back into ",
                                 source->describe(), in ? " into " : " from ",
                                 mirror.describe(), " on device '", name_, "'");
  std::shared_ptr<const Topology> topo = topology();
  std::optional<size_t> other =
      topo ? topo->indexOfAllocator(&source->allocator()) : std::nullopt;
  std::shared_ptr<Device> peer =
      other ? topo->node(*other).device.lock() : nullptr;
  if (!peer)
    return failedPrecondition(operation, ": the device that owns ",
                              source->describe(),
                              " is gone or in no device group with this one");
  FERRY_RETURN_IF_ERROR(source->requireLive(operation));
  uint64_t length = mirror.byteLength();
  constexpr uint32_t kStagingMemory =
      kHostVisible | kHostCoherent | kDeviceVisible;
  constexpr uint32_t kStagingUsage = kTransfer | kMappingScoped;
  Result<std::shared_ptr<Buffer>> peerStaging =
      peer->allocator().allocate(kStagingMemory, kStagingUsage, length);
  if (!peerStaging.ok())
    return peerStaging.status().withContext(
        strCat(operation, ": staging on device '", peer->name(), "'"));
  Result<std::shared_ptr<Buffer>> ownStaging =
      allocator_->allocate(kStagingMemory, kStagingUsage, length);
  if (!ownStaging.ok())
    return ownStaging.status().withContext(
        strCat(operation, ": staging on device '", name_, "'"));
  auto peerCopy = [&](const std::shared_ptr<Buffer> &from,
                      const std::shared_ptr<Buffer> &to) {
    auto done = Fence::create();
    Status status = peer->queueCopy(nullptr, done, from, 0, to, 0, length);
    if (status.ok())
      status = done->wait();
    return status.ok() ? status : status.withContext(operation);
  };
  if (in)
    FERRY_RETURN_IF_ERROR(peerCopy(source, *peerStaging));
  else
    executeCopy(mirror.data(), (*ownStaging)->data(), length);
  FERRY_ASSIGN_OR_RETURN(std::span<uint8_t> peerBytes,
                         (*peerStaging)->map(MappingMode::kScoped));
  FERRY_ASSIGN_OR_RETURN(std::span<uint8_t> ownBytes,
                         (*ownStaging)->map(MappingMode::kScoped));
  if (in) {
    std::memcpy(ownBytes.data(), peerBytes.data(), length);
    executeCopy((*ownStaging)->data(), mirror.data(), length);
  } else {
    std::memcpy(peerBytes.data(), ownBytes.data(), length);
    FERRY_RETURN_IF_ERROR(peerCopy(*peerStaging, source));
  }
  transfers_.fetch_add(1, std::memory_order_relaxed);
  bytesTransferred_.fetch_add(length, std::memory_order_relaxed);
  return okStatus();
}

Status
Device::transferMirrorsIn(std::span<const std::shared_ptr<Buffer>> buffers) {
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (!buffers[i]->transferSource())
      continue;
    bool seen = false;
    for (size_t j = 0; j < i && !seen; ++j)
      seen = &buffers[j]->root() == &buffers[i]->root();
    if (!seen)
      FERRY_RETURN_IF_ERROR(transferMirror(*buffers[i], /*in=*/true));
  }
  return okStatus();
}

// What an observer is told about an operation (its timing is added when it
// runs).
static QueueOperation describe(QueueOperationKind kind, uint64_t bytes = 0) {
  QueueOperation operation;
  operation.kind = kind;
  operation.bytes = bytes;
  return operation;
}

template <typename Work>
Status Device::enqueue(const std::shared_ptr<Fence> &wait,
                       const std::shared_ptr<Fence> &signal,
                       const QueueOperation &operation, WorkHints hints,
                       Work &&work) {
  // The observer attached at submission hears about the execution; without
  // one the work runs unwrapped.
  if (DeviceObserver *observer = observer_.load(std::memory_order_acquire))
    return enqueue(
        wait, signal, hints,
        [this, observer, operation, work = std::forward<Work>(work)]() mutable {
          QueueOperation observed = operation;
          observed.start = QueueOperation::Clock::now();
          Status status = work();
          observed.end = QueueOperation::Clock::now();
          observed.ok = status.ok();
          observer->onQueueOperation(*this, observed);
          return status;
        });
  return enqueue(wait, signal, hints, std::forward<Work>(work));
}

template <typename Work>
Status Device::enqueue(const std::shared_ptr<Fence> &wait,
                       const std::shared_ptr<Fence> &signal, WorkHints hints,
                       Work &&work) {
  if (!executesInline_)
    return submit(wait, signal, std::forward<Work>(work), hints);
  return runOrdered(wait, signal, work);
}

Status Device::barrier(const std::shared_ptr<Fence> &wait,
                       const std::shared_ptr<Fence> &signal,
                       QueueOperationKind kind) {
  return enqueue(wait, signal, describe(kind), {.selfContained = true}, [this] {
    barriers_.fetch_add(1, std::memory_order_relaxed);
    return okStatus();
  });
}

#define FERRY_CHECK_SIGNAL(signal, context)                                    \
  if (!(signal))                                                               \
    return invalidArgument(context, ": the signal fence is null");

Result<std::shared_ptr<Buffer>>
Device::queueAlloca(const std::shared_ptr<Fence> &wait,
                    const std::shared_ptr<Fence> &signal, uint32_t memoryType,
                    uint32_t usage, uint64_t size, uint32_t flags) {
  auto context = [this] {
    return strCat("queue alloca on device '", name_, "'");
  };
  FERRY_CHECK_SIGNAL(signal, context());
  if (flags & ~kQueueAllocaKnownFlags)
    return reject(signal,
                  invalidArgument(context(), ": unknown flags 0x", std::hex,
                                  flags & ~kQueueAllocaKnownFlags));
  CompatibilityResult fit =
      allocator_->queryCompatibility({memoryType, usage}, size);
  BufferPlacement placement;
  placement.device = weak_from_this();
  placement.queueAffinity = 1;
  placement.flags = kBufferPlacementAsynchronous;
  if (flags & kQueueAllocaIndeterminateLifetime)
    placement.flags |= kBufferPlacementIndeterminateLifetime;
  Result<std::shared_ptr<Buffer>> buffer =
      allocator_->createPending(fit, size, std::move(placement));
  if (!buffer.ok())
    return reject(signal, buffer.status().withContext(context()));
  auto operation = describe(QueueOperationKind::kAlloca, size);
  Status status =
      enqueue(wait, signal, operation, {.selfContained = true},
              [this, b = *buffer, context] {
                allocas_.fetch_add(1, std::memory_order_relaxed);
                Status status = allocator_->commitPooled(*b);
                return status.ok() ? status : status.withContext(context());
              });
  if (!status.ok())
    return status;
  return buffer;
}

Status Device::queueDealloca(const std::shared_ptr<Fence> &wait,
                             const std::shared_ptr<Fence> &signal,
                             const std::shared_ptr<Buffer> &buffer,
                             uint32_t flags) {
  auto context = [this] {
    return strCat("queue dealloca on device '", name_, "'");
  };
  FERRY_CHECK_SIGNAL(signal, context());
  if (flags & ~kQueueDeallocaKnownFlags)
    return reject(signal,
                  invalidArgument(context(), ": unknown flags 0x", std::hex,
                                  flags & ~kQueueDeallocaKnownFlags));
  if (!buffer)
    return reject(signal, invalidArgument(context(), ": the buffer is null"));
  const BufferPlacement &placement = buffer->placement();
  if (flags & kQueueDeallocaPreferOrigin) {
    std::shared_ptr<Device> origin = placement.device.lock();
    if (origin && origin.get() != this)
      return origin->queueDealloca(wait, signal, buffer, flags);
  }
  if (!buffer->markDeallocaIssued())
    return reject(signal,
                  failedPrecondition(buffer->describe(), ": ", context(),
                                     ": was already deallocated (a second "
                                     "dealloca of the same buffer)"));
  bool frees = (placement.flags & kBufferPlacementAsynchronous) &&
               !(placement.flags & kBufferPlacementIndeterminateLifetime);
  if (!frees)
    return barrier(wait, signal, QueueOperationKind::kDealloca);
  auto operation =
      describe(QueueOperationKind::kDealloca, buffer->byteLength());
  return enqueue(wait, signal, operation, {.selfContained = true},
                 [this, buffer, context] {
                   deallocas_.fetch_add(1, std::memory_order_relaxed);
                   Status status = buffer->release();
                   return status.ok() ? status : status.withContext(context());
                 });
}

Status Device::queueBarrier(const std::shared_ptr<Fence> &wait,
                            const std::shared_ptr<Fence> &signal) {
  FERRY_CHECK_SIGNAL(signal, strCat("queue barrier on device '", name_, "'"));
  return barrier(wait, signal);
}

// Checks [offset, offset + length) lies in `buffer`.
static Status checkRange(const Buffer &buffer, uint64_t offset, uint64_t length,
                         std::string_view operation) {
  if (offset > buffer.byteLength() || length > buffer.byteLength() - offset)
    return outOfRange(buffer.describe(), ": ", operation, ": range [", offset,
                      ", +", length, ") is outside its ", buffer.byteLength(),
                      " bytes");
  return okStatus();
}

Status Device::queueFill(const std::shared_ptr<Fence> &wait,
                         const std::shared_ptr<Fence> &signal,
                         const std::shared_ptr<Buffer> &target, uint64_t offset,
                         uint64_t length, uint64_t pattern,
                         uint32_t patternLength) {
  auto context = [this] {
    return strCat("queue fill on device '", name_, "'");
  };
  FERRY_CHECK_SIGNAL(signal, context());
  if (!target)
    return reject(signal, invalidArgument(context(), ": the target is null"));
  if (patternLength != 1 && patternLength != 2 && patternLength != 4 &&
      patternLength != 8)
    return reject(signal,
                  invalidArgument(context(), ": pattern length ", patternLength,
                                  " is not 1, 2, 4 or 8 bytes"));
  if (length % patternLength)
    return reject(signal,
                  invalidArgument(context(), ": length ", length,
                                  " is not a multiple of the pattern length ",
                                  patternLength));
  Status status = checkRange(*target, offset, length, context());
  if (status.ok())
    status = target->requireUsage(kTransferTarget, context());
  if (status.ok())
    status = checkAccess(*target, context());
  if (status.ok() && target->isReleased())
    status = target->requireLive(context());
  if (!status.ok())
    return reject(signal, status);
  auto operation = describe(QueueOperationKind::kFill, length);
  WorkHints hints{.selfContained = !target->transferSource(), .bytes = length};
  return enqueue(wait, signal, operation, hints, [=, this] {
    if (!target->data())
      return target->requireLive(context());
    bool mirror = target->transferSource() != nullptr;
    if (mirror)
      FERRY_RETURN_IF_ERROR(transferMirror(*target, /*in=*/true));
    executeFill(target->data() + offset, length, pattern, patternLength);
    fills_.fetch_add(1, std::memory_order_relaxed);
    return mirror ? transferMirror(*target, /*in=*/false) : okStatus();
  });
}

Status Device::queueCopy(const std::shared_ptr<Fence> &wait,
                         const std::shared_ptr<Fence> &signal,
                         const std::shared_ptr<Buffer> &source,
                         uint64_t sourceOffset,
                         const std::shared_ptr<Buffer> &target,
                         uint64_t targetOffset, uint64_t length) {
  auto context = [this] {
    return strCat("queue copy on device '", name_, "'");
  };
  FERRY_CHECK_SIGNAL(signal, context());
  if (!source || !target)
    return reject(signal,
                  invalidArgument(context(), ": the ",
                                  source ? "target" : "source", " is null"));
  Status status = checkRange(*source, sourceOffset, length, context());
  if (status.ok())
    status = checkRange(*target, targetOffset, length, context());
  if (status.ok())
    status = source->requireUsage(kTransferSource, context());
  if (status.ok())
    status = target->requireUsage(kTransferTarget, context());
  if (status.ok())
    status = checkAccess(*source, context());
  if (status.ok())
    status = checkAccess(*target, context());
  if (status.ok() && &source->root() == &target->root()) {
    uint64_t s = source->byteOffset() + sourceOffset;
    uint64_t t = target->byteOffset() + targetOffset;
    if (s < t + length && t < s + length && length)
      status = invalidArgument(context(), ": source and target ranges of ",
                               source->describe(), " overlap");
  }
  for (const Buffer *b : {source.get(), target.get()})
    if (status.ok() && b->isReleased())
      status = b->requireLive(context());
  if (!status.ok())
    return reject(signal, status);
  auto operation = describe(QueueOperationKind::kCopy, length);
  WorkHints hints{.selfContained =
                      !source->transferSource() && !target->transferSource(),
                  .bytes = 2 * length};
  return enqueue(wait, signal, operation, hints, [=, this] {
    if (!source->data())
      return source->requireLive(context());
    if (!target->data())
      return target->requireLive(context());
    if (source->transferSource())
      FERRY_RETURN_IF_ERROR(transferMirror(*source, /*in=*/true));
    if (target->transferSource() && &target->root() != &source->root())
      FERRY_RETURN_IF_ERROR(transferMirror(*target, /*in=*/true));
    executeCopy(source->data() + sourceOffset, target->data() + targetOffset,
                length);
    copies_.fetch_add(1, std::memory_order_relaxed);
    bytesCopied_.fetch_add(length, std::memory_order_relaxed);
    return target->transferSource() ? transferMirror(*target, /*in=*/false)
                                    : okStatus();
  });
}

Status Device::queueDispatch(
    const std::shared_ptr<Fence> &wait, const std::shared_ptr<Fence> &signal,
    BuiltinKernel kernel, ElementType elementType, uint64_t count,
    std::span<const std::shared_ptr<Buffer>> bindings) {
  auto context = [this] {
    return strCat("queue dispatch on device '", name_, "'");
  };
  FERRY_CHECK_SIGNAL(signal, context());
  Status status = validateDispatch(kernel, elementType, count, bindings);
  if (!status.ok())
    return reject(signal, status.withContext(context()));
  for (size_t i = 0; i < bindings.size(); ++i) {
    bool output = i + 1 == bindings.size();
    std::string operation =
        strCat(context(), " (binding ", i, ", ",
               output ? std::string("output") : strCat("input ", i), ")");
    status = bindings[i]->requireUsage(
        output ? kDispatchStorageWrite : kDispatchStorageRead, operation);
    if (status.ok())
      status = checkAccess(*bindings[i], operation);
    if (!status.ok())
      return reject(signal, status);
  }
  std::vector<std::shared_ptr<Buffer>> held(bindings.begin(), bindings.end());
  auto operation = describe(QueueOperationKind::kDispatch,
                            count * elementByteSize(elementType));
  operation.kernel = kernel;
  operation.elementType = elementType;
  operation.elementCount = count;
  WorkHints hints{.selfContained = true,
                  .bytes = held.size() * count * elementByteSize(elementType)};
  for (const auto &buffer : held)
    hints.selfContained &= !buffer->transferSource();
  return enqueue(
      wait, signal, operation, hints, [=, this, held = std::move(held)] {
        std::vector<uint8_t *> pointers;
        pointers.reserve(held.size());
        for (const auto &buffer : held) {
          if (!buffer->data())
            return buffer->requireLive(context());
          pointers.push_back(buffer->data());
        }
        FERRY_RETURN_IF_ERROR(transferMirrorsIn(held));
        dispatches_.fetch_add(1, std::memory_order_relaxed);
        Status status = executeDispatch(kernel, elementType, count, pointers);
        if (!status.ok())
          return status.withContext(context());
        const Buffer &output = *held.back();
        return output.transferSource() ? transferMirror(output, /*in=*/false)
                                       : okStatus();
      });
}

Status Device::queueDispatchEntry(
    const std::shared_ptr<Fence> &wait, const std::shared_ptr<Fence> &signal,
    const std::shared_ptr<const Executable> &executable, uint32_t entryIndex,
    std::array<uint64_t, 3> workgroupCount,
    std::span<const uint64_t> pushConstants,
    std::span<const DispatchBinding> bindings) {
  if (!executable) {
    std::string context = strCat("queue dispatch on device '", name_, "'");
    FERRY_CHECK_SIGNAL(signal, context);
    return reject(signal, invalidArgument(context, ": the executable is null"));
  }
  if (entryIndex >= executable->entries().size()) {
    std::string context =
        strCat("queue dispatch of executable '", executable->name(),
               "' on device '", name_, "'");
    FERRY_CHECK_SIGNAL(signal, context);
    return reject(signal,
                  outOfRange(context, ": entry index ", entryIndex,
                             " is out of range (it has ",
                             executable->entries().size(), " entries)"));
  }
  const Executable::Entry &entry = executable->entries()[entryIndex];
  std::string context =
      strCat("queue dispatch of executable '", executable->name(), "' entry '",
             entry.name, "' on device '", name_, "'");
  FERRY_CHECK_SIGNAL(signal, context);
  if (pushConstants.size() != entry.pushConstantCount)
    return reject(signal, invalidArgument(context, ": ", pushConstants.size(),
                                          " push constants given, the entry "
                                          "takes ",
                                          entry.pushConstantCount));
  if (bindings.size() != entry.bindingAccess.size())
    return reject(signal, invalidArgument(context, ": ", bindings.size(),
                                          " bindings given, the entry takes ",
                                          entry.bindingAccess.size()));
  uint64_t workgroups = 1;
  for (size_t d = 0; d < 3; ++d) {
    if (workgroupCount[d] > UINT32_MAX)
      return reject(signal, outOfRange(context, ": workgroup count ", "xyz"[d],
                                       " = ", int64_t(workgroupCount[d]),
                                       " is outside [0, 2^32)"));
    if (workgroupCount[d] &&
        workgroups > std::numeric_limits<uint64_t>::max() / workgroupCount[d])
      return reject(signal,
                    outOfRange(context, ": ", workgroupCount[0], " x ",
                               workgroupCount[1], " x ", workgroupCount[2],
                               " workgroups overflow 64 bits"));
    workgroups *= workgroupCount[d];
  }
  uint64_t writtenBytes = 0;
  // A copy kernel moves the elements of its smallest binding (the slice)
  // that is no parameter.
  uint64_t copiedBytes = UINT64_MAX;
  for (size_t i = 0; i < bindings.size(); ++i) {
    const DispatchBinding &binding = bindings[i];
    if (!(entry.bindingAccess[i] & FERRY_BINDING_ACCESS_PARAMETER))
      copiedBytes = std::min(copiedBytes, binding.length);
    // Made only for an error: a dispatch runs in microseconds.
    auto operation = [&] { return strCat(context, " (binding ", i, ")"); };
    if (!binding.buffer)
      return reject(signal,
                    invalidArgument(operation(), ": the buffer is null"));
    if (binding.buffer->isReleased())
      return reject(signal,
                    failedPrecondition(binding.buffer->describe(), ": ",
                                       operation(), ": already deallocated"));
    uint64_t size = binding.buffer->byteLength();
    if (binding.offset > size || binding.length > size - binding.offset)
      return reject(signal,
                    outOfRange(binding.buffer->describe(), ": ", operation(),
                               ": offset ", binding.offset, " + length ",
                               binding.length, " is outside the buffer's ",
                               size, " bytes"));
    uint8_t access = entry.bindingAccess[i];
    uint32_t usage = 0;
    if (access & FERRY_BINDING_ACCESS_READ)
      usage |= kDispatchStorageRead;
    if (access & FERRY_BINDING_ACCESS_WRITE)
      usage |= kDispatchStorageWrite;
    auto check = [&](std::string_view what) {
      Status status = binding.buffer->requireUsage(usage, what);
      return status.ok() ? checkAccess(*binding.buffer, what) : status;
    };
    if (!check(context).ok())
      return reject(signal, check(operation()));
    if (access & FERRY_BINDING_ACCESS_WRITE)
      writtenBytes += binding.length;
  }
  std::vector<DispatchBinding> held(bindings.begin(), bindings.end());
  std::vector<uint64_t> constants(pushConstants.begin(), pushConstants.end());
  auto operation = describe(QueueOperationKind::kDispatch, writtenBytes);
  operation.executable = executable->name();
  operation.entry = entry.name;
  operation.workgroups = workgroups;
  WorkHints hints{.selfContained = true};
  for (const DispatchBinding &binding : held) {
    hints.selfContained &= !binding.buffer->transferSource();
    hints.bytes += binding.length;
  }
  return enqueue(
      wait, signal, operation, hints,
      [=, this, held = std::move(held), constants = std::move(constants)] {
        const Executable::Entry &entry = executable->entries()[entryIndex];
        std::vector<void *> pointers;
        std::vector<uint64_t> lengths;
        std::vector<std::shared_ptr<Buffer>> buffers;
        pointers.reserve(held.size());
        lengths.reserve(held.size());
        buffers.reserve(held.size());
        for (const DispatchBinding &binding : held) {
          if (!binding.buffer->data())
            return binding.buffer->requireLive(context);
          pointers.push_back(binding.buffer->data() + binding.offset);
          lengths.push_back(binding.length);
          buffers.push_back(binding.buffer);
        }
        FERRY_RETURN_IF_ERROR(transferMirrorsIn(buffers));
        if (entry.kind == FERRY_ENTRY_KIND_COPY) {
          copies_.fetch_add(1, std::memory_order_relaxed);
          bytesCopied_.fetch_add(copiedBytes == UINT64_MAX ? 0 : copiedBytes,
                                 std::memory_order_relaxed);
        } else {
          dispatches_.fetch_add(1, std::memory_order_relaxed);
        }
        FERRY_RETURN_IF_ERROR(runWorkgroups(*executable, entry, workgroupCount,
                                            workgroups, constants, pointers,
                                            lengths, context));
        // Write back every distinct mirror the entry may have written.
        for (size_t i = 0; i < held.size(); ++i) {
          if (!(entry.bindingAccess[i] & FERRY_BINDING_ACCESS_WRITE) ||
              !buffers[i]->transferSource())
            continue;
          bool seen = false;
          for (size_t j = 0; j < i && !seen; ++j)
            seen = (entry.bindingAccess[j] & FERRY_BINDING_ACCESS_WRITE) &&
                   &buffers[j]->root() == &buffers[i]->root();
          if (!seen)
            FERRY_RETURN_IF_ERROR(transferMirror(*buffers[i], /*in=*/false));
        }
        return okStatus();
      });
}

Status Device::runWorkgroups(const Executable &executable,
                             const Executable::Entry &entry,
                             std::array<uint64_t, 3> count, uint64_t total,
                             std::span<const uint64_t> pushConstants,
                             std::span<void *const> bindings,
                             std::span<const uint64_t> lengths,
                             const std::string &context) {
  if (total == 0)
    return okStatus();
  // Once a workgroup fails the rest are skipped; the first failure wins.
  std::atomic<bool> failed{false};
  std::mutex mutex;
  Status result;
  Status status = executeWorkgroups(total, [&](uint64_t begin, uint64_t end) {
    ferry_dispatch_state_t state = {};
    for (size_t d = 0; d < 3; ++d)
      state.workgroup_count[d] = uint32_t(count[d]);
    state.binding_count = uint32_t(bindings.size());
    state.push_constant_count = uint32_t(pushConstants.size());
    state.bindings = bindings.data();
    state.binding_lengths = lengths.data();
    state.push_constants = pushConstants.data();
    for (uint64_t i = begin; i < end; ++i) {
      if (failed.load(std::memory_order_relaxed))
        return okStatus();
      state.workgroup_id[0] = uint32_t(i % count[0]);
      state.workgroup_id[1] = uint32_t(i / count[0] % count[1]);
      state.workgroup_id[2] = uint32_t(i / count[0] / count[1]);
      int32_t code = entry.function(&state);
      if (code == 0)
        continue;
      failed.store(true, std::memory_order_relaxed);
      std::lock_guard<std::mutex> lock(mutex);
      if (!result.ok())
        return okStatus();
      std::string workgroup =
          strCat(": workgroup (", state.workgroup_id[0], ", ",
                 state.workgroup_id[1], ", ", state.workgroup_id[2], ")");
      if (code == FERRY_ENTRY_STATUS_OUT_OF_MEMORY)
        result = makeStatus(StatusCode::kResourceExhausted, context, workgroup,
                            " ran out of memory (the kernel could not "
                            "allocate a buffer of its own)");
      else
        result = makeStatus(StatusCode::kAborted, context, workgroup,
                            " returned ", code);
      return okStatus();
    }
    return okStatus();
  });
  return result.ok() ? status : result;
}

Status Device::queueHostCall(const std::shared_ptr<Fence> &wait,
                             const std::shared_ptr<Fence> &signal,
                             std::function<Status()> call) {
  auto context = [this] {
    return strCat("queue host call on device '", name_, "'");
  };
  FERRY_CHECK_SIGNAL(signal, context());
  if (!call)
    return reject(signal, invalidArgument(context(), ": the call is empty"));
  auto operation = describe(QueueOperationKind::kHostCall);
  // A host call may block on anything: never run on the submitting thread.
  return enqueue(wait, signal, operation, {.selfContained = false},
                 [this, call = std::move(call)] {
                   hostCalls_.fetch_add(1, std::memory_order_relaxed);
                   return call();
                 });
}

Status validateDispatch(BuiltinKernel kernel, ElementType elementType,
                        uint64_t count,
                        std::span<const std::shared_ptr<Buffer>> bindings) {
  if (!builtinKernelFromValue(uint32_t(kernel)))
    return invalidArgument("unknown built-in kernel ", uint32_t(kernel));
  std::string_view name = builtinKernelName(kernel);
  size_t elementSize = elementByteSize(elementType);
  if (elementSize == 0)
    return invalidArgument("kernel '", name, "': unknown element type ",
                           uint32_t(elementType));
  size_t expected = builtinKernelInputCount(kernel) + 1;
  if (bindings.size() != expected)
    return invalidArgument("kernel '", name, "' takes ", expected,
                           " bindings (", expected - 1,
                           " inputs then the output), got ", bindings.size());
  if (count > std::numeric_limits<uint64_t>::max() / elementSize)
    return outOfRange("kernel '", name, "': element count ", count,
                      " overflows");
  uint64_t needed = count * elementSize;
  for (size_t i = 0; i < bindings.size(); ++i) {
    std::string role =
        i + 1 == bindings.size() ? std::string("output") : strCat("input ", i);
    const std::shared_ptr<Buffer> &buffer = bindings[i];
    if (!buffer)
      return invalidArgument("kernel '", name, "': binding ", i, " (", role,
                             ") is null");
    if (buffer->isReleased())
      return failedPrecondition("kernel '", name, "': binding ", i, " (", role,
                                ") was already deallocated");
    if (buffer->byteLength() < needed)
      return outOfRange("kernel '", name, "': binding ", i, " (", role,
                        ") has ", buffer->byteLength(), " bytes but ", count,
                        " x ", elementTypeName(elementType), " needs ", needed);
  }
  return okStatus();
}

} // namespace ferry::hal
