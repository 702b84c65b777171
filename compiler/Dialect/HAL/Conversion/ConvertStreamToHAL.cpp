// Lowers the stream cmd phase to the hal dialect: resources become buffers,
// timepoints become fences, and every cmd op becomes one queue operation that
// waits on its await fence and signals a fresh one. See Passes.td.
//
// Assumes the cmd phase produced by stream-schedule-allocation: single-block
// functions whose resources are all defined before use.

#include "compiler/Dialect/HAL/Conversion/Passes.h"
#include "compiler/Dialect/Stream/IR/StreamDialect.h"

#include "runtime/hal/buffer_bits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

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
  auto target = DeviceTargetAttr::get(module.getContext(), "local",
                                      builder.getDictionaryAttr({}));
  return DeviceGlobalOp::create(builder, module.getLoc(), kDefaultDeviceName,
                                target);
}

class FunctionLowering {
public:
  FunctionLowering(func::FuncOp func, DeviceGlobalOp device)
      : func(func), deviceGlobal(device), builder(func.getContext()) {}

  LogicalResult run() {
    if (!func.getBody().hasOneBlock())
      return func.emitError() << "function '" << func.getSymName()
                              << "' has several blocks; lowering to hal "
                                 "supports straight-line functions only";
    auto isStreamType = [](Type type) {
      return isa<stream::StreamDialect>(type.getDialect());
    };
    if (llvm::any_of(func.getArgumentTypes(), isStreamType) ||
        llvm::any_of(func.getResultTypes(), isStreamType))
      return func.emitError()
             << "function '" << func.getSymName()
             << "' passes stream resources or timepoints across its "
                "boundary; only buffer views and scalars may cross it";
    Block &block = func.getBody().front();
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (!isa<stream::StreamDialect>(op.getDialect()))
        continue;
      builder.setInsertionPoint(&op);
      if (failed(lower(&op)))
        return failure();
      deadOps.push_back(&op);
    }
    for (Operation *op : llvm::reverse(deadOps)) {
      op->dropAllUses();
      op->erase();
    }
    return success();
  }

private:
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
    if (auto dispatch = dyn_cast<stream::CmdDispatchOp>(op))
      return lowerDispatch(dispatch);
    if (auto joinOp = dyn_cast<stream::TimepointJoinOp>(op))
      return lowerJoin(joinOp);
    if (auto await = dyn_cast<stream::TimepointAwaitOp>(op))
      return lowerAwait(await);
    return op->emitError() << "'" << op->getName()
                           << "' cannot be lowered to hal; run "
                              "stream-schedule-allocation first";
  }

  Value device() {
    if (!cachedDevice) {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(&func.getBody().front());
      cachedDevice = DeviceGetOp::create(builder, func.getLoc(),
                                         DeviceType::get(func.getContext()),
                                         deviceGlobal.getSymName());
    }
    return cachedDevice;
  }

  Value newFence(Location loc) {
    return FenceCreateOp::create(builder, loc,
                                 FenceType::get(func.getContext()), device());
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
    buffers[op.getResult()] = BufferViewBufferOp::create(
        builder, loc, BufferType::get(func.getContext()), op.getSource());
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

  // Fixed bits until allocation properties are resolved from the topology:
  // results handed to the host must be mappable by it.
  std::pair<Value, Value> allocationBits(Location loc,
                                         stream::ResourceType type) {
    bool external = type.getLifetime() == stream::Lifetime::External;
    uint32_t memoryType = kDeviceLocal;
    uint32_t usage = kTransfer | kDispatchStorage;
    if (external) {
      memoryType |= kHostVisible;
      usage |= kMapping;
    }
    auto i32 = builder.getI32Type();
    Value memory = MemoryTypeOp::create(builder, loc, i32,
                                        builder.getI32IntegerAttr(memoryType));
    Value bufferUsage = BufferUsageOp::create(builder, loc, i32,
                                              builder.getI32IntegerAttr(usage));
    return {memory, bufferUsage};
  }

  LogicalResult lowerAlloca(stream::ResourceAllocaOp op) {
    Location loc = op.getLoc();
    auto [memoryType, usage] = allocationBits(
        loc, cast<stream::ResourceType>(op.getResult().getType()));
    Value signal = newFence(loc);
    buffers[op.getResult()] = DeviceQueueAllocaOp::create(
        builder, loc, BufferType::get(func.getContext()), device(),
        fenceFor(op.getAwaitTimepoint()), signal, memoryType, usage,
        op.getStorageSize());
    fences[op.getResultTimepoint()] = signal;
    return success();
  }

  LogicalResult lowerDealloca(stream::ResourceDeallocaOp op) {
    Location loc = op.getLoc();
    Value signal = newFence(loc);
    DeviceQueueDeallocaOp::create(builder, loc, device(),
                                  fenceFor(op.getAwaitTimepoint()), signal,
                                  buffers.lookup(op.getOperand()));
    fences[op.getResultTimepoint()] = signal;
    return success();
  }

  LogicalResult lowerDispatch(stream::CmdDispatchOp op) {
    Location loc = op.getLoc();
    SmallVector<Value> bindings;
    for (Value resource : op.getResourceOperands())
      bindings.push_back(buffers.lookup(resource));
    Value signal = newFence(loc);
    DeviceQueueDispatchOp::create(
        builder, loc, device(), fenceFor(op.getAwaitTimepoint()), signal,
        op.getKernelAttr(), op.getElementTypeAttr(), op.getCount(), bindings);
    fences[op.getResultTimepoint()] = signal;
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
  OpBuilder builder;
  Value cachedDevice;
  llvm::DenseMap<Value, Value> buffers; // resource -> !hal.buffer
  llvm::DenseMap<Value, Value> fences;  // timepoint -> !hal.fence
  SmallVector<Operation *> deadOps;
};

struct ConvertStreamToHALPass
    : impl::ConvertStreamToHALPassBase<ConvertStreamToHALPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool usesStream = false;
    module.walk([&](Operation *op) {
      if (isa<stream::StreamDialect>(op->getDialect()))
        usesStream = true;
    });
    if (!usesStream)
      return;
    DeviceGlobalOp device = getOrCreateDefaultDevice(module);
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isDeclaration() && failed(FunctionLowering(func, device).run()))
        return signalPassFailure();
  }
};

} // namespace
} // namespace ferry::hal
