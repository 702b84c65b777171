// The function table: each function's signature (register kinds), register
// counts and code size, then its instructions: byte offset, mnemonic and
// every operand by name, registers as i<N> / r<N>, branch targets as the
// offset they jump to.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-dump %t.fvm | FileCheck %s --match-full-lines
// CHECK:      functions (2):
// CHECK-NEXT:   [0] @count(i64) -> (i64) registers=7 i64, 0 ref code=89 bytes
// CHECK-NEXT:     0000  const.i64 dst=i3 value=0
// CHECK-NEXT:     0011  const.i64 dst=i4 value=1
// CHECK-NEXT:     0022  br target=^0034 moves=[i1 <- i3]
// CHECK-NEXT:     0034  cmp.i dst=i5 predicate=slt lhs=i1 rhs=i0 bits=64
// CHECK-NEXT:     0043  br.cond condition=i5 true_target=^0069 true_moves=[] false_target=^0063 false_moves=[i2 <- i1]
// CHECK-NEXT:     0063  return values=(i2)
// CHECK-NEXT:     0069  add.i dst=i6 lhs=i1 rhs=i4 bits=64
// CHECK-NEXT:     0077  br target=^0034 moves=[i1 <- i6]
// The argument is dead after the call: the sum takes its register.
// CHECK-NEXT:   [1] @twice(i64) -> (i64) registers=2 i64, 0 ref code=29 bytes
// CHECK-NEXT:     0000  call function=@count arguments=(i0) results=(i1)
// CHECK-NEXT:     0015  add.i dst=i0 lhs=i1 rhs=i1 bits=64
// CHECK-NEXT:     0023  return values=(i0)
// CHECK-NEXT: executables (0):
// CHECK-NEXT: constants (0):
// CHECK-NOT:  {{.}}

// The seed example: queue operations print their fences, flags and
// bindings; the calls to its externals their buffer views and fences.
// RUN: ferry-compile %samples/tied_external_calls.mlir -o %t.seed.fvm
// RUN: ferry-dump %t.seed.fvm | FileCheck %s --check-prefix=SEED
// SEED:      [0] @main(ref) -> (ref) registers={{[0-9]+}} i64, {{[0-9]+}} ref code={{[0-9]+}} bytes
// SEED:      hal.buffer_view.assert view=r0 element_type=i32 dim=[i{{[0-9]+}}, i{{[0-9]+}}] message="input 0"
// SEED:      hal.device.queue.alloca dst=r{{[0-9]+}} device=r1 wait=none signal=r{{[0-9]+}} memory_type=i{{[0-9]+}} usage=i{{[0-9]+}} size=i{{[0-9]+}} flags=none
// SEED:      hal.device.queue.dispatch.entry device=r1 wait=r{{[0-9]+}} signal=r{{[0-9]+}} executable=@dispatches entry=0 {{.+}} binding=[r2, r2, r{{[0-9]+}}]
// SEED:      call.import import=@Double.function
// SEED:      hal.device.queue.dealloca device=r1 wait=r{{[0-9]+}} signal=r{{[0-9]+}} buffer=r{{[0-9]+}} flags=prefer_origin
// SEED:      call.import import=@Triple.function
// SEED:      hal.fence.await fence=[r{{[0-9]+}}]
// SEED:      return values=(r{{[0-9]+}})

func.func private @count(%n: index) -> index {
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
func.func @twice(%x: index) -> index {
  %c = call @count(%x) : (index) -> index
  %r = arith.addi %c, %c : index
  return %r : index
}
