// A liveness walk over the cmd phase reporting each function's peak of
// simultaneously live bytes. See Passes.td for how it is computed.

#include "compiler/Dialect/Stream/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <functional>

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

// Evaluates index values of one function: constants, tensor sizes, index
// arithmetic and input dimensions bound by `input-shapes`.
class SizeEvaluator {
public:
  explicit SizeEvaluator(ArrayRef<SmallVector<int64_t>> inputShapes)
      : inputShapes(inputShapes) {}

  std::optional<int64_t> evaluate(Value value) {
    auto it = known.find(value);
    if (it != known.end())
      return it->second;
    std::optional<int64_t> result = compute(value);
    known[value] = result;
    return result;
  }

private:
  std::optional<int64_t> compute(Value value) {
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant)))
      return constant.getSExtValue();
    Operation *def = value.getDefiningOp();
    if (!def)
      return std::nullopt;
    return TypeSwitch<Operation *, std::optional<int64_t>>(def)
        .Case([&](TensorSizeOfOp op) -> std::optional<int64_t> {
          auto type = cast<RankedTensorType>(op.getEncoding());
          int64_t bytes = elementByteSize(
              *hal::getRuntimeElementType(type.getElementType()));
          for (int64_t dim : type.getShape())
            if (!ShapedType::isDynamic(dim))
              bytes *= dim;
          for (Value dim : op.getEncodingDims()) {
            std::optional<int64_t> size = evaluate(dim);
            if (!size)
              return std::nullopt;
            bytes *= *size;
          }
          return bytes;
        })
        .Case([&](arith::MulIOp op) { return binary(op, std::multiplies{}); })
        .Case([&](arith::AddIOp op) { return binary(op, std::plus{}); })
        .Case([&](hal::BufferViewDimOp op) -> std::optional<int64_t> {
          auto arg = dyn_cast<BlockArgument>(op.getBufferView());
          int64_t index = op.getIndexAttr().getInt();
          if (!arg || arg.getArgNumber() >= inputShapes.size() ||
              index >=
                  static_cast<int64_t>(inputShapes[arg.getArgNumber()].size()))
            return std::nullopt;
          return inputShapes[arg.getArgNumber()][index];
        })
        .Default([](Operation *) { return std::nullopt; });
  }

  template <typename OpT, typename Fn>
  std::optional<int64_t> binary(OpT op, Fn fn) {
    std::optional<int64_t> lhs = evaluate(op.getLhs());
    std::optional<int64_t> rhs = evaluate(op.getRhs());
    if (!lhs || !rhs)
      return std::nullopt;
    return fn(*lhs, *rhs);
  }

  ArrayRef<SmallVector<int64_t>> inputShapes;
  llvm::DenseMap<Value, std::optional<int64_t>> known;
};

// The bytes `size` stands for, or a remark naming the op it belongs to.
FailureOr<int64_t> sizeOf(Operation *op, Value size, SizeEvaluator &evaluator) {
  if (std::optional<int64_t> bytes = evaluator.evaluate(size))
    return *bytes;
  return op->emitRemark() << "peak live bytes unknown: the size of '"
                          << op->getName() << "' is not known statically "
                          << "(give input-shapes for dynamic inputs)";
}

// Live bytes of a function as a whole and on each device. A buffer's memory
// is on the device of its `stream.affinity`, else on the module's first
// device: where convert-stream-to-hal runs unplaced work and where ferry-run
// places the inputs.
struct DeviceLiveBytes {
  LiveBytes total;
  llvm::MapVector<StringRef, LiveBytes> devices;
  StringRef defaultDevice;
  llvm::DenseMap<Value, StringRef> deviceOf;

  StringRef placement(Operation *op) {
    if (hal::DeviceAffinityAttr affinity = hal::getAffinity(op))
      return affinity.getDevice().getValue();
    return defaultDevice;
  }

  void add(Value resource, StringRef device, int64_t bytes, bool input) {
    deviceOf[resource] = device;
    for (LiveBytes *live : {&total, &devices[device]}) {
      (input ? live->inputs : live->allocated) += bytes;
      live->add(bytes);
    }
  }

  void remove(Value resource, Operation *freeing, int64_t bytes) {
    auto it = deviceOf.find(resource);
    StringRef device = it != deviceOf.end() ? it->second : placement(freeing);
    total.live -= bytes;
    devices[device].live -= bytes;
  }
};

// Whether `dealloca`'s guard is the release of a call result of a function
// of the module: the callee handed its only ownership over, so the release
// is the last and the memory is freed.
bool soleOwnerRelease(ResourceDeallocaOp dealloca) {
  auto release = dealloca.getCondition().getDefiningOp<ResourceReleaseOp>();
  auto import =
      release ? release.getOperand().getDefiningOp<TensorImportOp>() : nullptr;
  return import && import.getConsume() &&
         import.getSource().getDefiningOp<func::CallOp>();
}

// The bytes a call to `callee` adds at its peak to what its caller holds: its
// peak minus its inputs (the caller's buffers, already counted), in total
// and per device. Null when unknown (a remark says why).
using CalleeExcess = std::function<const DeviceLiveBytes *(func::FuncOp)>;

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

LogicalResult walk(func::FuncOp func, SizeEvaluator &evaluator,
                   DeviceLiveBytes &bytes, const CalleeExcess &calleeBytes) {
  for (Operation &op : func.getBody().front()) {
    if (auto importOp = dyn_cast<TensorImportOp>(op)) {
      FailureOr<int64_t> size =
          sizeOf(&op, importOp.getResultSize(), evaluator);
      if (failed(size))
        return failure();
      // A result of a call to a function of the module: memory that callee
      // allocated, now the caller's. Otherwise the host placed the input,
      // not the program: on the first device.
      bool calleeResult =
          importOp.getSource().getDefiningOp<func::CallOp>() != nullptr;
      bytes.add(importOp.getResult(),
                calleeResult ? bytes.placement(&op) : bytes.defaultDevice,
                *size, /*input=*/!calleeResult);
    } else if (auto call = dyn_cast<func::CallOp>(op)) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (!callee || callee.isDeclaration())
        continue;
      const DeviceLiveBytes *inCallee = calleeBytes(callee);
      if (!inCallee)
        return call.emitRemark() << "peak live bytes unknown: the peak of '"
                                 << call.getCallee() << "' is not known";
      addCallPeak(bytes, *inCallee);
    } else if (auto alloca = dyn_cast<ResourceAllocaOp>(op)) {
      FailureOr<int64_t> size = sizeOf(&op, alloca.getStorageSize(), evaluator);
      if (failed(size))
        return failure();
      bytes.add(alloca.getResult(), bytes.placement(&op), *size,
                /*input=*/false);
    } else if (auto call = dyn_cast<CmdCallOp>(op)) {
      for (auto [i, size] : llvm::enumerate(call.getResultSizes())) {
        if (call.getTiedOperand(i))
          continue;
        FailureOr<int64_t> resultBytes = sizeOf(&op, size, evaluator);
        if (failed(resultBytes))
          return failure();
        bytes.add(call.getResult(i), bytes.placement(&op), *resultBytes,
                  /*input=*/false);
      }
    } else if (auto dealloca = dyn_cast<ResourceDeallocaOp>(op)) {
      if (dealloca.getCondition() && !soleOwnerRelease(dealloca))
        continue; // may not free: an upper bound
      FailureOr<int64_t> size =
          sizeOf(&op, dealloca.getOperandSize(), evaluator);
      if (failed(size))
        return failure();
      bytes.remove(dealloca.getOperand(), &op, *size);
    }
  }
  return success();
}

// "3x5" -> {3, 5}; "" (a rank-0 input) -> {}.
FailureOr<SmallVector<int64_t>> parseShape(StringRef text) {
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
  return shape;
}

struct EstimatePeakMemoryPass
    : impl::EstimatePeakMemoryPassBase<EstimatePeakMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<SmallVector<int64_t>> shapes;
    for (const std::string &text : inputShapes) {
      FailureOr<SmallVector<int64_t>> shape = parseShape(text);
      if (failed(shape)) {
        getOperation().emitError()
            << "input-shapes: '" << text << "' is not a shape like 3x5";
        return signalPassFailure();
      }
      shapes.push_back(*shape);
    }
    SmallVector<StringRef> deviceNames;
    for (auto device : getOperation().getOps<hal::DeviceGlobalOp>())
      deviceNames.push_back(device.getSymName());
    // Callees are walked before their callers (on first use); a function
    // on the call stack being walked again is recursion: unknown.
    llvm::DenseMap<Operation *, std::optional<DeviceLiveBytes>> walked;
    llvm::SmallPtrSet<Operation *, 4> walking;
    CalleeExcess bytesOf = [&](func::FuncOp func) -> const DeviceLiveBytes * {
      auto it = walked.find(func);
      if (it != walked.end())
        return it->second ? &*it->second : nullptr;
      if (!walking.insert(func).second)
        return nullptr; // recursive
      SizeEvaluator evaluator(shapes);
      DeviceLiveBytes bytes;
      bytes.defaultDevice =
          deviceNames.empty() ? StringRef() : deviceNames.front();
      // Every declared device is reported, in order, even when unused.
      for (StringRef name : deviceNames)
        bytes.devices[name];
      // Scalar code (which may branch) holds no buffers: nothing to walk.
      std::optional<DeviceLiveBytes> result;
      if (!containsStreamOps(func) ||
          (func.getBody().hasOneBlock() &&
           succeeded(walk(func, evaluator, bytes, bytesOf))))
        result = std::move(bytes);
      walking.erase(func);
      std::optional<DeviceLiveBytes> &slot = walked[func];
      slot = std::move(result);
      return slot ? &*slot : nullptr;
    };
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isDeclaration() || !func.getBody().hasOneBlock())
        continue;
      const DeviceLiveBytes *bytes = bytesOf(func);
      if (!bytes)
        continue;
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
};

} // namespace
} // namespace ferry::stream
