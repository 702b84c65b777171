// The Ferry bytecode module file format (.fvm): the contract between the
// compiler, which writes it (compiler/Target/Bytecode), and the runtime VM,
// which verifies and runs it (runtime/vm). Plain C++: no LLVM or MLIR.
//
// All integers are little-endian. A file is a fixed header followed by a
// payload:
//
//   Header (32 bytes)
//     char     magic[8]         "FERRYVM\0"
//     uint32   version          kFormatVersion of the writer
//     uint32   reserved         0
//     uint64   payload_bytes    exact size of what follows the header
//     uint64   payload_checksum fnv1a64(payload)
//
//   Payload
//     uint32 string_count; string_count x String     (string table)
//     uint32 device_count; device_count x uint32     (string index of the
//                                                      device's symbol name)
//     uint32 import_count; import_count x Import     (functions the module
//                                                      calls but does not
//                                                      define)
//     uint32 function_count; function_count x Function
//     uint32 executable_count; executable_count x Executable (version 6)
//     uint32 constant_count; constant_count x Constant       (version 6)
//
//   String   := uint32 length, then length bytes (no terminator)
//   Import   := uint32 name (string index; "module.function", resolved by
//                            the runtime against its native modules)
//               uint16 arg_count;    arg_count x uint8 RegisterKind
//               uint16 result_count; result_count x uint8 RegisterKind
//               uint32 flags         (ImportFlags)
//   Function := uint32 name (string index)
//               uint16 arg_count;    arg_count x uint8 RegisterKind
//               uint16 result_count; result_count x uint8 RegisterKind
//               uint16 i64_register_count
//               uint16 ref_register_count
//               uint32 code_bytes; code_bytes of instructions
//   Executable := uint32 name (string index; the compiler's symbol, for
//                              errors; non-empty, unique in the module)
//               uint32 format (string index: "elf-x86_64" or "elf-aarch64")
//               uint32 cpu_features (string index: comma-separated LLVM
//                              target feature names the code may use,
//                              runtime/hal/cpu_features.h; the runtime refuses
//                              the module if the running CPU lacks one or it
//                              cannot check a name)
//               uint16 entry_count; entry_count x Entry
//               uint64 image_bytes; image_bytes x uint8 (an ELF shared
//                              object, runtime/hal/executable_abi.h)
//   Constant   := uint64 byte_length; byte_length x uint8 (a dense tensor's
//                              elements, little-endian, row-major: model
//                              weights the program reads but never writes)
//   Entry      := uint32 name (string index; the exported symbol: a C
//                              identifier, unique in its executable)
//               uint8 kind    (EntryKind; version 7, older files: compute)
//               uint16 push_constant_count
//               uint16 binding_count; binding_count x uint8 access
//                              (BindingAccess: 1 read, 2 write, 3 both,
//                              5 read as a parameter: version 8)
//
// Arguments arrive in registers in order within their kind: the first i64
// argument in i64 register 0, the first ref argument in ref register 0, and so
// on. An instruction is a uint8 Opcode followed by its operands. The opcode
// table below (FERRY_BYTECODE_OPCODES) lists every opcode's operands with
// their kinds (OperandKind: width, encoding and what a reader checks); the
// encoder (bytecode_encoder.h), the loader's decoder (module.cpp) and the
// disassembler (disassembler.h) all walk that one table.
//
// Control flow (version 3): a function's code is a sequence of basic blocks
// laid out back to back; `br` / `br.cond` jump to a target byte offset after
// performing their move list, which is how block arguments are passed (each
// block argument has a register of its own, written by every branch to it).
// Code may only end with an instruction that does not fall through (return,
// fail, br, br.cond). `call` runs a function of the same module in a fresh
// frame of registers: arguments are copied into the callee's argument
// registers as for an invocation, and the callee's `return` values into the
// result registers. The runtime bounds the depth of nested calls
// (runtime/vm/context.h).
//
// A reader must treat every byte as untrusted: it checks the header, the
// checksum, every index against its table, every register against the
// function's register counts, and that code never runs past its end.
#ifndef FERRY_RUNTIME_VM_BYTECODE_FORMAT_H_
#define FERRY_RUNTIME_VM_BYTECODE_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "runtime/hal/executable_abi.h"

namespace ferry::vm::bytecode {

inline constexpr char kMagic[8] = {'F', 'E', 'R', 'R', 'Y', 'V', 'M', '\0'};
// Version 2 added the import table. Version 3 added control flow and
// internal calls (br, br.cond, assert, cmp, select.i64, select.ref, call).
// Version 4 gave every integer op the width it works at (and added the
// rest of arith's integer ops), so older code no longer decodes. Version 5
// added hal.buffer.allocation.claim (version 4 files still load). Version 6
// added the executable table, hal.device.queue.dispatch.entry, the
// constant table and hal.device.constant (versions 4 and 5 still load, with
// no executables and no constants). Version 7 added an entry's kind
// (version 6 entries are all compute kernels). Version 8 added parameter
// bindings (access 5), which a copy kernel's count leaves out.
inline constexpr uint32_t kFormatVersion = 8;
// The first version with an executable table after the function table.
inline constexpr uint32_t kFirstExecutableTableVersion = 6;
// The first version whose entries record their kind.
inline constexpr uint32_t kFirstEntryKindVersion = 7;
// The first version whose bindings may be parameters.
inline constexpr uint32_t kFirstParameterBindingVersion = 8;
inline constexpr size_t kHeaderBytes = 32;
inline constexpr uint16_t kNoRegister = 0xFFFF;
// The module initializer: when a module defines a function of this name (no
// arguments, no results), the runtime runs it once when it binds the module
// to devices, before any other function. Only it may store to globals.
inline constexpr std::string_view kInitializerFunctionName = "__init";
// Globals are i64 slots indexed from 0, zero until the initializer stores.
inline constexpr uint32_t kMaxGlobals = 0x10000;

// An import's name is "module.function": the native module that provides it
// and its function there, split at the first '.', both parts non-empty. The
// loader refuses any other name and the compiler's writer never emits one.
inline constexpr bool isImportName(std::string_view name) {
  size_t dot = name.find('.');
  return dot != std::string_view::npos && dot != 0 && dot + 1 < name.size();
}

// How an import expects to be called.
enum ImportFlags : uint32_t {
  kImportFlagsNone = 0,
  // The coarse-fences ABI: the last two arguments are a wait fence and a
  // signal fence; the callee must not block, may finish asynchronously
  // (signalling or failing the signal fence) and may write its tied outputs
  // in place.
  kImportCoarseFences = 1u << 0,
  // The program may pass one storage as an input and as a tied output (the
  // compiler saw the function declare it, ferry-compile --module); the
  // function bound at run time must declare it too. A function may declare
  // it without the program relying on it.
  kImportTiedMayAlias = 1u << 1,
  // The function may return new results (tied to no operand), which the
  // runtime allocates for it (plugin_api.h result_allocate). With the
  // coarse-fences ABI only: before the two fences the program passes one
  // allocation request per result, kImportResultRequestKinds each: the device
  // to allocate on, the memory types and the buffer usage the compiler
  // resolved for it (runtime/hal/buffer_bits.h); usage 0 (or a null device)
  // for a tied result, which the function writes in place.
  // The function bound at run time does not see the requests: its arguments
  // are the others (Import::calleeArgKinds).
  kImportResultAllocation = 1u << 2,
};
inline constexpr uint32_t kKnownImportFlags =
    kImportCoarseFences | kImportTiedMayAlias | kImportResultAllocation;

enum class RegisterKind : uint8_t {
  kI64 = 0, // integers and index values (sizes, dims, bit masks)
  kRef = 1, // reference-counted runtime objects (devices, buffers, views)
};

// Scalar types a function's i64 arguments and results carry (signature
// reflection, below). An i64 register holds an integer sign-extended from
// its width (i1 as 0 or 1) and a float as its bit pattern, sign-extended
// like an integer of its width.
// X(enumerator, spelling, bits, is float)
#define FERRY_BYTECODE_SCALAR_TYPES(X)                                         \
  X(kI1, "i1", 1, false)                                                       \
  X(kI8, "i8", 8, false)                                                       \
  X(kI16, "i16", 16, false)                                                    \
  X(kI32, "i32", 32, false)                                                    \
  X(kI64, "i64", 64, false)                                                    \
  X(kIndex, "index", 64, false)                                                \
  X(kF16, "f16", 16, true)                                                     \
  X(kBF16, "bf16", 16, true)                                                   \
  X(kF32, "f32", 32, true)                                                     \
  X(kF64, "f64", 64, true)

enum class ScalarType : uint8_t {
#define FERRY_X(name, spelling, bits, is_float) name,
  FERRY_BYTECODE_SCALAR_TYPES(FERRY_X)
#undef FERRY_X
};

inline constexpr std::string_view scalarTypeName(ScalarType type) {
  switch (type) {
#define FERRY_X(name, spelling, bits, is_float)                                \
  case ScalarType::name:                                                       \
    return spelling;
    FERRY_BYTECODE_SCALAR_TYPES(FERRY_X)
#undef FERRY_X
  }
  return "?";
}

inline constexpr unsigned scalarTypeBits(ScalarType type) {
  switch (type) {
#define FERRY_X(name, spelling, bits, is_float)                                \
  case ScalarType::name:                                                       \
    return bits;
    FERRY_BYTECODE_SCALAR_TYPES(FERRY_X)
#undef FERRY_X
  }
  return 0;
}

inline constexpr bool isFloatScalarType(ScalarType type) {
  switch (type) {
#define FERRY_X(name, spelling, bits, is_float)                                \
  case ScalarType::name:                                                       \
    return is_float;
    FERRY_BYTECODE_SCALAR_TYPES(FERRY_X)
#undef FERRY_X
  }
  return false;
}

inline constexpr std::optional<ScalarType>
parseScalarType(std::string_view text) {
#define FERRY_X(name, spelling, bits, is_float)                                \
  if (text == spelling)                                                        \
    return ScalarType::name;
  FERRY_BYTECODE_SCALAR_TYPES(FERRY_X)
#undef FERRY_X
  return std::nullopt;
}

// Signature reflection (additive: no format version of its own, older
// loaders ignore it). A function whose signature has an i64 argument or
// result records the types of all of them as one string of the string
// table:
//   kSignatureReflectionPrefix, the function's name, '\0', then
//   "T,T,...->T,T,..." with one entry per argument / result in order: a
//   scalar type name (FERRY_BYTECODE_SCALAR_TYPES) for an i64 register,
//   "ref" for a ref register.
// The loader checks each such string names a function of the module, once,
// with as many entries as it has arguments and results, each of its
// register kind (Function::argTypes). A function without one takes and
// returns untyped i64s.
inline constexpr std::string_view kSignatureReflectionPrefix{
    "\0ferry.signature\0", 17};
inline constexpr std::string_view kReflectionRefType = "ref";

// The registers of one result allocation request (kImportResultAllocation):
// device, memory types, buffer usage.
inline constexpr RegisterKind kImportResultRequestKinds[] = {
    RegisterKind::kRef, RegisterKind::kI64, RegisterKind::kI64};

// What an operand is, which fixes how it is encoded and what a reader checks.
// Scalar operands decode to one int64 each; a list decodes to its count
// followed by its elements, each element as its fields in order.
// X(enumerator, notation, encoding)
#define FERRY_BYTECODE_OPERAND_KINDS(X)                                        \
  X(kI64Register, "i", "uint16 i64 register")                                  \
  X(kRefRegister, "r", "uint16 ref register")                                  \
  X(kOptionalRefRegister, "r?",                                                \
    "uint16 ref register, or kNoRegister for an absent ref")                   \
  X(kU32, "u32", "uint32 immediate")                                           \
  X(kI64, "i64", "int64 immediate")                                            \
  X(kString, "s", "uint32 string table index")                                 \
  X(kDevice, "device", "uint32 device table index")                            \
  X(kImport, "import", "uint32 import table index")                            \
  X(kFunction, "f",                                                            \
    "uint32 function table index (never the module initializer)")              \
  X(kGlobal, "global", "uint32 global index below kMaxGlobals")                \
  X(kExecutable, "executable", "uint32 executable table index")                \
  X(kConstant, "constant", "uint32 constant table index")                      \
  X(kElementType, "type", "uint32 hal::ElementType")                           \
  X(kKernel, "kernel", "uint32 hal built-in kernel")                           \
  X(kCmpPredicate, "predicate", "uint8 CmpPredicate")                          \
  X(kAllocaFlags, "alloca_flags",                                              \
    "uint32 hal::QueueAllocaFlags (runtime/hal/queue_flags.h)")                \
  X(kDeallocaFlags, "dealloca_flags",                                          \
    "uint32 hal::QueueDeallocaFlags (runtime/hal/queue_flags.h)")              \
  X(kPatternBytes, "pattern_bytes", "uint8 fill pattern width: 1, 2, 4 or 8")  \
  X(kValueBits, "value_bits", "uint8 integer width, 1 to 64")                  \
  X(kTarget, "t",                                                              \
    "uint32 branch target: a byte offset into the same function's code that "  \
    "must be the first byte of an instruction (decoded as the index of that "  \
    "instruction)")                                                            \
  X(kI64RegisterList, "i*", "uint16 count, then count x uint16 i64 register")  \
  X(kRefRegisterList, "r*", "uint16 count, then count x uint16 ref register")  \
  X(kArguments, "args",                                                        \
    "uint16 count, then count x (kind:u8 register:u16), kinds equal to the "   \
    "callee's arguments (the preceding import or f operand)")                  \
  X(kResults, "results",                                                       \
    "uint16 count, then count x (kind:u8 register:u16), kinds equal to the "   \
    "callee's results")                                                        \
  X(kReturnValues, "values",                                                   \
    "uint16 count, then count x (kind:u8 register:u16), kinds equal to the "   \
    "function's own results")                                                  \
  X(kMoves, "m",                                                               \
    "uint16 count, then count x (kind:u8 dst:u16 src:u16), both registers of " \
    "that kind. The moves are parallel: every source is read before any "      \
    "destination is written, so a loop may swap block arguments ((a, b) -> "   \
    "(b, a)) without a temporary")

enum class OperandKind : uint8_t {
#define FERRY_X(name, notation, encoding) name,
  FERRY_BYTECODE_OPERAND_KINDS(FERRY_X)
#undef FERRY_X
};

// How an operand kind is laid out in the code.
enum class OperandShape : uint8_t {
  kU8,              // one uint8
  kU16,             // one uint16 (registers)
  kU32,             // one uint32
  kU64,             // one uint64
  kRegisterList,    // uint16 count, count x uint16
  kKindedRegisters, // uint16 count, count x (uint8, uint16)
  kMoves,           // uint16 count, count x (uint8, uint16, uint16)
};

inline constexpr OperandShape operandShape(OperandKind kind) {
  switch (kind) {
  case OperandKind::kI64Register:
  case OperandKind::kRefRegister:
  case OperandKind::kOptionalRefRegister:
    return OperandShape::kU16;
  case OperandKind::kCmpPredicate:
  case OperandKind::kPatternBytes:
  case OperandKind::kValueBits:
    return OperandShape::kU8;
  case OperandKind::kI64:
    return OperandShape::kU64;
  case OperandKind::kI64RegisterList:
  case OperandKind::kRefRegisterList:
    return OperandShape::kRegisterList;
  case OperandKind::kArguments:
  case OperandKind::kResults:
  case OperandKind::kReturnValues:
    return OperandShape::kKindedRegisters;
  case OperandKind::kMoves:
    return OperandShape::kMoves;
  default:
    return OperandShape::kU32;
  }
}

inline constexpr std::string_view operandKindNotation(OperandKind kind) {
  switch (kind) {
#define FERRY_X(name, notation, encoding)                                      \
  case OperandKind::name:                                                      \
    return notation;
    FERRY_BYTECODE_OPERAND_KINDS(FERRY_X)
#undef FERRY_X
  }
  return "?";
}

inline constexpr std::string_view operandKindEncoding(OperandKind kind) {
  switch (kind) {
#define FERRY_X(name, notation, encoding)                                      \
  case OperandKind::name:                                                      \
    return encoding;
    FERRY_BYTECODE_OPERAND_KINDS(FERRY_X)
#undef FERRY_X
  }
  return "?";
}

// One operand of an opcode's layout: its kind and its name (used in loader
// errors and by the disassembler).
struct OperandSpec {
  OperandKind kind;
  std::string_view name;
};

// Shorthands for the opcode table, one per operand kind.
namespace operands {
#define FERRY_X(name, notation, encoding)                                      \
  constexpr OperandSpec name(std::string_view operandName) {                   \
    return {OperandKind::name, operandName};                                   \
  }
FERRY_BYTECODE_OPERAND_KINDS(FERRY_X)
#undef FERRY_X
} // namespace operands

// Every opcode: its value, mnemonic, a note on what it does, and its
// operands in encoding order.
// X(enumerator, value, mnemonic, note, operands...)
#define FERRY_BYTECODE_OPCODES(X)                                              \
  /* Scalar integers. An i64 register holds an integer of 1 to 64 bits,  */    \
  /* i1 as 0 or 1, wider ones sign-extended; each integer op works at   */     \
  /* its `bits` width and wraps there like MLIR's arith                */      \
  /* (runtime/vm/integer_ops.h).                                         */    \
  X(kConstI64, 0x01, "const.i64", "", kI64Register("dst"), kI64("value"))      \
  X(kAddI, 0x02, "add.i", "", kI64Register("dst"), kI64Register("lhs"),        \
    kI64Register("rhs"), kValueBits("bits"))                                   \
  X(kSubI, 0x03, "sub.i", "", kI64Register("dst"), kI64Register("lhs"),        \
    kI64Register("rhs"), kValueBits("bits"))                                   \
  X(kMulI, 0x04, "mul.i", "", kI64Register("dst"), kI64Register("lhs"),        \
    kI64Register("rhs"), kValueBits("bits"))                                   \
  X(kDivSI, 0x05, "div.s.i", "fails on a zero divisor", kI64Register("dst"),   \
    kI64Register("lhs"), kI64Register("rhs"), kValueBits("bits"))              \
  X(kAndI, 0x06, "and.i", "", kI64Register("dst"), kI64Register("lhs"),        \
    kI64Register("rhs"), kValueBits("bits"))                                   \
  X(kOrI, 0x07, "or.i", "", kI64Register("dst"), kI64Register("lhs"),          \
    kI64Register("rhs"), kValueBits("bits"))                                   \
  X(kCmpI, 0x08, "cmp.i", "dst = 1 when the predicate holds, else 0",          \
    kI64Register("dst"), kCmpPredicate("predicate"), kI64Register("lhs"),      \
    kI64Register("rhs"), kValueBits("bits"))                                   \
  X(kSelectI64, 0x09, "select.i64", "a nonzero condition picks true",          \
    kI64Register("dst"), kI64Register("condition"), kI64Register("true"),      \
    kI64Register("false"))                                                     \
  X(kSelectRef, 0x0A, "select.ref", "a nonzero condition picks true",          \
    kRefRegister("dst"), kI64Register("condition"), kRefRegister("true"),      \
    kRefRegister("false"))                                                     \
  X(kXorI, 0x0B, "xor.i", "", kI64Register("dst"), kI64Register("lhs"),        \
    kI64Register("rhs"), kValueBits("bits"))                                   \
  X(kDivUI, 0x0C, "div.u.i", "fails on a zero divisor", kI64Register("dst"),   \
    kI64Register("lhs"), kI64Register("rhs"), kValueBits("bits"))              \
  X(kRemSI, 0x0D, "rem.s.i", "fails on a zero divisor", kI64Register("dst"),   \
    kI64Register("lhs"), kI64Register("rhs"), kValueBits("bits"))              \
  X(kRemUI, 0x0E, "rem.u.i", "fails on a zero divisor", kI64Register("dst"),   \
    kI64Register("lhs"), kI64Register("rhs"), kValueBits("bits"))              \
  X(kCeilDivSI, 0x70, "ceildiv.s.i", "fails on a zero divisor",                \
    kI64Register("dst"), kI64Register("lhs"), kI64Register("rhs"),             \
    kValueBits("bits"))                                                        \
  X(kCeilDivUI, 0x71, "ceildiv.u.i", "fails on a zero divisor",                \
    kI64Register("dst"), kI64Register("lhs"), kI64Register("rhs"),             \
    kValueBits("bits"))                                                        \
  X(kFloorDivSI, 0x72, "floordiv.s.i", "fails on a zero divisor",              \
    kI64Register("dst"), kI64Register("lhs"), kI64Register("rhs"),             \
    kValueBits("bits"))                                                        \
  X(kShlI, 0x73, "shl.i", "a shift by bits or more gives 0",                   \
    kI64Register("dst"), kI64Register("lhs"), kI64Register("rhs"),             \
    kValueBits("bits"))                                                        \
  X(kShrSI, 0x74, "shr.s.i", "a shift by bits or more fills with the sign",    \
    kI64Register("dst"), kI64Register("lhs"), kI64Register("rhs"),             \
    kValueBits("bits"))                                                        \
  X(kShrUI, 0x75, "shr.u.i", "a shift by bits or more gives 0",                \
    kI64Register("dst"), kI64Register("lhs"), kI64Register("rhs"),             \
    kValueBits("bits"))                                                        \
  X(kMinSI, 0x76, "min.s.i", "", kI64Register("dst"), kI64Register("lhs"),     \
    kI64Register("rhs"), kValueBits("bits"))                                   \
  X(kMaxSI, 0x77, "max.s.i", "", kI64Register("dst"), kI64Register("lhs"),     \
    kI64Register("rhs"), kValueBits("bits"))                                   \
  X(kMinUI, 0x78, "min.u.i", "", kI64Register("dst"), kI64Register("lhs"),     \
    kI64Register("rhs"), kValueBits("bits"))                                   \
  X(kMaxUI, 0x79, "max.u.i", "", kI64Register("dst"), kI64Register("lhs"),     \
    kI64Register("rhs"), kValueBits("bits"))                                   \
  X(kExtSI, 0x7A, "ext.s.i", "the signed value of a from_bits integer",        \
    kI64Register("dst"), kI64Register("src"), kValueBits("from_bits"))         \
  X(kExtUI, 0x7B, "ext.u.i", "the unsigned value of a from_bits integer",      \
    kI64Register("dst"), kI64Register("src"), kValueBits("from_bits"))         \
  X(kTruncI, 0x7C, "trunc.i", "the low bits of src, as a bits-wide integer",   \
    kI64Register("dst"), kI64Register("src"), kValueBits("bits"))              \
  /* Control. */                                                               \
  X(kReturn, 0x10, "return", "", kReturnValues("values"))                      \
  X(kFail, 0x11, "fail", "fails the call with the message",                    \
    kString("message"))                                                        \
  X(kBranch, 0x12, "br", "", kTarget("target"), kMoves("moves"))               \
  X(kCondBranch, 0x13, "br.cond", "a nonzero condition takes the true edge",   \
    kI64Register("condition"), kTarget("true_target"), kMoves("true_moves"),   \
    kTarget("false_target"), kMoves("false_moves"))                            \
  X(kAssert, 0x14, "assert", "fails with the message when condition is 0",     \
    kI64Register("condition"), kString("message"))                             \
  /* HAL: devices, views, buffers. */                                          \
  X(kDeviceGet, 0x20, "hal.device.get", "", kRefRegister("dst"),               \
    kDevice("device"))                                                         \
  X(kBufferViewDim, 0x21, "hal.buffer_view.dim", "", kI64Register("dst"),      \
    kRefRegister("view"), kU32("index"))                                       \
  X(kBufferViewAssert, 0x22, "hal.buffer_view.assert",                         \
    "fails with the message unless the view has this type and shape",          \
    kRefRegister("view"), kElementType("element_type"),                        \
    kI64RegisterList("dim"), kString("message"))                               \
  X(kBufferViewBuffer, 0x23, "hal.buffer_view.buffer", "",                     \
    kRefRegister("dst"), kRefRegister("view"))                                 \
  X(kBufferViewCreate, 0x24, "hal.buffer_view.create", "",                     \
    kRefRegister("dst"), kRefRegister("buffer"), kElementType("element_type"), \
    kI64RegisterList("dim"))                                                   \
  X(kBufferLength, 0x25, "hal.buffer.length", "", kI64Register("dst"),         \
    kRefRegister("buffer"))                                                    \
  /* HAL: fences and queue operations. */                                      \
  X(kFenceCreate, 0x30, "hal.fence.create", "", kRefRegister("dst"),           \
    kRefRegister("device"))                                                    \
  X(kFenceAwait, 0x31, "hal.fence.await", "", kRefRegisterList("fence"))       \
  X(kQueueAlloca, 0x32, "hal.device.queue.alloca", "", kRefRegister("dst"),    \
    kRefRegister("device"), kOptionalRefRegister("wait"),                      \
    kRefRegister("signal"), kI64Register("memory_type"),                       \
    kI64Register("usage"), kI64Register("size"), kAllocaFlags("flags"))        \
  X(kQueueDealloca, 0x33, "hal.device.queue.dealloca", "",                     \
    kRefRegister("device"), kOptionalRefRegister("wait"),                      \
    kRefRegister("signal"), kRefRegister("buffer"), kDeallocaFlags("flags"))   \
  X(kQueueDispatch, 0x34, "hal.device.queue.dispatch",                         \
    "bindings are the kernel's inputs, then its output",                       \
    kRefRegister("device"), kOptionalRefRegister("wait"),                      \
    kRefRegister("signal"), kKernel("kernel"), kElementType("element_type"),   \
    kI64Register("count"), kRefRegisterList("binding"))                        \
  X(kFenceJoin, 0x35, "hal.fence.join",                                        \
    "signalled when all are; fails if any fails", kRefRegister("dst"),         \
    kRefRegisterList("fence"))                                                 \
  X(kQueueFill, 0x36, "hal.device.queue.fill", "", kRefRegister("device"),     \
    kOptionalRefRegister("wait"), kRefRegister("signal"),                      \
    kRefRegister("target"), kI64Register("offset"), kI64Register("length"),    \
    kI64Register("pattern"), kPatternBytes("pattern_bytes"))                   \
  X(kQueueCopy, 0x37, "hal.device.queue.copy", "", kRefRegister("device"),     \
    kOptionalRefRegister("wait"), kRefRegister("signal"),                      \
    kRefRegister("source"), kI64Register("source_offset"),                     \
    kRefRegister("target"), kI64Register("target_offset"),                     \
    kI64Register("length"))                                                    \
  X(kQueueDeallocaIf, 0x38, "hal.device.queue.dealloca.if",                    \
    "when the condition is 0 it only orders the timeline, like a barrier",     \
    kRefRegister("device"), kOptionalRefRegister("wait"),                      \
    kRefRegister("signal"), kRefRegister("buffer"), kDeallocaFlags("flags"),   \
    kI64Register("condition"))                                                 \
  X(kQueueDispatchEntry, 0x39, "hal.device.queue.dispatch.entry",              \
    "runs an executable's entry over a workgroups_x*y*z grid; the three "      \
    "binding lists match the entry's bindings and push_constant its count",    \
    kRefRegister("device"), kOptionalRefRegister("wait"),                      \
    kRefRegister("signal"), kExecutable("executable"), kU32("entry"),          \
    kI64Register("workgroups_x"), kI64Register("workgroups_y"),                \
    kI64Register("workgroups_z"), kI64RegisterList("push_constant"),           \
    kRefRegisterList("binding"), kI64RegisterList("binding_offset"),           \
    kI64RegisterList("binding_length"))                                        \
  /* Device queries, allocation device choice and module globals. */           \
  X(kDeviceQuery, 0x40, "hal.device.query",                                    \
    "value: the answer or default, truncated to value_bits, sign-extended",    \
    kI64Register("ok"), kI64Register("value"), kRefRegister("device"),         \
    kString("category"), kString("key"), kI64("default"),                      \
    kValueBits("value_bits"))                                                  \
  X(kAllocatorSelect, 0x41, "hal.allocator.select",                            \
    "the device to allocate a buffer shared by all on (at least one; see "     \
    "runtime/vm/context.cpp)",                                                 \
    kRefRegister("dst"), kRefRegisterList("device"))                           \
  X(kGlobalLoadI64, 0x42, "global.load.i64", "", kI64Register("dst"),          \
    kGlobal("global"))                                                         \
  X(kGlobalStoreI64, 0x43, "global.store.i64", "only in the initializer",      \
    kGlobal("global"), kI64Register("value"))                                  \
  X(kDeviceImportBuffer, 0x44, "hal.device.import_buffer",                     \
    "the buffer itself where the device reaches its memory, else exported as " \
    "an opaque fd and imported (runtime/hal/buffer_import.h)",                 \
    kRefRegister("dst"), kRefRegister("device"), kRefRegister("buffer"),       \
    kOptionalRefRegister("wait"))                                              \
  X(kDeviceConstant, 0x45, "hal.device.constant",                              \
    "the module's read-only copy of a constant as a buffer of device (no "     \
    "write or export usage; runtime/hal/allocator.h wrapConstant)",            \
    kRefRegister("dst"), kRefRegister("device"), kConstant("constant"))        \
  /* Calls. */                                                                 \
  X(kCallImport, 0x50, "call.import", "", kImport("import"),                   \
    kArguments("arguments"), kResults("results"))                              \
  X(kCall, 0x51, "call", "runs a function of the module in a fresh frame",     \
    kFunction("function"), kArguments("arguments"), kResults("results"))       \
  /* Buffer ownership (who must free), separate from references. */            \
  X(kBufferPreserve, 0x60, "hal.buffer.allocation.preserve", "adds an owner",  \
    kRefRegister("buffer"))                                                    \
  X(kBufferDiscard, 0x61, "hal.buffer.allocation.discard",                     \
    "dst = 1 when this removed the last owner", kI64Register("dst"),           \
    kRefRegister("buffer"))                                                    \
  X(kBufferIsTerminal, 0x62, "hal.buffer.allocation.is_terminal",              \
    "dst = 1 when the caller is the only owner", kI64Register("dst"),          \
    kRefRegister("buffer"))                                                    \
  X(kBufferClaim, 0x63, "hal.buffer.allocation.claim",                         \
    "dst = buffer when the caller is its only owner, else a copy on device "   \
    "the caller alone owns (runtime/hal/buffer_claim.h)",                      \
    kRefRegister("dst"), kRefRegister("device"), kRefRegister("buffer"))       \
  /* Host reads. */                                                            \
  X(kBufferLoad, 0x64, "hal.buffer.load",                                      \
    "dst = the element of type at byte offset (sign-extended; a float as its " \
    "bit pattern), mapped, or staged through host memory on the device that "  \
    "allocated the buffer; an offset out of bounds fails",                     \
    kI64Register("dst"), kRefRegister("buffer"), kI64Register("offset"),       \
    kElementType("type"))

enum class Opcode : uint8_t {
#define FERRY_X(name, value, mnemonic, note, ...) name = value,
  FERRY_BYTECODE_OPCODES(FERRY_X)
#undef FERRY_X
};

// An opcode's row of the table.
struct OpcodeInfo {
  Opcode opcode;
  std::string_view mnemonic;
  std::string_view note;
  std::span<const OperandSpec> operands;
};

namespace detail {
using namespace operands;
#define FERRY_X(name, value, mnemonic, note, ...)                              \
  inline constexpr OperandSpec name##Operands[] = {__VA_ARGS__};               \
  inline constexpr OpcodeInfo name##Info = {Opcode::name, mnemonic, note,      \
                                            name##Operands};
FERRY_BYTECODE_OPCODES(FERRY_X)
#undef FERRY_X
} // namespace detail

// The table row of a raw opcode byte, or null for a value no opcode has.
inline constexpr const OpcodeInfo *lookupOpcode(uint8_t value) {
  switch (value) {
#define FERRY_X(name, v, mnemonic, note, ...)                                  \
  case v:                                                                      \
    return &detail::name##Info;
    FERRY_BYTECODE_OPCODES(FERRY_X)
#undef FERRY_X
  }
  return nullptr;
}

// Every opcode's row, in table order.
inline constexpr const OpcodeInfo *kOpcodeTable[] = {
#define FERRY_X(name, value, mnemonic, note, ...) &detail::name##Info,
    FERRY_BYTECODE_OPCODES(FERRY_X)
#undef FERRY_X
};

inline constexpr const OpcodeInfo &opcodeInfo(Opcode opcode) {
  return *lookupOpcode(uint8_t(opcode));
}

inline constexpr std::string_view opcodeMnemonic(Opcode opcode) {
  const OpcodeInfo *info = lookupOpcode(uint8_t(opcode));
  return info ? info->mnemonic : "<unknown opcode>";
}

inline constexpr bool isKnownOpcode(uint8_t value) {
  return lookupOpcode(value) != nullptr;
}

// The predicate:u8 of cmp.i, which compares its operands' signed or unsigned
// values at its width (i1's true is -1 in signed order).
// X(enumerator, value, spelling)
#define FERRY_CMP_PREDICATES(X)                                                \
  X(kEq, 0, "eq")                                                              \
  X(kNe, 1, "ne")                                                              \
  X(kSlt, 2, "slt")                                                            \
  X(kSle, 3, "sle")                                                            \
  X(kSgt, 4, "sgt")                                                            \
  X(kSge, 5, "sge")                                                            \
  X(kUlt, 6, "ult")                                                            \
  X(kUle, 7, "ule")                                                            \
  X(kUgt, 8, "ugt")                                                            \
  X(kUge, 9, "uge")

enum class CmpPredicate : uint8_t {
#define FERRY_X(name, value, spelling) name = value,
  FERRY_CMP_PREDICATES(FERRY_X)
#undef FERRY_X
};

// The predicate's spelling (arith's), or null for a value no predicate has.
inline constexpr const char *cmpPredicateSpelling(uint8_t value) {
  switch (value) {
#define FERRY_X(name, v, spelling)                                             \
  case v:                                                                      \
    return spelling;
    FERRY_CMP_PREDICATES(FERRY_X)
#undef FERRY_X
  }
  return nullptr;
}

inline constexpr bool isKnownCmpPredicate(uint8_t value) {
  return cmpPredicateSpelling(value) != nullptr;
}

// kQueueDispatch's kernel:u32 operand carries a hal::BuiltinKernel
// (runtime/hal/builtin_kernels.h).

// How an executable entry uses one binding (Entry's access bytes); the bits
// are the ABI's (runtime/hal/executable_abi.h).
enum BindingAccess : uint8_t {
  kBindingRead = FERRY_BINDING_ACCESS_READ,
  kBindingWrite = FERRY_BINDING_ACCESS_WRITE,
  // Version 8; only with kBindingRead.
  kBindingParameter = FERRY_BINDING_ACCESS_PARAMETER,
};
inline constexpr bool isBindingAccess(uint8_t access) {
  return (access >= 1 && access <= (kBindingRead | kBindingWrite)) ||
         access == (kBindingRead | kBindingParameter);
}

// What an entry does (Entry's kind byte); the values are the ABI's
// (runtime/hal/executable_abi.h).
enum EntryKind : uint8_t {
  kEntryCompute = FERRY_ENTRY_KIND_COMPUTE,
  kEntryCopy = FERRY_ENTRY_KIND_COPY,
};
inline constexpr bool isEntryKind(uint8_t kind) { return kind <= kEntryCopy; }

// Executable image formats (Executable::format).
inline constexpr std::string_view kExecutableFormats[] = {"elf-x86_64",
                                                          "elf-aarch64"};
inline constexpr bool isExecutableFormat(std::string_view format) {
  for (std::string_view known : kExecutableFormats)
    if (format == known)
      return true;
  return false;
}

// An entry's name is the symbol the image exports: a C identifier.
inline constexpr bool isEntryName(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9'))
    return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '_'))
      return false;
  return true;
}

// 64-bit FNV-1a: detects truncation and corruption of the payload.
inline constexpr uint64_t fnv1a64(const uint8_t *data, size_t size) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < size; ++i) {
    hash ^= data[i];
    hash *= 0x100000001b3ull;
  }
  return hash;
}

} // namespace ferry::vm::bytecode

#endif // FERRY_RUNTIME_VM_BYTECODE_FORMAT_H_
