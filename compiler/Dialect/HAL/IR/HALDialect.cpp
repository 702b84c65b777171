#include "compiler/Dialect/HAL/IR/HALDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include "runtime/hal/buffer_bits.h"
#include "runtime/hal/builtin_kernels.h"

using namespace mlir;

namespace ferry::hal {

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

LogicalResult BufferLoadOp::verify() {
  return verifyElementType(*this, getResult().getType());
}

LogicalResult DeviceQueueFillOp::verify() {
  unsigned width = getPattern().getType().getIntOrFloatBitWidth();
  if (width != 8 && width != 16 && width != 32 && width != 64)
    return emitOpError() << "pattern type " << getPattern().getType()
                         << " is not 8, 16, 32 or 64 bits wide";
  return success();
}

LogicalResult DeviceQueueDispatchOp::verify() {
  std::optional<BuiltinKernel> kernel = parseBuiltinKernel(getKernel());
  if (!kernel)
    return emitOpError() << "unknown built-in kernel '" << getKernel() << "'";
  uint32_t inputs = builtinKernelInputCount(*kernel);
  if (getBindings().size() != inputs + 1)
    return emitOpError() << "kernel '" << getKernel() << "' takes " << inputs
                         << " inputs and one output, got "
                         << getBindings().size() << " bindings";
  return verifyElementType(*this, getElementType());
}

LogicalResult DeviceQueueDispatchEntryOp::verify() {
  if (getWorkgroups().size() != 3)
    return emitOpError() << "has " << getWorkgroups().size()
                         << " workgroup counts; it needs 3 (x, y, z)";
  if (getBindingOffsets().size() != getBindings().size() ||
      getBindingLengths().size() != getBindings().size())
    return emitOpError() << "has " << getBindings().size() << " bindings, "
                         << getBindingOffsets().size() << " offsets and "
                         << getBindingLengths().size()
                         << " lengths; they must match";
  return success();
}

Value BufferViewDimOp::getExternalBuffer() { return getBufferView(); }
int64_t BufferViewDimOp::getDimIndex() { return getIndexAttr().getInt(); }

LogicalResult DeviceGetOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto global =
      symbols.lookupNearestSymbolFrom<DeviceGlobalOp>(*this, getDeviceAttr());
  if (!global)
    return emitOpError() << "'@" << getDevice()
                         << "' does not name a hal.device.global";
  return success();
}

//===----------------------------------------------------------------------===//
// Device attributes
//===----------------------------------------------------------------------===//

FlatSymbolRefAttr DeviceAffinityAttr::getDeviceSymbol() const {
  return getDevice();
}

// One queue runs work for one device and queue mask.
bool DeviceAffinityAttr::isExecutableWith(stream::AffinityAttr other) const {
  return Attribute(*this) == other;
}

// A capability value: a bool, or #hal.runtime when only the device knows.
static bool isCapabilityValue(Attribute value) {
  return isa<BoolAttr, RuntimeValueAttr>(value);
}

// A handle type list: an array of handle type names, or #hal.runtime.
static bool isHandleTypeList(Attribute value) {
  if (isa<RuntimeValueAttr>(value))
    return true;
  auto array = dyn_cast<ArrayAttr>(value);
  return array && llvm::all_of(array, [](Attribute element) {
           return isa<StringAttr>(element);
         });
}

LogicalResult
DeviceTargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         StringRef driver, DictionaryAttr properties) {
  if (driver.empty())
    return emitError() << "device target needs a driver name";
  for (NamedAttribute property : properties) {
    StringRef name = property.getName().getValue();
    if (llvm::is_contained(kTargetCapabilities, name) &&
        !isCapabilityValue(property.getValue()))
      return emitError() << "device target property '" << name
                         << "' must be a bool or #hal.runtime, got "
                         << property.getValue();
    if (llvm::is_contained(kHandleTypeLists, name) &&
        !isHandleTypeList(property.getValue()))
      return emitError() << "device target property '" << name
                         << "' must be an array of handle type names or "
                            "#hal.runtime, got "
                         << property.getValue();
  }
  return success();
}

Attribute DeviceOptimalAttr::parse(AsmParser &parser, Type) {
  SmallVector<DeviceAffinityAttr> affinities;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     [&]() -> ParseResult {
                                       DeviceAffinityAttr affinity;
                                       if (parser.parseAttribute(affinity))
                                         return failure();
                                       affinities.push_back(affinity);
                                       return success();
                                     }) ||
      parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    affinities);
}

void DeviceOptimalAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(
      getAffinities(), printer,
      [&](DeviceAffinityAttr affinity) { printer.printAttribute(affinity); });
  printer << "]>";
}

LogicalResult
DeviceOptimalAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          ArrayRef<DeviceAffinityAttr> affinities) {
  if (affinities.empty())
    return emitError() << "#hal.device.optimal needs at least one affinity";
  return success();
}

LogicalResult
DeviceLinkAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       FlatSymbolRefAttr source, FlatSymbolRefAttr target,
                       DictionaryAttr properties) {
  if (source == target)
    return emitError() << "link from " << source << " to itself";
  for (NamedAttribute property : properties) {
    StringRef name = property.getName().getValue();
    Attribute value = property.getValue();
    if (llvm::is_contained(kLinkCapabilities, name)) {
      if (!isCapabilityValue(value))
        return emitError() << "link property '" << name
                           << "' must be a bool or #hal.runtime, got " << value;
    } else if (llvm::is_contained(kHandleTypeLists, name)) {
      if (!isHandleTypeList(value))
        return emitError() << "link property '" << name
                           << "' must be an array of handle type names or "
                              "#hal.runtime, got "
                           << value;
    } else if (name == "properties") {
      if (!isa<DictionaryAttr>(value))
        return emitError() << "link property 'properties' must be a "
                              "dictionary, got "
                           << value;
    } else {
      return emitError() << "unknown link property '" << name
                         << "' (known: transparent_access, unified_memory, "
                            "import_handle_types, export_handle_types; put "
                            "others in 'properties')";
    }
  }
  return success();
}

// `<links = [(@a -> @b = {...}), ...]>`
Attribute DeviceTopologyAttr::parse(AsmParser &parser, Type) {
  SmallVector<DeviceLinkAttr> links;
  SMLoc loc = parser.getCurrentLocation();
  auto parseLink = [&]() -> ParseResult {
    FlatSymbolRefAttr source, target;
    DictionaryAttr properties;
    SMLoc linkLoc = parser.getCurrentLocation();
    if (parser.parseLParen() || parser.parseAttribute(source) ||
        parser.parseArrow() || parser.parseAttribute(target) ||
        parser.parseEqual() || parser.parseAttribute(properties) ||
        parser.parseRParen())
      return failure();
    auto link = DeviceLinkAttr::getChecked(
        [&] { return parser.emitError(linkLoc); }, parser.getContext(), source,
        target, properties);
    if (!link)
      return failure();
    links.push_back(link);
    return success();
  };
  if (parser.parseLess() || parser.parseKeyword("links") ||
      parser.parseEqual() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseLink) ||
      parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    links);
}

void DeviceTopologyAttr::print(AsmPrinter &printer) const {
  printer << "<links = [";
  llvm::interleaveComma(getLinks(), printer, [&](DeviceLinkAttr link) {
    printer << '(' << link.getSource() << " -> " << link.getTarget() << " = ";
    printer.printAttribute(link.getProperties());
    printer << ')';
  });
  printer << "]>";
}

LogicalResult
DeviceTopologyAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           ArrayRef<DeviceLinkAttr> links) {
  llvm::DenseSet<std::pair<Attribute, Attribute>> seen;
  for (DeviceLinkAttr link : links)
    if (!seen.insert({link.getSource(), link.getTarget()}).second)
      return emitError() << "link " << link.getSource() << " -> "
                         << link.getTarget() << " is declared twice";
  return success();
}

// Every link names a hal.device.global of `module`.
LogicalResult DeviceTopologyAttr::verifyDevices(Operation *module) const {
  for (DeviceLinkAttr link : getLinks())
    for (FlatSymbolRefAttr device : {link.getSource(), link.getTarget()})
      if (!SymbolTable::lookupSymbolIn(module, device.getAttr()) ||
          !isa<DeviceGlobalOp>(
              SymbolTable::lookupSymbolIn(module, device.getAttr())))
        return module->emitError()
               << "topology link " << link.getSource() << " -> "
               << link.getTarget() << " names " << device
               << ", which is not a hal.device.global of the module";
  return success();
}

//===----------------------------------------------------------------------===//
// Device queries, allocators and globals
//===----------------------------------------------------------------------===//

LogicalResult DeviceQueryOp::verify() {
  if (getValue().getType().getIntOrFloatBitWidth() > 64)
    return emitOpError() << "value type " << getValue().getType()
                         << " is wider than 64 bits";
  return success();
}

LogicalResult AllocatorResolveMemoryPropertiesOp::verify() {
  std::optional<Attribute> affinity = getAffinity();
  if (affinity && !isa<DeviceAffinityAttr, DeviceOptimalAttr>(*affinity))
    return emitOpError() << "'for' must be a #hal.device.affinity or a "
                            "#hal.device.optimal, got "
                         << *affinity;
  return success();
}

SmallVector<FlatSymbolRefAttr>
AllocatorResolveMemoryPropertiesOp::getDeviceSymbols() {
  SmallVector<FlatSymbolRefAttr> symbols;
  auto add = [&](DeviceAffinityAttr affinity) {
    if (!llvm::is_contained(symbols, affinity.getDevice()))
      symbols.push_back(affinity.getDevice());
  };
  if (std::optional<Attribute> affinity = getAffinity()) {
    if (auto single = dyn_cast<DeviceAffinityAttr>(*affinity))
      add(single);
    else if (auto optimal = dyn_cast<DeviceOptimalAttr>(*affinity))
      llvm::for_each(optimal.getAffinities(), add);
  }
  return symbols;
}

size_t AllocatorResolveMemoryPropertiesOp::getAffinityCount() {
  if (auto optimal = dyn_cast_or_null<DeviceOptimalAttr>(getAffinityAttr()))
    return optimal.getAffinities().size();
  return getAffinityAttr() ? 1 : 0;
}

LogicalResult AllocatorResolveMemoryPropertiesOp::verifySymbolUses(
    SymbolTableCollection &symbols) {
  for (FlatSymbolRefAttr device : getDeviceSymbols())
    if (!symbols.lookupNearestSymbolFrom<DeviceGlobalOp>(*this, device))
      return emitOpError() << device << " does not name a hal.device.global";
  return success();
}

LogicalResult AllocatorSelectOp::verify() {
  if (getDevices().empty())
    return emitOpError() << "needs at least one device to select from";
  return success();
}

// Two device values that name the same device: one SSA value, or
// hal.device.get of one symbol.
static bool isSameDevice(Value lhs, Value rhs) {
  if (lhs == rhs)
    return true;
  auto lhsGet = lhs.getDefiningOp<DeviceGetOp>();
  auto rhsGet = rhs.getDefiningOp<DeviceGetOp>();
  return lhsGet && rhsGet && lhsGet.getDevice() == rhsGet.getDevice();
}

// The device whose allocator holds `buffer`, when its defining op says.
static Value getAllocatingDevice(Value buffer) {
  if (auto alloca = buffer.getDefiningOp<DeviceQueueAllocaOp>())
    return alloca.getDevice();
  if (auto import = buffer.getDefiningOp<DeviceImportBufferOp>())
    return import.getDevice();
  return {};
}

LogicalResult DeviceImportBufferOp::verify() {
  auto alloca = getSourceBuffer().getDefiningOp<DeviceQueueAllocaOp>();
  if (!alloca || isSameDevice(alloca.getDevice(), getDevice()))
    return success();
  IntegerAttr usage;
  if (!matchPattern(alloca.getBufferUsage(), m_Constant(&usage)))
    return success();
  if (!(usage.getValue().getZExtValue() & kSharingExport))
    return emitOpError() << "imports a buffer allocated with usage \""
                         << formatBufferUsage(usage.getValue().getZExtValue())
                         << "\", which lacks SharingExport: the allocating "
                            "device cannot export it";
  return success();
}

OpFoldResult DeviceImportBufferOp::fold(FoldAdaptor) {
  // Importing into the device that already holds the buffer changes nothing.
  Value owner = getAllocatingDevice(getSourceBuffer());
  if (owner && isSameDevice(owner, getDevice()))
    return getSourceBuffer();
  return {};
}

LogicalResult GlobalOp::verify() {
  auto type = dyn_cast<IntegerType>(getType());
  if (!type || !type.isSignless() || type.getWidth() > 64)
    return emitOpError() << "type must be a signless integer of at most 64 "
                            "bits, got "
                         << getType();
  return success();
}

static LogicalResult verifyGlobalUse(Operation *op, FlatSymbolRefAttr symbol,
                                     Type type,
                                     SymbolTableCollection &symbols) {
  auto global = symbols.lookupNearestSymbolFrom<GlobalOp>(op, symbol);
  if (!global)
    return op->emitOpError() << symbol << " does not name a hal.global";
  if (global.getType() != type)
    return op->emitOpError() << "type " << type << " does not match " << symbol
                             << " of type " << global.getType();
  return success();
}

LogicalResult GlobalLoadOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyGlobalUse(*this, getGlobalAttr(), getResult().getType(),
                         symbols);
}

LogicalResult GlobalStoreOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyGlobalUse(*this, getGlobalAttr(), getValue().getType(), symbols);
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
#include "compiler/Dialect/HAL/IR/HALEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "compiler/Dialect/HAL/IR/HALTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "compiler/Dialect/HAL/IR/HALAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "compiler/Dialect/HAL/IR/HALOps.cpp.inc"
