// VM benchmarks, each next to the baseline it is judged against in the same
// run (docs/PERFORMANCE.md, section "VM"):
//   interpreter  a straight-line function of 10,000 i64 add/mul/sub/or/and
//                instructions  vs  the same chain of operations in C++
//   import call  1,000 plain call.import of a native i64 add  vs  calling the
//                same NativeFunction body directly, and a bare
//                std::function<int64_t(int64_t, int64_t)>
//   seed example the seed program (samples/tied_external_calls.mlir) at
//                4096x4096 i32 through the VM and the sample plugin
//                (samples/custom_module)  vs  a hand-written C++ program doing
//                the same four passes with the same kernels in one output
//                buffer; both report peak_bytes (input included).
//
// The seed module is compiled by the build (ferry-compile) when the compiler
// is built; FERRY_BENCH_SEED_MODULE / FERRY_BENCH_PLUGIN in the environment
// override the paths. Without a module the seed benchmark is skipped.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

#include "runtime/drivers/local/elementwise_kernels.h"
#include "runtime/drivers/local/local_device.h"
#include "runtime/hal/buffer_bits.h"
#include "runtime/modules/plugin.h"
#include "runtime/vm/context.h"
#include "runtime/vm/native_module.h"
#include "runtime/vm/result_allocator.h"
#include "runtime/vm/testing/bytecode_writer.h"

namespace ferry {
namespace {

using drivers::local::LocalDevice;
using drivers::local::LocalDeviceOptions;
using vm::CallContext;
using vm::Value;
using vm::bytecode::Opcode;
using K = vm::RegisterKind;

std::shared_ptr<const vm::Module> load(std::span<const uint8_t> bytes) {
  Result<vm::Module> module = vm::Module::load(bytes);
  if (!module.ok()) {
    fprintf(stderr, "module: %s\n", module.status().toString().c_str());
    std::abort();
  }
  return std::make_shared<const vm::Module>(std::move(*module));
}

// Reports `name`: nanoseconds of (real or CPU) time per item, `items` per
// iteration (an inverted rate of items per 1e-9 s).
void setNsPer(benchmark::State &state, const char *name, int items) {
  state.counters[name] = benchmark::Counter(
      double(state.iterations()) * items / 1e9,
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// --- Interpreter -----------------------------------------------------------

constexpr int kArithmeticOps = 10000;
constexpr Opcode kOpCycle[] = {Opcode::kAddI, Opcode::kMulI, Opcode::kSubI,
                               Opcode::kOrI, Opcode::kAndI};

// main(a, b) -> a: op i computes r[i%2] = r0 OP r1 (the cycle above), a
// dependent chain like the baseline's.
std::vector<uint8_t> arithmeticModule() {
  vm::testing::BytecodeWriter w;
  w.device("device_a");
  auto &f = w.function("main", {K::kI64, K::kI64}, {K::kI64}, 2, 0);
  for (int i = 0; i < kArithmeticOps; ++i)
    f.binary(kOpCycle[i % 5], uint16_t(i % 2), 0, 1);
  f.ret({{K::kI64, 0}});
  return w.finish();
}

void BM_Interpreter_I64Arithmetic(benchmark::State &state) {
  auto device = LocalDevice::create("device_a");
  Result<vm::Context> context =
      vm::Context::create(load(arithmeticModule()), {device});
  if (!context.ok())
    return state.SkipWithError(context.status().toString().c_str());
  int64_t a = 3, b = 5;
  for (auto _ : state) {
    benchmark::DoNotOptimize(a);
    Result<std::vector<Value>> results =
        context->invoke("main", {Value(a), Value(b)});
    // A failed call would time the error path instead of the interpreter.
    if (!results.ok())
      return state.SkipWithError(results.status().toString().c_str());
    benchmark::DoNotOptimize(results);
  }
  setNsPer(state, "ns_per_instruction", kArithmeticOps);
}
BENCHMARK(BM_Interpreter_I64Arithmetic);

// The same operations on two variables, compiled natively.
void BM_Baseline_I64ArithmeticLoop(benchmark::State &state) {
  int64_t a0 = 3, b0 = 5;
  for (auto _ : state) {
    benchmark::DoNotOptimize(a0);
    benchmark::DoNotOptimize(b0);
    uint64_t r[2] = {uint64_t(a0), uint64_t(b0)};
    for (int i = 0; i < kArithmeticOps; i += 5) {
      r[0] = r[0] + r[1];
      r[1] = r[0] * r[1];
      r[0] = r[0] - r[1];
      r[1] = r[0] | r[1];
      r[0] = r[0] & r[1];
      benchmark::DoNotOptimize(r[0]); // keep the loop a loop, not a formula
    }
    benchmark::DoNotOptimize(r[0]);
  }
  setNsPer(state, "ns_per_instruction", kArithmeticOps);
}
BENCHMARK(BM_Baseline_I64ArithmeticLoop);

// --- Import calls ----------------------------------------------------------

constexpr int kImportCalls = 1000;

std::vector<uint8_t> importCallModule() {
  vm::testing::BytecodeWriter w;
  w.device("device_a");
  uint32_t add = w.import("Math.add", {K::kI64, K::kI64}, {K::kI64});
  auto &f = w.function("main", {K::kI64, K::kI64}, {K::kI64}, 2, 0);
  for (int i = 0; i < kImportCalls; ++i)
    f.callImport(add, {{K::kI64, 0}, {K::kI64, 1}}, {{K::kI64, 0}});
  f.ret({{K::kI64, 0}});
  return w.finish();
}

vm::NativeFunctionBody addBody() {
  return [](std::span<const Value> args,
            CallContext &) -> Result<std::vector<Value>> {
    return std::vector<Value>{Value(args[0].i64() + args[1].i64())};
  };
}

void setNsPerCall(benchmark::State &state) {
  setNsPer(state, "ns_per_call", kImportCalls);
}

void BM_ImportCall_Plain(benchmark::State &state) {
  auto math = std::make_shared<vm::NativeModule>("Math");
  Status added =
      math->addFunction({"add", {K::kI64, K::kI64}, {K::kI64}, 0, addBody()});
  if (!added.ok())
    return state.SkipWithError(added.toString().c_str());
  auto device = LocalDevice::create("device_a");
  Result<vm::Context> context =
      vm::Context::create(load(importCallModule()), {device}, {math});
  if (!context.ok())
    return state.SkipWithError(context.status().toString().c_str());
  int64_t last = 0;
  for (auto _ : state) {
    Result<std::vector<Value>> results =
        context->invoke("main", {Value(int64_t(1)), Value(int64_t(2))});
    if (!results.ok())
      return state.SkipWithError(results.status().toString().c_str());
    last = (*results)[0].i64();
    benchmark::DoNotOptimize(results);
  }
  if (last != 1 + 2 * kImportCalls) // main adds 2 to 1, kImportCalls times
    return state.SkipWithError("wrong result");
  setNsPerCall(state);
}
BENCHMARK(BM_ImportCall_Plain);

// The same body through its std::function, arguments and results as Values
// in vectors (what the interpreter builds around each call).
void BM_Baseline_NativeBodyDirect(benchmark::State &state) {
  vm::NativeFunctionBody body = addBody();
  vm::ResultAllocator noNewResults; // what the interpreter passes
  benchmark::DoNotOptimize(body);
  for (auto _ : state) {
    int64_t acc = 1;
    for (int i = 0; i < kImportCalls; ++i) {
      std::vector<Value> args{Value(acc), Value(int64_t(2))};
      Result<std::vector<Value>> results = body(args, noNewResults);
      acc = (*results)[0].i64();
    }
    benchmark::DoNotOptimize(acc);
  }
  setNsPerCall(state);
}
BENCHMARK(BM_Baseline_NativeBodyDirect);

void BM_Baseline_StdFunctionCall(benchmark::State &state) {
  std::function<int64_t(int64_t, int64_t)> add = [](int64_t a, int64_t b) {
    return a + b;
  };
  benchmark::DoNotOptimize(add);
  for (auto _ : state) {
    int64_t acc = 1;
    for (int i = 0; i < kImportCalls; ++i)
      acc = add(acc, 2);
    benchmark::DoNotOptimize(acc);
  }
  setNsPerCall(state);
}
BENCHMARK(BM_Baseline_StdFunctionCall);

// --- The seed example at 4096x4096 -------------------------------------------

constexpr int64_t kSeedDim = 4096;
constexpr uint64_t kSeedElements = uint64_t(kSeedDim) * kSeedDim;
constexpr uint64_t kSeedBytes = kSeedElements * sizeof(int32_t);

std::string pathFromEnv(const char *name, const char *fallback) {
  const char *value = std::getenv(name);
  return value && *value ? value : fallback;
}

std::vector<int32_t> seedInput() {
  std::vector<int32_t> x(kSeedElements);
  std::mt19937 random(4);
  std::uniform_int_distribution<int32_t> values(-1000, 1000);
  for (int32_t &v : x)
    v = values(random);
  return x;
}

int32_t seedExpected(int32_t x) {
  uint32_t t = uint32_t(x) * uint32_t(x) * 2u * 3u;
  return int32_t(t * t);
}

#ifndef FERRY_BENCH_SEED_MODULE
#define FERRY_BENCH_SEED_MODULE ""
#endif
#ifndef FERRY_BENCH_PLUGIN
#define FERRY_BENCH_PLUGIN ""
#endif

// Through the VM: the module as ferry-compile wrote it, its device on the
// driver given by the argument (0 local-sync, as ferry-run's default; 1
// local-task), the plugin's Double and Triple on its worker thread. The
// input is uploaded once; each iteration invokes main and drops the result.
void BM_SeedExample_VM(benchmark::State &state) {
  std::string modulePath =
      pathFromEnv("FERRY_BENCH_SEED_MODULE", FERRY_BENCH_SEED_MODULE);
  std::string pluginPath =
      pathFromEnv("FERRY_BENCH_PLUGIN", FERRY_BENCH_PLUGIN);
  if (modulePath.empty() || pluginPath.empty())
    return state.SkipWithError(
        "no seed module / plugin (set "
        "FERRY_BENCH_SEED_MODULE and FERRY_BENCH_PLUGIN)");
  FILE *file = std::fopen(modulePath.c_str(), "rb");
  if (!file)
    return state.SkipWithError(("cannot open " + modulePath).c_str());
  std::vector<uint8_t> bytes;
  for (int c; (c = std::fgetc(file)) != EOF;)
    bytes.push_back(uint8_t(c));
  std::fclose(file);
  auto module = load(bytes);

  auto plugin = modules::loadPlugin(pluginPath);
  if (!plugin.ok())
    return state.SkipWithError(plugin.status().toString().c_str());
  LocalDeviceOptions options;
  options.asynchronous = state.range(0) == 1;
  std::vector<std::shared_ptr<hal::Device>> devices;
  for (const std::string &name : module->deviceNames())
    devices.push_back(LocalDevice::create(name, options));
  Result<vm::Context> context = vm::Context::create(module, devices, *plugin);
  if (!context.ok())
    return state.SkipWithError(context.status().toString().c_str());

  // Uploaded like ferry-run does (runtime/tools/run_module.cpp).
  hal::Device &device = *devices.front();
  std::vector<int32_t> x = seedInput();
  auto buffer = *device.allocator().allocate(
      hal::kHostVisible | hal::kHostCoherent | hal::kDeviceVisible,
      hal::kTransfer | hal::kDispatchStorage | hal::kMapping, kSeedBytes);
  std::memcpy(buffer->data(), x.data(), kSeedBytes);
  auto input = *hal::BufferView::create(buffer, {kSeedDim, kSeedDim},
                                        hal::ElementType::kI32);

  bool correct = true;
  for (auto _ : state) {
    Result<std::vector<Value>> results =
        context->invoke("main", {Value(input)});
    if (!results.ok())
      return state.SkipWithError(results.status().toString().c_str());
    auto out = (*results)[0].refAs<hal::BufferView>();
    const auto *data = reinterpret_cast<const int32_t *>(out->buffer()->data());
    for (uint64_t i : {uint64_t(0), kSeedElements / 2, kSeedElements - 1})
      correct = correct && data[i] == seedExpected(x[i]);
  }
  if (!correct)
    state.SkipWithError("wrong results");
  state.counters["peak_bytes"] =
      double(device.allocator().statistics().peakBytes);
  state.counters["allocations_per_run"] =
      double(device.allocator().statistics().allocations - 1) /
      double(state.iterations());
}
BENCHMARK(BM_SeedExample_VM)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The plugin's Double/Triple loop (samples/custom_module/module.cpp).
void scaleInPlace(int32_t *data, uint64_t count, int32_t factor) {
  for (uint64_t i = 0; i < count; ++i)
    data[i] = int32_t(uint32_t(data[i]) * uint32_t(factor));
}

// By hand, the fewest buffers: the input and one output, every step in
// place: out = x*x; out *= 2; out *= 3; out = out*out, with the local
// driver's mul kernel and the plugin's scale loop. Argument 0: the output
// is malloc'ed (untouched) per run, as a program run once would; 1: it is
// allocated once and reused (pure compute, the stricter baseline).
void BM_Baseline_SeedExampleByHand(benchmark::State &state) {
  std::vector<int32_t> x = seedInput();
  bool reuse = state.range(0) == 1;
  int32_t *kept =
      reuse ? static_cast<int32_t *>(std::malloc(kSeedBytes)) : nullptr;
  if (kept)
    std::memset(kept, 0, kSeedBytes);
  const auto *in = reinterpret_cast<const uint8_t *>(x.data());
  bool correct = true;
  for (auto _ : state) {
    int32_t *out =
        reuse ? kept : static_cast<int32_t *>(std::malloc(kSeedBytes));
    auto *bytes = reinterpret_cast<uint8_t *>(out);
    Status square = drivers::local::runElementwiseKernel(
        hal::BuiltinKernel::kMul, hal::ElementType::kI32, kSeedElements, in, in,
        bytes);
    scaleInPlace(out, kSeedElements, 2);
    scaleInPlace(out, kSeedElements, 3);
    Status squareAgain = drivers::local::runElementwiseKernel(
        hal::BuiltinKernel::kMul, hal::ElementType::kI32, kSeedElements, bytes,
        bytes, bytes);
    benchmark::DoNotOptimize(out);
    correct = correct && square.ok() && squareAgain.ok();
    for (uint64_t i : {uint64_t(0), kSeedElements / 2, kSeedElements - 1})
      correct = correct && out[i] == seedExpected(x[i]);
    if (!reuse)
      std::free(out);
    if (!correct)
      break;
  }
  std::free(kept);
  if (!correct)
    state.SkipWithError("a kernel failed or gave wrong results");
  state.counters["peak_bytes"] = double(2 * kSeedBytes); // input + out
}
BENCHMARK(BM_Baseline_SeedExampleByHand)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace
} // namespace ferry

BENCHMARK_MAIN();
