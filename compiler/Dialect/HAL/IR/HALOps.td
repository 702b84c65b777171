#ifndef FERRY_DIALECT_HAL_OPS
#define FERRY_DIALECT_HAL_OPS

include "compiler/Dialect/HAL/IR/HALBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/EnumAttr.td"

def HAL_Lifetime : I32EnumAttr<"Lifetime", "what an allocation is used for", [
  I32EnumAttrCase<"External", 0, "external">,
  I32EnumAttrCase<"Staging", 1, "staging">,
  I32EnumAttrCase<"Transient", 2, "transient">,
  I32EnumAttrCase<"Variable", 3, "variable">,
  I32EnumAttrCase<"Constant", 4, "constant">,
]> {
  let cppNamespace = "::ferry::hal";
}

class HAL_Op<string mnemonic, list<Trait> traits = []>
    : Op<HAL_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Bit constants
//===----------------------------------------------------------------------===//

class HAL_BitsConstantOp<string mnemonic, string bitKind>
    : HAL_Op<mnemonic, [ConstantLike, Pure]> {
  let arguments = (ins I32Attr:$value);
  let results = (outs I32:$result);
  let assemblyFormat = "`<` custom<" # bitKind # ">($value) `>` attr-dict `:` type($result)";
  let hasFolder = 1;
}

def HAL_MemoryTypeOp : HAL_BitsConstantOp<"memory_type", "MemoryTypeBits"> {
  let summary = "memory type bits as an i32 value";
  let description = [{
    Memory type bits are SSA values rather than attributes of the allocation
    ops, so that a later pass can replace a constant with a run-time answer.
    The bit names and values are shared with the runtime
    (runtime/hal/buffer_bits.h).

    ```mlir
    %memory_type = hal.memory_type<"HostVisible|DeviceLocal"> : i32
    ```
  }];
}

def HAL_BufferUsageOp : HAL_BitsConstantOp<"buffer_usage", "BufferUsageBits"> {
  let summary = "buffer usage bits as an i32 value";
  let description = [{
    Usage bits, as an SSA value for the same reason as `hal.memory_type`.

    ```mlir
    %usage = hal.buffer_usage<"Transfer|DispatchStorage"> : i32
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

def HAL_DeviceGlobalOp : HAL_Op<"device.global", [Symbol,
    HasParent<"::mlir::ModuleOp">, Stream_DeviceDeclarationOp]> {
  let summary = "declares a device the program runs on";
  let description = [{
    A named device of the program. The runtime binds each declared device to
    a driver (`ferry-run --device=NAME=DRIVER`); the target says which driver
    the compiler expects and what the device can do.

    ```mlir
    hal.device.global @__device_0 = #hal.device.target<"local", {}>
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, HAL_DeviceTargetAttr:$target);
  let assemblyFormat = "$sym_name `=` qualified($target) attr-dict";
}

def HAL_DeviceGetOp : HAL_Op<"device.get", [Pure,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the runtime device bound to a declared device";
  let description = [{
    ```mlir
    %device = hal.device.get @__device_0 : !hal.device
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$device);
  let results = (outs HAL_Device:$result);
  let assemblyFormat = "$device attr-dict `:` type($result)";
}

def HAL_DeviceQueryOp : HAL_Op<"device.query", [Pure]> {
  let summary = "asks a running device a question about itself or a peer";
  let description = [{
    Asks the device the (`category`, `key`) question the runtime documents
    in runtime/hal/device.h (for example `"hal.device.link"` /
    `"device_b:transparent_access"`). `ok` says whether the device knew the
    answer; `value` is its answer, or `default` when it did not, truncated
    to the value's integer type. Emitted where the compiler cannot decide a
    capability; `--hal-memoize-device-queries` runs each distinct query once
    at module initialization.

    ```mlir
    %ok, %value = hal.device.query<%device : !hal.device>
        category("hal.device.link") key("device_b:transparent_access")
        default(0) : i1, i32
    ```
  }];
  let arguments = (ins HAL_Device:$device, StrAttr:$category, StrAttr:$key,
                       DefaultValuedAttr<I64Attr, "0">:$default_value);
  let results = (outs I1:$ok, AnySignlessInteger:$value);
  let assemblyFormat = [{
    `<` $device `:` type($device) `>` `category` `(` $category `)`
    `key` `(` $key `)` (`default` `(` $default_value^ `)`)? attr-dict
    `:` type($ok) `,` type($value)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Allocators
//===----------------------------------------------------------------------===//

def HAL_AllocatorResolveMemoryPropertiesOp
    : HAL_Op<"allocator.resolve_memory_properties", [Pure,
        DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the memory type and usage bits an allocation needs";
  let description = [{
    Stands for the bits an allocation of the given lifetime needs so that
    every device in `for` can use it. Lowering from stream always emits it
    (one per allocation), so conversion patterns need no global knowledge;
    `--hal-resolve-topology-queries` then replaces it with constants or, when
    only the running devices know, with device queries and the bit
    arithmetic over their answers. `for` is a `#hal.device.affinity` or a
    `#hal.device.optimal`; without it the bits follow from the lifetime
    alone.

    ```mlir
    %memory_types, %buffer_usage = hal.allocator.resolve_memory_properties
        for(#hal.device.optimal<[#hal.device.affinity<@a>,
                                 #hal.device.affinity<@b>]>)
        lifetime(transient) : i32, i32
    ```
  }];
  let arguments = (ins OptionalAttr<AnyAttr>:$affinity,
                       HAL_Lifetime:$lifetime);
  let results = (outs I32:$memory_types, I32:$buffer_usage);
  let assemblyFormat = [{
    (`for` `(` $affinity^ `)`)? `lifetime` `(` $lifetime `)` attr-dict
    `:` type($memory_types) `,` type($buffer_usage)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    // The device symbols in `for`, in order, each once.
    ::llvm::SmallVector<::mlir::FlatSymbolRefAttr> getDeviceSymbols();
    // How many affinities `for` lists (0 without `for`).
    size_t getAffinityCount();
  }];
}

def HAL_AllocatorSelectOp : HAL_Op<"allocator.select", [Pure]> {
  let summary = "picks at run time the device that allocates a shared buffer";
  let description = [{
    Among devices that all use one buffer, returns the one to allocate it
    on. `type` and `usage` are the bits the buffer is allocated with (they
    tie the choice to its `hal.allocator.resolve_memory_properties`).
    `--hal-resolve-topology-queries` replaces it with `hal.device.get` when
    the topology or `--lead-allocation-device` decides; otherwise the runtime
    decides from its topology: the first device whose memory every other
    one accesses transparently, else the first every other shares unified
    memory with, else the first whose buffers every other can import, else
    the first.

    ```mlir
    %device = hal.allocator.select from([%a, %b]) type(%memory_types)
        usage(%buffer_usage) : !hal.device
    ```
  }];
  let arguments = (ins Variadic<HAL_Device>:$devices, I32:$memory_types,
                       I32:$buffer_usage);
  let results = (outs HAL_Device:$result);
  let assemblyFormat = [{
    `from` `(` `[` $devices `]` `)` `type` `(` $memory_types `)`
    `usage` `(` $buffer_usage `)` attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def HAL_DeviceImportBufferOp : HAL_Op<"device.import_buffer"> {
  let summary = "makes a buffer allocated on one device usable on another";
  let description = [{
    A device may touch another device's buffer directly only when the link
    gives it transparent access to that memory. Otherwise the buffer must be
    exported by the device that allocated it and imported into this
    device's allocator: the result is the same memory, owned by `device`,
    with the source's memory type and usage minus `SharingExport`, plus
    `SharingImport`. `convert-stream-to-hal` emits it for each queue
    operation that uses a buffer allocated on a device without (statically
    known) transparent access to it; `hal-resolve-topology-queries` drops
    the ones the resolved topology makes unnecessary.

    At run time the result is the buffer itself when `device` allocated it
    or reaches its memory transparently (so importing is cheap where memory
    is shared); otherwise the allocating device exports it as an opaque fd
    (the buffer needs `SharingExport`) and `device` imports that fd (its
    allocator must import opaque fds). Errors name the buffer, both devices
    and the missing bit or handle type. A buffer whose queue alloca has not
    executed yet has no memory to export: the runtime then waits on the host
    for `wait`, a fence signalled once it has (the alloca's signal fence).

    Ownership (`hal.buffer.allocation.*`) and deallocation stay with the
    source buffer; the import only keeps the memory mapped while referenced.

    ```mlir
    %imported = hal.device.import_buffer<%device_b : !hal.device>
        buffer(%buffer : !hal.buffer) wait(%allocated) : !hal.buffer
    ```
  }];
  let arguments = (ins HAL_Device:$device, HAL_Buffer:$source_buffer,
                       Optional<HAL_Fence>:$wait_fence);
  let results = (outs HAL_Buffer:$result);
  let assemblyFormat = [{
    `<` $device `:` type($device) `>`
    `buffer` `(` $source_buffer `:` type($source_buffer) `)`
    (`wait` `(` $wait_fence^ `)`)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Module globals
//===----------------------------------------------------------------------===//

def HAL_GlobalOp : HAL_Op<"global", [Symbol, HasParent<"::mlir::ModuleOp">]> {
  let summary = "an integer the module keeps between invocations";
  let description = [{
    Zero until written. Only the module initializer (`@__init`, run by the
    runtime once when it loads the module) may store to it; every other
    function reads it. Holds memoized device query answers.

    ```mlir
    hal.global @__query_0_value : i32
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, TypeAttr:$type);
  let assemblyFormat = "$sym_name attr-dict `:` $type";
  let hasVerifier = 1;
}

def HAL_GlobalLoadOp : HAL_Op<"global.load", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    MemoryEffects<[MemRead]>]> {
  let summary = "reads a module global";
  let description = [{
    ```mlir
    %value = hal.global.load @__query_0_value : i32
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$global);
  let results = (outs AnySignlessInteger:$result);
  let assemblyFormat = "$global attr-dict `:` type($result)";
}

def HAL_GlobalStoreOp : HAL_Op<"global.store", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    MemoryEffects<[MemWrite]>]> {
  let summary = "writes a module global (only in the module initializer)";
  let description = [{
    ```mlir
    hal.global.store %value, @__query_0_value : i32
    ```
  }];
  let arguments = (ins AnySignlessInteger:$value, FlatSymbolRefAttr:$global);
  let assemblyFormat = "$value `,` $global attr-dict `:` type($value)";
}

//===----------------------------------------------------------------------===//
// Buffer views
//===----------------------------------------------------------------------===//

def HAL_BufferViewDimOp : HAL_Op<"buffer_view.dim", [Pure,
    DeclareOpInterfaceMethods<Stream_ExternalBufferDimOp>]> {
  let summary = "one dimension of a buffer view's shape";
  let description = [{
    ```mlir
    %d0 = hal.buffer_view.dim<%view : !hal.buffer_view>[0] : index
    ```
  }];
  let arguments = (ins HAL_BufferView:$buffer_view, IndexAttr:$index);
  let results = (outs Index:$result);
  let assemblyFormat = [{
    `<` $buffer_view `:` type($buffer_view) `>` `[` $index `]` attr-dict `:` type($result)
  }];
}

def HAL_BufferViewAssertOp : HAL_Op<"buffer_view.assert"> {
  let summary = "checks that a buffer view has the expected shape and type";
  let description = [{
    Fails the invocation with `message` and a description of the mismatch
    when the view's rank, dimensions or element type differ from those given.
    Guards every tensor that enters a program from the host.

    ```mlir
    hal.buffer_view.assert<%view : !hal.buffer_view> message("input 0")
        shape([%d0, %c4]) type(i32)
    ```
  }];
  let arguments = (ins HAL_BufferView:$buffer_view, StrAttr:$message,
                       Variadic<Index>:$shape, TypeAttr:$element_type);
  let assemblyFormat = [{
    `<` $buffer_view `:` type($buffer_view) `>` `message` `(` $message `)`
    `shape` `(` `[` $shape `]` `)` `type` `(` $element_type `)` attr-dict
  }];
  let hasVerifier = 1;
}

def HAL_BufferViewBufferOp : HAL_Op<"buffer_view.buffer", [Pure]> {
  let summary = "the buffer a buffer view refers to";
  let arguments = (ins HAL_BufferView:$buffer_view);
  let results = (outs HAL_Buffer:$result);
  let assemblyFormat = [{
    `<` $buffer_view `:` type($buffer_view) `>` attr-dict `:` type($result)
  }];
}

def HAL_BufferViewCreateOp : HAL_Op<"buffer_view.create", [Pure]> {
  let summary = "gives a buffer a shape and element type";
  let description = [{
    ```mlir
    %view = hal.buffer_view.create buffer(%buffer : !hal.buffer)
        shape([%d0]) type(i32) : !hal.buffer_view
    ```
  }];
  let arguments = (ins HAL_Buffer:$source_buffer, Variadic<Index>:$shape,
                       TypeAttr:$element_type);
  let results = (outs HAL_BufferView:$result);
  let assemblyFormat = [{
    `buffer` `(` $source_buffer `:` type($source_buffer) `)`
    `shape` `(` `[` $shape `]` `)` `type` `(` $element_type `)` attr-dict
    `:` type($result)
  }];
  let hasVerifier = 1;
}

def HAL_BufferLengthOp : HAL_Op<"buffer.length", [Pure]> {
  let summary = "the byte length of a buffer";
  let arguments = (ins HAL_Buffer:$buffer);
  let results = (outs Index:$result);
  let assemblyFormat = "`<` $buffer `:` type($buffer) `>` attr-dict `:` type($result)";
}

def HAL_BufferLoadOp : HAL_Op<"buffer.load"> {
  let summary = "reads one element of a buffer on the host";
  let description = [{
    The element of the result's type (an integer or float of 8 to 64 bits)
    at byte `offset`, read through a mapping when the host can map the
    buffer, else through a host-visible staging copy on the device that
    allocated it. The work writing it must be done (a `hal.fence.await`
    before). An offset past the end fails naming the buffer.

    ```mlir
    %v = hal.buffer.load<%buffer : !hal.buffer>[%offset] : i32
    ```
  }];
  let arguments = (ins HAL_Buffer:$buffer, Index:$offset);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    `<` $buffer `:` type($buffer) `>` `[` $offset `]` attr-dict `:`
    type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Fences
//===----------------------------------------------------------------------===//

def HAL_FenceCreateOp : HAL_Op<"fence.create", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "a new, unsignalled fence on a device's timeline";
  let description = [{
    Each queue operation signals a fence; later operations wait on it. Not
    pure: two fences are never the same fence.

    ```mlir
    %fence = hal.fence.create device(%device : !hal.device) : !hal.fence
    ```
  }];
  let arguments = (ins HAL_Device:$device);
  let results = (outs HAL_Fence:$result);
  let assemblyFormat = "`device` `(` $device `:` type($device) `)` attr-dict `:` type($result)";
}

def HAL_FenceAwaitOp : HAL_Op<"fence.await"> {
  let summary = "blocks the host until every fence is signalled";
  let description = [{
    Fails the invocation with a fence's failure status if any failed.

    ```mlir
    hal.fence.await until([%f0, %f1])
    ```
  }];
  let arguments = (ins Variadic<HAL_Fence>:$fences);
  let assemblyFormat = "`until` `(` `[` $fences `]` `)` attr-dict";
}

def HAL_FenceJoinOp : HAL_Op<"fence.join", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "a fence signalled once all of the given fences are";
  let description = [{
    Fails with the first failure among its inputs.

    ```mlir
    %joined = hal.fence.join at([%f0, %f1]) -> !hal.fence
    ```
  }];
  let arguments = (ins Variadic<HAL_Fence>:$fences);
  let results = (outs HAL_Fence:$result);
  let assemblyFormat = "`at` `(` `[` $fences `]` `)` attr-dict `->` type($result)";
}

//===----------------------------------------------------------------------===//
// Queue operations
//===----------------------------------------------------------------------===//

def HAL_DeviceQueueAllocaOp : HAL_Op<"device.queue.alloca"> {
  let summary = "allocates a buffer in queue order";
  let description = [{
    Allocates `size` bytes with the given memory type and usage bits once
    `wait` is signalled (immediately when absent), then signals `signal`. The
    contents are undefined. `indeterminate` sets the runtime's
    indeterminate-lifetime flag: deallocas of the buffer only order the
    timeline and its memory goes with its last reference.

    ```mlir
    %buffer = hal.device.queue.alloca<%device : !hal.device>
        wait(%f0) signal(%f1) type(%memory_type) usage(%usage)
        : !hal.buffer{%size}
    ```
  }];
  let arguments = (ins HAL_Device:$device, Optional<HAL_Fence>:$wait_fence,
                       HAL_Fence:$signal_fence, I32:$memory_types,
                       I32:$buffer_usage, Index:$result_size,
                       UnitAttr:$indeterminate);
  let results = (outs HAL_Buffer:$result);
  let assemblyFormat = [{
    `<` $device `:` type($device) `>`
    (`wait` `(` $wait_fence^ `)`)? `signal` `(` $signal_fence `)`
    `type` `(` $memory_types `)` `usage` `(` $buffer_usage `)`
    (`indeterminate` $indeterminate^)?
    attr-dict `:` type($result) `{` $result_size `}`
  }];
}

def HAL_DeviceQueueDeallocaOp : HAL_Op<"device.queue.dealloca", [
    AttrSizedOperandSegments]> {
  let summary = "returns a buffer's memory in queue order";
  let description = [{
    `prefer_origin` routes the deallocation to the device and queue that
    allocated the buffer. With `if(%c)`, memory is freed only when `%c` is
    true; otherwise the op only orders the timeline, like a barrier.

    ```mlir
    hal.device.queue.dealloca<%device : !hal.device>
        wait(%f0) signal(%f1) buffer(%buffer : !hal.buffer)
    hal.device.queue.dealloca<%device : !hal.device> signal(%f2)
        buffer(%buffer : !hal.buffer) prefer_origin if(%last)
    ```
  }];
  let arguments = (ins HAL_Device:$device, Optional<HAL_Fence>:$wait_fence,
                       HAL_Fence:$signal_fence, HAL_Buffer:$buffer,
                       Optional<I1>:$condition, UnitAttr:$prefer_origin);
  let assemblyFormat = [{
    `<` $device `:` type($device) `>`
    (`wait` `(` $wait_fence^ `)`)? `signal` `(` $signal_fence `)`
    `buffer` `(` $buffer `:` type($buffer) `)`
    (`prefer_origin` $prefer_origin^)? (`if` `(` $condition^ `)`)? attr-dict
  }];
}

def HAL_DeviceQueueFillOp : HAL_Op<"device.queue.fill"> {
  let summary = "fills part of a buffer with a repeated pattern, in queue order";
  let description = [{
    The pattern is the 1, 2, 4 or 8 bytes of `pattern`'s type.

    ```mlir
    hal.device.queue.fill<%device : !hal.device> wait(%f0) signal(%f1)
        target(%buffer : !hal.buffer)[%offset, %length] pattern(%v : i32)
    ```
  }];
  let arguments = (ins HAL_Device:$device, Optional<HAL_Fence>:$wait_fence,
                       HAL_Fence:$signal_fence, HAL_Buffer:$target_buffer,
                       Index:$target_offset, Index:$length,
                       AnyTypeOf<[AnySignlessInteger, F32, F64]>:$pattern);
  let assemblyFormat = [{
    `<` $device `:` type($device) `>`
    (`wait` `(` $wait_fence^ `)`)? `signal` `(` $signal_fence `)`
    `target` `(` $target_buffer `:` type($target_buffer) `)`
    `[` $target_offset `,` $length `]`
    `pattern` `(` $pattern `:` type($pattern) `)` attr-dict
  }];
  let hasVerifier = 1;
}

def HAL_DeviceQueueCopyOp : HAL_Op<"device.queue.copy"> {
  let summary = "copies bytes between buffers, in queue order";
  let description = [{
    ```mlir
    hal.device.queue.copy<%device : !hal.device> wait(%f0) signal(%f1)
        source(%a : !hal.buffer)[%a_offset] target(%b : !hal.buffer)[%b_offset]
        length(%length)
    ```
  }];
  let arguments = (ins HAL_Device:$device, Optional<HAL_Fence>:$wait_fence,
                       HAL_Fence:$signal_fence, HAL_Buffer:$source_buffer,
                       Index:$source_offset, HAL_Buffer:$target_buffer,
                       Index:$target_offset, Index:$length);
  let assemblyFormat = [{
    `<` $device `:` type($device) `>`
    (`wait` `(` $wait_fence^ `)`)? `signal` `(` $signal_fence `)`
    `source` `(` $source_buffer `:` type($source_buffer) `)`
    `[` $source_offset `]`
    `target` `(` $target_buffer `:` type($target_buffer) `)`
    `[` $target_offset `]` `length` `(` $length `)` attr-dict
  }];
}

//===----------------------------------------------------------------------===//
// Allocation ownership
//===----------------------------------------------------------------------===//

def HAL_BufferAllocationPreserveOp : HAL_Op<"buffer.allocation.preserve"> {
  let summary = "adds an owner of a buffer's allocation";
  let description = [{
    Acts on the root allocation (a subspan's owners are its root's).

    ```mlir
    hal.buffer.allocation.preserve<%buffer : !hal.buffer>
    ```
  }];
  let arguments = (ins HAL_Buffer:$buffer);
  let assemblyFormat = "`<` $buffer `:` type($buffer) `>` attr-dict";
}

def HAL_BufferAllocationDiscardOp : HAL_Op<"buffer.allocation.discard"> {
  let summary = "removes an owner; true when it was the last";
  let description = [{
    ```mlir
    %last = hal.buffer.allocation.discard<%buffer : !hal.buffer> : i1
    ```
  }];
  let arguments = (ins HAL_Buffer:$buffer);
  let results = (outs I1:$result);
  let assemblyFormat = "`<` $buffer `:` type($buffer) `>` attr-dict `:` type($result)";
}

def HAL_BufferAllocationIsTerminalOp
    : HAL_Op<"buffer.allocation.is_terminal"> {
  let summary = "true when the caller is the allocation's only owner";
  let description = [{
    ```mlir
    %only = hal.buffer.allocation.is_terminal<%buffer : !hal.buffer> : i1
    ```
  }];
  let arguments = (ins HAL_Buffer:$buffer);
  let results = (outs I1:$result);
  let assemblyFormat = "`<` $buffer `:` type($buffer) `>` attr-dict `:` type($result)";
}

def HAL_BufferAllocationClaimOp : HAL_Op<"buffer.allocation.claim"> {
  let summary = "the program's own copy of a buffer handed over to it";
  let description = [{
    A buffer whose ownership a caller handed over (an argument with
    `iree.abi.consume`) may be written in place only if nobody else still
    owns it. `claim` decides at run time: when the program is the
    allocation's only owner the result is the buffer itself; otherwise the
    program drops its share and the result is a copy of the buffer's bytes,
    allocated on `device` with the source's memory type and usage, that the
    program alone owns. Either way the result is the program's to write and
    to free. The copy (if any) is complete when the op returns: a claim runs
    on a buffer the host handed in, whose bytes are ready.

    ```mlir
    %own = hal.buffer.allocation.claim<%device : !hal.device>
        buffer(%buffer : !hal.buffer) : !hal.buffer
    ```
  }];
  let arguments = (ins HAL_Device:$device, HAL_Buffer:$buffer);
  let results = (outs HAL_Buffer:$result);
  let assemblyFormat = [{
    `<` $device `:` type($device) `>` `buffer` `(` $buffer `:` type($buffer) `)`
    attr-dict `:` type($result)
  }];
}

def HAL_DeviceConstantOp : HAL_Op<"device.constant", [Pure]> {
  let summary = "a read-only buffer of the module's constant data";
  let description = [{
    The module's copy of `value` as a buffer `device` may read: no
    allocation and no copy where the device reaches host memory. The
    buffer has no write or export usage, so a write into it is refused.

    ```mlir
    %b = hal.device.constant<%device : !hal.device> dense<[1, 2]> : tensor<2xi32>
    ```
  }];
  let arguments = (ins HAL_Device:$device, ElementsAttr:$value);
  let results = (outs HAL_Buffer:$result);
  let assemblyFormat = [{
    `<` $device `:` type($device) `>` $value attr-dict
  }];
}

def HAL_DeviceQueueDispatchOp : HAL_Op<"device.queue.dispatch", [AttrSizedOperandSegments]> {
  let summary = "runs a built-in kernel over buffers in queue order";
  let description = [{
    Runs the built-in elementwise kernel `kernel` (add, sub, mul) over `count`
    elements of type `element_type`. The bindings are the inputs followed by
    the output buffer.

    ```mlir
    hal.device.queue.dispatch<%device : !hal.device> wait(%f0) signal(%f1)
        kernel("add") type(i32) count(%n) bindings(%a, %b, %out)
    ```
  }];
  let arguments = (ins HAL_Device:$device, Optional<HAL_Fence>:$wait_fence,
                       HAL_Fence:$signal_fence, StrAttr:$kernel,
                       TypeAttr:$element_type, Index:$count,
                       Variadic<HAL_Buffer>:$bindings);
  let assemblyFormat = [{
    `<` $device `:` type($device) `>`
    (`wait` `(` $wait_fence^ `)`)? `signal` `(` $signal_fence `)`
    `kernel` `(` $kernel `)` `type` `(` $element_type `)` `count` `(` $count `)`
    `bindings` `(` $bindings `)` attr-dict
  }];
  let hasVerifier = 1;
}

def HAL_DeviceQueueDispatchEntryOp : HAL_Op<"device.queue.dispatch.entry", [AttrSizedOperandSegments]> {
  let summary = "runs an entry of a native executable over buffers in queue order";
  let description = [{
    Runs entry `entry` (`@executable::@function`, a dispatch function of a
    nested `builtin.module` marked `ferry.executable`) once per workgroup of
    the grid `workgroups` (x, y, z), with `push_constants` and the byte
    ranges (`binding_offsets`, `binding_lengths`) of `bindings` in order.
    The bytecode writer compiles the executable into the module's executable
    table and this op into opcode 0x39 (`hal.device.queue.dispatch.entry`);
    the runtime checks every range against its buffer and the buffer's
    dispatch usage bits before any workgroup runs.

    ```mlir
    hal.device.queue.dispatch.entry<%device : !hal.device> wait(%f0)
        signal(%f1) entry(@d0::@d0) workgroups(%x, %c1, %c1)
        push_constants(%m) bindings(%a, %b, %c) offsets(%c0, %c0, %c0)
        lengths(%la, %lb, %lc)
    ```
  }];
  let arguments = (ins HAL_Device:$device, Optional<HAL_Fence>:$wait_fence,
                       HAL_Fence:$signal_fence, SymbolRefAttr:$entry,
                       Variadic<Index>:$workgroups,
                       Variadic<Index>:$push_constants,
                       Variadic<HAL_Buffer>:$bindings,
                       Variadic<Index>:$binding_offsets,
                       Variadic<Index>:$binding_lengths);
  let assemblyFormat = [{
    `<` $device `:` type($device) `>`
    (`wait` `(` $wait_fence^ `)`)? `signal` `(` $signal_fence `)`
    `entry` `(` $entry `)` `workgroups` `(` $workgroups `)`
    `push_constants` `(` $push_constants `)` `bindings` `(` $bindings `)`
    `offsets` `(` $binding_offsets `)` `lengths` `(` $binding_lengths `)`
    attr-dict
  }];
  let hasVerifier = 1;
}

#endif // FERRY_DIALECT_HAL_OPS
