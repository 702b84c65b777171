// Lowers the stream async phase to the cmd phase: every new resource is
// allocated explicitly and work is ordered by timepoints. See Passes.td.
// Deallocation is decided afterwards by stream-automatic-reference-counting.
//
// Assumes single-block functions, whose structured control flow (scf.for,
// scf.while, and the branch region ops: scf.if, scf.index_switch,
// scf.execute_region) is scheduled body by body. Ops that
// write into an operand in place (tied results) continue that operand's
// storage: they wait for every earlier reader of it, and later uses of the
// result use the storage itself.
//
// A value copied whole into a resource by an update, and made after the last
// other use of that resource, is made in the resource itself: the op that made
// it (a dispatch, alloca, splat or copy) writes there, and the update copies
// nothing. So a result the host lent an argument's buffer for needs no
// allocation of its own.
//
// Region ops: timepoints cannot cross a region boundary unless carried, so
// each resource a region op carries (iter_arg, while argument, yield, result)
// gets one timepoint in the same op, appended after all other values in the
// order of the resources, at which it is ready for any access (its last
// write and every read since, joined); a last timepoint says everything the
// region issued is done (for loops carried too, joined every iteration,
// starting at stream.timepoint.immediate). The next iteration so waits only
// for what it reads or writes. Outer resources used inside wait on their
// outer timepoints; after the op its last timepoint counts as a reader of
// each (and, where the region wrote one in place, as its producer too).

#include "compiler/Dialect/Stream/Analysis/ResourceUsage.h"
#include "compiler/Dialect/Stream/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"
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
    if (failed(checkStructure()))
      return failure();
    func.walk([&](AsyncUpdateOp update) {
      if (Operation *producer = findEmplacedProducer(update)) {
        emplaced[producer] = &update.getTargetMutable();
        keepSlicesApart(update.getTarget(), producer, nullptr);
      } else {
        emplacePartially(update);
      }
    });
    func.walk([&](AsyncSliceOp slice) {
      if (!copiedSlices.contains(slice) && isViewable(slice))
        views.insert(slice);
    });
    if (failed(scheduleBlock(func.getBody().front())))
      return failure();
    // A view's readers now read its source: the slice itself goes.
    SmallVector<AsyncSliceOp> viewOps(views.begin(), views.end());
    for (AsyncSliceOp slice : llvm::reverse(viewOps))
      slice->erase();
    if (failed(decideCarriedLifetimes()))
      return failure();
    forwardUnchangedBranchResults();
    return success();
  }

  // A branch region op each of whose branches writes an outer resource in
  // place (or leaves it) now yields that resource itself from every branch:
  // its result is the resource, ready at the result's timepoint, which its
  // users already wait for. They read the resource directly, so reference
  // counting sees one value rather than a position lent it (a lifted loop
  // whose body branches, each updating the accumulator in place, would
  // otherwise pass on what it lent as indeterminate). Inner ops first, so
  // an outer op yielding an inner one's result sees the resource.
  void forwardUnchangedBranchResults() {
    func.walk([](Operation *op) {
      if (!isa<scf::IfOp, scf::IndexSwitchOp>(op))
        return;
      for (OpResult result : op->getResults()) {
        if (!isa<ResourceType>(result.getType()))
          continue;
        Value same;
        bool forwards = true;
        for (Region &region : op->getRegions()) {
          if (region.empty()) {
            forwards = false;
            break;
          }
          Value yielded = region.front().getTerminator()->getOperand(
              result.getResultNumber());
          forwards &= !same || yielded == same;
          same = yielded;
        }
        if (forwards && same &&
            !op->isAncestor(same.getParentRegion()->getParentOp()))
          result.replaceAllUsesWith(same);
      }
    });
  }

private:
  // The structured control flow the pass schedules through.
  static bool isRegionOp(Operation *op) { return isStructuredRegionOp(op); }

  static bool isResource(Value value) {
    return isa<ResourceType>(value.getType());
  }

  // Whether `op`, an op with regions, has anything to do with resources:
  // stream ops inside, or resources it carries.
  static bool involvesStream(Operation *op) {
    return containsStreamOps(op) ||
           llvm::any_of(op->getOperands(), isResource) ||
           llvm::any_of(op->getResults(), isResource);
  }

  // Stream code may sit in the function's block and, through the region
  // ops above, in their single-block bodies. Anything else (another op
  // with regions holding stream code, a body of several blocks, a resource
  // an op of another dialect makes) would be left behind with no memory
  // behind it: refuse it, naming the op.
  LogicalResult checkStructure() {
    WalkResult result = func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == func)
        return WalkResult::advance();
      if (op->getNumRegions() != 0 && !isa<StreamDialect>(op->getDialect())) {
        if (!involvesStream(op))
          return WalkResult::skip();
        if (!isRegionOp(op)) {
          op->emitError() << "'" << op->getName()
                          << "' holds stream code: allocation scheduling "
                             "handles scf.for, scf.while and ops whose "
                             "regions run at most once without arguments "
                             "(scf.if, scf.index_switch, scf.execute_region) "
                             "only";
          return WalkResult::interrupt();
        }
        for (Region &region : op->getRegions())
          if (!region.empty() && !region.hasOneBlock()) {
            op->emitError() << "'" << op->getName()
                            << "' has a region of several blocks: "
                               "allocation scheduling handles single-block "
                               "regions only";
            return WalkResult::interrupt();
          }
        return WalkResult::advance();
      }
      if (!isa<StreamDialect>(op->getDialect()) &&
          !op->hasTrait<OpTrait::IsTerminator>() &&
          llvm::any_of(op->getResults(), isResource)) {
        op->emitError() << "'" << op->getName()
                        << "' makes a resource: allocation scheduling "
                           "handles resources stream ops make only";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

  LogicalResult scheduleBlock(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      builder.setInsertionPoint(&op);
      if (failed(schedule(&op)))
        return failure();
    }
    return success();
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

  // The ops that make the value `update` copies into part of its target
  // (an insert_slice tile), when they can all write there at the update's
  // offset instead: an alloca, splat or copy that starts the value, then
  // only fills and native dispatches writing it in place (each can write a
  // byte range), each value used once, and nothing using the target from
  // the first of them on but the update. The target may be the result of
  // updates of other tiles made after this one (tiles made first, inserted
  // after): the storage is the same, and a range provably disjoint from
  // theirs may be written before them. The ops are recorded in `ranges`
  // and the first in `emplaced`.
  void emplacePartially(AsyncUpdateOp update) {
    Block *block = update->getBlock();
    Value value = update.getUpdate();
    SmallVector<Operation *> chain;
    Operation *producer = nullptr;
    while (true) {
      producer = value.getDefiningOp();
      if (!value.hasOneUse() || !producer || producer->getBlock() != block)
        return;
      chain.push_back(producer);
      if (auto fill = dyn_cast<AsyncFillOp>(producer)) {
        value = fill.getTarget();
        continue;
      }
      if (auto entry = dyn_cast<AsyncDispatchEntryOp>(producer)) {
        value = entry.getTiedOperand(0u)->get();
        continue;
      }
      break;
    }
    Value size = TypeSwitch<Operation *, Value>(producer)
                     .Case<AsyncAllocaOp, AsyncSplatOp>(
                         [](auto op) { return op.getStorageSize(); })
                     .Case<AsyncCloneOp, AsyncTransferOp>(
                         [](auto op) { return op.getResultSize(); })
                     .Default([](Operation *) { return Value(); });
    if (!size || !sameIndex(size, update.getUpdateSize()))
      return;
    OpOperand *targetOperand = &update.getTargetMutable();
    while (auto earlier = targetOperand->get().getDefiningOp<AsyncUpdateOp>()) {
      if (earlier->getBlock() != block || earlier->isBeforeInBlock(producer))
        break;
      if (!targetOperand->get().hasOneUse() || !areDisjoint(earlier, update))
        return;
      targetOperand = &earlier.getTargetMutable();
    }
    Value target = targetOperand->get();
    if (Operation *def = target.getDefiningOp();
        def ? def->getBlock() != block || !def->isBeforeInBlock(producer)
            : target.getParentBlock() != block)
      return;
    for (Operation *user : target.getUsers())
      if (user != targetOperand->getOwner() &&
          (user->getBlock() != block || !user->isBeforeInBlock(producer)))
        return;
    // The producer writes at the update's offset: it and the sizes must be
    // known there (an offset computed just before the insert is moved up).
    Value range[] = {update.getTargetOffset(), update.getTargetSize(),
                     update.getUpdateSize()};
    if (!llvm::all_of(range,
                      [&](Value v) { return canHoistBefore(v, producer); }))
      return;
    // A check between the producer and the update (the import's of a
    // result's dims against the argument it is written into) runs before
    // the producer writes the target, so a mismatch fails there, naming
    // what differs, not at the binding's range check.
    SmallVector<cf::AssertOp> checks;
    for (Operation *op = producer->getNextNode(); op && op != update;
         op = op->getNextNode()) {
      auto check = dyn_cast<cf::AssertOp>(op);
      if (!check)
        continue;
      if (!canHoistBefore(check.getArg(), producer))
        return;
      checks.push_back(check);
    }
    for (Value value : range)
      hoistBefore(value, producer);
    for (cf::AssertOp check : checks) {
      hoistBefore(check.getArg(), producer);
      check->moveBefore(producer);
    }
    emplaced[producer] = targetOperand;
    keepSlicesApart(target, producer, update);
    for (Operation *op : chain)
      ranges[op] = update;
  }

  // Where a read of `value` (of `size` bytes) reads: a resource of
  // `resourceSize` bytes and, for a view, the byte range in it (offset
  // null: the whole resource).
  struct ByteRange {
    Value resource, resourceSize, offset, length;
  };

  // The part of its emplaced target `op` writes (see emplacePartially),
  // with `target` the target's storage; offset null when it writes a whole
  // resource.
  ByteRange writtenRange(Operation *op, Value target, Value size) {
    auto it = ranges.find(op);
    if (it == ranges.end())
      return {target, size, Value(), size};
    AsyncUpdateOp update = it->second;
    return {target, update.getTargetSize(), update.getTargetOffset(),
            update.getUpdateSize()};
  }

  // Whether `value`, used in `point`'s block after `point`, is available at
  // `point` or made by side-effect-free ops of that block whose operands
  // are (which hoistBefore then moves there). A value from outside the
  // block dominates all of it.
  static bool canHoistBefore(Value value, Operation *point,
                             unsigned depth = 0) {
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != point->getBlock() ||
        def->isBeforeInBlock(point))
      return true;
    if (depth > 8 || def == point || !isPure(def) || def->getNumRegions() != 0)
      return false;
    return llvm::all_of(def->getOperands(), [&](Value operand) {
      return canHoistBefore(operand, point, depth + 1);
    });
  }
  static void hoistBefore(Value value, Operation *point) {
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != point->getBlock() ||
        def->isBeforeInBlock(point))
      return;
    for (Value operand : def->getOperands())
      hoistBefore(operand, point);
    def->moveBefore(point);
  }

  // `value` as a sum of values times constants plus a constant, looking
  // through index additions, subtractions and multiplications by constants
  // (what the import makes of slice offsets), or nullopt.
  using LinearForm = std::pair<llvm::SmallDenseMap<Value, int64_t, 4>, int64_t>;
  static std::optional<LinearForm> linearForm(Value value, unsigned depth = 0) {
    if (auto sizeOf = value.getDefiningOp<TensorSizeOfOp>())
      if (std::optional<int64_t> size = sizeOf.getStaticSize())
        return LinearForm{{}, *size};
    if (std::optional<int64_t> constant = getConstantIntValue(value))
      return LinearForm{{}, *constant};
    Operation *def = value.getDefiningOp();
    if (depth < 8 && isa_and_nonnull<arith::AddIOp, arith::SubIOp>(def)) {
      std::optional<LinearForm> lhs = linearForm(def->getOperand(0), depth + 1);
      std::optional<LinearForm> rhs = linearForm(def->getOperand(1), depth + 1);
      if (!lhs || !rhs)
        return std::nullopt;
      int64_t sign = isa<arith::SubIOp>(def) ? -1 : 1;
      for (auto [term, coefficient] : rhs->first)
        lhs->first[term] += sign * coefficient;
      lhs->second += sign * rhs->second;
      return lhs;
    }
    if (depth < 8 && isa_and_nonnull<arith::MulIOp>(def)) {
      for (int side = 0; side < 2; ++side) {
        std::optional<int64_t> factor =
            getConstantIntValue(def->getOperand(1 - side));
        if (!factor)
          continue;
        std::optional<LinearForm> form =
            linearForm(def->getOperand(side), depth + 1);
        if (!form)
          return std::nullopt;
        for (auto &entry : form->first)
          entry.second *= *factor;
        form->second *= *factor;
        return form;
      }
    }
    return LinearForm{{{value, 1}}, 0};
  }

  // Whether byte ranges [offsetA, +sizeA) and [offsetB, +sizeB) are
  // disjoint: sizes constant, offsets differing by a constant.
  static bool areDisjoint(Value offsetA, Value sizeA, Value offsetB,
                          Value sizeB) {
    std::optional<LinearForm> a = linearForm(offsetA), b = linearForm(offsetB);
    std::optional<LinearForm> la = linearForm(sizeA), lb = linearForm(sizeB);
    if (!a || !b || !la || !lb || !la->first.empty() || !lb->first.empty())
      return false;
    for (auto [term, coefficient] : b->first)
      a->first[term] -= coefficient;
    if (llvm::any_of(a->first, [](auto &entry) { return entry.second != 0; }))
      return false;
    // offsetA - offsetB is the constant a->second - b->second: A ends
    // before B starts, or B before A.
    int64_t difference = a->second - b->second;
    return -difference >= la->second || difference >= lb->second;
  }
  static bool areDisjoint(AsyncUpdateOp a, AsyncUpdateOp b) {
    return areDisjoint(a.getTargetOffset(), a.getUpdateSize(),
                       b.getTargetOffset(), b.getUpdateSize());
  }

  // `producer` now writes into `target`'s storage (all of it, or the range
  // `update` copies into): a slice of `target` made before it but read from
  // it on (directly or through slices of it) would see that write as a
  // view, so it stays a copy (made where the slice is), unless its range
  // is provably apart from the written one.
  void keepSlicesApart(Value target, Operation *producer,
                       AsyncUpdateOp update) {
    Block *block = producer->getBlock();
    std::function<bool(Value)> readLater = [&](Value value) {
      for (Operation *user : value.getUsers()) {
        Operation *at = block->findAncestorOpInBlock(*user);
        if (!at || !at->isBeforeInBlock(producer))
          return true;
        if (auto inner = dyn_cast<AsyncSliceOp>(user))
          if (readLater(inner.getResult()))
            return true;
      }
      return false;
    };
    for (Operation *user : target.getUsers()) {
      auto slice = dyn_cast<AsyncSliceOp>(user);
      if (!slice || !readLater(slice.getResult()))
        continue;
      if (update &&
          areDisjoint(slice.getSourceOffset(), slice.getResultSize(),
                      update.getTargetOffset(), update.getUpdateSize()))
        continue;
      copiedSlices.insert(slice);
    }
  }

  // Whether `slice` can be a view of its source: every reader reads at an
  // offset (a native dispatch's input, an update's or copy's source, a
  // host load, another slice), in its block or in a region of an op there
  // (a loop reading the slice each iteration reads its source's range),
  // and no op writes the source in place, or passes it on to a region or
  // out of one, before the last of them (an op holding a reader counts as
  // that reader; copy-on-write saw the slice as a value of its own, so it
  // never ordered such a write after them).
  static bool isViewable(AsyncSliceOp slice) {
    Block *block = slice->getBlock();
    Operation *lastReader = slice;
    for (OpOperand &use : slice.getResult().getUses()) {
      Operation *user = block->findAncestorOpInBlock(*use.getOwner());
      if (!user)
        return false;
      bool reads = TypeSwitch<Operation *, bool>(use.getOwner())
                       .Case([&](AsyncDispatchEntryOp op) -> bool {
                         return !cast<TiedOpInterface>(op.getOperation())
                                     .isOperandTied(use);
                       })
                       .Case([&](AsyncUpdateOp op) -> bool {
                         return &use == &op.getUpdateMutable();
                       })
                       .Case<AsyncCloneOp, AsyncTransferOp, ResourceLoadOp,
                             AsyncSliceOp>([](auto) { return true; })
                       .Default([](Operation *) { return false; });
      if (!reads)
        return false;
      if (lastReader->isBeforeInBlock(user))
        lastReader = user;
    }
    // Writers: tied uses, and uses that pass the storage on under another
    // value (a region op's init, a yield), which may be written in place.
    for (OpOperand &use : slice.getSource().getUses()) {
      Operation *owner = use.getOwner();
      auto tiedOp = dyn_cast<TiedOpInterface>(owner);
      bool passedOn =
          isRegionOp(owner) || owner->hasTrait<OpTrait::IsTerminator>();
      if (!passedOn && (!tiedOp || !tiedOp.isOperandTied(use)))
        continue;
      Operation *writer = block->findAncestorOpInBlock(*owner);
      if (!writer || !lastReader->isBeforeInBlock(writer))
        return false;
    }
    return true;
  }

  ByteRange resolve(Location loc, Value value, Value size) {
    auto slice = value.getDefiningOp<AsyncSliceOp>();
    if (!slice || !views.contains(slice))
      return {value, size, Value(), size};
    ByteRange source = resolve(loc, slice.getSource(), slice.getSourceSize());
    Value offset = slice.getSourceOffset();
    if (source.offset)
      offset = arith::AddIOp::create(builder, loc, source.offset, offset);
    return {source.resource, source.resourceSize, offset,
            slice.getResultSize()};
  }
  Value offsetOrZero(Location loc, const ByteRange &range) {
    return range.offset ? range.offset
                        : arith::ConstantIndexOp::create(builder, loc, 0);
  }

  // Where `op` makes its result: the target of the update it is emplaced
  // into (after waiting for what writing there waits for), else null.
  Value emplacedTarget(Operation *op, SmallVectorImpl<Value> &waits) {
    auto it = emplaced.find(op);
    if (it == emplaced.end())
      return {};
    Value target = it->second->get();
    appendWriteHazards(target, waits);
    return target;
  }

  LogicalResult schedule(Operation *op) {
    if (op->getNumRegions() != 0 && isRegionOp(op) && involvesStream(op))
      return scheduleRegionOp(op);
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
    if (auto slice = dyn_cast<AsyncSliceOp>(op))
      return scheduleSlice(slice);
    if (auto call = dyn_cast<AsyncCallOp>(op))
      return scheduleCall(call);
    if (auto constant = dyn_cast<AsyncConstantOp>(op))
      return scheduleConstant(constant);
    if (auto exportOp = dyn_cast<TensorExportOp>(op))
      awaitOnHost(exportOp.getSourceMutable(), exportOp.getSourceSize());
    if (auto load = dyn_cast<ResourceLoadOp>(op)) {
      ByteRange range =
          resolve(load.getLoc(), load.getSource(), load.getSourceSize());
      if (range.offset) {
        load.getSourceMutable().assign(range.resource);
        load.getSourceSizeMutable().assign(range.resourceSize);
        load.getSourceOffsetMutable().assign(arith::AddIOp::create(
            builder, load.getLoc(), range.offset, load.getSourceOffset()));
      }
      awaitOnHost(load.getSourceMutable(), load.getSourceSize());
    }
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
    for (llvm::DenseSet<Value> &written : writtenInRegions)
      written.insert(resource);
  }

  // Work issued inside the region bodies being scheduled: what their
  // "everything done" timepoint joins.
  void issue(Value timepoint) {
    if (!issuedInRegions.empty())
      issuedInRegions.back().push_back(timepoint);
  }

  // A new resource for a result of `forOp`, placed on `forOp`'s device.
  std::pair<Value, Value> allocate(Operation *forOp, Type type, Value size) {
    auto alloca = ResourceAllocaOp::create(builder, forOp->getLoc(),
                                           decidedType(type), timepointType(),
                                           /*await_timepoint=*/Value(), size);
    setAffinity(alloca, getAffinity(forOp));
    issue(alloca.getResultTimepoint());
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
    issue(done);
    recordReads(op.getResourceOperands(), done);
    recordWrite(output, done);
    return finish(op, {{op.getResult(), output}});
  }

  // The result is always the tied destination, written in place.
  // Inputs that are views and an output emplaced in part of a larger
  // resource are bindings with byte ranges.
  LogicalResult scheduleDispatchEntry(AsyncDispatchEntryOp op) {
    Location loc = op.getLoc();
    OpOperand *tied = op.getTiedOperand(0u);
    Value output = tied->get();
    SmallVector<Value> inputs, resources, sizes, offsets, lengths;
    bool ranged = false;
    for (auto [operand, size] : llvm::zip_equal(op.getResourceOperandsMutable(),
                                                op.getResourceOperandSizes())) {
      ByteRange range = &operand == tied ? writtenRange(op, output, size)
                                         : resolve(loc, operand.get(), size);
      if (&operand != tied)
        inputs.push_back(range.resource);
      ranged |= range.offset != nullptr;
      resources.push_back(range.resource);
      sizes.push_back(range.resourceSize);
      offsets.push_back(offsetOrZero(loc, range));
      lengths.push_back(range.length);
    }
    SmallVector<Value> waits = readyTimepoints(inputs);
    appendWriteHazards(output, waits);
    if (!ranged) {
      offsets.clear();
      lengths.clear();
    }
    int64_t outputIndex = tied->getOperandNumber() -
                          op.getResourceOperands().getBeginOperandIndex();
    auto dispatch = CmdDispatchEntryOp::create(
        builder, loc, timepointType(), op.getEntryAttr(), op.getWorkgroups(),
        op.getPushConstants(), builder.getI64IntegerAttr(outputIndex),
        join(loc, waits), resources, sizes, offsets, lengths);
    setAffinity(dispatch, getAffinity(op));
    Value done = dispatch.getResultTimepoint();
    issue(done);
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
    ByteRange range = writtenRange(op, resource, op.getStorageSize());
    auto fill = CmdFillOp::create(builder, loc, timepointType(), op.getValue(),
                                  resource, range.resourceSize, range.offset,
                                  range.offset ? range.length : Value(),
                                  join(loc, waits));
    setAffinity(fill, getAffinity(op));
    issue(fill.getResultTimepoint());
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
    Value resultSize = op->getOperand(2);
    ByteRange source = resolve(loc, op->getOperand(0), op->getOperand(1));
    SmallVector<Value> waits = readyTimepoints(source.resource);
    Value resource = emplacedTarget(op, waits);
    // A copy of the target into itself: it holds the value already.
    if (resource && resource == source.resource && !source.offset &&
        !ranges.contains(op))
      return finish(op, {{op->getResult(0), resource}});
    if (!resource) {
      auto [allocation, allocated] =
          allocate(op, op->getResult(0).getType(), resultSize);
      resource = allocation;
      waits.push_back(allocated);
    }
    ByteRange target = writtenRange(op, resource, resultSize);
    auto copy = CmdCopyOp::create(
        builder, loc, timepointType(), source.resource, source.resourceSize,
        offsetOrZero(loc, source), resource, target.resourceSize,
        offsetOrZero(loc, target), resultSize, join(loc, waits));
    setAffinity(copy, getAffinity(op));
    Value done = copy.getResultTimepoint();
    issue(done);
    recordReads(source.resource, done);
    recordWrite(resource, done);
    return finish(op, {{op->getResult(0), resource}});
  }

  LogicalResult scheduleFill(AsyncFillOp op) {
    Location loc = op.getLoc();
    Value target = op.getTarget();
    SmallVector<Value> waits;
    appendWriteHazards(target, waits);
    ByteRange range = writtenRange(op, target, op.getTargetSize());
    auto fill = CmdFillOp::create(builder, loc, timepointType(), op.getValue(),
                                  target, range.resourceSize, range.offset,
                                  range.offset ? range.length : Value(),
                                  join(loc, waits));
    setAffinity(fill, getAffinity(op));
    issue(fill.getResultTimepoint());
    recordWrite(target, fill.getResultTimepoint());
    return finish(op, {{op.getResult(), target}});
  }

  LogicalResult scheduleUpdate(AsyncUpdateOp op) {
    Location loc = op.getLoc();
    Value target = op.getTarget(), update = op.getUpdate();
    // The value was made in the target already.
    if (update == target)
      return finish(op, {{op.getResult(), target}});
    ByteRange source = resolve(loc, update, op.getUpdateSize());
    SmallVector<Value> waits = readyTimepoints(source.resource);
    appendWriteHazards(target, waits);
    auto copy = CmdCopyOp::create(
        builder, loc, timepointType(), source.resource, source.resourceSize,
        offsetOrZero(loc, source), target, op.getTargetSize(),
        op.getTargetOffset(), op.getUpdateSize(), join(loc, waits));
    setAffinity(copy, getAffinity(op));
    Value done = copy.getResultTimepoint();
    issue(done);
    recordReads(source.resource, done);
    recordWrite(target, done);
    return finish(op, {{op.getResult(), target}});
  }

  // A view is left for its readers (see isViewable); any other slice is a
  // copy of its byte range into a new allocation.
  LogicalResult scheduleSlice(AsyncSliceOp op) {
    if (views.contains(op))
      return success();
    Location loc = op.getLoc();
    ByteRange source = resolve(loc, op.getSource(), op.getSourceSize());
    Value offset = op.getSourceOffset();
    if (source.offset)
      offset = arith::AddIOp::create(builder, loc, source.offset, offset);
    SmallVector<Value> waits = readyTimepoints(source.resource);
    auto [resource, allocated] =
        allocate(op, op.getResult().getType(), op.getResultSize());
    waits.push_back(allocated);
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    auto copy = CmdCopyOp::create(builder, loc, timepointType(),
                                  source.resource, source.resourceSize, offset,
                                  resource, op.getResultSize(), zero,
                                  op.getResultSize(), join(loc, waits));
    setAffinity(copy, getAffinity(op));
    Value done = copy.getResultTimepoint();
    issue(done);
    recordReads(source.resource, done);
    recordWrite(resource, done);
    return finish(op, {{op.getResult(), resource}});
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
    issue(done);
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

  Value immediate(Location loc) {
    return TimepointImmediateOp::create(builder, loc, timepointType());
  }

  // When `resource` is ready for any access: its producer and every read of
  // it since, joined (already reached if nothing is pending).
  Value readyForAnyAccess(Location loc, Value resource) {
    SmallVector<Value> waits;
    appendWriteHazards(resource, waits);
    Value ready = join(loc, waits);
    return ready ? ready : immediate(loc);
  }

  // New block arguments of `block`: a timepoint per resource argument, then
  // the "everything done" one. Returns the resource arguments and their
  // timepoints; `all` is set to the last.
  void addTimepointArguments(Block &block, SmallVectorImpl<Value> &resources,
                             SmallVectorImpl<Value> &timepoints, Value &all) {
    for (BlockArgument arg : block.getArguments())
      if (isResource(arg))
        resources.push_back(arg);
    for (Value resource : resources)
      timepoints.push_back(
          block.addArgument(timepointType(), resource.getLoc()));
    all = block.addArgument(timepointType(), block.getParentOp()->getLoc());
  }

  // Schedules a body whose resource arguments `resources` are ready at
  // `timepoints`, then appends to its terminator a timepoint per resource it
  // passes on (from operand `firstForwarded` on) and the "everything done"
  // one: `allIn` (what earlier iterations did) joined with all the body
  // issued. Timepoints of the body do not outlive it.
  LogicalResult scheduleBody(Block &block, ArrayRef<Value> resources,
                             ArrayRef<Value> timepoints, Value allIn,
                             unsigned firstForwarded) {
    auto savedReadyAt = readyAt;
    auto savedReaders = readers;
    for (auto [resource, timepoint] : llvm::zip_equal(resources, timepoints)) {
      readyAt[resource] = timepoint;
      readers[resource].clear();
    }
    issuedInRegions.emplace_back();
    LogicalResult result = scheduleBlock(block);
    if (succeeded(result)) {
      Operation *terminator = block.getTerminator();
      Location loc = terminator->getLoc();
      builder.setInsertionPoint(terminator);
      SmallVector<Value> extra;
      for (Value value : terminator->getOperands().drop_front(firstForwarded))
        if (isResource(value))
          extra.push_back(readyForAnyAccess(loc, value));
      SmallVector<Value> all;
      if (allIn)
        all.push_back(allIn);
      llvm::append_range(all, issuedInRegions.back());
      Value done = join(loc, all);
      extra.push_back(done ? done : immediate(loc));
      terminator->insertOperands(terminator->getNumOperands(), extra);
    }
    issuedInRegions.pop_back();
    readyAt = std::move(savedReadyAt);
    readers = std::move(savedReaders);
    return result;
  }

  LogicalResult scheduleBodies(scf::ForOp op) {
    SmallVector<Value> resources, timepoints;
    Value all;
    addTimepointArguments(*op.getBody(), resources, timepoints, all);
    return scheduleBody(*op.getBody(), resources, timepoints, all, 0);
  }

  LogicalResult scheduleBodies(scf::WhileOp op) {
    SmallVector<Value> beforeResources, beforeTimepoints;
    SmallVector<Value> afterResources, afterTimepoints;
    Value beforeAll, afterAll;
    addTimepointArguments(op.getBefore().front(), beforeResources,
                          beforeTimepoints, beforeAll);
    addTimepointArguments(op.getAfter().front(), afterResources,
                          afterTimepoints, afterAll);
    // The condition forwards its operands after the first (the i1).
    if (failed(scheduleBody(op.getBefore().front(), beforeResources,
                            beforeTimepoints, beforeAll, 1)))
      return failure();
    return scheduleBody(op.getAfter().front(), afterResources, afterTimepoints,
                        afterAll, 0);
  }

  // A branch region op (scf.if, scf.index_switch, scf.execute_region):
  // each region, taking nothing, yields its timepoints.
  LogicalResult scheduleBranches(Operation *op) {
    for (Region &region : op->getRegions()) {
      // An scf.if without else does no work there, yet yields timepoints
      // too: give it a block.
      if (region.empty()) {
        builder.createBlock(&region);
        scf::YieldOp::create(builder, op->getLoc());
      }
      if (failed(scheduleBody(region.front(), {}, {}, {}, 0)))
        return failure();
    }
    return success();
  }

  // A region op carrying resources or holding stream code: see the file
  // comment. The op is rebuilt with the timepoints appended to its
  // operands (the carried ones' initial values) and results.
  LogicalResult scheduleRegionOp(Operation *op) {
    Location loc = op->getLoc();
    SmallVector<Value> extraOperands, inits;
    if (auto forOp = dyn_cast<scf::ForOp>(op))
      llvm::append_range(inits, forOp.getInitArgs());
    else if (auto whileOp = dyn_cast<scf::WhileOp>(op))
      llvm::append_range(inits, whileOp.getInits());
    for (Value init : inits)
      if (isResource(init))
        extraOperands.push_back(readyForAnyAccess(loc, init));
    if (isa<scf::ForOp, scf::WhileOp>(op))
      extraOperands.push_back(immediate(loc));

    writtenInRegions.emplace_back();
    LogicalResult scheduled =
        TypeSwitch<Operation *, LogicalResult>(op)
            .Case<scf::ForOp, scf::WhileOp>(
                [&](auto loopOp) { return scheduleBodies(loopOp); })
            .Default([&](Operation *) { return scheduleBranches(op); });
    llvm::DenseSet<Value> written = writtenInRegions.pop_back_val();
    if (failed(scheduled))
      return failure();
    // A loop writing an outer resource in place would race with its own
    // next iteration, which waits only for what it carries: copy-on-write
    // never leaves one (the value is used again next iteration).
    if (isa<scf::ForOp, scf::WhileOp>(op))
      for (Value resource : written)
        if (!op->isAncestor(resource.getParentRegion()->getParentOp()))
          return op->emitError()
                 << "'" << op->getName()
                 << "' writes a resource defined outside it in place; "
                    "allocation scheduling needs such a value carried "
                    "through the loop (or copied inside it)";

    SmallVector<Type> resultTypes(op->getResultTypes());
    for (Type type : op->getResultTypes())
      if (isa<ResourceType>(type))
        resultTypes.push_back(timepointType());
    resultTypes.push_back(timepointType());
    SmallVector<Value> operands(op->getOperands());
    llvm::append_range(operands, extraOperands);
    builder.setInsertionPoint(op);
    OperationState state(loc, op->getName());
    state.addOperands(operands);
    state.addTypes(resultTypes);
    state.addAttributes(op->getAttrs());
    for (Region &region : op->getRegions())
      state.addRegion()->takeBody(region);
    Operation *newOp = builder.create(state);
    unsigned numResults = op->getNumResults();
    for (auto [from, to] : llvm::zip(op->getResults(), newOp->getResults()))
      from.replaceAllUsesWith(to);
    op->erase();

    // Carried results are ready at their timepoints.
    ValueRange timepoints = newOp->getResults().drop_front(numResults);
    unsigned next = 0;
    for (Value result : newOp->getResults().take_front(numResults))
      if (isResource(result)) {
        readyAt[result] = timepoints[next++];
        readers[result].clear();
      }
    Value done = newOp->getResults().back();
    issue(done);

    // Outer resources the region used, and the initial values it took, are
    // read until `done`; one it wrote in place is ready no sooner.
    builder.setInsertionPointAfter(newOp);
    llvm::SetVector<Value> used;
    for (Value init : inits)
      if (isResource(init))
        used.insert(init);
    newOp->walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        if (isResource(operand) &&
            !newOp->isAncestor(operand.getParentRegion()->getParentOp()))
          used.insert(operand);
    });
    for (Value resource : used) {
      if (written.contains(resource)) {
        Value before = readyAt.lookup(resource);
        readyAt[resource] = before ? join(loc, {before, done}) : done;
        for (llvm::DenseSet<Value> &outer : writtenInRegions)
          outer.insert(resource);
      }
      readers[resource].push_back(done);
    }
    return success();
  }

  // Every value of a carried position (initial value, block argument,
  // yielded value, result; and a host await's result with its operand) must
  // have one type: external if any of them must be, else one lifetime they
  // all have, else transient. Undecided ones (`*`) are decided here.
  LogicalResult decideCarriedLifetimes() {
    llvm::EquivalenceClasses<Value> classes;
    llvm::SmallPtrSet<Operation *, 8> regionOps;
    auto unite = [&](Value a, Value b) {
      if (isResource(a) && isResource(b))
        classes.unionSets(a, b);
    };
    auto uniteTerminator = [&](Block &block, unsigned first,
                               ValueRange targets) {
      for (auto [value, target] : llvm::zip(
               block.getTerminator()->getOperands().drop_front(first), targets))
        unite(value, target);
    };
    func.walk([&](Operation *op) {
      if (auto await = dyn_cast<TimepointAwaitOp>(op)) {
        for (auto [operand, result] :
             llvm::zip_equal(await.getResourceOperands(), await.getResults()))
          unite(operand, result);
      } else if (auto forOp = dyn_cast<scf::ForOp>(op)) {
        regionOps.insert(op);
        for (auto [init, arg, result] :
             llvm::zip_equal(forOp.getInitArgs(), forOp.getRegionIterArgs(),
                             forOp.getResults())) {
          unite(init, arg);
          unite(arg, result);
        }
        uniteTerminator(*forOp.getBody(), 0, forOp.getResults());
      } else if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
        regionOps.insert(op);
        for (auto [init, arg] :
             llvm::zip(whileOp.getInits(), whileOp.getBeforeArguments()))
          unite(init, arg);
        uniteTerminator(whileOp.getAfter().front(), 0,
                        whileOp.getBeforeArguments());
        for (auto [arg, result] :
             llvm::zip(whileOp.getAfterArguments(), whileOp.getResults()))
          unite(arg, result);
        uniteTerminator(whileOp.getBefore().front(), 1, whileOp.getResults());
      } else if (isBranchRegionOp(op)) {
        regionOps.insert(op);
        for (Region &region : op->getRegions())
          if (!region.empty())
            uniteTerminator(region.front(), 0, op->getResults());
      }
    });
    for (auto it = classes.begin(); it != classes.end(); ++it) {
      if (!(*it)->isLeader())
        continue;
      SmallVector<Value> members(classes.member_begin(**it),
                                 classes.member_end());
      Operation *carrier = nullptr;
      for (Value value : members) {
        Operation *owner = isa<BlockArgument>(value)
                               ? value.getParentBlock()->getParentOp()
                               : value.getDefiningOp();
        if (regionOps.contains(owner))
          carrier = owner;
      }
      if (!carrier)
        continue;
      std::optional<Lifetime> common;
      bool external = false, mixed = false;
      for (Value value : members) {
        Lifetime lifetime = cast<ResourceType>(value.getType()).getLifetime();
        external |= lifetime == Lifetime::External;
        if (lifetime == Lifetime::Unknown)
          continue;
        if (common && *common != lifetime)
          mixed = true;
        common = lifetime;
      }
      Lifetime decided = external           ? Lifetime::External
                         : mixed || !common ? Lifetime::Transient
                                            : *common;
      auto type = ResourceType::get(func.getContext(), decided);
      for (Value value : members) {
        if (value.getType() == type)
          continue;
        if (cast<ResourceType>(value.getType()).getLifetime() ==
            Lifetime::Constant)
          return carrier->emitError()
                 << "'" << carrier->getName()
                 << "' carries a constant together with resources of "
                    "another lifetime in one position; copy it first";
        value.setType(type);
      }
    }
    return success();
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
  // findEmplacedProducer and emplacePartially), and the operand holding
  // that target's storage.
  llvm::DenseMap<Operation *, OpOperand *> emplaced;
  // Ops that write their value into part of an update's target, and that
  // update (emplacePartially).
  llvm::DenseMap<Operation *, AsyncUpdateOp> ranges;
  // Slices whose readers read their source in place (isViewable), and
  // slices that must be copies (keepSlicesApart).
  llvm::SetVector<AsyncSliceOp> views;
  llvm::DenseSet<Operation *> copiedSlices;
  // When each resource's current contents are ready; absent means now.
  llvm::DenseMap<Value, Value> readyAt;
  // Reads of each resource since its last write, which a write must await.
  llvm::DenseMap<Value, SmallVector<Value>> readers;
  // Per region op being scheduled (outermost first): the resources written
  // inside it, and per body being scheduled, the timepoints issued in it.
  SmallVector<llvm::DenseSet<Value>> writtenInRegions;
  SmallVector<SmallVector<Value>> issuedInRegions;
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
