// Operand helpers of dispatch formation; see LinalgOperands.h.
#include "compiler/Dialect/Stream/Conversion/LinalgOperands.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace ferry::stream {

namespace {

bool isMonotoneIndex(AffineExpr expr) {
  if (isa<AffineDimExpr>(expr))
    return true;
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return constant.getValue() >= 0;
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return false;
  if (binary.getKind() == AffineExprKind::Add)
    return isMonotoneIndex(binary.getLHS()) && isMonotoneIndex(binary.getRHS());
  if (binary.getKind() != AffineExprKind::Mul)
    return false;
  // Affine expressions keep a constant factor on the right.
  auto factor = dyn_cast<AffineConstantExpr>(binary.getRHS());
  return factor && factor.getValue() >= 0 && isMonotoneIndex(binary.getLHS());
}

} // namespace

bool isMonotoneIndexingMap(AffineMap map) {
  return map.getNumSymbols() == 0 &&
         llvm::all_of(map.getResults(), isMonotoneIndex);
}

bool isShapeOnlyOperand(OpOperand &use) {
  auto op = dyn_cast<linalg::LinalgOp>(use.getOwner());
  if (!op || !op.isDpsInput(&use) || op.payloadUsesValueFromOperand(&use))
    return false;
  auto empty = use.get().getDefiningOp<tensor::EmptyOp>();
  return empty && empty.getType().hasStaticShape();
}

bool isShapeOnlyEmpty(Operation *empty) {
  if (!isa<tensor::EmptyOp>(empty) || empty->use_empty())
    return false;
  return llvm::all_of(empty->getUses(),
                      [](OpOperand &use) { return isShapeOnlyOperand(use); });
}

Value buildLargestIndex(OpBuilder &builder, Location loc, AffineExpr expr,
                        ArrayRef<Value> loopExtents) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    return arith::SubIOp::create(builder, loc, loopExtents[dim.getPosition()],
                                 one);
  }
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return arith::ConstantIndexOp::create(builder, loc, constant.getValue());
  auto binary = cast<AffineBinaryOpExpr>(expr);
  Value lhs = buildLargestIndex(builder, loc, binary.getLHS(), loopExtents);
  Value rhs = buildLargestIndex(builder, loc, binary.getRHS(), loopExtents);
  if (binary.getKind() == AffineExprKind::Add)
    return arith::AddIOp::create(builder, loc, lhs, rhs);
  if (binary.getKind() == AffineExprKind::Mod) {
    // `e mod c` (a slice's copy kernel, c its static size) is at most
    // c - 1 and at most e's largest value.
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    return arith::MinUIOp::create(
        builder, loc, lhs, arith::SubIOp::create(builder, loc, rhs, one));
  }
  return arith::MulIOp::create(builder, loc, lhs, rhs);
}

} // namespace ferry::stream
