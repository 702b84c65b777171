// A loop of blocks: cf.br / cf.cond_br become br / br.cond whose moves write
// the target block's argument registers, with byte-offset targets; arith.cmpi
// becomes cmp.i64 with its predicate. Blocks are laid out in reverse
// post-order: entry, header, exit, body.
// RUN: ferry-compile %s -o %t.fvm
// RUN: od -A n -t x1 -v %t.fvm | tr -d '\n' | tr -s ' ' | FileCheck %s

// Format version 3.
// CHECK: 46 45 52 52 59 56 4d 00 03 00 00 00
// (index) -> (index), 7 i64 registers: n 0, block arguments %i 1 and %r 2,
// then %c0 3, %c1 4, %lt 5, %next 6. 87 bytes of code.
// CHECK-SAME: 01 00 00 01 00 00 07 00 00 00 57 00 00 00
// Entry (offset 0): const.i64 r3 = 0; const.i64 r4 = 1;
// CHECK-SAME: 01 03 00 00 00 00 00 00 00 00 00 01 04 00 01 00 00 00 00 00 00 00
// br to offset 34 (0x22) moving r1 <- r3.
// CHECK-SAME: 12 22 00 00 00 01 00 00 01 00 03 00
// Header (34): cmp.i64 r5 = slt(2) r1, r0;
// CHECK-SAME: 08 05 00 02 01 00 00 00
// br.cond r5: true to the body at 68 (0x44) with no moves, false to the exit
// at 62 (0x3e) moving r2 <- r1.
// CHECK-SAME: 13 05 00 44 00 00 00 00 00 3e 00 00 00 01 00 00 02 00 01 00
// Exit (62): return r2.
// CHECK-SAME: 10 01 00 00 02 00
// Body (68): add.i64 r6 = r1 + r4; br to the header moving r1 <- r6.
// CHECK-SAME: 02 06 00 01 00 04 00 12 22 00 00 00 01 00 00 01 00 06 00{{ *$}}

func.func @loop(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^header(%c0 : index)
^header(%i: index):
  %lt = arith.cmpi slt, %i, %n : index
  cf.cond_br %lt, ^body, ^exit(%i : index)
^body:
  %next = arith.addi %i, %c1 : index
  cf.br ^header(%next : index)
^exit(%r: index):
  return %r : index
}
