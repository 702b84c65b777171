// ferry-dump refuses what the loader refuses, with the loader's own message
// naming the file and the problem, and exit code 1; it prints nothing else.
// RUN: ferry-compile %s -o %t.fvm
// The code of @f is the last 16 bytes of this 138-byte module (its string
// table ends with @f's signature reflection): its first instruction
// (hal.device.get) starts at byte 122.
// RUN: ferry-dump %t.fvm | FileCheck %s --check-prefix=GOOD
// GOOD: 0000  hal.device.get dst=r0 device=@dev

// A truncated file.
// RUN: head -c 60 %t.fvm > %t.truncated.fvm
// RUN: not ferry-dump %t.truncated.fvm > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=TRUNCATED < %t.out
// TRUNCATED: ferry-dump: error: {{.*}}truncated.fvm': module file is truncated: header says 114 payload bytes, file has 28
// TRUNCATED-NOT: module:

// A corrupt payload the checksum catches.
// RUN: %python %S/../patch_bytes.py %t.fvm %t.corrupt.fvm 122=0xee
// RUN: not ferry-dump %t.corrupt.fvm 2>&1 | FileCheck %s --check-prefix=CHECKSUM
// CHECKSUM: ferry-dump: error: {{.*}}corrupt.fvm': module file is corrupt: payload checksum mismatch

// A corrupt payload with a valid checksum: the verifier names the byte.
// RUN: %python %S/../patch_bytes.py %t.fvm %t.resealed.fvm --reseal 122=0xee
// RUN: not ferry-dump %t.resealed.fvm 2>&1 | FileCheck %s --check-prefix=OPCODE
// OPCODE: ferry-dump: error: {{.*}}resealed.fvm': invalid module: function 'f' at code offset 0: unknown opcode 0xee
// RUN: %python %S/../patch_bytes.py %t.fvm %t.register.fvm --reseal 123=0x07
// RUN: not ferry-dump %t.register.fvm 2>&1 | FileCheck %s --check-prefix=REGISTER
// REGISTER: ferry-dump: error: {{.*}}: invalid module: function 'f' at code offset 0: hal.device.get: dst: ref register 7 is out of range (the function has 1)

// Not a module, a missing file, and bad command lines.
// RUN: not ferry-dump %s 2>&1 | FileCheck %s --check-prefix=FOREIGN
// FOREIGN: ferry-dump: error: {{.*}}errors.mlir': not a Ferry module
// RUN: not ferry-dump %t.missing.fvm 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: ferry-dump: error: {{.*}}missing.fvm
// RUN: not ferry-dump 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: ferry-dump: error: no module given
// RUN: not ferry-dump --bogus %t.fvm 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: ferry-dump: error: unknown option '--bogus'
// RUN: not ferry-dump %t.fvm %t.fvm 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: ferry-dump: error: more than one module given

hal.device.global @dev = #hal.device.target<"local", {}>
func.func @f(%a: index) -> (index, !hal.device) {
  %d = hal.device.get @dev : !hal.device
  return %a, %d : index, !hal.device
}
