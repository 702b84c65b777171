// Lowers the stream async phase to the cmd phase: every produced resource is
// allocated explicitly, work is ordered by timepoints, and each resource the
// program owns is deallocated right after its last use. See Passes.td.
//
// Assumes single-block functions. Ownership here is simple: resources the
// program allocates and does not return are its own to free; imports belong
// to the host and returned resources go to the host.

#include "compiler/Dialect/Stream/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

namespace ferry::stream {
#define GEN_PASS_DEF_SCHEDULEALLOCATIONPASS
#include "compiler/Dialect/Stream/Transforms/Passes.h.inc"
} // namespace ferry::stream

using namespace mlir;

namespace ferry::stream {
namespace {

class FunctionScheduler {
public:
  explicit FunctionScheduler(func::FuncOp func)
      : func(func), builder(func.getContext()) {}

  LogicalResult run() {
    if (!func.getBody().hasOneBlock())
      return func.emitError() << "function '" << func.getSymName()
                              << "' has several blocks; allocation scheduling "
                                 "supports straight-line functions only";
    Block &block = func.getBody().front();
    for (Operation &op : llvm::make_early_inc_range(block)) {
      builder.setInsertionPoint(&op);
      if (auto dispatch = dyn_cast<AsyncDispatchOp>(&op))
        scheduleDispatch(dispatch);
      else if (auto exportOp = dyn_cast<TensorExportOp>(&op))
        awaitExport(exportOp);
      else if (isa<func::ReturnOp>(&op))
        awaitOutstanding(op.getLoc());
    }
    return success();
  }

private:
  // The timepoint after which all of `timepoints` are reached; null when none.
  Value join(Location loc, ArrayRef<Value> timepoints) {
    llvm::SetVector<Value> unique;
    for (Value timepoint : timepoints)
      if (timepoint)
        unique.insert(timepoint);
    if (unique.empty())
      return {};
    if (unique.size() == 1)
      return unique.front();
    return TimepointJoinOp::create(builder, loc,
                                   TimepointType::get(func.getContext()),
                                   unique.getArrayRef());
  }

  // True when `op` is the last user of `value` in its block.
  static bool isLastUse(Value value, Operation *op) {
    for (Operation *user : value.getUsers())
      if (user != op && op->isBeforeInBlock(user))
        return false;
    return true;
  }

  static bool isOwned(Value resource) {
    return cast<ResourceType>(resource.getType()).getLifetime() ==
           Lifetime::Transient;
  }

  void deallocate(Location loc, Value resource, Value size, Value after) {
    auto dealloca = ResourceDeallocaOp::create(
        builder, loc, TimepointType::get(func.getContext()), after, resource,
        size);
    outstanding.push_back(dealloca.getResultTimepoint());
  }

  void scheduleDispatch(AsyncDispatchOp op) {
    Location loc = op.getLoc();
    auto resultType = cast<ResourceType>(op.getResult().getType());
    if (resultType.getLifetime() == Lifetime::Unknown)
      resultType = ResourceType::get(func.getContext(), Lifetime::Transient);

    auto alloca = ResourceAllocaOp::create(
        builder, loc, resultType, TimepointType::get(func.getContext()),
        /*await_timepoint=*/Value(), op.getResultSize());
    SmallVector<Value> waits = {alloca.getResultTimepoint()};
    for (Value operand : op.getResourceOperands())
      waits.push_back(readyAt.lookup(operand));
    Value await = join(loc, waits);

    SmallVector<Value> resources(op.getResourceOperands());
    SmallVector<Value> sizes(op.getResourceOperandSizes());
    resources.push_back(alloca.getResult());
    sizes.push_back(op.getResultSize());
    auto dispatch = CmdDispatchOp::create(
        builder, loc, TimepointType::get(func.getContext()), op.getKernelAttr(),
        op.getElementTypeAttr(), op.getCount(), await, resources, sizes);
    Value done = dispatch.getResultTimepoint();
    readyAt[alloca.getResult()] = done;

    // Free owned operands whose last use this was, after it completes.
    builder.setInsertionPointAfter(dispatch);
    llvm::SmallPtrSet<Value, 4> freed;
    for (auto [operand, size] : llvm::zip_equal(op.getResourceOperands(),
                                                op.getResourceOperandSizes()))
      if (isOwned(operand) && isLastUse(operand, op) &&
          freed.insert(operand).second)
        deallocate(loc, operand, size, done);
    // A result nobody reads is freed as soon as it is written.
    if (op.getResult().use_empty() && isOwned(alloca.getResult()))
      deallocate(loc, alloca.getResult(), op.getResultSize(), done);

    op.getResult().replaceAllUsesWith(alloca.getResult());
    op.erase();
  }

  // The host may only see a resource once the work producing it is done.
  void awaitExport(TensorExportOp op) {
    Value ready = readyAt.lookup(op.getSource());
    if (!ready)
      return;
    auto await = TimepointAwaitOp::create(builder, op.getLoc(), ready,
                                          ValueRange{op.getSource()},
                                          ValueRange{op.getSourceSize()});
    op.getSourceMutable().assign(await.getResult(0));
  }

  // Nothing stays in flight when control returns to the host.
  void awaitOutstanding(Location loc) {
    if (Value all = join(loc, outstanding))
      TimepointAwaitOp::create(builder, loc, all, ValueRange{}, ValueRange{});
  }

  func::FuncOp func;
  OpBuilder builder;
  // When each resource produced so far is ready; absent means now.
  llvm::DenseMap<Value, Value> readyAt;
  SmallVector<Value> outstanding;
};

struct ScheduleAllocationPass
    : impl::ScheduleAllocationPassBase<ScheduleAllocationPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isDeclaration() && failed(FunctionScheduler(func).run()))
        return signalPassFailure();
  }
};

} // namespace
} // namespace ferry::stream
