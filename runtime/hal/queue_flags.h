// Flags of the queue operations that allocate and free memory. Shared by the
// runtime (Device::queueAlloca / queueDealloca) and the compiler, which
// encodes them into the bytecode's flags:u32 operands. Plain C++.
#ifndef FERRY_RUNTIME_HAL_QUEUE_FLAGS_H_
#define FERRY_RUNTIME_HAL_QUEUE_FLAGS_H_

#include <cstdint>

namespace ferry::hal {

// Flags of queueAlloca (values match the bytecode's flags:u32 operand).
enum QueueAllocaFlags : uint32_t {
  kQueueAllocaNone = 0,
  // The program cannot say when the buffer dies: explicit deallocas only
  // order the timeline and memory goes with the last reference.
  // (ARCHITECTURE 1.2)
  kQueueAllocaIndeterminateLifetime = 1u << 0,
};
inline constexpr uint32_t kQueueAllocaKnownFlags =
    kQueueAllocaIndeterminateLifetime;

// Flags of queueDealloca.
enum QueueDeallocaFlags : uint32_t {
  kQueueDeallocaNone = 0,
  // Route the deallocation to the buffer's origin device and queue (each
  // local device has one queue); without an origin it is a barrier on the
  // device it was issued to.
  kQueueDeallocaPreferOrigin = 1u << 0,
};
inline constexpr uint32_t kQueueDeallocaKnownFlags = kQueueDeallocaPreferOrigin;

} // namespace ferry::hal

#endif // FERRY_RUNTIME_HAL_QUEUE_FLAGS_H_
