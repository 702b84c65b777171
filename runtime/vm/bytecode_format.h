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
//
// Arguments arrive in registers in order within their kind: the first i64
// argument in i64 register 0, the first ref argument in ref register 0, and so
// on. An instruction is a uint8 Opcode followed by its operands as listed
// below, where:
//   i   uint16 i64 register       r   uint16 ref register
//   r?  uint16 ref register or kNoRegister (an absent, optional ref)
//   u8 / u16 / u32 / i64  immediates of that width
//   s   uint32 string table index
//   t   uint32 branch target: a byte offset into the same function's code
//       that must be the first byte of an instruction
//   f   uint32 function table index
//   m   a move list: uint16 count, then count x (kind:u8 dst:u16 src:u16),
//       dst and src registers of that kind. The moves are parallel: every
//       source is read before any destination is written, so a loop may
//       swap block arguments ((a, b) -> (b, a)) without a temporary.
// Queue alloca/dealloca flags:u32 operands carry runtime/hal/queue_flags.h.
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
#include <string_view>

namespace ferry::vm::bytecode {

inline constexpr char kMagic[8] = {'F', 'E', 'R', 'R', 'Y', 'V', 'M', '\0'};
// Version 2 added the import table. Version 3 added control flow and
// internal calls (br, br.cond, assert, cmp.i64, select.i64, select.ref,
// call); a version 2 file is still valid version 3 code.
inline constexpr uint32_t kFormatVersion = 3;
inline constexpr size_t kHeaderBytes = 32;
inline constexpr uint16_t kNoRegister = 0xFFFF;
// The module initializer: when a module defines a function of this name (no
// arguments, no results), the runtime runs it once when it binds the module
// to devices, before any other function. Only it may store to globals.
inline constexpr std::string_view kInitializerFunctionName = "__init";
// Globals are i64 slots indexed from 0, zero until the initializer stores.
inline constexpr uint32_t kMaxGlobals = 0x10000;

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
};
inline constexpr uint32_t kKnownImportFlags =
    kImportCoarseFences | kImportTiedMayAlias;

enum class RegisterKind : uint8_t {
  kI64 = 0, // integers and index values (sizes, dims, bit masks)
  kRef = 1, // reference-counted runtime objects (devices, buffers, views)
};

// X(enumerator, value, mnemonic, operand layout)
#define FERRY_BYTECODE_OPCODES(X)                                              \
  /* Scalar arithmetic on i64 registers. */                                    \
  X(kConstI64, 0x01, "const.i64", "dst:i value:i64")                           \
  X(kAddI64, 0x02, "add.i64", "dst:i lhs:i rhs:i")                             \
  X(kSubI64, 0x03, "sub.i64", "dst:i lhs:i rhs:i")                             \
  X(kMulI64, 0x04, "mul.i64", "dst:i lhs:i rhs:i")                             \
  X(kDivSI64, 0x05, "div.s.i64", "dst:i lhs:i rhs:i (fails on zero)")          \
  X(kAndI64, 0x06, "and.i64", "dst:i lhs:i rhs:i")                             \
  X(kOrI64, 0x07, "or.i64", "dst:i lhs:i rhs:i")                               \
  X(kCmpI64, 0x08, "cmp.i64",                                                  \
    "dst:i predicate:u8 lhs:i rhs:i (CmpPredicate; dst = 1 or 0)")             \
  X(kSelectI64, 0x09, "select.i64",                                            \
    "dst:i condition:i true:i false:i (condition nonzero picks true)")         \
  X(kSelectRef, 0x0A, "select.ref",                                            \
    "dst:r condition:i true:r false:r (condition nonzero picks true)")         \
  /* Control. */                                                               \
  X(kReturn, 0x10, "return", "count:u16 then count x (kind:u8 reg:u16)")       \
  X(kFail, 0x11, "fail", "message:s")                                          \
  X(kBranch, 0x12, "br", "target:t moves:m")                                   \
  X(kCondBranch, 0x13, "br.cond",                                              \
    "condition:i true_target:t true_moves:m false_target:t false_moves:m "     \
    "(condition nonzero takes the true edge)")                                 \
  X(kAssert, 0x14, "assert",                                                   \
    "condition:i message:s (fails with the message when condition is 0)")      \
  /* HAL: devices, views, buffers. */                                          \
  X(kDeviceGet, 0x20, "hal.device.get", "dst:r device:u32 (device table)")     \
  X(kBufferViewDim, 0x21, "hal.buffer_view.dim", "dst:i view:r index:u32")     \
  X(kBufferViewAssert, 0x22, "hal.buffer_view.assert",                         \
    "view:r element_type:u32 rank:u16 rank x dim:i message:s")                 \
  X(kBufferViewBuffer, 0x23, "hal.buffer_view.buffer", "dst:r view:r")         \
  X(kBufferViewCreate, 0x24, "hal.buffer_view.create",                         \
    "dst:r buffer:r element_type:u32 rank:u16 rank x dim:i")                   \
  X(kBufferLength, 0x25, "hal.buffer.length", "dst:i buffer:r")                \
  /* HAL: fences and queue operations. */                                      \
  X(kFenceCreate, 0x30, "hal.fence.create", "dst:r device:r")                  \
  X(kFenceAwait, 0x31, "hal.fence.await", "count:u16 count x fence:r")         \
  X(kQueueAlloca, 0x32, "hal.device.queue.alloca",                             \
    "dst:r device:r wait:r? signal:r memory_type:i usage:i size:i flags:u32")  \
  X(kQueueDealloca, 0x33, "hal.device.queue.dealloca",                         \
    "device:r wait:r? signal:r buffer:r flags:u32")                            \
  X(kQueueDispatch, 0x34, "hal.device.queue.dispatch",                         \
    "device:r wait:r? signal:r kernel:u32 element_type:u32 count:i "           \
    "binding_count:u16 binding_count x buffer:r")                              \
  X(kFenceJoin, 0x35, "hal.fence.join",                                        \
    "dst:r count:u16 count x fence:r (signalled when all are; fails if any "   \
    "fails)")                                                                  \
  X(kQueueFill, 0x36, "hal.device.queue.fill",                                 \
    "device:r wait:r? signal:r target:r offset:i length:i pattern:i "          \
    "pattern_bytes:u8 (1, 2, 4 or 8)")                                         \
  X(kQueueCopy, 0x37, "hal.device.queue.copy",                                 \
    "device:r wait:r? signal:r source:r source_offset:i target:r "             \
    "target_offset:i length:i")                                                \
  X(kQueueDeallocaIf, 0x38, "hal.device.queue.dealloca.if",                    \
    "device:r wait:r? signal:r buffer:r flags:u32 condition:i (when the "      \
    "condition is 0 it only orders the timeline, like a barrier)")             \
  /* Device queries, allocation device choice and module globals. */           \
  X(kDeviceQuery, 0x40, "hal.device.query",                                    \
    "ok:i value:i device:r category:s key:s default:i64 value_bits:u8 "        \
    "(value: the answer or default, truncated to value_bits, sign-extended)")  \
  X(kAllocatorSelect, 0x41, "hal.allocator.select",                            \
    "dst:r count:u16 count x device:r (the device to allocate a buffer "       \
    "shared by all on; see runtime/vm/context.cpp)")                           \
  X(kGlobalLoadI64, 0x42, "global.load.i64", "dst:i global:u32")               \
  X(kGlobalStoreI64, 0x43, "global.store.i64",                                 \
    "global:u32 value:i (only in the initializer)")                            \
  X(kDeviceImportBuffer, 0x44, "hal.device.import_buffer",                     \
    "dst:r device:r buffer:r wait:r? (the buffer itself where the device "     \
    "reaches its memory, else exported as an opaque fd and imported; see "     \
    "runtime/hal/buffer_import.h)")                                            \
  /* Calls. */                                                                 \
  X(kCallImport, 0x50, "call.import",                                          \
    "import:u32 arg_count:u16 arg_count x (kind:u8 reg:u16) result_count:u16 " \
    "result_count x (kind:u8 reg:u16) (kinds must match the import)")          \
  X(kCall, 0x51, "call",                                                       \
    "function:f arg_count:u16 arg_count x (kind:u8 reg:u16) result_count:u16 " \
    "result_count x (kind:u8 reg:u16) (kinds must match the callee's "         \
    "signature)")                                                              \
  /* Buffer ownership (who must free), separate from references. */            \
  X(kBufferPreserve, 0x60, "hal.buffer.allocation.preserve", "buffer:r")       \
  X(kBufferDiscard, 0x61, "hal.buffer.allocation.discard",                     \
    "dst:i buffer:r (dst = 1 when this removed the last owner)")               \
  X(kBufferIsTerminal, 0x62, "hal.buffer.allocation.is_terminal",              \
    "dst:i buffer:r (dst = 1 when the caller is the only owner)")

enum class Opcode : uint8_t {
#define FERRY_X(name, value, mnemonic, layout) name = value,
  FERRY_BYTECODE_OPCODES(FERRY_X)
#undef FERRY_X
};

inline constexpr std::string_view opcodeMnemonic(Opcode opcode) {
  switch (opcode) {
#define FERRY_X(name, value, mnemonic, layout)                                 \
  case Opcode::name:                                                           \
    return mnemonic;
    FERRY_BYTECODE_OPCODES(FERRY_X)
#undef FERRY_X
  }
  return "<unknown opcode>";
}

inline constexpr bool isKnownOpcode(uint8_t value) {
  switch (value) {
#define FERRY_X(name, v, mnemonic, layout)                                     \
  case v:                                                                      \
    return true;
    FERRY_BYTECODE_OPCODES(FERRY_X)
#undef FERRY_X
  }
  return false;
}

// The predicate:u8 of cmp.i64. Registers hold integers sign-extended to 64
// bits (i1 as 0 or 1), which keeps both signed and unsigned order of any
// narrower width, so one comparison serves every integer width. (The one
// exception is the signed order of i1, where true is -1; compilers must not
// emit signed ordering predicates on i1 values.)
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

inline constexpr bool isKnownCmpPredicate(uint8_t value) {
  switch (value) {
#define FERRY_X(name, v, spelling)                                             \
  case v:                                                                      \
    return true;
    FERRY_CMP_PREDICATES(FERRY_X)
#undef FERRY_X
  }
  return false;
}

// kQueueDispatch's kernel:u32 operand carries a hal::BuiltinKernel
// (runtime/hal/builtin_kernels.h).

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
