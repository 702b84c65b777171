// Allocator: compatibility, heaps, import and export.
#include <cstring>
#include <filesystem>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include "runtime/base/testing/status_assertions.h"
#include "runtime/hal/allocator.h"
#include "runtime/hal/buffer_bits.h"

namespace ferry::hal {
namespace {

TEST(AllocatorCompatibilityTest, UnifiedAllocatesEverything) {
  auto heap = HeapAllocator::create("heap", 1 << 20);
  CompatibilityResult fit = heap->queryCompatibility(
      {kDeviceLocal, kDispatchStorage | kSharingExport}, 100);
  EXPECT_TRUE(fit.compatibility & kCompatibilityAllocatable);
  EXPECT_TRUE(fit.compatibility & kCompatibilityImportable);
  EXPECT_TRUE(fit.compatibility & kCompatibilityExportable);
  EXPECT_FALSE(fit.compatibility & kCompatibilityLowPerformance);
  // The adjusted bits are what the memory really is.
  EXPECT_TRUE(fit.params.memoryType & kHostVisible);
  EXPECT_EQ(fit.allocationSize, 100u);
  CompatibilityResult tooBig =
      heap->queryCompatibility({kDeviceLocal, 0}, 2 << 20);
  EXPECT_FALSE(tooBig.compatibility & kCompatibilityAllocatable);
  EXPECT_NE(tooBig.reason.find("limit"), std::string::npos);
}

TEST(AllocatorCompatibilityTest, DiscreteSplitsDeviceAndStagingHeaps) {
  auto discrete = Allocator::create("gpu", {.hostVisible = false});
  CompatibilityResult device =
      discrete->queryCompatibility({kDeviceLocal, kDispatchStorage}, 64);
  EXPECT_EQ(device.heap, 0u);
  EXPECT_FALSE(device.params.memoryType & kHostVisible);
  CompatibilityResult staging =
      discrete->queryCompatibility({kHostVisible | kDeviceLocal, kMapping}, 64);
  EXPECT_EQ(staging.heap, 1u);
  EXPECT_TRUE(staging.params.memoryType & kHostVisible);
  EXPECT_FALSE(staging.params.memoryType & kDeviceLocal);
  EXPECT_TRUE(staging.compatibility & kCompatibilityLowPerformance);
  EXPECT_FALSE(discrete
                   ->queryCompatibility({kDeviceLocal, 0}, 64,
                                        ExternalBufferType::kHostAllocation)
                   .compatibility &
               kCompatibilityImportable);
  EXPECT_TRUE(discrete
                  ->queryCompatibility({kDeviceLocal, 0}, 64,
                                       ExternalBufferType::kOpaqueFd)
                  .compatibility &
              kCompatibilityImportable);
}

// Page faults of this process so far.
long minorFaults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// allocate() leaves memory alone unless asked for zeroes, and then clears
// only a reused block: fresh memory is zero already. A 64 MiB allocation
// faults in (almost) none of its 16,384 pages unless something writes it.
TEST(AllocatorAllocateTest, TouchesMemoryOnlyForZeroesInAReusedBlock) {
  constexpr uint64_t kBytes = uint64_t(64) << 20;
  constexpr long kPages = long(kBytes / 4096);
  auto allocator = HeapAllocator::create("a");
  auto sampleIsZero = [&](const std::shared_ptr<Buffer> &buffer) {
    for (uint64_t i = 0; i < kBytes; i += 4093)
      if (buffer->data()[i] != 0)
        return false;
    return true;
  };
  long before = minorFaults();
  auto first = allocator->allocate(0, kTransfer, kBytes);
  ASSERT_TRUE(first.ok()) << first.status().toString();
  EXPECT_LT(minorFaults() - before, kPages / 4);
  std::memset((*first)->data(), 0xab, kBytes);
  first = internalError("released");

  // The same block again: its old contents must go.
  auto reused =
      allocator->allocate(0, kTransfer, kBytes, AllocationContents::kZeroed);
  ASSERT_TRUE(reused.ok()) << reused.status().toString();
  EXPECT_EQ(allocator->statistics().poolHits, 1u);
  EXPECT_TRUE(sampleIsZero(*reused));

  // A fresh block: zero without being written.
  before = minorFaults();
  auto fresh =
      allocator->allocate(0, kTransfer, kBytes, AllocationContents::kZeroed);
  ASSERT_TRUE(fresh.ok()) << fresh.status().toString();
  EXPECT_LT(minorFaults() - before, kPages / 4);
  EXPECT_TRUE(sampleIsZero(*fresh));
}

TEST(AllocatorImportTest, HostAllocationCallsReleaseOnce) {
  auto heap = HeapAllocator::create("heap");
  std::vector<uint8_t> host(32, 7);
  int released = 0;
  {
    auto buffer = heap->importBuffer(
        {kHostVisible, kTransfer | kMappingScoped},
        {ExternalBufferType::kHostAllocation, host.size(), host.data(), -1},
        [&] { ++released; });
    ASSERT_TRUE(buffer.ok()) << buffer.status().toString();
    EXPECT_EQ((*buffer)->data(), host.data());
    EXPECT_TRUE((*buffer)->usage() & kSharingImport);
    EXPECT_EQ((*(*buffer)->map(MappingMode::kScoped))[3], 7);
    EXPECT_TRUE((*buffer)->release().ok());
    EXPECT_EQ(released, 1);
  }
  EXPECT_EQ(released, 1);
  EXPECT_EQ(heap->statistics().liveBytes, 0u);
}

TEST(AllocatorImportTest, NullHostPointerIsAnError) {
  auto heap = HeapAllocator::create("heap");
  EXPECT_TRUE(
      failedWith(heap->importBuffer(
                     {}, {ExternalBufferType::kHostAllocation, 8, nullptr, -1}),
                 StatusCode::kInvalidArgument,
                 "import into heap: host allocation pointer is null"));
  EXPECT_EQ(heap->statistics().allocations, 0u);
}

TEST(AllocatorExportTest, OpaqueFdSharesMemoryAcrossAllocators) {
  auto a = HeapAllocator::create("a");
  auto b = Allocator::create("b", {.hostVisible = false});
  auto source = *a->allocate(kHostVisible, kTransfer | kSharingExport, 4096);
  std::memset(source->data(), 0x5a, 4096);
  Result<ExternalBuffer> exported =
      a->exportBuffer(*source, ExternalBufferType::kOpaqueFd);
  ASSERT_TRUE(exported.ok()) << exported.status().toString();
  EXPECT_GE(exported->fd, 0);
  auto imported = b->importBuffer({kDeviceLocal, kTransfer}, *exported);
  close(exported->fd); // the import keeps its own mapping
  ASSERT_TRUE(imported.ok()) << imported.status().toString();
  EXPECT_EQ((*imported)->data()[4095], 0x5a);
  (*imported)->data()[0] = 0x11;
  EXPECT_EQ(source->data()[0], 0x11);
  imported->reset();
  EXPECT_EQ(b->statistics().liveBytes, 0u);
}

TEST(AllocatorExportTest, HostAllocationNeedsHostVisibleMemory) {
  auto heap = HeapAllocator::create("heap");
  auto buffer = *heap->allocate(kHostVisible, kSharingExport, 16);
  auto exported =
      heap->exportBuffer(*buffer, ExternalBufferType::kHostAllocation);
  ASSERT_TRUE(exported.ok());
  EXPECT_EQ(exported->hostPointer, buffer->data());
  auto discrete = Allocator::create("gpu", {.hostVisible = false});
  auto deviceBuffer = *discrete->allocate(kDeviceLocal, kSharingExport, 16);
  EXPECT_TRUE(
      failedWith(discrete->exportBuffer(*deviceBuffer,
                                        ExternalBufferType::kHostAllocation),
                 StatusCode::kFailedPrecondition, "cannot export"));
}

TEST(AllocatorExportTest, ExportOfReleasedBufferFails) {
  auto heap = HeapAllocator::create("heap");
  auto buffer = *heap->allocate(kHostVisible, kSharingExport, 16);
  ASSERT_TRUE(buffer->release().ok());
  EXPECT_TRUE(
      failedWith(heap->exportBuffer(*buffer, ExternalBufferType::kOpaqueFd),
                 StatusCode::kFailedPrecondition, "already deallocated"));
}

// The number of file descriptors this process has open.
size_t openFdCount() {
  size_t count = 0;
  for ([[maybe_unused]] const auto &entry :
       std::filesystem::directory_iterator("/proc/self/fd"))
    ++count;
  return count;
}

TEST(AllocatorExportTest, MemfdErrorsLeaveNothingOpen) {
  auto allocator =
      Allocator::create("cpu", {.maxAllocationBytes = ~uint64_t(0)});
  size_t before = openFdCount();
  // A size no off_t holds: the memfd cannot be sized.
  Status sizing =
      allocator->allocate(kHostVisible, kSharingExport, uint64_t(1) << 63)
          .status();
  EXPECT_NE(sizing.message().find("cannot size a memfd"), std::string::npos)
      << sizing.message();
  // A size the memfd takes but no address space does: it cannot be mapped.
  Status mapping =
      allocator->allocate(kHostVisible, kSharingExport, uint64_t(1) << 62)
          .status();
  EXPECT_NE(mapping.message().find("cannot map a memfd"), std::string::npos)
      << mapping.message();
  EXPECT_EQ(openFdCount(), before);
  EXPECT_EQ(allocator->statistics().allocations, 0u);
}

} // namespace
} // namespace ferry::hal
