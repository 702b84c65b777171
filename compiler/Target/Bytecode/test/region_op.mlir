// Structured control flow has no bytecode form of its own: the pipeline
// runs convert-scf-to-cf right before the writer, so an scf.if becomes
// branches between blocks (br.cond, br).
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-dump %t.fvm | FileCheck %s --match-full-lines

// CHECK:        [0] @conditional_wait(i64, ref) -> () registers=1 i64, 1 ref code=30 bytes
// CHECK-NEXT:     0000  br.cond condition=i0 true_target=^0015 true_moves=[] false_target=^0027 false_moves=[]
// CHECK-NEXT:     0015  hal.fence.await fence=[r0]
// CHECK-NEXT:     0020  br target=^0027 moves=[]
// CHECK-NEXT:     0027  return values=()
func.func @conditional_wait(%cond: i1, %fence: !hal.fence) {
  scf.if %cond {
    hal.fence.await until([%fence])
  }
  return
}
