// Rewrites each cf.switch into a chain of compares and conditional branches,
// which Ferry's bytecode holds (it has no multi-way branch). See Passes.td.

#include "compiler/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/Builders.h"

namespace ferry {
#define GEN_PASS_DEF_LOWERSWITCHTOBRANCHESPASS
#include "compiler/Transforms/Passes.h.inc"
} // namespace ferry

using namespace mlir;

namespace ferry {
namespace {

void lowerSwitch(cf::SwitchOp op) {
  OpBuilder builder(op);
  Location loc = op.getLoc();
  Value flag = op.getFlag();
  Block *defaultDest = op.getDefaultDestination();
  SmallVector<Value> defaultOperands(op.getDefaultOperands());
  std::optional<DenseIntElementsAttr> values = op.getCaseValues();
  if (!values || values->empty()) {
    cf::BranchOp::create(builder, loc, defaultDest, defaultOperands);
    op.erase();
    return;
  }
  SmallVector<APInt> caseValues(values->getValues<APInt>());
  Region *region = op->getParentRegion();
  Block *current = op->getBlock();
  for (auto [i, caseValue] : llvm::enumerate(caseValues)) {
    Value constant = arith::ConstantOp::create(
        builder, loc, builder.getIntegerAttr(flag.getType(), caseValue));
    Value equal = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                        flag, constant);
    SmallVector<Value> caseOperands(op.getCaseOperands(i));
    Block *caseDest = op.getCaseDestinations()[i];
    if (i + 1 == caseValues.size()) {
      cf::CondBranchOp::create(builder, loc, equal, caseDest, caseOperands,
                               defaultDest, defaultOperands);
      break;
    }
    // The next case is tested in a block of its own, right after this one.
    Block *test =
        builder.createBlock(region, std::next(Region::iterator(current)));
    builder.setInsertionPointToEnd(current);
    cf::CondBranchOp::create(builder, loc, equal, caseDest, caseOperands, test,
                             ValueRange());
    builder.setInsertionPointToStart(test);
    current = test;
  }
  op.erase();
}

struct LowerSwitchToBranchesPass
    : impl::LowerSwitchToBranchesPassBase<LowerSwitchToBranchesPass> {
  void runOnOperation() override {
    SmallVector<cf::SwitchOp> switches;
    getOperation()->walk([&](cf::SwitchOp op) { switches.push_back(op); });
    for (cf::SwitchOp op : switches)
      lowerSwitch(op);
  }
};

} // namespace
} // namespace ferry
