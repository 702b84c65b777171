#include "runtime/hal/builtin_kernels.h"

#include <gtest/gtest.h>

namespace ferry::hal {
namespace {

// The compiler finds kernels by name and the loader by value: both must lead
// to the same entry of the one table.
TEST(BuiltinKernelsTest, NamesAndValuesRoundTrip) {
#define FERRY_X(name, value, spelling, inputs)                                 \
  EXPECT_EQ(parseBuiltinKernel(spelling), BuiltinKernel::name);                \
  EXPECT_EQ(builtinKernelFromValue(value), BuiltinKernel::name);               \
  EXPECT_EQ(builtinKernelName(BuiltinKernel::name), spelling);                 \
  EXPECT_EQ(builtinKernelInputCount(BuiltinKernel::name), inputs);
  FERRY_BUILTIN_KERNELS(FERRY_X)
#undef FERRY_X
}

TEST(BuiltinKernelsTest, UnknownKernelsAreRejected) {
  EXPECT_EQ(parseBuiltinKernel("div"), std::nullopt);
  EXPECT_EQ(parseBuiltinKernel(""), std::nullopt);
  EXPECT_EQ(builtinKernelFromValue(0), std::nullopt);
  EXPECT_EQ(builtinKernelFromValue(99), std::nullopt);
  EXPECT_EQ(builtinKernelName(BuiltinKernel(99)), "<unknown kernel>");
  EXPECT_EQ(builtinKernelInputCount(BuiltinKernel(99)), 0u);
}

} // namespace
} // namespace ferry::hal
