#include "runtime/hal/cpu_features.h"

#include <string>

#include <gtest/gtest.h>

namespace ferry::hal {
namespace {

TEST(CpuFeaturesTest, EmptyListNeedsNothing) {
  EXPECT_FALSE(findMissingCpuFeature("", CpuFeatureSet()));
}

TEST(CpuFeaturesTest, UnknownNameIsNamed) {
  auto missing = findMissingCpuFeature("no-such-feature");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->name, "no-such-feature");
  EXPECT_TRUE(missing->unknown);
  // An empty element is a name the table does not have either.
  missing = findMissingCpuFeature(",");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->name, "");
  EXPECT_TRUE(missing->unknown);
}

TEST(CpuFeaturesTest, NamesTheFirstFeatureTheCpuLacks) {
  if (kCpuFeatureCount < 2)
    GTEST_SKIP() << "no CPU feature table on this architecture";
  CpuFeatureSet cpu;
  cpu.set(0);
  std::string list = std::string(kCpuFeatureNames[0]) + "," +
                     std::string(kCpuFeatureNames[1]) + ",no-such-feature";
  auto missing = findMissingCpuFeature(list, cpu);
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->name, kCpuFeatureNames[1]);
  EXPECT_FALSE(missing->unknown);
  cpu.set(1);
  missing = findMissingCpuFeature(list, cpu);
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->name, "no-such-feature");
  EXPECT_TRUE(missing->unknown);
}

TEST(CpuFeaturesTest, TableNamesAreUnique) {
  for (size_t i = 0; i < kCpuFeatureCount; ++i)
    EXPECT_EQ(cpuFeatureIndex(kCpuFeatureNames[i]), i) << kCpuFeatureNames[i];
}

#if defined(__x86_64__)
// The cpuid decoding agrees with the compiler's own runtime check (which
// also consults XCR0) for every feature both know.
TEST(CpuFeaturesTest, HostAgreesWithBuiltinCpuSupports) {
  CpuFeatureSet host = CpuFeatureSet::host();
  EXPECT_TRUE(host.has("64bit"));
  EXPECT_TRUE(host.has("sse2"));
  __builtin_cpu_init();
#define FERRY_CHECK(name)                                                      \
  EXPECT_EQ(host.has(name), __builtin_cpu_supports(name) != 0) << name;
  FERRY_CHECK("cmov")
  FERRY_CHECK("popcnt")
  FERRY_CHECK("sse3")
  FERRY_CHECK("ssse3")
  FERRY_CHECK("sse4.1")
  FERRY_CHECK("sse4.2")
  FERRY_CHECK("aes")
  FERRY_CHECK("pclmul")
  FERRY_CHECK("avx")
  FERRY_CHECK("avx2")
  FERRY_CHECK("fma")
  FERRY_CHECK("bmi")
  FERRY_CHECK("bmi2")
  FERRY_CHECK("avx512f")
  FERRY_CHECK("avx512bw")
  FERRY_CHECK("avx512dq")
  FERRY_CHECK("avx512vl")
  FERRY_CHECK("avx512cd")
  FERRY_CHECK("avx512vnni")
  FERRY_CHECK("avx512vbmi")
  FERRY_CHECK("avx512ifma")
  FERRY_CHECK("avx512bf16")
#undef FERRY_CHECK
}
#endif

} // namespace
} // namespace ferry::hal
