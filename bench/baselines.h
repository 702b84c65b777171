// The baselines every runtime benchmark harness is judged against, in the
// same run: an uncontended atomic read-modify-write pair and load (ownership
// operations), malloc+free (allocation), memcpy and memset of 64 MiB (copy
// and fill). Included once by each harness (bench/runtime/hal_benchmarks.cpp
// and the reference runtime's, bench/peers/iree_hal_benchmarks.cc), so both
// measure the same code.
#ifndef FERRY_BENCH_BASELINES_H_
#define FERRY_BENCH_BASELINES_H_

#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace ferry::bench {

inline constexpr size_t kTransferBytes = size_t(64) << 20;

inline void BM_Baseline_AtomicFetchAddSub(benchmark::State &state) {
  std::atomic<int64_t> count{1};
  for (auto _ : state) {
    count.fetch_add(1);
    benchmark::DoNotOptimize(count.fetch_sub(1) == 1);
  }
}
BENCHMARK(BM_Baseline_AtomicFetchAddSub);

inline void BM_Baseline_AtomicLoad(benchmark::State &state) {
  std::atomic<int64_t> count{1};
  for (auto _ : state)
    benchmark::DoNotOptimize(count.load(std::memory_order_acquire) == 1);
}
BENCHMARK(BM_Baseline_AtomicLoad);

// The pointer escapes (DoNotOptimize), so the pair is not elided.
inline void BM_Baseline_MallocFree(benchmark::State &state) {
  size_t size = size_t(state.range(0));
  for (auto _ : state) {
    void *block = std::malloc(size);
    benchmark::DoNotOptimize(block);
    std::free(block);
  }
}
BENCHMARK(BM_Baseline_MallocFree)->Arg(4096)->Arg(1 << 20);

inline void BM_Baseline_Memcpy64M(benchmark::State &state) {
  std::vector<uint8_t> source(kTransferBytes, 1), target(kTransferBytes, 0);
  for (auto _ : state) {
    std::memcpy(target.data(), source.data(), kTransferBytes);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * kTransferBytes);
}
BENCHMARK(BM_Baseline_Memcpy64M)->UseRealTime();

inline void BM_Baseline_Memset64M(benchmark::State &state) {
  std::vector<uint8_t> target(kTransferBytes, 0);
  int value = 0;
  for (auto _ : state) {
    std::memset(target.data(), ++value & 0xff, kTransferBytes);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * kTransferBytes);
}
BENCHMARK(BM_Baseline_Memset64M)->UseRealTime();

} // namespace ferry::bench

#endif // FERRY_BENCH_BASELINES_H_
