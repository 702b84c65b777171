// Every hal op the writer serializes, written directly at the hal level: the
// pipeline leaves it alone and the writer produces a module.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-dump %t.fvm | FileCheck %s --check-prefix=DUMP --match-full-lines
// DUMP:      module: format version 8, {{[0-9]+}} payload bytes, checksum 0x{{[0-9a-f]+}}
// DUMP:      functions (1):
// Registers are reused once their values are dead (r0 and r1, the
// arguments, hold a buffer and fences later).
// DUMP-NEXT:   [0] @add(ref, ref) -> (ref) registers=5 i64, 6 ref code=231 bytes
// The memory type and usage masks are constants (17 and 51, their bits).
// DUMP-NEXT:     0000  const.i64 dst=i0 value=4
// DUMP-NEXT:     0011  const.i64 dst=i1 value=17
// DUMP-NEXT:     0022  const.i64 dst=i2 value=51
// DUMP-NEXT:     0033  hal.device.get dst=r2 device=@__device_0
// DUMP-NEXT:     0040  hal.buffer_view.dim dst=i3 view=r0 index=0
// DUMP-NEXT:     0049  hal.buffer_view.assert view=r0 element_type=i32 dim=[i3] message="input 0"
// DUMP-NEXT:     0064  hal.buffer_view.assert view=r1 element_type=i32 dim=[i3] message="input 1"
// DUMP-NEXT:     0079  hal.buffer_view.buffer dst=r3 view=r0
// DUMP-NEXT:     0084  hal.buffer_view.buffer dst=r0 view=r1
// DUMP-NEXT:     0089  hal.buffer.length dst=i4 buffer=r3
// DUMP-NEXT:     0094  hal.fence.create dst=r1 device=r2
// DUMP-NEXT:     0099  hal.device.queue.alloca dst=r4 device=r2 wait=none signal=r1 memory_type=i1 usage=i2 size=i4 flags=none
// DUMP-NEXT:     0118  hal.fence.create dst=r5 device=r2
// DUMP-NEXT:     0123  hal.device.queue.dispatch device=r2 wait=r1 signal=r5 kernel=add element_type=i32 count=i3 binding=[r3, r0, r4]
// DUMP-NEXT:     0148  mul.i dst=i4 lhs=i3 rhs=i0 bits=64
// DUMP-NEXT:     0156  hal.fence.create dst=r0 device=r2
// DUMP-NEXT:     0161  hal.device.queue.alloca dst=r3 device=r2 wait=r5 signal=r0 memory_type=i1 usage=i2 size=i4 flags=none
// DUMP-NEXT:     0180  hal.fence.create dst=r1 device=r2
// DUMP-NEXT:     0185  hal.device.queue.dealloca device=r2 wait=r0 signal=r1 buffer=r3 flags=none
// DUMP-NEXT:     0198  hal.fence.join dst=r3 fence=[r5, r1]
// DUMP-NEXT:     0207  hal.fence.await fence=[r3]
// DUMP-NEXT:     0212  hal.buffer_view.create dst=r3 buffer=r4 element_type=i32 dim=[i3]
// DUMP-NEXT:     0225  return values=(r3)

// Hal-level input passes through the pipeline unchanged.
// RUN: ferry-compile %s --compile-to=hal | FileCheck %s --check-prefix=HAL
// HAL-LABEL: func.func @add
// HAL:       hal.device.queue.alloca
// HAL-SAME:    signal(
// HAL:       hal.device.queue.dispatch
// HAL-SAME:    kernel("add") type(i32)
// HAL:       hal.device.queue.dealloca
// HAL:       hal.fence.join
// HAL:       return

hal.device.global @__device_0 = #hal.device.target<"local", {}>
func.func @add(%a: !hal.buffer_view, %b: !hal.buffer_view) -> !hal.buffer_view {
  %c4 = arith.constant 4 : index
  %mt = hal.memory_type<"HostVisible|DeviceLocal"> : i32
  %u = hal.buffer_usage<"Transfer|DispatchStorage"> : i32
  %d = hal.device.get @__device_0 : !hal.device
  %n = hal.buffer_view.dim<%a : !hal.buffer_view>[0] : index
  hal.buffer_view.assert<%a : !hal.buffer_view> message("input 0") shape([%n]) type(i32)
  hal.buffer_view.assert<%b : !hal.buffer_view> message("input 1") shape([%n]) type(i32)
  %ba = hal.buffer_view.buffer<%a : !hal.buffer_view> : !hal.buffer
  %bb = hal.buffer_view.buffer<%b : !hal.buffer_view> : !hal.buffer
  %len = hal.buffer.length<%ba : !hal.buffer> : index
  %f0 = hal.fence.create device(%d : !hal.device) : !hal.fence
  %out = hal.device.queue.alloca<%d : !hal.device> signal(%f0) type(%mt) usage(%u) : !hal.buffer{%len}
  %f1 = hal.fence.create device(%d : !hal.device) : !hal.fence
  hal.device.queue.dispatch<%d : !hal.device> wait(%f0) signal(%f1) kernel("add") type(i32) count(%n) bindings(%ba, %bb, %out)
  %size = arith.muli %n, %c4 : index
  %f2 = hal.fence.create device(%d : !hal.device) : !hal.fence
  %tmp = hal.device.queue.alloca<%d : !hal.device> wait(%f1) signal(%f2) type(%mt) usage(%u) : !hal.buffer{%size}
  %f3 = hal.fence.create device(%d : !hal.device) : !hal.fence
  hal.device.queue.dealloca<%d : !hal.device> wait(%f2) signal(%f3) buffer(%tmp : !hal.buffer)
  %done = hal.fence.join at([%f1, %f3]) -> !hal.fence
  hal.fence.await until([%done])
  %view = hal.buffer_view.create buffer(%out : !hal.buffer) shape([%n]) type(i32) : !hal.buffer_view
  return %view : !hal.buffer_view
}
