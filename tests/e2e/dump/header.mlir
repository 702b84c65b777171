// ferry-dump's first line is the module header: format version, payload size
// and checksum (what the loader verified). The payload size is the file size
// less the 32-byte header.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-dump %t.fvm | FileCheck %s
// RUN: wc -c < %t.fvm | FileCheck %s --check-prefix=SIZE
// CHECK: {{^}}module: format version 8, 114 payload bytes, checksum 0x{{[0-9a-f]+$}}
// SIZE: {{^ *}}146{{$}}

// --help explains the tool; --instruction-set prints the opcode table.
// RUN: ferry-dump --help | FileCheck %s --check-prefix=HELP
// HELP: Usage: ferry-dump MODULE.fvm
// HELP: --instruction-set
// RUN: ferry-dump --instruction-set | FileCheck %s --check-prefix=SET
// SET:      Ferry bytecode, format version 8
// SET:      0x01 const.i64 dst:i value:i64
// SET:      0x32 hal.device.queue.alloca dst:r device:r wait:r? signal:r memory_type:i usage:i size:i flags:alloca_flags
// SET:      0x39 hal.device.queue.dispatch.entry device:r wait:r? signal:r executable:executable entry:u32 workgroups_x:i workgroups_y:i workgroups_z:i push_constant:i* binding:r* binding_offset:i* binding_length:i*
// SET:      Operand kinds:
// SET:      r?: uint16 ref register, or kNoRegister for an absent ref

hal.device.global @dev = #hal.device.target<"local", {}>
func.func @f(%a: index) -> (index, !hal.device) {
  %d = hal.device.get @dev : !hal.device
  return %a, %d : index, !hal.device
}
