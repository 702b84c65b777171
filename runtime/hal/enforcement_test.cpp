// One test per capability-bit rule (ARCHITECTURE 1.1): each error names the
// buffer, the operation and the missing bit.
#include <gtest/gtest.h>
#include <unistd.h>

#include "runtime/drivers/local/local_device.h"
#include "runtime/hal/allocator.h"
#include "runtime/hal/buffer_bits.h"
#include "runtime/hal/device.h"

namespace ferry::hal {
namespace {

using drivers::local::LocalDevice;

void expectNames(const Status &status,
                 std::initializer_list<std::string_view> parts) {
  ASSERT_FALSE(status.ok());
  for (std::string_view part : parts)
    EXPECT_NE(status.message().find(part), std::string::npos)
        << "'" << part << "' missing from: " << status.message();
}

class EnforcementTest : public ::testing::Test {
protected:
  std::shared_ptr<Allocator> heap = HeapAllocator::create("heap");
};

TEST_F(EnforcementTest, MapWithoutMappingBit) {
  auto buffer = *heap->allocate(kHostVisible, kTransfer, 16);
  expectNames(buffer->map(MappingMode::kScoped).status(),
              {buffer->describe(), "map", "MappingScoped"});
  auto mappable = *heap->allocate(kHostVisible, kMappingScoped, 16);
  EXPECT_TRUE(mappable->map(MappingMode::kScoped).ok());
}

TEST_F(EnforcementTest, PersistentMapWithoutMappingPersistent) {
  auto buffer = *heap->allocate(kHostVisible, kMappingScoped, 16);
  expectNames(buffer->map(MappingMode::kPersistent).status(),
              {buffer->describe(), "persistent map", "MappingPersistent"});
}

TEST_F(EnforcementTest, PersistentMapWithoutHostVisibleMemory) {
  auto discrete = Allocator::create("discrete", {.hostVisible = false});
  auto buffer = *discrete->allocate(kDeviceLocal,
                                    kMappingPersistent | kMappingOptional, 16);
  EXPECT_FALSE(buffer->memoryType() & kHostVisible);
  expectNames(buffer->map(MappingMode::kPersistent).status(),
              {buffer->describe(), "persistent map", "HostVisible"});
}

TEST_F(EnforcementTest, ExportWithoutSharingExport) {
  auto buffer = *heap->allocate(kHostVisible, kTransfer, 16);
  expectNames(
      heap->exportBuffer(*buffer, ExternalBufferType::kOpaqueFd).status(),
      {buffer->describe(), "export as opaque_fd", "SharingExport"});
  expectNames(
      heap->exportBuffer(*buffer, ExternalBufferType::kHostAllocation).status(),
      {buffer->describe(), "export as host_allocation", "SharingExport"});
}

TEST_F(EnforcementTest, ImportOfAHandleTypeTheDeviceCannotImport) {
  auto discrete = LocalDevice::create("gpu", {.discrete = true});
  std::vector<uint8_t> host(64);
  ExternalBuffer external{ExternalBufferType::kHostAllocation, host.size(),
                          host.data(), -1};
  Result<std::shared_ptr<Buffer>> imported =
      discrete->allocator().importBuffer({kDeviceLocal, kTransfer}, external);
  expectNames(imported.status(), {"import into device 'gpu' heap",
                                  "host_allocation", "opaque_fd"});
}

class QueueEnforcementTest : public EnforcementTest {
protected:
  std::shared_ptr<LocalDevice> device = LocalDevice::create("cpu");
  std::shared_ptr<Buffer> make(uint32_t usage) {
    return *device->allocator().allocate(kHostVisible, usage, 64);
  }
};

TEST_F(QueueEnforcementTest, CopyWithoutTransferSource) {
  auto source = make(kTransferTarget);
  auto target = make(kTransfer);
  auto signal = Fence::create();
  Status status = device->queueCopy(nullptr, signal, source, 0, target, 0, 16);
  expectNames(status, {source->describe(), "queue copy", "TransferSource"});
  EXPECT_EQ(signal->wait().message(), status.message());
  EXPECT_EQ(device->statistics().copies, 0u);
}

TEST_F(QueueEnforcementTest, CopyWithoutTransferTarget) {
  auto source = make(kTransfer);
  auto target = make(kTransferSource);
  expectNames(
      device->queueCopy(nullptr, Fence::create(), source, 0, target, 0, 16),
      {target->describe(), "queue copy", "TransferTarget"});
}

TEST_F(QueueEnforcementTest, FillWithoutTransferTarget) {
  auto target = make(kDispatchStorage);
  expectNames(device->queueFill(nullptr, Fence::create(), target, 0, 16, 7, 4),
              {target->describe(), "queue fill", "TransferTarget"});
  EXPECT_EQ(device->statistics().fills, 0u);
}

TEST_F(QueueEnforcementTest, DispatchInputWithoutStorageRead) {
  auto input = make(kTransfer);
  auto output = make(kDispatchStorage);
  std::vector<std::shared_ptr<Buffer>> bindings = {input, output, output};
  expectNames(
      device->queueDispatch(nullptr, Fence::create(), BuiltinKernel::kAdd,
                            ElementType::kI32, 4, bindings),
      {input->describe(), "queue dispatch", "input 0", "DispatchStorageRead"});
}

TEST_F(QueueEnforcementTest, DispatchOutputWithoutStorageWrite) {
  auto input = make(kDispatchStorage);
  auto output = make(kDispatchStorageRead);
  std::vector<std::shared_ptr<Buffer>> bindings = {input, input, output};
  expectNames(
      device->queueDispatch(nullptr, Fence::create(), BuiltinKernel::kAdd,
                            ElementType::kI32, 4, bindings),
      {output->describe(), "queue dispatch", "output", "DispatchStorageWrite"});
  EXPECT_EQ(device->statistics().dispatches, 0u);
}

} // namespace
} // namespace ferry::hal
