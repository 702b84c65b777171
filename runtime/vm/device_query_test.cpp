// The device query, allocator select and module global opcodes (0x40-0x43):
// what the loader rejects, the rule that only the module initializer stores
// to globals, and what the interpreter answers.
#include <gtest/gtest.h>

#include "runtime/drivers/local/local_device.h"
#include "runtime/hal/topology.h"
#include "runtime/vm/context.h"
#include "runtime/vm/testing/bytecode_writer.h"

namespace ferry::vm {
namespace {

using testing::BytecodeWriter;
using K = RegisterKind;
using FunctionBuilder = BytecodeWriter::FunctionBuilder;
using drivers::local::LocalDevice;
using drivers::local::LocalDeviceOptions;

// The four opcodes through the format's encoder (bytecode_encoder.h).
FunctionBuilder &deviceQuery(FunctionBuilder &f, uint16_t ok, uint16_t value,
                             uint16_t device, uint32_t category, uint32_t key,
                             int64_t defaultValue, uint8_t valueBits) {
  return f.emit(Opcode::kDeviceQuery,
                {ok, value, device, category, key, defaultValue, valueBits});
}
FunctionBuilder &allocatorSelect(FunctionBuilder &f, uint16_t dst,
                                 std::initializer_list<uint16_t> devices) {
  std::vector<int64_t> operands = {dst, int64_t(devices.size())};
  operands.insert(operands.end(), devices.begin(), devices.end());
  return f.emit(Opcode::kAllocatorSelect, std::move(operands));
}
FunctionBuilder &globalLoad(FunctionBuilder &f, uint16_t dst, uint32_t global) {
  return f.emit(Opcode::kGlobalLoadI64, {dst, global});
}
FunctionBuilder &globalStore(FunctionBuilder &f, uint32_t global,
                             uint16_t value) {
  return f.emit(Opcode::kGlobalStoreI64, {global, value});
}

std::string loadError(const std::vector<uint8_t> &file) {
  Result<Module> module = Module::load(file);
  return module.ok() ? "<loaded>" : module.status().message();
}

std::shared_ptr<const Module> load(const std::vector<uint8_t> &file) {
  Result<Module> module = Module::load(file);
  EXPECT_TRUE(module.ok()) << module.status().toString();
  if (!module.ok())
    return nullptr;
  return std::make_shared<const Module>(std::move(*module));
}

// A module with one device and a function `f` (2 i64, 2 ref registers)
// whose code `build` writes after `hal.device.get r0, 0`.
template <typename Build>
std::vector<uint8_t> queryModule(Build build, std::string_view name = "f") {
  BytecodeWriter w;
  w.device("a");
  uint32_t category = w.string("hal.device.memory");
  uint32_t key = w.string("host_visible");
  auto &f = w.function(name, {}, {}, 2, 2);
  f.deviceGet(0, 0);
  build(f, category, key);
  f.ret({});
  return w.finish();
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

TEST(DeviceQueryLoadTest, AcceptsWellFormedInstructions) {
  BytecodeWriter w;
  w.device("a");
  w.device("b");
  uint32_t category = w.string("hal.device");
  uint32_t key = w.string("concurrency");
  auto &init = w.function("__init", {}, {}, 2, 3);
  init.deviceGet(0, 0).deviceGet(1, 1);
  deviceQuery(init, 0, 1, 0, category, key, 1, 32);
  allocatorSelect(init, 2, {0, 1});
  globalStore(init, 3, 1);
  init.ret({});
  auto &f = w.function("f", {}, {K::kI64}, 1, 0);
  globalLoad(f, 0, 3);
  f.ret({{K::kI64, 0}});
  auto module = load(w.finish());
  ASSERT_NE(module, nullptr);
  // Globals 0..3 exist: the highest index used, plus one.
  EXPECT_EQ(module->globalCount(), 4u);
  ASSERT_NE(module->initializer(), nullptr);
  EXPECT_EQ(module->initializer()->name, "__init");
}

TEST(DeviceQueryLoadTest, RejectsValueWidthsOutsideOneTo64) {
  for (uint8_t bits : {uint8_t(0), uint8_t(65), uint8_t(255)}) {
    std::string error =
        loadError(queryModule([&](FunctionBuilder &f, uint32_t c, uint32_t k) {
          deviceQuery(f, 0, 1, 0, c, k, 0, bits);
        }));
    EXPECT_NE(error.find("hal.device.query: value width " +
                         std::to_string(bits) + " is not between 1 and 64"),
              std::string::npos)
        << error;
  }
  for (uint8_t bits : {uint8_t(1), uint8_t(64)})
    EXPECT_EQ(
        loadError(queryModule([&](FunctionBuilder &f, uint32_t c, uint32_t k) {
          deviceQuery(f, 0, 1, 0, c, k, 0, bits);
        })),
        "<loaded>");
}

TEST(DeviceQueryLoadTest, RejectsBadStringsAndRegisters) {
  std::string error =
      loadError(queryModule([](FunctionBuilder &f, uint32_t c, uint32_t) {
        deviceQuery(f, 0, 1, 0, c, 99, 0, 32);
      }));
  EXPECT_NE(error.find("key: string index 99 is out of range"),
            std::string::npos)
      << error;
  error = loadError(queryModule([](FunctionBuilder &f, uint32_t, uint32_t k) {
    deviceQuery(f, 0, 1, 0, 77, k, 0, 32);
  }));
  EXPECT_NE(error.find("category: string index 77 is out of range"),
            std::string::npos)
      << error;
  error = loadError(queryModule([](FunctionBuilder &f, uint32_t c, uint32_t k) {
    deviceQuery(f, 0, 1, 5, c, k, 0, 32);
  }));
  EXPECT_NE(error.find("device: ref register 5 is out of range"),
            std::string::npos)
      << error;
  error = loadError(queryModule([](FunctionBuilder &f, uint32_t c, uint32_t k) {
    deviceQuery(f, 9, 1, 0, c, k, 0, 32);
  }));
  EXPECT_NE(error.find("ok: i64 register 9 is out of range"), std::string::npos)
      << error;
}

TEST(DeviceQueryLoadTest, RejectsTruncatedQuery) {
  BytecodeWriter w;
  w.device("a");
  uint32_t c = w.string("hal.device");
  auto &f = w.function("f", {}, {}, 2, 1);
  f.deviceGet(0, 0);
  // Everything up to the default value, then the code ends.
  f.op(Opcode::kDeviceQuery).u16(0).u16(1).u16(0).u32(c).u32(c).u32(0);
  std::string error = loadError(w.finish());
  EXPECT_NE(error.find("hal.device.query"), std::string::npos) << error;
  EXPECT_NE(error, "<loaded>");
}

TEST(DeviceQueryLoadTest, RejectsSelectFromNoDevices) {
  std::string error =
      loadError(queryModule([](FunctionBuilder &f, uint32_t, uint32_t) {
        allocatorSelect(f, 1, {});
      }));
  EXPECT_NE(error.find("hal.allocator.select: selects from no devices"),
            std::string::npos)
      << error;
  error = loadError(queryModule([](FunctionBuilder &f, uint32_t, uint32_t) {
    allocatorSelect(f, 1, {0, 4});
  }));
  EXPECT_NE(error.find("device: ref register 4 is out of range"),
            std::string::npos)
      << error;
}

TEST(DeviceQueryLoadTest, OnlyTheInitializerStoresToGlobals) {
  std::string error = loadError(queryModule(
      [](FunctionBuilder &f, uint32_t, uint32_t) { globalStore(f, 0, 0); }));
  EXPECT_NE(error.find("global.store.i64: only the module initializer "
                       "'__init' may store to globals"),
            std::string::npos)
      << error;
  EXPECT_EQ(loadError(queryModule([](FunctionBuilder &f, uint32_t,
                                     uint32_t) { globalStore(f, 0, 0); },
                                  "__init")),
            "<loaded>");
  // Loads are allowed anywhere.
  EXPECT_EQ(loadError(queryModule([](FunctionBuilder &f, uint32_t, uint32_t) {
              globalLoad(f, 0, 0);
            })),
            "<loaded>");
}

TEST(DeviceQueryLoadTest, RejectsGlobalIndicesOutOfRange) {
  for (bool store : {false, true}) {
    std::string error = loadError(queryModule(
        [&](FunctionBuilder &f, uint32_t, uint32_t) {
          if (store)
            globalStore(f, bytecode::kMaxGlobals, 0);
          else
            globalLoad(f, 0, bytecode::kMaxGlobals);
        },
        "__init"));
    EXPECT_NE(error.find("global index " +
                         std::to_string(bytecode::kMaxGlobals) +
                         " is out of range"),
              std::string::npos)
        << error;
  }
}

TEST(DeviceQueryLoadTest, InitializerTakesAndReturnsNothing) {
  BytecodeWriter w;
  auto &init = w.function("__init", {K::kI64}, {}, 1, 0);
  init.ret({});
  std::string error = loadError(w.finish());
  EXPECT_NE(error.find("the module initializer '__init' must take no "
                       "arguments and return nothing"),
            std::string::npos)
      << error;
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

class DeviceQueryRunTest : public ::testing::Test {
protected:
  std::shared_ptr<hal::Device> a = LocalDevice::create("a");
  std::shared_ptr<hal::Device> b = LocalDevice::create("b");
  std::shared_ptr<hal::Device> discrete =
      LocalDevice::create("d", LocalDeviceOptions{.discrete = true});

  Result<Context> create(const std::vector<uint8_t> &file,
                         std::vector<std::shared_ptr<hal::Device>> devices) {
    auto module = load(file);
    if (!module)
      return invalidArgument("module did not load");
    return Context::create(module, std::move(devices));
  }

  // Runs `f` (no arguments) and returns its i64 results.
  std::vector<int64_t> i64Results(const Context &context) {
    Result<std::vector<Value>> results = context.invoke("f", {});
    EXPECT_TRUE(results.ok()) << results.status().toString();
    std::vector<int64_t> out;
    if (results.ok())
      for (const Value &value : *results)
        out.push_back(value.i64());
    return out;
  }
};

// `f` queries device 0 for (category, key) and returns (ok, value).
std::vector<uint8_t> answerModule(std::string_view category,
                                  std::string_view key, int64_t defaultValue,
                                  uint8_t valueBits) {
  BytecodeWriter w;
  w.device("a");
  uint32_t c = w.string(category);
  uint32_t k = w.string(key);
  auto &f = w.function("f", {}, {K::kI64, K::kI64}, 2, 1);
  f.deviceGet(0, 0);
  deviceQuery(f, 0, 1, 0, c, k, defaultValue, valueBits);
  f.ret({{K::kI64, 0}, {K::kI64, 1}});
  return w.finish();
}

TEST_F(DeviceQueryRunTest, AnswersKnownQueries) {
  struct Case {
    std::shared_ptr<hal::Device> device;
    std::string_view category, key;
    int64_t value;
  };
  for (const Case &c : {
           Case{a, "hal.device.memory", "host_visible", 1},
           Case{discrete, "hal.device.memory", "host_visible", 0},
           Case{a, "hal.device", "driver.local-sync", 1},
           Case{discrete, "hal.device", "driver.local-discrete", 1},
           Case{a, "hal.device", "name.a", 1},
           Case{a, "hal.device", "name.b", 0},
       }) {
    Result<Context> context =
        create(answerModule(c.category, c.key, /*default=*/-7, 32), {c.device});
    ASSERT_TRUE(context.ok()) << context.status().toString();
    EXPECT_EQ(i64Results(*context), (std::vector<int64_t>{1, c.value}))
        << c.device->name() << " " << c.category << " " << c.key;
  }
}

TEST_F(DeviceQueryRunTest, UnknownQueriesGiveTheDefault) {
  Result<Context> context =
      create(answerModule("hal.device", "no_such_key", 42, 32), {a});
  ASSERT_TRUE(context.ok()) << context.status().toString();
  EXPECT_EQ(i64Results(*context), (std::vector<int64_t>{0, 42}));
  context = create(answerModule("no.such.category", "x", -3, 64), {a});
  ASSERT_TRUE(context.ok()) << context.status().toString();
  EXPECT_EQ(i64Results(*context), (std::vector<int64_t>{0, -3}));
  // A link question needs a device group: unknown without one.
  context = create(
      answerModule("hal.device.link", "b:transparent_access", 5, 32), {a});
  ASSERT_TRUE(context.ok()) << context.status().toString();
  EXPECT_EQ(i64Results(*context), (std::vector<int64_t>{0, 5}));
}

TEST_F(DeviceQueryRunTest, ValuesAreTruncatedAndSignExtended) {
  struct Case {
    int64_t defaultValue;
    uint8_t bits;
    int64_t expected;
  };
  for (const Case &c : {
           Case{0x1FF, 8, -1},            // 0xFF sign-extended
           Case{0x17F, 8, 127},           // 0x7F
           Case{3, 1, 1},                 // an i1 is 0 or 1, never -1
           Case{0x1'0000'0005, 32, 5},    // the high word dropped
           Case{-1, 32, -1},              // an i32 -1 stays -1
           Case{INT64_MIN, 64, INT64_MIN} // 64 bits: unchanged
       }) {
    Result<Context> context = create(
        answerModule("hal.device", "unknown", c.defaultValue, c.bits), {a});
    ASSERT_TRUE(context.ok()) << context.status().toString();
    EXPECT_EQ(i64Results(*context), (std::vector<int64_t>{0, c.expected}))
        << c.defaultValue << " to " << int(c.bits) << " bits";
  }
}

TEST_F(DeviceQueryRunTest, LinkQueriesAnswerFromTheGroup) {
  auto group = hal::DeviceGroup::create({a, discrete});
  ASSERT_TRUE(group.ok()) << group.status().toString();
  Result<Context> context = create(
      answerModule("hal.device.link", "d:transparent_access", 5, 1), {a});
  ASSERT_TRUE(context.ok()) << context.status().toString();
  EXPECT_EQ(i64Results(*context), (std::vector<int64_t>{1, 0}));
  context = create(answerModule("hal.device.link", "d:exists", 0, 1), {a});
  EXPECT_EQ(i64Results(*context), (std::vector<int64_t>{1, 1}));
  context = create(answerModule("hal.device.link", "zz:exists", 1, 1), {a});
  EXPECT_EQ(i64Results(*context), (std::vector<int64_t>{1, 0}));
}

TEST_F(DeviceQueryRunTest, QueryOnAnEmptyRegisterFails) {
  BytecodeWriter w;
  w.device("a");
  uint32_t c = w.string("hal.device");
  auto &f = w.function("f", {}, {}, 2, 1);
  deviceQuery(f, 0, 1, /*device=*/0, c, c, 0, 32); // r0 never set
  f.ret({});
  Result<Context> context = create(w.finish(), {a});
  ASSERT_TRUE(context.ok()) << context.status().toString();
  Result<std::vector<Value>> results = context->invoke("f", {});
  ASSERT_FALSE(results.ok());
  EXPECT_NE(results.status().message().find("hal.device.query"),
            std::string::npos)
      << results.status().toString();
  EXPECT_NE(results.status().message().find("device"), std::string::npos)
      << results.status().toString();
}

// `f` selects among the module's devices in `order` and returns the choice.
std::vector<uint8_t> selectModule(std::initializer_list<uint16_t> order,
                                  size_t deviceCount) {
  BytecodeWriter w;
  for (size_t i = 0; i < deviceCount; ++i)
    w.device("dev" + std::to_string(i));
  auto &f = w.function("f", {}, {K::kRef}, 0, uint16_t(deviceCount + 1));
  for (size_t i = 0; i < deviceCount; ++i)
    f.deviceGet(uint16_t(i), uint32_t(i));
  allocatorSelect(f, uint16_t(deviceCount), order);
  f.ret({{K::kRef, uint16_t(deviceCount)}});
  return w.finish();
}

std::string selected(const Context &context) {
  Result<std::vector<Value>> results = context.invoke("f", {});
  EXPECT_TRUE(results.ok()) << results.status().toString();
  if (!results.ok() || results->size() != 1)
    return "<failed>";
  auto device = (*results)[0].refAs<hal::Device>();
  return device ? device->name() : "<not a device>";
}

TEST_F(DeviceQueryRunTest, SelectPrefersTheFirstTransparentlyReachable) {
  auto group = hal::DeviceGroup::create({a, b});
  ASSERT_TRUE(group.ok()) << group.status().toString();
  Result<Context> context = create(selectModule({0, 1}, 2), {a, b});
  ASSERT_TRUE(context.ok()) << context.status().toString();
  EXPECT_EQ(selected(*context), "a");
  context = create(selectModule({1, 0}, 2), {a, b});
  ASSERT_TRUE(context.ok()) << context.status().toString();
  EXPECT_EQ(selected(*context), "b");
  // One candidate: itself.
  context = create(selectModule({1}, 2), {a, b});
  ASSERT_TRUE(context.ok()) << context.status().toString();
  EXPECT_EQ(selected(*context), "b");
}

TEST_F(DeviceQueryRunTest, SelectFallsBackToExportImport) {
  // A CPU device and the discrete one: neither reaches the other's memory
  // nor shares unified memory, but each imports the other's opaque fds, so
  // the export/import preference holds for the first candidate.
  auto group = hal::DeviceGroup::create({discrete, b});
  ASSERT_TRUE(group.ok()) << group.status().toString();
  Result<Context> context = create(selectModule({0, 1}, 2), {discrete, b});
  ASSERT_TRUE(context.ok()) << context.status().toString();
  EXPECT_EQ(selected(*context), "d");
  context = create(selectModule({1, 0}, 2), {discrete, b});
  ASSERT_TRUE(context.ok()) << context.status().toString();
  EXPECT_EQ(selected(*context), "b");
}

TEST_F(DeviceQueryRunTest, SelectWithoutAGroupTakesTheFirst) {
  // No topology: no link is known, so no preference holds.
  Result<Context> context = create(selectModule({1, 0}, 2), {a, b});
  ASSERT_TRUE(context.ok()) << context.status().toString();
  EXPECT_EQ(selected(*context), "b");
}

TEST_F(DeviceQueryRunTest, SelectOnAnEmptyRegisterFails) {
  BytecodeWriter w;
  w.device("a");
  auto &f = w.function("f", {}, {}, 0, 3);
  f.deviceGet(0, 0);
  allocatorSelect(f, 2, {0, 1}); // r1 never set
  f.ret({});
  Result<Context> context = create(w.finish(), {a});
  ASSERT_TRUE(context.ok()) << context.status().toString();
  Result<std::vector<Value>> results = context->invoke("f", {});
  ASSERT_FALSE(results.ok());
  EXPECT_NE(results.status().message().find("hal.allocator.select"),
            std::string::npos)
      << results.status().toString();
  EXPECT_NE(results.status().message().find("device 1"), std::string::npos)
      << results.status().toString();
}

// The memoization shape the compiler emits: __init asks once and stores,
// functions load.
TEST_F(DeviceQueryRunTest, InitializerStoresAndFunctionsLoad) {
  BytecodeWriter w;
  w.device("a");
  uint32_t c = w.string("hal.device.memory");
  uint32_t k = w.string("host_visible");
  auto &init = w.function("__init", {}, {}, 2, 1);
  init.deviceGet(0, 0);
  deviceQuery(init, 0, 1, 0, c, k, 0, 1);
  globalStore(init, 0, 0);
  globalStore(init, 2, 1); // global 1 is never stored: it stays 0
  init.ret({});
  auto &f = w.function("f", {}, {K::kI64, K::kI64, K::kI64}, 3, 0);
  globalLoad(f, 0, 0);
  globalLoad(f, 1, 1);
  globalLoad(f, 2, 2);
  f.ret({{K::kI64, 0}, {K::kI64, 1}, {K::kI64, 2}});
  std::vector<uint8_t> file = w.finish();

  Result<Context> local = create(file, {a});
  ASSERT_TRUE(local.ok()) << local.status().toString();
  EXPECT_EQ(
      std::vector<int64_t>(local->globals().begin(), local->globals().end()),
      (std::vector<int64_t>{1, 0, 1}));
  EXPECT_EQ(i64Results(*local), (std::vector<int64_t>{1, 0, 1}));
  // Same module on the discrete device: different answers, same code.
  Result<Context> remote = create(file, {discrete});
  ASSERT_TRUE(remote.ok()) << remote.status().toString();
  EXPECT_EQ(i64Results(*remote), (std::vector<int64_t>{1, 0, 0}));
  // Each context has its own globals; invoking again changes nothing.
  EXPECT_EQ(i64Results(*local), (std::vector<int64_t>{1, 0, 1}));
}

TEST_F(DeviceQueryRunTest, GlobalsStartAtZeroWithoutAnInitializer) {
  BytecodeWriter w;
  auto &f = w.function("f", {}, {K::kI64}, 1, 0);
  globalLoad(f, 0, 7);
  f.ret({{K::kI64, 0}});
  Result<Context> context = create(w.finish(), {});
  ASSERT_TRUE(context.ok()) << context.status().toString();
  EXPECT_EQ(context->globals().size(), 8u);
  EXPECT_EQ(i64Results(*context), (std::vector<int64_t>{0}));
}

TEST_F(DeviceQueryRunTest, AFailingInitializerFailsCreate) {
  BytecodeWriter w;
  uint32_t message = w.string("no device answers");
  auto &init = w.function("__init", {}, {}, 0, 0);
  init.fail(message);
  Result<Context> context = create(w.finish(), {});
  ASSERT_FALSE(context.ok());
  EXPECT_NE(context.status().toString().find("module initializer"),
            std::string::npos)
      << context.status().toString();
  EXPECT_NE(context.status().toString().find("no device answers"),
            std::string::npos)
      << context.status().toString();
}

} // namespace
} // namespace ferry::vm
