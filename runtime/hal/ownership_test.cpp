// Ownership count (preserve / discard / isTerminal), separate from the object
// reference count; ARCHITECTURE 1.2.
#include <gtest/gtest.h>
#include <thread>
#include <vector>

#include "runtime/base/testing/status_assertions.h"
#include "runtime/hal/allocator.h"
#include "runtime/hal/buffer.h"
#include "runtime/hal/buffer_bits.h"

namespace ferry::hal {
namespace {

std::shared_ptr<Buffer> makeBuffer(uint64_t size = 64) {
  static std::shared_ptr<Allocator> allocator =
      HeapAllocator::create("ownership heap");
  return *allocator->allocate(kHostVisible, kTransfer, size);
}

TEST(OwnershipTest, FreshBufferIsTerminal) {
  auto buffer = makeBuffer();
  EXPECT_TRUE(buffer->isTerminal());
  EXPECT_EQ(buffer->ownerCount(), 1);
}

TEST(OwnershipTest, PreserveThenTwoDiscardsOnlySecondIsLast) {
  auto buffer = makeBuffer();
  buffer->preserve();
  EXPECT_FALSE(buffer->isTerminal());
  Result<bool> first = buffer->discard();
  ASSERT_TRUE(first.ok());
  EXPECT_FALSE(*first);
  EXPECT_TRUE(buffer->isTerminal());
  Result<bool> second = buffer->discard();
  ASSERT_TRUE(second.ok());
  EXPECT_TRUE(*second);
  EXPECT_EQ(buffer->ownerCount(), 0);
}

TEST(OwnershipTest, PreserveThroughSubspanChangesTheRoot) {
  auto root = makeBuffer(128);
  auto span = *Buffer::subspan(root, 16, 64);
  auto spanOfSpan = *Buffer::subspan(span, 8, 8);
  EXPECT_EQ(&spanOfSpan->root(), root.get());
  EXPECT_EQ(spanOfSpan->byteOffset(), 24u);
  EXPECT_EQ(spanOfSpan->data(), root->data() + 24);
  spanOfSpan->preserve();
  EXPECT_EQ(root->ownerCount(), 2);
  EXPECT_FALSE(root->isTerminal());
  EXPECT_FALSE(*span->discard());
  EXPECT_TRUE(root->isTerminal());
  EXPECT_TRUE(*root->discard());
}

TEST(OwnershipTest, NullHandling) {
  allocationPreserve(nullptr); // no-op
  Result<bool> discarded = allocationDiscard(nullptr);
  ASSERT_TRUE(discarded.ok());
  EXPECT_FALSE(*discarded);
  EXPECT_FALSE(allocationIsTerminal(nullptr));
  auto buffer = makeBuffer();
  allocationPreserve(buffer.get());
  EXPECT_EQ(buffer->ownerCount(), 2);
  EXPECT_FALSE(*allocationDiscard(buffer.get()));
  EXPECT_TRUE(allocationIsTerminal(buffer.get()));
  EXPECT_TRUE(failedWith(Buffer::subspan(nullptr, 0, 0),
                         StatusCode::kInvalidArgument,
                         "subspan of a null buffer"));
}

TEST(OwnershipTest, DiscardBelowZeroIsAnErrorNotAWrap) {
  auto buffer = makeBuffer();
  EXPECT_TRUE(*buffer->discard());
  Result<bool> again = buffer->discard();
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(again.status().message().find("no owner left"), std::string::npos)
      << again.status().message();
  EXPECT_NE(again.status().message().find("buffer "), std::string::npos);
  EXPECT_EQ(buffer->ownerCount(), 0);
  EXPECT_FALSE(buffer->isTerminal());
}

// The last handle frees the memory even though owners remain: the ownership
// count never keeps memory alive and is never touched after the free (ASan
// checks the latter).
TEST(OwnershipTest, OwnershipIsIndependentOfReferences) {
  auto allocator = HeapAllocator::create("heap");
  auto buffer = *allocator->allocate(0, 0, 256);
  buffer->preserve();
  buffer->preserve();
  auto span = *Buffer::subspan(buffer, 0, 16);
  EXPECT_EQ(span->ownerCount(), 3);
  buffer.reset();
  EXPECT_EQ(allocator->statistics().liveBytes, 256u); // span holds the root
  EXPECT_EQ(span->ownerCount(), 3);
  span.reset();
  EXPECT_EQ(allocator->statistics().liveBytes, 0u);
  EXPECT_EQ(allocator->statistics().deallocations, 1u);
}

TEST(OwnershipTest, EightThreadsMillionPairsLeaveCountExact) {
  auto buffer = makeBuffer();
  auto span = *Buffer::subspan(buffer, 0, 8);
  constexpr int kThreads = 8;
  constexpr int kPairs = 1'000'000;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      Buffer &target = (t % 2) ? *span : *buffer;
      for (int i = 0; i < kPairs; ++i) {
        target.preserve();
        Result<bool> last = target.discard();
        if (!last.ok() || *last)
          failures.fetch_add(1, std::memory_order_relaxed);
      }
    });
  for (auto &thread : threads)
    thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(buffer->ownerCount(), 1);
  EXPECT_TRUE(buffer->isTerminal());
}

// Two threads racing to discard the last two owners: exactly one is last.
TEST(OwnershipTest, ExactlyOneLastOwnerUnderRace) {
  for (int round = 0; round < 200; ++round) {
    auto buffer = makeBuffer();
    buffer->preserve();
    std::atomic<int> lasts{0};
    auto discard = [&] {
      if (*buffer->discard())
        lasts.fetch_add(1);
    };
    std::thread a(discard), b(discard);
    a.join();
    b.join();
    EXPECT_EQ(lasts.load(), 1);
  }
}

} // namespace
} // namespace ferry::hal
