// The kernel ABI's layout (executable_abi.h) is what generated code and the
// runtime both assume: pin every offset, so a change to the struct is a
// compile error here, not a silent mismatch with compiled executables.
#include "runtime/hal/executable_abi.h"

#include <cstddef>

#include <gtest/gtest.h>

namespace {

static_assert(FERRY_EXECUTABLE_ABI_VERSION == 1u);
static_assert(offsetof(ferry_dispatch_state_t, workgroup_id) == 0);
static_assert(offsetof(ferry_dispatch_state_t, workgroup_count) == 12);
static_assert(offsetof(ferry_dispatch_state_t, binding_count) == 24);
static_assert(offsetof(ferry_dispatch_state_t, push_constant_count) == 28);
static_assert(offsetof(ferry_dispatch_state_t, bindings) == 32);
static_assert(offsetof(ferry_dispatch_state_t, binding_lengths) == 40);
static_assert(offsetof(ferry_dispatch_state_t, push_constants) == 48);
static_assert(sizeof(ferry_dispatch_state_t) == 56);
static_assert(alignof(ferry_dispatch_state_t) == 8);

TEST(ExecutableAbiTest, VersionSymbolName) {
  EXPECT_STREQ(FERRY_EXECUTABLE_ABI_VERSION_SYMBOL,
               "ferry_executable_abi_version");
}

} // namespace
