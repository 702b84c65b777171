// Device: one execution target (a CPU, a GPU, ...) with its allocator and a
// queue of memory and compute operations ordered by fences.
//
// Drivers implement this narrow interface so that a new kind of device
// touches only its own folder (runtime/drivers/<name>/). Every queue
// operation takes an optional wait fence (null: no dependency) and a required
// signal fence. Contract for every driver:
//   - the operation runs only after `wait` is signaled;
//   - if `wait` failed, the operation does not run, `signal` fails with the
//     same status, and the call returns that status;
//   - if the operation itself is invalid or fails, `signal` fails with the
//     error and the call returns it;
//   - otherwise `signal` is signaled when the operation's effects are visible.
// A synchronous driver does all of this before returning; an asynchronous one
// may return OK early and resolve `signal` later.
//
// Statistics: the allocator counts memory; the device counts the operations
// it ran (copies, fills, dispatches), so tools report what really happened.
//
// Ownership/threads: held by std::shared_ptr; queue operations may be called
// from any thread; statistics are thread-safe.
#ifndef FERRY_RUNTIME_HAL_DEVICE_H_
#define FERRY_RUNTIME_HAL_DEVICE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "runtime/base/status.h"
#include "runtime/hal/allocator.h"
#include "runtime/hal/buffer.h"
#include "runtime/hal/element_type.h"
#include "runtime/hal/fence.h"
#include "runtime/vm/bytecode_format.h"

namespace ferry::hal {

// The kernel list is part of the bytecode contract; the HAL shares it rather
// than keeping a second copy.
using BuiltinKernel = vm::bytecode::BuiltinKernel;

// Validates a raw kernel value from an untrusted source.
std::optional<BuiltinKernel> builtinKernelFromValue(uint32_t value);
std::string_view builtinKernelName(BuiltinKernel kernel);
// Number of input bindings (the output binding follows them).
uint32_t builtinKernelInputCount(BuiltinKernel kernel);

// Flags of queueAlloca (values match the bytecode's flags:u32 operand).
enum QueueAllocaFlags : uint32_t {
  kQueueAllocaNone = 0,
  // The program cannot say when the buffer dies: explicit deallocas are
  // ignored and memory goes with the last reference. (ARCHITECTURE 1.2)
  kQueueAllocaIndeterminateLifetime = 1u << 0,
};
inline constexpr uint32_t kQueueAllocaKnownFlags =
    kQueueAllocaIndeterminateLifetime;

// Flags of queueDealloca.
enum QueueDeallocaFlags : uint32_t {
  kQueueDeallocaNone = 0,
  // Route the deallocation to the buffer's origin device and queue. With one
  // device per allocator this is where it goes anyway.
  kQueueDeallocaPreferOrigin = 1u << 0,
};
inline constexpr uint32_t kQueueDeallocaKnownFlags = kQueueDeallocaPreferOrigin;

struct DeviceStatistics {
  uint64_t copies = 0;
  uint64_t bytesCopied = 0;
  uint64_t fills = 0;
  uint64_t dispatches = 0;
};

class Device {
public:
  virtual ~Device() = default;
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  // The instance name (a module's device symbol, e.g. "device_a").
  const std::string &name() const { return name_; }
  // The driver that created it ("local-sync").
  virtual std::string_view driverName() const = 0;

  Allocator &allocator() const { return *allocator_; }
  const std::shared_ptr<Allocator> &sharedAllocator() const {
    return allocator_;
  }
  DeviceStatistics statistics() const;

  // Allocates `size` bytes once `wait` is reached; `flags` are
  // QueueAllocaFlags. The buffer may be used by work ordered after `signal`.
  virtual Result<std::shared_ptr<Buffer>>
  queueAlloca(const std::shared_ptr<Fence> &wait,
              const std::shared_ptr<Fence> &signal, uint32_t memoryType,
              uint32_t usage, uint64_t size, uint32_t flags) = 0;

  // Returns `buffer`'s memory to its allocator once `wait` is reached, even if
  // references remain (they become unusable). `flags` are
  // QueueDeallocaFlags. A second dealloca of one buffer is an error; a
  // dealloca of an indeterminate-lifetime buffer only orders the timeline.
  virtual Status queueDealloca(const std::shared_ptr<Fence> &wait,
                               const std::shared_ptr<Fence> &signal,
                               const std::shared_ptr<Buffer> &buffer,
                               uint32_t flags) = 0;

  // Runs a built-in elementwise kernel over `count` elements of
  // `elementType`: bindings are the inputs followed by the output, and
  // output[i] = in0[i] OP in1[i]. Integer arithmetic wraps.
  virtual Status
  queueDispatch(const std::shared_ptr<Fence> &wait,
                const std::shared_ptr<Fence> &signal, BuiltinKernel kernel,
                ElementType elementType, uint64_t count,
                std::span<const std::shared_ptr<Buffer>> bindings) = 0;

protected:
  Device(std::string name, std::shared_ptr<Allocator> allocator)
      : name_(std::move(name)), allocator_(std::move(allocator)) {}

  void recordDispatch() { dispatches_.fetch_add(1, std::memory_order_relaxed); }
  void recordFill() { fills_.fetch_add(1, std::memory_order_relaxed); }
  void recordCopy(uint64_t bytes) {
    copies_.fetch_add(1, std::memory_order_relaxed);
    bytesCopied_.fetch_add(bytes, std::memory_order_relaxed);
  }

private:
  std::string name_;
  std::shared_ptr<Allocator> allocator_;
  std::atomic<uint64_t> copies_{0};
  std::atomic<uint64_t> bytesCopied_{0};
  std::atomic<uint64_t> fills_{0};
  std::atomic<uint64_t> dispatches_{0};
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
