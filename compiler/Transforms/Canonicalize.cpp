// MLIR's canonicalizer plus one pattern that erases unreachable blocks before
// any other pattern touches them. See Passes.td for why.

#include "compiler/Transforms/Passes.h"

#include "mlir/IR/Dialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/RegionGraphTraits.h"
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

struct CanonicalizePass : impl::CanonicalizePassBase<CanonicalizePass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet owned(context);
    for (Dialect *dialect : context->getLoadedDialects())
      dialect->getCanonicalizationPatterns(owned);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      op.getCanonicalizationPatterns(owned, context);
    owned.add<EraseUnreachableBlocks>(context);
    patterns = std::make_shared<FrozenRewritePatternSet>(std::move(owned));
    return success();
  }

  void runOnOperation() override {
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Normal)
        .setMaxIterations(maxIterations);
    // Like --canonicalize: not converging within the bound is no error.
    (void)applyPatternsGreedily(getOperation(), *patterns, config);
  }

  std::shared_ptr<const FrozenRewritePatternSet> patterns;
};

} // namespace
} // namespace ferry
