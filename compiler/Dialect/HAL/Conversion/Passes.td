#ifndef FERRY_DIALECT_HAL_CONVERSION_PASSES
#define FERRY_DIALECT_HAL_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def ConvertStreamToHALPass : Pass<"convert-stream-to-hal", "mlir::ModuleOp"> {
  let summary = "Lowers the stream cmd phase to HAL devices, buffers and fences";
  let description = [{
    Resources become `!hal.buffer`s and timepoints become `!hal.fence`s:
    each alloca, dealloca and dispatch becomes the matching
    `hal.device.queue.*` op that waits on the fence of its await timepoint
    and signals a fresh fence. Imports check the incoming buffer view's shape
    and element type; exports wrap the buffer in a new view. Tensor sizes are
    computed with index arithmetic.

    A `stream.cmd.execute` region becomes its commands' queue ops in order
    on the region's device: the first waits on the region's await fence,
    the last signals the fence that stands for the region's timepoint, and
    each one in between waits on the one before (every queue op needs a
    signal fence of its own; the chain carries a failure to the region's
    fence rather than running past it).

    Each op runs on the device of its `stream.affinity`
    (`#hal.device.affinity<@dev>`), or on the module's first
    `hal.device.global` without one; when the module declares none,
    `@__device_0` on the local driver is added. Every allocation gets one
    `hal.allocator.resolve_memory_properties` for the affinities of all the
    ops that use the resource (`#hal.device.optimal` when several); when they
    name several devices, a `hal.allocator.select` over them picks the
    allocating device. `hal-resolve-topology-queries` resolves both. A
    deallocation goes to the allocating device. An affinity naming a device
    the module does not declare is an error naming it.

    A dispatch, fill or copy on a device other than the one that allocated
    a buffer it uses (any candidate of its `hal.allocator.select`) uses the
    buffer through `hal.device.import_buffer` into its own device, unless
    the topology (`compiler/Dialect/HAL/Analysis/DeviceTopology`) says that
    device has transparent access to, or unified memory with, every device
    that may have allocated it. When the topology cannot tell (a
    `#hal.runtime` property) the import is emitted anyway: at run time it
    is the buffer itself where memory turns out to be shared. One import per
    buffer and device; ownership and deallocation stay with the original
    buffer. Buffers the function receives are used as they are.

    A buffer is allocated host-mappable (lifetime `external`) where the host
    or external code may read it: handed to an external function, or
    returned (to the host, or to a caller that may return it on). An
    external resource only passed into functions of the module is
    allocated like a transient one (device-local on a discrete device),
    unless `external-mapping=always`; an external function that maps it
    later gets it staged.

    A call of an external function with new results (tied to no operand)
    passes, before its fences, one allocation request per result: the
    device, memory types and usage resolved for the result as for an
    allocation (a zero usage for a tied result); the declaration gets
    `ferry.abi.result_allocation`. A `func.call` of such a function that
    passes views (a new result of dynamic shape) gets its requests, an
    empty wait fence and a signal fence it waits for after the call.

    Lowers the stream ops of a function's block (and of its execution
    regions), and through `scf.for`, `scf.while`, `scf.if`,
    `scf.index_switch` and `scf.execute_region` the stream ops of their
    bodies: those region ops
    stay, with `!hal.buffer` for each resource and `!hal.fence` for each
    timepoint in their operands, block arguments, yields and results.
    `stream.timepoint.immediate` becomes `hal.fence.join` of no fences (a
    fence created signalled). A stream op inside another op's region, or a
    resource or timepoint that passes through any other op (an
    `arith.select` choosing one), is an error naming that op.
  }];
  let options = [
    Option<"externalMapping", "external-mapping", "std::string",
           /*default=*/"\"where-read\"",
           "Which external buffers are host-mappable: 'where-read' (those "
           "the host or external code reads) or 'always'">,
  ];
  let dependentDialects = ["::ferry::hal::HALDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // FERRY_DIALECT_HAL_CONVERSION_PASSES
