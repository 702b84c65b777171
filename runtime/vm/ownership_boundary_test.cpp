// Ownership across the program/host boundary, as compiled programs do it
// (stream-automatic-reference-counting): a buffer handed to an external
// function that may keep it is released by the program, and freed only when
// that release removed the last owner (`dealloca.if`).
#include <gtest/gtest.h>

#include "runtime/base/testing/status_assertions.h"
#include "runtime/drivers/local/local_device.h"
#include "runtime/hal/buffer_bits.h"
#include "runtime/vm/context.h"
#include "runtime/vm/native_module.h"
#include "runtime/vm/testing/bytecode_writer.h"

namespace ferry::vm {
namespace {

using testing::BytecodeWriter;
using K = RegisterKind;
constexpr uint16_t kNone = bytecode::kNoRegister;
constexpr int64_t kBytes = 16;

// main() -> (i64 last): allocates a buffer, fills it with 7s, hands it to
// Host.keep, then releases its ownership and frees only if it was the last
// owner. Returns what the release said.
std::shared_ptr<const Module> handOffModule() {
  BytecodeWriter w;
  w.device("dev");
  uint32_t keep = w.import("Host.keep", {K::kRef}, {}, 0);
  auto &f = w.function("main", {}, {K::kI64}, /*i64=*/6, /*ref=*/5);
  f.deviceGet(0, 0)
      .constI64(0, kBytes)
      .constI64(1, hal::kHostVisible | hal::kDeviceLocal)
      .constI64(2, hal::kTransfer | hal::kDispatchStorage |
                       hal::kMappingScoped | hal::kMappingPersistent)
      .fenceCreate(1, 0)
      .queueAlloca(2, 0, kNone, 1, 1, 2, 0)
      .constI64(3, 0)
      .constI64(4, 7)
      .fenceCreate(3, 0)
      .queueFill(0, 1, 3, 2, 3, 0, 4, 4)
      .fenceAwait({3})
      .callImport(keep, {{K::kRef, 2}}, {})
      .bufferDiscard(5, 2)
      .fenceCreate(4, 0)
      .queueDeallocaIf(0, kNone, 4, 2, 0, 5)
      .fenceAwait({4})
      .ret({{K::kI64, 5}});
  Result<Module> module = Module::load(w.finish());
  EXPECT_TRUE(module.ok()) << module.status().toString();
  return std::make_shared<const Module>(std::move(*module));
}

// Host.keep: takes a share of ownership (preserve) when `share` is set, and
// keeps a reference either way.
std::shared_ptr<NativeModule> hostModule(bool share,
                                         std::shared_ptr<hal::Buffer> &kept) {
  auto host = std::make_shared<NativeModule>("Host");
  Status added = host->addFunction(
      {"keep",
       {K::kRef},
       {},
       0,
       [share, &kept](std::span<const Value> args,
                      CallContext &) -> Result<std::vector<Value>> {
         kept = std::get<std::shared_ptr<hal::Buffer>>(args[0].ref());
         if (share)
           hal::allocationPreserve(kept.get());
         return std::vector<Value>{};
       }});
  EXPECT_TRUE(added.ok()) << added.toString();
  return host;
}

class OwnershipBoundaryTest : public ::testing::Test {
protected:
  std::shared_ptr<hal::Device> device =
      drivers::local::LocalDevice::create("dev");

  // Runs main once; returns what the program's release answered.
  int64_t run(bool hostShares) {
    Result<Context> context = Context::create(handOffModule(), {device},
                                              {hostModule(hostShares, kept)});
    EXPECT_TRUE(context.ok()) << context.status().toString();
    Result<std::vector<Value>> results = context->invoke("main", {});
    EXPECT_TRUE(results.ok()) << results.status().toString();
    return results.ok() ? (*results)[0].i64() : -1;
  }

  hal::AllocatorStatistics stats() { return device->allocator().statistics(); }

  std::shared_ptr<hal::Buffer> kept;
};

TEST_F(OwnershipBoundaryTest, HostShareKeepsMemoryUntilTheHostDiscards) {
  // The host preserved the buffer before the program released it: the
  // program's release is not terminal, so its dealloca frees nothing.
  EXPECT_EQ(run(/*hostShares=*/true), 0);
  ASSERT_TRUE(kept);
  EXPECT_EQ(stats().deallocations, 0u);
  EXPECT_EQ(stats().liveBytes, uint64_t(kBytes));
  // The memory survives with the program's data in it.
  Result<std::span<uint8_t>> bytes = kept->map(hal::MappingMode::kScoped);
  ASSERT_TRUE(bytes.ok()) << bytes.status().toString();
  for (size_t i = 0; i < bytes->size(); i += 4)
    EXPECT_EQ((*bytes)[i], 7) << "byte " << i;
  // The host's discard removes the last owner, and the host frees it.
  Result<bool> last = hal::allocationDiscard(kept.get());
  ASSERT_TRUE(last.ok());
  EXPECT_TRUE(*last);
  EXPECT_TRUE(kept->release().ok());
  EXPECT_EQ(stats().deallocations, 1u);
  EXPECT_EQ(stats().liveBytes, 0u);
}

TEST_F(OwnershipBoundaryTest, WithoutAHostShareTheProgramFrees) {
  // Nobody else took ownership: the release is terminal and the program's
  // dealloca frees the memory although the host still holds a reference.
  EXPECT_EQ(run(/*hostShares=*/false), 1);
  EXPECT_EQ(stats().deallocations, 1u);
  EXPECT_EQ(stats().liveBytes, 0u);
  // Holding a reference is not owning: the freed buffer cannot be mapped.
  ASSERT_TRUE(kept);
  EXPECT_TRUE(failedWith(kept->map(hal::MappingMode::kScoped),
                         StatusCode::kFailedPrecondition,
                         "was already deallocated"));
}

} // namespace
} // namespace ferry::vm
