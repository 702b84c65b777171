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

    Each op runs on the device of its `stream.affinity`
    (`#hal.device.affinity<@dev>`), or on the module's first
    `hal.device.global` without one; when the module declares none,
    `@__device_0` on the local driver is added. Every allocation gets one
    `hal.allocator.resolve_memory_properties` for the affinities of all the
    ops that use the resource (`#hal.device.optimal` when several); when they
    name several devices, a `hal.allocator.select` over them picks the
    allocating device. `hal-resolve-topology-queries` resolves both; this
    pass needs no topology. A deallocation goes to the allocating device.
  }];
  let dependentDialects = ["::ferry::hal::HALDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // FERRY_DIALECT_HAL_CONVERSION_PASSES
