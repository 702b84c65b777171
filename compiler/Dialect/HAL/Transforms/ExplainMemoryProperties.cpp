// Remarks on every hal.allocator.resolve_memory_properties which sharing rule
// decides its bits, using the same plan as the resolution. See Passes.td.
#include "compiler/Dialect/HAL/Analysis/DeviceTopology.h"
#include "compiler/Dialect/HAL/Transforms/Passes.h"

#include "runtime/hal/buffer_bits.h"

namespace ferry::hal {
#define GEN_PASS_DEF_EXPLAINMEMORYPROPERTIESPASS
#include "compiler/Dialect/HAL/Transforms/Passes.h.inc"
} // namespace ferry::hal

using namespace mlir;

namespace ferry::hal {
namespace {

struct ExplainMemoryPropertiesPass
    : impl::ExplainMemoryPropertiesPassBase<ExplainMemoryPropertiesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<AllocationPlanner> planner =
        AllocationPlanner::build(module, leadAllocationDevice);
    if (failed(planner))
      return signalPassFailure();
    bool ok = true;
    module.walk([&](AllocatorResolveMemoryPropertiesOp op) {
      FailureOr<AllocationPlan> plan = planner->plan(op);
      if (failed(plan)) {
        ok = false;
        return;
      }
      InFlightDiagnostic remark = op.emitRemark();
      remark << "memory properties by rule '"
             << stringifySharingRule(plan->rule) << "': " << plan->reason;
      if (plan->allocationDevice)
        remark << "; allocated on @" << *plan->allocationDevice;
      if (plan->rule == SharingRule::Runtime)
        remark << "; at least \"" << formatMemoryType(plan->memoryTypes)
               << "\" / \"" << formatBufferUsage(plan->bufferUsage) << "\"";
      else
        remark << "; \"" << formatMemoryType(plan->memoryTypes) << "\" / \""
               << formatBufferUsage(plan->bufferUsage) << "\"";
    });
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
} // namespace ferry::hal
