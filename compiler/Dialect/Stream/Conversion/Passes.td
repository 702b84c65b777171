#ifndef FERRY_DIALECT_STREAM_CONVERSION_PASSES
#define FERRY_DIALECT_STREAM_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def ConvertInputToStreamPass : Pass<"convert-input-to-stream", "mlir::ModuleOp"> {
  let summary = "Imports a tensor program into the stream dialect's async phase";
  let description = [{
    Rewrites every public `func.func` so that its tensor arguments and
    results become `!hal.buffer_view` values: each argument is checked
    against its tensor type and imported as an external resource, each
    result is exported. Elementwise `arith` ops on ranked tensors (static
    or dynamic shapes) become `stream.async.dispatch` of a built-in kernel,
    and `tensor.dim` reads the dimension the import recorded.

    Every stream op made for an input op (dispatches, `tensor.empty`
    allocas, splats, `linalg.fill`, calls) carries the input op's
    `stream.affinity`, or its function's when it has none; imports and
    exports take their argument's or result's, else the function's.

    Assumes single-block functions. Every op this pass cannot import (any
    other op on tensors, ops from dialects Ferry does not run) is reported
    with its name and location, and the pass fails without changing the IR.
  }];
  let dependentDialects = [
    "::ferry::stream::StreamDialect", "::ferry::hal::HALDialect",
    "::mlir::arith::ArithDialect", "::mlir::cf::ControlFlowDialect"
  ];
}

#endif // FERRY_DIALECT_STREAM_CONVERSION_PASSES
