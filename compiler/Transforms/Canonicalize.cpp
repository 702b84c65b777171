// MLIR's canonicalizer plus one pattern that erases unreachable blocks before
// any other pattern touches them, and minus scf.if-to-select on stream
// values. See Passes.td for why.

#include "compiler/Transforms/Passes.h"

#include "mlir/IR/Dialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/RegionGraphTraits.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DepthFirstIterator.h"

namespace ferry {
#define GEN_PASS_DEF_CANONICALIZEPASS
#include "compiler/Transforms/Passes.h.inc"
} // namespace ferry

using namespace mlir;

namespace ferry {
namespace {

// Above every canonicalization pattern: on a terminator of an unreachable
// block it runs before cf.br's block merging can make a value use itself.
constexpr unsigned kEraseUnreachableBenefit = 1000;

struct EraseUnreachableBlocks : RewritePattern {
  explicit EraseUnreachableBlocks(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), kEraseUnreachableBenefit, context) {
  }

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    Block *block = op->getBlock();
    if (!op->hasTrait<OpTrait::IsTerminator>() || !block ||
        block->isEntryBlock())
      return failure();
    Region *region = block->getParent();
    llvm::df_iterator_default_set<Block *, 16> reachable;
    for (Block *b : llvm::depth_first_ext(&region->front(), reachable))
      (void)b;
    if (reachable.contains(block))
      return failure();
    SmallVector<Block *> unreachable;
    for (Block &b : *region)
      if (!reachable.contains(&b))
        unreachable.push_back(&b);
    // Only unreachable blocks use what unreachable blocks define or branch
    // to, so dropping those uses first leaves each block free to erase.
    for (Block *b : unreachable)
      b->dropAllDefinedValueUses();
    for (Block *b : unreachable)
      rewriter.eraseBlock(b);
    return success();
  }
};

// Whether MLIR's scf.if-to-select pattern would make a select of a stream
// value: a result of the stream dialect to which each region yields a
// different value defined outside the op.
bool selectsStreamValue(Operation *op) {
  for (auto [index, type] : llvm::enumerate(op->getResultTypes())) {
    if (type.getDialect().getNamespace() != "stream" ||
        op->getNumRegions() != 2)
      continue;
    SmallVector<Value, 2> yielded;
    for (Region &region : op->getRegions())
      if (!region.empty())
        yielded.push_back(region.front().getTerminator()->getOperand(index));
    if (yielded.size() == 2 && yielded[0] != yielded[1] &&
        llvm::none_of(yielded, [&](Value value) {
          return op->isAncestor(value.getParentRegion()->getParentOp());
        }))
      return true;
  }
  return false;
}

// Wraps MLIR's scf.if pattern that turns an if yielding values defined
// outside it into `arith.select`s, keeping it off an if where that would
// select stream values: a select of resources (or timepoints) is a value no
// stream pass follows (allocation scheduling refuses it), while the if
// they carry it through is. Other ifs, and the HAL phase's buffers (the
// bytecode selects refs), still become selects.
struct TrivialIfToSelectOutsideStream : RewritePattern {
  explicit TrivialIfToSelectOutsideStream(std::unique_ptr<RewritePattern> inner,
                                          MLIRContext *context)
      : RewritePattern(inner->getRootKind()->getStringRef(),
                       inner->getBenefit(), context),
        inner(std::move(inner)) {
    setDebugName(this->inner->getDebugName());
  }

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (selectsStreamValue(op))
      return failure();
    return inner->matchAndRewrite(op, rewriter);
  }

  std::unique_ptr<RewritePattern> inner;
};

// Region simplification, which the greedy driver runs after every iteration,
// erases unreachable blocks, dead block arguments and ops that no live op
// uses; it walks the whole IR three times or more each time, a third of the
// canonicalizer's time on a large function. Where every region has at most
// one block and no graph region holds an op with results (so no dead cycle
// can exist), all it could erase are trivially dead ops, which the driver
// erases itself: its last iteration visits every op and stops only when
// none was. The result is the same without it.
bool needsRegionSimplification(Operation *root) {
  auto needs = [](Region &region) {
    if (region.empty())
      return false;
    if (!region.hasOneBlock())
      return true;
    return mayBeGraphRegion(region) &&
           llvm::any_of(region.front(),
                        [](Operation &op) { return op.getNumResults() != 0; });
  };
  return root
      ->walk([&](Operation *op) {
        return llvm::any_of(op->getRegions(), needs) ? WalkResult::interrupt()
                                                     : WalkResult::advance();
      })
      .wasInterrupted();
}

struct CanonicalizePass : impl::CanonicalizePassBase<CanonicalizePass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet owned(context);
    for (Dialect *dialect : context->getLoadedDialects())
      dialect->getCanonicalizationPatterns(owned);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      op.getCanonicalizationPatterns(owned, context);
    owned.add<EraseUnreachableBlocks>(context);
    for (std::unique_ptr<RewritePattern> &pattern : owned.getNativePatterns())
      if (pattern->getDebugName().ends_with("ConvertTrivialIfToSelect"))
        pattern = std::make_unique<TrivialIfToSelectOutsideStream>(
            std::move(pattern), context);
    patterns = std::make_shared<FrozenRewritePatternSet>(std::move(owned));
    return success();
  }

  void runOnOperation() override {
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true)
        .setRegionSimplificationLevel(needsRegionSimplification(getOperation())
                                          ? GreedySimplifyRegionLevel::Normal
                                          : GreedySimplifyRegionLevel::Disabled)
        .setMaxIterations(maxIterations);
    // Like --canonicalize: not converging within the bound is no error.
    (void)applyPatternsGreedily(getOperation(), *patterns, config);
  }

  std::shared_ptr<const FrozenRewritePatternSet> patterns;
};

} // namespace
} // namespace ferry
