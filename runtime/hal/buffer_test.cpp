#include "runtime/hal/buffer.h"

#include <gtest/gtest.h>
#include <thread>

#include "runtime/base/testing/status_assertions.h"
#include "runtime/hal/allocator.h"
#include "runtime/hal/buffer_bits.h"

namespace ferry::hal {
namespace {

TEST(AllocatorTest, LastReferenceReturnsMemoryAndCounts) {
  auto allocator = HeapAllocator::create("test heap");
  {
    Result<std::shared_ptr<Buffer>> buffer = allocator->allocate(
        kHostVisible, kTransfer, 100, AllocationContents::kZeroed);
    ASSERT_TRUE(buffer.ok()) << buffer.status().toString();
    EXPECT_EQ((*buffer)->byteLength(), 100u);
    // The buffer has the bits of the memory it got: everything, on the CPU.
    EXPECT_TRUE((*buffer)->memoryType() & kHostVisible);
    EXPECT_TRUE((*buffer)->memoryType() & kDeviceLocal);
    EXPECT_EQ((*buffer)->usage(), uint32_t(kTransfer));
    EXPECT_EQ(&(*buffer)->allocator(), allocator.get());
    EXPECT_EQ((*buffer)->bytes()[99], 0); // zeroed, as asked
    std::shared_ptr<Buffer> copy = *buffer;
    buffer = internalError("drop the first reference");
    EXPECT_EQ(allocator->statistics().liveBytes, 100u);
    EXPECT_EQ(allocator->statistics().deallocations, 0u);
  }
  AllocatorStatistics stats = allocator->statistics();
  EXPECT_EQ(stats.allocations, 1u);
  EXPECT_EQ(stats.deallocations, 1u);
  EXPECT_EQ(stats.bytesAllocated, 100u);
  EXPECT_EQ(stats.peakBytes, 100u);
  EXPECT_EQ(stats.liveBytes, 0u);
}

TEST(AllocatorTest, PeakTracksHighestLiveBytes) {
  auto allocator = HeapAllocator::create("test heap");
  auto a = *allocator->allocate(0, 0, 64);
  auto b = *allocator->allocate(0, 0, 32);
  a.reset();
  auto c = *allocator->allocate(0, 0, 16);
  AllocatorStatistics stats = allocator->statistics();
  EXPECT_EQ(stats.allocations, 3u);
  EXPECT_EQ(stats.deallocations, 1u);
  EXPECT_EQ(stats.bytesAllocated, 112u);
  EXPECT_EQ(stats.peakBytes, 96u);
  EXPECT_EQ(stats.liveBytes, 48u);
}

TEST(AllocatorTest, ZeroSizeAndTooLarge) {
  auto allocator = HeapAllocator::create("small heap", 1024);
  auto empty = allocator->allocate(0, 0, 0);
  ASSERT_TRUE(empty.ok());
  EXPECT_FALSE((*empty)->isReleased());
  auto huge = allocator->allocate(0, 0, 4096);
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(huge.status().message().find("small heap"), std::string::npos);
  EXPECT_EQ(allocator->statistics().allocations, 1u);
}

TEST(AllocatorTest, AllocatorOutlivesItsOwnerWhileBuffersLive) {
  std::shared_ptr<Buffer> buffer;
  std::weak_ptr<Allocator> weak;
  {
    auto allocator = HeapAllocator::create("heap");
    weak = allocator;
    buffer = *allocator->allocate(0, 0, 8);
  }
  EXPECT_FALSE(weak.expired());
  buffer.reset();
  EXPECT_TRUE(weak.expired());
}

TEST(BufferTest, ExplicitReleaseFreesOnceAndLeavesAHusk) {
  auto allocator = HeapAllocator::create("heap");
  auto buffer = *allocator->allocate(0, 0, 40);
  EXPECT_TRUE(buffer->release().ok());
  EXPECT_TRUE(buffer->isReleased());
  EXPECT_EQ(buffer->data(), nullptr);
  EXPECT_EQ(allocator->statistics().liveBytes, 0u);
  Status again = buffer->release();
  EXPECT_EQ(again.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(again.message().find("already deallocated"), std::string::npos);
  buffer.reset();
  EXPECT_EQ(allocator->statistics().deallocations, 1u);
}

TEST(BufferTest, ConcurrentReferencesReleaseExactlyOnce) {
  auto allocator = HeapAllocator::create("heap");
  for (int round = 0; round < 20; ++round) {
    auto buffer = *allocator->allocate(0, 0, 8);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([copy = buffer]() mutable {
        std::shared_ptr<Buffer> local = copy;
        copy.reset();
        (void)local->release();
      });
    buffer.reset();
    for (std::thread &thread : threads)
      thread.join();
  }
  AllocatorStatistics stats = allocator->statistics();
  EXPECT_EQ(stats.allocations, 20u);
  EXPECT_EQ(stats.deallocations, 20u);
  EXPECT_EQ(stats.liveBytes, 0u);
}

TEST(BufferViewTest, ShapeChecks) {
  auto allocator = HeapAllocator::create("heap");
  auto buffer = *allocator->allocate(0, 0, 24);
  auto view = BufferView::create(buffer, {2, 3}, ElementType::kI32);
  ASSERT_TRUE(view.ok());
  EXPECT_EQ((*view)->elementCount(), 6u);
  EXPECT_EQ((*view)->byteLength(), 24u);
  EXPECT_EQ((*view)->typeString(), "2x3xi32");
  EXPECT_EQ(formatTensorType({}, ElementType::kF32), "f32");

  auto tooBig = BufferView::create(buffer, {4, 2}, ElementType::kI32);
  ASSERT_FALSE(tooBig.ok());
  EXPECT_EQ(tooBig.status().message(),
            "buffer view 4x2xi32 needs 32 bytes but its buffer has 24");
  auto negative = BufferView::create(buffer, {-1}, ElementType::kI8);
  EXPECT_TRUE(failedWith(negative, StatusCode::kInvalidArgument,
                         "dimension 0 is negative (-1)"));
  auto overflow = BufferView::create(
      buffer, {int64_t(1) << 40, int64_t(1) << 40}, ElementType::kI64);
  EXPECT_TRUE(failedWith(overflow, StatusCode::kOutOfRange,
                         "shape element count overflows"));
  EXPECT_TRUE(failedWith(BufferView::create(nullptr, {1}, ElementType::kI8),
                         StatusCode::kInvalidArgument,
                         "buffer view needs a buffer, got null"));
}

} // namespace
} // namespace ferry::hal
