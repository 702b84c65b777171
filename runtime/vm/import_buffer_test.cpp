// hal.device.import_buffer (opcode 0x44): what the loader rejects, and what
// the interpreter and runtime/hal/buffer_import.h do with a buffer one
// device allocated and another uses: the buffer itself where memory is
// shared, an opaque-fd export/import where it is not, a transfer mirror
// where no handle type connects the two, and errors naming the buffer, both
// devices and what is missing.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <thread>

#include "runtime/base/testing/status_assertions.h"
#include "runtime/drivers/local/local_device.h"
#include "runtime/hal/buffer_bits.h"
#include "runtime/hal/buffer_import.h"
#include "runtime/hal/topology.h"
#include "runtime/vm/context.h"
#include "runtime/vm/testing/bytecode_writer.h"

namespace ferry::vm {
namespace {

using testing::BytecodeWriter;
using K = RegisterKind;
using FunctionBuilder = BytecodeWriter::FunctionBuilder;
using bytecode::kNoRegister;
using drivers::local::LocalDevice;
using drivers::local::LocalDeviceOptions;

FunctionBuilder &importBuffer(FunctionBuilder &f, uint16_t dst, uint16_t device,
                              uint16_t buffer, uint16_t wait) {
  return f.emit(Opcode::kDeviceImportBuffer, {dst, device, buffer, wait});
}

std::string loadError(const std::vector<uint8_t> &file) {
  Result<Module> module = Module::load(file);
  return module.ok() ? "<loaded>" : module.status().message();
}

// Two devices; `f` (1 ref argument: a buffer in r0) has 4 ref registers and
// runs `build` after r1 = device 0, r2 = device 1.
template <typename Build>
std::vector<uint8_t> importModule(Build build,
                                  std::vector<K> results = {K::kRef}) {
  BytecodeWriter w;
  w.device("a");
  w.device("d");
  auto &f = w.function("f", {K::kRef}, results, 0, 4);
  f.deviceGet(1, 0).deviceGet(2, 1);
  build(f);
  return w.finish();
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

TEST(ImportBufferLoadTest, AcceptsWithAndWithoutAWaitFence) {
  for (uint16_t wait : {uint16_t(3), kNoRegister})
    EXPECT_EQ(loadError(importModule([&](FunctionBuilder &f) {
                importBuffer(f, 3, 2, 0, wait);
                f.ret({{K::kRef, 3}});
              })),
              "<loaded>");
}

TEST(ImportBufferLoadTest, RejectsRegistersOutOfRange) {
  struct Case {
    uint16_t dst, device, buffer, wait;
    std::string expected;
  };
  for (const Case &c : {
           Case{9, 2, 0, kNoRegister, "dst: ref register 9 is out of range"},
           Case{3, 8, 0, kNoRegister, "device: ref register 8 is out of range"},
           Case{3, 2, 7, kNoRegister, "buffer: ref register 7 is out of range"},
           Case{3, 2, 0, 6, "wait: ref register 6 is out of range"},
       }) {
    std::string error = loadError(importModule([&](FunctionBuilder &f) {
      importBuffer(f, c.dst, c.device, c.buffer, c.wait);
      f.ret({{K::kRef, 3}});
    }));
    EXPECT_NE(error.find("hal.device.import_buffer: " + c.expected),
              std::string::npos)
        << error;
  }
}

TEST(ImportBufferLoadTest, RejectsATruncatedInstruction) {
  BytecodeWriter w;
  w.device("a");
  auto &f = w.function("f", {K::kRef}, {}, 0, 4);
  f.deviceGet(1, 0);
  f.op(Opcode::kDeviceImportBuffer).u16(3).u16(1).u16(0); // no wait operand
  std::string error = loadError(w.finish());
  EXPECT_NE(error, "<loaded>");
  EXPECT_NE(error.find("hal.device.import_buffer"), std::string::npos) << error;
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

constexpr uint32_t kUsage = hal::kTransfer | hal::kDispatchStorage |
                            hal::kMapping | hal::kSharingExport;
constexpr uint32_t kMemory = hal::kHostVisible | hal::kDeviceLocal;

class ImportBufferRunTest : public ::testing::Test {
protected:
  std::shared_ptr<hal::Device> a = LocalDevice::create("a");
  std::shared_ptr<hal::Device> b = LocalDevice::create("b");
  std::shared_ptr<hal::Device> discrete =
      LocalDevice::create("d", LocalDeviceOptions{.discrete = true});
  // local-isolated: discrete, and no handle type in or out.
  std::shared_ptr<hal::Device> isolated = LocalDevice::create(
      "i", LocalDeviceOptions{.discrete = true, .externalHandles = false});

  std::shared_ptr<hal::Buffer> allocate(hal::Device &device, uint32_t usage,
                                        uint64_t size = 16) {
    auto buffer = device.allocator().allocate(kMemory, usage, size);
    EXPECT_TRUE(buffer.ok()) << buffer.status().toString();
    return buffer.ok() ? *buffer : nullptr;
  }

  // Runs `f`: imports its buffer argument into device 1 of {a, user}.
  Result<std::shared_ptr<hal::Buffer>>
  runImport(std::shared_ptr<hal::Device> user,
            std::shared_ptr<hal::Buffer> buffer) {
    Result<Module> loaded = Module::load(importModule([](FunctionBuilder &f) {
      importBuffer(f, 3, 2, 0, kNoRegister);
      f.ret({{K::kRef, 3}});
    }));
    if (!loaded.ok())
      return loaded.status();
    auto module = std::make_shared<const Module>(std::move(*loaded));
    FERRY_ASSIGN_OR_RETURN(Context context,
                           Context::create(module, {a, std::move(user)}));
    FERRY_ASSIGN_OR_RETURN(std::vector<Value> results,
                           context.invoke("f", {Value(std::move(buffer))}));
    return results.at(0).refAs<hal::Buffer>();
  }
};

TEST_F(ImportBufferRunTest, SharedMemoryGivesTheBufferItself) {
  auto group = hal::DeviceGroup::create({a, b});
  ASSERT_TRUE(group.ok()) << group.status().toString();
  auto buffer = allocate(*a, kUsage);
  // @b reaches @a's memory transparently.
  Result<std::shared_ptr<hal::Buffer>> imported = runImport(b, buffer);
  ASSERT_TRUE(imported.ok()) << imported.status().toString();
  EXPECT_EQ(imported->get(), buffer.get());
  // Importing into the allocating device is the buffer too, group or not.
  auto own = hal::importBufferToDevice(*a, buffer, nullptr);
  ASSERT_TRUE(own.ok()) << own.status().toString();
  EXPECT_EQ(own->get(), buffer.get());
  EXPECT_EQ(b->allocator().statistics().allocations, 0u);
}

TEST_F(ImportBufferRunTest, DiscreteDeviceImportsAnOpaqueFd) {
  auto group = hal::DeviceGroup::create({a, discrete});
  ASSERT_TRUE(group.ok()) << group.status().toString();
  auto buffer = allocate(*a, kUsage);
  // Without the import the discrete device may not touch @a's memory.
  auto fence = hal::Fence::create();
  Status direct = discrete->queueFill(nullptr, fence, buffer, 0, 16, 7, 4);
  ASSERT_FALSE(direct.ok());
  EXPECT_NE(direct.message().find("no transparent access"), std::string::npos)
      << direct.toString();

  Result<std::shared_ptr<hal::Buffer>> imported = runImport(discrete, buffer);
  ASSERT_TRUE(imported.ok()) << imported.status().toString();
  const hal::Buffer &view = **imported;
  EXPECT_NE(&view, buffer.get());
  EXPECT_EQ(&view.allocator(), &discrete->allocator());
  EXPECT_EQ(view.byteLength(), 16u);
  EXPECT_TRUE(view.usage() & hal::kSharingImport);
  EXPECT_FALSE(view.usage() & hal::kSharingExport);
  EXPECT_EQ(discrete->allocator().statistics().allocations, 1u);

  // Same memory: the discrete device writes, @a's buffer reads it back.
  fence = hal::Fence::create();
  Status fill =
      discrete->queueFill(nullptr, fence, *imported, 0, 16, 0x01020304, 4);
  ASSERT_TRUE(fill.ok()) << fill.toString();
  auto mapped = buffer->map(hal::MappingMode::kScoped);
  ASSERT_TRUE(mapped.ok()) << mapped.status().toString();
  for (size_t i = 0; i < 16; i += 4)
    EXPECT_EQ(*reinterpret_cast<const uint32_t *>(mapped->data() + i),
              0x01020304u);
  // The import keeps its mapping after the source is gone.
  buffer.reset();
  EXPECT_NE(view.data(), nullptr);
}

TEST_F(ImportBufferRunTest, MissingSharingExportNamesBufferDevicesAndBit) {
  auto group = hal::DeviceGroup::create({a, discrete});
  ASSERT_TRUE(group.ok()) << group.status().toString();
  auto buffer = allocate(*a, kUsage & ~hal::kSharingExport);
  Result<std::shared_ptr<hal::Buffer>> imported = runImport(discrete, buffer);
  ASSERT_FALSE(imported.ok());
  std::string message = imported.status().message();
  for (std::string_view part :
       {"hal.device.import_buffer", "buffer 1 (16 bytes)",
        "import from device 'a' into device 'd'",
        "missing buffer usage bit SharingExport"})
    EXPECT_NE(message.find(part), std::string::npos)
        << part << " in " << message;
}

TEST_F(ImportBufferRunTest, ASubspanHasNoFdToExport) {
  auto group = hal::DeviceGroup::create({a, discrete});
  ASSERT_TRUE(group.ok()) << group.status().toString();
  auto buffer = allocate(*a, kUsage);
  auto subspan = hal::Buffer::subspan(buffer, 4, 8);
  ASSERT_TRUE(subspan.ok());
  auto imported = hal::importBufferToDevice(*discrete, *subspan, nullptr);
  ASSERT_FALSE(imported.ok());
  EXPECT_NE(imported.status().message().find(
                "only whole buffers allocated with SharingExport have an fd"),
            std::string::npos)
      << imported.status().toString();
}

TEST_F(ImportBufferRunTest, APendingBufferIsImportedOnceItsAllocaRuns) {
  auto task =
      LocalDevice::create("t", LocalDeviceOptions{.asynchronous = true});
  auto group = hal::DeviceGroup::create({task, discrete});
  ASSERT_TRUE(group.ok()) << group.status().toString();
  auto gate = hal::Fence::create();
  gate->addPendingSignal();
  auto allocated = hal::Fence::create();
  auto buffer = task->queueAlloca(gate, allocated, hal::kDeviceLocal,
                                  hal::kTransfer | hal::kSharingExport, 64, 0);
  ASSERT_TRUE(buffer.ok()) << buffer.status().toString();
  ASSERT_EQ((*buffer)->data(), nullptr); // still pending

  // Without a fence to wait on, there is nothing to export yet.
  auto early = hal::importBufferToDevice(*discrete, *buffer, nullptr);
  ASSERT_FALSE(early.ok());
  EXPECT_NE(early.status().message().find("has not executed yet"),
            std::string::npos)
      << early.status().toString();

  std::thread opener([gate] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    gate->signal();
  });
  auto imported = hal::importBufferToDevice(*discrete, *buffer, allocated);
  opener.join();
  ASSERT_TRUE(imported.ok()) << imported.status().toString();
  EXPECT_NE((*imported)->data(), nullptr);
  EXPECT_EQ((*imported)->byteLength(), 64u);

  // A failed allocation fails the import, saying so.
  auto failedGate = hal::Fence::create();
  failedGate->fail(internalError("upstream failed"));
  auto failedSignal = hal::Fence::create();
  // An asynchronous queue accepts the alloca and fails its signal fence.
  auto never = task->queueAlloca(failedGate, failedSignal, hal::kDeviceLocal,
                                 hal::kTransfer | hal::kSharingExport, 64, 0);
  ASSERT_TRUE(never.ok()) << never.status().toString();
  auto broken = hal::importBufferToDevice(*discrete, *never, failedSignal);
  EXPECT_TRUE(failedWith(broken, StatusCode::kInternal,
                         "waiting for its allocation: upstream failed"));
}

TEST_F(ImportBufferRunTest, ANonBufferOperandFails) {
  BytecodeWriter w;
  w.device("a");
  auto &f = w.function("f", {}, {}, 0, 3);
  f.deviceGet(0, 0);
  importBuffer(f, 2, 0, /*buffer=*/0, kNoRegister); // r0 holds a device
  f.ret({});
  Result<Module> loaded = Module::load(w.finish());
  ASSERT_TRUE(loaded.ok()) << loaded.status().toString();
  auto module = std::make_shared<const Module>(std::move(*loaded));
  Result<Context> context = Context::create(module, {a});
  ASSERT_TRUE(context.ok()) << context.status().toString();
  Result<std::vector<Value>> results = context->invoke("f", {});
  ASSERT_FALSE(results.ok());
  EXPECT_NE(results.status().message().find("hal.device.import_buffer"),
            std::string::npos)
      << results.status().toString();
  EXPECT_NE(results.status().message().find("buffer"), std::string::npos)
      << results.status().toString();
}

#define ASSERT_OK(expr)                                                        \
  do {                                                                         \
    Status status_ = (expr);                                                   \
    ASSERT_TRUE(status_.ok()) << status_.toString();                           \
  } while (0)

// Reads the i32 elements of a host-visible buffer.
std::vector<int32_t> readInts(const hal::Buffer &buffer) {
  auto mapped = buffer.map(hal::MappingMode::kScoped);
  EXPECT_TRUE(mapped.ok()) << mapped.status().toString();
  if (!mapped.ok())
    return {};
  std::vector<int32_t> values(mapped->size() / 4);
  std::memcpy(values.data(), mapped->data(), mapped->size());
  return values;
}

// No handle type connects @a and the isolated device: the import is a
// buffer of the isolated device standing in for @a's (a transfer mirror).
// Each queue operation using it copies @a's contents in first (so a later
// write on @a is seen) and writes back what it wrote, staged through host
// memory; the isolated device counts every transfer.
TEST_F(ImportBufferRunTest, NoHandleTypeInCommonGivesATransferMirror) {
  auto group = hal::DeviceGroup::create({a, isolated});
  ASSERT_TRUE(group.ok()) << group.status().toString();
  // Without SharingExport too: nothing is exported.
  auto buffer = allocate(*a, kUsage & ~hal::kSharingExport);
  auto fence = hal::Fence::create();
  ASSERT_OK(a->queueFill(nullptr, fence, buffer, 0, 16, 3, 4));

  Result<std::shared_ptr<hal::Buffer>> imported = runImport(isolated, buffer);
  ASSERT_TRUE(imported.ok()) << imported.status().toString();
  std::shared_ptr<hal::Buffer> mirror = *imported;
  EXPECT_EQ(&mirror->allocator(), &isolated->allocator());
  EXPECT_EQ(mirror->transferSource(), buffer);
  EXPECT_EQ(mirror->byteLength(), 16u);
  EXPECT_EQ(isolated->statistics().transfers, 0u); // nothing moved yet

  // In place on the isolated device: mirror = mirror * mirror, written back.
  std::shared_ptr<hal::Buffer> bindings[] = {mirror, mirror, mirror};
  fence = hal::Fence::create();
  ASSERT_OK(isolated->queueDispatch(nullptr, fence, hal::BuiltinKernel::kMul,
                                    hal::ElementType::kI32, 4, bindings));
  ASSERT_OK(fence->wait());
  EXPECT_EQ(readInts(*buffer), (std::vector<int32_t>{9, 9, 9, 9}));
  EXPECT_EQ(isolated->statistics().transfers, 2u); // in, then back
  EXPECT_EQ(isolated->statistics().bytesTransferred, 32u);

  // @a writes again; the next use on the isolated device sees it. A fill of
  // half the mirror keeps the other half of @a's value.
  fence = hal::Fence::create();
  ASSERT_OK(a->queueFill(nullptr, fence, buffer, 0, 16, 5, 4));
  fence = hal::Fence::create();
  ASSERT_OK(isolated->queueFill(nullptr, fence, mirror, 8, 8, 7, 4));
  EXPECT_EQ(readInts(*buffer), (std::vector<int32_t>{5, 5, 7, 7}));
  // A copy out of the mirror into the isolated device's own memory, and
  // one back into the mirror, which writes @a's buffer.
  auto own =
      isolated->allocator().allocate(hal::kDeviceLocal, hal::kTransfer, 16);
  ASSERT_TRUE(own.ok()) << own.status().toString();
  fence = hal::Fence::create();
  ASSERT_OK(isolated->queueCopy(nullptr, fence, mirror, 0, *own, 0, 16));
  fence = hal::Fence::create();
  ASSERT_OK(isolated->queueFill(nullptr, fence, *own, 0, 4, 1, 4));
  fence = hal::Fence::create();
  ASSERT_OK(isolated->queueCopy(nullptr, fence, *own, 0, mirror, 0, 16));
  EXPECT_EQ(readInts(*buffer), (std::vector<int32_t>{1, 5, 7, 7}));
  // fill: in + back; copy from the mirror: in; copy into it: in + back.
  EXPECT_EQ(isolated->statistics().transfers, 7u);
  EXPECT_EQ(isolated->statistics().bytesTransferred, 7u * 16);
  // Staging buffers are gone once each operation is done; @a's side of the
  // staging shows as copies on @a's queue.
  EXPECT_EQ(isolated->allocator().statistics().liveBytes, 32u);
  EXPECT_EQ(a->statistics().copies, 7u);
}

// The other way round: @a uses a buffer the isolated device owns. The
// isolated device stages it through its host-visible heap on its queue.
TEST_F(ImportBufferRunTest, AHostDeviceMirrorsAnIsolatedDevicesBuffer) {
  auto group = hal::DeviceGroup::create({a, isolated});
  ASSERT_TRUE(group.ok()) << group.status().toString();
  auto owned = isolated->allocator().allocate(
      hal::kDeviceLocal, hal::kTransfer | hal::kDispatchStorage, 16);
  ASSERT_TRUE(owned.ok()) << owned.status().toString();
  auto fence = hal::Fence::create();
  ASSERT_OK(isolated->queueFill(nullptr, fence, *owned, 0, 16, 4, 4));
  auto mirror = hal::importBufferToDevice(*a, *owned, nullptr);
  ASSERT_TRUE(mirror.ok()) << mirror.status().toString();
  EXPECT_EQ((*mirror)->transferSource(), *owned);
  auto out = allocate(*a, kUsage);
  std::shared_ptr<hal::Buffer> bindings[] = {*mirror, *mirror, out};
  fence = hal::Fence::create();
  ASSERT_OK(a->queueDispatch(nullptr, fence, hal::BuiltinKernel::kAdd,
                             hal::ElementType::kI32, 4, bindings));
  EXPECT_EQ(readInts(*out), (std::vector<int32_t>{8, 8, 8, 8}));
  EXPECT_EQ(a->statistics().transfers, 1u); // read only: nothing back
  EXPECT_EQ(a->statistics().bytesTransferred, 16u);
}

// A device in no group with the owner cannot find it to transfer from.
TEST_F(ImportBufferRunTest, ATransferNeedsOneDeviceGroup) {
  auto buffer = allocate(*a, kUsage);
  auto imported = hal::importBufferToDevice(*isolated, buffer, nullptr);
  EXPECT_TRUE(failedWith(imported, StatusCode::kFailedPrecondition,
                         "a transfer needs both devices in one device group"));
}

} // namespace
} // namespace ferry::vm
