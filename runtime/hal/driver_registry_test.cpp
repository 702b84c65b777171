#include "runtime/hal/driver_registry.h"

#include <algorithm>
#include <gtest/gtest.h>

#include "runtime/base/testing/status_assertions.h"
#include "runtime/drivers/builtin_drivers.h"

namespace ferry::hal {
namespace {

TEST(DriverRegistryTest, CreatesBuiltinDevicesByName) {
  DriverRegistry registry;
  ASSERT_TRUE(drivers::registerBuiltinDrivers(registry).ok());
  auto device = registry.createDevice("local-sync", "device_a");
  ASSERT_TRUE(device.ok()) << device.status().toString();
  EXPECT_EQ((*device)->name(), "device_a");
  EXPECT_EQ((*device)->driverName(), "local-sync");
  EXPECT_EQ(registry.driverNames(),
            (std::vector<std::string>{"local-discrete", "local-isolated",
                                      "local-sync", "local-task"}));
  for (std::string_view driver :
       {"local-task", "local-discrete", "local-isolated"}) {
    auto other = registry.createDevice(driver, "device_b");
    ASSERT_TRUE(other.ok()) << other.status().toString();
    EXPECT_EQ((*other)->driverName(), driver);
  }
}

// The table the compiler checks device targets against lists exactly the
// drivers this build registers.
TEST(DriverRegistryTest, BuiltinBackendsListTheRegisteredDrivers) {
  DriverRegistry registry;
  ASSERT_TRUE(drivers::registerBuiltinDrivers(registry).ok());
  std::vector<std::string> listed;
  for (const drivers::Backend &backend : drivers::kBuiltinBackends)
    listed.insert(listed.end(), backend.drivers.begin(), backend.drivers.end());
  std::sort(listed.begin(), listed.end());
  EXPECT_EQ(listed, registry.driverNames());
  EXPECT_NE(drivers::findBuiltinBackend("local"), nullptr);
  EXPECT_EQ(drivers::findBuiltinBackend("cuda"), nullptr);
}

TEST(DriverRegistryTest, UnknownDriverListsKnownOnes) {
  DriverRegistry registry;
  ASSERT_TRUE(drivers::registerBuiltinDrivers(registry).ok());
  auto device = registry.createDevice("cuda", "gpu0");
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(device.status().message(),
            "unknown driver 'cuda' (known drivers: local-discrete, "
            "local-isolated, local-sync, local-task)");
}

TEST(DriverRegistryTest, DuplicateRegistrationFails) {
  DriverRegistry registry;
  ASSERT_TRUE(drivers::registerBuiltinDrivers(registry).ok());
  EXPECT_TRUE(failedWith(drivers::registerBuiltinDrivers(registry),
                         StatusCode::kInvalidArgument,
                         "driver 'local-sync' is already registered"));
}

} // namespace
} // namespace ferry::hal
