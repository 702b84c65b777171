// compileExecutable end to end: a dispatch function in, an ELF shared object
// out, loaded with dlopen and run over its workgroups through the kernel ABI,
// compared with a hand-written loop.
#include "compiler/Codegen/ExecutableCompiler.h"
#include "runtime/hal/cpu_features.h"
#include "runtime/hal/executable_abi.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <dlfcn.h>
#include <fstream>
#include <unistd.h>

namespace ferry::codegen {
namespace {

using DispatchState = ferry_dispatch_state_t;
using EntryFn = ferry_executable_entry_fn_t;

class LoadedImage {
public:
  explicit LoadedImage(const std::vector<uint8_t> &image) {
    char path[] = "/tmp/ferry-codegen-test-XXXXXX";
    int fd = mkstemp(path);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(write(fd, image.data(), image.size()), (ssize_t)image.size());
    close(fd);
    handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    unlink(path);
    EXPECT_NE(handle, nullptr) << dlerror();
  }
  ~LoadedImage() {
    if (handle)
      dlclose(handle);
  }
  void *symbol(const char *name) {
    return handle ? dlsym(handle, name) : nullptr;
  }

private:
  void *handle = nullptr;
};

struct Compiled {
  ExecutableImage image;
  bool ok = false;
};

Compiled compile(mlir::MLIRContext &context, const char *source) {
  Compiled compiled;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  EXPECT_TRUE(module);
  if (!module)
    return compiled;
  auto image = compileExecutable(*module, TargetOptions());
  if (mlir::succeeded(image)) {
    compiled.image = std::move(*image);
    compiled.ok = true;
  }
  return compiled;
}

std::unique_ptr<mlir::MLIRContext> makeContext() {
  mlir::DialectRegistry registry;
  registerCodegenDialects(registry);
  return std::make_unique<mlir::MLIRContext>(registry);
}

uint32_t workgroupCount(const WorkgroupCount &rule,
                        const std::vector<std::vector<int64_t>> &shapes) {
  if (rule.tileSize == 0)
    return 1;
  int64_t extent = rule.staticExtent ? *rule.staticExtent
                                     : shapes[rule.bindingIndex][rule.dimIndex];
  return (extent + rule.tileSize - 1) / rule.tileSize;
}

void runAll(EntryFn entry, uint32_t count, std::vector<void *> bindings,
            std::vector<uint64_t> pushConstants) {
  std::vector<uint64_t> lengths(bindings.size(), 0);
  for (uint32_t x = 0; x < count; ++x) {
    DispatchState state = {};
    state.workgroup_id[0] = x;
    state.workgroup_count[0] = count;
    state.workgroup_count[1] = state.workgroup_count[2] = 1;
    state.binding_count = bindings.size();
    state.push_constant_count = pushConstants.size();
    state.bindings = bindings.data();
    state.binding_lengths = lengths.data();
    state.push_constants = pushConstants.data();
    ASSERT_EQ(entry(&state), 0);
  }
}

constexpr const char *kMatmul = R"mlir(
func.func @matmul(%a: tensor<100x64xf32>, %b: tensor<64x48xf32>,
                  %c: tensor<100x48xf32>) -> tensor<100x48xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<100x64xf32>, tensor<64x48xf32>)
                     outs(%c : tensor<100x48xf32>) -> tensor<100x48xf32>
  return %r : tensor<100x48xf32>
}
)mlir";

TEST(ExecutableCompilerTest, ExportsEntryAndAbiVersionOnly) {
  auto context = makeContext();
  Compiled compiled = compile(*context, kMatmul);
  ASSERT_TRUE(compiled.ok);
  EXPECT_TRUE(compiled.image.format == "elf-x86_64" ||
              compiled.image.format == "elf-aarch64");
  ASSERT_GE(compiled.image.image.size(), 4u);
  EXPECT_EQ(compiled.image.image[1], 'E');
  LoadedImage loaded(compiled.image.image);
  auto *version = static_cast<const uint32_t *>(
      loaded.symbol("ferry_executable_abi_version"));
  ASSERT_NE(version, nullptr);
  EXPECT_EQ(*version, FERRY_EXECUTABLE_ABI_VERSION);
  // Every feature recorded is one the runtime checks, and this CPU has it.
  llvm::SmallVector<llvm::StringRef> features;
  llvm::StringRef(compiled.image.cpuFeatures).split(features, ',', -1, false);
  EXPECT_FALSE(features.empty());
  for (llvm::StringRef feature : features)
    EXPECT_TRUE(hal::CpuFeatureSet::host().has(std::string_view(feature)))
        << feature.str();
  EXPECT_NE(loaded.symbol("matmul"), nullptr);
  EXPECT_EQ(loaded.symbol("matmul__body"), nullptr);
  ASSERT_EQ(compiled.image.entries.size(), 1u);
  const EntryLayout &entry = compiled.image.entries[0];
  EXPECT_EQ(entry.bindingAccess, (std::vector<uint8_t>{1, 1, 3}));
  EXPECT_EQ(entry.resultBindings, (std::vector<unsigned>{2}));
  EXPECT_EQ(entry.pushConstantCount, 0u);
}

TEST(ExecutableCompilerTest, MatmulMatchesLoop) {
  auto context = makeContext();
  Compiled compiled = compile(*context, kMatmul);
  ASSERT_TRUE(compiled.ok);
  LoadedImage loaded(compiled.image.image);
  auto entry = reinterpret_cast<EntryFn>(loaded.symbol("matmul"));
  ASSERT_NE(entry, nullptr);
  const int M = 100, K = 64, N = 48;
  std::vector<float> a(M * K), b(K * N), c(M * N), expected(M * N);
  for (int i = 0; i < M * K; ++i)
    a[i] = (i % 7) - 3.0f;
  for (int i = 0; i < K * N; ++i)
    b[i] = (i % 5) * 0.5f;
  for (int i = 0; i < M * N; ++i)
    c[i] = expected[i] = i % 3;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        expected[i * N + j] += a[i * K + k] * b[k * N + j];
  uint32_t count = workgroupCount(compiled.image.entries[0].workgroups, {});
  EXPECT_GT(count, 1u) << "the rows should be split over workgroups";
  runAll(entry, count, {a.data(), b.data(), c.data()}, {});
  EXPECT_EQ(c, expected);
}

TEST(ExecutableCompilerTest, DynamicElementwiseGenericMatchesLoop) {
  auto context = makeContext();
  Compiled compiled = compile(*context, R"mlir(
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @add_relu(%a: tensor<?x?xf32>, %bias: tensor<?xf32>,
                    %out: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.generic {indexing_maps = [#map, #row, #map],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %bias : tensor<?x?xf32>, tensor<?xf32>)
      outs(%out : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %s, %z : f32
    linalg.yield %m : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
)mlir");
  ASSERT_TRUE(compiled.ok);
  const EntryLayout &layout = compiled.image.entries[0];
  EXPECT_EQ(layout.pushConstantCount, 5u);
  EXPECT_EQ(layout.bindingAccess, (std::vector<uint8_t>{1, 1, 2}));
  LoadedImage loaded(compiled.image.image);
  auto entry = reinterpret_cast<EntryFn>(loaded.symbol("add_relu"));
  ASSERT_NE(entry, nullptr);
  const int64_t M = 300, N = 129;
  std::vector<float> a(M * N), bias(N), out(M * N, -1.0f), expected(M * N);
  for (int i = 0; i < M * N; ++i)
    a[i] = (i % 11) - 5.0f;
  for (int j = 0; j < N; ++j)
    bias[j] = (j % 3) - 1.0f;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      expected[i * N + j] = std::max(a[i * N + j] + bias[j], 0.0f);
  uint32_t count = workgroupCount(layout.workgroups, {{M, N}, {N}, {M, N}});
  EXPECT_GT(count, 1u);
  runAll(entry, count, {a.data(), bias.data(), out.data()},
         {(uint64_t)M, (uint64_t)N, (uint64_t)N, (uint64_t)M, (uint64_t)N});
  EXPECT_EQ(out, expected);
}

// A layer as dispatch formation fuses it: fill, matmul, then bias and ReLU
// on the matmul's result, the elementwise op the root. Its workgroups take
// the rows a matmul root would (64 under 512 rows), so the fused matmul's
// tiles hold whole 8-row register blocks (3-row workgroups, what the
// elementwise root's work alone gives, left it all to scalar loops).
TEST(ExecutableCompilerTest, FusedLayerWorkgroupsAreMatmulSizedAndMatchLoop) {
  auto context = makeContext();
  Compiled compiled = compile(*context, R"mlir(
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @layer(%x: tensor<256x64xf32>, %w: tensor<64x64xf32>,
                 %b: tensor<64xf32>, %out: tensor<256x64xf32>)
    -> tensor<256x64xf32> {
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%out : tensor<256x64xf32>)
      -> tensor<256x64xf32>
  %m = linalg.matmul ins(%x, %w : tensor<256x64xf32>, tensor<64x64xf32>)
                     outs(%z : tensor<256x64xf32>) -> tensor<256x64xf32>
  %r = linalg.generic {indexing_maps = [#row, #map],
                       iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<64xf32>) outs(%m : tensor<256x64xf32>) {
  ^bb0(%bias: f32, %acc: f32):
    %s = arith.addf %acc, %bias : f32
    %c0 = arith.constant 0.0 : f32
    %relu = arith.maximumf %s, %c0 : f32
    linalg.yield %relu : f32
  } -> tensor<256x64xf32>
  return %r : tensor<256x64xf32>
}
)mlir");
  ASSERT_TRUE(compiled.ok);
  const EntryLayout &layout = compiled.image.entries[0];
  EXPECT_EQ(layout.workgroups.tileSize, 64);
  LoadedImage loaded(compiled.image.image);
  auto entry = reinterpret_cast<EntryFn>(loaded.symbol("layer"));
  ASSERT_NE(entry, nullptr);
  const int M = 256, N = 64, K = 64;
  std::vector<float> x(M * K), w(K * N), b(N), out(M * N, 7.0f),
      expected(M * N);
  for (int i = 0; i < M * K; ++i)
    x[i] = (i % 13) * 0.25f - 1.5f;
  for (int i = 0; i < K * N; ++i)
    w[i] = (i % 7) * 0.5f - 1.5f;
  for (int j = 0; j < N; ++j)
    b[j] = (j % 5) - 2.0f;
  // Small integers and quarters: every sum is exact in any order.
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += x[i * K + k] * w[k * N + j];
      expected[i * N + j] = std::max(acc + b[j], 0.0f);
    }
  runAll(entry,
         workgroupCount(layout.workgroups, {{M, K}, {K, N}, {N}, {M, N}}),
         {x.data(), w.data(), b.data(), out.data()}, {});
  EXPECT_EQ(out, expected);
}

// A large output (over the 8 MiB threshold at run time) is written with
// non-temporal stores on x86 where aligned (TileAndVectorize.cpp): the same
// results with the output 64-byte aligned (streamed) and 4 bytes off
// (plain stores), and a size no tile divides (peeled remainder).
TEST(ExecutableCompilerTest, LargeStreamedOutputMatchesLoopAlignedOrNot) {
  auto context = makeContext();
  Compiled compiled = compile(*context, R"mlir(
#map = affine_map<(d0) -> (d0)>
func.func @scale(%x: tensor<?xf32>, %out: tensor<?xf32>) -> tensor<?xf32> {
  %r = linalg.generic {indexing_maps = [#map, #map],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%out : tensor<?xf32>) {
  ^bb0(%v: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %half = arith.constant 0.5 : f32
    %m = arith.mulf %v, %two : f32
    %a = arith.addf %m, %half : f32
    linalg.yield %a : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
)mlir");
  ASSERT_TRUE(compiled.ok);
#if defined(__x86_64__)
  // The streaming path is in the image: its SFENCE (0f ae f8).
  const std::vector<uint8_t> &bytes = compiled.image.image;
  const uint8_t sfence[] = {0x0f, 0xae, 0xf8};
  EXPECT_NE(std::search(bytes.begin(), bytes.end(), sfence, sfence + 3),
            bytes.end());
#endif
  const EntryLayout &layout = compiled.image.entries[0];
  LoadedImage loaded(compiled.image.image);
  auto entry = reinterpret_cast<EntryFn>(loaded.symbol("scale"));
  ASSERT_NE(entry, nullptr);
  const int64_t n = (3 << 20) + 37;
  std::vector<float> x(n), expected(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = (float)(i % 1001) - 500.0f;
    expected[i] = x[i] * 2.0f + 0.5f;
  }
  uint32_t count = workgroupCount(layout.workgroups, {{n}, {n}});
  // 64-byte aligned storage with room for a 4-byte offset.
  std::vector<float> storage(n + 32, -1.0f);
  auto *aligned = reinterpret_cast<float *>(
      (reinterpret_cast<uintptr_t>(storage.data()) + 63) & ~uintptr_t{63});
  for (float *out : {aligned, aligned + 1}) {
    std::fill(storage.begin(), storage.end(), -1.0f);
    runAll(entry, count, {x.data(), out}, {(uint64_t)n, (uint64_t)n});
    EXPECT_TRUE(std::equal(expected.begin(), expected.end(), out))
        << "output offset " << (out - aligned) * sizeof(float) << " bytes";
  }
}

// Dynamic sizes none of the tiles divide: partial panels of B (n 45 = 32 +
// 13, k 300 = 256 + 44) and a partial register block of rows, the peeled
// tiles (TileAndVectorize.cpp) around the vectorized ones.
TEST(ExecutableCompilerTest, DynamicMatmulWithPartialTilesMatchesLoop) {
  auto context = makeContext();
  Compiled compiled = compile(*context, R"mlir(
func.func @matmul(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>,
                  %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>)
                     outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
)mlir");
  ASSERT_TRUE(compiled.ok);
  LoadedImage loaded(compiled.image.image);
  auto entry = reinterpret_cast<EntryFn>(loaded.symbol("matmul"));
  ASSERT_NE(entry, nullptr);
  const int64_t M = 157, K = 300, N = 45;
  std::vector<float> a(M * K), b(K * N), c(M * N), expected(M * N);
  for (int i = 0; i < M * K; ++i)
    a[i] = (i % 7) - 3.0f;
  for (int i = 0; i < K * N; ++i)
    b[i] = (i % 5) * 0.5f;
  for (int i = 0; i < M * N; ++i)
    c[i] = expected[i] = i % 3;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        expected[i * N + j] += a[i * K + k] * b[k * N + j];
  uint32_t count = workgroupCount(compiled.image.entries[0].workgroups,
                                  {{M, K}, {K, N}, {M, N}});
  EXPECT_EQ(count, 2u) << "128 rows a workgroup (M unknown)";
  runAll(entry, count, {a.data(), b.data(), c.data()},
         {(uint64_t)M, (uint64_t)K, (uint64_t)K, (uint64_t)N, (uint64_t)M,
          (uint64_t)N});
  EXPECT_EQ(c, expected); // small integers and halves: exact in any order
}

// A row sum vectorized 4W elements at a time, with a partial tile at the
// end of each row.
TEST(ExecutableCompilerTest, RowSumWithPartialTileMatchesLoop) {
  auto context = makeContext();
  Compiled compiled = compile(*context, R"mlir(
func.func @row_sum(%x: tensor<?x?xf32>, %out: tensor<?xf32>) -> tensor<?xf32> {
  %s = linalg.reduce ins(%x : tensor<?x?xf32>) outs(%out : tensor<?xf32>)
      dimensions = [1]
    (%in: f32, %acc: f32) {
      %sum = arith.addf %in, %acc : f32
      linalg.yield %sum : f32
    }
  return %s : tensor<?xf32>
}
)mlir");
  ASSERT_TRUE(compiled.ok);
  LoadedImage loaded(compiled.image.image);
  auto entry = reinterpret_cast<EntryFn>(loaded.symbol("row_sum"));
  ASSERT_NE(entry, nullptr);
  const int64_t M = 37, N = 1000;
  std::vector<float> x(M * N), out(M), expected(M);
  for (int i = 0; i < M; ++i) {
    out[i] = expected[i] = i;
    for (int j = 0; j < N; ++j)
      expected[i] += x[i * N + j] = ((i + j) % 9) - 4.0f;
  }
  uint32_t count =
      workgroupCount(compiled.image.entries[0].workgroups, {{M, N}, {M}});
  runAll(entry, count, {x.data(), out.data()},
         {(uint64_t)M, (uint64_t)N, (uint64_t)M});
  EXPECT_EQ(out, expected); // small integers: exact in any order
}

// A fused elementwise producer of a pooling (bias + ReLU, as in the CNN
// sample) gets its tile buffer on the kernel's stack: the image calls no
// malloc (an allocation that could fail inside a kernel), and the result
// matches a loop.
TEST(ExecutableCompilerTest, FusedProducerTileOnTheStack) {
  auto context = makeContext();
  Compiled compiled = compile(*context, R"mlir(
#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
#bias = affine_map<(n, h, w, c) -> (c)>
func.func @pool(%x: tensor<1x8x8x4xf32>, %b: tensor<4xf32>,
                %out: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %low = arith.constant -3.40282347E+38 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x4xf32>
  %relu = linalg.generic {indexing_maps = [#id, #bias, #id],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %b : tensor<1x8x8x4xf32>, tensor<4xf32>)
      outs(%e : tensor<1x8x8x4xf32>) {
  ^bb0(%in: f32, %bi: f32, %o: f32):
    %s = arith.addf %in, %bi : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x8x8x4xf32>
  %init = linalg.fill ins(%low : f32) outs(%out : tensor<1x4x4x4xf32>)
      -> tensor<1x4x4x4xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>,
                                strides = dense<2> : tensor<2xi64>}
      ins(%relu, %window : tensor<1x8x8x4xf32>, tensor<2x2xf32>)
      outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %p : tensor<1x4x4x4xf32>
}
)mlir");
  ASSERT_TRUE(compiled.ok);
  const std::vector<uint8_t> &image = compiled.image.image;
  EXPECT_EQ(std::string(image.begin(), image.end()).find("malloc"),
            std::string::npos);
  LoadedImage loaded(image);
  auto entry = reinterpret_cast<EntryFn>(loaded.symbol("pool"));
  ASSERT_NE(entry, nullptr);
  std::vector<float> x(8 * 8 * 4), b = {0.5f, -1.0f, 0.0f, 2.0f};
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(int(i * 7 % 23) - 11);
  std::vector<float> out(4 * 4 * 4, 0.0f), expected(4 * 4 * 4);
  for (int h = 0; h < 4; ++h)
    for (int w = 0; w < 4; ++w)
      for (int c = 0; c < 4; ++c) {
        float best = -3.40282347e+38f;
        for (int i = 0; i < 2; ++i)
          for (int j = 0; j < 2; ++j)
            best = std::max(
                best, std::max(x[((2 * h + i) * 8 + 2 * w + j) * 4 + c] + b[c],
                               0.0f));
        expected[(h * 4 + w) * 4 + c] = best;
      }
  uint32_t count = workgroupCount(compiled.image.entries[0].workgroups,
                                  {{1, 8, 8, 4}, {4}, {1, 4, 4, 4}});
  runAll(entry, count, {x.data(), b.data(), out.data()}, {});
  EXPECT_EQ(out, expected);
}

// (x + x) @ w with x's columns dynamic: each workgroup allocates its tile
// of x + x (rows x k floats) on the heap. It computes what a loop does; with a
// k whose tile size overflows 64 bits, or exceeds 2^62 bytes, every
// workgroup returns the out-of-memory status before it reads x (the
// bindings here are far shorter than the sizes claim) and writes nothing
// through a null or short buffer (GuardHeapTiles.h).
TEST(ExecutableCompilerTest, HeapTileTooLargeIsOutOfMemory) {
  auto context = makeContext();
  Compiled compiled = compile(*context, R"mlir(
func.func @exp_matmul(%x: tensor<?x?xf32>, %w: tensor<?x8xf32>,
                      %out: tensor<?x8xf32>) -> tensor<?x8xf32> {
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
    %v = arith.addf %in, %in : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%out : tensor<?x8xf32>)
      -> tensor<?x8xf32>
  %m = linalg.matmul ins(%ex, %w : tensor<?x?xf32>, tensor<?x8xf32>)
                     outs(%z : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %m : tensor<?x8xf32>
}
)mlir");
  ASSERT_TRUE(compiled.ok);
  ASSERT_NE(
      std::string(compiled.image.image.begin(), compiled.image.image.end())
          .find("malloc"),
      std::string::npos);
  LoadedImage loaded(compiled.image.image);
  auto entry = reinterpret_cast<EntryFn>(loaded.symbol("exp_matmul"));
  ASSERT_NE(entry, nullptr);
  const WorkgroupCount &rule = compiled.image.entries[0].workgroups;

  // A size that fits: the loop's result (small integers, exact).
  const int64_t N = 37, K = 70;
  std::vector<float> x(N * K), w(K * 8), out(N * 8, -1.0f), expected(N * 8);
  for (int64_t i = 0; i < N * K; ++i)
    x[i] = float(i % 5) - 2.0f;
  for (int64_t i = 0; i < K * 8; ++i)
    w[i] = float(i % 3) - 1.0f;
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = 0; j < 8; ++j) {
      float sum = 0.0f;
      for (int64_t k = 0; k < K; ++k)
        sum += 2.0f * x[i * K + k] * w[k * 8 + j];
      expected[i * 8 + j] = sum;
    }
  runAll(entry, workgroupCount(rule, {{N, K}, {K, 8}, {N, 8}}),
         {x.data(), w.data(), out.data()}, {N, K, K, N});
  EXPECT_EQ(out, expected);

  // 2 rows of 2^62 or 2^61 floats: 2^65 bytes (the product overflows) or
  // 2^63 (over the bound).
  for (uint64_t k : {uint64_t(1) << 62, uint64_t(1) << 61}) {
    SCOPED_TRACE(k);
    const uint64_t n = 2;
    std::vector<float> small(16, 1.0f), result(n * 8, -1.0f);
    uint32_t count = workgroupCount(rule, {{int64_t(n), 1}, {1, 8}, {2, 8}});
    std::vector<void *> bindings = {small.data(), small.data(), result.data()};
    std::vector<uint64_t> lengths(3, 0), constants = {n, k, k, n};
    for (uint32_t id = 0; id < count; ++id) {
      DispatchState state = {};
      state.workgroup_id[0] = id;
      state.workgroup_count[0] = count;
      state.workgroup_count[1] = state.workgroup_count[2] = 1;
      state.binding_count = bindings.size();
      state.push_constant_count = constants.size();
      state.bindings = bindings.data();
      state.binding_lengths = lengths.data();
      state.push_constants = constants.data();
      EXPECT_EQ(entry(&state), FERRY_ENTRY_STATUS_OUT_OF_MEMORY);
    }
  }
}

TEST(ExecutableCompilerTest, ResultNotWrittenIntoAnArgumentIsAnError) {
  auto context = makeContext();
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(context.get(),
                                        [&](mlir::Diagnostic &d) {
                                          diagnostics += d.str();
                                          return mlir::success();
                                        });
  Compiled compiled = compile(*context, R"mlir(
func.func @fresh(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.copy ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
)mlir");
  EXPECT_FALSE(compiled.ok);
  EXPECT_NE(
      diagnostics.find("dispatch result 0 is not written into an argument"),
      std::string::npos)
      << diagnostics;
}

} // namespace
} // namespace ferry::codegen

namespace ferry::codegen {
namespace {

#if defined(__x86_64__)
TEST(ExecutableCompilerTest, NamedCpuAndUnknownCpu) {
  auto context = makeContext();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kMatmul, context.get());
  ASSERT_TRUE(module);
  TargetOptions baseline;
  baseline.cpu = "x86-64";
  auto image = compileExecutable(*module, baseline);
  ASSERT_TRUE(mlir::succeeded(image));
  // The baseline x86-64 has SSE2 but no AVX.
  EXPECT_NE(image->cpuFeatures.find("sse2"), std::string::npos);
  EXPECT_EQ(image->cpuFeatures.find("avx"), std::string::npos);

  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(context.get(),
                                        [&](mlir::Diagnostic &d) {
                                          diagnostics += d.str();
                                          return mlir::success();
                                        });
  TargetOptions unknown;
  unknown.cpu = "no-such-cpu";
  EXPECT_TRUE(mlir::failed(compileExecutable(*module, unknown)));
  EXPECT_NE(diagnostics.find("unknown --target-cpu 'no-such-cpu'"),
            std::string::npos)
      << diagnostics;
}

#endif

} // namespace
} // namespace ferry::codegen
