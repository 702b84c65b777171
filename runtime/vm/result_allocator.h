// ResultAllocator: the CallContext of one external call, which allocates the
// call's new results (bytecode::kImportResultAllocation) as the program
// asked: on the device, with the memory types and buffer usage the compiler
// resolved for each result, in the shape the function decides.
//
// Each allocation is a queue alloca, in queue order after the program's
// earlier work on that device, so the program frees it with an ordinary
// dealloca at its last use and the allocator's statistics see it where the
// compiler's liveness walk does. The callee may touch a result once its wait
// fence resolves: the VM hands it a wait fence that also waits for every
// allocation (calleeWait). A result in memory the host cannot see is staged
// like an argument (import_staging.h): the callee gets a host-visible view,
// copied into the real one after the callee signals.
//
// Ownership/threads: a value of the one VM frame making the call;
// allocateResult runs on that frame's thread, during the call.
#ifndef FERRY_RUNTIME_VM_RESULT_ALLOCATOR_H_
#define FERRY_RUNTIME_VM_RESULT_ALLOCATOR_H_

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/hal/buffer.h"
#include "runtime/hal/device.h"
#include "runtime/hal/fence.h"
#include "runtime/vm/import_staging.h"
#include "runtime/vm/native_module.h"

namespace ferry::vm {

class ResultAllocator final : public CallContext {
public:
  // One request per result; a null device marks a result the program does
  // not let the callee allocate (a tied one).
  struct Request {
    std::shared_ptr<hal::Device> device;
    uint32_t memoryType = 0;
    uint32_t usage = 0;
  };

  ResultAllocator() = default;
  ResultAllocator(std::vector<Request> requests, ImportStaging *staging)
      : requests_(std::move(requests)), allocated_(requests_.size()),
        staging_(staging) {}

  Result<std::shared_ptr<hal::BufferView>>
  allocateResult(size_t index, std::span<const int64_t> shape,
                 hal::ElementType elementType) override;

  // Adds a fence the callee's wait fence waits for (the program's).
  void addWait(std::shared_ptr<hal::Fence> wait) {
    allocations_.push_back(std::move(wait));
  }
  // The fences the callee's wait fence joins: the program's wait fence and
  // every allocation made.
  const std::vector<std::shared_ptr<hal::Fence>> &allocated() const {
    return allocations_;
  }

  // Checks the callee's `results` (refs) once it returned: each result with
  // a request must be the view allocateResult gave for it (the staging view
  // if staged). Errors name the result; the caller adds the function.
  Status checkResults(std::span<const Value> results) const;

private:
  std::vector<Request> requests_;
  // The view handed to the callee for each result (null until allocated).
  std::vector<std::shared_ptr<hal::BufferView>> allocated_;
  std::vector<std::shared_ptr<hal::Fence>> allocations_;
  ImportStaging *staging_ = nullptr;
};

} // namespace ferry::vm

#endif // FERRY_RUNTIME_VM_RESULT_ALLOCATOR_H_
