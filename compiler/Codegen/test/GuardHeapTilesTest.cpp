// The checks GuardHeapTiles adds, read from the LLVM-dialect module of
// lowerDispatchesToLLVM: a kernel whose fused producer needs a tile of a
// dynamic size (so on the heap) bounds the size, tests the malloc's result
// for null and returns FERRY_ENTRY_STATUS_OUT_OF_MEMORY from the failure
// block after freeing what it holds; a kernel with no heap tile has no such
// block. ExecutableCompilerTest runs one with sizes that overflow.
#include "compiler/Codegen/GuardHeapTiles.h"
#include "compiler/Codegen/test/LowerToLLVMText.h"

#include <gtest/gtest.h>

#include <regex>

namespace ferry::codegen {
namespace {

std::string lower(const char *source) {
  return lowerToLLVMText(source, {256, false});
}

size_t count(const std::string &text, const std::regex &pattern) {
  return std::distance(std::sregex_iterator(text.begin(), text.end(), pattern),
                       std::sregex_iterator());
}

// exp(x) @ w with x's columns dynamic: each workgroup's tile of exp(x) is
// a heap buffer of rows x k floats.
constexpr const char *kExpMatmul = R"mlir(
func.func @exp_matmul(%x: tensor<?x?xf32>, %w: tensor<?x48xf32>,
                      %out: tensor<?x48xf32>) -> tensor<?x48xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xf32>
  %k = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%n, %k) : tensor<?x?xf32>
  %ex = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%in: f32, %o: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  %e2 = tensor.empty(%k) : tensor<?x48xf32>
  %ew = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<?x48xf32>) outs(%e2 : tensor<?x48xf32>) {
  ^bb0(%in: f32, %o: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<?x48xf32>
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%out : tensor<?x48xf32>)
      -> tensor<?x48xf32>
  %m = linalg.matmul ins(%ex, %ew : tensor<?x?xf32>, tensor<?x48xf32>)
                     outs(%z : tensor<?x48xf32>) -> tensor<?x48xf32>
  return %m : tensor<?x48xf32>
}
)mlir";

TEST(GuardHeapTilesTest, EachMallocIsCheckedAndFailsWithTheStatus) {
  std::string text = lower(kExpMatmul);
  // Right after each malloc: a compare with null and an unlikely branch.
  std::regex check(
      R"((%\d+) = llvm.call @malloc\(.*\n\s*(%\d+) = llvm.mlir.zero : !llvm.ptr\n)"
      R"(\s*(%\d+) = llvm.icmp "eq" \1, \2 : !llvm.ptr\n)"
      R"(\s*llvm.cond_br \3 weights\(\[1, 2000\]\), \^(bb\d+), \^bb\d+)");
  std::vector<std::pair<std::string, std::string>> checked; // tile, block
  for (auto it = std::sregex_iterator(text.begin(), text.end(), check);
       it != std::sregex_iterator(); ++it)
    checked.emplace_back((*it)[1], (*it)[4]);
  // exp(x)'s tile, then exp(w)'s, both before the workgroup loop.
  ASSERT_EQ(checked.size(), 2u) << text;
  EXPECT_EQ(count(text, std::regex(R"(llvm.call @malloc\()")), 2u);
  // The failure block frees the tiles held (the second frees the first) and
  // returns the out-of-memory status.
  for (size_t i = 0; i < checked.size(); ++i) {
    SCOPED_TRACE(i);
    std::smatch block;
    ASSERT_TRUE(std::regex_search(
        text, block,
        std::regex("\\^" + checked[i].second +
                   R"(:.*\n((\s*llvm.call @free\(%\d+\).*\n)*))"
                   R"(\s*(%\d+) = llvm.mlir.constant\(-1 : i32\) : i32\n)"
                   R"(\s*llvm.return \3 : i32)")))
        << text;
    std::string frees = block[1];
    for (size_t held = 0; held < checked.size(); ++held)
      EXPECT_EQ(frees.find("@free(" + checked[held].first + ")") !=
                    std::string::npos,
                held < i)
          << frees;
  }
  // The size is bounded: an unsigned 128-bit product per dynamic size, a
  // compare with 2^62, a select per size.
  EXPECT_NE(text.find("i64 to i128"), std::string::npos);
  EXPECT_NE(text.find("llvm.mlir.constant(4611686018427387904 : i64)"),
            std::string::npos)
      << text;
  // The entry returns what the body returned.
  std::regex entry(R"((%\d+) = llvm.call @exp_matmul__body\([^\n]*\) -> i32\n)"
                   R"((.*\n)*?\s*llvm.return \1 : i32)");
  EXPECT_TRUE(std::regex_search(text, entry)) << text;
}

TEST(GuardHeapTilesTest, NoHeapTileNoFailureBlock) {
  std::string text = lower(R"mlir(
func.func @add(%a: tensor<?xf32>, %b: tensor<?xf32>, %out: tensor<?xf32>)
    -> tensor<?xf32> {
  %r = linalg.add ins(%a, %b : tensor<?xf32>, tensor<?xf32>)
                  outs(%out : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
)mlir");
  EXPECT_EQ(text.find("@malloc"), std::string::npos) << text;
  EXPECT_EQ(text.find("constant(-1 : i32)"), std::string::npos) << text;
  EXPECT_NE(text.find("llvm.return"), std::string::npos);
}

} // namespace
} // namespace ferry::codegen
