// Lowers the stream cmd phase to the hal dialect: resources become buffers,
// timepoints become fences, and every cmd op becomes one queue operation that
// waits on its await fence and signals a fresh one. An execution region
// becomes its commands in order on one device, waiting once on the region's
// await fence and signalling the region's fence last. See Passes.td.
//
// Assumes the cmd phase produced by stream-schedule-allocation: single-block
// functions whose resources are all defined before use. Structured control
// flow (scf.for, scf.while, and the branch region ops scf.if,
// scf.index_switch, scf.execute_region) stays: it is lowered
// through, its resources becoming !hal.buffer and its timepoints !hal.fence
// in its operands, block arguments, yields and results. An already reached
// timepoint (stream.timepoint.immediate) is a join of no fences: a fence
// the VM creates signalled.

#include "compiler/Dialect/HAL/Analysis/DeviceTopology.h"
#include "compiler/Dialect/HAL/Conversion/Passes.h"
#include "compiler/Dialect/Stream/Analysis/DeviceUses.h"
#include "compiler/Dialect/Stream/Analysis/ResourceUsage.h"
#include "compiler/Dialect/Stream/IR/StreamDialect.h"
#include "compiler/Utils/ElementTypes.h"
#include "runtime/drivers/builtin_backends.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"

namespace ferry::hal {
#define GEN_PASS_DEF_CONVERTSTREAMTOHALPASS
#include "compiler/Dialect/HAL/Conversion/Passes.h.inc"
} // namespace ferry::hal

using namespace mlir;

namespace ferry::hal {
namespace {

constexpr StringLiteral kDefaultDeviceName = "__device_0";

// The device all work runs on: the module's first declared device, or a new
// local one when it declares none.
DeviceGlobalOp getOrCreateDefaultDevice(ModuleOp module) {
  auto devices = module.getOps<DeviceGlobalOp>();
  if (!devices.empty())
    return *devices.begin();
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  auto target =
      DeviceTargetAttr::get(module.getContext(), drivers::kLocalBackendName,
                            builder.getDictionaryAttr({}));
  return DeviceGlobalOp::create(builder, module.getLoc(), kDefaultDeviceName,
                                target);
}

// Whether external function `callee` (still with its tensor signature) has
// a tensor result tied to no operand: a new result the runtime allocates.
bool hasNewResults(func::FuncOp callee) {
  auto ties =
      callee->getAttrOfType<DenseI64ArrayAttr>(stream::kTiedOperandsAttr);
  for (auto [i, type] : llvm::enumerate(callee.getResultTypes()))
    if (isa<TensorType>(type) && (!ties || ties[i] < 0))
      return true;
  return false;
}

bool isStreamValue(Value value) {
  return isa<stream::StreamDialect>(value.getType().getDialect());
}

// Structured control flow the lowering goes through: resources and
// timepoints may be carried by these and their terminators.
bool isRegionOp(Operation *op) { return stream::isStructuredRegionOp(op); }

// The lowering walks the function's block in order, and the bodies of the
// region ops above, and maps each resource and timepoint to the buffer or
// fence of the stream op that defined it (or of the block argument or
// result a region op carries it in). So stream ops must sit in those blocks
// (or in an execution region) and their values must flow between stream
// ops and those region ops only: one that went through another op would
// reach a queue operation as a value nothing lowered.
LogicalResult checkFlatStreamCode(func::FuncOp func) {
  Block *body = &func.getBody().front();
  // The function's block, or a body of a region op in such a block.
  std::function<bool(Operation *)> inLoweredBlock = [&](Operation *op) {
    if (op->getBlock() == body)
      return true;
    Operation *parent = op->getParentOp();
    return isRegionOp(parent) && inLoweredBlock(parent);
  };
  // Pre-order: an op yielding a resource is reported, not its yield.
  WalkResult walk = func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == func)
      return WalkResult::advance();
    Operation *parent = op->getParentOp();
    if (isa<stream::StreamDialect>(op->getDialect())) {
      if (inLoweredBlock(op) ||
          isa<stream::StreamDialect>(parent->getDialect()))
        return WalkResult::advance();
      op->emitError() << "'" << op->getName() << "' inside '"
                      << parent->getName()
                      << "' cannot be lowered to hal: only stream code of "
                         "the function's block, and of the bodies of "
                         "scf.for, scf.while, scf.if, scf.index_switch and "
                         "scf.execute_region ops lowered with it, can";
      return WalkResult::interrupt();
    }
    // The function's return is judged with its signature.
    if (op->getBlock() == body && op->hasTrait<OpTrait::IsTerminator>())
      return WalkResult::advance();
    if (isRegionOp(op) && inLoweredBlock(op))
      return WalkResult::advance();
    if (isa<scf::YieldOp, scf::ConditionOp>(op) && isRegionOp(parent) &&
        inLoweredBlock(parent))
      return WalkResult::advance();
    if (llvm::any_of(op->getOperands(), isStreamValue) ||
        llvm::any_of(op->getResults(), isStreamValue)) {
      op->emitError() << "a stream resource or timepoint flows through '"
                      << op->getName()
                      << "', which cannot be lowered to hal: they may only "
                         "flow between stream ops and scf.for, scf.while, "
                         "scf.if, scf.index_switch and scf.execute_region";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

// Whether `pred` holds for an op using `resource` or a value it is handed
// on to (stream::getStorageUsers).
bool anyUserOfAlias(Value resource, function_ref<bool(Operation *)> pred) {
  return llvm::any_of(stream::getStorageUsers(resource), pred);
}

// The arguments of each function whose buffer the host reads an element
// of (stream.resource.load), itself or in a function of the module it
// passes the view to. Their callers allocate what they pass there
// host-mappable, as they do for their own loads, so the read maps the
// buffer instead of staging a copy (which the liveness walk cannot see).
class HostLoadedArguments {
public:
  explicit HostLoadedArguments(ModuleOp module) : symbols(module) {
    // Until nothing changes: a function's argument may reach a load only
    // through calls to functions after it.
    for (bool changed = true; changed;) {
      changed = false;
      for (auto func : module.getOps<func::FuncOp>()) {
        if (func.isDeclaration())
          continue;
        for (BlockArgument arg : func.getArguments())
          if (!loaded.contains({func, arg.getArgNumber()}) &&
              llvm::any_of(arg.getUsers(), [&](Operation *user) {
                auto import = dyn_cast<stream::TensorImportOp>(user);
                return import && isLoaded(import.getResult());
              })) {
            loaded.insert({func, arg.getArgNumber()});
            changed = true;
          }
      }
    }
  }

  // Whether the host reads an element of `resource`, here or, through a
  // view of it passed to a function of the module, there.
  bool isLoaded(Value resource) const {
    return anyUserOfAlias(resource, [&](Operation *user) {
      if (isa<stream::ResourceLoadOp>(user))
        return true;
      auto exportOp = dyn_cast<stream::TensorExportOp>(user);
      if (!exportOp)
        return false;
      return llvm::any_of(exportOp.getResult().getUses(), [&](OpOperand &use) {
        auto call = dyn_cast<func::CallOp>(use.getOwner());
        auto callee =
            call ? symbols.lookup<func::FuncOp>(call.getCallee()) : nullptr;
        return callee && loaded.contains({callee, use.getOperandNumber()});
      });
    });
  }

private:
  SymbolTable symbols;
  llvm::DenseSet<std::pair<Operation *, unsigned>> loaded;
};

class FunctionLowering {
public:
  FunctionLowering(func::FuncOp func, DeviceGlobalOp device,
                   const DeviceTopology &topology,
                   const stream::ModuleDeviceUses &moduleUses,
                   const HostLoadedArguments &hostLoads, bool mapAllExternal)
      : func(func), deviceGlobal(device), topology(topology),
        moduleUses(moduleUses), hostLoads(hostLoads),
        mapAllExternal(mapAllExternal), builder(func.getContext()) {}

  LogicalResult run() {
    // Functions without stream ops (scalar code, which may branch) need no
    // lowering. A func.call between functions of the module is no stream op
    // either: it passes buffer views and scalars and stays as it is.
    FailureOr<bool> hasWork =
        stream::hasStraightLineStreamCode(func, "lowering to hal");
    if (failed(hasWork) || !*hasWork)
      return hasWork;
    auto isStreamType = [](Type type) {
      return isa<stream::StreamDialect>(type.getDialect());
    };
    if (llvm::any_of(func.getArgumentTypes(), isStreamType) ||
        llvm::any_of(func.getResultTypes(), isStreamType))
      return func.emitError()
             << "function '" << func.getSymName()
             << "' passes stream resources or timepoints across its "
                "boundary; only buffer views and scalars may cross it";
    if (failed(checkFlatStreamCode(func)))
      return failure();
    if (failed(lowerBlock(func.getBody().front())))
      return failure();
    for (Operation *op : llvm::reverse(deadOps)) {
      op->dropAllUses();
      op->erase();
    }
    return success();
  }

private:
  LogicalResult lowerBlock(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (auto call = dyn_cast<func::CallOp>(op)) {
        builder.setInsertionPoint(&op);
        if (failed(lowerViewCall(call)))
          return failure();
        continue;
      }
      if (isRegionOp(&op) || isa<scf::YieldOp, scf::ConditionOp>(op)) {
        if (failed(lowerThrough(&op)))
          return failure();
        continue;
      }
      if (!isa<stream::StreamDialect>(op.getDialect()))
        continue;
      builder.setInsertionPoint(&op);
      if (failed(lower(&op)))
        return failure();
      deadOps.push_back(&op);
    }
    return success();
  }

  // The hal value standing for stream value `value`.
  Value lowered(Value value) {
    return isa<stream::ResourceType>(value.getType()) ? buffers.lookup(value)
                                                      : fences.lookup(value);
  }

  // A stream value carried by a region op (block argument or result) is
  // retyped in place and stands for itself.
  void retype(Value value) {
    MLIRContext *context = func.getContext();
    if (isa<stream::ResourceType>(value.getType())) {
      value.setType(BufferType::get(context));
      buffers[value] = value;
    } else if (isa<stream::TimepointType>(value.getType())) {
      value.setType(FenceType::get(context));
      fences[value] = value;
    }
  }

  // A region op or its terminator: stream operands take their lowered
  // values; carried block arguments and results are retyped. Buffers a body
  // imports into another device stay in that body.
  LogicalResult lowerThrough(Operation *op) {
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isStreamValue(operand.get()))
        continue;
      Value value = lowered(operand.get());
      if (!value)
        return op->emitError() << "operand " << operand.getOperandNumber()
                               << " is a stream value nothing lowered to hal";
      operand.set(value);
    }
    for (Region &region : op->getRegions()) {
      for (Block &block : region) {
        for (BlockArgument arg : block.getArguments())
          retype(arg);
        auto savedImports = importedBuffers;
        LogicalResult result = lowerBlock(block);
        importedBuffers = std::move(savedImports);
        if (failed(result))
          return failure();
      }
    }
    for (Value result : op->getResults())
      retype(result);
    return success();
  }
  LogicalResult lower(Operation *op) {
    if (auto sizeOf = dyn_cast<stream::TensorSizeOfOp>(op))
      return lowerSizeOf(sizeOf);
    if (auto importOp = dyn_cast<stream::TensorImportOp>(op))
      return lowerImport(importOp);
    if (auto exportOp = dyn_cast<stream::TensorExportOp>(op))
      return lowerExport(exportOp);
    if (auto alloca = dyn_cast<stream::ResourceAllocaOp>(op))
      return lowerAlloca(alloca);
    if (auto dealloca = dyn_cast<stream::ResourceDeallocaOp>(op))
      return lowerDealloca(dealloca);
    if (auto constant = dyn_cast<stream::ResourceConstantOp>(op))
      return lowerConstant(constant);
    if (auto dispatch = dyn_cast<stream::CmdDispatchOp>(op))
      return lowerDispatch(dispatch, fenceFor(dispatch.getAwaitTimepoint()));
    if (auto dispatch = dyn_cast<stream::CmdDispatchEntryOp>(op))
      return lowerDispatchEntry(dispatch,
                                fenceFor(dispatch.getAwaitTimepoint()));
    if (auto fill = dyn_cast<stream::CmdFillOp>(op))
      return lowerFill(fill, fenceFor(fill.getAwaitTimepoint()));
    if (auto copy = dyn_cast<stream::CmdCopyOp>(op))
      return lowerCopy(copy, fenceFor(copy.getAwaitTimepoint()));
    if (auto execute = dyn_cast<stream::CmdExecuteOp>(op))
      return lowerExecute(execute);
    if (auto call = dyn_cast<stream::CmdCallOp>(op))
      return lowerCall(call);
    if (auto retain = dyn_cast<stream::ResourceRetainOp>(op))
      return lowerRetain(retain);
    if (auto release = dyn_cast<stream::ResourceReleaseOp>(op))
      return lowerRelease(release);
    if (auto isTerminal = dyn_cast<stream::ResourceIsTerminalOp>(op))
      return lowerIsTerminal(isTerminal);
    if (auto joinOp = dyn_cast<stream::TimepointJoinOp>(op))
      return lowerJoin(joinOp);
    if (auto immediate = dyn_cast<stream::TimepointImmediateOp>(op)) {
      // Already reached: a join of nothing is created signalled.
      fences[immediate.getResultTimepoint()] =
          FenceJoinOp::create(builder, op->getLoc(),
                              FenceType::get(func.getContext()), ValueRange{});
      return success();
    }
    if (auto await = dyn_cast<stream::TimepointAwaitOp>(op))
      return lowerAwait(await);
    if (auto load = dyn_cast<stream::ResourceLoadOp>(op))
      return lowerLoad(load);
    if (auto size = dyn_cast<stream::ResourceSizeOp>(op))
      return lowerSize(size);
    return op->emitError() << "'" << op->getName()
                           << "' cannot be lowered to hal; run "
                              "stream-schedule-allocation first";
  }

  // The device `op` runs on: its affinity's, else the default device.
  StringRef deviceSymbolOf(Operation *op) {
    if (DeviceAffinityAttr affinity = getDeviceAffinity(op))
      return affinity.getDevice().getValue();
    return deviceGlobal.getSymName();
  }

  Value device(StringRef symbol) {
    Value &cached = devices[symbol];
    if (!cached) {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(&func.getBody().front());
      cached = DeviceGetOp::create(builder, func.getLoc(),
                                   DeviceType::get(func.getContext()), symbol);
    }
    return cached;
  }
  Value deviceOf(Operation *op) { return device(deviceSymbolOf(op)); }

  Value newFence(Location loc, Value onDevice) {
    return FenceCreateOp::create(builder, loc,
                                 FenceType::get(func.getContext()), onDevice);
  }

  Value fenceFor(Value timepoint) {
    return timepoint ? fences.lookup(timepoint) : Value();
  }

  Value index(Location loc, int64_t value) {
    return arith::ConstantIndexOp::create(builder, loc, value);
  }

  // Every dimension of `encoding` as an index value.
  SmallVector<Value> shapeOf(Location loc, Type encoding,
                             ValueRange dynamicDims) {
    auto type = cast<RankedTensorType>(encoding);
    SmallVector<Value> shape;
    unsigned next = 0;
    for (int64_t d = 0; d < type.getRank(); ++d)
      shape.push_back(type.isDynamicDim(d) ? dynamicDims[next++]
                                           : index(loc, type.getDimSize(d)));
    return shape;
  }

  LogicalResult lowerSizeOf(stream::TensorSizeOfOp op) {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getEncoding());
    int64_t elementSize =
        elementByteSize(*getRuntimeElementType(type.getElementType()));
    int64_t staticSize = elementSize;
    for (int64_t dim : type.getShape())
      if (!ShapedType::isDynamic(dim))
        staticSize *= dim;
    Value size = index(loc, staticSize);
    for (Value dim : op.getEncodingDims())
      size = arith::MulIOp::create(builder, loc, size, dim);
    op.getResult().replaceAllUsesWith(size);
    return success();
  }

  LogicalResult lowerImport(stream::TensorImportOp op) {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getResultEncoding());
    BufferViewAssertOp::create(builder, loc, op.getSource(),
                               op.getMessageAttr(),
                               shapeOf(loc, type, op.getResultEncodingDims()),
                               TypeAttr::get(type.getElementType()));
    Value buffer = BufferViewBufferOp::create(
        builder, loc, BufferType::get(func.getContext()), op.getSource());
    // An argument the host handed over: the program writes it in place only
    // if the host kept no share (a function of the module hands over results
    // nobody else owns, so those need no check).
    if (op.getConsume() && isa<BlockArgument>(op.getSource()))
      buffer = BufferAllocationClaimOp::create(builder, loc, buffer.getType(),
                                               deviceOf(op), buffer);
    buffers[op.getResult()] = buffer;
    return success();
  }

  LogicalResult lowerExport(stream::TensorExportOp op) {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getSourceEncoding());
    Value view = BufferViewCreateOp::create(
        builder, loc, BufferViewType::get(func.getContext()),
        buffers.lookup(op.getSource()),
        shapeOf(loc, type, op.getSourceEncodingDims()),
        TypeAttr::get(type.getElementType()));
    op.getResult().replaceAllUsesWith(view);
    return success();
  }

  // The devices using `resource` (made by `op`), in program order
  // (stream::ModuleDeviceUses::usingAffinities). Uses without an affinity
  // run on the default device, which counts only once some use names one.
  SmallVector<DeviceAffinityAttr> usingAffinities(Operation *op,
                                                  Value resource) {
    // stream-estimate-peak-memory counts the buffer on the first of these
    // by the same rule (stream::ModuleDeviceUses).
    bool defaultDeviceUse = false;
    llvm::SetVector<DeviceAffinityAttr> affinities;
    for (stream::AffinityAttr affinity :
         moduleUses.usingAffinities(op, resource, func, defaultDeviceUse))
      affinities.insert(cast<DeviceAffinityAttr>(affinity));
    if (!affinities.empty() && defaultDeviceUse)
      affinities.insert(DeviceAffinityAttr::get(
          FlatSymbolRefAttr::get(deviceGlobal.getSymNameAttr())));
    return affinities.takeVector();
  }

  // The lifetime an allocation is resolved for. A buffer handed to an
  // external function leaves the program's hands (the callee maps it on the
  // host): it is allocated as external, and so is one the function returns
  // (a caller may hand it on to the host). An external resource only passed
  // into functions of the module needs no host mapping unless
  // external-mapping=always: on a discrete device it stays device-local,
  // and an external function that maps it later gets it staged (the VM).
  Lifetime allocationLifetime(Value resource) {
    if (passedToExternalCall(resource) || hostLoads.isLoaded(resource))
      return Lifetime::External;
    Lifetime lifetime = toHALLifetime(
        cast<stream::ResourceType>(resource.getType()).getLifetime());
    if (lifetime == Lifetime::External && !mapAllExternal &&
        !returned(resource))
      return Lifetime::Transient;
    return lifetime;
  }

  // Whether a view of `op`'s buffer is returned by the function.
  static bool returned(Value allocated) {
    return anyUserOfAlias(allocated, [](Operation *user) {
      auto exportOp = dyn_cast<stream::TensorExportOp>(user);
      return exportOp &&
             llvm::any_of(exportOp.getResult().getUsers(),
                          [](Operation *u) { return isa<func::ReturnOp>(u); });
    });
  }

  static bool passedToExternalCall(Value resource) {
    return anyUserOfAlias(
        resource, [](Operation *user) { return isa<stream::CmdCallOp>(user); });
  }

  static Lifetime toHALLifetime(stream::Lifetime lifetime) {
    switch (lifetime) {
    case stream::Lifetime::External:
      return Lifetime::External;
    case stream::Lifetime::Staging:
      return Lifetime::Staging;
    case stream::Lifetime::Variable:
      return Lifetime::Variable;
    case stream::Lifetime::Constant:
      return Lifetime::Constant;
    case stream::Lifetime::Transient:
    case stream::Lifetime::Unknown:
      return Lifetime::Transient;
    }
    return Lifetime::Transient;
  }

  // One resolve_memory_properties per allocation, for every device using
  // it; hal-resolve-topology-queries decides the bits (and, for several
  // devices, the hal.allocator.select that picks the allocating one).
  // Where and how `resource`, which `op` makes, is allocated: the device
  // (the one hal.allocator.select picks among several users), and its
  // memory types and usage.
  struct AllocationPlan {
    Value allocator;
    Value memoryTypes;
    Value bufferUsage;
  };
  AllocationPlan planAllocation(Operation *op, Value resource) {
    Location loc = op->getLoc();
    MLIRContext *context = func.getContext();
    SmallVector<DeviceAffinityAttr> affinities = usingAffinities(op, resource);
    Attribute forAttr;
    if (affinities.size() == 1)
      forAttr = affinities.front();
    else if (affinities.size() > 1)
      forAttr = DeviceOptimalAttr::get(context, affinities);
    auto lifetime = allocationLifetime(resource);
    auto i32 = builder.getI32Type();
    auto resolve = AllocatorResolveMemoryPropertiesOp::create(
        builder, loc, i32, i32, forAttr, LifetimeAttr::get(context, lifetime));

    llvm::SetVector<StringRef> symbols;
    for (DeviceAffinityAttr affinity : affinities)
      symbols.insert(affinity.getDevice().getValue());
    Value allocator;
    if (symbols.size() > 1) {
      SmallVector<Value> candidates;
      for (StringRef symbol : symbols)
        candidates.push_back(device(symbol));
      allocator = AllocatorSelectOp::create(
          builder, loc, DeviceType::get(context), candidates,
          resolve.getMemoryTypes(), resolve.getBufferUsage());
    } else {
      allocator = symbols.empty() ? deviceOf(op) : device(symbols.front());
    }
    return {allocator, resolve.getMemoryTypes(), resolve.getBufferUsage()};
  }

  LogicalResult lowerAlloca(stream::ResourceAllocaOp op) {
    Location loc = op.getLoc();
    MLIRContext *context = func.getContext();
    auto [allocator, memoryTypes, bufferUsage] =
        planAllocation(op, op.getResult());
    Value signal = newFence(loc, allocator);
    Value buffer = DeviceQueueAllocaOp::create(
        builder, loc, BufferType::get(context), allocator,
        fenceFor(op.getAwaitTimepoint()), signal, memoryTypes, bufferUsage,
        op.getStorageSize(), op.getIndeterminate());
    buffers[op.getResult()] = buffer;
    bufferDevices[buffer] = allocator;
    allocatedFences[buffer] = signal;
    fences[op.getResultTimepoint()] = signal;
    return success();
  }

  // The module's copy, as a buffer of the device the constant is placed on
  // (other devices use it as they use any buffer of that device).
  LogicalResult lowerConstant(stream::ResourceConstantOp op) {
    Value onDevice = deviceOf(op);
    Value buffer = DeviceConstantOp::create(builder, op.getLoc(),
                                            BufferType::get(func.getContext()),
                                            onDevice, op.getValue());
    buffers[op.getResult()] = buffer;
    bufferDevices[buffer] = onDevice;
    return success();
  }

  // The device symbols that may have allocated `buffer`: its allocating
  // device, or every candidate of the hal.allocator.select choosing it. A
  // buffer not allocated here (a function argument) may live on any device:
  // the host chose.
  SmallVector<StringRef> allocatingSymbols(Value buffer) {
    Value allocator = bufferDevices.lookup(buffer);
    if (!allocator)
      return SmallVector<StringRef>(topology.deviceSymbols());
    SmallVector<Value> candidates{allocator};
    if (auto select = allocator.getDefiningOp<AllocatorSelectOp>())
      candidates.assign(select.getDevices().begin(), select.getDevices().end());
    SmallVector<StringRef> symbols;
    for (Value candidate : candidates)
      symbols.push_back(candidate.getDefiningOp<DeviceGetOp>().getDevice());
    return symbols;
  }

  // `buffer` as the device `symbol` may use it: the buffer itself when that
  // device allocated it or the topology gives it transparent access to (or
  // unified memory with) every device that may have; otherwise a
  // hal.device.import_buffer, one per buffer and device, that the runtime
  // turns into the buffer itself when the memory turns out to be shared.
  // The import waits for the buffer's allocation: its alloca's fence, or,
  // for a buffer a region op carries (a different allocation per iteration
  // or branch), `wait`, the fence of the queue operation using it, which
  // follows whatever made the buffer.
  Value usableOn(Value buffer, StringRef symbol, Value wait) {
    SmallVector<StringRef> owners = allocatingSymbols(buffer);
    bool shared = llvm::all_of(owners, [&](StringRef owner) {
      if (owner == symbol)
        return true;
      const LinkCapabilities &link = topology.link(symbol, owner);
      return link.transparentAccess == Capability::Yes ||
             link.unifiedMemory == Capability::Yes;
    });
    if (shared)
      return buffer;
    Value &imported = importedBuffers[{buffer, device(symbol)}];
    if (imported)
      return imported;
    // A constant is the module's bytes: each device wraps them itself, with
    // no export (a constant's buffer has none) and no copy.
    if (auto constant = buffer.getDefiningOp<DeviceConstantOp>())
      imported =
          DeviceConstantOp::create(builder, buffer.getLoc(), buffer.getType(),
                                   device(symbol), constant.getValue());
    else
      imported = DeviceImportBufferOp::create(
          builder, buffer.getLoc(), BufferType::get(func.getContext()),
          device(symbol), buffer, allocationFence(buffer, wait));
    return imported;
  }

  Value allocationFence(Value buffer, Value wait) {
    if (Value fence = allocatedFences.lookup(buffer))
      return fence;
    auto arg = dyn_cast<BlockArgument>(buffer);
    bool carried = arg ? arg.getOwner() != &func.getBody().front()
                       : isRegionOp(buffer.getDefiningOp());
    return carried ? wait : Value();
  }

  LogicalResult lowerDealloca(stream::ResourceDeallocaOp op) {
    Location loc = op.getLoc();
    Value buffer = buffers.lookup(op.getOperand());
    // Memory goes back to the device that allocated it.
    Value owner = bufferDevices.lookup(buffer);
    if (!owner)
      owner = deviceOf(op);
    Value signal = newFence(loc, owner);
    DeviceQueueDeallocaOp::create(
        builder, loc, owner, fenceFor(op.getAwaitTimepoint()), signal, buffer,
        op.getCondition(), op.getPreferOrigin());
    fences[op.getResultTimepoint()] = signal;
    return success();
  }

  // `wait`: the fence the queue operation waits on (null: nothing).
  LogicalResult lowerDispatch(stream::CmdDispatchOp op, Value wait) {
    Location loc = op.getLoc();
    StringRef symbol = deviceSymbolOf(op);
    SmallVector<Value> bindings;
    for (Value resource : op.getResourceOperands())
      bindings.push_back(usableOn(buffers.lookup(resource), symbol, wait));
    Value onDevice = deviceOf(op);
    Value signal = newFence(loc, onDevice);
    DeviceQueueDispatchOp::create(builder, loc, onDevice, wait, signal,
                                  op.getKernelAttr(), op.getElementTypeAttr(),
                                  op.getCount(), bindings);
    fences[op.getResultTimepoint()] = signal;
    return success();
  }

  // Each binding is its byte range (a slice read in place, a tile written
  // into part of a resource) or else the whole resource: offset 0, its size
  // as the length the kernel may touch (the runtime checks it against the
  // buffer).
  LogicalResult lowerDispatchEntry(stream::CmdDispatchEntryOp op, Value wait) {
    Location loc = op.getLoc();
    StringRef symbol = deviceSymbolOf(op);
    SmallVector<Value> bindings, offsets(op.getBindingOffsets()),
        lengths(op.getBindingLengths());
    for (Value resource : op.getResourceOperands())
      bindings.push_back(usableOn(buffers.lookup(resource), symbol, wait));
    if (offsets.empty()) {
      offsets.assign(bindings.size(), index(loc, 0));
      lengths.assign(op.getResourceOperandSizes().begin(),
                     op.getResourceOperandSizes().end());
    }
    Value onDevice = deviceOf(op);
    Value signal = newFence(loc, onDevice);
    DeviceQueueDispatchEntryOp::create(
        builder, loc, onDevice, wait, signal, op.getEntryAttr(),
        op.getWorkgroups(), op.getPushConstants(), bindings, offsets, lengths);
    fences[op.getResultTimepoint()] = signal;
    return success();
  }

  // Fill patterns travel as integers of the value's width; a float
  // becomes its bit pattern (a constant folded here, a scalar argument or a
  // loaded element bitcast).
  FailureOr<Value> fillPattern(stream::CmdFillOp op) {
    Value value = op.getValue();
    // An i1 element is a byte holding 0 or 1.
    if (value.getType().isInteger(1))
      return arith::ExtUIOp::create(builder, op.getLoc(), builder.getI8Type(),
                                    value)
          .getResult();
    if (isa<IntegerType>(value.getType()))
      return value;
    FloatAttr constant;
    if (!matchPattern(value, m_Constant(&constant))) {
      auto floatType = dyn_cast<FloatType>(value.getType());
      if (!floatType)
        return op.emitError() << "cannot fill with a " << value.getType();
      return arith::BitcastOp::create(
                 builder, op.getLoc(),
                 builder.getIntegerType(floatType.getWidth()), value)
          .getResult();
    }
    APInt bits = constant.getValue().bitcastToAPInt();
    return arith::ConstantOp::create(
               builder, op.getLoc(),
               builder.getIntegerAttr(
                   builder.getIntegerType(bits.getBitWidth()), bits))
        .getResult();
  }

  LogicalResult lowerFill(stream::CmdFillOp op, Value wait) {
    Location loc = op.getLoc();
    FailureOr<Value> pattern = fillPattern(op);
    if (failed(pattern))
      return failure();
    Value onDevice = deviceOf(op);
    Value target =
        usableOn(buffers.lookup(op.getTarget()), deviceSymbolOf(op), wait);
    Value signal = newFence(loc, onDevice);
    Value offset = op.getTargetOffset();
    DeviceQueueFillOp::create(
        builder, loc, onDevice, wait, signal, target,
        offset ? offset : index(loc, 0),
        offset ? op.getTargetLength() : op.getTargetSize(), *pattern);
    fences[op.getResultTimepoint()] = signal;
    return success();
  }

  LogicalResult lowerCopy(stream::CmdCopyOp op, Value wait) {
    Location loc = op.getLoc();
    Value onDevice = deviceOf(op);
    StringRef symbol = deviceSymbolOf(op);
    Value source = usableOn(buffers.lookup(op.getSource()), symbol, wait);
    Value target = usableOn(buffers.lookup(op.getTarget()), symbol, wait);
    Value signal = newFence(loc, onDevice);
    DeviceQueueCopyOp::create(builder, loc, onDevice, wait, signal, source,
                              op.getSourceOffset(), target,
                              op.getTargetOffset(), op.getLength());
    fences[op.getResultTimepoint()] = signal;
    return success();
  }

  // An execution region: its commands go to its device's queue in order,
  // the first waiting on the region's await fence and the last signalling
  // the region's fence. The commands in between still get a fence each:
  // every queue operation needs its own signal fence (runtime/hal/device.h,
  // the VM's queue opcodes) and a fence resolves only once, so they cannot
  // share one. Each waits on the previous one's fence; on the in-order queue
  // that costs no extra ordering, and it carries a failure through to the
  // region's fence instead of running the rest of the region past it.
  LogicalResult lowerExecute(stream::CmdExecuteOp op) {
    for (auto [resource, capture] : llvm::zip_equal(
             op.getResourceOperands(), op.getBody()->getArguments()))
      buffers[capture] = buffers.lookup(resource);
    DeviceAffinityAttr affinity = getDeviceAffinity(op);
    Value wait = fenceFor(op.getAwaitTimepoint());
    for (Operation &command : *op.getBody()) {
      // The region's device is every command's device.
      setDeviceAffinity(&command, affinity);
      LogicalResult lowered =
          TypeSwitch<Operation *, LogicalResult>(&command)
              .Case([&](stream::CmdDispatchOp dispatch) {
                return lowerDispatch(dispatch, wait);
              })
              .Case([&](stream::CmdDispatchEntryOp dispatch) {
                return lowerDispatchEntry(dispatch, wait);
              })
              .Case(
                  [&](stream::CmdFillOp fill) { return lowerFill(fill, wait); })
              .Case(
                  [&](stream::CmdCopyOp copy) { return lowerCopy(copy, wait); })
              .Default([](Operation *inner) {
                return inner->emitOpError()
                       << "cannot be lowered inside an execution region";
              });
      if (failed(lowered))
        return failure();
      wait = fences.lookup(command.getResult(0));
    }
    fences[op.getResultTimepoint()] = wait;
    return success();
  }

  // The coarse-fences ABI: the callee gets a buffer view per tensor argument
  // plus a wait and a signal fence, and returns a view per result. A tied
  // result is its operand's buffer, written in place; a new result's view is
  // checked against the declared type.
  LogicalResult lowerCall(stream::CmdCallOp op) {
    Location loc = op.getLoc();
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        op, op.getCalleeAttr());
    if (!callee || !callee.isDeclaration())
      return op.emitError() << "only calls to external functions can be "
                               "lowered to hal";
    MLIRContext *context = func.getContext();
    SmallVector<Value> arguments;
    ValueRange dims = op.getArgumentDims();
    for (auto [resource, type] :
         llvm::zip_equal(op.getResourceOperands(), callee.getArgumentTypes())) {
      auto tensorType = cast<RankedTensorType>(type);
      ValueRange argumentDims = dims.take_front(tensorType.getNumDynamicDims());
      dims = dims.drop_front(argumentDims.size());
      arguments.push_back(BufferViewCreateOp::create(
          builder, loc, BufferViewType::get(context), buffers.lookup(resource),
          shapeOf(loc, tensorType, argumentDims),
          TypeAttr::get(tensorType.getElementType())));
    }
    Value onDevice = deviceOf(op);
    Value wait = fenceFor(op.getAwaitTimepoint());
    if (!wait) // nothing to wait for: an already-signalled fence
      wait = FenceJoinOp::create(builder, loc, FenceType::get(context),
                                 ValueRange{});
    // New results: the runtime allocates them for the callee where the
    // program uses them (one request per result; usage 0 for a tied one).
    SmallVector<Value> allocators(op.getResults().size());
    if (hasNewResults(callee)) {
      Value zero = arith::ConstantIntOp::create(builder, loc, 0, 32);
      for (auto [i, result] : llvm::enumerate(op.getResults())) {
        if (op.getTiedOperand(i)) {
          arguments.append({onDevice, zero, zero});
          continue;
        }
        AllocationPlan plan = planAllocation(op, result);
        arguments.append({plan.allocator, plan.memoryTypes, plan.bufferUsage});
        allocators[i] = plan.allocator;
      }
    }
    Value signal = newFence(loc, onDevice);
    arguments.push_back(wait);
    arguments.push_back(signal);
    SmallVector<Type> resultTypes(op.getResults().size(),
                                  BufferViewType::get(context));
    auto call = func::CallOp::create(builder, loc, op.getCalleeAttr(),
                                     resultTypes, arguments);
    for (auto [i, result, view, type] : llvm::enumerate(
             op.getResults(), call.getResults(), callee.getResultTypes())) {
      if (OpOperand *tied = op.getTiedOperand(i)) {
        buffers[result] = buffers.lookup(tied->get());
        continue;
      }
      auto tensorType = cast<RankedTensorType>(type);
      BufferViewAssertOp::create(
          builder, loc, view,
          builder.getStringAttr("result " + std::to_string(i) + " of '" +
                                op.getCallee() + "'"),
          shapeOf(loc, tensorType, {}),
          TypeAttr::get(tensorType.getElementType()));
      buffers[result] = BufferViewBufferOp::create(
          builder, loc, BufferType::get(context), view);
      if (allocators[i])
        bufferDevices[buffers[result]] = allocators[i];
    }
    fences[op.getResultTimepoint()] = signal;
    return success();
  }

  // A call of an external function with a new result of dynamic shape
  // passes views (convert-input-to-stream): the coarse-fences ABI adds an
  // allocation request per result, resolved for the resource each result
  // is imported as, and the fences; the caller waits for the callee before
  // it imports the results (their dims come with the views). Calls between
  // functions of the module stay as they are.
  LogicalResult lowerViewCall(func::CallOp op) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        op, op.getCalleeAttr());
    if (!callee || !callee.isDeclaration() ||
        !callee->hasAttr(kResultAllocationAttr))
      return success();
    Location loc = op.getLoc();
    MLIRContext *context = func.getContext();
    SmallVector<Value> arguments(op.getOperands());
    Value onDevice = deviceOf(op);
    for (Value result : op.getResults()) {
      stream::TensorImportOp import;
      for (Operation *user : result.getUsers())
        if (auto candidate = dyn_cast<stream::TensorImportOp>(user))
          import = candidate;
      if (!import)
        return op.emitError() << "a result of '" << op.getCallee()
                              << "' is not imported as a resource";
      AllocationPlan plan = planAllocation(import, import.getResult());
      arguments.append({plan.allocator, plan.memoryTypes, plan.bufferUsage});
    }
    // The arguments were exported after their producers finished.
    arguments.push_back(
        FenceJoinOp::create(builder, loc, FenceType::get(context), {}));
    Value signal = newFence(loc, onDevice);
    arguments.push_back(signal);
    auto call = func::CallOp::create(builder, loc, op.getCalleeAttr(),
                                     op.getResultTypes(), arguments);
    FenceAwaitOp::create(builder, loc, ValueRange{signal});
    op.replaceAllUsesWith(call.getResults());
    op.erase();
    return success();
  }

  LogicalResult lowerRetain(stream::ResourceRetainOp op) {
    BufferAllocationPreserveOp::create(builder, op.getLoc(),
                                       buffers.lookup(op.getOperand()));
    return success();
  }

  LogicalResult lowerRelease(stream::ResourceReleaseOp op) {
    op.getResult().replaceAllUsesWith(BufferAllocationDiscardOp::create(
        builder, op.getLoc(), builder.getI1Type(),
        buffers.lookup(op.getOperand())));
    return success();
  }

  LogicalResult lowerIsTerminal(stream::ResourceIsTerminalOp op) {
    op.getResult().replaceAllUsesWith(BufferAllocationIsTerminalOp::create(
        builder, op.getLoc(), builder.getI1Type(),
        buffers.lookup(op.getOperand())));
    return success();
  }

  LogicalResult lowerJoin(stream::TimepointJoinOp op) {
    SmallVector<Value> inputs;
    for (Value timepoint : op.getAwaitTimepoints())
      inputs.push_back(fenceFor(timepoint));
    fences[op.getResultTimepoint()] = FenceJoinOp::create(
        builder, op.getLoc(), FenceType::get(func.getContext()), inputs);
    return success();
  }

  // The host read: the load awaited its producer already (schedule-
  // allocation put a timepoint.await before it).
  LogicalResult lowerLoad(stream::ResourceLoadOp op) {
    Value buffer = buffers.lookup(op.getSource());
    if (!buffer)
      return op.emitError() << "loads from a resource that has no buffer";
    op.getResult().replaceAllUsesWith(
        BufferLoadOp::create(builder, op.getLoc(), op.getResult().getType(),
                             buffer, op.getSourceOffset())
            .getResult());
    return success();
  }

  LogicalResult lowerSize(stream::ResourceSizeOp op) {
    Value buffer = buffers.lookup(op.getOperand());
    if (!buffer)
      return op.emitError() << "asks the size of a resource that has no buffer";
    op.getResult().replaceAllUsesWith(
        BufferLengthOp::create(builder, op.getLoc(), builder.getIndexType(),
                               buffer)
            .getResult());
    return success();
  }

  LogicalResult lowerAwait(stream::TimepointAwaitOp op) {
    FenceAwaitOp::create(builder, op.getLoc(),
                         ValueRange{fenceFor(op.getAwaitTimepoint())});
    for (auto [operand, result] :
         llvm::zip_equal(op.getResourceOperands(), op.getResults()))
      buffers[result] = buffers.lookup(operand);
    return success();
  }

  func::FuncOp func;
  DeviceGlobalOp deviceGlobal;
  const DeviceTopology &topology;
  const stream::ModuleDeviceUses &moduleUses;
  const HostLoadedArguments &hostLoads;
  bool mapAllExternal;
  OpBuilder builder;
  llvm::StringMap<Value> devices;             // device symbol -> !hal.device
  llvm::DenseMap<Value, Value> buffers;       // resource -> !hal.buffer
  llvm::DenseMap<Value, Value> bufferDevices; // !hal.buffer -> allocator
  // !hal.buffer -> the fence its queue alloca signals.
  llvm::DenseMap<Value, Value> allocatedFences;
  // (!hal.buffer, !hal.device) -> the buffer imported into the device.
  llvm::DenseMap<std::pair<Value, Value>, Value> importedBuffers;
  llvm::DenseMap<Value, Value> fences; // timepoint -> !hal.fence
  SmallVector<Operation *> deadOps;
};

constexpr StringLiteral kModelAttr = "iree.abi.model";
constexpr StringLiteral kCoarseFencesModel = "coarse-fences";

// An external function's tensors cross the coarse-fences ABI as buffer
// views, followed by a wait and a signal fence.
void rewriteExternalSignature(func::FuncOp func) {
  auto isTensor = [](Type type) { return isa<TensorType>(type); };
  // Called with views already (a new result of dynamic shape), or not at all.
  bool viewCalled = func->hasAttr(kResultAllocationAttr);
  if (!viewCalled && !llvm::any_of(func.getArgumentTypes(), isTensor) &&
      !llvm::any_of(func.getResultTypes(), isTensor))
    return;
  MLIRContext *context = func.getContext();
  auto lower = [&](Type type) -> Type {
    return isTensor(type) ? BufferViewType::get(context) : type;
  };
  SmallVector<Type> inputs =
      llvm::map_to_vector(func.getArgumentTypes(), lower);
  // A request per result (device, memory types, usage) when the runtime
  // allocates new results for the function.
  bool newResults = viewCalled || hasNewResults(func);
  if (newResults) {
    Type i32 = IntegerType::get(context, 32);
    for (size_t i = 0; i < func.getNumResults(); ++i)
      inputs.append({DeviceType::get(context), i32, i32});
    func->setAttr(kResultAllocationAttr, UnitAttr::get(context));
  }
  inputs.push_back(FenceType::get(context));
  inputs.push_back(FenceType::get(context));
  SmallVector<Type> results = llvm::map_to_vector(func.getResultTypes(), lower);
  func.setType(FunctionType::get(context, inputs, results));
  // Keep per-argument attributes aligned with the two new fence arguments.
  if (ArrayAttr argAttrs = func.getAllArgAttrs()) {
    SmallVector<Attribute> attrs(argAttrs.begin(), argAttrs.end());
    attrs.resize(inputs.size(), DictionaryAttr::get(context));
    func.setAllArgAttrs(attrs);
  }
  func->setAttr(kModelAttr, StringAttr::get(context, kCoarseFencesModel));
}

struct ConvertStreamToHALPass
    : impl::ConvertStreamToHALPassBase<ConvertStreamToHALPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (externalMapping != "where-read" && externalMapping != "always") {
      module.emitError() << "unknown external-mapping policy '"
                         << externalMapping
                         << "' (expected 'where-read' or 'always')";
      return signalPassFailure();
    }
    bool usesStream = false;
    module.walk([&](Operation *op) {
      if (isa<stream::StreamDialect>(op->getDialect()))
        usesStream = true;
    });
    if (!usesStream)
      return;
    // Before the default device is added: an affinity naming a device of
    // a module that declares none is an error too.
    if (failed(stream::verifyAffinityDevices(module)))
      return signalPassFailure();
    DeviceGlobalOp device = getOrCreateDefaultDevice(module);
    FailureOr<DeviceTopology> topology = DeviceTopology::build(module);
    if (failed(topology))
      return signalPassFailure();
    stream::ModuleDeviceUses moduleUses(module);
    HostLoadedArguments hostLoads(module);
    // Bodies first: lowering a call reads the callee's tensor signature.
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isDeclaration() &&
          failed(FunctionLowering(func, device, *topology, moduleUses,
                                  hostLoads, externalMapping == "always")
                     .run()))
        return signalPassFailure();
    for (auto func : module.getOps<func::FuncOp>())
      if (func.isDeclaration())
        rewriteExternalSignature(func);
  }
};

} // namespace
} // namespace ferry::hal
