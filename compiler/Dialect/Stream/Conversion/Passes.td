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
