// integer_ops.h against C++'s own fixed-width integers: for i8, i16, i32 and
// i64, every binary op on random and boundary operands must give what the
// same op on int8_t ... int64_t (unsigned ops on uint8_t ...) gives, wrapped
// through the unsigned type; i1 is checked exhaustively by hand.
#include "runtime/vm/integer_ops.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <type_traits>
#include <vector>

namespace ferry::vm {
namespace {

using bytecode::CmpPredicate;
using bytecode::Opcode;

// The reference: `op` on `S` (signed) / `U` (unsigned) values, as arith
// defines it, written with C++'s own types. nullopt for division by zero.
template <typename S> std::optional<S> reference(Opcode op, S a, S b) {
  using U = std::make_unsigned_t<S>;
  constexpr unsigned bits = 8 * sizeof(S);
  U ua = U(a), ub = U(b);
  auto wrap = [](U value) { return S(value); };
  bool overflow = a == std::numeric_limits<S>::min() && b == S(-1);
  switch (op) {
  case Opcode::kAddI:
    return wrap(U(ua + ub));
  case Opcode::kSubI:
    return wrap(U(ua - ub));
  case Opcode::kMulI:
    return wrap(U(uint64_t(ua) * uint64_t(ub)));
  case Opcode::kAndI:
    return wrap(ua & ub);
  case Opcode::kOrI:
    return wrap(ua | ub);
  case Opcode::kXorI:
    return wrap(ua ^ ub);
  case Opcode::kDivSI:
    if (b == 0)
      return std::nullopt;
    return overflow ? a : S(a / b);
  case Opcode::kRemSI:
    if (b == 0)
      return std::nullopt;
    return overflow ? S(0) : S(a % b);
  case Opcode::kDivUI:
    if (ub == 0)
      return std::nullopt;
    return wrap(U(ua / ub));
  case Opcode::kRemUI:
    if (ub == 0)
      return std::nullopt;
    return wrap(U(ua % ub));
  case Opcode::kCeilDivUI:
    if (ub == 0)
      return std::nullopt;
    return wrap(U(ua / ub + (ua % ub ? 1 : 0)));
  case Opcode::kCeilDivSI:
  case Opcode::kFloorDivSI: {
    if (b == 0)
      return std::nullopt;
    if (overflow)
      return a;
    // C++ division rounds towards zero; step the quotient when inexact.
    S q = S(a / b);
    bool exact = S(q * b) == a;
    if (!exact && op == Opcode::kCeilDivSI && ((a < 0) == (b < 0)))
      ++q;
    if (!exact && op == Opcode::kFloorDivSI && ((a < 0) != (b < 0)))
      --q;
    return q;
  }
  case Opcode::kShlI:
    return ub >= bits ? S(0) : wrap(U(ua << ub));
  case Opcode::kShrUI:
    return ub >= bits ? S(0) : wrap(U(ua >> ub));
  case Opcode::kShrSI:
    return ub >= bits ? S(a < 0 ? -1 : 0) : S(a >> ub);
  case Opcode::kMinSI:
    return std::min(a, b);
  case Opcode::kMaxSI:
    return std::max(a, b);
  case Opcode::kMinUI:
    return wrap(std::min(ua, ub));
  case Opcode::kMaxUI:
    return wrap(std::max(ua, ub));
  default:
    return std::nullopt;
  }
}

constexpr Opcode kBinaryOps[] = {
    Opcode::kAddI,       Opcode::kSubI,  Opcode::kMulI,      Opcode::kAndI,
    Opcode::kOrI,        Opcode::kXorI,  Opcode::kDivSI,     Opcode::kDivUI,
    Opcode::kRemSI,      Opcode::kRemUI, Opcode::kCeilDivSI, Opcode::kCeilDivUI,
    Opcode::kFloorDivSI, Opcode::kShlI,  Opcode::kShrSI,     Opcode::kShrUI,
    Opcode::kMinSI,      Opcode::kMaxSI, Opcode::kMinUI,     Opcode::kMaxUI};

template <typename S> std::vector<S> operands(std::mt19937_64 &random) {
  std::vector<S> values = {0,
                           1,
                           2,
                           S(-1),
                           S(-2),
                           S(3),
                           S(7),
                           S(8 * sizeof(S) - 1),
                           S(8 * sizeof(S)),
                           std::numeric_limits<S>::min(),
                           std::numeric_limits<S>::max(),
                           S(std::numeric_limits<S>::min() + 1)};
  for (int i = 0; i < 40; ++i)
    values.push_back(S(random()));
  for (int i = 0; i < 10; ++i) // small shift amounts and divisors
    values.push_back(S(random() % 12) - 4);
  return values;
}

template <typename S> void checkWidth() {
  constexpr unsigned bits = 8 * sizeof(S);
  std::mt19937_64 random(bits);
  std::vector<S> values = operands<S>(random);
  for (Opcode op : kBinaryOps)
    for (S a : values)
      for (S b : values) {
        std::optional<S> want = reference<S>(op, a, b);
        std::optional<int64_t> got =
            evaluateIntegerBinary(op, int64_t(a), int64_t(b), bits);
        ASSERT_EQ(got.has_value(), want.has_value())
            << bytecode::opcodeMnemonic(op) << " " << int64_t(a) << ", "
            << int64_t(b) << " : i" << bits;
        if (want)
          ASSERT_EQ(*got, int64_t(*want))
              << bytecode::opcodeMnemonic(op) << " " << int64_t(a) << ", "
              << int64_t(b) << " : i" << bits;
      }
  using U = std::make_unsigned_t<S>;
  for (S a : values)
    for (S b : values) {
      EXPECT_EQ(compareIntegers(CmpPredicate::kSlt, a, b, bits), a < b);
      EXPECT_EQ(compareIntegers(CmpPredicate::kUlt, a, b, bits), U(a) < U(b));
      EXPECT_EQ(compareIntegers(CmpPredicate::kUge, a, b, bits), U(a) >= U(b));
      EXPECT_EQ(compareIntegers(CmpPredicate::kEq, a, b, bits), a == b);
    }
}

TEST(IntegerOpsTest, I8MatchesCpp) { checkWidth<int8_t>(); }
TEST(IntegerOpsTest, I16MatchesCpp) { checkWidth<int16_t>(); }
TEST(IntegerOpsTest, I32MatchesCpp) { checkWidth<int32_t>(); }
TEST(IntegerOpsTest, I64MatchesCpp) { checkWidth<int64_t>(); }

TEST(IntegerOpsTest, TheReportedCases) {
  EXPECT_EQ(evaluateIntegerBinary(Opcode::kMulI, 65536, 65536, 32), 0);
  EXPECT_EQ(evaluateIntegerBinary(Opcode::kAddI, 100, 100, 8), -56);
  EXPECT_TRUE(compareIntegers(CmpPredicate::kSlt, -56, 0, 8));
  EXPECT_EQ(evaluateIntegerBinary(Opcode::kDivSI, 7, 0, 32), std::nullopt);
}

// i1: 0 or 1 in a register; its signed value of true is -1.
TEST(IntegerOpsTest, I1) {
  auto eval = [](Opcode op, int64_t a, int64_t b) {
    return evaluateIntegerBinary(op, a, b, 1);
  };
  EXPECT_EQ(eval(Opcode::kAddI, 1, 1), 0);
  EXPECT_EQ(eval(Opcode::kSubI, 0, 1), 1);
  EXPECT_EQ(eval(Opcode::kMulI, 1, 1), 1);
  EXPECT_EQ(eval(Opcode::kMinSI, 0, 1), 1); // -1 < 0
  EXPECT_EQ(eval(Opcode::kMaxUI, 0, 1), 1);
  EXPECT_EQ(eval(Opcode::kDivUI, 1, 1), 1);
  EXPECT_EQ(eval(Opcode::kDivUI, 1, 0), std::nullopt);
  EXPECT_EQ(eval(Opcode::kShlI, 1, 1), 0); // a shift by the width
  EXPECT_TRUE(compareIntegers(CmpPredicate::kSlt, 1, 0, 1));
  EXPECT_TRUE(compareIntegers(CmpPredicate::kUgt, 1, 0, 1));
  EXPECT_EQ(signedInteger(1, 1), -1);
  EXPECT_EQ(unsignedInteger(1, 1), 1u);
}

TEST(IntegerOpsTest, Canonical) {
  EXPECT_EQ(canonicalInteger(300, 8), 44);
  EXPECT_EQ(canonicalInteger(200, 8), -56);
  EXPECT_EQ(canonicalInteger(3, 1), 1);
  EXPECT_EQ(canonicalInteger(uint64_t(-1), 64), -1);
  EXPECT_EQ(canonicalInteger(0x8000, 16), -32768);
  EXPECT_EQ(unsignedInteger(-56, 8), 200u);
  EXPECT_EQ(unsignedInteger(-1, 64), ~uint64_t(0));
}

} // namespace
} // namespace ferry::vm
