// Decides who frees each resource of the cmd phase and places its
// deallocation right after its last use. See Passes.td for the rules.
//
// Assumes straight-line functions (stream-schedule-allocation's output). An
// execution region (stream.cmd.execute) captures the resources it uses, so
// it is one use of each, done at the region's timepoint; a resource used
// directly inside any other region is beyond this analysis and its
// allocation becomes indeterminate.

#include "compiler/Dialect/Stream/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"

namespace ferry::stream {
#define GEN_PASS_DEF_AUTOMATICREFERENCECOUNTINGPASS
#include "compiler/Dialect/Stream/Transforms/Passes.h.inc"
} // namespace ferry::stream

using namespace mlir;

namespace ferry::stream {
namespace {

constexpr StringLiteral kNoSideEffectsAttr = "nosideeffects";

// How the program must give up an owned resource.
enum class Disposal {
  Free,          // dealloca after the last use
  ReleaseFirst,  // release, then dealloca if that was the last owner
  HandToCaller,  // returned: the caller owns it now
  Indeterminate, // beyond the analysis: memory goes with the last reference
};

// What the analysis learned about one owned resource.
struct Ownership {
  Value resource;
  Value size;
  Disposal disposal = Disposal::Free;
  Operation *lastUser = nullptr;
  // Uses in program order: (position, completion timepoint, writes?).
  SmallVector<std::tuple<size_t, Value, bool>> uses;
};

class FunctionOwnership {
public:
  FunctionOwnership(func::FuncOp func, SymbolTableCollection &symbols)
      : func(func), symbols(symbols), builder(func.getContext()) {}

  void run() {
    Block &block = func.getBody().front();
    for (auto [index, op] : llvm::enumerate(block))
      position[&op] = index;
    SmallVector<Ownership> owned;
    for (Operation &op : block)
      collectOwned(&op, owned);
    for (Ownership &ownership : owned)
      analyze(ownership);
    for (Ownership &ownership : owned)
      dispose(ownership);
    awaitDeallocations(block.getTerminator());
  }

private:
  // Resources `op` makes the program responsible for freeing.
  void collectOwned(Operation *op, SmallVectorImpl<Ownership> &owned) {
    auto add = [&](Value resource, Value size, Disposal disposal) {
      if (!isDisposed(resource))
        owned.push_back({resource, size, disposal, /*lastUser=*/nullptr, {}});
    };
    if (auto alloca = dyn_cast<ResourceAllocaOp>(op)) {
      if (!alloca.getIndeterminate())
        add(alloca.getResult(), alloca.getStorageSize(), Disposal::Free);
    } else if (auto importOp = dyn_cast<TensorImportOp>(op)) {
      if (importOp.getConsume())
        add(importOp.getResult(), importOp.getResultSize(),
            Disposal::ReleaseFirst);
    } else if (auto call = dyn_cast<CmdCallOp>(op)) {
      for (auto [i, result, size] :
           llvm::enumerate(call.getResults(), call.getResultSizes()))
        if (!call.getTiedOperand(i))
          add(result, size, Disposal::Free);
    }
  }

  // Whether the program already gives up its ownership of `resource`
  // (a dealloca or a release is written, by this pass on an earlier run or
  // by hand): adding another would free or release it twice.
  static bool isDisposed(Value resource) {
    for (OpOperand &use : resource.getUses()) {
      Operation *user = use.getOwner();
      if (isa<ResourceDeallocaOp, ResourceReleaseOp>(user))
        return true;
      if (auto await = dyn_cast<TimepointAwaitOp>(user)) {
        unsigned index = use.getOperandNumber() -
                         await.getResourceOperands().getBeginOperandIndex();
        if (isDisposed(await.getResults()[index]))
          return true;
      }
    }
    return false;
  }

  // An external callee may keep what it is given unless it promises to
  // have no side effects.
  bool mayKeepArguments(CmdCallOp call) {
    auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    return !callee || !callee->hasAttr(kNoSideEffectsAttr);
  }

  // Visits every use of `resource`, following the values host awaits yield
  // for it. Returns false if a use is beyond the analysis.
  bool forEachUse(Value resource, function_ref<void(OpOperand &)> fn) {
    for (OpOperand &use : resource.getUses()) {
      Operation *user = use.getOwner();
      if (user->getBlock() != &func.getBody().front())
        return false;
      fn(use);
      if (auto await = dyn_cast<TimepointAwaitOp>(user)) {
        unsigned index = use.getOperandNumber() -
                         await.getResourceOperands().getBeginOperandIndex();
        if (!forEachUse(await.getResults()[index], fn))
          return false;
      } else if (!isa<CmdDispatchOp, CmdDispatchEntryOp, CmdFillOp, CmdCopyOp,
                      CmdCallOp, CmdExecuteOp, TensorExportOp, ResourceLoadOp,
                      ResourceRetainOp, ResourceReleaseOp, ResourceIsTerminalOp,
                      ResourceDeallocaOp>(user)) {
        return false;
      }
    }
    return true;
  }

  void analyze(Ownership &ownership) {
    bool exported = false, mayBeKept = false;
    bool followed = forEachUse(ownership.resource, [&](OpOperand &use) {
      Operation *user = use.getOwner();
      // A view only passed to calls is lent, not handed over: the callee
      // imports it without ownership and is done with it when it returns.
      if (auto exportOp = dyn_cast<TensorExportOp>(user))
        if (Operation *call = lastLendingCall(exportOp))
          user = call;
      if (!ownership.lastUser ||
          position.lookup(user) > position.lookup(ownership.lastUser))
        ownership.lastUser = user;
      if (Value done = completionOf(user))
        ownership.uses.push_back({position.lookup(user), done, writes(use)});
      exported |= isa<TensorExportOp>(user);
      if (auto call = dyn_cast<CmdCallOp>(user))
        mayBeKept |= mayKeepArguments(call);
      // A retain makes another owner, who will release that share: the
      // program may give up only its own.
      mayBeKept |= isa<ResourceRetainOp>(user);
    });
    if (!followed)
      ownership.disposal = Disposal::Indeterminate;
    else if (exported)
      ownership.disposal = Disposal::HandToCaller;
    else if (mayBeKept)
      ownership.disposal = Disposal::ReleaseFirst;
  }

  // The last func.call (a call of a function of this module, which takes
  // buffer views like the host does) using `exportOp`'s view, when such calls
  // in this block are all that use it; else null.
  Operation *lastLendingCall(TensorExportOp exportOp) {
    Operation *last = nullptr;
    for (Operation *user : exportOp.getResult().getUsers()) {
      if (!isa<func::CallOp>(user) || user->getBlock() != exportOp->getBlock())
        return nullptr;
      if (!last || position.lookup(user) > position.lookup(last))
        last = user;
    }
    return last;
  }

  // The timepoint at which `user` is done with what it reads; null when it
  // completed on the host already. An execution region is one user: done
  // when its last command is.
  static Value completionOf(Operation *user) {
    return TypeSwitch<Operation *, Value>(user)
        .Case<CmdDispatchOp, CmdDispatchEntryOp, CmdFillOp, CmdCopyOp,
              CmdCallOp, CmdExecuteOp>(
            [](auto op) { return op.getResultTimepoint(); })
        .Default([](Operation *) { return Value(); });
  }

  // What `user` waited for before it ran.
  static Value awaitOf(Operation *user) {
    return TypeSwitch<Operation *, Value>(user)
        .Case<CmdDispatchOp, CmdDispatchEntryOp, CmdFillOp, CmdCopyOp,
              CmdCallOp, CmdExecuteOp>(
            [](auto op) { return op.getAwaitTimepoint(); })
        .Default([](Operation *) { return Value(); });
  }

  // When the resource `def` defines exists: its allocation's or producing
  // call's timepoint (null for an import, which exists already).
  static Value existsAt(Operation *def) {
    return TypeSwitch<Operation *, Value>(def)
        .Case<ResourceAllocaOp, CmdCallOp>(
            [](auto op) { return op.getResultTimepoint(); })
        .Default([](Operation *) { return Value(); });
  }

  // Whether `use` writes the resource (an op's output, a fill or copy
  // target, a call's tied operand) rather than only reading it.
  static bool writes(OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto dispatch = dyn_cast<CmdDispatchOp>(user))
      return use.get() == dispatch.getOutput() &&
             use.getOperandNumber() + 1 ==
                 dispatch.getResourceOperands().getBeginOperandIndex() +
                     dispatch.getResourceOperands().size();
    if (auto entry = dyn_cast<CmdDispatchEntryOp>(user))
      return use.getOperandNumber() ==
             entry.getResourceOperands().getBeginOperandIndex() +
                 entry.getOutputIndex();
    if (auto fill = dyn_cast<CmdFillOp>(user))
      return &use == &fill.getTargetMutable();
    if (auto copy = dyn_cast<CmdCopyOp>(user))
      return &use == &copy.getTargetMutable();
    if (auto call = dyn_cast<CmdCallOp>(user))
      return cast<TiedOpInterface>(user).isOperandTied(use);
    if (auto execute = dyn_cast<CmdExecuteOp>(user))
      return execute.writesCapture(
          use.getOperandNumber() -
          execute.getResourceOperands().getBeginOperandIndex());
    return false;
  }

  // What the memory must wait for before it goes: the last write (which
  // itself waited for every earlier use) and every use after it. Uses the
  // last user already waited for (directly or in the join it awaited) are
  // covered by waiting for the last user.
  static SmallVector<Value> pendingUses(const Ownership &ownership) {
    auto uses = ownership.uses;
    llvm::sort(uses, [](const auto &a, const auto &b) {
      return std::get<0>(a) < std::get<0>(b);
    });
    SmallVector<Value> completions;
    for (auto &[position, done, isWrite] : uses) {
      if (isWrite)
        completions.clear();
      completions.push_back(done);
    }
    return uncovered(completions, ownership.lastUser);
  }

  static SmallVector<Value> uncovered(ArrayRef<Value> completions,
                                      Operation *lastUser) {
    llvm::SmallPtrSet<Value, 8> covered;
    if (Value await = awaitOf(lastUser)) {
      covered.insert(await);
      if (auto join = await.getDefiningOp<TimepointJoinOp>())
        covered.insert(join.getAwaitTimepoints().begin(),
                       join.getAwaitTimepoints().end());
    }
    SmallVector<Value> result;
    for (Value completion : completions)
      if (!covered.contains(completion))
        result.push_back(completion);
    return result;
  }

  void dispose(const Ownership &ownership) {
    Location loc = ownership.resource.getLoc();
    switch (ownership.disposal) {
    case Disposal::HandToCaller:
      return;
    case Disposal::Indeterminate:
      if (auto alloca = ownership.resource.getDefiningOp<ResourceAllocaOp>())
        alloca.setIndeterminate(true);
      return;
    case Disposal::Free:
    case Disposal::ReleaseFirst:
      break;
    }
    // A resource no device work uses (unused, or used only by host ops such
    // as retain) is freed once it exists.
    Operation *def = ownership.resource.getDefiningOp();
    SmallVector<Value> completions;
    if (ownership.lastUser)
      completions = pendingUses(ownership);
    if (ownership.uses.empty())
      completions = {existsAt(def)};
    builder.setInsertionPointAfter(ownership.lastUser ? ownership.lastUser
                                                      : def);
    Value after = joinTimepoints(builder, loc, completions);
    Value condition;
    if (ownership.disposal == Disposal::ReleaseFirst)
      condition = ResourceReleaseOp::create(builder, loc, builder.getI1Type(),
                                            ownership.resource, ownership.size);
    // Freed on the queue of the device that allocated it, in order with
    // that device's later allocations (as the liveness walk counts): an
    // allocation of this function is freed there anyway; one without an
    // affinity, or a callee's result (allocated where the callee chose),
    // is routed to its origin device at run time.
    bool preferOrigin = !getAffinity(def) || isa<TensorImportOp>(def);
    auto dealloca = ResourceDeallocaOp::create(
        builder, loc, TimepointType::get(func.getContext()), after,
        ownership.resource, ownership.size, condition, preferOrigin);
    deallocations.push_back(dealloca.getResultTimepoint());
  }

  // Nothing stays in flight when control returns to the host.
  void awaitDeallocations(Operation *terminator) {
    builder.setInsertionPoint(terminator);
    if (Value all =
            joinTimepoints(builder, terminator->getLoc(), deallocations))
      TimepointAwaitOp::create(builder, terminator->getLoc(), all, ValueRange{},
                               ValueRange{});
  }

  func::FuncOp func;
  SymbolTableCollection &symbols;
  OpBuilder builder;
  llvm::DenseMap<Operation *, size_t> position;
  SmallVector<Value> deallocations;
};

struct AutomaticReferenceCountingPass
    : impl::AutomaticReferenceCountingPassBase<AutomaticReferenceCountingPass> {
  void runOnOperation() override {
    SymbolTableCollection symbols;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      FailureOr<bool> hasWork =
          hasStraightLineStreamCode(func, "reference counting");
      if (failed(hasWork))
        return signalPassFailure();
      if (!*hasWork)
        continue;
      FunctionOwnership(func, symbols).run();
    }
  }
};

} // namespace
} // namespace ferry::stream
