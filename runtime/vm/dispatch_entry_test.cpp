// hal.device.queue.dispatch.entry end to end: modules built with the tests'
// BytecodeWriter carry the test executables (runtime/hal/testing/
// test_executable.c), a Context loads them and runs their entries on
// local-sync and local-task (running small dispatches on the calling thread
// or queueing every one), which must agree. Checks before any workgroup
// runs are proven by an output the kernel would have written staying as it
// was.
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>

#include "runtime/base/testing/status_assertions.h"
#include "runtime/drivers/local/local_device.h"
#include "runtime/hal/buffer_bits.h"
#include "runtime/hal/buffer_import.h"
#include "runtime/hal/testing/test_executables.h"
#include "runtime/vm/context.h"
#include "runtime/vm/testing/sample_modules.h"

namespace ferry::vm {
namespace {

using drivers::local::LocalDevice;
using drivers::local::LocalDeviceOptions;
using hal::testing::kAddF32;
using hal::testing::kFailInWorkgroup1;
using hal::testing::kOutOfMemoryInWorkgroup1;
using hal::testing::kRecordWorkgroups;
using hal::testing::testExecutableRecord;
using testing::BytecodeWriter;
using K = RegisterKind;

#define ASSERT_OK(expr)                                                        \
  do {                                                                         \
    Status status_ = (expr);                                                   \
    ASSERT_TRUE(status_.ok()) << status_.toString();                           \
  } while (0)

constexpr uint32_t kUsage =
    hal::kTransfer | hal::kDispatchStorage | hal::kMapping;

// A module with executable `record` and
//   main(view x bindings) -> ()
// dispatching entry `entry` over `grid` with `pushConstants`, one binding per
// view argument (its buffer, at offsets[i] (0 if absent), lengths[i] bytes),
// then awaiting the dispatch.
std::vector<uint8_t> dispatchModule(bytecode::ExecutableRecord record,
                                    uint32_t entry, std::array<int64_t, 3> grid,
                                    std::vector<int64_t> pushConstants,
                                    std::vector<int64_t> lengths,
                                    std::vector<int64_t> offsets = {}) {
  offsets.resize(lengths.size(), 0);
  BytecodeWriter w;
  w.device("device_a");
  w.executable(std::move(record));
  size_t n = lengths.size();
  // i64: grid 0-2, push constants, offsets, lengths.
  // ref: views, buffers, device, fence.
  uint16_t pcAt = 3, offsetAt = uint16_t(pcAt + pushConstants.size()),
           lengthAt = uint16_t(offsetAt + n), i64Count = uint16_t(lengthAt + n);
  uint16_t bufferAt = uint16_t(n), device = uint16_t(2 * n),
           fence = uint16_t(2 * n + 1);
  auto &f = w.function("main", std::vector<K>(n, K::kRef), {}, i64Count,
                       uint16_t(2 * n + 2));
  for (uint16_t d = 0; d < 3; ++d)
    f.constI64(d, grid[d]);
  for (size_t i = 0; i < pushConstants.size(); ++i)
    f.constI64(uint16_t(pcAt + i), pushConstants[i]);
  for (size_t i = 0; i < n; ++i) {
    f.constI64(uint16_t(offsetAt + i), offsets[i]);
    f.constI64(uint16_t(lengthAt + i), lengths[i]);
    f.viewBuffer(uint16_t(bufferAt + i), uint16_t(i));
  }
  f.deviceGet(device, 0).fenceCreate(fence, device);
  std::vector<int64_t> operands = {
      device, bytecode::kNoRegister, fence, 0, entry, 0, 1, 2};
  operands.push_back(int64_t(pushConstants.size()));
  for (size_t i = 0; i < pushConstants.size(); ++i)
    operands.push_back(pcAt + int64_t(i));
  for (uint16_t at : {bufferAt, offsetAt, lengthAt}) {
    operands.push_back(int64_t(n));
    for (size_t i = 0; i < n; ++i)
      operands.push_back(at + int64_t(i));
  }
  f.emit(Opcode::kQueueDispatchEntry, operands).fenceAwait({fence}).ret({});
  return w.finish();
}

// Records every queue operation a device reports.
struct Recorder : hal::DeviceObserver {
  void onQueueOperation(const hal::Device &,
                        const hal::QueueOperation &operation) override {
    std::lock_guard<std::mutex> lock(mutex);
    operations.push_back(operation);
    // The names are views valid only during the call.
    names.push_back(strCat(operation.executable, ":", operation.entry));
  }
  std::mutex mutex;
  std::vector<hal::QueueOperation> operations;
  std::vector<std::string> names;
};

enum class Driver { kSync, kTask, kTaskQueued };

class DispatchEntryTest : public ::testing::TestWithParam<Driver> {
protected:
  // local-task has two workers.
  std::shared_ptr<LocalDevice> device = LocalDevice::create(
      "device_a",
      LocalDeviceOptions{.asynchronous = GetParam() != Driver::kSync,
                         .workerCount = 2,
                         .inlineSmallOperations =
                             GetParam() != Driver::kTaskQueued});

  Result<Context> makeContext(const std::vector<uint8_t> &file) {
    Result<Module> module = Module::load(file);
    if (!module.ok())
      return module.status();
    return Context::create(std::make_shared<const Module>(std::move(*module)),
                           {device});
  }

  template <typename T>
  std::shared_ptr<hal::BufferView> view(const std::vector<T> &values,
                                        uint32_t usage = kUsage) {
    auto buffer =
        *device->allocator().allocate(hal::kHostVisible | hal::kDeviceVisible,
                                      usage, values.size() * sizeof(T));
    std::memcpy(buffer->data(), values.data(), values.size() * sizeof(T));
    return *hal::BufferView::create(buffer, {int64_t(values.size())},
                                    sizeof(T) == 4 ? hal::ElementType::kF32
                                                   : hal::ElementType::kI64);
  }

  template <typename T>
  static std::vector<T> read(const std::shared_ptr<hal::BufferView> &v) {
    std::vector<T> out(v->buffer()->byteLength() / sizeof(T));
    std::memcpy(out.data(), v->buffer()->data(), v->buffer()->byteLength());
    return out;
  }
};

INSTANTIATE_TEST_SUITE_P(Drivers, DispatchEntryTest,
                         ::testing::Values(Driver::kSync, Driver::kTask,
                                           Driver::kTaskQueued),
                         [](const auto &info) {
                           switch (info.param) {
                           case Driver::kSync:
                             return "LocalSync";
                           case Driver::kTask:
                             return "LocalTask";
                           case Driver::kTaskQueued:
                             return "LocalTaskQueued";
                           }
                           return "";
                         });

// main(lhs, rhs) -> lhs + rhs over a 3x2x1 grid, as the compiler lowers a
// dispatch region (sample_modules.h), with the observer and stats counting.
TEST_P(DispatchEntryTest, AddsOverAGrid) {
  Result<Context> context = makeContext(
      testing::buildDispatchEntryModule(testExecutableRecord(), {3, 2, 1}));
  ASSERT_TRUE(context.ok()) << context.status().toString();
  Recorder recorder;
  device->setObserver(&recorder);
  std::vector<float> lhs(1001), rhs(1001), expected(1001);
  for (size_t i = 0; i < lhs.size(); ++i) {
    lhs[i] = float(i) * 0.5f;
    rhs[i] = 3.0f - float(i);
    expected[i] = lhs[i] + rhs[i];
  }
  auto results = context->invoke("main", {view(lhs), view(rhs)});
  ASSERT_TRUE(results.ok()) << results.status().toString();
  EXPECT_EQ(read<float>((*results)[0].refAs<hal::BufferView>()), expected);
  EXPECT_EQ(device->statistics().dispatches, 1u);
  device->setObserver(nullptr);
  std::lock_guard<std::mutex> lock(recorder.mutex);
  size_t dispatches = 0;
  for (size_t i = 0; i < recorder.operations.size(); ++i) {
    const hal::QueueOperation &op = recorder.operations[i];
    if (op.kind != hal::QueueOperationKind::kDispatch)
      continue;
    ++dispatches;
    EXPECT_EQ(recorder.names[i], "test_exe:add_f32");
    EXPECT_EQ(op.workgroups, 6u);
    EXPECT_EQ(op.bytes, 1001u * 4); // the written binding
    EXPECT_TRUE(op.ok);
  }
  EXPECT_EQ(dispatches, 1u);
  // The program's queue is idle when it allocates the result and then
  // dispatches: local-task runs both on the calling thread (with the same
  // result, stats and report) unless told to queue them.
  EXPECT_EQ(device->operationsRunInline(),
            GetParam() == Driver::kTask ? 2u : 0u);
}

TEST_P(DispatchEntryTest, EveryWorkgroupRunsOnce) {
  Result<Context> context = makeContext(dispatchModule(
      testExecutableRecord(), kRecordWorkgroups, {3, 2, 1}, {}, {6 * 16}));
  ASSERT_TRUE(context.ok()) << context.status().toString();
  auto records = view(std::vector<float>(6 * 4, 0.0f));
  ASSERT_OK(context->invoke("main", {records}).status());
  std::vector<uint32_t> got = read<uint32_t>(records);
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 3; ++x) {
      size_t at = 4 * (x + 3 * y);
      EXPECT_EQ(got[at], 1u) << x << "," << y;
      EXPECT_EQ(got[at + 1], x);
      EXPECT_EQ(got[at + 2], y);
      EXPECT_EQ(got[at + 3], 0u);
    }
}

// local-task wakes parked helpers for the workgroups of a dispatch that
// touches more than 1 MiB at once, but runs those of a smaller one on one
// thread when they take microseconds (drivers/local/task_executor.h): the
// same workgroups each run once either way.
TEST_P(DispatchEntryTest, SmallDispatchesKeepParkedHelpersParked) {
  constexpr int64_t kGroups = 8;
  for (int64_t length : {kGroups * 16, int64_t(2) << 20}) {
    SCOPED_TRACE(length);
    Result<Context> context =
        makeContext(dispatchModule(testExecutableRecord(), kRecordWorkgroups,
                                   {kGroups, 1, 1}, {}, {length}));
    ASSERT_TRUE(context.ok()) << context.status().toString();
    uint64_t declinedBefore = device->splitsDeclined();
    // Helpers park within a millisecond of their last work; a few tries in
    // case one was slow to get there.
    for (int attempt = 0; attempt < 10; ++attempt) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      auto records = view(std::vector<float>(length / 4, 0.0f));
      ASSERT_OK(context->invoke("main", {records}).status());
      std::vector<uint32_t> got = read<uint32_t>(records);
      for (uint32_t x = 0; x < kGroups; ++x) {
        EXPECT_EQ(got[4 * x], 1u) << x;
        EXPECT_EQ(got[4 * x + 1], x);
      }
      if (device->splitsDeclined() != declinedBefore)
        break;
    }
    bool small = length <= (1 << 20);
    EXPECT_EQ(device->splitsDeclined() != declinedBefore,
              small && GetParam() != Driver::kSync);
  }
}

TEST_P(DispatchEntryTest, BindingOffsetsMoveTheBase) {
  // lhs from its second element: out[i] = lhs[i + 1] + rhs[i].
  Result<Context> context =
      makeContext(dispatchModule(testExecutableRecord(), kAddF32, {2, 1, 1},
                                 {3}, {12, 12, 12}, {4, 0, 0}));
  ASSERT_TRUE(context.ok()) << context.status().toString();
  auto out = view(std::vector<float>{0, 0, 0});
  ASSERT_OK(context
                ->invoke("main", {view(std::vector<float>{1, 2, 3, 4}),
                                  view(std::vector<float>{10, 20, 30}), out})
                .status());
  EXPECT_EQ(read<float>(out), (std::vector<float>{12, 23, 34}));
}

// An entry the module calls a copy kernel runs like any other, but counts
// as one copy of its smallest binding's bytes, not as a dispatch.
TEST_P(DispatchEntryTest, CopyKernelsCountAsCopies) {
  bytecode::ExecutableRecord record = testExecutableRecord();
  record.entries[kAddF32].kind = bytecode::kEntryCopy;
  Result<Context> context = makeContext(
      dispatchModule(std::move(record), kAddF32, {2, 1, 1}, {2}, {16, 8, 8}));
  ASSERT_TRUE(context.ok()) << context.status().toString();
  auto out = view(std::vector<float>{0, 0});
  ASSERT_OK(context
                ->invoke("main", {view(std::vector<float>{1, 2, 3, 4}),
                                  view(std::vector<float>{10, 20}), out})
                .status());
  EXPECT_EQ(read<float>(out), (std::vector<float>{11, 22}));
  hal::DeviceStatistics stats = device->statistics();
  EXPECT_EQ(stats.copies, 1u);
  EXPECT_EQ(stats.bytesCopied, 8u);
  EXPECT_EQ(stats.dispatches, 0u);
}

// A parameter binding (a copy kernel's scalar) is left out of the count,
// though it is the smallest: here the 8-byte output counts, not the
// 4-byte first input.
TEST_P(DispatchEntryTest, CopyKernelsLeaveOutParameters) {
  bytecode::ExecutableRecord record = testExecutableRecord();
  record.entries[kAddF32].kind = bytecode::kEntryCopy;
  record.entries[kAddF32].bindingAccess[0] =
      bytecode::kBindingRead | bytecode::kBindingParameter;
  Result<Context> context = makeContext(
      dispatchModule(std::move(record), kAddF32, {1, 1, 1}, {1}, {4, 8, 8}));
  ASSERT_TRUE(context.ok()) << context.status().toString();
  auto out = view(std::vector<float>{0, 0});
  ASSERT_OK(context
                ->invoke("main", {view(std::vector<float>{1}),
                                  view(std::vector<float>{10, 20}), out})
                .status());
  EXPECT_EQ(read<float>(out), (std::vector<float>{11, 0}));
  hal::DeviceStatistics stats = device->statistics();
  EXPECT_EQ(stats.copies, 1u);
  EXPECT_EQ(stats.bytesCopied, 8u);
  EXPECT_EQ(stats.dispatches, 0u);
}

TEST_P(DispatchEntryTest, NoWorkgroupsRunsNothing) {
  Result<Context> context = makeContext(dispatchModule(
      testExecutableRecord(), kAddF32, {4, 0, 1}, {2}, {8, 8, 8}));
  ASSERT_TRUE(context.ok()) << context.status().toString();
  auto out = view(std::vector<float>{-1, -1});
  ASSERT_OK(context
                ->invoke("main", {view(std::vector<float>{1, 2}),
                                  view(std::vector<float>{3, 4}), out})
                .status());
  EXPECT_EQ(read<float>(out), (std::vector<float>{-1, -1}));
}

TEST_P(DispatchEntryTest, KernelFailureFailsTheFence) {
  Result<Context> context = makeContext(dispatchModule(
      testExecutableRecord(), kFailInWorkgroup1, {3, 1, 1}, {}, {4}));
  ASSERT_TRUE(context.ok()) << context.status().toString();
  EXPECT_TRUE(failedWith(context->invoke("main", {view(std::vector<float>{0})}),
                         StatusCode::kAborted,
                         "queue dispatch of executable 'test_exe' entry "
                         "'fail_in_workgroup_1' on device 'device_a': "
                         "workgroup (1, 0, 0) returned 7"));
}

// A kernel that could not allocate its heap tile returns the ABI's
// out-of-memory status: the dispatch fails as resource exhausted, saying so.
TEST_P(DispatchEntryTest, KernelOutOfMemoryFailsTheFence) {
  Result<Context> context = makeContext(dispatchModule(
      testExecutableRecord(), kOutOfMemoryInWorkgroup1, {3, 1, 1}, {}, {4}));
  ASSERT_TRUE(context.ok()) << context.status().toString();
  EXPECT_TRUE(failedWith(context->invoke("main", {view(std::vector<float>{0})}),
                         StatusCode::kResourceExhausted,
                         "queue dispatch of executable 'test_exe' entry "
                         "'out_of_memory_in_workgroup_1' on device "
                         "'device_a': workgroup (1, 0, 0) ran out of memory"));
}

// A binding shorter than the extent the module declares is an error before
// any workgroup runs: the output the kernel would write is untouched.
TEST_P(DispatchEntryTest, ShortBindingFailsBeforeTheKernelRuns) {
  for (size_t shortOne : {0, 2}) {
    SCOPED_TRACE(shortOne);
    std::vector<int64_t> lengths = {16, 16, 16};
    lengths[shortOne] = 32;
    Result<Context> context = makeContext(dispatchModule(
        testExecutableRecord(), kAddF32, {2, 1, 1}, {4}, lengths));
    ASSERT_TRUE(context.ok()) << context.status().toString();
    auto out = view(std::vector<float>{-1, -1, -1, -1});
    EXPECT_TRUE(failedWith(
        context->invoke("main", {view(std::vector<float>{1, 2, 3, 4}),
                                 view(std::vector<float>{1, 2, 3, 4}), out}),
        StatusCode::kOutOfRange,
        strCat("queue dispatch of executable 'test_exe' entry 'add_f32' on "
               "device 'device_a' (binding ",
               shortOne,
               "): offset 0 + length 32 is outside the buffer's 16 bytes")));
    EXPECT_EQ(read<float>(out), (std::vector<float>{-1, -1, -1, -1}));
  }
  EXPECT_EQ(device->statistics().dispatches, 0u);
}

TEST_P(DispatchEntryTest, AccessNeedsTheDispatchStorageBits) {
  Result<Context> context = makeContext(dispatchModule(
      testExecutableRecord(), kAddF32, {1, 1, 1}, {2}, {8, 8, 8}));
  ASSERT_TRUE(context.ok()) << context.status().toString();
  auto out = view(std::vector<float>{-1, -1},
                  hal::kTransfer | hal::kMapping | hal::kDispatchStorageRead);
  EXPECT_TRUE(failedWith(
      context->invoke("main", {view(std::vector<float>{1, 2}),
                               view(std::vector<float>{3, 4}), out}),
      StatusCode::kFailedPrecondition,
      "queue dispatch of executable 'test_exe' entry 'add_f32' on device "
      "'device_a' (binding 2): missing buffer usage bit "
      "DispatchStorageWrite"));
  EXPECT_EQ(read<float>(out), (std::vector<float>{-1, -1}));
  auto lhs = view(std::vector<float>{1, 2},
                  hal::kTransfer | hal::kMapping | hal::kDispatchStorageWrite);
  out = view(std::vector<float>{-1, -1});
  EXPECT_TRUE(failedWith(
      context->invoke("main", {lhs, view(std::vector<float>{3, 4}), out}),
      StatusCode::kFailedPrecondition,
      "(binding 0): missing buffer usage bit DispatchStorageRead"));
  EXPECT_EQ(read<float>(out), (std::vector<float>{-1, -1}));
}

TEST_P(DispatchEntryTest, WorkgroupCountsChecked) {
  for (auto [grid, message] :
       std::vector<std::pair<std::array<int64_t, 3>, std::string>>{
           {{1, -1, 1},
            "executable 'test_exe' workgroup count 1 is negative (-1)"},
           {{1, 1, int64_t(1) << 32},
            "queue dispatch of executable 'test_exe' entry 'add_f32' on "
            "device 'device_a': workgroup count z = 4294967296 is outside "
            "[0, 2^32)"}}) {
    Result<Context> context = makeContext(
        dispatchModule(testExecutableRecord(), kAddF32, grid, {2}, {8, 8, 8}));
    ASSERT_TRUE(context.ok()) << context.status().toString();
    auto out = view(std::vector<float>{-1, -1});
    Status status = context
                        ->invoke("main", {view(std::vector<float>{1, 2}),
                                          view(std::vector<float>{3, 4}), out})
                        .status();
    EXPECT_NE(status.message().find(message), std::string::npos)
        << status.toString();
    EXPECT_EQ(read<float>(out), (std::vector<float>{-1, -1}));
  }
}

// A bad executable fails Context::create, before anything runs.
TEST_P(DispatchEntryTest, BadExecutablesFailAtLoad) {
  auto garbage = testExecutableRecord();
  garbage.image.assign(64, 0);
  EXPECT_TRUE(
      failedWith(makeContext(testing::buildDispatchEntryModule(garbage)),
                 StatusCode::kDataLoss,
                 "loading the module: executable 'test_exe' is not an "
                 "ELF shared object"));
  EXPECT_TRUE(
      failedWith(makeContext(testing::buildDispatchEntryModule(
                     testExecutableRecord("bad_abi"))),
                 StatusCode::kFailedPrecondition,
                 "executable 'test_exe' has executable ABI version 99"));
  EXPECT_TRUE(
      failedWith(makeContext(testing::buildDispatchEntryModule(
                     testExecutableRecord("no_entry"))),
                 StatusCode::kNotFound,
                 "executable 'test_exe' does not export entry 'add_f32'"));
  EXPECT_TRUE(failedWith(
      makeContext(testing::buildDispatchEntryModule(
          testExecutableRecord("good", "test_exe", "avx9000"))),
      StatusCode::kUnimplemented,
      "executable 'test_exe' uses CPU feature 'avx9000', which this runtime "
      "cannot check"));
  for (std::string_view name : hal::kCpuFeatureNames) {
    if (hal::CpuFeatureSet::host().has(name))
      continue;
    EXPECT_TRUE(failedWith(
        makeContext(testing::buildDispatchEntryModule(
            testExecutableRecord("good", "test_exe", std::string(name)))),
        StatusCode::kFailedPrecondition,
        strCat("uses CPU feature '", name, "', which this CPU does not have")));
    break;
  }
}

// A transfer mirror (buffer_import.h) bound to a dispatch is brought up to
// date before the workgroups run and written back after.
TEST_P(DispatchEntryTest, TransferMirrorsWork) {
  auto isolated = LocalDevice::create(
      "isolated",
      LocalDeviceOptions{.discrete = true, .externalHandles = false});
  auto group = hal::DeviceGroup::create({device, isolated});
  ASSERT_TRUE(group.ok()) << group.status().toString();
  auto buffer = *device->allocator().allocate(hal::kHostVisible, kUsage, 16);
  float initial[4] = {1, 2, 3, 4};
  std::memcpy(buffer->data(), initial, 16);
  auto mirror = hal::importBufferToDevice(*isolated, buffer, nullptr);
  ASSERT_TRUE(mirror.ok()) << mirror.status().toString();
  ASSERT_EQ((*mirror)->transferSource(), buffer);

  auto record = testExecutableRecord();
  std::vector<hal::ExecutableEntrySpec> entries;
  for (const bytecode::EntryRecord &entry : record.entries)
    entries.push_back(
        {entry.name, entry.pushConstantCount, entry.bindingAccess});
  auto executable = hal::Executable::load(
      {record.name, record.format, record.cpuFeatures, entries, record.image});
  ASSERT_TRUE(executable.ok()) << executable.status().toString();
  // In place: buffer = buffer + buffer, on the isolated device.
  hal::DispatchBinding binding{*mirror, 0, 16};
  hal::DispatchBinding bindings[] = {binding, binding, binding};
  uint64_t n = 4;
  auto fence = hal::Fence::create();
  ASSERT_OK(isolated->queueDispatchEntry(nullptr, fence, *executable, kAddF32,
                                         {2, 1, 1}, {&n, 1}, bindings));
  ASSERT_OK(fence->wait());
  float result[4];
  std::memcpy(result, buffer->data(), 16);
  EXPECT_EQ(std::vector<float>(result, result + 4),
            (std::vector<float>{2, 4, 6, 8}));
  EXPECT_EQ(isolated->statistics().transfers, 2u); // in, then back
}

} // namespace
} // namespace ferry::vm
