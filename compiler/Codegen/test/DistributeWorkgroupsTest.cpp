// What distributeOverWorkgroups makes of a body with a fused producer of a
// dynamic size (exp(x) @ w, x's rows dynamic): every linalg op inside the
// workgroup loop (no untiled producer computing all of exp(x) in each
// workgroup), the producer writing into an empty tensor of one tile (not a
// slice of the whole intermediate); then, lowered to LLVM, that tile on the
// stack (no malloc) when its size is bounded, and on the heap, allocated
// once before the loop, when a dimension is dynamic and untiled.
#include "compiler/Codegen/DistributeWorkgroups.h"
#include "compiler/Codegen/test/LowerToLLVMText.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <regex>

namespace ferry::codegen {
namespace {

// The body makeBufferBody (LowerDispatchToLLVM.cpp) makes of
// exp(x) @ w: tensors of the bindings, the result materialized into its
// binding; the last two arguments are the workgroup id and count. X is
// replaced by x's type (rows dynamic; columns 3 or dynamic).
constexpr const char *kExpMatmulBody = R"mlir(
func.func private @exp_matmul__body(%x: memref<X>, %w: memref<?x48xf32>,
    %out: memref<?x48xf32>, %id: index, %count: index) {
  %tx = bufferization.to_tensor %x restrict writable
      : memref<X> to tensor<X>
  %tw = bufferization.to_tensor %w restrict writable
      : memref<?x48xf32> to tensor<?x48xf32>
  %tout = bufferization.to_tensor %out restrict writable
      : memref<?x48xf32> to tensor<?x48xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %tx, %c0 : tensor<X>
  %k = tensor.dim %tx, %c1 : tensor<X>
  %e = tensor.empty(SIZES) : tensor<X>
  %ex = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%tx : tensor<X>) outs(%e : tensor<X>) {
  ^bb0(%in: f32, %o: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<X>
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%tout : tensor<?x48xf32>)
      -> tensor<?x48xf32>
  %m = linalg.matmul ins(%ex, %tw : tensor<X>, tensor<?x48xf32>)
                     outs(%z : tensor<?x48xf32>) -> tensor<?x48xf32>
  %r = bufferization.materialize_in_destination %m in %tout
      : (tensor<?x48xf32>, tensor<?x48xf32>) -> tensor<?x48xf32>
  return
}
)mlir";

/// kExpMatmulBody with x of type `x` and the empty's sizes `sizes`.
std::string expMatmulBody(const std::string &x, const std::string &sizes) {
  std::string text = kExpMatmulBody;
  text = std::regex_replace(text, std::regex("\\bX\\b"), x);
  return std::regex_replace(text, std::regex("SIZES"), sizes);
}

struct Distributed {
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::scf::ForOp loop;
};

/// Parses `source` and distributes its function over workgroups of 128
/// rows.
Distributed distribute(const std::string &source) {
  Distributed result;
  mlir::DialectRegistry registry;
  registerCodegenDialects(registry);
  result.context = std::make_unique<mlir::MLIRContext>(registry);
  // Tiling makes scf and affine ops (lowerDispatchesToLLVM loads them too).
  result.context->loadAllAvailableDialects();
  result.module =
      mlir::parseSourceString<mlir::ModuleOp>(source, result.context.get());
  EXPECT_TRUE(result.module);
  if (!result.module)
    return result;
  auto body = *result.module->getOps<mlir::func::FuncOp>().begin();
  EntryLayout layout;
  layout.workgroups.loop = 0;
  layout.workgroups.tileSize = 128;
  EXPECT_TRUE(mlir::succeeded(distributeOverWorkgroups(body, layout)));
  body.walk([&](mlir::scf::ForOp loop) {
    if (loop->hasAttr(kWorkgroupLoopAttr))
      result.loop = loop;
  });
  EXPECT_TRUE(result.loop) << *result.module;
  return result;
}

std::string print(mlir::Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return text;
}

/// The destination of the exp generic in the workgroup loop: a slice of an
/// empty tensor; the empty is returned.
mlir::tensor::EmptyOp producerTile(Distributed &distributed) {
  mlir::tensor::EmptyOp tile;
  distributed.loop.walk([&](mlir::linalg::GenericOp generic) {
    auto slice = generic.getDpsInitOperand(0)
                     ->get()
                     .getDefiningOp<mlir::tensor::ExtractSliceOp>();
    if (slice)
      tile = slice.getSource().getDefiningOp<mlir::tensor::EmptyOp>();
  });
  return tile;
}

/// Checks no linalg op is left outside the workgroup loop: the untiled
/// producer is gone (the loop's bound, a dim of its result, kept it alive).
void expectAllLinalgInLoop(Distributed &distributed, const std::string &text) {
  distributed.module->walk([&](mlir::linalg::LinalgOp op) {
    EXPECT_TRUE(distributed.loop->isAncestor(op)) << text;
  });
}

TEST(DistributeWorkgroupsTest, DynamicRowsProducerIsComputedTileByTile) {
  Distributed distributed = distribute(expMatmulBody("?x3xf32", "%n"));
  ASSERT_TRUE(distributed.loop);
  std::string text = print(distributed.module->getOperation());
  expectAllLinalgInLoop(distributed, text);
  // exp(x)'s tile: 128 rows of 3, a static buffer.
  mlir::tensor::EmptyOp tile = producerTile(distributed);
  ASSERT_TRUE(tile) << text;
  EXPECT_EQ(tile.getType().getShape(), llvm::ArrayRef<int64_t>({128, 3}))
      << text;
  // Nothing of the size of the whole intermediate is made.
  distributed.module->walk([&](mlir::tensor::EmptyOp empty) {
    EXPECT_TRUE(empty.getType().hasStaticShape()) << text;
  });
}

/// Checks the heap tile of exp(x) is min(128, n) rows of `columns`
/// (dynamic: "?"), its dynamic sizes computed before the loop (so the buffer
/// can be made once, outside it).
void expectTileHeldToTheWholeRows(const std::string &x,
                                  const std::string &emptySizes,
                                  llvm::ArrayRef<int64_t> shape) {
  Distributed distributed = distribute(expMatmulBody(x, emptySizes));
  ASSERT_TRUE(distributed.loop);
  std::string text = print(distributed.module->getOperation());
  expectAllLinalgInLoop(distributed, text);
  mlir::tensor::EmptyOp tile = producerTile(distributed);
  ASSERT_TRUE(tile) << text;
  EXPECT_EQ(tile.getType().getShape(), shape) << text;
  for (mlir::Value size : tile.getDynamicSizes())
    EXPECT_TRUE(distributed.loop.isDefinedOutsideOfLoop(size)) << text;
  auto rows =
      tile.getDynamicSizes()[0].getDefiningOp<mlir::affine::AffineMinOp>();
  ASSERT_TRUE(rows) << text;
  EXPECT_TRUE(llvm::is_contained(
      rows.getMap().getResults(),
      mlir::getAffineConstantExpr(128, distributed.context.get())))
      << text;
}

TEST(DistributeWorkgroupsTest, DynamicColumnsTileIsHeldToTheWholeRows) {
  // x's columns dynamic too: a heap tile, of no more rows than x has.
  expectTileHeldToTheWholeRows(
      "?x?xf32", "%n, %k",
      {mlir::ShapedType::kDynamic, mlir::ShapedType::kDynamic});
}

TEST(DistributeWorkgroupsTest, TileOverTheStackLimitIsHeldToTheWholeRows) {
  // 128 rows of 20000 floats (10 MB) would not fit on the stack: a heap
  // tile of no more rows than x has, not 128 whatever the rows.
  expectTileHeldToTheWholeRows("?x20000xf32", "%n",
                               {mlir::ShapedType::kDynamic, 20000});
}

// Lowered whole: with x's rows dynamic, each workgroup's tile of exp(x)
// (128x3 f32, 1536 bytes) is on its stack; it was a malloc of all of
// exp(x) (n x 3) in every workgroup.
TEST(DistributeWorkgroupsTest, BoundedTileOfDynamicRowsIsOnTheStack) {
  std::string text = lowerToLLVMText(R"mlir(
func.func @exp_matmul(%x: tensor<?x3xf32>, %w: tensor<3x48xf32>,
                      %out: tensor<?x48xf32>) -> tensor<?x48xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x3xf32>
  %e = tensor.empty(%n) : tensor<?x3xf32>
  %ex = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x3xf32>) outs(%e : tensor<?x3xf32>) {
  ^bb0(%in: f32, %o: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<?x3xf32>
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%out : tensor<?x48xf32>)
      -> tensor<?x48xf32>
  %m = linalg.matmul ins(%ex, %w : tensor<?x3xf32>, tensor<3x48xf32>)
                     outs(%z : tensor<?x48xf32>) -> tensor<?x48xf32>
  return %m : tensor<?x48xf32>
}
)mlir",
                                     {256, false});
  EXPECT_EQ(text.find("@malloc"), std::string::npos) << text;
  // 128 x 3 floats on the stack.
  std::smatch count;
  ASSERT_TRUE(std::regex_search(
      text, count, std::regex(R"((%\d+) = llvm.mlir.constant\(384 : index\))")))
      << text;
  EXPECT_NE(text.find("llvm.alloca " + count[1].str() + " x f32"),
            std::string::npos)
      << text;
}

} // namespace
} // namespace ferry::codegen
