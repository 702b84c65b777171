// Runtime HAL benchmarks, each next to the baseline it is judged against in
// the same run (docs/PERFORMANCE.md):
//   ownership   preserve+discard, isTerminal  vs  atomic fetch_add+fetch_sub,
//                                                 atomic load
//   allocate    Allocator::allocate + release, 4 KiB and 1 MiB, undefined
//               or zeroed contents          vs  malloc+free (+ memset)
//   pool        queue alloca+dealloca, warm, with N live allocations
//                                             vs  malloc+free with N live
//   wake-up     local-task alloca+dealloca waiting on each fence
//                                             vs  the same on local-sync
//               CPU time of an idle local-task device over 1 s  vs  none
//   transfer    queue copy between two devices vs memcpy; queue fill vs
//               memset (64 MiB)
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <thread>
#include <vector>

#include "bench/baselines.h"
#include "runtime/drivers/local/local_device.h"
#include "runtime/hal/buffer_bits.h"
#include "runtime/hal/topology.h"

namespace ferry {
namespace {

using namespace hal;
using drivers::local::LocalDevice;
using drivers::local::LocalDeviceOptions;

constexpr uint32_t kUsage = kTransfer | kDispatchStorage;

// --- Ownership -------------------------------------------------------------

void BM_PreserveDiscard(benchmark::State &state) {
  auto allocator = HeapAllocator::create("bench");
  auto buffer = *allocator->allocate(0, 0, 64);
  for (auto _ : state) {
    buffer->preserve();
    // Consumed as the baseline consumes its answer: one bool (a caller checks
    // the Result and reads it).
    Result<bool> last = buffer->discard();
    benchmark::DoNotOptimize(last.ok() && *last);
  }
}
BENCHMARK(BM_PreserveDiscard);

void BM_PreserveDiscardSubspan(benchmark::State &state) {
  auto allocator = HeapAllocator::create("bench");
  auto buffer = *allocator->allocate(0, 0, 64);
  auto span = *Buffer::subspan(buffer, 8, 8);
  for (auto _ : state) {
    span->preserve();
    Result<bool> last = span->discard();
    benchmark::DoNotOptimize(last.ok() && *last);
  }
}
BENCHMARK(BM_PreserveDiscardSubspan);

void BM_IsTerminal(benchmark::State &state) {
  auto allocator = HeapAllocator::create("bench");
  auto buffer = *allocator->allocate(0, 0, 64);
  for (auto _ : state)
    benchmark::DoNotOptimize(buffer->isTerminal());
}
BENCHMARK(BM_IsTerminal);

// --- Direct allocation -----------------------------------------------------

void BM_Baseline_MallocMemsetFree(benchmark::State &state) {
  size_t size = size_t(state.range(0));
  for (auto _ : state) {
    void *block = std::malloc(size);
    std::memset(block, 0, size);
    benchmark::DoNotOptimize(block);
    std::free(block);
  }
}
BENCHMARK(BM_Baseline_MallocMemsetFree)->Arg(4096)->Arg(1 << 20);

// Allocator::allocate, then the last reference goes (memory back to the
// allocator). The reference runtime's row is iree_hal_allocator_allocate_
// buffer + iree_hal_buffer_release.
void allocateRelease(benchmark::State &state, AllocationContents contents) {
  auto allocator = HeapAllocator::create("bench");
  uint64_t size = uint64_t(state.range(0));
  for (auto _ : state) {
    Result<std::shared_ptr<Buffer>> buffer =
        allocator->allocate(0, kUsage, size, contents);
    if (!buffer.ok())
      return state.SkipWithError(buffer.status().toString().c_str());
    benchmark::DoNotOptimize((*buffer)->data());
  }
}
void BM_AllocateRelease(benchmark::State &state) {
  allocateRelease(state, AllocationContents::kUndefined);
}
BENCHMARK(BM_AllocateRelease)->Arg(4096)->Arg(1 << 20);
void BM_AllocateReleaseZeroed(benchmark::State &state) {
  allocateRelease(state, AllocationContents::kZeroed);
}
BENCHMARK(BM_AllocateReleaseZeroed)->Arg(4096)->Arg(1 << 20);

// --- Pooled queue allocation -----------------------------------------------

constexpr size_t kBlockBytes = 4096;

// Keeps state.range(0) blocks live; each iteration frees the oldest and
// allocates a new one (first byte touched).
void BM_Baseline_MallocFree4K(benchmark::State &state) {
  std::deque<void *> live;
  for (int64_t i = 0; i < state.range(0); ++i) {
    live.push_back(std::malloc(kBlockBytes));
    static_cast<char *>(live.back())[0] = 1;
  }
  for (auto _ : state) {
    std::free(live.front());
    live.pop_front();
    void *block = std::malloc(kBlockBytes);
    static_cast<char *>(block)[0] = 1;
    live.push_back(block);
  }
  for (void *block : live)
    std::free(block);
}
BENCHMARK(BM_Baseline_MallocFree4K)->Arg(10)->Arg(1000)->Arg(100000);

// Same shape on a device queue: dealloca the oldest, alloca a new one, each
// with its own signal fence, no host waits. The pool is warm (the blocks of
// the first N allocations circulate).
void queueAllocaDealloca(benchmark::State &state, LocalDeviceOptions options) {
  auto device = LocalDevice::create("bench", options);
  std::deque<std::shared_ptr<Buffer>> live;
  // The signal fences of the latest alloca and dealloca: an asynchronous
  // queue reports failures there, not in the returned status.
  std::shared_ptr<Fence> allocated = Fence::createSignaled();
  std::shared_ptr<Fence> deallocated = Fence::createSignaled();
  auto alloc = [&]() -> Status {
    allocated = Fence::create();
    FERRY_ASSIGN_OR_RETURN(
        auto buffer,
        device->queueAlloca(nullptr, allocated, 0, kUsage, kBlockBytes, 0));
    live.push_back(std::move(buffer));
    return okStatus();
  };
  // Waits for all queued work; fails if the latest alloca or dealloca did.
  auto drain = [&]() -> Status {
    auto done = Fence::create();
    FERRY_RETURN_IF_ERROR(device->queueBarrier(nullptr, done));
    FERRY_RETURN_IF_ERROR(done->wait());
    FERRY_RETURN_IF_ERROR(allocated->wait());
    return deallocated->wait();
  };
  // A failed operation would time an error path: stop at the first one.
  for (int64_t i = 0; i <= state.range(0); ++i)
    if (Status status = alloc(); !status.ok())
      return state.SkipWithError(status.toString().c_str());
  if (Status status = drain(); !status.ok())
    return state.SkipWithError(status.toString().c_str());
  for (auto _ : state) {
    deallocated = Fence::create();
    Status status =
        device->queueDealloca(nullptr, deallocated, live.front(), 0);
    live.pop_front();
    if (status.ok())
      status = alloc();
    if (!status.ok())
      return state.SkipWithError(status.toString().c_str());
  }
  if (Status status = drain(); !status.ok())
    return state.SkipWithError(status.toString().c_str());
  AllocatorStatistics stats = device->allocator().statistics();
  state.counters["pool_hit_rate"] =
      double(stats.poolHits) / double(stats.poolHits + stats.poolMisses);
}
void BM_QueueAllocaDealloca4K_Sync(benchmark::State &state) {
  queueAllocaDealloca(state, {});
}
BENCHMARK(BM_QueueAllocaDealloca4K_Sync)->Arg(10)->Arg(1000)->Arg(100000);
void BM_QueueAllocaDealloca4K_Task(benchmark::State &state) {
  queueAllocaDealloca(state, {.asynchronous = true, .workerCount = 2});
}
BENCHMARK(BM_QueueAllocaDealloca4K_Task)->Arg(10)->Arg(1000)->UseRealTime();

// --- Wake-up latency --------------------------------------------------------

// A queue alloca and a dealloca of 4 KiB, the host waiting on each one's
// fence before issuing the next: on local-task every operation is a hand-off
// to the queue thread and back. The local-sync row (inline, no hand-off) is
// the floor.
void queueWaitEach(benchmark::State &state, LocalDeviceOptions options) {
  auto device = LocalDevice::create("bench", options);
  for (auto _ : state) {
    auto allocated = Fence::create();
    Result<std::shared_ptr<Buffer>> buffer =
        device->queueAlloca(nullptr, allocated, 0, kUsage, kBlockBytes, 0);
    Status status = buffer.ok() ? allocated->wait() : buffer.status();
    if (status.ok()) {
      auto deallocated = Fence::create();
      status = device->queueDealloca(nullptr, deallocated, *buffer, 0);
      if (status.ok())
        status = deallocated->wait();
    }
    if (!status.ok())
      return state.SkipWithError(status.toString().c_str());
  }
}
void BM_QueueAllocaDeallocaWaitEach_Sync(benchmark::State &state) {
  queueWaitEach(state, {});
}
BENCHMARK(BM_QueueAllocaDeallocaWaitEach_Sync)->UseRealTime();
void BM_QueueAllocaDeallocaWaitEach_Task(benchmark::State &state) {
  queueWaitEach(state, {.asynchronous = true, .workerCount = 2});
}
BENCHMARK(BM_QueueAllocaDeallocaWaitEach_Task)->UseRealTime();

double processCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return double(now.tv_sec) + double(now.tv_nsec) * 1e-9;
}

// CPU time the whole process uses over one second of the host sleeping,
// with a local-task device (queue thread and helper) that has just finished
// an operation (so its threads are spinning, then parked) or with none.
// Reported as the counter cpu_ms (milliseconds of CPU in that second).
void idleCpu(benchmark::State &state, bool withDevice) {
  std::shared_ptr<LocalDevice> device;
  if (withDevice)
    device =
        LocalDevice::create("bench", {.asynchronous = true, .workerCount = 2});
  double cpu = 0;
  for (auto _ : state) {
    if (device) {
      auto done = Fence::create();
      Status status = device->queueBarrier(nullptr, done);
      if (status.ok())
        status = done->wait();
      if (!status.ok())
        return state.SkipWithError(status.toString().c_str());
    }
    double start = processCpuSeconds();
    std::this_thread::sleep_for(std::chrono::seconds(1));
    cpu += processCpuSeconds() - start;
  }
  state.counters["cpu_ms"] = 1e3 * cpu / double(state.iterations());
}
void BM_Baseline_IdleCpuNoDevice(benchmark::State &state) {
  idleCpu(state, false);
}
BENCHMARK(BM_Baseline_IdleCpuNoDevice)->Iterations(1)->UseRealTime();
void BM_IdleCpuParkedTaskDevice(benchmark::State &state) {
  idleCpu(state, true);
}
BENCHMARK(BM_IdleCpuParkedTaskDevice)->Iterations(1)->UseRealTime();

// --- Transfers -------------------------------------------------------------

using bench::kTransferBytes;

// Copies from a buffer of device a into one of device b, issued on a.
void queueCopyCrossDevice(benchmark::State &state, LocalDeviceOptions options) {
  auto a = LocalDevice::create("a", options);
  auto b = LocalDevice::create("b", options);
  auto group = *DeviceGroup::create({a, b});
  auto source = *a->allocator().allocate(0, kUsage, kTransferBytes);
  auto target = *b->allocator().allocate(0, kUsage, kTransferBytes);
  std::memset(source->data(), 1, kTransferBytes);
  for (auto _ : state) {
    auto signal = Fence::create();
    Status status =
        a->queueCopy(nullptr, signal, source, 0, target, 0, kTransferBytes);
    if (status.ok())
      status = signal->wait();
    if (!status.ok())
      return state.SkipWithError(status.toString().c_str());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * kTransferBytes);
}
void BM_QueueCopyCrossDevice64M_Sync(benchmark::State &state) {
  queueCopyCrossDevice(state, {});
}
BENCHMARK(BM_QueueCopyCrossDevice64M_Sync)->UseRealTime();
void BM_QueueCopyCrossDevice64M_Task(benchmark::State &state) {
  queueCopyCrossDevice(state, {.asynchronous = true, .workerCount = 2});
}
BENCHMARK(BM_QueueCopyCrossDevice64M_Task)->UseRealTime();

// A 4-byte pattern whose bytes differ, so memset cannot be used.
void queueFill(benchmark::State &state, LocalDeviceOptions options) {
  auto device = LocalDevice::create("a", options);
  auto target = *device->allocator().allocate(0, kUsage, kTransferBytes);
  uint32_t pattern = 0x01020304;
  for (auto _ : state) {
    auto signal = Fence::create();
    Status status = device->queueFill(nullptr, signal, target, 0,
                                      kTransferBytes, pattern++, 4);
    if (status.ok())
      status = signal->wait();
    if (!status.ok())
      return state.SkipWithError(status.toString().c_str());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * kTransferBytes);
}
void BM_QueueFill64M_Pattern4_Sync(benchmark::State &state) {
  queueFill(state, {});
}
BENCHMARK(BM_QueueFill64M_Pattern4_Sync)->UseRealTime();
void BM_QueueFill64M_Pattern4_Task(benchmark::State &state) {
  queueFill(state, {.asynchronous = true, .workerCount = 2});
}
BENCHMARK(BM_QueueFill64M_Pattern4_Task)->UseRealTime();

} // namespace
} // namespace ferry

BENCHMARK_MAIN();
