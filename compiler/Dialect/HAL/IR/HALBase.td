// The HAL dialect: devices, buffers, buffer views, fences and queue
// operations, the layer the bytecode module is serialized from.
#ifndef FERRY_DIALECT_HAL_BASE
#define FERRY_DIALECT_HAL_BASE

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
// HAL's affinity, topology, device and buffer view implement the stream
// dialect's interfaces: that is all stream IR knows of them.
include "compiler/Dialect/Stream/IR/StreamInterfaces.td"

def HAL_Dialect : Dialect {
  let name = "hal";
  let cppNamespace = "::ferry::hal";
  let summary = "Hardware abstraction: devices, buffers, queues and fences";
  let description = [{
    Models what the runtime's HAL module offers: devices named by module
    symbols, buffers allocated on their queues with explicit memory type and
    usage bits, buffer views that give a buffer a shape and element type, and
    fences that order queue operations. Programs at this level are serialized
    one op to one instruction into the bytecode module.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

class HAL_Type<string name, string typeMnemonic, string desc,
               list<Trait> traits = []>
    : TypeDef<HAL_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
  let summary = desc;
}

def HAL_Device : HAL_Type<"Device", "device", "a device with queues">;
def HAL_Buffer : HAL_Type<"Buffer", "buffer", "a range of device memory">;
def HAL_BufferView : HAL_Type<"BufferView", "buffer_view",
                              "a buffer with a shape and element type",
                              [Stream_ExternalBufferType]>;
def HAL_Fence : HAL_Type<"Fence", "fence",
                         "a point on a device timeline that queue ops signal">;

def HAL_DeviceTargetAttr : AttrDef<HAL_Dialect, "DeviceTarget"> {
  let mnemonic = "device.target";
  let summary = "the driver and declared capabilities of a device";
  let description = [{
    Names the runtime driver a device runs on and the capability properties
    it declares. The compiler builds the default topology from them (see
    `--hal-resolve-topology-queries`), so device names are never matched in
    code. Known properties (each a bool, or `#hal.runtime` when only the
    running device can tell):

    - `host_visible_memory`: the host (and devices that reach host memory)
      can map this device's memory directly.
    - `unified_memory`: the device's memory is host memory, one address
      space with the host.
    - `host_memory_access`: the device can read and write other devices'
      host-visible memory directly.
    - `export_handle_types` / `import_handle_types`: arrays of handle type
      names (`"opaque_fd"`, `"host_allocation"`) the device can export its
      buffers as / import other devices' buffers from.

    A property the target omits takes its driver's default (the `local`
    driver: host-visible, unified, host memory access, both handle types);
    for other drivers it is known only at run time. The passes reason about
    any driver name, but a bytecode module is written only for the backends
    the runtime has (`runtime/drivers/builtin_backends.h`: `local`); any
    other is an error naming the device, rather than a module that would
    run it on the CPU.

    ```mlir
    #hal.device.target<"local", {host_visible_memory = false}>
    ```
  }];
  let parameters = (ins StringRefParameter<"driver name">:$driver,
                        "::mlir::DictionaryAttr":$properties);
  let assemblyFormat = "`<` $driver `,` $properties `>`";
  let genVerifyDecl = 1;
}

def HAL_RuntimeValueAttr : AttrDef<HAL_Dialect, "RuntimeValue"> {
  let mnemonic = "runtime";
  let summary = "a capability known only at run time";
  let description = [{
    Marks a device target or topology link property whose value only the
    running devices know: resolution emits `hal.device.query` ops for it
    instead of folding it.

    ```mlir
    (@a -> @b = {transparent_access = #hal.runtime})
    ```
  }];
}

def HAL_DeviceAffinityAttr : AttrDef<HAL_Dialect, "DeviceAffinity", [
    DeclareAttrInterfaceMethods<Stream_AffinityAttr>]> {
  let mnemonic = "device.affinity";
  let summary = "the device (and optionally its queues) an op runs on";
  let description = [{
    Names a `hal.device.global`. `queue_mask` restricts the queues (bit i:
    queue i); absent means any queue. It is the stream dialect's
    `AffinityAttr`: the value of `stream.affinity`. Work with different
    affinities (another device or another queue mask) never shares a queue.

    ```mlir
    #hal.device.affinity<@device_a>
    #hal.device.affinity<@device_a, queue_mask = 3>
    ```
  }];
  let parameters = (ins "::mlir::FlatSymbolRefAttr":$device,
                        DefaultValuedParameter<"int64_t", "-1">:$queue_mask);
  let assemblyFormat = [{
    `<` $device (`,` `queue_mask` `=` $queue_mask^)? `>`
  }];
  let builders = [
    AttrBuilderWithInferredContext<(ins "::mlir::FlatSymbolRefAttr":$device), [{
      return $_get(device.getContext(), device, -1);
    }]>,
  ];
}

def HAL_DeviceOptimalAttr : AttrDef<HAL_Dialect, "DeviceOptimal"> {
  let mnemonic = "device.optimal";
  let summary = "every device that uses a value, to choose memory for all";
  let description = [{
    The set of affinities a resource is used on. Allocation resolves it to
    memory every one of them can use.

    ```mlir
    #hal.device.optimal<[#hal.device.affinity<@a>, #hal.device.affinity<@b>]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"DeviceAffinityAttr">:$affinities);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def HAL_DeviceLinkAttr : AttrDef<HAL_Dialect, "DeviceLink"> {
  let mnemonic = "device.link";
  let summary = "what one device can do with another device's memory";
  let description = [{
    A directional link: `(@a -> @b = {...})` says what @a can do with
    buffers allocated on @b (the same direction the runtime answers
    `hal.device.link` queries in: asked of @a about peer "b"). Properties:

    - `transparent_access`: @a reads and writes @b's memory directly.
    - `unified_memory`: @a and @b share one address space.
    - `import_handle_types` / `export_handle_types`: handle type names @a
      can import @b's buffers from / @b can export them as; an
      export/import path exists when the two share a type.
    - `properties`: a dictionary of further properties, carried as is.

    Booleans may be `#hal.runtime`, as may either handle type list. A
    property a user-written link omits is false.

    Written inside `#hal.device.topology`; standalone it prints as
    `#hal.device.link<@a -> @b = {...}>`.
  }];
  let parameters = (ins "::mlir::FlatSymbolRefAttr":$source,
                        "::mlir::FlatSymbolRefAttr":$target,
                        "::mlir::DictionaryAttr":$properties);
  let assemblyFormat = "`<` $source `->` $target `=` $properties `>`";
  let genVerifyDecl = 1;
}

def HAL_DeviceTopologyAttr : AttrDef<HAL_Dialect, "DeviceTopology", [
    DeclareAttrInterfaceMethods<Stream_AffinityTopologyAttr>]> {
  let mnemonic = "device.topology";
  let summary = "the declared links between a program's devices";
  let description = [{
    Written by users on the module as `stream.topology` (it is the stream
    dialect's `AffinityTopologyAttr`); links absent from it are built from
    the device targets (see
    `--hal-resolve-topology-queries`). A link to a symbol that is not a
    `hal.device.global` of the module is a verifier error.

    ```mlir
    module attributes {stream.topology = #hal.device.topology<links = [
      (@a -> @b = {transparent_access = true, unified_memory = false})
    ]>} { ... }
    ```
  }];
  let parameters = (ins ArrayRefParameter<"DeviceLinkAttr">:$links);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}


#endif // FERRY_DIALECT_HAL_BASE
