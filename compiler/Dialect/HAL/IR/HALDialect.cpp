#include "compiler/Dialect/HAL/IR/HALDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include "runtime/hal/buffer_bits.h"
#include "runtime/vm/bytecode_format.h"

using namespace mlir;

namespace ferry::hal {

std::optional<ElementType> getRuntimeElementType(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type)) {
    if (intType.isUnsigned())
      return std::nullopt;
    switch (intType.getWidth()) {
    case 8:
      return ElementType::kI8;
    case 16:
      return ElementType::kI16;
    case 32:
      return ElementType::kI32;
    case 64:
      return ElementType::kI64;
    default:
      return std::nullopt;
    }
  }
  if (type.isF32())
    return ElementType::kF32;
  if (type.isF64())
    return ElementType::kF64;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Bit constants: printed and parsed as "Name|Name" using the shared tables.
//===----------------------------------------------------------------------===//

template <typename ParseFn>
static ParseResult parseBits(OpAsmParser &parser, IntegerAttr &value,
                             ParseFn parseFn, StringRef what) {
  std::string text;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseString(&text))
    return failure();
  std::optional<uint32_t> bits = parseFn(text);
  if (!bits)
    return parser.emitError(loc)
           << "unknown " << what << " bits \"" << text << "\"";
  value = parser.getBuilder().getI32IntegerAttr(static_cast<int32_t>(*bits));
  return success();
}

static ParseResult parseMemoryTypeBits(OpAsmParser &parser,
                                       IntegerAttr &value) {
  return parseBits(parser, value, parseMemoryType, "memory type");
}
static void printMemoryTypeBits(OpAsmPrinter &printer, Operation *,
                                IntegerAttr value) {
  printer << '"' << formatMemoryType(value.getValue().getZExtValue()) << '"';
}
static ParseResult parseBufferUsageBits(OpAsmParser &parser,
                                        IntegerAttr &value) {
  return parseBits(parser, value, parseBufferUsage, "buffer usage");
}
static void printBufferUsageBits(OpAsmPrinter &printer, Operation *,
                                 IntegerAttr value) {
  printer << '"' << formatBufferUsage(value.getValue().getZExtValue()) << '"';
}

OpFoldResult MemoryTypeOp::fold(FoldAdaptor) { return getValueAttr(); }
OpFoldResult BufferUsageOp::fold(FoldAdaptor) { return getValueAttr(); }

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

static LogicalResult verifyElementType(Operation *op, Type elementType) {
  if (!getRuntimeElementType(elementType))
    return op->emitOpError() << "element type " << elementType
                             << " is not supported by the runtime";
  return success();
}

LogicalResult BufferViewAssertOp::verify() {
  return verifyElementType(*this, getElementType());
}

LogicalResult BufferViewCreateOp::verify() {
  return verifyElementType(*this, getElementType());
}

std::optional<vm::bytecode::BuiltinKernel> lookupBuiltinKernel(StringRef name,
                                                               int *inputs) {
#define FERRY_X(enumerator, value, spelling, input_count)                      \
  if (name == spelling) {                                                      \
    *inputs = input_count;                                                     \
    return vm::bytecode::BuiltinKernel::enumerator;                            \
  }
  FERRY_BUILTIN_KERNELS(FERRY_X)
#undef FERRY_X
  return std::nullopt;
}

LogicalResult DeviceQueueDispatchOp::verify() {
  int inputs = 0;
  if (!lookupBuiltinKernel(getKernel(), &inputs))
    return emitOpError() << "unknown built-in kernel '" << getKernel() << "'";
  if (static_cast<int>(getBindings().size()) != inputs + 1)
    return emitOpError() << "kernel '" << getKernel() << "' takes " << inputs
                         << " inputs and one output, got "
                         << getBindings().size() << " bindings";
  return verifyElementType(*this, getElementType());
}

LogicalResult DeviceGetOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto global =
      symbols.lookupNearestSymbolFrom<DeviceGlobalOp>(*this, getDeviceAttr());
  if (!global)
    return emitOpError() << "'@" << getDevice()
                         << "' does not name a hal.device.global";
  return success();
}

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

void HALDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "compiler/Dialect/HAL/IR/HALTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "compiler/Dialect/HAL/IR/HALAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "compiler/Dialect/HAL/IR/HALOps.cpp.inc"
      >();
}

Operation *HALDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  if (auto intAttr = dyn_cast<IntegerAttr>(value))
    return arith::ConstantOp::create(builder, loc, type, intAttr);
  return nullptr;
}

} // namespace ferry::hal

#include "compiler/Dialect/HAL/IR/HALDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "compiler/Dialect/HAL/IR/HALTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "compiler/Dialect/HAL/IR/HALAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "compiler/Dialect/HAL/IR/HALOps.cpp.inc"
