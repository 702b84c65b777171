// Conversions between the 16-bit float element types (f16: IEEE binary16;
// bf16: the upper half of an IEEE binary32) and float/double, by hand: the
// runtime stays plain C++20, and g++ 12's std::float16_t / std::bfloat16_t
// are not on every supported compiler.
//
// Narrowing rounds to nearest, ties to even, from a double in one step (no
// double rounding through float), so parsing "0.1" as f16 gives the f16
// nearest to 0.1; overflow gives infinity and a NaN stays a (quiet) NaN of
// the same sign. Widening is exact.
//
// Ownership/threads: pure functions.
#ifndef FERRY_RUNTIME_HAL_FLOAT16_H_
#define FERRY_RUNTIME_HAL_FLOAT16_H_

#include <bit>
#include <cstdint>

namespace ferry::hal {

namespace detail {

// A double as a float of `ExpBits` exponent and `MantBits` stored mantissa
// bits (at most 16 bits in all), rounded to nearest even.
template <int ExpBits, int MantBits>
constexpr uint16_t narrowFromDouble(double value) {
  constexpr int kBias = (1 << (ExpBits - 1)) - 1;
  constexpr uint32_t kExpMax = (1u << ExpBits) - 1;
  uint64_t bits = std::bit_cast<uint64_t>(value);
  uint32_t sign = uint32_t(bits >> 63) << (ExpBits + MantBits);
  uint32_t exp = uint32_t(bits >> 52) & 0x7ff;
  uint64_t mant = bits & ((uint64_t(1) << 52) - 1);
  if (exp == 0x7ff) // infinity, or NaN (kept quiet)
    return uint16_t(sign | (kExpMax << MantBits) |
                    (mant ? (1u << (MantBits - 1)) : 0));
  if (exp == 0) // zero or a double subnormal: far below either format
    return uint16_t(sign);
  int e = int(exp) - 1023 + kBias; // the target's biased exponent
  if (e >= int(kExpMax))
    return uint16_t(sign | (kExpMax << MantBits));
  uint64_t significand = mant | (uint64_t(1) << 52);
  // Bits dropped: the excess mantissa, plus the distance below the
  // smallest normal exponent for a subnormal result.
  int shift = 52 - MantBits + (e >= 1 ? 0 : 1 - e);
  if (shift > 63)
    return uint16_t(sign);
  uint64_t kept = significand >> shift;
  uint64_t rest = significand & ((uint64_t(1) << shift) - 1);
  uint64_t half = uint64_t(1) << (shift - 1);
  if (rest > half || (rest == half && (kept & 1)))
    ++kept;
  // A normal result adds its exponent above the implicit bit, so a carry
  // out of the mantissa raises the exponent (to infinity at the top).
  uint64_t magnitude = e >= 1 ? (uint64_t(e - 1) << MantBits) + kept : kept;
  return uint16_t(sign | uint32_t(magnitude));
}

} // namespace detail

constexpr uint16_t f16FromDouble(double value) {
  return detail::narrowFromDouble<5, 10>(value);
}

constexpr uint16_t bf16FromDouble(double value) {
  return detail::narrowFromDouble<8, 7>(value);
}

constexpr float f16ToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits >> 15) << 31;
  uint32_t exp = (bits >> 10) & 0x1f;
  uint32_t mant = bits & 0x3ff;
  if (exp == 0x1f) // infinity or NaN
    return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) { // zero or subnormal: mant * 2^-24, exact in a float
    float magnitude = float(mant) * (1.0f / 16777216.0f);
    return sign ? -magnitude : magnitude;
  }
  return std::bit_cast<float>(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}

constexpr float bf16ToFloat(uint16_t bits) {
  return std::bit_cast<float>(uint32_t(bits) << 16);
}

} // namespace ferry::hal

#endif // FERRY_RUNTIME_HAL_FLOAT16_H_
