// Disassembler: a loaded module (module.h) as text, for ferry-dump and for
// tests that check what the compiler wrote.
//
// It prints what the loader decoded, walking the same opcode table
// (bytecode_format.h), so a module that does not load is never printed:
// callers get the loader's own error instead. Output:
//
//   module: format version 3, 67 payload bytes, checksum 0x...
//   strings (2):
//     [0] "dev"
//   devices (1):
//     [0] @dev
//   imports (1):
//     [0] @Ext.fn(i64) -> (i64) flags=coarse_fences
//   functions (1):
//     [0] @f(i64) -> (i64, ref) registers=1 i64, 1 ref code=16 bytes
//       0000  hal.device.get dst=r0 device=@dev
//       0007  return values=(i0, r0)
//   executables (1):
//     [0] @dispatch_0 format=elf-x86_64 cpu_features="avx,avx2" image=9 bytes
//       entry [0] @dispatch_0_add push_constants=1 bindings=(read, write)
//
// Instructions start with their byte offset in the function's code; branch
// targets print as ^OFFSET of the instruction they jump to.
//
// Ownership/threads: pure functions of their arguments.
#ifndef FERRY_RUNTIME_VM_DISASSEMBLER_H_
#define FERRY_RUNTIME_VM_DISASSEMBLER_H_

#include <string>

#include "runtime/vm/module.h"

namespace ferry::vm {

// The whole module: header, tables and every function's instructions.
std::string disassemble(const Module &module);

// One instruction of `function` (no offset, no newline).
std::string disassembleInstruction(const Module &module,
                                   const Function &function,
                                   const Instruction &instruction);

// The instruction set, from the opcode table: every opcode with its value,
// operands (name:kind) and note, then what each operand kind encodes.
std::string describeInstructionSet();

} // namespace ferry::vm

#endif // FERRY_RUNTIME_VM_DISASSEMBLER_H_
