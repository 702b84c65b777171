// Native kernel benchmarks (docs/PERFORMANCE.md, section "Kernels"): modules
// of bench/kernels/*.mlir compiled by ferry-compile for the host, run through
// the VM in process, each beside the baseline it is judged against in the
// same run:
//   sgemm 1024^3 f32   local-sync (one thread)  vs  OpenBLAS cblas_sgemm on
//                      one thread (when the build found it); local-task on 2
//                      worker threads  vs  local-sync
//   batch_matmul       16 x 256^3 f32  vs  OpenBLAS sgemm per batch, one
//                      thread
//   conv_2d_nhwc_hwcf  3x3, 58x58x64 image, 64 filters  vs  a C++ loop nest
//                      and im2col + OpenBLAS sgemm on one thread
//   elementwise chain  8 f32 ops over 16M elements  vs  memcpy of the same
//                      64 MiB (bytes counted read + written once, both)
//   row sum            4096x4096 f32  vs  the same memcpy bandwidth
//   MLP, batch 256     samples/mlp.mlir at batch 256, one call of @main;
//                      NumPy's time is measured beside it by
//                      bench/kernels/mlp_vs_numpy.sh; `inline_ops` counts
//                      the queue operations per call local-task ran on
//                      the calling thread. Devices: 0 local-sync, 1
//                      local-task with 2 workers, 2 the same with its
//                      inline path off (every operation handed to the
//                      queue thread), 3 local-task with 1 worker;
//                      `alone` counts the dispatches per call whose
//                      workgroups ran on one thread rather than wake a
//                      parked helper
// Results are spot-checked against a scalar reference; a wrong result skips
// the benchmark with an error. Modules are found through FERRY_BENCH_KERNELS
// (a directory holding sgemm.fvm, batch_matmul.fvm, conv2d.fvm,
// elementwise_chain.fvm, row_sum.fvm, mlp_batch256.fvm),
// defaulting to the build's.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "runtime/drivers/local/local_device.h"
#include "runtime/hal/buffer.h"
#include "runtime/hal/buffer_bits.h"
#include "runtime/vm/context.h"

#ifdef FERRY_BENCH_HAVE_OPENBLAS
#include <cblas.h>
extern "C" void openblas_set_num_threads(int);
#endif

namespace ferry {
namespace {

using drivers::local::LocalDevice;
using drivers::local::LocalDeviceOptions;
using vm::Value;

#ifndef FERRY_BENCH_KERNELS
#define FERRY_BENCH_KERNELS ""
#endif

// Argument of the Ferry benchmarks: which device runs the module.
// kTask2Queued is local-task with its inline path off (every operation
// handed to the queue thread, as before it existed); kTask1 is local-task
// with one worker (no helper to split a dispatch with).
enum DeviceChoice : int64_t {
  kSync = 0,
  kTask2 = 1,
  kTask2Queued = 2,
  kTask1 = 3
};

std::string modulePath(const char *name) {
  const char *dir = std::getenv("FERRY_BENCH_KERNELS");
  std::string base = dir && *dir ? dir : FERRY_BENCH_KERNELS;
  return base + "/" + name + ".fvm";
}

// A module loaded on one local device, with its arguments uploaded.
struct Runner {
  std::shared_ptr<hal::Device> device;
  std::optional<vm::Context> context;
  std::vector<Value> arguments;
  std::string error;

  Runner(const char *name, DeviceChoice choice) {
    std::string path = modulePath(name);
    FILE *file = std::fopen(path.c_str(), "rb");
    if (!file) {
      error = "cannot open " + path + " (set FERRY_BENCH_KERNELS)";
      return;
    }
    std::vector<uint8_t> bytes;
    for (int c; (c = std::fgetc(file)) != EOF;)
      bytes.push_back(uint8_t(c));
    std::fclose(file);
    Result<vm::Module> module = vm::Module::load(bytes);
    if (!module.ok()) {
      error = path + ": " + module.status().toString();
      return;
    }
    auto shared = std::make_shared<const vm::Module>(std::move(*module));
    LocalDeviceOptions options;
    options.asynchronous = choice != kSync;
    options.workerCount = choice == kTask1 ? 1 : 2;
    options.inlineSmallOperations = choice != kTask2Queued;
    std::vector<std::shared_ptr<hal::Device>> devices;
    for (const std::string &deviceName : shared->deviceNames())
      devices.push_back(LocalDevice::create(deviceName, options));
    if (devices.size() != 1) {
      error = path + ": expected one device";
      return;
    }
    device = devices.front();
    Result<vm::Context> created = vm::Context::create(shared, devices);
    if (!created.ok()) {
      error = path + ": " + created.status().toString();
      return;
    }
    context.emplace(std::move(*created));
  }

  // Uploads `values` as an f32 tensor of `shape`; returns its data.
  float *addArgument(const std::vector<float> &values,
                     std::vector<int64_t> shape) {
    uint64_t bytes = values.size() * sizeof(float);
    auto buffer = *device->allocator().allocate(
        hal::kHostVisible | hal::kHostCoherent | hal::kDeviceVisible,
        hal::kTransfer | hal::kDispatchStorage | hal::kMapping, bytes);
    std::memcpy(buffer->data(), values.data(), bytes);
    arguments.push_back(
        Value(*hal::BufferView::create(buffer, shape, hal::ElementType::kF32)));
    return reinterpret_cast<float *>(buffer->data());
  }

  bool invoke(benchmark::State &state, const char *function) {
    Result<std::vector<Value>> results = context->invoke(function, arguments);
    if (!results.ok()) {
      state.SkipWithError(results.status().toString().c_str());
      return false;
    }
    return true;
  }
};

std::vector<float> randomValues(size_t count, uint32_t seed) {
  std::vector<float> values(count);
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (float &v : values)
    v = uniform(random);
  return values;
}

bool close(double got, double want, double tolerance) {
  return std::fabs(got - want) <= tolerance * (1.0 + std::fabs(want));
}

// --- sgemm -------------------------------------------------------------------

constexpr int64_t kGemm = 1024;

/// The GFLOPS counter of a benchmark doing `flops` per iteration.
void setGflops(benchmark::State &state, double flops) {
  state.counters["GFLOPS"] = benchmark::Counter(
      flops * state.iterations() / 1e9, benchmark::Counter::kIsRate);
}

constexpr double kGemmFlops = 2.0 * kGemm * kGemm * kGemm;

void BM_Sgemm_Ferry(benchmark::State &state) {
  Runner runner("sgemm", DeviceChoice(state.range(0)));
  if (!runner.error.empty())
    return state.SkipWithError(runner.error.c_str());
  std::vector<float> a = randomValues(kGemm * kGemm, 1);
  std::vector<float> b = randomValues(kGemm * kGemm, 2);
  runner.addArgument(a, {kGemm, kGemm});
  runner.addArgument(b, {kGemm, kGemm});
  float *c = runner.addArgument(std::vector<float>(kGemm * kGemm, 7.0f),
                                {kGemm, kGemm});
  for (auto _ : state)
    if (!runner.invoke(state, "sgemm"))
      return;
  for (int64_t i : {int64_t(0), int64_t(517), kGemm - 1}) {
    for (int64_t j : {int64_t(0), int64_t(300), kGemm - 1}) {
      double want = 0;
      for (int64_t k = 0; k < kGemm; ++k)
        want += double(a[i * kGemm + k]) * b[k * kGemm + j];
      if (!close(c[i * kGemm + j], want, 1e-4))
        return state.SkipWithError("wrong sgemm result");
    }
  }
  setGflops(state, kGemmFlops);
}
BENCHMARK(BM_Sgemm_Ferry)
    ->ArgName("local_task2")
    ->Arg(kSync)
    ->Arg(kTask2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

#ifdef FERRY_BENCH_HAVE_OPENBLAS
void BM_Baseline_SgemmOpenBLAS1Thread(benchmark::State &state) {
  openblas_set_num_threads(1);
  std::vector<float> a = randomValues(kGemm * kGemm, 1);
  std::vector<float> b = randomValues(kGemm * kGemm, 2);
  std::vector<float> c(kGemm * kGemm);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, kGemm, kGemm, kGemm,
                1.0f, a.data(), kGemm, b.data(), kGemm, 0.0f, c.data(), kGemm);
    benchmark::ClobberMemory();
  }
  setGflops(state, kGemmFlops);
}
BENCHMARK(BM_Baseline_SgemmOpenBLAS1Thread)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
#endif

// --- batch_matmul ------------------------------------------------------------
// 16 batches of 256x256x256 f32, against OpenBLAS sgemm on one thread called
// once per batch (the same flops).

constexpr int64_t kBatches = 16;
constexpr int64_t kBatchDim = 256;
constexpr int64_t kBatchMatrix = kBatchDim * kBatchDim;

constexpr double kBatchFlops = 2.0 * kBatches * kBatchDim * kBatchMatrix;

void BM_BatchMatmul_Ferry(benchmark::State &state) {
  Runner runner("batch_matmul", DeviceChoice(state.range(0)));
  if (!runner.error.empty())
    return state.SkipWithError(runner.error.c_str());
  std::vector<float> a = randomValues(kBatches * kBatchMatrix, 6);
  std::vector<float> b = randomValues(kBatches * kBatchMatrix, 7);
  std::vector<int64_t> shape{kBatches, kBatchDim, kBatchDim};
  runner.addArgument(a, shape);
  runner.addArgument(b, shape);
  float *c = runner.addArgument(
      std::vector<float>(kBatches * kBatchMatrix, 7.0f), shape);
  for (auto _ : state)
    if (!runner.invoke(state, "batch_matmul"))
      return;
  for (int64_t batch : {int64_t(0), int64_t(9), kBatches - 1}) {
    for (int64_t i : {int64_t(0), int64_t(100), kBatchDim - 1}) {
      for (int64_t j : {int64_t(0), int64_t(201), kBatchDim - 1}) {
        const float *x = a.data() + batch * kBatchMatrix;
        const float *y = b.data() + batch * kBatchMatrix;
        double want = 0;
        for (int64_t k = 0; k < kBatchDim; ++k)
          want += double(x[i * kBatchDim + k]) * y[k * kBatchDim + j];
        if (!close(c[batch * kBatchMatrix + i * kBatchDim + j], want, 1e-4))
          return state.SkipWithError("wrong batch_matmul result");
      }
    }
  }
  setGflops(state, kBatchFlops);
}
BENCHMARK(BM_BatchMatmul_Ferry)
    ->ArgName("local_task2")
    ->Arg(kSync)
    ->Arg(kTask2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

#ifdef FERRY_BENCH_HAVE_OPENBLAS
void BM_Baseline_BatchMatmulOpenBLAS1Thread(benchmark::State &state) {
  openblas_set_num_threads(1);
  std::vector<float> a = randomValues(kBatches * kBatchMatrix, 6);
  std::vector<float> b = randomValues(kBatches * kBatchMatrix, 7);
  std::vector<float> c(kBatches * kBatchMatrix);
  for (auto _ : state) {
    for (int64_t batch = 0; batch < kBatches; ++batch)
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, kBatchDim,
                  kBatchDim, kBatchDim, 1.0f, a.data() + batch * kBatchMatrix,
                  kBatchDim, b.data() + batch * kBatchMatrix, kBatchDim, 0.0f,
                  c.data() + batch * kBatchMatrix, kBatchDim);
    benchmark::ClobberMemory();
  }
  setGflops(state, kBatchFlops);
}
BENCHMARK(BM_Baseline_BatchMatmulOpenBLAS1Thread)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
#endif

// --- conv_2d_nhwc_hwcf -------------------------------------------------------
// A 3x3 convolution, 1x58x58x64 image, 64 filters, stride 1 (56x56 outputs),
// against a hand-written C++ loop nest (output channels innermost, which the
// C++ compiler vectorizes) and, when found, im2col + OpenBLAS sgemm on one
// thread (the im2col copy timed too).

constexpr int64_t kConvIn = 58;
constexpr int64_t kConvOut = 56;
constexpr int64_t kConvWindow = 3;
constexpr int64_t kConvChannels = 64; // input channels and filters

constexpr double kConvFlops = 2.0 * kConvOut * kConvOut * kConvChannels *
                              kConvWindow * kConvWindow * kConvChannels;

double convReference(const std::vector<float> &x, const std::vector<float> &f,
                     int64_t oh, int64_t ow, int64_t fo) {
  double sum = 0;
  for (int64_t kh = 0; kh < kConvWindow; ++kh)
    for (int64_t kw = 0; kw < kConvWindow; ++kw)
      for (int64_t c = 0; c < kConvChannels; ++c)
        sum += double(x[((oh + kh) * kConvIn + ow + kw) * kConvChannels + c]) *
               f[((kh * kConvWindow + kw) * kConvChannels + c) * kConvChannels +
                 fo];
  return sum;
}

bool convMatches(const std::vector<float> &x, const std::vector<float> &f,
                 const float *out) {
  for (int64_t oh : {int64_t(0), int64_t(30), kConvOut - 1})
    for (int64_t ow : {int64_t(0), int64_t(17), kConvOut - 1})
      for (int64_t fo : {int64_t(0), int64_t(40), kConvChannels - 1})
        if (!close(out[(oh * kConvOut + ow) * kConvChannels + fo],
                   convReference(x, f, oh, ow, fo), 1e-4))
          return false;
  return true;
}

void BM_Conv2d_Ferry(benchmark::State &state) {
  Runner runner("conv2d", DeviceChoice(state.range(0)));
  if (!runner.error.empty())
    return state.SkipWithError(runner.error.c_str());
  std::vector<float> x = randomValues(kConvIn * kConvIn * kConvChannels, 8);
  std::vector<float> f = randomValues(
      kConvWindow * kConvWindow * kConvChannels * kConvChannels, 9);
  runner.addArgument(x, {1, kConvIn, kConvIn, kConvChannels});
  runner.addArgument(f,
                     {kConvWindow, kConvWindow, kConvChannels, kConvChannels});
  float *out = runner.addArgument(
      std::vector<float>(kConvOut * kConvOut * kConvChannels, 7.0f),
      {1, kConvOut, kConvOut, kConvChannels});
  for (auto _ : state)
    if (!runner.invoke(state, "conv2d"))
      return;
  if (!convMatches(x, f, out))
    return state.SkipWithError("wrong conv2d result");
  setGflops(state, kConvFlops);
}
BENCHMARK(BM_Conv2d_Ferry)
    ->ArgName("local_task2")
    ->Arg(kSync)
    ->Arg(kTask2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_Baseline_Conv2dLoop(benchmark::State &state) {
  std::vector<float> x = randomValues(kConvIn * kConvIn * kConvChannels, 8);
  std::vector<float> f = randomValues(
      kConvWindow * kConvWindow * kConvChannels * kConvChannels, 9);
  std::vector<float> out(kConvOut * kConvOut * kConvChannels);
  for (auto _ : state) {
    for (int64_t oh = 0; oh < kConvOut; ++oh) {
      for (int64_t ow = 0; ow < kConvOut; ++ow) {
        float *o = out.data() + (oh * kConvOut + ow) * kConvChannels;
        for (int64_t fo = 0; fo < kConvChannels; ++fo)
          o[fo] = 0.0f;
        for (int64_t kh = 0; kh < kConvWindow; ++kh) {
          for (int64_t kw = 0; kw < kConvWindow; ++kw) {
            const float *in =
                x.data() + ((oh + kh) * kConvIn + ow + kw) * kConvChannels;
            const float *w = f.data() + (kh * kConvWindow + kw) *
                                            kConvChannels * kConvChannels;
            for (int64_t c = 0; c < kConvChannels; ++c)
              for (int64_t fo = 0; fo < kConvChannels; ++fo)
                o[fo] += in[c] * w[c * kConvChannels + fo];
          }
        }
      }
    }
    benchmark::ClobberMemory();
  }
  if (!convMatches(x, f, out.data()))
    return state.SkipWithError("wrong conv2d loop result");
  setGflops(state, kConvFlops);
}
BENCHMARK(BM_Baseline_Conv2dLoop)->Unit(benchmark::kMillisecond)->UseRealTime();

#ifdef FERRY_BENCH_HAVE_OPENBLAS
void BM_Baseline_Conv2dIm2colOpenBLAS1Thread(benchmark::State &state) {
  openblas_set_num_threads(1);
  std::vector<float> x = randomValues(kConvIn * kConvIn * kConvChannels, 8);
  std::vector<float> f = randomValues(
      kConvWindow * kConvWindow * kConvChannels * kConvChannels, 9);
  constexpr int64_t kPatch = kConvWindow * kConvWindow * kConvChannels;
  std::vector<float> columns(kConvOut * kConvOut * kPatch);
  std::vector<float> out(kConvOut * kConvOut * kConvChannels);
  for (auto _ : state) {
    // Each output pixel's 3x3x64 window as a row (kh, kw, c order, that of
    // the filter's rows).
    for (int64_t oh = 0; oh < kConvOut; ++oh)
      for (int64_t ow = 0; ow < kConvOut; ++ow)
        for (int64_t kh = 0; kh < kConvWindow; ++kh)
          std::memcpy(columns.data() + (oh * kConvOut + ow) * kPatch +
                          kh * kConvWindow * kConvChannels,
                      x.data() + ((oh + kh) * kConvIn + ow) * kConvChannels,
                      kConvWindow * kConvChannels * sizeof(float));
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, kConvOut * kConvOut,
                kConvChannels, kPatch, 1.0f, columns.data(), kPatch, f.data(),
                kConvChannels, 0.0f, out.data(), kConvChannels);
    benchmark::ClobberMemory();
  }
  if (!convMatches(x, f, out.data()))
    return state.SkipWithError("wrong im2col conv2d result");
  setGflops(state, kConvFlops);
}
BENCHMARK(BM_Baseline_Conv2dIm2colOpenBLAS1Thread)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
#endif

// --- Bandwidth: the chain, the row sum and memcpy ----------------------------

constexpr int64_t kElements = int64_t(16) << 20;

void setBandwidth(benchmark::State &state, uint64_t bytesPerIteration) {
  state.counters["GBps"] =
      benchmark::Counter(double(bytesPerIteration) * state.iterations() / 1e9,
                         benchmark::Counter::kIsRate);
}

float chainReference(float v) {
  float x = std::fmax(v * 2.0f + 0.5f, 0.0f) - v;
  return std::fmin(x * x + v, 3.0f) * 0.5f;
}

void BM_ElementwiseChain_Ferry(benchmark::State &state) {
  Runner runner("elementwise_chain", DeviceChoice(state.range(0)));
  if (!runner.error.empty())
    return state.SkipWithError(runner.error.c_str());
  std::vector<float> x = randomValues(kElements, 3);
  runner.addArgument(x, {kElements});
  float *out = runner.addArgument(std::vector<float>(kElements), {kElements});
  for (auto _ : state)
    if (!runner.invoke(state, "chain_fused"))
      return;
  for (int64_t i : {int64_t(0), kElements / 3, kElements - 1})
    if (!close(out[i], chainReference(x[i]), 1e-6))
      return state.SkipWithError("wrong chain result");
  setBandwidth(state, 2 * kElements * sizeof(float));
}
BENCHMARK(BM_ElementwiseChain_Ferry)
    ->ArgName("local_task2")
    ->Arg(kSync)
    ->Arg(kTask2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

constexpr int64_t kRows = 4096;

void BM_RowSum_Ferry(benchmark::State &state) {
  Runner runner("row_sum", DeviceChoice(state.range(0)));
  if (!runner.error.empty())
    return state.SkipWithError(runner.error.c_str());
  std::vector<float> x = randomValues(kRows * kRows, 4);
  runner.addArgument(x, {kRows, kRows});
  float *out = runner.addArgument(std::vector<float>(kRows), {kRows});
  for (auto _ : state)
    if (!runner.invoke(state, "row_sum"))
      return;
  for (int64_t i : {int64_t(0), int64_t(1234), kRows - 1}) {
    double want = 0;
    for (int64_t j = 0; j < kRows; ++j)
      want += x[i * kRows + j];
    if (!close(out[i], want, 1e-4))
      return state.SkipWithError("wrong row sum result");
  }
  setBandwidth(state, (kRows * kRows + kRows) * sizeof(float));
}
BENCHMARK(BM_RowSum_Ferry)
    ->ArgName("local_task2")
    ->Arg(kSync)
    ->Arg(kTask2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// 64 MiB (16M f32) copied: 128 MiB read + written, the unit of the rows above.
void BM_Baseline_Memcpy64M(benchmark::State &state) {
  std::vector<float> source(kElements, 1.0f), target(kElements, 0.0f);
  for (auto _ : state) {
    std::memcpy(target.data(), source.data(), kElements * sizeof(float));
    benchmark::ClobberMemory();
  }
  setBandwidth(state, 2 * kElements * sizeof(float));
}
BENCHMARK(BM_Baseline_Memcpy64M)->Unit(benchmark::kMillisecond)->UseRealTime();

// --- The MLP sample at batch 256 ---------------------------------------------
// One call of @main: 3 layers (matmul + bias + ReLU) on a 256x64 input,
// the result allocated by the module as in any run. Its NumPy baseline is
// timed by bench/kernels/mlp_vs_numpy.sh, which also checks the result.

constexpr int64_t kMlpBatch = 256;

void BM_MLPBatch256_Ferry(benchmark::State &state) {
  Runner runner("mlp_batch256", DeviceChoice(state.range(0)));
  if (!runner.error.empty())
    return state.SkipWithError(runner.error.c_str());
  runner.addArgument(randomValues(kMlpBatch * 64, 5), {kMlpBatch, 64});
  for (auto _ : state) {
    Result<std::vector<Value>> results =
        runner.context->invoke("main", runner.arguments);
    if (!results.ok() || results->size() != 1)
      return state.SkipWithError(results.ok()
                                     ? "expected one result"
                                     : results.status().toString().c_str());
  }
  // Queue operations local-task ran on the calling thread, per call.
  auto *local = static_cast<LocalDevice *>(runner.device.get());
  state.counters["inline_ops"] = benchmark::Counter(
      double(local->operationsRunInline()), benchmark::Counter::kAvgIterations);
  // Dispatches whose workgroups ran on one thread, not worth waking a
  // parked helper for, per call.
  state.counters["alone"] = benchmark::Counter(
      double(local->splitsDeclined()), benchmark::Counter::kAvgIterations);
}
// Every MLP row measures the CPU time of the whole process (all its
// threads: local-task's queue thread and helper too), so the rows of more
// than one thread can be compared on CPU as well as on wall time.
BENCHMARK(BM_MLPBatch256_Ferry)
    ->ArgName("device")
    ->Arg(kSync)
    ->Arg(kTask2)
    ->Arg(kTask2Queued)
    ->Arg(kTask1)
    ->Unit(benchmark::kMicrosecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

} // namespace
} // namespace ferry

BENCHMARK_MAIN();
