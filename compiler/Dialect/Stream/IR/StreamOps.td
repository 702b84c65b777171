#ifndef FERRY_DIALECT_STREAM_OPS
#define FERRY_DIALECT_STREAM_OPS

include "compiler/Dialect/Stream/IR/StreamBase.td"
include "compiler/Dialect/HAL/IR/HALBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Stream_Op<string mnemonic, list<Trait> traits = []>
    : Op<Stream_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Tensor boundary ops (both phases)
//===----------------------------------------------------------------------===//

def Stream_TensorSizeOfOp : Stream_Op<"tensor.sizeof", [Pure]> {
  let summary = "the byte size of a tensor's storage";
  let description = [{
    Sizes are computed from the tensor type and its dynamic dimensions, so
    every later phase can allocate without knowing about tensors.

    ```mlir
    %size = stream.tensor.sizeof tensor<?x4xf32>{%d0} : index
    ```
  }];
  let arguments = (ins TypeAttr:$encoding, Variadic<Index>:$encoding_dims);
  let results = (outs Index:$storage_size);
  let assemblyFormat = [{
    $encoding (`{` $encoding_dims^ `}`)? attr-dict `:` type($storage_size)
  }];
  let hasVerifier = 1;
}

def Stream_TensorImportOp : Stream_Op<"tensor.import"> {
  let summary = "takes a tensor from the host as an external resource";
  let description = [{
    The buffer view is checked against the tensor type (rank, dims, element
    type) and its buffer becomes the resource. `message` names the value in
    the check's error.

    ```mlir
    %r = stream.tensor.import %view message("input 0") : !hal.buffer_view
        -> tensor<?xi32>{%d0} in !stream.resource<external>{%size}
    ```
  }];
  let arguments = (ins HAL_BufferView:$source, StrAttr:$message,
                       TypeAttr:$result_encoding,
                       Variadic<Index>:$result_encoding_dims,
                       Index:$result_size);
  let results = (outs Stream_AnyResource:$result);
  let assemblyFormat = [{
    $source `message` `(` $message `)` `:` type($source) `->`
    $result_encoding (`{` $result_encoding_dims^ `}`)?
    `in` qualified(type($result)) `{` $result_size `}` attr-dict
  }];
  let hasVerifier = 1;
}

def Stream_TensorExportOp : Stream_Op<"tensor.export"> {
  let summary = "hands an external resource to the host as a tensor";
  let description = [{
    ```mlir
    %view = stream.tensor.export %r : tensor<?xi32>{%d0}
        in !stream.resource<external>{%size} -> !hal.buffer_view
    ```
  }];
  let arguments = (ins Stream_AnyResource:$source, TypeAttr:$source_encoding,
                       Variadic<Index>:$source_encoding_dims,
                       Index:$source_size);
  let results = (outs HAL_BufferView:$result);
  let assemblyFormat = [{
    $source `:` $source_encoding (`{` $source_encoding_dims^ `}`)?
    `in` qualified(type($source)) `{` $source_size `}` `->` type($result) attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Async phase
//===----------------------------------------------------------------------===//

def Stream_AsyncDispatchOp : Stream_Op<"async.dispatch", [AttrSizedOperandSegments]> {
  let summary = "a built-in kernel over resources, producing a new resource";
  let description = [{
    Value semantics: the result is a new resource; the operands are read
    only. `count` is the element count.

    ```mlir
    %r = stream.async.dispatch kernel("add") type(i32) count(%n)
        (%a, %b) : (!stream.resource<*>{%s}, !stream.resource<*>{%s})
        -> !stream.resource<*>{%s}
    ```
  }];
  let arguments = (ins StrAttr:$kernel, TypeAttr:$element_type, Index:$count,
                       Variadic<Stream_AnyResource>:$resource_operands,
                       Variadic<Index>:$resource_operand_sizes,
                       Index:$result_size);
  let results = (outs Stream_AnyResource:$result);
  let assemblyFormat = [{
    `kernel` `(` $kernel `)` `type` `(` $element_type `)` `count` `(` $count `)`
    `(` $resource_operands `)` `:`
    custom<SizedTypeList>(type($resource_operands), $resource_operand_sizes)
    `->` qualified(type($result)) `{` $result_size `}` attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Cmd phase
//===----------------------------------------------------------------------===//

def Stream_ResourceAllocaOp : Stream_Op<"resource.alloca", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "allocates a resource in timeline order";
  let description = [{
    The resource is usable once `result_timepoint` is reached. Its contents
    are undefined (`uninitialized`). Never merged with another alloca.

    ```mlir
    %r, %t = stream.resource.alloca uninitialized await(%t0)
        : !stream.resource<transient>{%size} => !stream.timepoint
    ```
  }];
  let arguments = (ins Optional<Stream_Timepoint>:$await_timepoint,
                       Index:$storage_size);
  let results = (outs Stream_AnyResource:$result,
                      Stream_Timepoint:$result_timepoint);
  let assemblyFormat = [{
    `uninitialized` (`await` `(` $await_timepoint^ `)`)? `:`
    qualified(type($result)) `{` $storage_size `}` `=` `>` type($result_timepoint)
    attr-dict
  }];
}

def Stream_ResourceDeallocaOp : Stream_Op<"resource.dealloca", [
    MemoryEffects<[MemFree<DefaultResource>]>]> {
  let summary = "returns a resource's memory in timeline order";
  let description = [{
    Frees the resource once `await_timepoint` is reached: after its last use.

    ```mlir
    %t = stream.resource.dealloca await(%t0) %r
        : !stream.resource<transient>{%size} => !stream.timepoint
    ```
  }];
  let arguments = (ins Optional<Stream_Timepoint>:$await_timepoint,
                       Stream_AnyResource:$operand, Index:$operand_size);
  let results = (outs Stream_Timepoint:$result_timepoint);
  let assemblyFormat = [{
    (`await` `(` $await_timepoint^ `)`)? $operand `:`
    qualified(type($operand)) `{` $operand_size `}` `=` `>` type($result_timepoint)
    attr-dict
  }];
}

def Stream_CmdDispatchOp : Stream_Op<"cmd.dispatch", [AttrSizedOperandSegments]> {
  let summary = "runs a built-in kernel in timeline order";
  let description = [{
    Reads the input resources and writes the last one (the output) once
    `await_timepoint` is reached; `result_timepoint` is reached when done.

    ```mlir
    %t = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%t0)
        (%a, %b, %out) : (!stream.resource<external>{%s},
        !stream.resource<external>{%s}, !stream.resource<transient>{%s})
        => !stream.timepoint
    ```
  }];
  let arguments = (ins StrAttr:$kernel, TypeAttr:$element_type, Index:$count,
                       Optional<Stream_Timepoint>:$await_timepoint,
                       Variadic<Stream_AnyResource>:$resource_operands,
                       Variadic<Index>:$resource_operand_sizes);
  let results = (outs Stream_Timepoint:$result_timepoint);
  let assemblyFormat = [{
    `kernel` `(` $kernel `)` `type` `(` $element_type `)` `count` `(` $count `)`
    (`await` `(` $await_timepoint^ `)`)?
    `(` $resource_operands `)` `:`
    custom<SizedTypeList>(type($resource_operands), $resource_operand_sizes)
    `=` `>` type($result_timepoint) attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Value getOutput() { return getResourceOperands().back(); }
    ::mlir::Value getOutputSize() { return getResourceOperandSizes().back(); }
  }];
}

def Stream_TimepointJoinOp : Stream_Op<"timepoint.join", [Pure]> {
  let summary = "a timepoint reached when all of the given ones are";
  let arguments = (ins Variadic<Stream_Timepoint>:$await_timepoints);
  let results = (outs Stream_Timepoint:$result_timepoint);
  let assemblyFormat = [{
    `max` `(` $await_timepoints `)` `=` `>` type($result_timepoint) attr-dict
  }];
  let hasVerifier = 1;
}

def Stream_TimepointAwaitOp : Stream_Op<"timepoint.await", [AttrSizedOperandSegments]> {
  let summary = "blocks the host until a timepoint, then yields the resources";
  let description = [{
    The results are the operands, ready for host use (e.g. export).

    ```mlir
    %ready = stream.timepoint.await %t => %r
        : !stream.resource<external>{%size}
    ```
  }];
  let arguments = (ins Stream_Timepoint:$await_timepoint,
                       Variadic<Stream_AnyResource>:$resource_operands,
                       Variadic<Index>:$resource_operand_sizes);
  let results = (outs Variadic<Stream_AnyResource>:$results);
  let assemblyFormat = [{
    $await_timepoint (`=` `>` $resource_operands^ `:`
    custom<SizedTypeList>(type($resource_operands), $resource_operand_sizes)
    custom<SameTypes>(type($results), ref(type($resource_operands))))?
    attr-dict
  }];
  let hasVerifier = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$timepoint, "::mlir::ValueRange":$resources,
                   "::mlir::ValueRange":$sizes), [{
      build($_builder, $_state, resources.getTypes(), timepoint, resources,
            sizes);
    }]>,
  ];
}

#endif // FERRY_DIALECT_STREAM_OPS
