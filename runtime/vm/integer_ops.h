// Scalar integer arithmetic at a width: what the VM's integer opcodes do.
//
// An i64 register holds an integer of any width from 1 to 64 bits in one
// canonical form: i1 as 0 or 1, wider types sign-extended to 64 bits. Every
// integer opcode carries the width it works at (`bits`), reads its operands
// as that width's signed or unsigned value as the operation defines, and
// writes its result back in canonical form, so results wrap exactly as
// MLIR's `arith` defines them (100 + 100 : i8 is -56, 65536 * 65536 : i32 is
// 0). Where `arith` leaves a result undefined (a shift by the width or more,
// the signed division overflowing), these functions still give one answer:
// shifts fill with zeros (or the sign for shr.s) and overflowing division
// wraps. Division by zero is an error, reported by the caller.
//
// Plain constexpr C++: pure functions of their arguments.
#ifndef FERRY_RUNTIME_VM_INTEGER_OPS_H_
#define FERRY_RUNTIME_VM_INTEGER_OPS_H_

#include <cstdint>
#include <optional>

#include "runtime/vm/bytecode_format.h"

namespace ferry::vm {

// `value` truncated to `bits` (1 to 64) in canonical form.
constexpr int64_t canonicalInteger(uint64_t value, unsigned bits) {
  if (bits >= 64)
    return int64_t(value);
  if (bits == 1)
    return int64_t(value & 1);
  unsigned shift = 64 - bits;
  // Arithmetic right shift of a signed value is defined since C++20.
  return int64_t(value << shift) >> shift;
}

// The signed value of a canonical `bits`-wide register (i1's 1 is -1).
constexpr int64_t signedInteger(int64_t value, unsigned bits) {
  return bits == 1 ? -(value & 1) : value;
}

// The unsigned value of a canonical `bits`-wide register.
constexpr uint64_t unsignedInteger(int64_t value, unsigned bits) {
  return bits >= 64 ? uint64_t(value)
                    : uint64_t(value) & ((uint64_t(1) << bits) - 1);
}

// Whether `opcode` divides (and so fails on a zero divisor).
constexpr bool isIntegerDivision(bytecode::Opcode opcode) {
  using bytecode::Opcode;
  switch (opcode) {
  case Opcode::kDivSI:
  case Opcode::kDivUI:
  case Opcode::kRemSI:
  case Opcode::kRemUI:
  case Opcode::kCeilDivSI:
  case Opcode::kCeilDivUI:
  case Opcode::kFloorDivSI:
    return true;
  default:
    return false;
  }
}

// `lhs opcode rhs` at `bits`, in canonical form; nullopt for a division by
// zero, or for an opcode that is not a binary integer operation.
constexpr std::optional<int64_t> evaluateIntegerBinary(bytecode::Opcode opcode,
                                                       int64_t lhs, int64_t rhs,
                                                       unsigned bits) {
  using bytecode::Opcode;
  const int64_t sa = signedInteger(lhs, bits), sb = signedInteger(rhs, bits);
  const uint64_t ua = unsignedInteger(lhs, bits),
                 ub = unsignedInteger(rhs, bits);
  if (isIntegerDivision(opcode) && ub == 0)
    return std::nullopt;
  // The one signed quotient that overflows 64 bits: it wraps to itself.
  const bool overflows = sa == INT64_MIN && sb == -1;
  uint64_t result = 0;
  switch (opcode) {
  case Opcode::kAddI:
    result = uint64_t(lhs) + uint64_t(rhs);
    break;
  case Opcode::kSubI:
    result = uint64_t(lhs) - uint64_t(rhs);
    break;
  case Opcode::kMulI:
    result = uint64_t(lhs) * uint64_t(rhs);
    break;
  case Opcode::kAndI:
    result = uint64_t(lhs) & uint64_t(rhs);
    break;
  case Opcode::kOrI:
    result = uint64_t(lhs) | uint64_t(rhs);
    break;
  case Opcode::kXorI:
    result = uint64_t(lhs) ^ uint64_t(rhs);
    break;
  case Opcode::kDivSI:
    result = overflows ? uint64_t(sa) : uint64_t(sa / sb);
    break;
  case Opcode::kDivUI:
    result = ua / ub;
    break;
  case Opcode::kRemSI:
    result = overflows ? 0 : uint64_t(sa % sb);
    break;
  case Opcode::kRemUI:
    result = ua % ub;
    break;
  case Opcode::kCeilDivSI:
  case Opcode::kFloorDivSI: {
    if (overflows) {
      result = uint64_t(sa);
      break;
    }
    int64_t quotient = sa / sb; // rounds towards zero
    bool inexact = quotient * sb != sa;
    bool positive = (sa < 0) == (sb < 0);
    if (inexact && opcode == Opcode::kCeilDivSI && positive)
      ++quotient;
    if (inexact && opcode == Opcode::kFloorDivSI && !positive)
      --quotient;
    result = uint64_t(quotient);
    break;
  }
  case Opcode::kCeilDivUI:
    result = ua / ub + (ua % ub != 0);
    break;
  case Opcode::kShlI:
    result = ub >= bits ? 0 : uint64_t(lhs) << ub;
    break;
  case Opcode::kShrSI:
    result = uint64_t(ub >= bits ? (sa < 0 ? -1 : 0) : sa >> ub);
    break;
  case Opcode::kShrUI:
    result = ub >= bits ? 0 : ua >> ub;
    break;
  case Opcode::kMinSI:
    result = uint64_t(sa < sb ? sa : sb);
    break;
  case Opcode::kMaxSI:
    result = uint64_t(sa > sb ? sa : sb);
    break;
  case Opcode::kMinUI:
    result = ua < ub ? ua : ub;
    break;
  case Opcode::kMaxUI:
    result = ua > ub ? ua : ub;
    break;
  default:
    return std::nullopt;
  }
  return canonicalInteger(result, bits);
}

// `lhs predicate rhs` for canonical `bits`-wide registers.
constexpr bool compareIntegers(bytecode::CmpPredicate predicate, int64_t lhs,
                               int64_t rhs, unsigned bits) {
  using bytecode::CmpPredicate;
  const int64_t sa = signedInteger(lhs, bits), sb = signedInteger(rhs, bits);
  const uint64_t ua = unsignedInteger(lhs, bits),
                 ub = unsignedInteger(rhs, bits);
  switch (predicate) {
  case CmpPredicate::kEq:
    return ua == ub;
  case CmpPredicate::kNe:
    return ua != ub;
  case CmpPredicate::kSlt:
    return sa < sb;
  case CmpPredicate::kSle:
    return sa <= sb;
  case CmpPredicate::kSgt:
    return sa > sb;
  case CmpPredicate::kSge:
    return sa >= sb;
  case CmpPredicate::kUlt:
    return ua < ub;
  case CmpPredicate::kUle:
    return ua <= ub;
  case CmpPredicate::kUgt:
    return ua > ub;
  case CmpPredicate::kUge:
    return ua >= ub;
  }
  return false;
}

} // namespace ferry::vm

#endif // FERRY_RUNTIME_VM_INTEGER_OPS_H_
