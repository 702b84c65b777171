// A liveness walk over the cmd phase reporting each function's peak of
// simultaneously live bytes. See Passes.td for how it is computed.

#include "compiler/Dialect/Stream/Analysis/DeviceUses.h"
#include "compiler/Dialect/Stream/Analysis/ResourceUsage.h"
#include "compiler/Dialect/Stream/Transforms/CarriedPositions.h"
#include "compiler/Dialect/Stream/Transforms/Passes.h"
#include "compiler/Dialect/Stream/Transforms/PeakMemorySizes.h"
#include "compiler/Utils/ElementTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <functional>
#include <map>
#include <string>

namespace ferry::stream {
#define GEN_PASS_DEF_ESTIMATEPEAKMEMORYPASS
#include "compiler/Dialect/Stream/Transforms/Passes.h.inc"
} // namespace ferry::stream

using namespace mlir;

namespace ferry::stream {
namespace {

struct LiveBytes {
  int64_t inputs = 0;
  int64_t allocated = 0;
  int64_t live = 0;
  int64_t peak = 0;

  void add(int64_t bytes) {
    live += bytes;
    peak = std::max(peak, live);
  }
};

using namespace peak_memory;

// The devices a buffer may be on: one, or several where the walk does not
// know which one the run takes (an scf.if whose branches yield buffers on
// different devices, a loop that may run no iteration and then leaves a
// carried buffer where it came in). The walk counts such a buffer on each
// of them and frees it on each: an upper bound on every device.
using Devices = SmallVector<StringRef, 2>;

// `into` with the devices of `more` it lacks, in order.
void addDevices(Devices &into, const Devices &more) {
  for (StringRef device : more)
    if (!llvm::is_contained(into, device))
      into.push_back(device);
}

// Live bytes of a function as a whole and on each device, and the devices
// each of its buffers is on.
struct DeviceLiveBytes {
  LiveBytes total;
  llvm::MapVector<StringRef, LiveBytes> devices;
  StringRef defaultDevice;
  llvm::DenseMap<Value, Devices> deviceOf;
  // The devices of each buffer the function returns (callers import it
  // there).
  SmallVector<Devices> resultDevices;

  StringRef placement(Operation *op) {
    if (AffinityAttr affinity = getAffinity(op))
      return affinity.getDeviceSymbol().getValue();
    return defaultDevice;
  }

  void add(Value resource, StringRef device, int64_t bytes, bool input) {
    add(resource, Devices{device}, bytes, input);
  }

  // A buffer on several devices counts on each (and once in the total).
  void add(Value resource, const Devices &on, int64_t bytes, bool input) {
    deviceOf[resource] = on;
    SmallVector<LiveBytes *, 3> lives = {&total};
    for (StringRef device : on)
      lives.push_back(&devices[device]);
    for (LiveBytes *live : lives) {
      (input ? live->inputs : live->allocated) += bytes;
      live->add(bytes);
    }
  }

  void remove(const Devices &on, int64_t bytes) {
    total.live -= bytes;
    for (StringRef device : on)
      devices[device].live -= bytes;
  }
};

// The device convert-stream-to-hal allocates `alloca` on: the devices of
// its uses (following host awaits; a view exported to a call or returned
// counts the devices that callee or the callers use), in program order, the
// alloca's own first and the default device last where some use has no
// affinity. One device allocates alone. Of several, hal-resolve-topology-
// queries picks the first that every other reaches, which in the default
// topology (local devices reach each other's memory) is the first; where
// --lead-allocation-device or the run time picks another, this differs.
StringRef allocatingDevice(ResourceAllocaOp alloca, func::FuncOp func,
                           const ModuleDeviceUses &uses,
                           DeviceLiveBytes &bytes) {
  bool defaultDeviceUse = false;
  llvm::SetVector<StringRef> devices;
  for (AffinityAttr affinity :
       uses.usingAffinities(alloca, alloca.getResult(), func, defaultDeviceUse))
    devices.insert(affinity.getDeviceSymbol().getValue());
  if (!devices.empty() && defaultDeviceUse)
    devices.insert(bytes.defaultDevice);
  return devices.empty() ? bytes.placement(alloca) : devices.front();
}

// The owners of each buffer the program owns, as the run time counts them
// (`hal.buffer.allocation.preserve` / `discard`): the program is the one
// owner of what it allocates, of a new result of an external call and of
// what it imports with `consume` (a callee's result, whose only ownership
// the callee handed over, or an argument the host handed over and the
// program claimed); each `stream.resource.retain` adds one. Nothing else adds
// an owner at run time: external code may keep a reference to a buffer it was
// given (the plugin ABI's ref_retain), but a reference is not ownership, and
// the memory still goes back at the program's dealloca, which waits for the
// call's signal fence. So a `stream.resource.release` drops the last owner
// exactly when the releases catch up with the retains, and the
// `dealloca if` it guards frees then. A carried value (a loop's or
// branch's, whose root is only its first value) is released only where the
// program owns it (reference counting's owned flag says where), as its one
// owner: that release is the last.
class Ownership {
public:
  void own(Value resource) { owners[root(resource)] = 1; }

  void visit(Operation &op) {
    if (auto retain = dyn_cast<ResourceRetainOp>(op)) {
      auto it = owners.find(root(retain.getOperand()));
      if (it != owners.end())
        ++it->second;
    } else if (auto release = dyn_cast<ResourceReleaseOp>(op)) {
      // A carried value holds one iteration's (or branch's) buffer, which
      // the program owns once: not its root's count, which is the initial
      // value's.
      if (carriedSource(release.getOperand())) {
        lastReleases.insert(release.getResult());
        return;
      }
      auto it = owners.find(root(release.getOperand()));
      if (it != owners.end() && --it->second == 0)
        lastReleases.insert(release.getResult());
    }
  }

  // Whether `dealloca` frees when it is issued: unconditional, or guarded by
  // the release of the last owner. A guard the walk cannot follow (a buffer
  // the host owns) is assumed not to free: an upper bound.
  bool frees(ResourceDeallocaOp dealloca) const {
    return !dealloca.getCondition() ||
           lastReleases.contains(dealloca.getCondition());
  }

  bool isLastRelease(Value condition) const {
    return lastReleases.contains(condition);
  }

  // The value a resource was made as: host awaits and tied call results
  // yield the same buffer under another name.
  static Value root(Value resource) {
    while (Value source = sourceOf(resource))
      resource = source;
    return resource;
  }

  // The value `resource` is another name of (one step towards root), or
  // null where it was made.
  static Value sourceOf(Value resource) {
    if (Value source = carriedSource(resource))
      return source;
    auto result = dyn_cast<OpResult>(resource);
    if (!result)
      return {};
    Operation *def = result.getOwner();
    if (auto await = dyn_cast<TimepointAwaitOp>(def))
      return await.getResourceOperands()[result.getResultNumber()];
    if (auto call = dyn_cast<CmdCallOp>(def))
      if (OpOperand *tied = call.getTiedOperand(result.getResultNumber()))
        return tied->get();
    return {};
  }

private:
  llvm::DenseMap<Value, int64_t> owners;
  llvm::DenseSet<Value> lastReleases;
};

// The bytes a call to `callee` adds at its peak to what its caller holds: its
// peak minus its inputs (the caller's buffers, already counted), in total
// and per device. Null when unknown (a remark says why).
using CalleeExcess = std::function<const DeviceLiveBytes *(func::CallOp)>;

// Raises the peaks of `bytes` to what they reach while `callee` runs.
void addCallPeak(DeviceLiveBytes &bytes, const DeviceLiveBytes &callee) {
  auto raise = [](LiveBytes &live, const LiveBytes &inCallee) {
    live.peak =
        std::max(live.peak, live.live + inCallee.peak - inCallee.inputs);
  };
  raise(bytes.total, callee.total);
  for (auto &[name, inCallee] : callee.devices)
    raise(bytes.devices[name], inCallee);
}

// Walks one function's blocks in program order. Structured regions are
// walked where they stand: a loop's body once (each iteration frees what it
// does not carry on, so iterations repeat one another's live bytes, and a
// body that leaves more live than it found makes the peak unknown), an
// scf.if's larger branch, an scf.while's before and after regions once each
// (the last before-region run repeats the first; walkWhile).
class BlockWalker {
public:
  BlockWalker(func::FuncOp func, SizeEvaluator &evaluator,
              DeviceLiveBytes &bytes, const CalleeExcess &calleeBytes,
              const ModuleDeviceUses &uses)
      : func(func), evaluator(evaluator), bytes(bytes),
        calleeBytes(calleeBytes), uses(uses) {}

  LogicalResult walkBlock(Block &block) {
    for (Operation &op : block)
      if (failed(walkOp(op)))
        return failure();
    return success();
  }

private:
  // The live bytes at one point, total and per device.
  struct Snapshot {
    LiveBytes total;
    llvm::MapVector<StringRef, LiveBytes> devices;
  };

  Snapshot snapshot() { return {bytes.total, bytes.devices}; }

  // Back to the live bytes of `to`; peaks reached since stay.
  void restoreLive(const Snapshot &to) {
    bytes.total.live = to.total.live;
    for (auto &[name, live] : bytes.devices)
      live.live = to.devices.lookup(name).live;
  }

  // The larger of two branches walked from the same start: each count is
  // the larger of the two.
  void takeLarger(const Snapshot &a, const Snapshot &b) {
    auto larger = [](LiveBytes &into, const LiveBytes &x, const LiveBytes &y) {
      into.inputs = std::max(x.inputs, y.inputs);
      into.allocated = std::max(x.allocated, y.allocated);
      into.live = std::max(x.live, y.live);
      into.peak = std::max(x.peak, y.peak);
    };
    larger(bytes.total, a.total, b.total);
    for (auto &[name, live] : bytes.devices)
      larger(live, a.devices.lookup(name), b.devices.lookup(name));
  }

  static bool sameLive(const Snapshot &a, const Snapshot &b) {
    if (a.total.live != b.total.live)
      return false;
    for (auto &[name, live] : a.devices)
      if (live.live != b.devices.lookup(name).live)
        return false;
    return true;
  }

  // A loop body's (or a while's two regions') live bytes after one
  // iteration must be what they were before it.
  LogicalResult checkRepeats(Operation *op, const Snapshot &before) {
    Snapshot after = snapshot();
    if (sameLive(before, after))
      return success();
    // Where the total is the same, the device that holds more.
    int64_t more = after.total.live - before.total.live;
    std::string where;
    for (auto &[name, live] : after.devices) {
      int64_t onDevice = live.live - before.devices.lookup(name).live;
      if (more == 0 && onDevice > 0) {
        more = onDevice;
        where = (" on @" + name).str();
      }
    }
    return op->emitRemark()
           << "peak live bytes unknown: an iteration of '" << op->getName()
           << "' leaves " << more << " bytes more live" << where
           << " than it found, so the peak depends on the number of "
              "iterations";
  }

  // After a loop's first iteration: where a carried buffer the iteration
  // yields is on another device than the one it came in on (an initial
  // value made on one device, each iteration's on another), the iterations
  // after the first start from there. Returns whether any moved: the first
  // iteration then moved live bytes between devices, and only the second
  // must leave what it found.
  bool carryToOtherDevices(ValueRange args, ValueRange yielded,
                           Operation *loop) {
    // All looked up first: a value yielded may be found through another
    // argument (a while's after-region argument through its before-region
    // one), which holds the previous iteration's value until all move on.
    SmallVector<std::pair<Value, Devices>> next;
    for (auto [arg, value] : llvm::zip_equal(args, yielded)) {
      if (!isa<ResourceType>(arg.getType()))
        continue;
      Devices devices = deviceOf(value, loop);
      if (!sameDevices(devices, deviceOf(arg, loop)))
        next.push_back({arg, devices});
    }
    for (auto &[arg, devices] : next)
      bytes.deviceOf[arg] = devices;
    return !next.empty();
  }

  static bool sameDevices(const Devices &a, const Devices &b) {
    return a.size() == b.size() && llvm::all_of(a, [&](StringRef d) {
             return llvm::is_contained(b, d);
           });
  }

  // What a loop's iteration starts from: the devices of its carried
  // buffers and their owned flags. Iterations that come back to a state
  // an earlier one started from repeat from there (buffers swapped between
  // devices each iteration): the walk has seen them all.
  using CarriedState = SmallVector<std::pair<Devices, std::optional<bool>>>;
  CarriedState carriedState(ValueRange args, Operation *loop) {
    CarriedState state;
    for (Value arg : args) {
      if (isa<ResourceType>(arg.getType()))
        state.push_back({deviceOf(arg, loop), std::nullopt});
      else if (auto it = flags.find(arg); it != flags.end())
        state.push_back({{}, it->second});
    }
    return state;
  }
  static bool sameState(const CarriedState &a, const CarriedState &b) {
    return a.size() == b.size() &&
           llvm::all_of(llvm::zip_equal(a, b), [](auto pair) {
             auto &[x, y] = pair;
             return sameDevices(x.first, y.first) && x.second == y.second;
           });
  }
  // Whether the next iteration of `loop` starts where one in `states` did
  // (every way on was seen); else adds its state to `states`.
  bool repeatsEarlier(SmallVector<CarriedState> &states, ValueRange args,
                      Operation *loop) {
    CarriedState state = carriedState(args, loop);
    if (llvm::any_of(states, [&](const CarriedState &earlier) {
          return sameState(earlier, state);
        }))
      return true;
    states.push_back(std::move(state));
    return false;
  }

  // The value of a dealloca's condition where the walk is: the release of
  // the last owner, or an owned flag reference counting carries beside a
  // value that is owned on some paths only (a constant, a loop's iter_arg
  // in the iteration walked, what the last iteration or the branch taken
  // yielded, or every branch where they agree, and or-ed or and-ed
  // flags). None where unknown.
  std::optional<bool> conditionValue(Value value) {
    if (auto it = flags.find(value); it != flags.end())
      return it->second;
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant)))
      return !constant.isZero();
    if (value.getDefiningOp<ResourceReleaseOp>())
      return ownership.isLastRelease(value);
    // Flags reference counting combines (a value passed on where a position
    // it was lent to holds it): known where one side decides.
    if (isa_and_nonnull<arith::AndIOp, arith::OrIOp>(value.getDefiningOp())) {
      Operation *op = value.getDefiningOp();
      bool isOr = isa<arith::OrIOp>(op);
      std::optional<bool> lhs = conditionValue(op->getOperand(0));
      std::optional<bool> rhs = conditionValue(op->getOperand(1));
      if (lhs == isOr || rhs == isOr)
        return isOr;
      if (lhs && rhs)
        return !isOr;
      return std::nullopt;
    }
    // A flag negated (an alias copied where it is not owned).
    if (auto xorOp = value.getDefiningOp<arith::XOrIOp>()) {
      std::optional<bool> lhs = conditionValue(xorOp.getLhs());
      std::optional<bool> rhs = conditionValue(xorOp.getRhs());
      if (lhs && rhs)
        return *lhs != *rhs;
      return std::nullopt;
    }
    auto result = dyn_cast<OpResult>(value);
    if (!result)
      return std::nullopt;
    Operation *def = result.getOwner();
    unsigned number = result.getResultNumber();
    auto yielded = [&](Region &region) -> std::optional<bool> {
      if (region.empty())
        return std::nullopt;
      return conditionValue(region.front().getTerminator()->getOperand(number));
    };
    if (auto forOp = dyn_cast<scf::ForOp>(def))
      return evaluator.tripCount(forOp) == 0
                 ? conditionValue(forOp.getInitArgs()[number])
                 : yielded(forOp.getRegion());
    if (!isBranchRegionOp(def))
      return std::nullopt;
    if (auto ifOp = dyn_cast<scf::IfOp>(def))
      if (std::optional<bool> condition = conditionValue(ifOp.getCondition()))
        return yielded(*condition ? ifOp.getThenRegion()
                                  : ifOp.getElseRegion());
    if (std::optional<Region *> taken = takenRegion(def))
      return *taken ? yielded(**taken) : std::nullopt;
    // Where the walk took the region leaving the most live as the one that
    // ran, its flags are the ones that hold after: an upper bound.
    if (Region *larger = largerRegion.lookup(def)) {
      if (!followedLarger) {
        followedLarger = true;
        def->emitRemark()
            << "peak live bytes are an upper bound: the walk cannot tell "
               "which region of '"
            << def->getName()
            << "' runs, and follows the one that leaves the most live";
      }
      return yielded(*larger);
    }
    std::optional<bool> common;
    for (Region &region : def->getRegions()) {
      std::optional<bool> value = yielded(region);
      if (!value || (common && *common != *value))
        return std::nullopt;
      common = value;
    }
    return common;
  }

  // Sets the i1 iter_args (owned flags) of a loop to `values` (its inits,
  // or what an iteration yielded). Returns whether any changed.
  bool carryFlags(ValueRange args, ValueRange values) {
    SmallVector<std::pair<Value, std::optional<bool>>> next;
    for (auto [arg, value] : llvm::zip_equal(args, values))
      if (arg.getType().isInteger(1))
        next.push_back({arg, conditionValue(value)});
    bool changed = false;
    for (auto [arg, value] : next) {
      auto it = flags.find(arg);
      std::optional<bool> now =
          it == flags.end() ? std::nullopt : std::optional(it->second);
      changed |= now != value;
      if (value)
        flags[arg] = *value;
      else
        flags.erase(arg);
    }
    return changed;
  }

  // What `value`, which an scf.while's condition `go` passes on, is when
  // `go` is `goesOn`: where `value` is a result of an scf.if that `go`
  // decides, what the branch that runs then yields. (A loop lifted from
  // blocks tests its exit in an scf.if and goes on under that test negated,
  // or under a constant each branch yields: the flag its body yields is
  // the one that goes on.)
  static Value onWay(Value value, Value go, bool goesOn) {
    auto ifOp = value.getDefiningOp<scf::IfOp>();
    if (!ifOp || ifOp.getElseRegion().empty())
      return value;
    std::optional<bool> thenRuns = thenRunsWhen(ifOp, go, goesOn);
    if (!thenRuns)
      return value;
    Block *block = *thenRuns ? ifOp.thenBlock() : ifOp.elseBlock();
    return block->getTerminator()->getOperand(
        cast<OpResult>(value).getResultNumber());
  }

  // The region of branch region op `op` that runs: where the values
  // deciding it evaluate, or, for an scf.if an enclosing while's condition
  // decides, the one that runs on the way the walk takes (see walkWhile).
  std::optional<Region *> takenRegion(Operation *op) {
    if (std::optional<Region *> taken = evaluator.takenRegion(op))
      return taken;
    auto ifOp = dyn_cast<scf::IfOp>(op);
    if (!ifOp)
      return std::nullopt;
    for (auto [go, goesOn] : llvm::reverse(ways))
      if (std::optional<bool> thenRuns = thenRunsWhen(ifOp, go, goesOn))
        return *thenRuns ? &ifOp.getThenRegion() : &ifOp.getElseRegion();
    // An owned flag's test (reference counting copies what a position gets
    // where it is not owned), known where the flag is.
    if (std::optional<bool> condition = conditionValue(ifOp.getCondition()))
      return *condition ? &ifOp.getThenRegion() : &ifOp.getElseRegion();
    return std::nullopt;
  }

  // Whether the condition `go` of an scf.while decides an scf.if of its
  // before region `block` (a loop lifted from blocks tests its exit there).
  static bool decidesBranch(Block &block, Value go) {
    return llvm::any_of(block.getOps<scf::IfOp>(), [&](scf::IfOp ifOp) {
      return thenRunsWhen(ifOp, go, true).has_value();
    });
  }

  void forgetCarried(ValueRange args) {
    for (Value arg : args)
      bytes.deviceOf.erase(arg);
  }

  // Says once (though a loop nested in another is walked again) that the
  // per-device counts after `loop` are an upper bound: it may run
  // `what` and then leave a carried buffer where it came in.
  void remarkZeroTripBound(Operation *loop, StringRef what) {
    if (boundRemarked.insert(loop).second)
      loop->emitRemark() << "peak live bytes per device are an upper bound "
                            "after this loop: it may run "
                         << what
                         << ", and then leaves a carried buffer on another "
                            "device than its iterations do";
  }

  // An scf.while: the before region runs at least once, the after region
  // maybe never, and the loop ends after a run of the before region with
  // the live bytes it left. Walked once each (later runs repeat them),
  // except where the after region moves a carried buffer to another
  // device: then the before and after regions are walked a second time
  // from there, and the results are where the condition passes them on
  // either way (after the first run of the before region, with no
  // iteration, or after a later one): on the devices of both, each device
  // counting the larger of its live bytes. A condition the walk evaluates
  // to false on the first run ends the loop there.
  LogicalResult walkWhile(scf::WhileOp whileOp) {
    Operation *op = whileOp;
    Block &beforeBlock = whileOp.getBefore().front();
    Block &afterBlock = whileOp.getAfter().front();
    ValueRange args = whileOp.getBeforeArguments();
    ValueRange afterArgs = whileOp.getAfterArguments();
    ValueRange results = whileOp.getResults();
    scf::ConditionOp condition = whileOp.getConditionOp();
    // Each walk (a loop nested in another is walked again) starts from the
    // initial values' devices and owned flags.
    forgetCarried(args);
    forgetCarried(afterArgs);
    forgetCarried(results);
    carryFlags(args, whileOp.getInits());
    auto knownFlag = [&](Value flag) -> std::optional<bool> {
      auto it = flags.find(flag);
      return it == flags.end() ? std::nullopt : std::optional(it->second);
    };
    // Each way out (after each run of the before region): the live bytes,
    // the results' devices and sizes, and their owned flags.
    SmallVector<Exit> exits;
    SmallVector<SmallVector<std::optional<bool>>> owned;
    // The before region, and the condition passing its values' flags and
    // devices to the after region and, on the way out, to the results.
    // Where the condition decides an scf.if of the region (its exit test),
    // the region is walked once each way, that scf.if running the branch
    // of that way: first leaving, then going on from the same start (the
    // peak is the larger of the two).
    Value go = condition.getCondition();
    bool twoWays = decidesBranch(beforeBlock, go);
    SmallVector<Value> goesOn, leaves;
    for (Value value : condition.getArgs()) {
      goesOn.push_back(onWay(value, go, true));
      leaves.push_back(onWay(value, go, false));
    }
    // What the condition passes out of the loop, and on to the after
    // region; each evaluated on its way, while the scf.if it decides still
    // takes that way's branch.
    auto leave = [&]() {
      carryFlags(results, leaves);
      exits.push_back(exitOf(results, condition.getArgs(), op));
      owned.push_back(exitFlags(results, knownFlag));
    };
    auto goOn = [&]() {
      carryFlags(afterArgs, goesOn);
      for (auto [arg, value] : llvm::zip_equal(afterArgs, condition.getArgs()))
        if (isa<ResourceType>(arg.getType()))
          if (Devices devices = knownDevices(value); !devices.empty())
            bytes.deviceOf[arg] = devices;
    };
    auto walkWay = [&](bool goesOn, function_ref<void()> then) {
      ways.push_back({go, goesOn});
      LogicalResult walked = walkBlock(beforeBlock);
      if (succeeded(walked))
        then();
      ways.pop_back();
      return walked;
    };
    auto walkBefore = [&]() -> LogicalResult {
      if (!twoWays) {
        if (failed(walkBlock(beforeBlock)))
          return failure();
        leave();
        goOn();
        return success();
      }
      Snapshot start = snapshot();
      if (failed(walkWay(false, leave)))
        return failure();
      // (Counted as the larger of two branches.)
      Snapshot left = snapshot();
      bytes.total = start.total;
      bytes.devices = start.devices;
      if (failed(walkWay(true, goOn)))
        return failure();
      Snapshot went = snapshot();
      takeLarger(left, went);
      restoreLive(went);
      return success();
    };
    Snapshot before = snapshot();
    CarriedState initial = carriedState(args, op);
    if (failed(walkBefore()))
      return failure();
    if (std::optional<int64_t> more =
            evaluator.evaluate(condition.getCondition());
        more && *more == 0) {
      restoreLive(exits.back().live);
      return success();
    }
    if (failed(walkBlock(afterBlock)))
      return failure();
    // An iteration that moves a carried buffer to another device or changes
    // an owned flag (an initial value not owned, each iteration's owned) is
    // followed by another from there, until one leaves what it found. (A
    // value passed from one position to another each iteration takes one
    // iteration per position to settle.)
    unsigned resources = llvm::count_if(
        args.getTypes(), [](Type type) { return isa<ResourceType>(type); });
    SmallVector<CarriedState> states = {std::move(initial)};
    for (unsigned iteration = 1;; ++iteration) {
      bool moved =
          carryToOtherDevices(args, whileOp.getYieldOp().getOperands(), op);
      bool flagsChanged = carryFlags(args, whileOp.getYieldOp().getOperands());
      if (!moved && !flagsChanged)
        break;
      if (repeatsEarlier(states, args, op))
        break;
      if (iteration > resources + 1)
        return op->emitRemark()
               << "peak live bytes unknown: the devices or owned flags of "
                  "what 'scf.while' carries still change after "
               << iteration << " iterations";
      if (flagsChanged && upperBoundLoops.insert(op).second)
        op->emitRemark() << "peak live bytes are an upper bound: the walk "
                            "counts iterations after the first, whose owned "
                            "flags differ from the first's, and the loop may "
                            "run only one";
      before = snapshot();
      if (failed(walkBefore()) || failed(walkBlock(afterBlock)))
        return failure();
    }
    if (failed(checkRepeats(op, before)))
      return failure();
    restoreLive(exits.back().live);
    if (exits.size() == 1)
      return success();
    dropLentExits(exits, owned, results);
    // The results are where any way out leaves them. (Where the condition
    // passes on values it makes on the same devices either way, the results
    // do not move.)
    bool resultsMove = false;
    for (auto [i, result] : llvm::enumerate(results)) {
      if (!isa<ResourceType>(result.getType()))
        continue;
      Devices devices;
      for (const Exit &exit : exits)
        addDevices(devices, exit.devices[i]);
      // (A way out where the result holds no buffer of its own does not
      // move it.)
      for (const Exit &exit : exits)
        resultsMove |=
            !exit.devices[i].empty() && !sameDevices(exit.devices[i], devices);
      bytes.deviceOf[result] = devices;
    }
    if (!resultsMove)
      return success();
    for (const Exit &exit : ArrayRef(exits).drop_back())
      takeLarger(exit.live, snapshot());
    mergeExits(exits, results, op);
    remarkZeroTripBound(op, "no iteration (its condition may stop it before "
                            "the after region runs)");
    return success();
  }

  LogicalResult walkRegionOp(Operation &op) {
    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      // Bounds the walk evaluates (constants, scalar inputs) say whether
      // the loop runs.
      std::optional<int64_t> tripCount = evaluator.tripCount(forOp);
      if (tripCount == 0)
        return success();
      // Each walk of the loop (a loop nested in another is walked again
      // for each walk of the outer body) starts from its initial values:
      // a device carryToOtherDevices set for an iteration argument in an
      // earlier walk is not where this walk's initial value is.
      forgetCarried(forOp.getRegionIterArgs());
      carryFlags(forOp.getRegionIterArgs(), forOp.getInitArgs());
      Exit start = exitOf(forOp.getResults(), forOp.getInitArgs(), &op);
      SmallVector<std::optional<bool>> startOwned =
          exitFlags(forOp.getResults(), [&](Value flag) {
            return conditionValue(
                forOp.getInitArgs()[cast<OpResult>(flag).getResultNumber()]);
          });
      Snapshot before = start.live;
      CarriedState initial = carriedState(forOp.getRegionIterArgs(), &op);
      if (failed(walkBlock(*forOp.getBody())))
        return failure();
      auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
      // An owned flag the first iteration changes (an initial value not
      // owned, each iteration's owned, or the reverse) makes the second
      // iteration the one that repeats, as a buffer moved to another device
      // does.
      bool moved = carryToOtherDevices(forOp.getRegionIterArgs(),
                                       yield.getOperands(), &op);
      bool flagsChanged =
          carryFlags(forOp.getRegionIterArgs(), yield.getOperands());
      if (tripCount == 1) {
        // Nothing repeats; the results are where the one iteration left
        // them (an initial value on another device than its yield, as an
        // input on the first device, moved, but no second iteration runs).
        if (moved)
          for (auto [result, yielded] :
               llvm::zip_equal(forOp.getResults(), yield.getOperands()))
            if (isa<ResourceType>(result.getType()))
              bytes.deviceOf[result] = deviceOf(yielded, &op);
        return success();
      }
      if (!moved && !flagsChanged)
        return checkRepeats(&op, before);
      // The second iteration may free what the first kept (or the
      // reverse), or start from other devices; with a dynamic trip count
      // it may not run at all. (Not in a loop, moved buffers get the larger
      // counts below, and a remark of their own.)
      bool inLoop = op.getParentOfType<LoopLikeOpInterface>() != nullptr;
      if (!tripCount && (flagsChanged || (moved && inLoop)) &&
          upperBoundLoops.insert(&op).second)
        op.emitRemark() << "peak live bytes are an upper bound: the walk "
                           "counts iterations after the first, whose owned "
                           "flags or carried buffers' devices differ from "
                           "the first's, and the loop may run only one";
      // Iterations until one leaves the devices and flags as it found them
      // (a value passed from one position to another each iteration takes
      // one iteration per position to settle), or every iteration of a
      // known trip count.
      unsigned resources =
          llvm::count_if(ValueRange(forOp.getRegionIterArgs()).getTypes(),
                         [](Type type) { return isa<ResourceType>(type); });
      bool walkedAll = false;
      // The ways out after each iteration walked; where they come back to
      // an earlier state (`cycle`), the results may be what any of them
      // left.
      SmallVector<Exit> iterationExits = {
          exitOf(forOp.getResults(), yield.getOperands(), &op)};
      SmallVector<CarriedState> states = {
          std::move(initial), carriedState(forOp.getRegionIterArgs(), &op)};
      bool cycle = false;
      for (int64_t iteration = 2;; ++iteration) {
        before = snapshot();
        if (failed(walkBlock(*forOp.getBody())))
          return failure();
        iterationExits.push_back(
            exitOf(forOp.getResults(), yield.getOperands(), &op));
        if (tripCount && iteration >= *tripCount) {
          walkedAll = true;
          break;
        }
        bool movedAgain = carryToOtherDevices(forOp.getRegionIterArgs(),
                                              yield.getOperands(), &op);
        bool flagsAgain =
            carryFlags(forOp.getRegionIterArgs(), yield.getOperands());
        if (!movedAgain && !flagsAgain)
          break;
        if ((cycle = repeatsEarlier(states, forOp.getRegionIterArgs(), &op)))
          break;
        if (iteration > resources + 1)
          return op.emitRemark()
                 << "peak live bytes unknown: the devices or owned flags of "
                    "what 'scf.for' carries still change after "
                 << iteration << " iterations";
      }
      // (Before any result below is counted: the last iteration walked
      // must leave what it found.)
      if (!walkedAll && failed(checkRepeats(&op, before)))
        return failure();
      // After the loop, its results are where the last iteration made
      // them. A loop that may run no iteration leaves them where they came
      // in instead: each device keeps the larger of the two live counts
      // (an upper bound on both, the run time having one of them), and
      // each result is on the devices of both, freed on each (so a loop
      // nested in another leaves the outer iteration what it found).
      bool mayRunNone = !tripCount;
      Exit after = exitOf(forOp.getResults(), yield.getOperands(), &op);
      SmallVector<Exit> exits = {start, after};
      // (Results owned where iterations ran, lent where none did, hold no
      // buffer of their own on the way out without: dropLentExits.)
      if (mayRunNone)
        dropLentExits(exits,
                      {startOwned,
                       exitFlags(forOp.getResults(),
                                 [&](Value flag) {
                                   return conditionValue(yield.getOperand(
                                       cast<OpResult>(flag).getResultNumber()));
                                 })},
                      forOp.getResults());
      for (auto [i, result] : llvm::enumerate(forOp.getResults())) {
        if (!isa<ResourceType>(result.getType()))
          continue;
        Devices devices = deviceOf(yield.getOperand(i), &op);
        if (mayRunNone)
          addDevices(devices, exits[0].devices[i]);
        if (cycle)
          for (const Exit &exit : iterationExits)
            addDevices(devices, exit.devices[i]);
        bytes.deviceOf[result] = devices;
      }
      if (cycle) {
        // (Each device keeps the largest count any way out leaves.)
        if (mayRunNone)
          iterationExits.insert(iterationExits.begin(), exits[0]);
        for (const Exit &exit : ArrayRef(iterationExits).drop_back())
          takeLarger(exit.live, snapshot());
        mergeExits(iterationExits, forOp.getResults(), &op);
        if (mayRunNone)
          remarkZeroTripBound(&op, "no iteration");
        return success();
      }
      if (moved && mayRunNone) {
        takeLarger(start.live, snapshot());
        mergeExits(exits, forOp.getResults(), &op);
        remarkZeroTripBound(&op, "no iteration");
      }
      return success();
    }
    if (auto whileOp = dyn_cast<scf::WhileOp>(op))
      return walkWhile(whileOp);
    // A branch region op (scf.if, scf.index_switch, scf.execute_region):
    // the region that runs where its condition or selector is known (the
    // sizes of what it yields are that region's then too); otherwise each
    // region from the same start, and what stays live after is the
    // largest of them (they match when all make the same results). An
    // empty region (an scf.if without else) does nothing.
    if (std::optional<Region *> taken = takenRegion(&op)) {
      if (!*taken)
        return success();
      Region &region = **taken;
      if (!region.hasOneBlock())
        return op.emitRemark() << "peak live bytes unknown: '" << op.getName()
                               << "' has several blocks";
      if (failed(walkBlock(region.front())))
        return failure();
      // (Its results are where this walk's region leaves them, not where
      // an earlier walk's, which may have taken another, did.)
      for (Value result : op.getResults())
        bytes.deviceOf.erase(result);
      addYieldedDevices(op, region);
      return success();
    }
    Snapshot before = snapshot();
    std::optional<Snapshot> largest;
    // Each result is on the devices the branches' yielded values are on
    // (where they differ, the walk counts it on each after the op and
    // frees it on each: mergeExits).
    for (Value result : op.getResults())
      bytes.deviceOf.erase(result);
    SmallVector<Exit> exits;
    for (Region &region : op.getRegions()) {
      if (region.empty())
        continue;
      if (!region.hasOneBlock())
        return op.emitRemark() << "peak live bytes unknown: '" << op.getName()
                               << "' has several blocks";
      if (largest) {
        bytes.total = before.total;
        bytes.devices = before.devices;
      }
      if (failed(walkBlock(region.front())))
        return failure();
      addYieldedDevices(op, region);
      exits.push_back(exitOf(
          op.getResults(), region.front().getTerminator()->getOperands(), &op));
      // (`largest` holds the most any region before left live.)
      int64_t live = bytes.total.live;
      if (!largest || live > largest->total.live)
        largerRegion[&op] = &region;
      else if (live == largest->total.live)
        largerRegion[&op] = nullptr;
      if (largest)
        takeLarger(*largest, snapshot());
      largest = snapshot();
    }
    mergeExits(exits, op.getResults(), &op);
    return success();
  }

  // One way out of a region op: the live bytes then and, for each of the
  // op's buffer results, the devices and size of the value it holds
  // (nothing for other results).
  struct Exit {
    Snapshot live;
    SmallVector<Devices> devices;
    SmallVector<std::optional<int64_t>> sizes;
  };

  // The owned flag reference counting frees `result`, a region op's
  // result, under: an i1 result of the same op its dealloca is conditional
  // on (directly, or and-ed with another). Null if none.
  static Value flagResultOf(Value result) {
    for (Operation *user : result.getUsers())
      if (auto dealloca = dyn_cast<ResourceDeallocaOp>(user))
        for (Value candidate : carried::conditionFlags(dealloca))
          if (candidate.getDefiningOp() == result.getDefiningOp())
            return candidate;
    return {};
  }

  // Whether region op result `result` only ever holds a buffer another
  // value owns: reference counting frees it nowhere (no dealloca, under a
  // flag or not) and passes it into no other position but beside an owned
  // flag known clear (lent there too; else a member might be freed instead).
  bool lentOnly(Value result) {
    if (!isa<ResourceType>(result.getType()))
      return false;
    return llvm::all_of(result.getUses(), [&](OpOperand &use) {
      Operation *user = use.getOwner();
      if (isa<ResourceDeallocaOp>(user))
        return false;
      if (!isa<scf::YieldOp, scf::ConditionOp>(user) &&
          !isStructuredRegionOp(user))
        return true;
      Value flag = carried::flagPassedWith(use);
      return flag && conditionValue(flag) == std::optional<bool>(false);
    });
  }

  // The owned flag of each of `results` on one way out of their op, as
  // `flagOf` gives it (none for a result without one, or where unknown).
  SmallVector<std::optional<bool>>
  exitFlags(ValueRange results,
            function_ref<std::optional<bool>(Value)> flagOf) {
    SmallVector<std::optional<bool>> owned;
    for (Value result : results) {
      Value flag =
          isa<ResourceType>(result.getType()) ? flagResultOf(result) : Value();
      owned.push_back(flag ? flagOf(flag) : std::nullopt);
    }
    return owned;
  }

  // Where a flagged result is owned on some ways out of a loop and not on
  // others (its initial value lent, what the iterations make owned): on a
  // way out where it is not, the result's value is still its owner's, so
  // that way holds no buffer of the result's (mergeExits), and the result's
  // free counts as freeing, as it does where it holds one. Where the way
  // the walk leaves by (the last) is one where it is not (an initial value
  // owned, the iterations' lent: they freed it), the buffer an owned way
  // holds is counted live from there until that free: an upper bound, said
  // in a remark.
  void dropLentExits(MutableArrayRef<Exit> exits,
                     ArrayRef<SmallVector<std::optional<bool>>> owned,
                     ValueRange results) {
    for (auto [i, result] : llvm::enumerate(results)) {
      if (llvm::none_of(owned, [&](const auto &flags) {
            return flags[i] == std::optional<bool>(true);
          }))
        continue;
      Devices ownedOn;
      std::optional<int64_t> size;
      for (auto [exit, flags] : llvm::zip_equal(exits, owned)) {
        if (flags[i] == std::optional<bool>(false)) {
          exit.devices[i].clear();
        } else if (flags[i] && exit.sizes[i]) {
          addDevices(ownedOn, exit.devices[i]);
          size = std::max(size.value_or(0), *exit.sizes[i]);
        }
      }
      flags[flagResultOf(result)] = true;
      if (owned.back()[i] != std::optional<bool>(false) || !size ||
          ownedOn.empty())
        continue;
      bytes.add(result, ownedOn, *size, /*input=*/false);
      Operation *op = result.getDefiningOp();
      if (boundRemarked.insert(op).second)
        op->emitRemark() << "peak live bytes are an upper bound after this "
                            "loop: its result is owned where it runs no "
                            "iteration and lent where it runs some, and the "
                            "walk counts the owned buffer on both until its "
                            "free";
    }
  }

  Exit exitOf(ValueRange results, ValueRange values, Operation *op) {
    Exit exit{snapshot(), {}, {}};
    for (auto [result, value] : llvm::zip_equal(results, values)) {
      bool buffer = isa<ResourceType>(result.getType());
      exit.devices.push_back(buffer ? deviceOf(value, op) : Devices());
      exit.sizes.push_back(buffer ? evaluator.bufferSize(value) : 0);
    }
    return exit;
  }

  // After `takeLarger` of `exits` (each device's larger count), where a
  // result of the op may be on another device than an exit's value
  // (bytes.deviceOf of each result is already the union): the larger of
  // each count is not enough, as a free of the result frees it on each of
  // its devices, some other buffer being live there on the way out where
  // the result is not. Each device then counts the largest of the exits'
  // live bytes without the results, plus each result that may be on it.
  // Where a size is not known the larger counts stay. A result that only
  // ever holds a buffer another owns (lentOnly) is that owner's to count.
  void mergeExits(ArrayRef<Exit> exits, ValueRange results, Operation *op) {
    SmallVector<std::optional<int64_t>> sizes;
    SmallVector<bool> counted;
    bool moves = false;
    for (auto [i, result] : llvm::enumerate(results)) {
      counted.push_back(isa<ResourceType>(result.getType()) &&
                        !lentOnly(result));
      if (!counted.back()) {
        sizes.push_back(0);
        continue;
      }
      const Devices &devices = bytes.deviceOf[result];
      for (const Exit &exit : exits)
        moves |= !sameDevices(exit.devices[i], devices);
      sizes.push_back(evaluator.bufferSize(result));
    }
    if (!moves)
      return;
    auto known = [](ArrayRef<std::optional<int64_t>> sizes) {
      return llvm::all_of(sizes, [](auto size) { return size.has_value(); });
    };
    if (!known(sizes) ||
        !llvm::all_of(exits, [&](const Exit &e) { return known(e.sizes); }))
      return;
    for (auto &[name, live] : bytes.devices) {
      std::optional<int64_t> without;
      for (const Exit &exit : exits) {
        int64_t count = exit.live.devices.lookup(name).live;
        for (auto [isCounted, devices, size] :
             llvm::zip_equal(counted, exit.devices, exit.sizes))
          if (isCounted && llvm::is_contained(devices, name))
            count -= *size;
        without = std::max(without.value_or(count), count);
      }
      live.live = *without;
      for (auto [isCounted, result, size] :
           llvm::zip_equal(counted, results, sizes))
        if (isCounted && llvm::is_contained(bytes.deviceOf[result], name))
          live.live += *size;
    }
  }

  // Adds to the devices of each buffer branch region op `op` results in
  // those of the value `region` (just walked) yields there.
  void addYieldedDevices(Operation &op, Region &region) {
    Operation *terminator = region.front().getTerminator();
    for (auto [result, yielded] :
         llvm::zip_equal(op.getResults(), terminator->getOperands()))
      if (isa<ResourceType>(result.getType()))
        addDevices(bytes.deviceOf[result], deviceOf(yielded, &op));
  }

  // The devices a resource is on: where it was made, following values
  // carried through regions back to the value passed in.
  // The nearest name on the way to its root that the walk knows the devices
  // of wins: a loop's result may be on another device than its initial
  // value (carryToOtherDevices), a branch region op's result on those of
  // every branch (addYieldedDevices).
  Devices deviceOf(Value resource, Operation *freeing) {
    Devices devices = knownDevices(resource);
    if (devices.empty())
      devices.push_back(bytes.placement(freeing));
    return devices;
  }

  Devices knownDevices(Value resource) {
    for (Value value = resource; value; value = Ownership::sourceOf(value)) {
      auto it = bytes.deviceOf.find(value);
      if (it != bytes.deviceOf.end())
        return it->second;
    }
    return {};
  }

  LogicalResult walkOp(Operation &op) {
    if (isStructuredRegionOp(&op))
      return walkRegionOp(op);
    ownership.visit(op);
    if (auto importOp = dyn_cast<TensorImportOp>(op)) {
      FailureOr<int64_t> size =
          sizeOf(&op, importOp.getResultSize(), evaluator);
      if (failed(size))
        return failure();
      // A result of a call to a function of the module: memory that callee
      // allocated, on the device it allocated it on (on each where the
      // callee's walk does not know which), now the caller's. Otherwise the
      // host placed the input, not the program: on the first device.
      auto call = importOp.getSource().getDefiningOp<func::CallOp>();
      bool calleeResult = call != nullptr;
      Devices devices = {bytes.defaultDevice};
      if (calleeResult) {
        const DeviceLiveBytes *inCallee = calleeBytes(call);
        unsigned index = cast<OpResult>(importOp.getSource()).getResultNumber();
        devices = inCallee && index < inCallee->resultDevices.size()
                      ? inCallee->resultDevices[index]
                      : Devices{bytes.placement(&op)};
      }
      bytes.add(importOp.getResult(), devices, *size,
                /*input=*/!calleeResult);
      // Consumed: a callee's result, or an argument the host handed over
      // (claimed where it entered, so the program is its only owner).
      if (importOp.getConsume())
        ownership.own(importOp.getResult());
    } else if (auto call = dyn_cast<func::CallOp>(op)) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (!callee || callee.isDeclaration())
        return success();
      const DeviceLiveBytes *inCallee = calleeBytes(call);
      if (!inCallee)
        return call.emitRemark() << "peak live bytes unknown: the peak of '"
                                 << call.getCallee() << "' is not known";
      addCallPeak(bytes, *inCallee);
    } else if (auto alloca = dyn_cast<ResourceAllocaOp>(op)) {
      FailureOr<int64_t> size = sizeOf(&op, alloca.getStorageSize(), evaluator);
      if (failed(size))
        return failure();
      bytes.add(alloca.getResult(), allocatingDevice(alloca, func, uses, bytes),
                *size, /*input=*/false);
      ownership.own(alloca.getResult());
    } else if (auto call = dyn_cast<CmdCallOp>(op)) {
      for (auto [i, size] : llvm::enumerate(call.getResultSizes())) {
        if (call.getTiedOperand(i))
          return success();
        FailureOr<int64_t> resultBytes = sizeOf(&op, size, evaluator);
        if (failed(resultBytes))
          return failure();
        bytes.add(call.getResult(i), bytes.placement(&op), *resultBytes,
                  /*input=*/false);
        ownership.own(call.getResult(i));
      }
    } else if (auto dealloca = dyn_cast<ResourceDeallocaOp>(op)) {
      if (Value condition = dealloca.getCondition()) {
        std::optional<bool> frees = conditionValue(condition);
        if (!frees && !unknownCondition) {
          unknownCondition = true;
          dealloca.emitRemark()
              << "peak live bytes are an upper bound: the walk cannot tell "
                 "whether this dealloca frees (its condition depends on a "
                 "branch it cannot evaluate), and counts it as not freeing";
        }
        if (!frees.value_or(false))
          return success();
      }
      FailureOr<int64_t> size =
          sizeOf(&op, dealloca.getOperandSize(), evaluator);
      if (failed(size))
        return failure();
      bytes.remove(deviceOf(dealloca.getOperand(), &op), *size);
    } else if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (Value view : ret.getOperands()) {
        auto exportOp = view.getDefiningOp<TensorExportOp>();
        Devices devices =
            exportOp ? knownDevices(exportOp.getSource()) : Devices();
        if (devices.empty())
          devices.push_back(bytes.defaultDevice);
        bytes.resultDevices.push_back(devices);
      }
    }
    return success();
  }

  func::FuncOp func;
  SizeEvaluator &evaluator;
  DeviceLiveBytes &bytes;
  const CalleeExcess &calleeBytes;
  const ModuleDeviceUses &uses;
  Ownership ownership;
  llvm::SmallPtrSet<Operation *, 4> boundRemarked;
  // The owned flags known where the walk is (see conditionValue).
  llvm::DenseMap<Value, bool> flags;
  bool unknownCondition = false;
  bool followedLarger = false;
  llvm::SmallPtrSet<Operation *, 2> upperBoundLoops;
  // The ways the enclosing scf.whiles' conditions take in the walk of
  // their before regions, innermost last: (condition, goes on).
  SmallVector<std::pair<Value, bool>> ways;
  // For each branch region op walked with no region known to run, the one
  // that left the most live (null where two tie).
  llvm::DenseMap<Operation *, Region *> largerRegion;
};

// One entry of input-shapes: "3x5" -> shape {3, 5}; "" (a rank-0 tensor)
// -> shape {}; "5" -> shape {5} or value 5; "-2" -> value -2.
FailureOr<ArgInput> parseInput(StringRef text) {
  ArgInput input;
  input.text = text.str();
  int64_t value;
  if (!text.getAsInteger(10, value)) {
    input.value = value;
    if (value >= 0)
      input.shape = SmallVector<int64_t>{value};
    return input;
  }
  SmallVector<int64_t> shape;
  SmallVector<StringRef> parts;
  if (!text.empty())
    text.split(parts, 'x');
  for (StringRef part : parts) {
    int64_t dim;
    if (part.getAsInteger(10, dim) || dim < 0)
      return failure();
    shape.push_back(dim);
  }
  input.shape = std::move(shape);
  return input;
}

// Whether `func` holds buffers while it runs: it has stream ops, or calls
// (through any chain of calls) a function of the module that has.
bool holdsBuffers(func::FuncOp func) {
  llvm::SmallPtrSet<Operation *, 8> seen;
  SmallVector<func::FuncOp> pending = {func};
  while (!pending.empty()) {
    func::FuncOp next = pending.pop_back_val();
    if (!seen.insert(next).second)
      continue;
    if (containsStreamOps(next))
      return true;
    next.walk([&](func::CallOp call) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (callee && !callee.isDeclaration())
        pending.push_back(callee);
    });
  }
  return false;
}

// One function walked with given argument shapes and values.
struct FunctionWalk {
  ArgInputs args;
  std::unique_ptr<SizeEvaluator> evaluator;
  std::optional<DeviceLiveBytes> bytes; // none: unknown (a remark says why)
};

// Walks functions on demand, callees before callers, once per function and
// argument shapes. A function met again while it is being walked is
// recursion: unknown.
class ModuleWalker {
public:
  ModuleWalker(ArrayRef<StringRef> deviceNames, const ModuleDeviceUses &uses)
      : deviceNames(deviceNames), uses(uses) {}

  const FunctionWalk *walkFunction(func::FuncOp func, const ArgInputs &args) {
    std::string key;
    llvm::raw_string_ostream os(key);
    for (const ArgInput &arg : args) {
      if (arg.shape) {
        os << "[";
        for (int64_t dim : *arg.shape)
          os << dim << "x";
      }
      if (arg.value)
        os << "=" << *arg.value;
      if (arg.text)
        os << "'" << *arg.text; // (remarks quote it)
      os << ",";
    }
    if (walking.contains(func))
      return nullptr; // recursion
    auto [it, inserted] = walks.try_emplace({func, key});
    FunctionWalk &walk = it->second;
    if (!inserted)
      return &walk;
    walk.args = args;
    walk.evaluator = std::make_unique<SizeEvaluator>(
        walk.args,
        [this, &walk](func::CallOp call, unsigned result, int64_t dim) {
          return callResultDim(call, walk, result, dim);
        });
    DeviceLiveBytes bytes;
    bytes.defaultDevice =
        deviceNames.empty() ? StringRef() : deviceNames.front();
    // Every declared device is reported, in order, even when unused.
    for (StringRef name : deviceNames)
      bytes.devices[name];
    walking.insert(func);
    CalleeExcess calleeBytesOf = [this, &walk](func::CallOp call) {
      const FunctionWalk *callee = calleeWalk(call, walk);
      return callee && callee->bytes ? &*callee->bytes : nullptr;
    };
    // Scalar code (which may branch) holds no buffers: nothing to walk.
    if (!holdsBuffers(func))
      walk.bytes = std::move(bytes);
    else if (!func.getBody().hasOneBlock())
      func.emitRemark() << "peak live bytes unknown: '" << func.getSymName()
                        << "' has several blocks and calls functions that "
                           "hold buffers";
    else if (succeeded(
                 BlockWalker(func, *walk.evaluator, bytes, calleeBytesOf, uses)
                     .walkBlock(func.getBody().front())))
      walk.bytes = std::move(bytes);
    walking.erase(func);
    return &walk;
  }

private:
  // The callee's walk with the shapes of the views `call` passes (each a
  // tensor the caller exports) and the values of the integer scalars it
  // passes, where the caller can evaluate them.
  const FunctionWalk *calleeWalk(func::CallOp call, FunctionWalk &caller) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (!callee || callee.isDeclaration())
      return nullptr;
    ArgInputs args;
    for (Value operand : call.getOperands()) {
      ArgInput &arg = args.emplace_back();
      if (operand.getType().isIntOrIndex())
        arg.value = caller.evaluator->evaluate(operand);
      else
        arg.shape = viewShape(operand, *caller.evaluator);
    }
    return walkFunction(callee, args);
  }

  // Dimension `dim` of the view the callee returns as `result`: the shape of
  // the tensor it exports there, evaluated in the callee.
  std::optional<int64_t> callResultDim(func::CallOp call, FunctionWalk &caller,
                                       unsigned result, int64_t dim) {
    const FunctionWalk *walk = calleeWalk(call, caller);
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (!walk || !callee.getBody().hasOneBlock())
      return std::nullopt;
    auto ret = cast<func::ReturnOp>(callee.getBody().front().getTerminator());
    std::optional<SmallVector<int64_t>> shape =
        viewShape(ret.getOperand(result), *walk->evaluator);
    if (!shape || dim >= static_cast<int64_t>(shape->size()))
      return std::nullopt;
    return (*shape)[dim];
  }

  // The shape of `view` when it is a stream.tensor.export whose dimensions
  // `evaluator` can evaluate; none otherwise.
  static std::optional<SmallVector<int64_t>>
  viewShape(Value view, SizeEvaluator &evaluator) {
    auto exportOp = view.getDefiningOp<TensorExportOp>();
    auto type = exportOp
                    ? dyn_cast<RankedTensorType>(exportOp.getSourceEncoding())
                    : nullptr;
    if (!type)
      return std::nullopt;
    SmallVector<int64_t> shape;
    auto dynamicDims = exportOp.getSourceEncodingDims().begin();
    for (int64_t dim : type.getShape()) {
      if (!ShapedType::isDynamic(dim)) {
        shape.push_back(dim);
        continue;
      }
      std::optional<int64_t> value = evaluator.evaluate(*dynamicDims++);
      if (!value)
        return std::nullopt;
      shape.push_back(*value);
    }
    return shape;
  }

  ArrayRef<StringRef> deviceNames;
  const ModuleDeviceUses &uses;
  std::map<std::pair<Operation *, std::string>, FunctionWalk> walks;
  llvm::SmallPtrSet<Operation *, 4> walking;
};

struct EstimatePeakMemoryPass
    : impl::EstimatePeakMemoryPassBase<EstimatePeakMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    ArgInputs common;
    std::map<std::string, ArgInputs, std::less<>> perFunction;
    if (failed(parseInputShapes(common, perFunction)))
      return signalPassFailure();
    SmallVector<StringRef> deviceNames;
    for (auto device : getOperation().getOps<DeviceDeclarationOpInterface>())
      deviceNames.push_back(SymbolTable::getSymbolName(device).getValue());
    ModuleDeviceUses uses(getOperation());
    ModuleWalker walker(deviceNames, uses);
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isDeclaration() || !func.getBody().hasOneBlock())
        continue;
      auto named = perFunction.find(func.getSymName());
      const FunctionWalk *walked = walker.walkFunction(
          func, named == perFunction.end() ? common : named->second);
      if (!walked || !walked->bytes)
        continue;
      const DeviceLiveBytes *bytes = &*walked->bytes;
      auto report = [&](InFlightDiagnostic diag, const LiveBytes &live) {
        diag << live.peak << " (inputs " << live.inputs << ", allocated "
             << live.allocated << ")";
      };
      report(func.emitRemark() << "peak live bytes: ", bytes->total);
      // Each device has its own allocator and peak: with several, say each.
      if (deviceNames.size() > 1)
        for (auto &[name, live] : bytes->devices)
          report(func.emitRemark() << "peak live bytes on @" << name << ": ",
                 live);
    }
    markAllAnalysesPreserved();
  }

  // input-shapes: entries before any `@NAME:` are for every function; an
  // entry `@NAME:ENTRY` starts function NAME's own list (ENTRY its first
  // entry), which the entries after it continue up to the next `@`.
  LogicalResult
  parseInputShapes(ArgInputs &common,
                   std::map<std::string, ArgInputs, std::less<>> &perFunction) {
    ModuleOp module = getOperation();
    ArgInputs *list = &common;
    for (const std::string &text : inputShapes) {
      StringRef entry = text;
      if (entry.consume_front("@")) {
        auto [name, rest] = entry.split(':');
        if (name.empty() || name.size() == entry.size())
          return module.emitError()
                 << "input-shapes: '" << text
                 << "' names no function and entry (write @NAME:ENTRY, like "
                    "@main:3x5)";
        auto func = module.lookupSymbol<func::FuncOp>(name);
        if (!func || func.isDeclaration())
          return module.emitError() << "input-shapes: '" << text
                                    << "' names no function with a body of "
                                       "the module";
        auto [it, inserted] = perFunction.try_emplace(name.str());
        if (!inserted)
          return module.emitError() << "input-shapes: '@" << name
                                    << "' is named twice; give each "
                                       "function's entries once, in order";
        list = &it->second;
        entry = rest;
      }
      FailureOr<ArgInput> input = parseInput(entry);
      if (failed(input))
        return module.emitError()
               << "input-shapes: '" << entry
               << "' is neither a tensor's shape (like 3x5) nor an integer "
                  "scalar's value (like -2)";
      list->push_back(std::move(*input));
    }
    return success();
  }
};

} // namespace
} // namespace ferry::stream
