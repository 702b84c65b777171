#ifndef FERRY_DIALECT_STREAM_CONVERSION_PASSES
#define FERRY_DIALECT_STREAM_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def ConvertInputToStreamPass : Pass<"convert-input-to-stream", "mlir::ModuleOp"> {
  let summary = "Imports a tensor program into the stream dialect's async phase";
  let description = [{
    Rewrites every public `func.func` so that its tensor arguments and
    results become `!hal.buffer_view` values: each argument is checked
    against its tensor type and imported as an external resource, each
    result is exported, and `tensor.dim` reads the dimension the import
    recorded.

    Dispatch formation: every accepted linalg op on tensors (`generic` with
    an arith/math body, `matmul`, `batch_matmul`, `matvec`, `vecmat`,
    `dot`, `broadcast`, `transpose`, `reduce`, `map`, `copy`,
    `elementwise`, `conv_2d_nhwc_hwcf`, `conv_2d_nchw_fchw`,
    `depthwise_conv_2d_nhwc_hwc`, `pooling_nhwc_max`, `pooling_nhwc_sum`;
    indexing maps of loops or sums of loops times non-negative constants),
    the parts `linalg.softmax` decomposes into, and every other elementwise
    arith/math op on whole tensors (as the `linalg.generic` it becomes), is
    outlined into an executable (a nested module marked `ferry.executable`)
    and becomes `stream.async.dispatch.entry`, whose result is its `outs`
    operand written in place. Ops are grouped first (FormDispatches.h): an
    elementwise chain is merged into one generic, and a contraction,
    convolution, pooling or reduction shares its dispatch with the constant
    fill of its destination, elementwise producers only it reads and the
    elementwise consumers of its result that only read it (written over it,
    so the group's result stays tied to the root's `outs`); a value used
    outside a group is never fused away. Operands mapped to the
    same loop are checked at run time where their dynamic dims are
    different values, and so is a dimension indexed by a sum of loops
    (a convolution window) against the sum's largest value. A static
    `tensor.empty` only shaping a pooling window is made inside the
    executable instead (no binding, no allocation).
    `tensor.collapse_shape` / `expand_shape` are metadata: the source's
    resource with new dims (no copy, no dispatch).

    A result a function (with a body) ties to an argument with
    `iree.abi.tied` is written into the buffer the host lent for it: the tie
    becomes the function's `stream.tied_operands`, that argument's import may
    be written in place, and the result is copied whole into it (a
    `stream.async.update`, which allocation scheduling turns into the op
    that made the value writing there directly) and returned; the host sees
    its buffer updated. Dynamic dims of the two must agree (checked at run
    time). An untied result returning the lent argument gets a copy of its
    original value. Only the host may call such a function: a call from the
    module is an error.

    A call of an external function becomes a `stream.async.call`; a result
    it does not tie is a new resource the runtime allocates for the callee.
    When such a result has a dynamic shape (the callee decides it), the
    declaration takes and returns `!hal.buffer_view`s and gets
    `ferry.abi.result_allocation`, and its calls pass views like calls
    between functions of the module: the result is imported with `consume`
    and the dims of its view. Such a function cannot also tie a result.

    Every stream op made for an input op (dispatches, `tensor.empty`
    allocas, splats, `linalg.fill`, calls) carries the input op's
    `stream.affinity`, or its function's when it has none; imports and
    exports take their argument's or result's, else the function's. An
    affinity naming a device the module does not declare (no
    `hal.device.global` of that name) is an error naming the device where
    the affinity is written.

    Structured control flow (`scf.for`, `scf.while`, `scf.if`,
    `scf.index_switch`, `scf.execute_region` of one block) is imported
    body by body, nested arbitrarily: a tensor the op carries (init,
    block argument, yield, condition argument, result) becomes a
    `!stream.resource<*>` in the same position, and each of its dynamic
    dims an extra `index` value of the same op, appended after all
    original values in order. The positions of one carried value agree on
    their lifetime (an import makes them all external). A function with
    tensors and several blocks is first lifted to scf (upstream
    `transformCFGToSCF`, as `--lift-cf-to-scf` does). A lifted loop is a
    rotated `scf.while` that passes the carried value it received out of
    its condition beside the new one; positions of one tensor type whose
    values never matter on the same path of the `scf.if` deciding the
    flag are merged into one (the exit passes the old value, the body the
    new), so the body's write is the old value's last use and a loop of
    blocks is updated in place. What lifting leaves
    (`ub.poison`) is a zero scalar or, for a tensor of static shape, an
    allocation of undefined contents, one per use made right before its
    user (after the lifted loops' unused arguments are dropped), so the
    path that yields it owns it. Where lifting fails, the branch is
    refused by name.

    Every op this pass cannot import (any
    other op on tensors, ops from dialects Ferry does not run) is reported
    with its name and location, and the pass fails without importing
    anything (branches may have been lifted to scf by then).
  }];
  let dependentDialects = [
    "::ferry::stream::StreamDialect", "::ferry::hal::HALDialect",
    "::mlir::arith::ArithDialect", "::mlir::cf::ControlFlowDialect",
    // Elementwise ops on tensors become linalg.generic into tensor.empty.
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
    // Lifting branches to structured control flow.
    "::mlir::scf::SCFDialect", "::mlir::ub::UBDialect"
  ];
}

def ApplyPluginDeclarationsPass
    : Pass<"apply-plugin-declarations", "mlir::ModuleOp"> {
  let summary = "Checks external declarations against the plugins that will "
                "implement them and marks those that may write in place";
  let description = [{
    Every external `func.func @<module>.<function>` that a plugin of
    `plugins` implements (a native module `<module>` with a function
    `<function>`, as `ferry-run --module` will bind it) must agree with the
    plugin on the calling convention (`iree.abi.model = "coarse-fences"`
    or none) and on the registers a call passes: `r` per tensor (a buffer
    view), `i` per scalar, and for coarse-fences a wait and a signal fence
    (`rr`) after the arguments. A disagreement is an error on the
    declaration that names it and the plugin, so it shows at compile time
    rather than when the runtime binds the module. So is a declaration
    none of the plugins implements (with several plugins, each function
    needs one of them), naming every plugin searched: `ferry-run` binds
    imports only to plugins, so the module could not run with these. With
    no plugins the pass checks nothing.

    A function the plugin declares `FERRY_PLUGIN_TIED_MAY_ALIAS` gets
    `ferry.abi.tied_may_alias`: `stream-reuse-operand-storage` may then pass
    a dying input's storage as its output.

    Each plugin is loaded (its entry point runs) once, when the pass is
    initialized, only to read its declarations, and unloaded again; one
    that cannot be loaded is an error naming its path. Runs on input IR,
    before `convert-input-to-stream`; `ferry-compile --module=PATH.so` runs
    it first.
  }];
  let options = [
    ListOption<"plugins", "plugins", "std::string",
               "Plugin shared libraries (PATH.so, as given to ferry-run "
               "--module) whose declarations to apply">,
  ];
}

#endif // FERRY_DIALECT_STREAM_CONVERSION_PASSES
