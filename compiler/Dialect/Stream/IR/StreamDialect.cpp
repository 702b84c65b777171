#include "compiler/Dialect/Stream/IR/StreamDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

#include "compiler/Dialect/Stream/IR/StreamEnums.cpp.inc"

namespace ferry::stream {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

Type ResourceType::parse(AsmParser &parser) {
  if (parser.parseLess())
    return {};
  Lifetime lifetime;
  if (succeeded(parser.parseOptionalStar())) {
    lifetime = Lifetime::Unknown;
  } else {
    StringRef keyword;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword))
      return {};
    std::optional<Lifetime> parsed = symbolizeLifetime(keyword);
    if (!parsed || *parsed == Lifetime::Unknown) {
      parser.emitError(loc) << "unknown resource lifetime '" << keyword
                            << "' (expected external, staging, transient, "
                               "variable, constant or *)";
      return {};
    }
    lifetime = *parsed;
  }
  if (parser.parseGreater())
    return {};
  return ResourceType::get(parser.getContext(), lifetime);
}

void ResourceType::print(AsmPrinter &printer) const {
  printer << '<' << stringifyLifetime(getLifetime()) << '>';
}

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

// `type{%size}, type{%size}, ...` wrapped in parentheses.
static ParseResult
parseSizedTypeList(OpAsmParser &parser, SmallVectorImpl<Type> &types,
                   SmallVectorImpl<OpAsmParser::UnresolvedOperand> &sizes) {
  return parser.parseCommaSeparatedList(
      OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
        Type type;
        OpAsmParser::UnresolvedOperand size;
        if (parser.parseType(type) || parser.parseLBrace() ||
            parser.parseOperand(size) || parser.parseRBrace())
          return failure();
        types.push_back(type);
        sizes.push_back(size);
        return success();
      });
}

static void printSizedTypeList(OpAsmPrinter &printer, Operation *,
                               TypeRange types, OperandRange sizes) {
  printer << '(';
  for (auto [i, type, size] : llvm::enumerate(types, sizes)) {
    if (i)
      printer << ", ";
    printer << type << '{' << size << '}';
  }
  printer << ')';
}

static ParseResult parseSameTypes(OpAsmParser &, SmallVectorImpl<Type> &results,
                                  TypeRange operandTypes) {
  llvm::append_range(results, operandTypes);
  return success();
}
static void printSameTypes(OpAsmPrinter &, Operation *, TypeRange, TypeRange) {}

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

// A tensor encoding must be a ranked tensor whose element type the runtime
// knows, with one index operand per dynamic dimension.
static LogicalResult verifyEncoding(Operation *op, Type encoding,
                                    ValueRange dims) {
  auto tensorType = dyn_cast<RankedTensorType>(encoding);
  if (!tensorType)
    return op->emitOpError()
           << "encoding must be a ranked tensor type, got " << encoding;
  if (!hal::getRuntimeElementType(tensorType.getElementType()))
    return op->emitOpError() << "element type " << tensorType.getElementType()
                             << " is not supported by the runtime";
  if (static_cast<int64_t>(dims.size()) != tensorType.getNumDynamicDims())
    return op->emitOpError()
           << "encoding " << tensorType << " has "
           << tensorType.getNumDynamicDims() << " dynamic dimensions but "
           << dims.size() << " dimension values were given";
  return success();
}

static LogicalResult verifyLifetime(Operation *op, Type type,
                                    Lifetime expected) {
  if (cast<ResourceType>(type).getLifetime() != expected)
    return op->emitOpError()
           << "expects a resource of lifetime '" << stringifyLifetime(expected)
           << "', got " << type;
  return success();
}

LogicalResult TensorSizeOfOp::verify() {
  return verifyEncoding(*this, getEncoding(), getEncodingDims());
}

LogicalResult TensorImportOp::verify() {
  if (failed(
          verifyEncoding(*this, getResultEncoding(), getResultEncodingDims())))
    return failure();
  return verifyLifetime(*this, getResult().getType(), Lifetime::External);
}

LogicalResult TensorExportOp::verify() {
  if (failed(
          verifyEncoding(*this, getSourceEncoding(), getSourceEncodingDims())))
    return failure();
  return verifyLifetime(*this, getSource().getType(), Lifetime::External);
}

static LogicalResult verifyKernel(Operation *op, StringRef kernel,
                                  Type elementType, size_t inputCount) {
  int expectedInputs = 0;
  if (!hal::lookupBuiltinKernel(kernel, &expectedInputs))
    return op->emitOpError() << "unknown built-in kernel '" << kernel << "'";
  if (static_cast<int>(inputCount) != expectedInputs)
    return op->emitOpError() << "kernel '" << kernel << "' takes "
                             << expectedInputs << " inputs, got " << inputCount;
  if (!hal::getRuntimeElementType(elementType))
    return op->emitOpError() << "element type " << elementType
                             << " is not supported by the runtime";
  return success();
}

static LogicalResult verifySizes(Operation *op, ValueRange resources,
                                 ValueRange sizes) {
  if (resources.size() != sizes.size())
    return op->emitOpError() << "has " << resources.size() << " resources but "
                             << sizes.size() << " sizes";
  return success();
}

LogicalResult AsyncDispatchOp::verify() {
  if (failed(
          verifySizes(*this, getResourceOperands(), getResourceOperandSizes())))
    return failure();
  return verifyKernel(*this, getKernel(), getElementType(),
                      getResourceOperands().size());
}

LogicalResult CmdDispatchOp::verify() {
  if (failed(
          verifySizes(*this, getResourceOperands(), getResourceOperandSizes())))
    return failure();
  if (getResourceOperands().empty())
    return emitOpError() << "needs an output resource";
  return verifyKernel(*this, getKernel(), getElementType(),
                      getResourceOperands().size() - 1);
}

LogicalResult TimepointJoinOp::verify() {
  if (getAwaitTimepoints().empty())
    return emitOpError() << "needs at least one timepoint to join";
  return success();
}

LogicalResult TimepointAwaitOp::verify() {
  return verifySizes(*this, getResourceOperands(), getResourceOperandSizes());
}

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

void StreamDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "compiler/Dialect/Stream/IR/StreamTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "compiler/Dialect/Stream/IR/StreamOps.cpp.inc"
      >();
}

} // namespace ferry::stream

#include "compiler/Dialect/Stream/IR/StreamDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "compiler/Dialect/Stream/IR/StreamTypes.cpp.inc"

#define GET_OP_CLASSES
#include "compiler/Dialect/Stream/IR/StreamOps.cpp.inc"
