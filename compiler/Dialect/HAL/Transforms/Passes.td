#ifndef FERRY_DIALECT_HAL_TRANSFORMS_PASSES
#define FERRY_DIALECT_HAL_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def ResolveTopologyQueriesPass
    : Pass<"hal-resolve-topology-queries", "mlir::ModuleOp"> {
  let summary = "Resolves every hal.allocator.resolve_memory_properties (and "
                "hal.allocator.select) from the device topology";
  let description = [{
    Replaces each `hal.allocator.resolve_memory_properties` with the memory
    type and buffer usage bits its allocation needs, and each
    `hal.allocator.select` fed by it with the allocating device. No query is
    ever left unresolved: what the compiler cannot decide becomes
    `hal.device.query` ops and i32 bit arithmetic over their answers.

    **Topology.** A link `(@a -> @b = {...})` says what @a can do with memory
    allocated on @b (the direction the runtime answers `hal.device.link`
    queries in). Links written in the module's `stream.topology` win, link
    by link; every other link is built from the two device targets'
    properties (`#hal.device.target` describes them): @a has
    `transparent_access` to @b when @a has `host_memory_access` and @b has
    `host_visible_memory`; `unified_memory` when both have it; an
    export/import path when @a imports a handle type @b exports. So two
    local CPU devices are unified and transparent both ways, and a device
    without host-visible memory gets no transparent access from the host
    side. A property written `#hal.runtime`, or that a non-local target
    omits, is known only at run time. A user-written link that omits a
    property cannot do it.

    **Bits of each lifetime** (`runtime/hal/buffer_bits.h` names):
    external `DeviceLocal|HostVisible`, `Transfer|DispatchStorage|Mapping`
    (the host reads results); staging `HostVisible|DeviceVisible|HostLocal`,
    `Transfer|Mapping`; transient and variable `DeviceLocal`,
    `Transfer|DispatchStorage`; constant adds `SharingImmutable`.

    **Rules**, for the distinct devices D of `for(...)`:
    1. No affinity, or one device: the lifetime's bits alone, allocated on
       that device.
    2. Several affinities naming one device symbol: the same, no sharing
       bits. Devices are told apart by symbol, never by driver: two GPUs of
       one driver are two devices.
    3. Transparent access: the first device @x of D whose memory every other
       device accesses transparently (every link `@y -> @x`) allocates; add
       `HostVisible` and `Mapping|MappingPersistent`, since the others map
       it persistently. One direction is enough: with only `@a -> @b`
       transparent, @b allocates and @a reaches it.
    4. Unified memory (no transparent link decides, but every link to @x
       shares one address space): @x allocates `HostVisible|HostCoherent`
       memory with `Mapping|MappingPersistent`. Host-visible because one
       address space means the memory is reached through mappings rather
       than copies; host-coherent because the devices then read each
       other's writes without flush or invalidate; persistent because the
       mapping lives as long as the buffer is shared.
    5. Export/import: the first @x whose buffers every other device can
       import allocates them with `SharingExport` (it exports them). Each
       other device uses the buffer through the `hal.device.import_buffer`
       that `convert-stream-to-hal` emitted for it, whose result carries
       `SharingImport` in place of `SharingExport`: SharingExport on the
       allocating side, SharingImport where it is imported.
    6. Not decidable (a property is `#hal.runtime` or a link is left to a
       non-local target): emit `hal.device.query` on the device that would
       access the memory (category `"hal.device.link"`, keys
       `"<peer>:transparent_access"`, `"<peer>:unified_memory"`,
       `"<peer>:import.<handle type>"`) and arithmetic that adds the
       transparent/unified bits when some candidate has them and
       `SharingExport` otherwise (the imports add `SharingImport`). The allocating device is then picked by
       `hal.allocator.select` at run time by the same preference.
    7. Impossible (for some pair of devices, every link property in both
       directions is known false): a compile error naming both devices and
       the missing capability.

    Once the allocating device of a buffer is known, each
    `hal.device.import_buffer` of it into that device, or into a device with
    transparent access to or unified memory with it, is replaced by the
    buffer.

    `lead-allocation-device=NAME` makes @NAME the allocating device of every
    shared buffer it uses; the rules then only pick its bits (an error if it
    cannot serve some device, or if no `hal.device.global` is named NAME).
  }];
  let options = [
    Option<"leadAllocationDevice", "lead-allocation-device", "std::string",
           /*default=*/"\"\"",
           "Device symbol (without @) that allocates every shared buffer it "
           "uses">,
  ];
  let dependentDialects = ["::ferry::hal::HALDialect",
                           "::mlir::arith::ArithDialect"];
}

def ExplainMemoryPropertiesPass
    : Pass<"hal-explain-memory-properties", "mlir::ModuleOp"> {
  let summary = "Remarks, per allocation, which rule chooses its bits";
  let description = [{
    Emits a remark on every `hal.allocator.resolve_memory_properties`
    naming the rule of `--hal-resolve-topology-queries` that decides it,
    why, the allocating device and the bits. Changes nothing; run it right
    before the resolution (ferry-compile does with
    `--hal-explain-memory-properties`).
  }];
  let options = [
    Option<"leadAllocationDevice", "lead-allocation-device", "std::string",
           /*default=*/"\"\"",
           "As for --hal-resolve-topology-queries">,
  ];
}

def MemoizeDeviceQueriesPass
    : Pass<"hal-memoize-device-queries", "mlir::ModuleOp"> {
  let summary = "Runs each distinct device query once, at module "
                "initialization";
  let description = [{
    Every `hal.device.query` on a `hal.device.get` device is asked once per
    (device, category, key, default, type) in the module initializer
    `func.func @__init` (created if missing; the runtime runs it once when it
    loads the module, before any other function). Its answers go to
    `hal.global`s (`@__query_N_ok`, `@__query_N_value`); each query site
    reads them with `hal.global.load` instead.
  }];
  let dependentDialects = ["::ferry::hal::HALDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // FERRY_DIALECT_HAL_TRANSFORMS_PASSES
