// Runtime topology: links derived from driver reports, C++ queries and the
// device query API compiled programs use.
#include <gtest/gtest.h>
#include <unistd.h>

#include "runtime/base/testing/status_assertions.h"
#include "runtime/drivers/local/local_device.h"
#include "runtime/hal/buffer_bits.h"
#include "runtime/hal/topology.h"

namespace ferry::drivers::local {
namespace {

using namespace hal;

struct Trio {
  std::shared_ptr<LocalDevice> sync = LocalDevice::create("cpu_a");
  std::shared_ptr<LocalDevice> task =
      LocalDevice::create("cpu_b", {.asynchronous = true, .workerCount = 2});
  std::shared_ptr<LocalDevice> gpu =
      LocalDevice::create("gpu", {.discrete = true});
  std::shared_ptr<DeviceGroup> group = *DeviceGroup::create({sync, task, gpu});
};

TEST(TopologyTest, LinksFollowDriverReports) {
  Trio t;
  const Topology &topology = *t.group->topology();
  ASSERT_EQ(topology.size(), 3u);
  size_t a = *topology.indexOf("cpu_a"), b = *topology.indexOf("cpu_b"),
         g = *topology.indexOf("gpu");
  EXPECT_TRUE(topology.link(a, b).transparentAccess);
  EXPECT_TRUE(topology.link(b, a).unifiedMemory);
  EXPECT_FALSE(topology.link(a, g).transparentAccess);
  EXPECT_FALSE(topology.link(g, a).unifiedMemory);
  EXPECT_EQ(topology.link(a, g).importTypes,
            uint32_t(ExternalBufferType::kOpaqueFd));
  EXPECT_TRUE(topology.link(g, g).transparentAccess);
  EXPECT_EQ(topology.indexOfAllocator(&t.gpu->allocator()), g);
  EXPECT_TRUE(t.sync->linkTo("cpu_b")->transparentAccess);
  EXPECT_FALSE(t.sync->linkTo("nobody").has_value());
}

TEST(TopologyTest, DuplicateNamesAndNullsAreRejected) {
  auto a = LocalDevice::create("x");
  auto b = LocalDevice::create("x");
  EXPECT_TRUE(failedWith(DeviceGroup::create({a, b}),
                         StatusCode::kInvalidArgument,
                         "device group: two devices are named 'x'"));
  EXPECT_TRUE(failedWith(DeviceGroup::create({a, nullptr}),
                         StatusCode::kInvalidArgument,
                         "device group: device 1 is null"));
}

TEST(DeviceQueryTest, MemoryAndDeviceCategories) {
  Trio t;
  auto yes = DeviceQueryResult{true, 1}, no = DeviceQueryResult{true, 0};
  auto same = [](DeviceQueryResult x, DeviceQueryResult y) {
    return x.known == y.known && x.value == y.value;
  };
  EXPECT_TRUE(same(t.sync->query("hal.device.memory", "host_visible"), yes));
  EXPECT_TRUE(same(t.gpu->query("hal.device.memory", "host_visible"), no));
  EXPECT_TRUE(same(t.sync->query("hal.device.memory", "unified_memory"), yes));
  EXPECT_TRUE(same(t.gpu->query("hal.device.memory", "import.opaque_fd"), yes));
  EXPECT_TRUE(
      same(t.gpu->query("hal.device.memory", "import.host_allocation"), no));
  EXPECT_TRUE(same(t.task->query("hal.device", "driver.local-task"), yes));
  EXPECT_TRUE(same(t.task->query("hal.device", "driver.local-sync"), no));
  EXPECT_TRUE(same(t.task->query("hal.device", "concurrency"),
                   DeviceQueryResult{true, 2}));
  EXPECT_FALSE(t.sync->query("hal.device.memory", "warp_size").known);
  EXPECT_FALSE(t.sync->query("hal.executable.format", "x").known);
  EXPECT_TRUE(t.gpu->query("hal.device.memory", "memory_types").value &
              kDeviceLocal);
}

TEST(DeviceQueryTest, LinkCategoryByPeerName) {
  Trio t;
  auto ask = [](const Device &d, std::string key) {
    return d.query("hal.device.link", key);
  };
  EXPECT_EQ(ask(*t.sync, "cpu_b:transparent_access").value, 1);
  EXPECT_TRUE(ask(*t.sync, "cpu_b:transparent_access").known);
  EXPECT_EQ(ask(*t.sync, "gpu:transparent_access").value, 0);
  EXPECT_TRUE(ask(*t.sync, "gpu:transparent_access").known);
  EXPECT_EQ(ask(*t.gpu, "cpu_a:unified_memory").value, 0);
  EXPECT_EQ(ask(*t.sync, "gpu:import.opaque_fd").value, 1);
  EXPECT_EQ(ask(*t.gpu, "cpu_a:import.host_allocation").value, 0);
  EXPECT_EQ(ask(*t.sync, "cpu_a:unified_memory").value, 1); // itself
  EXPECT_EQ(ask(*t.sync, "cpu_b:exists").value, 1);
  DeviceQueryResult absent = ask(*t.sync, "tpu:exists");
  EXPECT_TRUE(absent.known);
  EXPECT_EQ(absent.value, 0);
  EXPECT_FALSE(ask(*t.sync, "tpu:transparent_access").known);
  EXPECT_FALSE(ask(*t.sync, "cpu_b:bandwidth").known);
  EXPECT_FALSE(ask(*t.sync, "no-colon").known);
  // Outside a group only the device itself is known.
  auto lone = LocalDevice::create("lone");
  EXPECT_FALSE(ask(*lone, "cpu_a:exists").known);
  EXPECT_EQ(ask(*lone, "lone:transparent_access").value, 1);
}

// The discrete device's memory is not reachable from a CPU device: copies
// must go through export/import (or staging), and the error says so.
TEST(DiscreteDeviceTest, NoTransparentAccessButExportImportWorks) {
  Trio t;
  auto deviceBuffer = *t.gpu->allocator().allocate(
      kDeviceLocal, kTransfer | kSharingExport, 4096);
  EXPECT_FALSE(deviceBuffer->memoryType() & kHostVisible);
  auto hostBuffer =
      *t.sync->allocator().allocate(kHostVisible, kTransfer, 4096);
  Status direct = t.sync->queueCopy(nullptr, Fence::create(), deviceBuffer, 0,
                                    hostBuffer, 0, 4096);
  EXPECT_NE(direct.message().find("no transparent access"), std::string::npos)
      << direct.message();
  // Export from the discrete device, import into the CPU device, then copy.
  auto exported = t.gpu->allocator().exportBuffer(
      *deviceBuffer, ExternalBufferType::kOpaqueFd);
  ASSERT_TRUE(exported.ok()) << exported.status().toString();
  auto imported = t.sync->allocator().importBuffer(
      {kHostVisible, kTransfer | kMappingScoped}, *exported);
  close(exported->fd);
  ASSERT_TRUE(imported.ok()) << imported.status().toString();
  // The GPU writes (fill on its queue), the CPU reads through its import.
  auto filled = Fence::create();
  ASSERT_TRUE(
      t.gpu->queueFill(nullptr, filled, deviceBuffer, 0, 4096, 0xabababab, 4)
          .ok());
  ASSERT_TRUE(filled->wait().ok());
  auto copied = Fence::create();
  ASSERT_TRUE(
      t.sync->queueCopy(nullptr, copied, *imported, 0, hostBuffer, 0, 4096)
          .ok());
  ASSERT_TRUE(copied->wait().ok());
  EXPECT_EQ(hostBuffer->data()[4095], 0xab);
  // Staging: host-visible requests on the discrete device land in its
  // staging heap and can be mapped.
  auto staging = *t.gpu->allocator().allocate(kHostVisible | kDeviceLocal,
                                              kTransfer | kMappingScoped, 64);
  EXPECT_TRUE(staging->map(MappingMode::kScoped).ok());
  auto deviceOnly = *t.gpu->allocator().allocate(kDeviceLocal, kTransfer, 64);
  EXPECT_NE(deviceOnly->map(MappingMode::kScoped)
                .status()
                .message()
                .find("HostVisible"),
            std::string::npos);
}

} // namespace
} // namespace ferry::drivers::local
