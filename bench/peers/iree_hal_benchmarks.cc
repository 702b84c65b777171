// The reference runtime's side of the runtime comparison: the rows of
// bench/runtime/hal_benchmarks.cpp that IREE's HAL C API has, timed the same
// way (Google Benchmark, one operation per iteration), each beside the same
// baseline so the two runs can be compared by ratio. Built against an IREE
// source checkout by bench/peers/run_iree_comparison.sh; not part of Ferry's
// build or tests.
//
// Written against IREE's HAL API with flags on every queue operation and
// semaphores created with a queue affinity (late 2025 onwards). An older
// checkout fails to compile here with the mismatch named by the compiler.
#include <benchmark/benchmark.h>

#include <cstring>
#include <deque>
#include <string>

#include "bench/baselines.h"
#include "iree/base/api.h"
#include "iree/hal/api.h"
#include "iree/hal/drivers/init.h"

namespace {

constexpr iree_device_size_t kBlockBytes = 4096;
constexpr iree_device_size_t kTransferBytes = ferry::bench::kTransferBytes;

// Ends the benchmark with IREE's message when a call fails.
bool failed(benchmark::State &state, iree_status_t status) {
  if (iree_status_is_ok(status))
    return false;
  char *text = nullptr;
  iree_host_size_t length = 0;
  std::string message = "IREE error";
  if (iree_status_to_string(status, iree_allocator_system(), &text, &length)) {
    message.assign(text, length);
    iree_allocator_free(iree_allocator_system(), text);
  }
  iree_status_free(status);
  state.SkipWithError(message.c_str());
  return true;
}

// One device of a driver ("local-sync" or "local-task"), released at scope
// exit.
struct Device {
  iree_hal_device_t *device = nullptr;
  iree_status_t status = iree_ok_status();
  explicit Device(const char *driver) {
    static iree_status_t registered = iree_hal_register_all_available_drivers(
        iree_hal_driver_registry_default());
    status = iree_status_clone(registered);
    if (iree_status_is_ok(status))
      status = iree_hal_create_device(iree_hal_driver_registry_default(),
                                      iree_make_cstring_view(driver),
                                      iree_allocator_system(), &device);
  }
  ~Device() { iree_hal_device_release(device); }
  iree_hal_allocator_t *allocator() const {
    return iree_hal_device_allocator(device);
  }
};

iree_hal_buffer_params_t deviceParams() {
  iree_hal_buffer_params_t params;
  std::memset(&params, 0, sizeof(params));
  params.type = IREE_HAL_MEMORY_TYPE_DEVICE_LOCAL;
  params.usage =
      IREE_HAL_BUFFER_USAGE_TRANSFER | IREE_HAL_BUFFER_USAGE_DISPATCH_STORAGE;
  return params;
}

// A timeline semaphore and the next value to signal.
struct Timeline {
  iree_hal_semaphore_t *semaphore = nullptr;
  uint64_t value = 0;
  iree_status_t create(iree_hal_device_t *device) {
    return iree_hal_semaphore_create(device, IREE_HAL_QUEUE_AFFINITY_ANY, 0,
                                     (iree_hal_semaphore_flags_t)0, &semaphore);
  }
  ~Timeline() { iree_hal_semaphore_release(semaphore); }
  iree_hal_semaphore_list_t current() { return {1, &semaphore, &value}; }
  iree_status_t wait() {
    return iree_hal_semaphore_wait(semaphore, value, iree_infinite_timeout());
  }
};

// --- Ownership ---------------------------------------------------------------

// Times `body(buffer)` on a 64-byte buffer of a local-sync device.
template <typename Body>
void onSmallBuffer(benchmark::State &state, Body body) {
  Device device("local-sync");
  if (failed(state, device.status))
    return;
  iree_hal_buffer_t *buffer = nullptr;
  if (failed(state, iree_hal_allocator_allocate_buffer(
                        device.allocator(), deviceParams(), 64, &buffer)))
    return;
  for (auto _ : state)
    body(buffer);
  iree_hal_buffer_release(buffer);
}

void BM_PreserveDiscard(benchmark::State &state) {
  onSmallBuffer(state, [](iree_hal_buffer_t *buffer) {
    iree_hal_buffer_allocation_preserve(buffer);
    benchmark::DoNotOptimize(iree_hal_buffer_allocation_discard(buffer));
  });
}
BENCHMARK(BM_PreserveDiscard);

void BM_IsTerminal(benchmark::State &state) {
  onSmallBuffer(state, [](iree_hal_buffer_t *buffer) {
    benchmark::DoNotOptimize(iree_hal_buffer_allocation_is_terminal(buffer));
  });
}
BENCHMARK(BM_IsTerminal);

// --- Direct allocation -------------------------------------------------------

void allocateRelease(benchmark::State &state, const char *driver) {
  Device device(driver);
  if (failed(state, device.status))
    return;
  for (auto _ : state) {
    iree_hal_buffer_t *buffer = nullptr;
    if (failed(state, iree_hal_allocator_allocate_buffer(
                          device.allocator(), deviceParams(),
                          iree_device_size_t(state.range(0)), &buffer)))
      return;
    iree_hal_buffer_release(buffer);
  }
}
void BM_AllocateRelease_Sync(benchmark::State &state) {
  allocateRelease(state, "local-sync");
}
BENCHMARK(BM_AllocateRelease_Sync)->Arg(4096)->Arg(1 << 20);
void BM_AllocateRelease_Task(benchmark::State &state) {
  allocateRelease(state, "local-task");
}
BENCHMARK(BM_AllocateRelease_Task)->Arg(4096)->Arg(1 << 20);

// --- Queue allocation
// ---------------------------------------------------------

// N live 4 KiB queue allocations; each iteration deallocas the oldest and
// allocas a new one, with no host waits (Ferry's queueAllocaDealloca).
void queueAllocaDealloca(benchmark::State &state, const char *driver) {
  Device device(driver);
  Timeline timeline;
  if (failed(state, device.status) ||
      failed(state, timeline.create(device.device)))
    return;
  std::deque<iree_hal_buffer_t *> live;
  auto alloc = [&]() {
    iree_hal_semaphore_list_t wait = timeline.current();
    ++timeline.value;
    iree_hal_buffer_t *buffer = nullptr;
    iree_status_t status = iree_hal_device_queue_alloca(
        device.device, IREE_HAL_QUEUE_AFFINITY_ANY, wait, timeline.current(), 0,
        deviceParams(), kBlockBytes, (iree_hal_alloca_flags_t)0, &buffer);
    if (iree_status_is_ok(status))
      live.push_back(buffer);
    return status;
  };
  bool ok = true;
  for (int64_t i = 0; ok && i <= state.range(0); ++i)
    ok = !failed(state, alloc());
  if (ok && !failed(state, timeline.wait())) {
    for (auto _ : state) {
      iree_hal_semaphore_list_t wait = timeline.current();
      ++timeline.value;
      iree_hal_buffer_t *oldest = live.front();
      live.pop_front();
      iree_status_t status = iree_hal_device_queue_dealloca(
          device.device, IREE_HAL_QUEUE_AFFINITY_ANY, wait, timeline.current(),
          oldest, (iree_hal_dealloca_flags_t)0);
      iree_hal_buffer_release(oldest);
      if (failed(state, status) || failed(state, alloc()))
        break;
    }
    failed(state, timeline.wait());
  }
  for (iree_hal_buffer_t *buffer : live)
    iree_hal_buffer_release(buffer);
}
void BM_QueueAllocaDealloca4K_Sync(benchmark::State &state) {
  queueAllocaDealloca(state, "local-sync");
}
BENCHMARK(BM_QueueAllocaDealloca4K_Sync)->Arg(10)->Arg(1000)->Arg(100000);
void BM_QueueAllocaDealloca4K_Task(benchmark::State &state) {
  queueAllocaDealloca(state, "local-task");
}
BENCHMARK(BM_QueueAllocaDealloca4K_Task)->Arg(10)->Arg(1000)->UseRealTime();

// The host waits for each alloca and each dealloca before the next.
void queueWaitEach(benchmark::State &state, const char *driver) {
  Device device(driver);
  Timeline timeline;
  if (failed(state, device.status) ||
      failed(state, timeline.create(device.device)))
    return;
  iree_hal_semaphore_list_t none = iree_hal_semaphore_list_empty();
  for (auto _ : state) {
    ++timeline.value;
    iree_hal_buffer_t *buffer = nullptr;
    if (failed(state, iree_hal_device_queue_alloca(
                          device.device, IREE_HAL_QUEUE_AFFINITY_ANY, none,
                          timeline.current(), 0, deviceParams(), kBlockBytes,
                          (iree_hal_alloca_flags_t)0, &buffer)) ||
        failed(state, timeline.wait()))
      return;
    ++timeline.value;
    iree_status_t status = iree_hal_device_queue_dealloca(
        device.device, IREE_HAL_QUEUE_AFFINITY_ANY, none, timeline.current(),
        buffer, (iree_hal_dealloca_flags_t)0);
    iree_hal_buffer_release(buffer);
    if (failed(state, status) || failed(state, timeline.wait()))
      return;
  }
}
void BM_QueueAllocaDeallocaWaitEach_Sync(benchmark::State &state) {
  queueWaitEach(state, "local-sync");
}
BENCHMARK(BM_QueueAllocaDeallocaWaitEach_Sync)->UseRealTime();
void BM_QueueAllocaDeallocaWaitEach_Task(benchmark::State &state) {
  queueWaitEach(state, "local-task");
}
BENCHMARK(BM_QueueAllocaDeallocaWaitEach_Task)->UseRealTime();

// --- Copy and fill, 64 MiB, host waits for each
// -------------------------------

void queueTransfer(benchmark::State &state, const char *driver, bool fill) {
  Device device(driver);
  Timeline timeline;
  if (failed(state, device.status) ||
      failed(state, timeline.create(device.device)))
    return;
  iree_hal_buffer_t *source = nullptr, *target = nullptr;
  if (failed(state, iree_hal_allocator_allocate_buffer(
                        device.allocator(), deviceParams(), kTransferBytes,
                        &source)) ||
      failed(state, iree_hal_allocator_allocate_buffer(
                        device.allocator(), deviceParams(), kTransferBytes,
                        &target))) {
    iree_hal_buffer_release(source);
    return;
  }
  iree_hal_semaphore_list_t none = iree_hal_semaphore_list_empty();
  const uint32_t pattern = 0x07070707u;
  for (auto _ : state) {
    ++timeline.value;
    iree_status_t status =
        fill ? iree_hal_device_queue_fill(
                   device.device, IREE_HAL_QUEUE_AFFINITY_ANY, none,
                   timeline.current(), target, 0, kTransferBytes, &pattern,
                   sizeof(pattern), (iree_hal_fill_flags_t)0)
             : iree_hal_device_queue_copy(
                   device.device, IREE_HAL_QUEUE_AFFINITY_ANY, none,
                   timeline.current(), source, 0, target, 0, kTransferBytes,
                   (iree_hal_copy_flags_t)0);
    if (failed(state, status) || failed(state, timeline.wait()))
      break;
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * kTransferBytes);
  iree_hal_buffer_release(source);
  iree_hal_buffer_release(target);
}
void BM_QueueCopy64M_Sync(benchmark::State &state) {
  queueTransfer(state, "local-sync", /*fill=*/false);
}
BENCHMARK(BM_QueueCopy64M_Sync)->UseRealTime();
void BM_QueueCopy64M_Task(benchmark::State &state) {
  queueTransfer(state, "local-task", /*fill=*/false);
}
BENCHMARK(BM_QueueCopy64M_Task)->UseRealTime();
void BM_QueueFill64M_Pattern4_Sync(benchmark::State &state) {
  queueTransfer(state, "local-sync", /*fill=*/true);
}
BENCHMARK(BM_QueueFill64M_Pattern4_Sync)->UseRealTime();
void BM_QueueFill64M_Pattern4_Task(benchmark::State &state) {
  queueTransfer(state, "local-task", /*fill=*/true);
}
BENCHMARK(BM_QueueFill64M_Pattern4_Task)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
