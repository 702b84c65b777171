// What TileAndVectorize makes of the hot ops, read from the LLVM-dialect
// module of lowerDispatchesToLLVM for a 512-bit target (the numbers are
// checked by ExecutableCompilerTest): the matmul's register blocks as FMAs
// of 32-lane vectors with B packed into a stack buffer, the row sum as
// reassociable vector reductions, an elementwise op as 16-lane vectors (one
// register: load, compute and store one at a time), a
// large output only written with non-temporal stores; and nothing
// vectorized for a target without SIMD (vectorBits 0).
#include "compiler/Codegen/TileAndVectorize.h"
#include "compiler/Codegen/ExecutableCompiler.h"
#include "compiler/Codegen/LowerDispatchToLLVM.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

namespace ferry::codegen {
namespace {

std::string lower(const char *source, unsigned vectorBits,
                  bool nontemporalStores = false) {
  mlir::DialectRegistry registry;
  registerCodegenDialects(registry);
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  EXPECT_TRUE(module);
  if (!module)
    return "";
  llvm::SmallVector<EntryLayout> entries;
  auto lowered =
      lowerDispatchesToLLVM(*module, entries, {vectorBits, nontemporalStores});
  EXPECT_TRUE(mlir::succeeded(lowered));
  if (mlir::failed(lowered))
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  (*lowered)->print(os);
  return text;
}

constexpr const char *kMatmul = R"mlir(
func.func @matmul(%a: tensor<128x512xf32>, %b: tensor<512x96xf32>,
                  %c: tensor<128x96xf32>) -> tensor<128x96xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x512xf32>, tensor<512x96xf32>)
                     outs(%c : tensor<128x96xf32>) -> tensor<128x96xf32>
  return %r : tensor<128x96xf32>
}
)mlir";

TEST(TileAndVectorizeTest, MatmulBecomesFmaRegisterBlocksOverPackedB) {
  std::string text = lower(kMatmul, 512);
  // Eight rows of 32 lanes: 8 FMAs of a broadcast of A and a row of B.
  EXPECT_NE(text.find("llvm.intr.fmuladd"), std::string::npos) << text;
  EXPECT_NE(text.find("(vector<32xf32>, vector<32xf32>, vector<32xf32>)"),
            std::string::npos);
  // The 256x32 panel of B, packed on the stack.
  EXPECT_NE(text.find("llvm.alloca"), std::string::npos);
  EXPECT_NE(text.find("8192"), std::string::npos);
}

TEST(TileAndVectorizeTest, MatmulWithKShorterThanAPanelIsVectorized) {
  // k = 64 < 256: one panel of depth 64, not a peeled partial tile of
  // scalar loops.
  std::string text = lower(R"mlir(
func.func @matmul(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>,
                  %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>)
                     outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
)mlir",
                           512);
  EXPECT_NE(text.find("llvm.intr.fmuladd"), std::string::npos) << text;
  EXPECT_NE(text.find("(vector<32xf32>, vector<32xf32>, vector<32xf32>)"),
            std::string::npos);
}

TEST(TileAndVectorizeTest, MatmulWithNarrowNIsVectorizedAtItsWidth) {
  // n = 10 < 2W = 32: register blocks of 10 lanes, not scalar loops.
  std::string text = lower(R"mlir(
func.func @matmul(%a: tensor<64x32xf32>, %b: tensor<32x10xf32>,
                  %c: tensor<64x10xf32>) -> tensor<64x10xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x10xf32>)
                     outs(%c : tensor<64x10xf32>) -> tensor<64x10xf32>
  return %r : tensor<64x10xf32>
}
)mlir",
                           512);
  EXPECT_NE(text.find("(vector<10xf32>, vector<10xf32>, vector<10xf32>)"),
            std::string::npos)
      << text;
}

TEST(TileAndVectorizeTest, NoSimdLeavesScalarLoops) {
  std::string text = lower(kMatmul, 0);
  EXPECT_EQ(text.find("vector<"), std::string::npos);
  EXPECT_EQ(text.find("llvm.alloca"), std::string::npos);
}

TEST(TileAndVectorizeTest, RowSumBecomesReassociableVectorReductions) {
  std::string text = lower(R"mlir(
func.func @row_sum(%x: tensor<64x4096xf32>, %out: tensor<64xf32>)
    -> tensor<64xf32> {
  %s = linalg.reduce ins(%x : tensor<64x4096xf32>)
      outs(%out : tensor<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %sum = arith.addf %in, %acc : f32
      linalg.yield %sum : f32
    }
  return %s : tensor<64xf32>
}
)mlir",
                           512);
  EXPECT_NE(text.find("llvm.intr.vector.reduce.fadd"), std::string::npos)
      << text;
  EXPECT_NE(text.find("reassoc"), std::string::npos);
  EXPECT_NE(text.find("vector<64xf32>"), std::string::npos);
}

TEST(TileAndVectorizeTest, ElementwiseBecomesVectorsOfOneRegister) {
  std::string text = lower(R"mlir(
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @scale(%x: tensor<64x1024xf32>, %out: tensor<64x1024xf32>)
    -> tensor<64x1024xf32> {
  %r = linalg.generic {indexing_maps = [#map, #map],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x1024xf32>) outs(%out : tensor<64x1024xf32>) {
  ^bb0(%v: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %m = arith.mulf %v, %two : f32
    linalg.yield %m : f32
  } -> tensor<64x1024xf32>
  return %r : tensor<64x1024xf32>
}
)mlir",
                           512);
  EXPECT_NE(text.find("llvm.fmul"), std::string::npos) << text;
  EXPECT_NE(text.find("vector<16xf32>"), std::string::npos);
  // Not 4 registers at a time: LLVM then grouped 4 loads and 4 stores.
  EXPECT_EQ(text.find("vector<64xf32>"), std::string::npos) << text;
}

TEST(TileAndVectorizeTest, MasksInMemoryStayScalar) {
  // A select on an i1 mask read from memory (one byte per element): a
  // vector<16xi1> load would read 16 bits, so the op stays scalar loops.
  std::string text = lower(R"mlir(
#map = affine_map<(d0) -> (d0)>
func.func @pick(%m: tensor<1024xi1>, %x: tensor<1024xf32>,
                %out: tensor<1024xf32>) -> tensor<1024xf32> {
  %r = linalg.generic {indexing_maps = [#map, #map, #map],
                       iterator_types = ["parallel"]}
      ins(%m, %x : tensor<1024xi1>, tensor<1024xf32>)
      outs(%out : tensor<1024xf32>) {
  ^bb0(%b: i1, %v: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %s = arith.select %b, %v, %zero : f32
    linalg.yield %s : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}
)mlir",
                           512);
  EXPECT_NE(text.find("llvm.select"), std::string::npos) << text;
  EXPECT_EQ(text.find("xi1>"), std::string::npos) << text;
}

/// An elementwise op writing `%out` (of `type`) from `%x`; `body` computes
/// `%m` from `%v` (the input) and `%o` (the output's old value).
std::string elementwise(const char *type, const char *body) {
  std::string source = R"mlir(
#map = affine_map<(d0) -> (d0)>
func.func @scale(%x: TYPE, %out: TYPE) -> TYPE {
  %r = linalg.generic {indexing_maps = [#map, #map],
                       iterator_types = ["parallel"]}
      ins(%x : TYPE) outs(%out : TYPE) {
  ^bb0(%v: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    BODY
    linalg.yield %m : f32
  } -> TYPE
  return %r : TYPE
}
)mlir";
  auto replace = [&](llvm::StringRef from, llvm::StringRef to) {
    for (size_t at = source.find(from); at != std::string::npos;
         at = source.find(from, at + to.size()))
      source.replace(at, from.size(), to.str());
  };
  replace("TYPE", type);
  replace("BODY", body);
  return source;
}

constexpr const char *kScale = "%m = arith.mulf %v, %two : f32";

TEST(TileAndVectorizeTest, LargeWriteOnlyOutputIsStoredNontemporally) {
  // 16 MiB of f32: at least the 8 MiB threshold.
  std::string text =
      lower(elementwise("tensor<4194304xf32>", kScale).c_str(), 512,
            /*nontemporalStores=*/true);
  // 64-byte aligned streaming stores of one register each where the address
  // is aligned (a run-time test), plain stores where it is not, one SFENCE
  // per workgroup.
  EXPECT_NE(text.find("{alignment = 64 : i64, nontemporal} : vector<16xf32>"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("{alignment = 4 : i64} : vector<16xf32>"),
            std::string::npos);
  EXPECT_EQ(text.find("vector<64xf32>"), std::string::npos);
  EXPECT_NE(text.find("llvm.x86.sse.sfence"), std::string::npos);
}

TEST(TileAndVectorizeTest, DynamicOutputIsStreamedWhenLargeAtRunTime) {
  std::string text = lower(elementwise("tensor<?xf32>", kScale).c_str(), 512,
                           /*nontemporalStores=*/true);
  EXPECT_NE(text.find("nontemporal"), std::string::npos) << text;
  // The size test: 8 MiB of f32.
  EXPECT_NE(text.find("2097152"), std::string::npos);
  EXPECT_NE(text.find("llvm.x86.sse.sfence"), std::string::npos);
}

TEST(TileAndVectorizeTest, SmallOutputIsStoredPlainly) {
  // 4 MiB: under the threshold, likely read from cache by the next dispatch.
  std::string text =
      lower(elementwise("tensor<1048576xf32>", kScale).c_str(), 512,
            /*nontemporalStores=*/true);
  EXPECT_NE(text.find("vector<16xf32>"), std::string::npos) << text;
  EXPECT_EQ(text.find("nontemporal"), std::string::npos);
  EXPECT_EQ(text.find("sfence"), std::string::npos);
}

TEST(TileAndVectorizeTest, OutputAlsoReadIsStoredPlainly) {
  // The payload reads the old output: its lines are loaded anyway.
  std::string text =
      lower(elementwise("tensor<4194304xf32>", "%m = arith.addf %v, %o : f32")
                .c_str(),
            512, /*nontemporalStores=*/true);
  EXPECT_NE(text.find("vector<16xf32>"), std::string::npos) << text;
  EXPECT_EQ(text.find("nontemporal"), std::string::npos);
}

TEST(TileAndVectorizeTest, NoNontemporalStoresUnlessTheTargetAsks) {
  std::string text =
      lower(elementwise("tensor<4194304xf32>", kScale).c_str(), 512);
  EXPECT_NE(text.find("vector<16xf32>"), std::string::npos) << text;
  EXPECT_EQ(text.find("nontemporal"), std::string::npos);
}

} // namespace
} // namespace ferry::codegen
