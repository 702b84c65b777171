// What TileAndVectorize makes of the hot ops, read from the LLVM-dialect
// module of lowerDispatchesToLLVM for a 512-bit target (the numbers are
// checked by ExecutableCompilerTest): the matmul's register blocks as FMAs
// of 32-lane vectors with B packed into a stack buffer, the row sum as
// reassociable vector reductions, an elementwise op as 16-lane vectors (one
// register: load, compute and store one at a time), a
// large output only written with non-temporal stores; and nothing
// vectorized for a target without SIMD (vectorBits 0).
#include "compiler/Codegen/TileAndVectorize.h"
#include "compiler/Codegen/test/LowerToLLVMText.h"

#include <gtest/gtest.h>

#include <regex>

namespace ferry::codegen {
namespace {

std::string lower(const char *source, unsigned vectorBits,
                  bool nontemporalStores = false) {
  return lowerToLLVMText(source, {vectorBits, nontemporalStores});
}

constexpr const char *kMatmul = R"mlir(
func.func @matmul(%a: tensor<128x512xf32>, %b: tensor<512x96xf32>,
                  %c: tensor<128x96xf32>) -> tensor<128x96xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x512xf32>, tensor<512x96xf32>)
                     outs(%c : tensor<128x96xf32>) -> tensor<128x96xf32>
  return %r : tensor<128x96xf32>
}
)mlir";

/// Whether `text` has an FMA (llvm.intr.fmuladd) of `lanes` f32 lanes.
bool hasVectorFma(const std::string &text, int lanes) {
  std::string vector = "vector<" + std::to_string(lanes) + "xf32>";
  return text.find("(" + vector + ", " + vector + ", " + vector + ")") !=
         std::string::npos;
}

/// Whether `text` multiplies scalar f32s (what linalg-to-loops makes of
/// an op left unvectorized).
bool hasScalarFloatMultiply(const std::string &text) {
  return std::regex_search(text, std::regex("llvm\\.fmul [^\n]*: f32\n"));
}

TEST(TileAndVectorizeTest, MatmulBecomesFmaRegisterBlocksOverPackedB) {
  std::string text = lower(kMatmul, 512);
  // Eight rows of 32 lanes: 8 FMAs of a broadcast of A and a row of B.
  EXPECT_NE(text.find("llvm.intr.fmuladd"), std::string::npos) << text;
  EXPECT_TRUE(hasVectorFma(text, 32));
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
  EXPECT_TRUE(hasVectorFma(text, 32));
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
  EXPECT_TRUE(hasVectorFma(text, 10)) << text;
}

TEST(TileAndVectorizeTest, MatmulRemainderColumnsAreANarrowerBlock) {
  // n = 40 = 32 + 8 and k = 300 = 256 + 44: the last 8 columns are a block
  // of 8 lanes and the last 44 rows of B a shallower panel, not scalar
  // loops.
  std::string text = lower(R"mlir(
func.func @matmul(%a: tensor<64x300xf32>, %b: tensor<300x40xf32>,
                  %c: tensor<64x40xf32>) -> tensor<64x40xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x300xf32>, tensor<300x40xf32>)
                     outs(%c : tensor<64x40xf32>) -> tensor<64x40xf32>
  return %r : tensor<64x40xf32>
}
)mlir",
                           512);
  EXPECT_TRUE(hasVectorFma(text, 32)) << text;
  EXPECT_TRUE(hasVectorFma(text, 8));
  EXPECT_FALSE(hasScalarFloatMultiply(text));
}

TEST(TileAndVectorizeTest, DynamicMatmulLastColumnPanelIsMasked) {
  // n dynamic: its last panel (n % 32 columns at run time) is register
  // blocks of masked 32-lane vectors, not scalar loops.
  std::string text = lower(R"mlir(
func.func @matmul(%a: tensor<64x128xf32>, %b: tensor<128x?xf32>,
                  %c: tensor<64x?xf32>) -> tensor<64x?xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x?xf32>)
                     outs(%c : tensor<64x?xf32>) -> tensor<64x?xf32>
  return %r : tensor<64x?xf32>
}
)mlir",
                           512);
  EXPECT_TRUE(hasVectorFma(text, 32)) << text;
  EXPECT_NE(text.find("llvm.intr.masked.load"), std::string::npos);
  EXPECT_NE(text.find("llvm.intr.masked.store"), std::string::npos);
  EXPECT_FALSE(hasScalarFloatMultiply(text));
}

TEST(TileAndVectorizeTest, BatchMatmulIsAMatmulPerBatch) {
  // n = 48 = 32 + 16: full and remainder blocks in every batch.
  std::string text = lower(R"mlir(
func.func @bmm(%a: tensor<4x64x128xf32>, %b: tensor<4x128x48xf32>,
               %c: tensor<4x64x48xf32>) -> tensor<4x64x48xf32> {
  %r = linalg.batch_matmul
      ins(%a, %b : tensor<4x64x128xf32>, tensor<4x128x48xf32>)
      outs(%c : tensor<4x64x48xf32>) -> tensor<4x64x48xf32>
  return %r : tensor<4x64x48xf32>
}
)mlir",
                           512);
  EXPECT_TRUE(hasVectorFma(text, 32)) << text;
  EXPECT_TRUE(hasVectorFma(text, 16));
  // B's panels packed on the stack (128 x 32 and 128 x 16 floats).
  EXPECT_NE(text.find("4096"), std::string::npos);
  EXPECT_NE(text.find("2048"), std::string::npos);
  EXPECT_FALSE(hasScalarFloatMultiply(text));
}

TEST(TileAndVectorizeTest, ConvNhwcHwcfBecomesFmasAlongOutputChannels) {
  // F = 40 = 32 + 8, OW = 10 = 8 + 2: full and remainder blocks, all
  // vectorized along F; the input broadcast, the filter a vector of F.
  std::string text = lower(R"mlir(
func.func @conv(%x: tensor<1x12x12x3xf32>, %f: tensor<3x3x3x40xf32>,
                %o: tensor<1x10x10x40xf32>) -> tensor<1x10x10x40xf32> {
  %r = linalg.conv_2d_nhwc_hwcf
      {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %f : tensor<1x12x12x3xf32>, tensor<3x3x3x40xf32>)
      outs(%o : tensor<1x10x10x40xf32>) -> tensor<1x10x10x40xf32>
  return %r : tensor<1x10x10x40xf32>
}
)mlir",
                           512);
  EXPECT_TRUE(hasVectorFma(text, 32)) << text;
  EXPECT_TRUE(hasVectorFma(text, 8));
  EXPECT_FALSE(hasScalarFloatMultiply(text));
}

TEST(TileAndVectorizeTest, ConvNchwFchwIsVectorizedAlongOutputColumns) {
  // OW = 40 = 32 + 8 (a partial block of 8 lanes), F = 12 = 8 + 4.
  std::string text = lower(R"mlir(
func.func @conv(%x: tensor<1x3x12x42xf32>, %f: tensor<12x3x3x3xf32>,
                %o: tensor<1x12x10x40xf32>) -> tensor<1x12x10x40xf32> {
  %r = linalg.conv_2d_nchw_fchw
      {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %f : tensor<1x3x12x42xf32>, tensor<12x3x3x3xf32>)
      outs(%o : tensor<1x12x10x40xf32>) -> tensor<1x12x10x40xf32>
  return %r : tensor<1x12x10x40xf32>
}
)mlir",
                           512);
  EXPECT_TRUE(std::regex_search(
      text, std::regex("llvm\\.fmul [^\n]*: vector<32xf32>\n")))
      << text;
  EXPECT_TRUE(std::regex_search(
      text, std::regex("llvm\\.fmul [^\n]*: vector<8xf32>\n")));
  EXPECT_FALSE(hasScalarFloatMultiply(text));
}

TEST(TileAndVectorizeTest, DepthwiseConvBecomesFmasAlongChannels) {
  // C = 48 = 32 + 16, strided and dilated.
  std::string text = lower(R"mlir(
func.func @dw(%x: tensor<2x13x13x48xf32>, %f: tensor<3x3x48xf32>,
              %o: tensor<2x5x5x48xf32>) -> tensor<2x5x5x48xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc
      {strides = dense<2> : tensor<2xi64>, dilations = dense<2> : tensor<2xi64>}
      ins(%x, %f : tensor<2x13x13x48xf32>, tensor<3x3x48xf32>)
      outs(%o : tensor<2x5x5x48xf32>) -> tensor<2x5x5x48xf32>
  return %r : tensor<2x5x5x48xf32>
}
)mlir",
                           512);
  EXPECT_TRUE(hasVectorFma(text, 32)) << text;
  EXPECT_TRUE(hasVectorFma(text, 16));
  EXPECT_FALSE(hasScalarFloatMultiply(text));
}

TEST(TileAndVectorizeTest, PoolingBecomesVectorsAlongChannels) {
  std::string text = lower(R"mlir(
func.func @pool(%x: tensor<1x9x9x32xf32>, %w: tensor<2x2xf32>,
                %o: tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32> {
  %r = linalg.pooling_nhwc_max
      {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x9x9x32xf32>, tensor<2x2xf32>)
      outs(%o : tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32>
  return %r : tensor<1x4x4x32xf32>
}
)mlir",
                           512);
  // maximumf as a compare and select (arith-expand) of 32 lanes, never of
  // scalars.
  EXPECT_TRUE(std::regex_search(
      text, std::regex("llvm\\.fcmp [^\n]*: vector<32xf32>\n")))
      << text;
  EXPECT_FALSE(
      std::regex_search(text, std::regex("llvm\\.fcmp [^\n]*: f32\n")));
}

TEST(TileAndVectorizeTest, MatvecVecmatAndDotAreVectorized) {
  // matvec and dot along k (300 = 4 x 64 + 44, 1000 = 15 x 64 + 40) into
  // vector reductions, vecmat along n (70 = 64 + 6) as FMAs.
  std::string text = lower(R"mlir(
func.func @matvec(%a: tensor<37x300xf32>, %x: tensor<300xf32>,
                  %y: tensor<37xf32>) -> tensor<37xf32> {
  %r = linalg.matvec ins(%a, %x : tensor<37x300xf32>, tensor<300xf32>)
                     outs(%y : tensor<37xf32>) -> tensor<37xf32>
  return %r : tensor<37xf32>
}
func.func @vecmat(%x: tensor<300xf32>, %a: tensor<300x70xf32>,
                  %y: tensor<70xf32>) -> tensor<70xf32> {
  %r = linalg.vecmat ins(%x, %a : tensor<300xf32>, tensor<300x70xf32>)
                     outs(%y : tensor<70xf32>) -> tensor<70xf32>
  return %r : tensor<70xf32>
}
func.func @dot(%x: tensor<1000xf32>, %z: tensor<1000xf32>,
               %s: tensor<f32>) -> tensor<f32> {
  %r = linalg.dot ins(%x, %z : tensor<1000xf32>, tensor<1000xf32>)
                  outs(%s : tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
)mlir",
                           512);
  for (const char *name : {"matvec", "vecmat", "dot"}) {
    size_t begin = text.find(std::string("llvm.func @") + name + "__body");
    ASSERT_NE(begin, std::string::npos) << name << "\n" << text;
    size_t end = text.find("llvm.func @", begin + 1);
    std::string body = text.substr(begin, end - begin);
    EXPECT_FALSE(hasScalarFloatMultiply(body)) << name << "\n" << body;
    if (std::string(name) == "vecmat") {
      EXPECT_TRUE(hasVectorFma(body, 64)) << body;
      // The last 6 columns: a partial workgroup (64 columns each), a
      // masked block of 64 lanes.
      EXPECT_NE(body.find("llvm.intr.masked.load"), std::string::npos) << body;
      EXPECT_NE(body.find("llvm.intr.masked.store"), std::string::npos);
    } else {
      EXPECT_NE(body.find("llvm.intr.vector.reduce.fadd"), std::string::npos)
          << name << "\n"
          << body;
      EXPECT_NE(body.find(": vector<64xf32>"), std::string::npos);
      EXPECT_NE(body.find(": vector<" +
                          std::string(name[0] == 'm' ? "44" : "40") + "xf32>"),
                std::string::npos)
          << name;
    }
  }
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
