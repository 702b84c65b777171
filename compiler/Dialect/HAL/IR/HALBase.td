// The HAL dialect: devices, buffers, buffer views, fences and queue
// operations, the layer the bytecode module is serialized from.
#ifndef FERRY_DIALECT_HAL_BASE
#define FERRY_DIALECT_HAL_BASE

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

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

class HAL_Type<string name, string typeMnemonic, string desc>
    : TypeDef<HAL_Dialect, name> {
  let mnemonic = typeMnemonic;
  let summary = desc;
}

def HAL_Device : HAL_Type<"Device", "device", "a device with queues">;
def HAL_Buffer : HAL_Type<"Buffer", "buffer", "a range of device memory">;
def HAL_BufferView : HAL_Type<"BufferView", "buffer_view",
                              "a buffer with a shape and element type">;
def HAL_Fence : HAL_Type<"Fence", "fence",
                         "a point on a device timeline that queue ops signal">;

def HAL_DeviceTargetAttr : AttrDef<HAL_Dialect, "DeviceTarget"> {
  let mnemonic = "device.target";
  let summary = "the driver and declared capabilities of a device";
  let description = [{
    Names the runtime driver a device runs on and the capability properties
    it declares, e.g. `#hal.device.target<"local", {}>`.
  }];
  let parameters = (ins StringRefParameter<"driver name">:$driver,
                        "::mlir::DictionaryAttr":$properties);
  let assemblyFormat = "`<` $driver `,` $properties `>`";
}

#endif // FERRY_DIALECT_HAL_BASE
