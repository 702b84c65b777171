#include "runtime/hal/element_type.h"
#include "runtime/hal/float16.h"

#include <cmath>
#include <cstring>
#include <limits>

#include <gtest/gtest.h>

namespace ferry::hal {
namespace {

// The compiler encodes element types by value and ferry-run parses them by
// name: every row must round-trip both ways with its size and kind.
TEST(ElementTypeTest, NamesValuesAndSizesRoundTrip) {
  int rows = 0;
#define FERRY_X(name, value, spelling, size, is_float)                         \
  EXPECT_EQ(parseElementType(spelling), ElementType::name);                    \
  EXPECT_EQ(elementTypeFromValue(value), ElementType::name);                   \
  EXPECT_EQ(elementTypeName(ElementType::name), spelling);                     \
  EXPECT_EQ(elementByteSize(ElementType::name), size_t(size));                 \
  EXPECT_EQ(isFloatElementType(ElementType::name), is_float);                  \
  EXPECT_NE(kElementTypeList.find(spelling), std::string_view::npos);          \
  ++rows;
  FERRY_ELEMENT_TYPES(FERRY_X)
#undef FERRY_X
  EXPECT_EQ(rows, 9);
  EXPECT_EQ(elementByteSize(ElementType::kI1), 1u);
  EXPECT_EQ(elementByteSize(ElementType::kF16), 2u);
  EXPECT_EQ(elementByteSize(ElementType::kBF16), 2u);
  EXPECT_EQ(parseElementType("f8"), std::nullopt);
  EXPECT_EQ(elementTypeFromValue(0), std::nullopt);
  EXPECT_EQ(elementTypeFromValue(10), std::nullopt);
}

// Widening is exact and narrowing rounds once to nearest even: for every
// f16 and bf16 value, narrowing its float back gives the same bits, and a
// value halfway between two neighbours goes to the even one.
TEST(Float16Test, EveryValueRoundTrips) {
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    float half = f16ToFloat(uint16_t(bits));
    float brain = bf16ToFloat(uint16_t(bits));
    if (std::isnan(half))
      EXPECT_TRUE(std::isnan(f16ToFloat(f16FromDouble(half)))) << bits;
    else
      EXPECT_EQ(f16FromDouble(half), bits) << bits;
    if (std::isnan(brain))
      EXPECT_TRUE(std::isnan(bf16ToFloat(bf16FromDouble(brain)))) << bits;
    else
      EXPECT_EQ(bf16FromDouble(brain), bits) << bits;
  }
}

TEST(Float16Test, RoundsToNearestEven) {
  EXPECT_EQ(f16FromDouble(1.0), 0x3c00);
  EXPECT_EQ(f16FromDouble(0.1), 0x2e66);
  EXPECT_EQ(f16FromDouble(-2.0), 0xc000);
  EXPECT_EQ(f16FromDouble(65504.0), 0x7bff);
  EXPECT_EQ(f16FromDouble(65519.0), 0x7bff); // below the halfway point
  EXPECT_EQ(f16FromDouble(65520.0), 0x7c00); // halfway: to even (inf)
  EXPECT_EQ(f16FromDouble(1e10), 0x7c00);
  EXPECT_EQ(f16FromDouble(-INFINITY), 0xfc00);
  EXPECT_EQ(f16FromDouble(-0.0), 0x8000);
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: to even (1); 1 + 3 * 2^-11
  // is halfway between 1 + 2^-10 and 1 + 2^-9: to even (1 + 2^-9).
  EXPECT_EQ(f16FromDouble(1.0 + std::ldexp(1.0, -11)), 0x3c00);
  EXPECT_EQ(f16FromDouble(1.0 + 3 * std::ldexp(1.0, -11)), 0x3c02);
  // Just above halfway rounds up, in one step from the double (a detour
  // through float would round 1 + 2^-11 + 2^-40 to the halfway point).
  EXPECT_EQ(f16FromDouble(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)),
            0x3c01);
  // Subnormals: the smallest is 2^-24; half of it rounds to 0 (even), a
  // bit more to it.
  EXPECT_EQ(f16FromDouble(std::ldexp(1.0, -24)), 0x0001);
  EXPECT_EQ(f16FromDouble(std::ldexp(1.0, -25)), 0x0000);
  EXPECT_EQ(f16FromDouble(std::ldexp(1.5, -25)), 0x0001);
  EXPECT_EQ(f16FromDouble(std::ldexp(1023.0, -24)), 0x03ff);
  EXPECT_EQ(f16FromDouble(std::ldexp(1023.5, -24)), 0x0400); // to normal
  EXPECT_EQ(f16FromDouble(1e-300), 0x0000);
  EXPECT_EQ(f16FromDouble(std::numeric_limits<double>::denorm_min()), 0);
  EXPECT_EQ(f16FromDouble(NAN) & 0x7e00, 0x7e00);

  EXPECT_EQ(bf16FromDouble(1.0), 0x3f80);
  EXPECT_EQ(bf16FromDouble(0.1), 0x3dcd);
  EXPECT_EQ(bf16FromDouble(3e38), 0x7f62);
  EXPECT_EQ(bf16FromDouble(1e39), 0x7f80);
  EXPECT_EQ(bf16FromDouble(1.0 + std::ldexp(1.0, -8)), 0x3f80);
  EXPECT_EQ(bf16FromDouble(1.0 + 3 * std::ldexp(1.0, -8)), 0x3f82);
  EXPECT_EQ(bf16FromDouble(std::ldexp(1.0, -133)), 0x0001); // subnormal
  EXPECT_EQ(bf16FromDouble(-NAN) & 0xffc0, 0xffc0);
}

TEST(Float16Test, WideningIsExact) {
  EXPECT_EQ(f16ToFloat(0x3c00), 1.0f);
  EXPECT_EQ(f16ToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(f16ToFloat(0x8000), -0.0f);
  EXPECT_TRUE(std::signbit(f16ToFloat(0x8000)));
  EXPECT_EQ(f16ToFloat(0x7bff), 65504.0f);
  EXPECT_EQ(f16ToFloat(0x7c00), INFINITY);
  EXPECT_TRUE(std::isnan(f16ToFloat(0x7e00)));
  EXPECT_EQ(bf16ToFloat(0x3f80), 1.0f);
  EXPECT_EQ(bf16ToFloat(0xc020), -2.5f);
  EXPECT_EQ(bf16ToFloat(0xff80), -INFINITY);
}

} // namespace
} // namespace ferry::hal
