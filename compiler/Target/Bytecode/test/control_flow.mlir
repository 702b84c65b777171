// A loop of blocks: cf.br / cf.cond_br become br / br.cond whose moves write
// the target block's argument registers, with byte-offset targets; arith.cmpi
// becomes cmp.i with its predicate and width. Blocks are laid out in reverse
// post-order: entry, header, exit, body.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-dump %t.fvm | FileCheck %s --match-full-lines

// (index) -> (index), 7 i64 registers: n 0, block arguments %i 1 and %r 2,
// then %c0 3, %c1 4, %lt 5, %next 6. 89 bytes of code.
// CHECK:      functions (1):
// CHECK-NEXT:   [0] @loop(i64) -> (i64) registers=7 i64, 0 ref code=89 bytes
// Entry (offset 0): the constants, then a branch to the header moving
// %i <- %c0.
// CHECK-NEXT:     0000  const.i64 dst=i3 value=0
// CHECK-NEXT:     0011  const.i64 dst=i4 value=1
// CHECK-NEXT:     0022  br target=^0034 moves=[i1 <- i3]
// Header (34): the comparison, then the body with no moves or the exit
// moving %r <- %i.
// CHECK-NEXT:     0034  cmp.i dst=i5 predicate=slt lhs=i1 rhs=i0 bits=64
// CHECK-NEXT:     0043  br.cond condition=i5 true_target=^0069 true_moves=[] false_target=^0063 false_moves=[i2 <- i1]
// Exit (63), then the body (69) branching back to the header.
// CHECK-NEXT:     0063  return values=(i2)
// CHECK-NEXT:     0069  add.i dst=i6 lhs=i1 rhs=i4 bits=64
// CHECK-NEXT:     0077  br target=^0034 moves=[i1 <- i6]
// CHECK-NEXT: executables (0):
// CHECK-NOT:  {{.}}

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
