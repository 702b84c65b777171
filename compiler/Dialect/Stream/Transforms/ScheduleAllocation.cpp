// Lowers the stream async phase to the cmd phase: every new resource is
// allocated explicitly and work is ordered by timepoints. See Passes.td.
// Deallocation is decided afterwards by stream-automatic-reference-counting.
//
// Assumes single-block functions. Ops that write into an operand in place
// (tied results) continue that operand's storage: they wait for every earlier
// reader of it, and later uses of the result use the storage itself.
//
// A value copied whole into a resource by an update, and made after the last
// other use of that resource, is made in the resource itself: the op that made
// it (a dispatch, alloca, splat or copy) writes there, and the update copies
// nothing. So a result the host lent an argument's buffer for needs no
// allocation of its own.

#include "compiler/Dialect/Stream/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

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
    FailureOr<bool> hasWork =
        hasStraightLineStreamCode(func, "allocation scheduling");
    if (failed(hasWork) || !*hasWork)
      return hasWork;
    if (failed(checkNothingNested()))
      return failure();
    Block &block = func.getBody().front();
    for (auto update : block.getOps<AsyncUpdateOp>())
      if (Operation *producer = findEmplacedProducer(update))
        emplaced[producer] = update;
    for (Operation &op : llvm::make_early_inc_range(block)) {
      builder.setInsertionPoint(&op);
      if (failed(schedule(&op)))
        return failure();
    }
    return success();
  }

private:
  static bool isAsyncOp(Operation *op) {
    return isa<AsyncDispatchOp, AsyncDispatchEntryOp, AsyncAllocaOp,
               AsyncSplatOp, AsyncCloneOp, AsyncTransferOp, AsyncFillOp,
               AsyncUpdateOp, AsyncCallOp, AsyncConstantOp>(op);
  }

  // Only the function's own block is scheduled: an async op inside another
  // op's region (scf.if, scf.for) or a resource that an op of another
  // dialect makes (an scf.if choosing one) would be left behind with no
  // memory behind it. Refuse them, naming the op.
  LogicalResult checkNothingNested() {
    Block &block = func.getBody().front();
    WalkResult result = func.walk([&](Operation *op) {
      if (op == func)
        return WalkResult::advance();
      if (isAsyncOp(op) && op->getBlock() != &block) {
        op->emitError() << "'" << op->getName() << "' inside '"
                        << op->getParentOp()->getName()
                        << "': allocation scheduling handles async ops of "
                           "the function's own block only";
        return WalkResult::interrupt();
      }
      if (op->getBlock() == &block && !isa<StreamDialect>(op->getDialect()) &&
          llvm::any_of(op->getResultTypes(), llvm::IsaPred<ResourceType>)) {
        op->emitError() << "'" << op->getName()
                        << "' makes a resource: allocation scheduling "
                           "handles resources stream ops make only";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

  static bool sameIndex(Value a, Value b) {
    std::optional<int64_t> ca = getConstantIntValue(a);
    std::optional<int64_t> cb = getConstantIntValue(b);
    return a == b || (ca && cb && *ca == *cb);
  }

  // The op that made the value `update` copies, when that op can write into
  // the update's target instead: the update covers the whole target, the
  // value reaches it only through in-place writes nothing else sees, and
  // nothing uses the target from that op on but the update (the op itself
  // may read it: it then writes what it read).
  static Operation *findEmplacedProducer(AsyncUpdateOp update) {
    std::optional<int64_t> offset =
        getConstantIntValue(update.getTargetOffset());
    if (!offset || *offset != 0 ||
        !sameIndex(update.getUpdateSize(), update.getTargetSize()))
      return nullptr;
    Block *block = update->getBlock();
    Value value = update.getUpdate();
    Operation *producer = nullptr;
    while (true) {
      producer = value.getDefiningOp();
      if (!value.hasOneUse() || !producer || producer->getBlock() != block)
        return nullptr;
      auto tiedOp = dyn_cast<TiedOpInterface>(producer);
      OpOperand *tied =
          tiedOp ? tiedOp.getTiedOperand(cast<OpResult>(value)) : nullptr;
      if (!tied)
        break;
      value = tied->get();
    }
    Value size = TypeSwitch<Operation *, Value>(producer)
                     .Case<AsyncDispatchOp, AsyncDispatchEntryOp>(
                         [](auto op) { return op.getResultSize(); })
                     .Case<AsyncAllocaOp, AsyncSplatOp>(
                         [](auto op) { return op.getStorageSize(); })
                     .Case<AsyncCloneOp, AsyncTransferOp>(
                         [](auto op) { return op.getResultSize(); })
                     .Default([](Operation *) { return Value(); });
    if (!size || !sameIndex(size, update.getTargetSize()))
      return nullptr;
    Value target = update.getTarget();
    if (Operation *def = target.getDefiningOp();
        def ? def->getBlock() != block || !def->isBeforeInBlock(producer)
            : target.getParentBlock() != block)
      return nullptr;
    for (Operation *user : target.getUsers())
      if (user != update && user != producer &&
          (user->getBlock() != block || !user->isBeforeInBlock(producer)))
        return nullptr;
    return producer;
  }

  // Where `op` makes its result: the target of the update it is emplaced
  // into (after waiting for what writing there waits for), else null.
  Value emplacedTarget(Operation *op, SmallVectorImpl<Value> &waits) {
    auto it = emplaced.find(op);
    if (it == emplaced.end())
      return {};
    Value target = it->second.getTarget();
    appendWriteHazards(target, waits);
    return target;
  }

  LogicalResult schedule(Operation *op) {
    if (auto dispatch = dyn_cast<AsyncDispatchOp>(op))
      return scheduleDispatch(dispatch);
    if (auto dispatch = dyn_cast<AsyncDispatchEntryOp>(op))
      return scheduleDispatchEntry(dispatch);
    if (auto alloca = dyn_cast<AsyncAllocaOp>(op))
      return scheduleAlloca(alloca);
    if (auto splat = dyn_cast<AsyncSplatOp>(op))
      return scheduleSplat(splat);
    if (isa<AsyncCloneOp, AsyncTransferOp>(op))
      return scheduleCopy(op);
    if (auto fill = dyn_cast<AsyncFillOp>(op))
      return scheduleFill(fill);
    if (auto update = dyn_cast<AsyncUpdateOp>(op))
      return scheduleUpdate(update);
    if (auto call = dyn_cast<AsyncCallOp>(op))
      return scheduleCall(call);
    if (auto constant = dyn_cast<AsyncConstantOp>(op))
      return scheduleConstant(constant);
    if (auto exportOp = dyn_cast<TensorExportOp>(op))
      awaitOnHost(exportOp.getSourceMutable(), exportOp.getSourceSize());
    if (auto load = dyn_cast<ResourceLoadOp>(op))
      awaitOnHost(load.getSourceMutable(), load.getSourceSize());
    return success();
  }

  Type timepointType() { return TimepointType::get(func.getContext()); }

  Value join(Location loc, ArrayRef<Value> timepoints) {
    return joinTimepoints(builder, loc, timepoints);
  }

  // Undecided lifetimes become transient: the program's own.
  ResourceType decidedType(Type type) {
    auto resourceType = cast<ResourceType>(type);
    if (resourceType.getLifetime() != Lifetime::Unknown)
      return resourceType;
    return ResourceType::get(func.getContext(), Lifetime::Transient);
  }

  // What a read of `resources` must wait for: their producers.
  SmallVector<Value> readyTimepoints(ValueRange resources) {
    SmallVector<Value> waits;
    for (Value resource : resources)
      waits.push_back(readyAt.lookup(resource));
    return waits;
  }

  // What a write into `resource` must wait for: its producer and every read
  // of it since.
  void appendWriteHazards(Value resource, SmallVectorImpl<Value> &waits) {
    waits.push_back(readyAt.lookup(resource));
    llvm::append_range(waits, readers[resource]);
  }

  void recordReads(ValueRange resources, Value done) {
    for (Value resource : resources)
      readers[resource].push_back(done);
  }

  void recordWrite(Value resource, Value done) {
    readyAt[resource] = done;
    readers[resource].clear();
  }

  // A new resource for a result of `forOp`, placed on `forOp`'s device.
  std::pair<Value, Value> allocate(Operation *forOp, Type type, Value size) {
    auto alloca = ResourceAllocaOp::create(builder, forOp->getLoc(),
                                           decidedType(type), timepointType(),
                                           /*await_timepoint=*/Value(), size);
    setAffinity(alloca, getAffinity(forOp));
    return {alloca.getResult(), alloca.getResultTimepoint()};
  }

  LogicalResult scheduleDispatch(AsyncDispatchOp op) {
    Location loc = op.getLoc();
    SmallVector<Value> waits = readyTimepoints(op.getResourceOperands());
    Value output;
    if (OpOperand *tied = op.getTiedOperand(0u)) {
      output = tied->get();
      appendWriteHazards(output, waits);
    } else if (Value target = emplacedTarget(op, waits)) {
      output = target;
    } else {
      auto [resource, allocated] =
          allocate(op, op.getResult().getType(), op.getResultSize());
      output = resource;
      waits.push_back(allocated);
    }
    SmallVector<Value> resources(op.getResourceOperands());
    SmallVector<Value> sizes(op.getResourceOperandSizes());
    resources.push_back(output);
    sizes.push_back(op.getResultSize());
    auto dispatch =
        CmdDispatchOp::create(builder, loc, timepointType(), op.getKernelAttr(),
                              op.getElementTypeAttr(), op.getCount(),
                              join(loc, waits), resources, sizes);
    setAffinity(dispatch, getAffinity(op));
    Value done = dispatch.getResultTimepoint();
    recordReads(op.getResourceOperands(), done);
    recordWrite(output, done);
    return finish(op, {{op.getResult(), output}});
  }

  // The result is always the tied destination, written in place.
  LogicalResult scheduleDispatchEntry(AsyncDispatchEntryOp op) {
    Location loc = op.getLoc();
    SmallVector<Value> waits = readyTimepoints(op.getResourceOperands());
    OpOperand *tied = op.getTiedOperand(0u);
    Value output = tied->get();
    appendWriteHazards(output, waits);
    SmallVector<Value> inputs;
    for (OpOperand &operand : op.getResourceOperandsMutable())
      if (&operand != tied)
        inputs.push_back(operand.get());
    int64_t outputIndex = tied->getOperandNumber() -
                          op.getResourceOperands().getBeginOperandIndex();
    auto dispatch = CmdDispatchEntryOp::create(
        builder, loc, timepointType(), op.getEntryAttr(), op.getWorkgroups(),
        op.getPushConstants(), builder.getI64IntegerAttr(outputIndex),
        join(loc, waits), op.getResourceOperands(),
        op.getResourceOperandSizes());
    setAffinity(dispatch, getAffinity(op));
    Value done = dispatch.getResultTimepoint();
    recordReads(inputs, done);
    recordWrite(output, done);
    return finish(op, {{op.getResult(), output}});
  }

  LogicalResult scheduleAlloca(AsyncAllocaOp op) {
    // Undefined contents: the target's storage as it is will do. Whoever
    // writes it waits for the target's readers then.
    SmallVector<Value> unused;
    if (Value target = emplacedTarget(op, unused))
      return finish(op, {{op.getResult(), target}});
    auto [resource, allocated] =
        allocate(op, op.getResult().getType(), op.getStorageSize());
    recordWrite(resource, allocated);
    return finish(op, {{op.getResult(), resource}});
  }

  LogicalResult scheduleSplat(AsyncSplatOp op) {
    Location loc = op.getLoc();
    SmallVector<Value> waits;
    Value resource = emplacedTarget(op, waits);
    if (!resource) {
      auto [allocation, allocated] =
          allocate(op, op.getResult().getType(), op.getStorageSize());
      resource = allocation;
      waits.push_back(allocated);
    }
    auto fill =
        CmdFillOp::create(builder, loc, timepointType(), op.getValue(),
                          resource, op.getStorageSize(), join(loc, waits));
    setAffinity(fill, getAffinity(op));
    recordWrite(resource, fill.getResultTimepoint());
    return finish(op, {{op.getResult(), resource}});
  }

  // The module's read-only copy: nothing to allocate or wait for.
  LogicalResult scheduleConstant(AsyncConstantOp op) {
    auto constant = ResourceConstantOp::create(
        builder, op.getLoc(),
        ResourceType::get(func.getContext(), Lifetime::Constant), op.getValue(),
        op.getStorageSize());
    setAffinity(constant, getAffinity(op));
    return finish(op, {{op.getResult(), constant.getResult()}});
  }

  // Clones and transfers: a new allocation filled from the source.
  LogicalResult scheduleCopy(Operation *op) {
    Location loc = op->getLoc();
    Value source = op->getOperand(0), sourceSize = op->getOperand(1);
    Value resultSize = op->getOperand(2);
    SmallVector<Value> waits = readyTimepoints(source);
    Value resource = emplacedTarget(op, waits);
    // A copy of the target into itself: it holds the value already.
    if (resource && resource == source)
      return finish(op, {{op->getResult(0), resource}});
    if (!resource) {
      auto [allocation, allocated] =
          allocate(op, op->getResult(0).getType(), resultSize);
      resource = allocation;
      waits.push_back(allocated);
    }
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    auto copy = CmdCopyOp::create(builder, loc, timepointType(), source,
                                  sourceSize, zero, resource, resultSize, zero,
                                  resultSize, join(loc, waits));
    setAffinity(copy, getAffinity(op));
    Value done = copy.getResultTimepoint();
    recordReads(source, done);
    recordWrite(resource, done);
    return finish(op, {{op->getResult(0), resource}});
  }

  LogicalResult scheduleFill(AsyncFillOp op) {
    Location loc = op.getLoc();
    Value target = op.getTarget();
    SmallVector<Value> waits;
    appendWriteHazards(target, waits);
    auto fill = CmdFillOp::create(builder, loc, timepointType(), op.getValue(),
                                  target, op.getTargetSize(), join(loc, waits));
    setAffinity(fill, getAffinity(op));
    recordWrite(target, fill.getResultTimepoint());
    return finish(op, {{op.getResult(), target}});
  }

  LogicalResult scheduleUpdate(AsyncUpdateOp op) {
    Location loc = op.getLoc();
    Value target = op.getTarget(), update = op.getUpdate();
    // The value was made in the target already.
    if (update == target)
      return finish(op, {{op.getResult(), target}});
    SmallVector<Value> waits = readyTimepoints(update);
    appendWriteHazards(target, waits);
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    auto copy = CmdCopyOp::create(builder, loc, timepointType(), update,
                                  op.getUpdateSize(), zero, target,
                                  op.getTargetSize(), op.getTargetOffset(),
                                  op.getUpdateSize(), join(loc, waits));
    setAffinity(copy, getAffinity(op));
    Value done = copy.getResultTimepoint();
    recordReads(update, done);
    recordWrite(target, done);
    return finish(op, {{op.getResult(), target}});
  }

  LogicalResult scheduleCall(AsyncCallOp op) {
    Location loc = op.getLoc();
    SmallVector<Value> waits = readyTimepoints(op.getResourceOperands());
    SmallVector<Type> resultTypes;
    for (auto [i, result] : llvm::enumerate(op.getResults())) {
      if (OpOperand *tied = op.getTiedOperand(i))
        appendWriteHazards(tied->get(), waits);
      resultTypes.push_back(decidedType(result.getType()));
    }
    auto call = CmdCallOp::create(builder, loc, resultTypes, timepointType(),
                                  op.getCalleeAttr(), op.getResourceOperands(),
                                  op.getResourceOperandSizes(),
                                  op.getArgumentDims(), op.getResultSizes(),
                                  join(loc, waits), op.getTiedOperandsAttr());
    setAffinity(call, getAffinity(op));
    Value done = call.getResultTimepoint();
    recordReads(op.getResourceOperands(), done);
    SmallVector<std::pair<Value, Value>> replacements, results;
    for (auto [i, result, size] :
         llvm::enumerate(op.getResults(), op.getResultSizes())) {
      OpOperand *tied = op.getTiedOperand(i);
      Value storage = tied ? tied->get() : call.getResult(i);
      recordWrite(storage, done);
      replacements.push_back({result, storage});
      results.push_back({storage, size});
    }
    return finish(op, replacements);
  }

  // Later uses of `op`'s results use their storage; `op` goes.
  LogicalResult finish(Operation *op,
                       ArrayRef<std::pair<Value, Value>> replacements) {
    for (auto [from, to] : replacements)
      from.replaceAllUsesWith(to);
    op->erase();
    return success();
  }

  // The host may only see a resource (an export, a load) once the work
  // producing it is done; it waits for nothing else. A later write needs no
  // wait for it: the host is done when the next op is issued.
  void awaitOnHost(OpOperand &source, Value size) {
    Value ready = readyAt.lookup(source.get());
    if (!ready)
      return;
    auto await =
        TimepointAwaitOp::create(builder, source.getOwner()->getLoc(), ready,
                                 ValueRange{source.get()}, ValueRange{size});
    source.assign(await.getResult(0));
  }

  func::FuncOp func;
  OpBuilder builder;
  // Ops that make their result in the target of an update (see
  // findEmplacedProducer), and that update.
  llvm::DenseMap<Operation *, AsyncUpdateOp> emplaced;
  // When each resource's current contents are ready; absent means now.
  llvm::DenseMap<Value, Value> readyAt;
  // Reads of each resource since its last write, which a write must await.
  llvm::DenseMap<Value, SmallVector<Value>> readers;
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
