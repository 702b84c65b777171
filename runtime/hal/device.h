// Device: one execution target (a CPU, a GPU, ...) with its allocator and a
// queue of memory and compute operations ordered by fences.
//
// The queue operations are implemented once, here, for every driver: argument
// checks, capability-bit enforcement, access checks against the topology,
// dealloca policy (prefer_origin routing, barrier when nothing is freed,
// double dealloca) and statistics. A driver supplies only how work runs
// (submit: inline or on its own queue) and the compute hooks (fill, copy,
// dispatch, and how to split an executable's workgroups), so a new kind of
// device touches only its own folder (runtime/drivers/<name>/). Every queue
// operation takes an optional wait fence (null: no dependency) and a required
// signal fence. Contract:
//   - the operation runs only after `wait` is signaled, and after every
//     operation submitted to this device before it (one in-order queue);
//   - if `wait` failed, the operation does not run, `signal` fails with the
//     same status, and a synchronous driver returns that status;
//   - if the operation itself is invalid or fails, `signal` fails with the
//     error and the call returns it when it is known at submission;
//   - otherwise `signal` is signaled when the operation's effects are visible.
// A synchronous driver does all of this before returning; an asynchronous one
// returns OK once the operation is queued and resolves `signal` later (or
// once it ran a small one on the calling thread: `signal` is then resolved,
// and a failure still arrives only through it).
//
// Statistics: the allocator counts memory; the device counts the operations
// it really ran (copies, fills, dispatches, ...), so tools report what
// happened.
//
// Ownership/threads: held by std::shared_ptr; queue operations may be called
// from any thread; statistics and queries are thread-safe.
#ifndef FERRY_RUNTIME_HAL_DEVICE_H_
#define FERRY_RUNTIME_HAL_DEVICE_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "runtime/base/status.h"
#include "runtime/hal/allocator.h"
#include "runtime/hal/buffer.h"
#include "runtime/hal/builtin_kernels.h"
#include "runtime/hal/device_observer.h"
#include "runtime/hal/element_type.h"
#include "runtime/hal/executable.h"
#include "runtime/hal/fence.h"
#include "runtime/hal/queue_flags.h"
#include "runtime/hal/topology.h"

namespace ferry::hal {

// Answer of Device::query: `known` is false when the device cannot answer
// (unknown category or key); `value` is then 0 and the caller picks a
// conservative default.
struct DeviceQueryResult {
  bool known = false;
  int64_t value = 0;
};

// Device query categories and keys (the contract compiled programs use; the
// bytecode carries the strings, values are int64, booleans are 0/1):
//
//   category "hal.device"
//     "driver.<name>"       1 if the device was created by driver <name>
//                           ("driver.local-task"), 0 otherwise
//     "name.<name>"         1 if the device instance is called <name>
//     "concurrency"         how many operations may run at once (>= 1)
//   category "hal.device.memory"
//     "host_visible"        device-local memory is mappable by the host
//     "host_coherent"       ... and coherent without flush/invalidate
//     "unified_memory"      device and host share one address space
//     "device_local"        the device has memory of its own (DeviceLocal)
//     "memory_types"        the MemoryTypeBits of its default heap
//     "import.host_allocation" / "import.opaque_fd"
//     "export.host_allocation" / "export.opaque_fd"
//                           1 if buffers can be imported / exported that way
//     "max_allocation_size" largest single allocation in bytes
//   category "hal.device.link" (links are directional: this -> peer; answered
//   only when the device belongs to a DeviceGroup, see topology.h)
//     "<peer>:exists"             1 if <peer> is in the same group
//     "<peer>:transparent_access" this device can read/write the peer's
//                                 memory directly (copies need no staging)
//     "<peer>:unified_memory"     the two share one address space
//     "<peer>:import.opaque_fd" / "<peer>:import.host_allocation"
//                                 the peer's buffers can be exported to this
//                                 device that way
//   <peer> is the peer device's instance name (a module's device symbol,
//   e.g. "device_b"); a peer the group does not contain is known=false except
//   for ":exists" (known, 0).
inline constexpr std::string_view kQueryCategoryDevice = "hal.device";
inline constexpr std::string_view kQueryCategoryMemory = "hal.device.memory";
inline constexpr std::string_view kQueryCategoryLink = "hal.device.link";

// One binding of an executable dispatch (Device::queueDispatchEntry): the
// `length` bytes of `buffer` from `offset`, which the entry may touch.
struct DispatchBinding {
  std::shared_ptr<Buffer> buffer;
  uint64_t offset = 0;
  uint64_t length = 0;
};

struct DeviceStatistics {
  uint64_t copies = 0; // queue copies and dispatches of copy kernels
  uint64_t bytesCopied = 0;
  uint64_t fills = 0;
  uint64_t dispatches = 0; // built-in kernels and compute entries
  uint64_t allocas = 0;    // queue allocas executed
  uint64_t deallocas = 0;  // queue deallocas that freed memory here
  uint64_t barriers = 0;   // barriers, including deallocas that freed nothing
  uint64_t hostCalls = 0;
  // Copies between another device's buffer and this device's transfer
  // mirror of it (buffer_import.h), in either direction, and their bytes.
  uint64_t transfers = 0;
  uint64_t bytesTransferred = 0;
};

class Device : public std::enable_shared_from_this<Device> {
public:
  virtual ~Device() = default;
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  // The instance name (a module's device symbol, e.g. "device_a").
  const std::string &name() const { return name_; }
  // The driver that created it ("local-sync").
  virtual std::string_view driverName() const = 0;
  // What the driver reports about this device (topology.h).
  virtual DeviceCapabilities capabilities() const = 0;

  Allocator &allocator() const { return *allocator_; }
  const std::shared_ptr<Allocator> &sharedAllocator() const {
    return allocator_;
  }
  DeviceStatistics statistics() const;

  // Answers a (category, key) question about this device; see the category
  // list above DeviceStatistics. Unknown category or key -> known = false.
  // Thread-safe. Drivers may override to add keys and must then fall back to
  // Device::query for the rest.
  virtual DeviceQueryResult query(std::string_view category,
                                  std::string_view key) const;

  // The topology of the DeviceGroup this device belongs to (null if none).
  std::shared_ptr<const Topology> topology() const;
  // The link from this device to `peer` (by name); null if either is not in
  // this device's group.
  std::optional<LinkCapabilities> linkTo(std::string_view peer) const;

  // --- Queue operations (see the contract above). ---

  // Allocates `size` bytes from the device's pool once `wait` is reached;
  // `flags` are QueueAllocaFlags. Returns the buffer at once (pending until
  // the alloca executes); use it only in work ordered after `signal`. Its
  // contents are undefined until written.
  Result<std::shared_ptr<Buffer>>
  queueAlloca(const std::shared_ptr<Fence> &wait,
              const std::shared_ptr<Fence> &signal, uint32_t memoryType,
              uint32_t usage, uint64_t size, uint32_t flags);

  // Returns a queue-allocated `buffer`'s memory to its pool once `wait` is
  // reached, even if references remain (they become unusable). With
  // kQueueDeallocaPreferOrigin it runs on the buffer's origin device (if it
  // has one and it is alive). When nothing is freed (indeterminate lifetime,
  // a synchronously allocated or imported buffer, no origin) it orders the
  // timeline like a barrier. A second dealloca of one buffer is an error.
  Status queueDealloca(const std::shared_ptr<Fence> &wait,
                       const std::shared_ptr<Fence> &signal,
                       const std::shared_ptr<Buffer> &buffer, uint32_t flags);

  // Orders the timeline: `signal` once `wait` and all earlier work are done.
  Status queueBarrier(const std::shared_ptr<Fence> &wait,
                      const std::shared_ptr<Fence> &signal);

  // Fills [offset, offset + length) of `target` with a 1, 2, 4 or 8 byte
  // pattern (length a multiple of it). Needs TransferTarget.
  Status queueFill(const std::shared_ptr<Fence> &wait,
                   const std::shared_ptr<Fence> &signal,
                   const std::shared_ptr<Buffer> &target, uint64_t offset,
                   uint64_t length, uint64_t pattern, uint32_t patternLength);

  // Copies `length` bytes. Needs TransferSource / TransferTarget; either
  // buffer may belong to another device whose memory this device can access
  // directly (the link's transparent_access).
  Status queueCopy(const std::shared_ptr<Fence> &wait,
                   const std::shared_ptr<Fence> &signal,
                   const std::shared_ptr<Buffer> &source, uint64_t sourceOffset,
                   const std::shared_ptr<Buffer> &target, uint64_t targetOffset,
                   uint64_t length);

  // Runs a built-in elementwise kernel over `count` elements of
  // `elementType`: bindings are the inputs followed by the output, and
  // output[i] = in0[i] OP in1[i]. Integer arithmetic wraps. Inputs need
  // DispatchStorageRead, the output DispatchStorageWrite.
  Status queueDispatch(const std::shared_ptr<Fence> &wait,
                       const std::shared_ptr<Fence> &signal,
                       BuiltinKernel kernel, ElementType elementType,
                       uint64_t count,
                       std::span<const std::shared_ptr<Buffer>> bindings);

  // Runs entry `entry` of `executable` (executable.h) once per workgroup of
  // a workgroupCount[0] x [1] x [2] grid, with `pushConstants` and
  // `bindings` (executable_abi.h: the base pointer of each is the buffer's
  // data plus its offset). Checked at submission, before any workgroup runs,
  // each failure naming executable, entry and binding: the entry exists,
  // the push constant and binding counts are the entry's, each count is
  // below 2^32 and their product fits 64 bits, and every binding is live,
  // lies within its buffer and has DispatchStorageRead / DispatchStorageWrite
  // for the entry's access to it (and the device may reach its memory). The
  // driver may run workgroups in any order and concurrently
  // (executeWorkgroups). A workgroup returning nonzero fails `signal` naming
  // the workgroup and its code (other workgroups may have run). Keeps
  // `executable` alive until the dispatch has run.
  Status queueDispatchEntry(const std::shared_ptr<Fence> &wait,
                            const std::shared_ptr<Fence> &signal,
                            const std::shared_ptr<const Executable> &executable,
                            uint32_t entry,
                            std::array<uint64_t, 3> workgroupCount,
                            std::span<const uint64_t> pushConstants,
                            std::span<const DispatchBinding> bindings);

  // Runs `call` on the host in queue order; its status resolves `signal`.
  // Calls must not block on later work of this queue.
  Status queueHostCall(const std::shared_ptr<Fence> &wait,
                       const std::shared_ptr<Fence> &signal,
                       std::function<Status()> call);

  // Attaches `observer` (null detaches); every queue operation submitted
  // while it is attached reports its execution to it (device_observer.h:
  // threads, lifetime). Not owned. No cost beyond an atomic load when none
  // is set.
  void setObserver(DeviceObserver *observer) {
    observer_.store(observer, std::memory_order_release);
  }
  DeviceObserver *observer() const {
    return observer_.load(std::memory_order_acquire);
  }

protected:
  // `executesInline`: the driver runs every operation on the calling thread
  // before returning (like local-sync). The base then runs work directly
  // instead of through submit(), saving a type-erased closure per operation
  // on the queue's hot path; the semantics are the same.
  Device(std::string name, std::shared_ptr<Allocator> allocator,
         bool executesInline = false)
      : name_(std::move(name)), allocator_(std::move(allocator)),
        executesInline_(executesInline) {}

  // What the base knows about submitted work, for an asynchronous driver
  // choosing the thread that runs it.
  struct WorkHints {
    // The work waits on nothing but `wait`: it makes no host call and no
    // transfer through another device's queue, so running it on the
    // submitting thread cannot block on work queued after it.
    bool selfContained = false;
    // Bytes it reads and writes (of every binding, the range filled or
    // copied; 0 for allocas, deallocas and barriers): its cost estimate.
    uint64_t bytes = 0;
  };
  // Runs `work` in queue order once `wait` is signaled and resolves `signal`
  // with its status (failing it with `wait`'s failure without running `work`
  // if `wait` failed). Synchronous drivers run it before returning and
  // return its status; asynchronous ones return OK once it is queued (or
  // once they ran it on the calling thread, which `hints` may allow).
  virtual Status submit(const std::shared_ptr<Fence> &wait,
                        const std::shared_ptr<Fence> &signal,
                        std::function<Status()> work, WorkHints hints) = 0;
  // What submit() promises, for work that runs now on this thread: waits for
  // `wait`, runs `work` and resolves `signal` with its status (or with
  // `wait`'s failure, without running it). Inline drivers' submit(), the
  // base's inline path and queue threads all run work through this.
  template <typename Work>
  static Status runOrdered(const std::shared_ptr<Fence> &wait,
                           const std::shared_ptr<Fence> &signal, Work &work) {
    if (wait) {
      Status status = wait->wait();
      if (!status.ok()) {
        signal->fail(status);
        return status;
      }
    }
    Status status = work();
    if (status.ok())
      signal->signal();
    else
      signal->fail(status);
    return status;
  }
  // Compute hooks, called from submitted work with live, checked memory.
  virtual void executeFill(uint8_t *target, uint64_t length, uint64_t pattern,
                           uint32_t patternLength) = 0;
  virtual void executeCopy(const uint8_t *source, uint8_t *target,
                           uint64_t length) = 0;
  virtual Status executeDispatch(BuiltinKernel kernel, ElementType elementType,
                                 uint64_t count,
                                 std::span<uint8_t *const> bindings) = 0;
  // Runs workgroups [0, count) of an executable dispatch by calling
  // run(begin, end) on ranges that cover every index exactly once, and
  // returns the first failure. The base runs one range inline; drivers with
  // threads split it.
  virtual Status
  executeWorkgroups(uint64_t count,
                    const std::function<Status(uint64_t, uint64_t)> &run) {
    return run(0, count);
  }

private:
  friend class DeviceGroup;
  void attachTopology(std::shared_ptr<const Topology> topology);
  // Fails unless this device may touch `buffer`'s memory directly.
  Status checkAccess(const Buffer &buffer, std::string_view operation) const;
  // Brings a transfer mirror (buffer_import.h) of this device up to date
  // with its source (`in`) or writes it back into the source, staged
  // through host-visible buffers on both devices; runs inside the queue
  // operation using the mirror, so it waits for the source device's copy.
  Status transferMirror(const Buffer &mirror, bool in);
  // Calls `entry` for each of `total` workgroups of a `count` grid through
  // executeWorkgroups(); a nonzero code becomes an error under `context`.
  Status runWorkgroups(const Executable &executable,
                       const Executable::Entry &entry,
                       std::array<uint64_t, 3> count, uint64_t total,
                       std::span<const uint64_t> pushConstants,
                       std::span<void *const> bindings,
                       std::span<const uint64_t> lengths,
                       const std::string &context);
  // transferMirror(in) once for every distinct mirror among `buffers`.
  Status transferMirrorsIn(std::span<const std::shared_ptr<Buffer>> buffers);
  // Validates the signal fence; fails `signal` with the returned error.
  Status reject(const std::shared_ptr<Fence> &signal, Status status);
  Status barrier(const std::shared_ptr<Fence> &wait,
                 const std::shared_ptr<Fence> &signal,
                 QueueOperationKind kind = QueueOperationKind::kBarrier);
  // submit(), or inline for drivers that execute inline.
  template <typename Work>
  Status enqueue(const std::shared_ptr<Fence> &wait,
                 const std::shared_ptr<Fence> &signal, WorkHints hints,
                 Work &&work);
  // The same, reporting the execution as `operation` (with its timing and
  // outcome) to the observer attached at submission, if any.
  template <typename Work>
  Status enqueue(const std::shared_ptr<Fence> &wait,
                 const std::shared_ptr<Fence> &signal,
                 const QueueOperation &operation, WorkHints hints, Work &&work);

  std::string name_;
  std::shared_ptr<Allocator> allocator_;
  bool executesInline_;
  mutable std::mutex topologyMutex_;
  std::shared_ptr<const Topology> topology_;
  std::atomic<uint64_t> copies_{0};
  std::atomic<uint64_t> bytesCopied_{0};
  std::atomic<uint64_t> fills_{0};
  std::atomic<uint64_t> dispatches_{0};
  std::atomic<uint64_t> allocas_{0};
  std::atomic<uint64_t> deallocas_{0};
  std::atomic<uint64_t> barriers_{0};
  std::atomic<uint64_t> hostCalls_{0};
  std::atomic<uint64_t> transfers_{0};
  std::atomic<uint64_t> bytesTransferred_{0};
  std::atomic<DeviceObserver *> observer_{nullptr};
};

// Checks a dispatch request against the kernel's contract: known kernel and
// element type, binding count, every binding live and non-null, every binding
// at least count * element size bytes. Shared by all drivers so they report
// problems the same way.
Status validateDispatch(BuiltinKernel kernel, ElementType elementType,
                        uint64_t count,
                        std::span<const std::shared_ptr<Buffer>> bindings);

} // namespace ferry::hal

#endif // FERRY_RUNTIME_HAL_DEVICE_H_
