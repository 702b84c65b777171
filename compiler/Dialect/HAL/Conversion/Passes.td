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

    Work runs on the module's first `hal.device.global`; when the module
    declares none, `@__device_0` on the local driver is added.
  }];
  let dependentDialects = ["::ferry::hal::HALDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // FERRY_DIALECT_HAL_CONVERSION_PASSES
