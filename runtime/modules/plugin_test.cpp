// Loading plugins (samples/custom_module and the misbehaving test plugins of
// modules/testing/test_plugin.cpp) and running coarse-fences calls through
// the C ABI.
#include "runtime/modules/plugin.h"

#include <cstring>
#include <gtest/gtest.h>

#include "runtime/drivers/local/local_device.h"
#include "runtime/hal/buffer_bits.h"
#include "runtime/vm/context.h"
#include "runtime/vm/testing/sample_modules.h"

namespace ferry::modules {
namespace {

std::string plugin(std::string_view name) {
  return strCat(FERRY_PLUGIN_DIR, "/", name, ".so");
}

std::string loadError(const std::string &path) {
  auto modules = loadPlugin(path);
  return modules.ok() ? "<loaded>" : modules.status().message();
}

class PluginTest : public ::testing::Test {
protected:
  std::shared_ptr<hal::Device> device =
      drivers::local::LocalDevice::create("device_a");

  std::shared_ptr<hal::BufferView> input(int64_t rows, int64_t cols) {
    auto buffer = *device->allocator().allocate(
        hal::kHostVisible, hal::kTransfer | hal::kDispatchStorage,
        uint64_t(rows * cols) * 4);
    auto *data = reinterpret_cast<int32_t *>(buffer->data());
    for (int64_t i = 0; i < rows * cols; ++i)
      data[i] = int32_t(i) - 3;
    return *hal::BufferView::create(buffer, {rows, cols},
                                    hal::ElementType::kI32);
  }

  // Runs buildCoarseFencesCallModule(importName) with `pluginName` on a
  // 3x5 input; returns the output values or the error.
  Result<std::vector<int32_t>> run(std::string_view pluginName,
                                   std::string_view importName) {
    FERRY_ASSIGN_OR_RETURN(auto modules, loadPlugin(plugin(pluginName)));
    Result<vm::Module> loaded =
        vm::Module::load(vm::testing::buildCoarseFencesCallModule(importName));
    EXPECT_TRUE(loaded.ok()) << loaded.status().toString();
    auto module = std::make_shared<const vm::Module>(std::move(*loaded));
    FERRY_ASSIGN_OR_RETURN(vm::Context context,
                           vm::Context::create(module, {device}, modules));
    FERRY_ASSIGN_OR_RETURN(std::vector<vm::Value> results,
                           context.invoke("main", {vm::Value(input(3, 5))}));
    auto view = results[0].refAs<hal::BufferView>();
    EXPECT_EQ(view->typeString(), "3x5xi32");
    const auto *data =
        reinterpret_cast<const int32_t *>(view->buffer()->data());
    return std::vector<int32_t>(data, data + view->elementCount());
  }

  static std::vector<int32_t> expected(int32_t factor) {
    std::vector<int32_t> out;
    for (int32_t i = 0; i < 15; ++i)
      out.push_back(factor * (i - 3));
    return out;
  }

  void TearDown() override {
    EXPECT_EQ(device->allocator().statistics().liveBytes, 0u);
  }
};

TEST_F(PluginTest, LoadsTheSampleModule) {
  auto modules = loadPlugin(plugin("custom_module"));
  ASSERT_TRUE(modules.ok()) << modules.status().toString();
  ASSERT_EQ(modules->size(), 3u);
  EXPECT_EQ((*modules)[0]->name(), "Double");
  EXPECT_EQ((*modules)[1]->name(), "Triple");
  EXPECT_EQ((*modules)[2]->name(), "Repeat");
  const vm::NativeFunction *fn = (*modules)[0]->lookup("function");
  ASSERT_NE(fn, nullptr);
  EXPECT_EQ(fn->flags, vm::bytecode::kImportCoarseFences |
                           vm::bytecode::kImportTiedMayAlias);
  EXPECT_EQ(fn->argKinds.size(), 4u);
  EXPECT_EQ(fn->resultKinds.size(), 1u);
}

TEST_F(PluginTest, SampleDoublesAndTriplesInPlace) {
  Result<std::vector<int32_t>> doubled =
      run("custom_module", "Double.function");
  ASSERT_TRUE(doubled.ok()) << doubled.status().toString();
  EXPECT_EQ(*doubled, expected(2));
  Result<std::vector<int32_t>> tripled =
      run("custom_module", "Triple.function");
  ASSERT_TRUE(tripled.ok()) << tripled.status().toString();
  EXPECT_EQ(*tripled, expected(3));
}

TEST_F(PluginTest, LateSignallingIsStillCorrect) {
  Result<std::vector<int32_t>> doubled =
      run("test_plugin_late", "Double.function");
  ASSERT_TRUE(doubled.ok()) << doubled.status().toString();
  EXPECT_EQ(*doubled, expected(2));
}

TEST_F(PluginTest, FailuresNameTheFunction) {
  Result<std::vector<int32_t>> late =
      run("test_plugin_failing", "Double.function");
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.status().message(),
            "external function 'Double.function': simulated device fault");
  Result<std::vector<int32_t>> now =
      run("test_plugin_failing", "Triple.function");
  ASSERT_FALSE(now.ok());
  EXPECT_NE(now.status().message().find(
                "(call.import): external function 'Triple.function': "
                "simulated failure before starting"),
            std::string::npos)
      << now.status().toString();
}

TEST_F(PluginTest, LoadErrors) {
  EXPECT_NE(loadError("/nonexistent/p.so")
                .find("cannot load plugin '/nonexistent/p.so': "),
            std::string::npos);
  EXPECT_NE(loadError(__FILE__).find("cannot load plugin"), std::string::npos);
  EXPECT_EQ(loadError(plugin("test_plugin_no_entry")),
            strCat("plugin '", plugin("test_plugin_no_entry"),
                   "': it has no entry point 'ferry_plugin_load' (a Ferry "
                   "plugin exports it; see runtime/modules/plugin_api.h)"));
  EXPECT_EQ(loadError(plugin("test_plugin_bad_abi")),
            strCat("plugin '", plugin("test_plugin_bad_abi"),
                   "': it was built for plugin ABI version 99, this runtime "
                   "speaks version 2; rebuild it against this runtime's "
                   "plugin_api.h"));
  EXPECT_EQ(loadError(plugin("test_plugin_refusing")),
            strCat("plugin '", plugin("test_plugin_refusing"),
                   "': it refused to load: this plugin refuses to load"));
  EXPECT_EQ(loadError(plugin("test_plugin_bad_kinds")),
            strCat("plugin '", plugin("test_plugin_bad_kinds"),
                   "': module 'Double' function 0 ('function') arguments: "
                   "kind 'x' in \"rxr\" is neither 'i' (i64) nor 'r' (ref)"));
}

TEST_F(PluginTest, TwoPluginsProvidingOneModuleAreRejected) {
  auto a = loadPlugin(plugin("custom_module"));
  auto b = loadPlugin(plugin("test_plugin_late"));
  ASSERT_TRUE(a.ok() && b.ok());
  std::vector<std::shared_ptr<const vm::NativeModule>> both = *a;
  both.insert(both.end(), b->begin(), b->end());
  auto module = std::make_shared<const vm::Module>(
      *vm::Module::load(vm::testing::buildCoarseFencesCallModule()));
  Result<vm::Context> context = vm::Context::create(module, {device}, both);
  ASSERT_FALSE(context.ok());
  EXPECT_EQ(context.status().message(),
            "two native modules are named 'Double'");
}

} // namespace
} // namespace ferry::modules
