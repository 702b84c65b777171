// A liveness walk over the cmd phase reporting each function's peak of
// simultaneously live bytes. See Passes.td for how it is computed.

#include "compiler/Dialect/Stream/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"

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

// The constant value of `size`, or a remark naming the op it belongs to.
FailureOr<int64_t> constantSize(Operation *op, Value size) {
  APInt value;
  if (matchPattern(size, m_ConstantInt(&value)))
    return value.getSExtValue();
  if (auto sizeOf = size.getDefiningOp<TensorSizeOfOp>())
    if (std::optional<int64_t> bytes = sizeOf.getStaticSize())
      return *bytes;
  return op->emitRemark() << "peak live bytes unknown: '" << op->getName()
                          << "' has a dynamic size";
}

LogicalResult walk(func::FuncOp func, LiveBytes &bytes) {
  for (Operation &op : func.getBody().front()) {
    if (auto importOp = dyn_cast<TensorImportOp>(op)) {
      FailureOr<int64_t> size = constantSize(&op, importOp.getResultSize());
      if (failed(size))
        return failure();
      bytes.inputs += *size;
      bytes.add(*size);
    } else if (auto alloca = dyn_cast<ResourceAllocaOp>(op)) {
      FailureOr<int64_t> size = constantSize(&op, alloca.getStorageSize());
      if (failed(size))
        return failure();
      bytes.allocated += *size;
      bytes.add(*size);
    } else if (auto call = dyn_cast<CmdCallOp>(op)) {
      for (auto [i, size] : llvm::enumerate(call.getResultSizes())) {
        if (call.getTiedOperand(i))
          continue;
        FailureOr<int64_t> bytesOf = constantSize(&op, size);
        if (failed(bytesOf))
          return failure();
        bytes.allocated += *bytesOf;
        bytes.add(*bytesOf);
      }
    } else if (auto dealloca = dyn_cast<ResourceDeallocaOp>(op)) {
      if (dealloca.getCondition())
        continue; // may not free: an upper bound
      FailureOr<int64_t> size = constantSize(&op, dealloca.getOperandSize());
      if (failed(size))
        return failure();
      bytes.live -= *size;
    }
  }
  return success();
}

struct EstimatePeakMemoryPass
    : impl::EstimatePeakMemoryPassBase<EstimatePeakMemoryPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isDeclaration() || !func.getBody().hasOneBlock())
        continue;
      LiveBytes bytes;
      if (succeeded(walk(func, bytes)))
        func.emitRemark() << "peak live bytes: " << bytes.peak << " (inputs "
                          << bytes.inputs << ", allocated " << bytes.allocated
                          << ")";
    }
    markAllAnalysesPreserved();
  }
};

} // namespace
} // namespace ferry::stream
