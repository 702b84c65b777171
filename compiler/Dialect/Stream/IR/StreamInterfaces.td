#ifndef FERRY_DIALECT_STREAM_INTERFACES
#define FERRY_DIALECT_STREAM_INTERFACES

include "mlir/IR/OpBase.td"

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
  }];
}

#endif // FERRY_DIALECT_STREAM_INTERFACES
