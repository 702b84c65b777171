// A loop carrying fences (what convert-stream-to-hal leaves of a carried
// timepoint): the pipeline turns the scf.for into blocks, whose ref-typed
// block arguments (r2, r3) get registers of their own that the branches'
// moves write. Values defined before the loop and used in its body (the
// buffer argument r0, the device r4) keep their registers across the back
// edge: no value of the body takes them. The body's own values (r5, r6)
// get registers no value live around the loop holds.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-dump %t.fvm | FileCheck %s --match-full-lines

// CHECK:        [0] @loop(i64, ref, ref) -> (ref) registers=7 i64, 7 ref code=166 bytes
// CHECK:          0033  hal.device.get dst=r4 device=@__device_0
// CHECK-NEXT:     0040  br target=^0062 moves=[i1 <- i2, r2 <- r1, r3 <- r1]
// CHECK-NEXT:     0062  cmp.i dst=i5 predicate=slt lhs=i1 rhs=i0 bits=64
// CHECK-NEXT:     0071  br.cond condition=i5 true_target=^0097 true_moves=[] false_target=^0086 false_moves=[]
// CHECK-NEXT:     0086  hal.fence.await fence=[r3]
// CHECK-NEXT:     0091  return values=(r2)
// CHECK-NEXT:     0097  hal.fence.create dst=r5 device=r4
// CHECK-NEXT:     0102  hal.device.queue.dispatch device=r4 wait=r2 signal=r5 kernel=add element_type=i32 count=i4 binding=[r0, r0, r0]
// CHECK-NEXT:     0127  hal.fence.join dst=r6 fence=[r3, r5]
// CHECK-NEXT:     0136  add.i dst=i6 lhs=i1 rhs=i3 bits=64
// CHECK-NEXT:     0144  br target=^0062 moves=[i1 <- i6, r2 <- r5, r3 <- r6]
hal.device.global @__device_0 = #hal.device.target<"local", {}>
func.func @loop(%n: index, %buffer: !hal.buffer, %ready: !hal.fence) -> !hal.fence {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %device = hal.device.get @__device_0 : !hal.device
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%t = %ready, %all = %ready) -> (!hal.fence, !hal.fence) {
    %signal = hal.fence.create device(%device : !hal.device) : !hal.fence
    hal.device.queue.dispatch<%device : !hal.device> wait(%t) signal(%signal) kernel("add") type(i32) count(%c4) bindings(%buffer, %buffer, %buffer)
    %joined = hal.fence.join at([%all, %signal]) -> !hal.fence
    scf.yield %signal, %joined : !hal.fence, !hal.fence
  }
  hal.fence.await until([%r#1])
  return %r#0 : !hal.fence
}
