// Lifting a tensor function's branches to structured control flow before
// convert-input-to-stream imports it (LiftControlFlow.h).

#include "compiler/Dialect/Stream/Conversion/LiftControlFlow.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CFGToSCF.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace ferry::stream::input {

// Lifting makes one `ub.poison` per type at the function's entry and yields
// it on the paths that never use it, inside the loops and branches it
// builds. A tensor poison captured that way is a value from outside a loop
// passed into a carried position, which makes the position's owner unknown
// (reference counting marks it indeterminate). A poison of its own right
// before each user is a fresh value that user's path owns. The loops'
// unused arguments, which lifting also passes poison to, go first (each
// would be an allocation nobody uses).
static void splitTensorPoison(func::FuncOp func) {
  SmallVector<Operation *> loops;
  func.walk([&](scf::WhileOp op) { loops.push_back(op); });
  RewritePatternSet patterns(func.getContext());
  scf::WhileOp::getCanonicalizationPatterns(patterns, func.getContext());
  (void)applyOpPatternsGreedily(loops, std::move(patterns));
  SmallVector<ub::PoisonOp> poisons;
  func.walk([&](ub::PoisonOp poison) {
    if (isa<TensorType>(poison.getType()))
      poisons.push_back(poison);
  });
  for (ub::PoisonOp poison : poisons) {
    for (OpOperand &use : llvm::make_early_inc_range(poison->getUses())) {
      OpBuilder builder(use.getOwner());
      use.set(builder.clone(*poison)->getResult(0));
    }
    poison.erase();
  }
}

// A tensor function with several blocks is lifted to structured control
// flow (as `--lift-cf-to-scf` does); a branch it cannot lift is reported.
LogicalResult liftControlFlow(func::FuncOp func) {
  if (func.isDeclaration() || func.getBody().hasOneBlock())
    return success();
  ControlFlowToSCFTransformation transformation;
  DominanceInfo dominance(func);
  if (succeeded(transformCFGToSCF(func.getBody(), transformation, dominance)) &&
      func.getBody().hasOneBlock()) {
    splitTensorPoison(func);
    return success();
  }
  for (Block &block : func.getBody())
    if (Operation *terminator = block.getTerminator();
        terminator && terminator->getNumSuccessors() > 0)
      return terminator->emitError()
             << "'" << terminator->getName()
             << "' in a function that uses tensors could not be lifted to "
                "structured control flow (scf); only functions without "
                "tensors may branch freely";
  return func.emitError() << "function '" << func.getSymName()
                          << "' uses tensors and has several blocks that "
                             "could not be lifted to structured control flow";
}

} // namespace ferry::stream::input
