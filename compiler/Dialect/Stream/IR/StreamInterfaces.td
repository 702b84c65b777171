// Interfaces of the stream dialect. Stream IR and the stream passes work
// with devices, topologies and host buffers only through these: where work
// runs (affinities), how devices reach each other's memory (topologies),
// which symbols declare devices, and what crosses the program boundary
// (external buffers). The HAL dialect implements them, so HAL depends on
// Stream and never the other way round. TiedOpInterface is how the passes
// see in-place writes.
#ifndef FERRY_DIALECT_STREAM_INTERFACES
#define FERRY_DIALECT_STREAM_INTERFACES

include "mlir/IR/OpBase.td"

//===----------------------------------------------------------------------===//
// Placement
//===----------------------------------------------------------------------===//

def Stream_AffinityAttr : AttrInterface<"AffinityAttr"> {
  let cppNamespace = "::ferry::stream";
  let description = [{
    Where work runs: the value of `stream.affinity` on stream ops and on
    functions, their arguments and results (no affinity: the module's first
    device). Passes copy it from op to op, group work by it and attribute
    memory to its device without knowing what a device is.
    `#hal.device.affinity<@dev>` implements it.
  }];
  let methods = [
    InterfaceMethod<
      [{The symbol of the device the work runs on: an op of the module that
        implements DeviceDeclarationOpInterface.}],
      "::mlir::FlatSymbolRefAttr", "getDeviceSymbol", (ins)>,
    InterfaceMethod<
      [{Whether work placed here and work placed on `other` may be submitted
        to one queue, one after the other (one execution region).}],
      "bool", "isExecutableWith", (ins "::ferry::stream::AffinityAttr":$other)>,
  ];
}

def Stream_AffinityTopologyAttr : AttrInterface<"AffinityTopologyAttr"> {
  let cppNamespace = "::ferry::stream";
  let description = [{
    How a module's devices reach each other's memory: the value of
    `stream.topology` on the module. The stream dialect checks where it is
    written and has it check the devices it names; what the links mean is
    up to the dialect that implements it (`#hal.device.topology`).
  }];
  let methods = [
    InterfaceMethod<
      [{Checks that every device the topology names is declared in `module`;
        reports the error on `module` otherwise.}],
      "::llvm::LogicalResult", "verifyDevices",
      (ins "::mlir::Operation *":$module)>,
  ];
}

def Stream_DeviceDeclarationOp : OpInterface<"DeviceDeclarationOpInterface"> {
  let cppNamespace = "::ferry::stream";
  let description = [{
    A symbol op of the module that declares a device: what an affinity's
    device symbol names. Passes that account per device list the module's
    devices through it, in declaration order (the first is where work
    without an affinity runs). `hal.device.global` implements it.
  }];
}

//===----------------------------------------------------------------------===//
// The program boundary
//===----------------------------------------------------------------------===//

def Stream_ExternalBufferType : TypeInterface<"ExternalBufferType"> {
  let cppNamespace = "::ferry::stream";
  let description = [{
    The host's handle to a tensor's storage, shape and element type: what
    `stream.tensor.import` takes and `stream.tensor.export` gives back.
    `!hal.buffer_view` implements it.
  }];
}

def Stream_AnyExternalBuffer : Type<
    CPred<"::llvm::isa<::ferry::stream::ExternalBufferType>($_self)">,
    "an external buffer (a type implementing ExternalBufferType, such as "
    "!hal.buffer_view)">;

def Stream_ExternalBufferDimOp : OpInterface<"ExternalBufferDimOpInterface"> {
  let cppNamespace = "::ferry::stream";
  let description = [{
    Reads one dimension of an external buffer's shape at run time
    (`hal.buffer_view.dim`). Analyses that evaluate sizes bind it to the
    shape they assume the buffer has.
  }];
  let methods = [
    InterfaceMethod<"The buffer whose shape is read.", "::mlir::Value",
                    "getExternalBuffer", (ins)>,
    InterfaceMethod<"Which dimension is read.", "int64_t", "getDimIndex",
                    (ins)>,
  ];
}

//===----------------------------------------------------------------------===//
// In-place writes
//===----------------------------------------------------------------------===//

def Stream_TiedOpInterface : OpInterface<"TiedOpInterface"> {
  let cppNamespace = "::ferry::stream";
  let description = [{
    An op whose result may be one of its operands, updated in place: the
    result *is* the operand's storage after the op writes into it. Passes
    that reason about aliasing (copy-on-write, copy elision, allocation)
    ask this interface instead of knowing each op.
  }];
  let methods = [
    InterfaceMethod<
      "The operand that result `resultIndex` is written into, or null.",
      "::mlir::OpOperand *", "getTiedOperand", (ins "unsigned":$resultIndex)>,
  ];
  let extraClassDeclaration = [{
    // The operand `result` is tied to, or null.
    ::mlir::OpOperand *getTiedOperand(::mlir::OpResult result) {
      return getTiedOperand(result.getResultNumber());
    }
    // True when some result is written into `operand`.
    bool isOperandTied(::mlir::OpOperand &operand) {
      for (unsigned i = 0, e = (*this)->getNumResults(); i < e; ++i)
        if (getTiedOperand(i) == &operand)
          return true;
      return false;
    }
    // The results written into `operand`: the same storage under other
    // names once the op is done.
    ::llvm::SmallVector<::mlir::OpResult, 1>
    getTiedResults(::mlir::OpOperand &operand) {
      ::llvm::SmallVector<::mlir::OpResult, 1> results;
      for (::mlir::OpResult result : (*this)->getResults())
        if (getTiedOperand(result) == &operand)
          results.push_back(result);
      return results;
    }
  }];
}

#endif // FERRY_DIALECT_STREAM_INTERFACES
