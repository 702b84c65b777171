// The stream dialect's ops: custom assembly directives, verifiers, tied
// operands and execution regions.

#include "compiler/Dialect/Stream/IR/StreamDialect.h"
#include "compiler/Utils/ElementTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/SetVector.h"

#include "runtime/hal/builtin_kernels.h"

using namespace mlir;

namespace ferry::stream {

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

// Results of tied ops: each is either `%operand{%size}` (the result is that
// operand, written in place; `%operand[i]{%size}` when the value is passed
// more than once) or `type{%size}` (a new resource). Several are
// parenthesized; `tied` holds one operand index or -1 per result.
static ParseResult
parseTiedResultList(OpAsmParser &parser, SmallVectorImpl<Type> &types,
                    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &sizes,
                    ArrayRef<OpAsmParser::UnresolvedOperand> operands,
                    TypeRange operandTypes, DenseI64ArrayAttr &tied,
                    bool single) {
  SmallVector<int64_t> tiedIndices;
  auto parseOne = [&]() -> ParseResult {
    OpAsmParser::UnresolvedOperand tiedOperand;
    OptionalParseResult isOperand = parser.parseOptionalOperand(tiedOperand);
    if (isOperand.has_value()) {
      if (failed(*isOperand))
        return failure();
      auto sameValue = [&](const OpAsmParser::UnresolvedOperand &operand) {
        return operand.name == tiedOperand.name &&
               operand.number == tiedOperand.number;
      };
      // `%x[i]` picks operand i when %x is passed more than once.
      size_t index;
      if (succeeded(parser.parseOptionalLSquare())) {
        if (parser.parseInteger(index) || parser.parseRSquare())
          return failure();
        if (index >= operands.size() || !sameValue(operands[index]))
          return parser.emitError(tiedOperand.location)
                 << "tied result names operand " << index
                 << ", which is not that value";
      } else {
        auto it = llvm::find_if(operands, sameValue);
        if (it == operands.end())
          return parser.emitError(tiedOperand.location)
                 << "tied result names a value that is not an operand";
        index = it - operands.begin();
      }
      tiedIndices.push_back(index);
      types.push_back(operandTypes[index]);
    } else {
      Type type;
      if (parser.parseType(type))
        return failure();
      tiedIndices.push_back(-1);
      types.push_back(type);
    }
    OpAsmParser::UnresolvedOperand size;
    if (parser.parseLBrace() || parser.parseOperand(size) ||
        parser.parseRBrace())
      return failure();
    sizes.push_back(size);
    return success();
  };
  if (single) {
    if (parseOne())
      return failure();
  } else if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren,
                                            parseOne)) {
    return failure();
  }
  if (llvm::any_of(tiedIndices, [](int64_t i) { return i >= 0; }))
    tied = parser.getBuilder().getDenseI64ArrayAttr(tiedIndices);
  return success();
}

static void printTiedResultList(OpAsmPrinter &printer, TypeRange types,
                                ValueRange sizes, OperandRange operands,
                                DenseI64ArrayAttr tied, bool single) {
  if (!single)
    printer << '(';
  for (auto [i, type, size] : llvm::enumerate(types, sizes)) {
    if (i)
      printer << ", ";
    int64_t index = tied ? tied[i] : -1;
    if (index >= 0 && index < static_cast<int64_t>(operands.size())) {
      printer << operands[index];
      if (llvm::count(operands, operands[index]) > 1)
        printer << '[' << index << ']';
    } else
      printer << type;
    printer << '{' << size << '}';
  }
  if (!single)
    printer << ')';
}

static ParseResult
parseTiedResult(OpAsmParser &parser, Type &type,
                OpAsmParser::UnresolvedOperand &size,
                ArrayRef<OpAsmParser::UnresolvedOperand> operands,
                TypeRange operandTypes, DenseI64ArrayAttr &tied) {
  SmallVector<Type> types;
  SmallVector<OpAsmParser::UnresolvedOperand> sizes;
  if (parseTiedResultList(parser, types, sizes, operands, operandTypes, tied,
                          /*single=*/true))
    return failure();
  type = types.front();
  size = sizes.front();
  return success();
}

static void printTiedResult(OpAsmPrinter &printer, Operation *, Type type,
                            Value size, OperandRange operands, TypeRange,
                            DenseI64ArrayAttr tied) {
  printTiedResultList(printer, TypeRange{type}, ValueRange{size}, operands,
                      tied, /*single=*/true);
}

static ParseResult
parseTiedResults(OpAsmParser &parser, SmallVectorImpl<Type> &types,
                 SmallVectorImpl<OpAsmParser::UnresolvedOperand> &sizes,
                 ArrayRef<OpAsmParser::UnresolvedOperand> operands,
                 TypeRange operandTypes, DenseI64ArrayAttr &tied) {
  return parseTiedResultList(parser, types, sizes, operands, operandTypes, tied,
                             /*single=*/false);
}

static void printTiedResults(OpAsmPrinter &printer, Operation *,
                             TypeRange types, OperandRange sizes,
                             OperandRange operands, TypeRange,
                             DenseI64ArrayAttr tied) {
  printTiedResultList(printer, types, sizes, operands, tied,
                      /*single=*/false);
}

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

std::optional<int64_t> TensorSizeOfOp::getStaticSize() {
  auto type = cast<RankedTensorType>(getEncoding());
  if (!type.hasStaticShape())
    return std::nullopt;
  return type.getNumElements() *
         static_cast<int64_t>(elementByteSize(
             *hal::getRuntimeElementType(type.getElementType())));
}

LogicalResult TensorSizeOfOp::verify() {
  return verifyEncoding(*this, getEncoding(), getEncodingDims());
}

LogicalResult TensorImportOp::verify() {
  if (failed(
          verifyEncoding(*this, getResultEncoding(), getResultEncodingDims())))
    return failure();
  if (getConsume())
    for (Operation *user : getSource().getUsers())
      if (auto other = dyn_cast<TensorImportOp>(user);
          other && other != *this && other.getConsume())
        return emitOpError() << "consumes a buffer view that another import "
                                "also consumes; ownership moves in only once";
  return verifyLifetime(*this, getResult().getType(), Lifetime::External);
}

LogicalResult TensorExportOp::verify() {
  if (failed(
          verifyEncoding(*this, getSourceEncoding(), getSourceEncodingDims())))
    return failure();
  return verifyLifetime(*this, getSource().getType(), Lifetime::External);
}

//===----------------------------------------------------------------------===//
// Ownership
//===----------------------------------------------------------------------===//

// Ownership exists once lifetimes are decided, and never for constants.
static LogicalResult verifyOwnable(Operation *op, Value resource) {
  Lifetime lifetime = cast<ResourceType>(resource.getType()).getLifetime();
  if (lifetime == Lifetime::Unknown)
    return op->emitOpError()
           << "needs a resource of decided lifetime; ownership is tracked "
              "only after allocation scheduling";
  if (lifetime == Lifetime::Constant)
    return op->emitOpError() << "cannot act on a constant resource: "
                                "constants have no owners";
  return success();
}

LogicalResult ResourceRetainOp::verify() {
  return verifyOwnable(*this, getOperand());
}
LogicalResult ResourceReleaseOp::verify() {
  return verifyOwnable(*this, getOperand());
}
LogicalResult ResourceLoadOp::verify() {
  if (!hal::getRuntimeElementType(getResult().getType()))
    return emitOpError() << "loads a " << getResult().getType()
                         << ", which is no element type of the runtime";
  return success();
}

LogicalResult ResourceIsTerminalOp::verify() {
  return verifyOwnable(*this, getOperand());
}

LogicalResult ResourceDeallocaOp::verify() {
  if (failed(verifyOwnable(*this, getOperand())))
    return failure();
  Operation *def = getOperand().getDefiningOp();
  if (auto importOp = dyn_cast_or_null<TensorImportOp>(def);
      importOp && !importOp.getConsume())
    return emitOpError() << "frees a buffer the host owns; only an import "
                            "with 'consume' hands ownership to the program";
  if (auto alloca = dyn_cast_or_null<ResourceAllocaOp>(def);
      alloca && alloca.getIndeterminate())
    return emitOpError() << "frees an indeterminate allocation, whose memory "
                            "goes only with its last reference";
  if (getPreferOrigin() && (*this)->hasAttr("stream.affinity"))
    return emitOpError() << "has both 'origin' and an affinity; 'origin' "
                            "means the buffer's own placement decides";
  return success();
}

//===----------------------------------------------------------------------===//
// Dispatches, fills, updates and calls
//===----------------------------------------------------------------------===//

static LogicalResult verifyKernel(Operation *op, StringRef kernel,
                                  Type elementType, size_t inputCount) {
  std::optional<hal::BuiltinKernel> known = hal::parseBuiltinKernel(kernel);
  if (!known)
    return op->emitOpError() << "unknown built-in kernel '" << kernel << "'";
  uint32_t expectedInputs = hal::builtinKernelInputCount(*known);
  if (inputCount != expectedInputs)
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

// Each tie names an operand in range, of the result's type, and no operand
// is written by two results.
static LogicalResult verifyTies(Operation *op,
                                std::optional<ArrayRef<int64_t>> tied,
                                ValueRange operands, TypeRange resultTypes) {
  if (!tied)
    return success();
  if (tied->size() != resultTypes.size())
    return op->emitOpError()
           << "has " << tied->size() << " tied operand entries for "
           << resultTypes.size() << " results";
  llvm::SmallDenseSet<int64_t> seen;
  for (auto [result, index] : llvm::enumerate(*tied)) {
    if (index < 0)
      continue;
    if (index >= static_cast<int64_t>(operands.size()))
      return op->emitOpError()
             << "result " << result << " is tied to operand " << index
             << ", but there are only " << operands.size() << " operands";
    if (operands[index].getType() != resultTypes[result])
      return op->emitOpError()
             << "result " << result << " of type " << resultTypes[result]
             << " is tied to operand " << index << " of type "
             << operands[index].getType();
    if (!seen.insert(index).second)
      return op->emitOpError()
             << "operand " << index << " is tied to more than one result";
  }
  return success();
}

static OpOperand *tiedOperandAt(Operation *op,
                                std::optional<ArrayRef<int64_t>> tied,
                                OperandRange operands, unsigned resultIndex) {
  if (!tied || resultIndex >= tied->size() || (*tied)[resultIndex] < 0)
    return nullptr;
  return &op->getOpOperand(operands.getBeginOperandIndex() +
                           (*tied)[resultIndex]);
}

LogicalResult AsyncDispatchOp::verify() {
  if (failed(
          verifySizes(*this, getResourceOperands(), getResourceOperandSizes())))
    return failure();
  if (failed(verifyTies(*this, getTiedOperands(), getResourceOperands(),
                        getOperation()->getResultTypes())))
    return failure();
  return verifyKernel(*this, getKernel(), getElementType(),
                      getResourceOperands().size());
}

OpOperand *AsyncDispatchOp::getTiedOperand(unsigned resultIndex) {
  return tiedOperandAt(*this, getTiedOperands(), getResourceOperands(),
                       resultIndex);
}

// An entry dispatch has three workgroup counts and writes exactly one of its
// operands.
static LogicalResult verifyEntryDispatch(Operation *op, ValueRange workgroups) {
  if (workgroups.size() != 3)
    return op->emitOpError() << "has " << workgroups.size()
                             << " workgroup counts; it needs 3 (x, y, z)";
  return success();
}

LogicalResult AsyncDispatchEntryOp::verify() {
  if (failed(verifySizes(*this, getResourceOperands(),
                         getResourceOperandSizes())) ||
      failed(verifyEntryDispatch(*this, getWorkgroups())))
    return failure();
  if (getTiedOperands().size() != 1 || getTiedOperands()[0] < 0)
    return emitOpError() << "must write its result into one of its operands";
  return verifyTies(*this, getTiedOperands(), getResourceOperands(),
                    getOperation()->getResultTypes());
}

OpOperand *AsyncDispatchEntryOp::getTiedOperand(unsigned resultIndex) {
  return tiedOperandAt(*this, getTiedOperands(), getResourceOperands(),
                       resultIndex);
}

LogicalResult CmdDispatchEntryOp::verify() {
  if (failed(verifySizes(*this, getResourceOperands(),
                         getResourceOperandSizes())) ||
      failed(verifyEntryDispatch(*this, getWorkgroups())))
    return failure();
  if (getOutputIndex() < 0 ||
      getOutputIndex() >= static_cast<int64_t>(getResourceOperands().size()))
    return emitOpError() << "output " << getOutputIndex()
                         << " is not one of its "
                         << getResourceOperands().size() << " resources";
  size_t count = getResourceOperands().size();
  if ((!getBindingOffsets().empty() || !getBindingLengths().empty()) &&
      (getBindingOffsets().size() != count ||
       getBindingLengths().size() != count))
    return emitOpError() << "has " << getBindingOffsets().size()
                         << " binding offsets and "
                         << getBindingLengths().size()
                         << " lengths; it needs none or one of each per "
                            "resource ("
                         << count << ")";
  return success();
}

static LogicalResult verifyFillValue(Operation *op, Type valueType) {
  unsigned width = valueType.getIntOrFloatBitWidth();
  // An i1 fills bytes of 0 or 1 (its element's storage).
  if (width != 1 && width != 8 && width != 16 && width != 32 && width != 64)
    return op->emitOpError() << "fill value type " << valueType
                             << " is not 1, 8, 16, 32 or 64 bits wide";
  return success();
}

LogicalResult AsyncSplatOp::verify() {
  return verifyFillValue(*this, getValue().getType());
}

LogicalResult AsyncFillOp::verify() {
  return verifyFillValue(*this, getValue().getType());
}

OpOperand *AsyncFillOp::getTiedOperand(unsigned) { return &getTargetMutable(); }

OpOperand *AsyncUpdateOp::getTiedOperand(unsigned) {
  return &getTargetMutable();
}

// The ties a function declares on its results (`stream.tied_operands`),
// normalized so that "no attribute" means "nothing tied".
static SmallVector<int64_t> getFunctionTies(func::FuncOp func) {
  SmallVector<int64_t> ties(func.getNumResults(), -1);
  if (auto attr = func->getAttrOfType<DenseI64ArrayAttr>(kTiedOperandsAttr))
    for (auto [i, index] : llvm::enumerate(attr.asArrayRef()))
      if (i < ties.size())
        ties[i] = index;
  return ties;
}

static SmallVector<int64_t> normalizeTies(std::optional<ArrayRef<int64_t>> tied,
                                          size_t resultCount) {
  SmallVector<int64_t> ties(resultCount, -1);
  if (tied)
    for (auto [i, index] : llvm::enumerate(*tied))
      if (i < ties.size())
        ties[i] = index;
  return ties;
}

// Calls and their callee agree on arity and on which results are written
// into which operands.
static LogicalResult verifyCallee(Operation *op, FlatSymbolRefAttr calleeAttr,
                                  size_t operandCount, size_t resultCount,
                                  std::optional<ArrayRef<int64_t>> tied,
                                  SymbolTableCollection &symbols) {
  auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(op, calleeAttr);
  if (!callee)
    return op->emitOpError()
           << "'" << calleeAttr << "' does not name a function";
  if (callee.getNumArguments() != operandCount ||
      callee.getNumResults() != resultCount)
    return op->emitOpError()
           << "passes " << operandCount << " operands and expects "
           << resultCount << " results, but '" << calleeAttr.getValue()
           << "' takes " << callee.getNumArguments() << " and returns "
           << callee.getNumResults();
  SmallVector<int64_t> calleeTies = getFunctionTies(callee);
  SmallVector<int64_t> callTies = normalizeTies(tied, resultCount);
  for (auto [result, callTie, calleeTie] :
       llvm::enumerate(callTies, calleeTies)) {
    if (callTie == calleeTie)
      continue;
    auto describe = [](int64_t tie) {
      return tie < 0 ? std::string("not tied")
                     : "tied to operand " + std::to_string(tie);
    };
    return op->emitOpError()
           << "result " << result << " is " << describe(callTie)
           << " at the call but " << describe(calleeTie) << " in '"
           << calleeAttr.getValue() << "'";
  }
  return success();
}

// Verification shared by async and cmd calls.
template <typename CallOp> static LogicalResult verifyCall(CallOp op) {
  if (failed(verifySizes(op, op.getResourceOperands(),
                         op.getResourceOperandSizes())))
    return failure();
  if (op.getResults().size() != op.getResultSizes().size())
    return op.emitOpError()
           << "has " << op.getResults().size() << " results but "
           << op.getResultSizes().size() << " result sizes";
  return verifyTies(op, op.getTiedOperands(), op.getResourceOperands(),
                    op.getResults().getTypes());
}

template <typename CallOp>
static LogicalResult verifyCallSymbol(CallOp op,
                                      SymbolTableCollection &symbols) {
  if (failed(
          verifyCallee(op, op.getCalleeAttr(), op.getResourceOperands().size(),
                       op.getResults().size(), op.getTiedOperands(), symbols)))
    return failure();
  // One dimension value per dynamic dimension of the callee's tensor
  // arguments.
  auto callee =
      symbols.lookupNearestSymbolFrom<func::FuncOp>(op, op.getCalleeAttr());
  int64_t expectedDims = 0;
  for (Type type : callee.getArgumentTypes())
    if (auto tensorType = dyn_cast<RankedTensorType>(type))
      expectedDims += tensorType.getNumDynamicDims();
  if (static_cast<int64_t>(op.getArgumentDims().size()) != expectedDims)
    return op.emitOpError()
           << "passes " << op.getArgumentDims().size()
           << " argument dimensions, but the arguments of '" << op.getCallee()
           << "' have " << expectedDims << " dynamic dimensions";
  return success();
}

LogicalResult AsyncCallOp::verify() { return verifyCall(*this); }
LogicalResult AsyncCallOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyCallSymbol(*this, symbols);
}
OpOperand *AsyncCallOp::getTiedOperand(unsigned resultIndex) {
  return tiedOperandAt(*this, getTiedOperands(), getResourceOperands(),
                       resultIndex);
}

LogicalResult CmdCallOp::verify() { return verifyCall(*this); }
LogicalResult CmdCallOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyCallSymbol(*this, symbols);
}
OpOperand *CmdCallOp::getTiedOperand(unsigned resultIndex) {
  return tiedOperandAt(*this, getTiedOperands(), getResourceOperands(),
                       resultIndex);
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

//===----------------------------------------------------------------------===//
// Execution regions
//===----------------------------------------------------------------------===//

void CmdExecuteOp::build(OpBuilder &builder, OperationState &state,
                         Value awaitTimepoint, ValueRange resources,
                         ValueRange sizes) {
  if (awaitTimepoint)
    state.addOperands(awaitTimepoint);
  state.addOperands(resources);
  state.addOperands(sizes);
  state.getOrAddProperties<Properties>().operandSegmentSizes = {
      awaitTimepoint ? 1 : 0, static_cast<int32_t>(resources.size()),
      static_cast<int32_t>(sizes.size())};
  state.addTypes(TimepointType::get(builder.getContext()));
  Region *region = state.addRegion();
  Block *block = new Block();
  for (Value resource : resources)
    block->addArgument(resource.getType(), resource.getLoc());
  region->push_back(block);
}

// [on(#affinity)] [await(%t)] with(%r as %arg: type{%size}, ...) { ... }
//     => !stream.timepoint [attributes {...}]
ParseResult CmdExecuteOp::parse(OpAsmParser &parser, OperationState &result) {
  if (succeeded(parser.parseOptionalKeyword("on"))) {
    AffinityAttr affinity;
    if (parser.parseLParen() || parser.parseAttribute(affinity) ||
        parser.parseRParen())
      return failure();
    result.addAttribute(kAffinityAttrName, affinity);
  }
  SmallVector<OpAsmParser::UnresolvedOperand, 1> await;
  if (succeeded(parser.parseOptionalKeyword("await"))) {
    OpAsmParser::UnresolvedOperand timepoint;
    if (parser.parseLParen() || parser.parseOperand(timepoint) ||
        parser.parseRParen())
      return failure();
    await.push_back(timepoint);
  }
  SmallVector<OpAsmParser::UnresolvedOperand> resources, sizes;
  SmallVector<OpAsmParser::Argument> captures;
  SmallVector<Type> resourceTypes;
  if (parser.parseKeyword("with") ||
      parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
            OpAsmParser::UnresolvedOperand resource, size;
            OpAsmParser::Argument capture;
            if (parser.parseOperand(resource) || parser.parseKeyword("as") ||
                parser.parseArgument(capture) ||
                parser.parseColonType(capture.type) || parser.parseLBrace() ||
                parser.parseOperand(size) || parser.parseRBrace())
              return failure();
            resources.push_back(resource);
            sizes.push_back(size);
            resourceTypes.push_back(capture.type);
            captures.push_back(capture);
            return success();
          }))
    return failure();
  Region *body = result.addRegion();
  Type timepointType;
  if (parser.parseRegion(*body, captures) || parser.parseEqual() ||
      parser.parseGreater() || parser.parseType(timepointType) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  // `{}` parses as no block at all; give it its block so that the verifier
  // can say what is missing (commands) rather than how regions are shaped.
  if (body->empty()) {
    Block *block = new Block();
    for (OpAsmParser::Argument &capture : captures)
      block->addArgument(capture.type,
                         parser.getEncodedSourceLoc(capture.ssaName.location));
    body->push_back(block);
  }
  Type indexType = parser.getBuilder().getIndexType();
  if (parser.resolveOperands(await, TimepointType::get(parser.getContext()),
                             result.operands) ||
      parser.resolveOperands(resources, resourceTypes, parser.getNameLoc(),
                             result.operands) ||
      parser.resolveOperands(sizes, indexType, result.operands))
    return failure();
  result.getOrAddProperties<Properties>().operandSegmentSizes = {
      static_cast<int32_t>(await.size()),
      static_cast<int32_t>(resources.size()),
      static_cast<int32_t>(sizes.size())};
  result.addTypes(timepointType);
  return success();
}

void CmdExecuteOp::print(OpAsmPrinter &printer) {
  if (AffinityAttr affinity = getAffinity(*this))
    printer << " on(" << affinity << ")";
  if (Value await = getAwaitTimepoint())
    printer << " await(" << await << ")";
  printer << " with(";
  for (auto [i, resource, size] :
       llvm::enumerate(getResourceOperands(), getResourceOperandSizes())) {
    if (i)
      printer << ", ";
    printer << resource << " as ";
    printer.printRegionArgument(getCapture(i));
    printer << '{' << size << '}';
  }
  printer << ") ";
  printer.printRegion(getCommands(), /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/false);
  printer << " => " << getResultTimepoint().getType();
  printer.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {"operandSegmentSizes", kAffinityAttrName});
}

LogicalResult CmdExecuteOp::verify() {
  if (failed(
          verifySizes(*this, getResourceOperands(), getResourceOperandSizes())))
    return failure();
  Block &body = getCommands().front();
  if (body.getNumArguments() != getResourceOperands().size())
    return emitOpError() << "captures " << getResourceOperands().size()
                         << " resources but its region has "
                         << body.getNumArguments() << " arguments";
  for (auto [i, resource, capture] :
       llvm::enumerate(getResourceOperands(), body.getArguments()))
    if (resource.getType() != capture.getType())
      return emitOpError() << "capture " << i << " has type "
                           << capture.getType() << " but the resource is "
                           << resource.getType();
  return success();
}

LogicalResult CmdExecuteOp::verifyRegions() {
  Block &body = getCommands().front();
  if (body.empty())
    return emitOpError() << "has no commands; an execution region needs at "
                            "least one dispatch, fill or copy";
  AffinityAttr affinity = getAffinity(*this);
  for (Operation &op : body) {
    if (!isa<CmdDispatchOp, CmdDispatchEntryOp, CmdFillOp, CmdCopyOp>(op)) {
      InFlightDiagnostic diag =
          op.emitOpError() << "cannot run inside an execution region: "
                              "only stream.cmd.dispatch, dispatch.entry, fill "
                              "and copy "
                              "can";
      if (isa<ResourceAllocaOp, ResourceDeallocaOp>(op))
        diag << " (memory is allocated and freed on the timeline around a "
                "region, never inside it)";
      else if (isa<CmdCallOp>(op))
        diag << " (a call runs on the host, between regions)";
      return diag;
    }
    if (llvm::any_of(op.getOperandTypes(), llvm::IsaPred<TimepointType>))
      return op.emitOpError()
             << "must not await a timepoint inside an execution region: its "
                "commands run in order once the region's await is reached";
    if (!op.getResult(0).use_empty())
      return op.emitOpError()
             << "has its timepoint used, but inside an execution region only "
                "the region's timepoint is reached; use that";
    for (Value operand : op.getOperands()) {
      if (!isa<ResourceType>(operand.getType()))
        continue;
      auto capture = dyn_cast<BlockArgument>(operand);
      if (!capture || capture.getOwner() != &body)
        return op.emitOpError()
               << "uses a resource defined outside its execution region; "
                  "capture it with 'with(%r as %arg: ...)'";
    }
    AffinityAttr own = getAffinity(&op);
    if (own && !canExecuteTogether(own, affinity)) {
      InFlightDiagnostic diag = op.emitOpError()
                                << "runs on " << own
                                << " but its execution region runs on ";
      if (affinity)
        diag << affinity;
      else
        diag << "the default device";
      return diag << "; one region submits to one queue";
    }
  }
  return success();
}

bool CmdExecuteOp::writesCapture(unsigned index) {
  BlockArgument capture = getCapture(index);
  for (OpOperand &use : capture.getUses()) {
    Operation *user = use.getOwner();
    if (auto dispatch = dyn_cast<CmdDispatchOp>(user)) {
      if (&use == &dispatch.getResourceOperandsMutable()
                       [dispatch.getResourceOperands().size() - 1])
        return true;
    } else if (auto fill = dyn_cast<CmdFillOp>(user)) {
      if (&use == &fill.getTargetMutable())
        return true;
    } else if (auto copy = dyn_cast<CmdCopyOp>(user)) {
      if (&use == &copy.getTargetMutable())
        return true;
    }
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Timepoints
//===----------------------------------------------------------------------===//

LogicalResult TimepointJoinOp::verify() {
  if (getAwaitTimepoints().empty())
    return emitOpError() << "needs at least one timepoint to join";
  return success();
}

LogicalResult TimepointAwaitOp::verify() {
  return verifySizes(*this, getResourceOperands(), getResourceOperandSizes());
}

Value joinTimepoints(OpBuilder &builder, Location loc,
                     ArrayRef<Value> timepoints) {
  llvm::SetVector<Value> unique;
  for (Value timepoint : timepoints)
    if (timepoint)
      unique.insert(timepoint);
  if (unique.empty())
    return {};
  if (unique.size() == 1)
    return unique.front();
  return TimepointJoinOp::create(builder, loc,
                                 TimepointType::get(builder.getContext()),
                                 unique.getArrayRef());
}

void StreamDialect::registerOperations() {
  addOperations<
#define GET_OP_LIST
#include "compiler/Dialect/Stream/IR/StreamOps.cpp.inc"
      >();
}

} // namespace ferry::stream

#define GET_OP_CLASSES
#include "compiler/Dialect/Stream/IR/StreamOps.cpp.inc"
