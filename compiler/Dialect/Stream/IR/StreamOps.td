#ifndef FERRY_DIALECT_STREAM_OPS
#define FERRY_DIALECT_STREAM_OPS

include "compiler/Dialect/Stream/IR/StreamBase.td"
include "compiler/Dialect/Stream/IR/StreamInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
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
  let extraClassDeclaration = [{
    // The size in bytes when the encoding has no dynamic dimensions.
    std::optional<int64_t> getStaticSize();
  }];
}

def Stream_TensorImportOp : Stream_Op<"tensor.import"> {
  let summary = "takes a tensor from the host as an external resource";
  let description = [{
    The buffer view is checked against the tensor type (rank, dims, element
    type) and its buffer becomes the resource. `message` names the value in
    the check's error.

    Without `consume` the host keeps its ownership: the program never frees
    the buffer. With `consume` the host's ownership moves into the program
    (like moving a shared pointer), which then frees it after its last use.

    ```mlir
    %r = stream.tensor.import %view message("input 0") : !hal.buffer_view
        -> tensor<?xi32>{%d0} in !stream.resource<external>{%size}
    %owned = stream.tensor.import consume %view2 message("input 1") ...
    ```
  }];
  let arguments = (ins Stream_AnyExternalBuffer:$source, StrAttr:$message,
                       TypeAttr:$result_encoding,
                       Variadic<Index>:$result_encoding_dims,
                       Index:$result_size, UnitAttr:$consume);
  let results = (outs Stream_AnyResource:$result);
  let assemblyFormat = [{
    (`consume` $consume^)? $source `message` `(` $message `)` `:`
    type($source) `->`
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
  let results = (outs Stream_AnyExternalBuffer:$result);
  let assemblyFormat = [{
    $source `:` $source_encoding (`{` $source_encoding_dims^ `}`)?
    `in` qualified(type($source)) `{` $source_size `}` `->` type($result) attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Async phase
//===----------------------------------------------------------------------===//

def Stream_AsyncDispatchOp : Stream_Op<"async.dispatch", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<Stream_TiedOpInterface>]> {
  let summary = "a built-in kernel over resources";
  let description = [{
    The result is a new resource, or, when tied to an operand, that operand
    updated in place (elementwise kernels read element i before writing it,
    so any operand may be the output). `count` is the element count.

    ```mlir
    %r = stream.async.dispatch kernel("add") type(i32) count(%n)
        (%a, %b) : (!stream.resource<*>{%s}, !stream.resource<*>{%s})
        -> !stream.resource<*>{%s}
    // Written into %a:
    %r = stream.async.dispatch kernel("add") type(i32) count(%n)
        (%a, %b) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %a{%s}
    ```
  }];
  let arguments = (ins StrAttr:$kernel, TypeAttr:$element_type, Index:$count,
                       Variadic<Stream_AnyResource>:$resource_operands,
                       Variadic<Index>:$resource_operand_sizes,
                       Index:$result_size,
                       OptionalAttr<DenseI64ArrayAttr>:$tied_operands);
  let results = (outs Stream_AnyResource:$result);
  let assemblyFormat = [{
    `kernel` `(` $kernel `)` `type` `(` $element_type `)` `count` `(` $count `)`
    `(` $resource_operands `)` `:`
    custom<SizedTypeList>(type($resource_operands), $resource_operand_sizes)
    `->` custom<TiedResult>(type($result), $result_size,
                            ref($resource_operands),
                            ref(type($resource_operands)), $tied_operands)
    attr-dict
  }];
  let hasVerifier = 1;
}

def Stream_AsyncDispatchEntryOp : Stream_Op<"async.dispatch.entry", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<Stream_TiedOpInterface>]> {
  let summary = "an entry of a native executable over resources";
  let description = [{
    Runs entry `entry` (`@executable::@function`, a dispatch function of a
    nested `builtin.module` marked `ferry.executable`) over a grid of
    `workgroups` (x, y, z), with `push_constants` (the dynamic dimensions of
    its bindings) and the resources as bindings, in order. What dispatch
    formation makes of a linalg op: the result is always the destination
    operand (linalg's `outs`) written in place, so copy-on-write, elision,
    scheduling and reference counting treat it like every tied op; a
    `tensor.empty` destination is a fresh `stream.async.alloca`.

    ```mlir
    %r = stream.async.dispatch.entry @dispatch_0::@dispatch_0
        workgroups(%x, %c1, %c1) push_constants(%m)
        (%a, %b, %c) : (!stream.resource<*>{%sa}, !stream.resource<*>{%sb},
        !stream.resource<*>{%sc}) -> %c{%sc}
    ```
  }];
  let arguments = (ins SymbolRefAttr:$entry,
                       Variadic<Index>:$workgroups,
                       Variadic<Index>:$push_constants,
                       Variadic<Stream_AnyResource>:$resource_operands,
                       Variadic<Index>:$resource_operand_sizes,
                       Index:$result_size,
                       DenseI64ArrayAttr:$tied_operands);
  let results = (outs Stream_AnyResource:$result);
  let assemblyFormat = [{
    $entry `workgroups` `(` $workgroups `)`
    `push_constants` `(` $push_constants `)`
    `(` $resource_operands `)` `:`
    custom<SizedTypeList>(type($resource_operands), $resource_operand_sizes)
    `->` custom<TiedResult>(type($result), $result_size,
                            ref($resource_operands),
                            ref(type($resource_operands)), $tied_operands)
    attr-dict
  }];
  let hasVerifier = 1;
}

def Stream_AsyncAllocaOp : Stream_Op<"async.alloca", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "a new resource whose contents are undefined";
  let description = [{
    What `tensor.empty` becomes. Every alloca is a distinct allocation: it
    allocates (so CSE never merges two), and copying one would copy nothing
    worth having, so copy-on-write makes a fresh alloca instead.

    ```mlir
    %r = stream.async.alloca : !stream.resource<*>{%size}
    ```
  }];
  let arguments = (ins Index:$storage_size);
  let results = (outs Stream_AnyResource:$result);
  let assemblyFormat = "`:` qualified(type($result)) `{` $storage_size `}` attr-dict";
}

def Stream_AsyncSplatOp : Stream_Op<"async.splat", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "a new resource with every element set to a value";
  let description = [{
    Copy-on-write of a splat makes a new splat rather than a copy.

    ```mlir
    %r = stream.async.splat %c5 : i32 -> !stream.resource<*>{%size}
    ```
  }];
  let arguments = (ins AnyTypeOf<[AnySignlessInteger, F16, BF16, F32, F64]>:$value,
                       Index:$storage_size);
  let results = (outs Stream_AnyResource:$result);
  let assemblyFormat = [{
    $value `:` type($value) `->` qualified(type($result)) `{` $storage_size `}`
    attr-dict
  }];
  let hasVerifier = 1;
}

def Stream_AsyncConstantOp : Stream_Op<"async.constant", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "a resource holding constant data";
  let description = [{
    Immutable: copy-on-write always clones a constant before a tied use.

    ```mlir
    %c = stream.async.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
        -> !stream.resource<constant>{%size}
    ```
  }];
  let arguments = (ins ElementsAttr:$value, Index:$storage_size);
  let results = (outs Stream_AnyResource:$result);
  let assemblyFormat = [{
    $value `->` qualified(type($result)) `{` $storage_size `}` attr-dict
  }];
}

def Stream_AsyncCloneOp : Stream_Op<"async.clone", [
    MemoryEffects<[MemAlloc<DefaultResource>, MemRead<DefaultResource>]>]> {
  let summary = "a copy of a resource that can be written independently";
  let description = [{
    Inserted by copy-on-write before a tied use of a value that something
    else still needs; removed by copy elision when the source is never used
    afterwards.

    ```mlir
    %c = stream.async.clone %r : !stream.resource<*>{%s}
        -> !stream.resource<*>{%s}
    ```
  }];
  let arguments = (ins Stream_AnyResource:$source, Index:$source_size,
                       Index:$result_size);
  let results = (outs Stream_AnyResource:$result);
  let assemblyFormat = [{
    $source `:` qualified(type($source)) `{` $source_size `}` `->`
    qualified(type($result)) `{` $result_size `}` attr-dict
  }];
}

def Stream_AsyncTransferOp : Stream_Op<"async.transfer", [
    MemoryEffects<[MemAlloc<DefaultResource>, MemRead<DefaultResource>]>]> {
  let summary = "a copy of a resource into another lifetime or device";
  let description = [{
    Like a clone, but the copy exists to move the value (e.g. from
    transient to external storage, or to another device), so copy elision
    keeps it; one that keeps both lifetime and device is a plain copy, which
    copy elision treats like a clone.

    ```mlir
    %e = stream.async.transfer %r : !stream.resource<transient>{%s}
        -> !stream.resource<external>{%s}
    ```
  }];
  let arguments = (ins Stream_AnyResource:$source, Index:$source_size,
                       Index:$result_size);
  let results = (outs Stream_AnyResource:$result);
  let assemblyFormat = [{
    $source `:` qualified(type($source)) `{` $source_size `}` `->`
    qualified(type($result)) `{` $result_size `}` attr-dict
  }];
}

def Stream_AsyncSliceOp : Stream_Op<"async.slice", [
    MemoryEffects<[MemAlloc<DefaultResource>, MemRead<DefaultResource>]>]> {
  let summary = "a new resource holding a byte range of another";
  let description = [{
    What a contiguous `tensor.extract_slice` becomes: the `result_size`
    bytes of `source` from byte `source_offset` on, as a value of its own
    (so copy-on-write, elision and reference counting treat it like a
    clone). stream-schedule-allocation makes it a view (its readers read
    the source at the offset, no copy) where nothing writes the source in
    place while the slice is read and every reader of the slice can read
    at an offset; else a copy into a new allocation.

    ```mlir
    %s = stream.async.slice %r[%offset] : !stream.resource<*>{%size}
        -> !stream.resource<*>{%length}
    ```
  }];
  let arguments = (ins Stream_AnyResource:$source, Index:$source_size,
                       Index:$source_offset, Index:$result_size);
  let results = (outs Stream_AnyResource:$result);
  let assemblyFormat = [{
    $source `[` $source_offset `]` `:` qualified(type($source)) `{`
    $source_size `}` `->` qualified(type($result)) `{` $result_size `}`
    attr-dict
  }];
}

def Stream_AsyncFillOp : Stream_Op<"async.fill", [
    AllTypesMatch<["target", "result"]>,
    DeclareOpInterfaceMethods<Stream_TiedOpInterface>]> {
  let summary = "sets every element of a resource to a value, in place";
  let description = [{
    The result is `target`, written in place.

    ```mlir
    %r = stream.async.fill %c0, %t : i32 -> !stream.resource<*>{%s}
    ```
  }];
  let arguments = (ins AnyTypeOf<[AnySignlessInteger, F16, BF16, F32, F64]>:$value,
                       Stream_AnyResource:$target, Index:$target_size);
  let results = (outs Stream_AnyResource:$result);
  let assemblyFormat = [{
    $value `,` $target `:` type($value) `->` qualified(type($result))
    `{` $target_size `}` attr-dict
  }];
  let hasVerifier = 1;
}

def Stream_AsyncUpdateOp : Stream_Op<"async.update", [
    AllTypesMatch<["target", "result"]>,
    DeclareOpInterfaceMethods<Stream_TiedOpInterface>]> {
  let summary = "copies a resource into part of another, in place";
  let description = [{
    Writes `update` into `target` at byte `offset`; the result is `target`.

    ```mlir
    %r = stream.async.update %u, %t[%offset] : !stream.resource<*>{%us}
        -> !stream.resource<*>{%ts}
    ```
  }];
  let arguments = (ins Stream_AnyResource:$update, Index:$update_size,
                       Stream_AnyResource:$target, Index:$target_size,
                       Index:$target_offset);
  let results = (outs Stream_AnyResource:$result);
  let assemblyFormat = [{
    $update `,` $target `[` $target_offset `]` `:`
    qualified(type($update)) `{` $update_size `}` `->`
    qualified(type($result)) `{` $target_size `}` attr-dict
  }];
}

def Stream_AsyncCallOp : Stream_Op<"async.call", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<Stream_TiedOpInterface>]> {
  let summary = "calls a function on resources; tied results are in place";
  let description = [{
    A result tied to an operand is that operand, written by the callee.
    Ties must match the callee's `stream.tied_operands` (verified), so every
    call site and the function agree on what is written. `dims` are the
    dynamic dimensions of the callee's tensor arguments, in order, which an
    external callee receives with its buffers.

    ```mlir
    %r = stream.async.call @Double.function(%a, %b)
        : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %b{%s}
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<Stream_AnyResource>:$resource_operands,
                       Variadic<Index>:$resource_operand_sizes,
                       Variadic<Index>:$argument_dims,
                       Variadic<Index>:$result_sizes,
                       OptionalAttr<DenseI64ArrayAttr>:$tied_operands);
  let results = (outs Variadic<Stream_AnyResource>:$results);
  let assemblyFormat = [{
    $callee `(` $resource_operands `)` (`dims` `(` $argument_dims^ `)`)? `:`
    custom<SizedTypeList>(type($resource_operands), $resource_operand_sizes)
    `->` custom<TiedResults>(type($results), $result_sizes,
                             ref($resource_operands),
                             ref(type($resource_operands)), $tied_operands)
    attr-dict
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

    `indeterminate` marks an allocation whose lifetime the compiler could not
    decide: explicit deallocation is ignored and the memory goes when the
    last reference to the buffer goes.

    ```mlir
    %r, %t = stream.resource.alloca uninitialized await(%t0)
        : !stream.resource<transient>{%size} => !stream.timepoint
    %u, %ut = stream.resource.alloca uninitialized indeterminate
        : !stream.resource<transient>{%size} => !stream.timepoint
    ```
  }];
  let arguments = (ins Optional<Stream_Timepoint>:$await_timepoint,
                       Index:$storage_size, UnitAttr:$indeterminate);
  let results = (outs Stream_AnyResource:$result,
                      Stream_Timepoint:$result_timepoint);
  let assemblyFormat = [{
    `uninitialized` (`indeterminate` $indeterminate^)?
    (`await` `(` $await_timepoint^ `)`)? `:`
    qualified(type($result)) `{` $storage_size `}` `=` `>` type($result_timepoint)
    attr-dict
  }];
}

def Stream_ResourceConstantOp : Stream_Op<"resource.constant", [Pure]> {
  let summary = "read-only storage holding constant data";
  let description = [{
    The module's copy of `value`: usable at once, never written (copy-on-write
    copies it before any write), never freed by the program. Identical
    constants are one storage.

    ```mlir
    %c = stream.resource.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
        -> !stream.resource<constant>{%size}
    ```
  }];
  let arguments = (ins ElementsAttr:$value, Index:$storage_size);
  let results = (outs Stream_AnyResource:$result);
  let assemblyFormat = [{
    $value `->` qualified(type($result)) `{` $storage_size `}` attr-dict
  }];
}

def Stream_ResourceSizeOp : Stream_Op<"resource.size", [Pure]> {
  let summary = "the byte size of a resource";
  let description = [{
    For a resource whose size no op in scope names, such as one carried
    through a loop or yielded out of a region: the size it was allocated
    with.

    ```mlir
    %size = stream.resource.size %r : !stream.resource<transient> -> index
    ```
  }];
  let arguments = (ins Stream_AnyResource:$operand);
  let results = (outs Index:$result);
  let assemblyFormat = [{
    $operand `:` qualified(type($operand)) `->` type($result) attr-dict
  }];
}

def Stream_ResourceDeallocaOp : Stream_Op<"resource.dealloca", [
    AttrSizedOperandSegments, MemoryEffects<[MemFree<DefaultResource>]>]> {
  let summary = "returns a resource's memory in timeline order";
  let description = [{
    Frees the resource once `await_timepoint` is reached: after its last use.

    `origin` routes the deallocation to the device and queue the buffer was
    allocated on (for buffers whose placement the program does not know).
    `if(%c)` frees only when `%c` is true (e.g. the result of
    `stream.resource.release`); otherwise the op only orders the timeline.

    ```mlir
    %t = stream.resource.dealloca await(%t0) %r
        : !stream.resource<transient>{%size} => !stream.timepoint
    %t2 = stream.resource.dealloca origin if(%last) await(%t0) %r
        : !stream.resource<external>{%size} => !stream.timepoint
    ```
  }];
  let arguments = (ins Optional<Stream_Timepoint>:$await_timepoint,
                       Stream_AnyResource:$operand, Index:$operand_size,
                       Optional<I1>:$condition, UnitAttr:$prefer_origin);
  let results = (outs Stream_Timepoint:$result_timepoint);
  let hasVerifier = 1;
  let assemblyFormat = [{
    (`origin` $prefer_origin^)? (`if` `(` $condition^ `)`)?
    (`await` `(` $await_timepoint^ `)`)? $operand `:`
    qualified(type($operand)) `{` $operand_size `}` `=` `>` type($result_timepoint)
    attr-dict
  }];
}

def Stream_ResourceRetainOp : Stream_Op<"resource.retain"> {
  let summary = "adds an owner of a resource's memory";
  let description = [{
    Ownership (who must free) is separate from holding a reference. Retain
    before handing a resource to someone that will release it later.

    ```mlir
    stream.resource.retain %r : !stream.resource<external>{%size}
    ```
  }];
  let arguments = (ins Stream_AnyResource:$operand, Index:$operand_size);
  let assemblyFormat = [{
    $operand `:` qualified(type($operand)) `{` $operand_size `}` attr-dict
  }];
  let hasVerifier = 1;
}

def Stream_ResourceReleaseOp : Stream_Op<"resource.release"> {
  let summary = "removes an owner; true when it was the last";
  let description = [{
    Where the program cannot see whether someone else took ownership (an
    external call that may keep an argument), it releases its own and frees
    only if it was the last owner:

    ```mlir
    %last = stream.resource.release %r : !stream.resource<external>{%size}
    %t = stream.resource.dealloca if(%last) await(%t0) %r : ...
    ```
  }];
  let arguments = (ins Stream_AnyResource:$operand, Index:$operand_size);
  let results = (outs I1:$was_terminal);
  let assemblyFormat = [{
    $operand `:` qualified(type($operand)) `{` $operand_size `}` attr-dict
  }];
  let hasVerifier = 1;
}

def Stream_ResourceIsTerminalOp : Stream_Op<"resource.is_terminal"> {
  let summary = "true when the program is a resource's only owner";
  let description = [{
    The run-time answer to "may this be written in place?" where the
    compiler cannot decide.

    ```mlir
    %only = stream.resource.is_terminal %r : !stream.resource<external>{%size}
    ```
  }];
  let arguments = (ins Stream_AnyResource:$operand, Index:$operand_size);
  let results = (outs I1:$result);
  let assemblyFormat = [{
    $operand `:` qualified(type($operand)) `{` $operand_size `}` attr-dict
  }];
  let hasVerifier = 1;
}

def Stream_ResourceLoadOp : Stream_Op<"resource.load"> {
  let summary = "reads one element of a resource on the host";
  let description = [{
    A host read (`tensor.extract`): the element of the result's type at byte
    `offset`. In the async phase it reads the resource value;
    stream-schedule-allocation makes it wait (a `stream.timepoint.await`)
    for the work that produced the resource, and only for that. It is a use
    of the resource, done on the host when it returns: the resource is freed
    after it. The offset is in bounds (the import checks the indices); the
    runtime checks again.

    ```mlir
    %v = stream.resource.load %r[%offset] : !stream.resource<*>{%size} -> i32
    ```
  }];
  let arguments = (ins Stream_AnyResource:$source, Index:$source_size,
                       Index:$source_offset);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $source `[` $source_offset `]` `:` qualified(type($source)) `{`
    $source_size `}` `->` type($result) attr-dict
  }];
  let hasVerifier = 1;
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

def Stream_CmdDispatchEntryOp : Stream_Op<"cmd.dispatch.entry", [AttrSizedOperandSegments]> {
  let summary = "runs an entry of a native executable in timeline order";
  let description = [{
    The command form of `stream.async.dispatch.entry`: the resources are the
    entry's bindings in order; `output_index` names the one it writes (the
    tied destination). Each binding is its whole resource unless
    `ranges(offsets) lengths(lengths)` give a byte range per binding (a
    slice read in place, or a tile made in part of a larger resource). Runs once `await_timepoint` is reached;
    `result_timepoint` is reached when every workgroup is done.

    ```mlir
    %t = stream.cmd.dispatch.entry @dispatch_0::@dispatch_0
        workgroups(%x, %c1, %c1) push_constants(%m) output(2) await(%t0)
        (%a, %b, %c) : (!stream.resource<external>{%sa},
        !stream.resource<external>{%sb}, !stream.resource<transient>{%sc})
        => !stream.timepoint
    ```
  }];
  let arguments = (ins SymbolRefAttr:$entry,
                       Variadic<Index>:$workgroups,
                       Variadic<Index>:$push_constants,
                       I64Attr:$output_index,
                       Optional<Stream_Timepoint>:$await_timepoint,
                       Variadic<Stream_AnyResource>:$resource_operands,
                       Variadic<Index>:$resource_operand_sizes,
                       Variadic<Index>:$binding_offsets,
                       Variadic<Index>:$binding_lengths);
  let results = (outs Stream_Timepoint:$result_timepoint);
  let assemblyFormat = [{
    $entry `workgroups` `(` $workgroups `)`
    `push_constants` `(` $push_constants `)` `output` `(` $output_index `)`
    (`await` `(` $await_timepoint^ `)`)?
    `(` $resource_operands `)` `:`
    custom<SizedTypeList>(type($resource_operands), $resource_operand_sizes)
    (`ranges` `(` $binding_offsets^ `)` `lengths` `(` $binding_lengths `)`)?
    `=` `>` type($result_timepoint) attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Value getOutput() {
      return getResourceOperands()[getOutputIndex()];
    }
    ::mlir::Value getOutputSize() {
      return getResourceOperandSizes()[getOutputIndex()];
    }
  }];
}

def Stream_CmdFillOp : Stream_Op<"cmd.fill", [AttrSizedOperandSegments]> {
  let summary = "sets every element of a resource, in timeline order";
  let description = [{
    With a range (`[%offset for %length]`, bytes) only that part of the
    target: a value allocation scheduling makes in part of another
    resource (an `insert_slice` tile).

    ```mlir
    %t = stream.cmd.fill %c0, %r await(%t0) : i32
        -> !stream.resource<transient>{%s} => !stream.timepoint
    ```
  }];
  let arguments = (ins AnyTypeOf<[AnySignlessInteger, F16, BF16, F32, F64]>:$value,
                       Stream_AnyResource:$target, Index:$target_size,
                       Optional<Index>:$target_offset,
                       Optional<Index>:$target_length,
                       Optional<Stream_Timepoint>:$await_timepoint);
  let results = (outs Stream_Timepoint:$result_timepoint);
  let assemblyFormat = [{
    $value `,` $target
    (`[` $target_offset^ `for` $target_length `]`)?
    (`await` `(` $await_timepoint^ `)`)? `:` type($value)
    `->` qualified(type($target)) `{` $target_size `}` `=` `>`
    type($result_timepoint) attr-dict
  }];
}

def Stream_CmdCopyOp : Stream_Op<"cmd.copy"> {
  let summary = "copies bytes between resources, in timeline order";
  let description = [{
    ```mlir
    %t = stream.cmd.copy %src[%c0], %dst[%offset], %length await(%t0)
        : !stream.resource<external>{%ss} -> !stream.resource<transient>{%ds}
        => !stream.timepoint
    ```
  }];
  let arguments = (ins Stream_AnyResource:$source, Index:$source_size,
                       Index:$source_offset,
                       Stream_AnyResource:$target, Index:$target_size,
                       Index:$target_offset, Index:$length,
                       Optional<Stream_Timepoint>:$await_timepoint);
  let results = (outs Stream_Timepoint:$result_timepoint);
  let assemblyFormat = [{
    $source `[` $source_offset `]` `,` $target `[` $target_offset `]` `,`
    $length (`await` `(` $await_timepoint^ `)`)? `:`
    qualified(type($source)) `{` $source_size `}` `->`
    qualified(type($target)) `{` $target_size `}` `=` `>`
    type($result_timepoint) attr-dict
  }];
}

def Stream_CmdCallOp : Stream_Op<"cmd.call", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<Stream_TiedOpInterface>]> {
  let summary = "calls a function in timeline order";
  let description = [{
    The callee receives the await point and signals the result timepoint
    (the coarse-fences ABI); tied results are operands written in place.

    ```mlir
    %r, %t = stream.cmd.call @Double.function(%a, %b) await(%t0)
        : (!stream.resource<external>{%s}, !stream.resource<external>{%s})
        -> %b{%s} => !stream.timepoint
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<Stream_AnyResource>:$resource_operands,
                       Variadic<Index>:$resource_operand_sizes,
                       Variadic<Index>:$argument_dims,
                       Variadic<Index>:$result_sizes,
                       Optional<Stream_Timepoint>:$await_timepoint,
                       OptionalAttr<DenseI64ArrayAttr>:$tied_operands);
  let results = (outs Variadic<Stream_AnyResource>:$results,
                      Stream_Timepoint:$result_timepoint);
  let assemblyFormat = [{
    $callee `(` $resource_operands `)` (`dims` `(` $argument_dims^ `)`)?
    (`await` `(` $await_timepoint^ `)`)? `:`
    custom<SizedTypeList>(type($resource_operands), $resource_operand_sizes)
    `->` custom<TiedResults>(type($results), $result_sizes,
                             ref($resource_operands),
                             ref(type($resource_operands)), $tied_operands)
    `=` `>` type($result_timepoint) attr-dict
  }];
  let hasVerifier = 1;
}

def Stream_CmdExecuteOp : Stream_Op<"cmd.execute", [
    AttrSizedOperandSegments, SingleBlock, NoTerminator]> {
  let summary = "an execution region: cmd ops submitted together, in order";
  let description = [{
    Groups device work that needs nothing but what came before it: once
    `await_timepoint` is reached, the dispatches, fills and copies of the
    body run one after another, in program order, on one queue (the
    device of the region's `stream.affinity`, printed as `on(...)`), and
    `result_timepoint` is reached when the last is done. The region is the
    unit of submission: one wait before it, one signal after it.

    The body holds only `stream.cmd.dispatch`, `stream.cmd.fill` and
    `stream.cmd.copy`, without their own await (order is program order)
    and with their timepoints unused (the region's stands for them). Memory
    is managed on the timeline around the region, never inside it: no
    alloca, dealloca, ownership op or call (calls run on the host).

    Resources are captured: each `%r as %arg` makes the region's op a use
    of `%r`, so passes that follow resources (reference counting, the peak
    memory walk, the HAL lowering's device analysis) see the region as one
    user and need not look inside. Scalars (sizes, counts, fill values) are
    used from above.

    ```mlir
    %t = stream.cmd.execute on(#hal.device.affinity<@a>) await(%t0)
        with(%x as %arg0: !stream.resource<external>{%s},
             %y as %arg1: !stream.resource<transient>{%s}) {
      %0 = stream.cmd.dispatch kernel("add") type(i32) count(%n)
          (%arg0, %arg0, %arg1) : (!stream.resource<external>{%s},
          !stream.resource<external>{%s}, !stream.resource<transient>{%s})
          => !stream.timepoint
      %1 = stream.cmd.fill %c0, %arg1 : i32
          -> !stream.resource<transient>{%s} => !stream.timepoint
    } => !stream.timepoint
    ```
  }];
  let arguments = (ins Optional<Stream_Timepoint>:$await_timepoint,
                       Variadic<Stream_AnyResource>:$resource_operands,
                       Variadic<Index>:$resource_operand_sizes);
  let results = (outs Stream_Timepoint:$result_timepoint);
  let regions = (region SizedRegion<1>:$commands);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    // An empty body whose arguments stand for `resources`.
    OpBuilder<(ins "::mlir::Value":$awaitTimepoint,
                   "::mlir::ValueRange":$resources,
                   "::mlir::ValueRange":$sizes)>,
  ];
  let extraClassDeclaration = [{
    // The region argument standing for captured resource `index`.
    ::mlir::BlockArgument getCapture(unsigned index) {
      return getBody()->getArgument(index);
    }
    // Whether some op of the body writes captured resource `index`.
    bool writesCapture(unsigned index);
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

def Stream_TimepointImmediateOp : Stream_Op<"timepoint.immediate", [Pure]> {
  let summary = "a timepoint that is already reached";
  let description = [{
    What a value that waits for nothing carries: the first value of a
    timepoint carried through a loop, or the branch of an `scf.if` that
    does no work.

    ```mlir
    %t = stream.timepoint.immediate => !stream.timepoint
    ```
  }];
  let results = (outs Stream_Timepoint:$result_timepoint);
  let assemblyFormat = [{
    `=` `>` type($result_timepoint) attr-dict
  }];
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
