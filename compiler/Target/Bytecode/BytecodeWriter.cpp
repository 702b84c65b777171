// Encodes hal-level IR one op to one instruction, following the layouts in
// runtime/vm/bytecode_format.h. The whole file is built in memory and only
// written out once every function has encoded, so errors never leave a
// partial module behind.
//
// Control flow: a function's reachable blocks are laid out in reverse
// post-order (the entry first, and every block after the blocks that
// dominate it, so values are encoded before their uses); cf.br / cf.cond_br
// become br / br.cond whose moves write the successor's block-argument
// registers. Targets are patched once every block's offset is known.
#include "compiler/Target/Bytecode/BytecodeWriter.h"

#include "compiler/Dialect/HAL/IR/HALDialect.h"
#include "compiler/Utils/ABI.h"

#include "mlir/Analysis/Liveness.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/RegionGraphTraits.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include "runtime/drivers/builtin_backends.h"
#include "runtime/hal/builtin_kernels.h"
#include "runtime/hal/element_type.h"
#include "runtime/hal/queue_flags.h"
#include "runtime/vm/bytecode_encoder.h"
#include "runtime/vm/bytecode_format.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <span>
#include <vector>

using namespace mlir;
using ferry::hal::BuiltinKernel;
using ferry::vm::bytecode::ByteWriter;
using ferry::vm::bytecode::CmpPredicate;
using ferry::vm::bytecode::kNoRegister;
using ferry::vm::bytecode::Opcode;
using ferry::vm::bytecode::RegisterKind;

namespace ferry {
namespace {

constexpr uint16_t kMaxU16 = std::numeric_limits<uint16_t>::max();
constexpr uint32_t kMaxU32 = std::numeric_limits<uint32_t>::max();
// kNoRegister takes the last 16-bit value, so one fewer register is usable.
constexpr unsigned kMaxRegistersPerKind = kNoRegister;

//===----------------------------------------------------------------------===//
// Module-level tables
//===----------------------------------------------------------------------===//

// Deduplicated strings (function names, device names, assert messages),
// indexed in first-use order.
class StringTable {
public:
  uint32_t intern(StringRef text) {
    auto [it, inserted] = indices.try_emplace(text, strings.size());
    if (inserted)
      strings.push_back(it->first());
    return it->second;
  }

  void encode(ByteWriter &out) const {
    out.appendU32(strings.size());
    for (StringRef text : strings) {
      out.appendU32(text.size());
      out.append(text);
    }
  }

private:
  llvm::StringMap<uint32_t> indices;
  // Keys owned by `indices`, in index order.
  std::vector<StringRef> strings;
};

// Symbols in the order they were added, each found by name at its index:
// the functions the module defines (for `call`) and its hal.global ops are
// just this; devices and imports add what they encode.
class SymbolIndex {
public:
  void add(StringAttr name) { indices.try_emplace(name, indices.size()); }
  std::optional<uint32_t> lookup(StringAttr name) const {
    auto it = indices.find(name);
    if (it == indices.end())
      return std::nullopt;
    return it->second;
  }
  size_t size() const { return indices.size(); }

private:
  llvm::DenseMap<StringAttr, uint32_t> indices;
};
using FunctionTable = SymbolIndex;
using GlobalTable = SymbolIndex;

// The module's constant data (hal.device.constant), each distinct value
// once, in first-use order: its elements' bytes as the constant table holds
// them (little-endian, row-major).
class ConstantTable {
public:
  FailureOr<uint32_t> add(Operation *op, ElementsAttr value) {
    auto [it, inserted] = indices.try_emplace(value, data.size());
    if (!inserted)
      return it->second;
    FailureOr<std::vector<uint8_t>> bytes = rawBytes(op, value);
    if (failed(bytes)) {
      indices.erase(it);
      return failure();
    }
    data.push_back(std::move(*bytes));
    return it->second;
  }

  void encode(ByteWriter &out) const {
    std::vector<std::span<const uint8_t>> spans(data.begin(), data.end());
    vm::bytecode::appendConstantTable(out, spans);
  }

private:
  static FailureOr<std::vector<uint8_t>> rawBytes(Operation *op,
                                                  ElementsAttr value) {
    Type elementType = value.getElementType();
    unsigned bits = elementType.getIntOrFloatBitWidth();
    // MLIR packs i1 elements as bits; the runtime holds one byte each.
    if (bits == 1) {
      std::vector<uint8_t> out;
      out.reserve(size_t(value.getNumElements()));
      for (bool element : value.getValues<bool>())
        out.push_back(element ? 1 : 0);
      return out;
    }
    if (bits % 8 != 0)
      return op->emitError() << "constant of " << elementType
                             << " cannot be stored: only whole-byte element "
                                "types are supported";
    ArrayRef<char> raw;
    bool splat = false;
    if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
      raw = dense.getRawData();
      splat = dense.isSplat();
    } else if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
      AsmResourceBlob *blob = resource.getRawHandle().getBlob();
      if (!blob)
        return op->emitError()
               << "constant's resource blob '"
               << resource.getRawHandle().getKey() << "' has no data";
      raw = blob->getData();
    } else {
      return op->emitError() << "constant " << value
                             << " cannot be stored: only dense elements and "
                                "dense resources are supported";
    }
    size_t bytes = size_t(value.getNumElements()) * (bits / 8);
    std::vector<uint8_t> out;
    out.reserve(bytes);
    while (out.size() < bytes && !raw.empty()) {
      size_t take = std::min(raw.size(), bytes - out.size());
      out.insert(out.end(), raw.begin(), raw.begin() + take);
      if (!splat)
        break;
    }
    if (out.size() != bytes)
      return op->emitError() << "constant holds " << raw.size()
                             << " bytes, its type needs " << bytes;
    return out;
  }

  llvm::DenseMap<Attribute, uint32_t> indices;
  std::vector<std::vector<uint8_t>> data;
};

// "'local' (drivers local-sync, local-task, local-discrete)" for messages.
std::string describeBuiltinBackends() {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::interleaveComma(drivers::kBuiltinBackends, os,
                        [&](const drivers::Backend &backend) {
                          os << "'" << backend.name << "' (drivers ";
                          llvm::interleaveComma(backend.drivers, os);
                          os << ")";
                        });
  return out;
}

// The hal.device.global ops of the module, in declaration order.
class DeviceTable : public SymbolIndex {
public:
  // Fails on a device whose target names a backend the runtime does not
  // have: ferry-run would otherwise run it on the local CPU.
  LogicalResult add(hal::DeviceGlobalOp device, StringTable &strings) {
    StringRef backend = device.getTarget().getDriver();
    if (!drivers::findBuiltinBackend(backend))
      return device.emitError()
             << "device @" << device.getSymName() << " targets backend '"
             << backend << "', which Ferry does not have; Ferry's backends: "
             << describeBuiltinBackends();
    SymbolIndex::add(device.getSymNameAttr());
    nameIndices.push_back(strings.intern(device.getSymName()));
    return success();
  }

  void encode(ByteWriter &out) const {
    out.appendU32(nameIndices.size());
    for (uint32_t nameIndex : nameIndices)
      out.appendU32(nameIndex);
  }

private:
  std::vector<uint32_t> nameIndices;
};

std::optional<RegisterKind> getRegisterKind(Type type);

// Appends `func`'s argument and result register kinds (count:u16, then one
// u8 each), as imports and functions declare them; errors name `whose`
// ("function", "external function") and the type no register holds.
LogicalResult encodeSignatureKinds(func::FuncOp func, StringRef whose,
                                   ByteWriter &out) {
  FunctionType type = func.getFunctionType();
  SmallVector<RegisterKind> kinds[2];
  for (auto [types, what, list] :
       {std::tuple(type.getInputs(), "argument", &kinds[0]),
        std::tuple(type.getResults(), "result", &kinds[1])}) {
    if (types.size() > kMaxU16)
      return func.emitError()
             << whose << " '" << func.getSymName() << "' has more than "
             << kMaxU16 << " " << what << "s";
    for (auto [position, kindType] : llvm::enumerate(types)) {
      std::optional<RegisterKind> kind = getRegisterKind(kindType);
      if (!kind)
        return func.emitError()
               << whose << " '" << func.getSymName() << "': " << what << " "
               << position << " has type " << kindType
               << ", which a Ferry bytecode module cannot pass; only index, "
                  "integers of up to 64 bits, f16, bf16, f32, f64 and !hal "
                  "types can";
      list->push_back(*kind);
    }
  }
  vm::bytecode::appendSignature(out, kinds[0], kinds[1]);
  return success();
}

// The external functions (func.func declarations) the module calls, in
// declaration order.
class ImportTable : public SymbolIndex {
public:
  // Adds `func` with its signature; errors name a type no register holds
  // and a name the runtime could not bind.
  LogicalResult add(func::FuncOp func, StringTable &strings) {
    if (!vm::bytecode::isImportName(func.getSymName()))
      return func.emitError()
             << "external function '" << func.getSymName()
             << "' needs a name of the form 'module.function' (e.g. "
                "@Double.function, which the runtime binds to function "
                "'function' of native module 'Double')";
    SymbolIndex::add(func.getSymNameAttr());
    entries.appendU32(strings.intern(func.getSymName()));
    if (failed(encodeSignatureKinds(func, "external function", entries)))
      return failure();
    auto model = func->getAttrOfType<StringAttr>("iree.abi.model");
    uint32_t flags = model && model.getValue() == "coarse-fences"
                         ? vm::bytecode::kImportCoarseFences
                         : vm::bytecode::kImportFlagsNone;
    // The program may pass one storage as input and output: the function
    // bound at run time must allow it.
    if (func->hasAttr(hal::kTiedMayAliasAttr))
      flags |= vm::bytecode::kImportTiedMayAlias;
    // Calls pass a result allocation request per result before the fences.
    if (func->hasAttr(hal::kResultAllocationAttr))
      flags |= vm::bytecode::kImportResultAllocation;
    entries.appendU32(flags);
    return success();
  }

  void encode(ByteWriter &out) const {
    out.appendU32(size());
    out.append(entries.bytes());
  }

private:
  ByteWriter entries;
};

//===----------------------------------------------------------------------===//
// Registers
//===----------------------------------------------------------------------===//

// The register kind that holds values of `type`: integers that fit 64 bits
// and index in i64 registers, hal objects in ref registers.
std::optional<RegisterKind> getRegisterKind(Type type) {
  if (type.isIndex())
    return RegisterKind::kI64;
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.getWidth() <= 64 ? std::optional(RegisterKind::kI64)
                                    : std::nullopt;
  // A float is held as its bit pattern, sign-extended like an integer of
  // its width (which arith.bitcast then leaves as it is).
  if (isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(type))
    return RegisterKind::kI64;
  if (isa<hal::HALDialect>(type.getDialect()))
    return RegisterKind::kRef;
  return std::nullopt;
}

// A register per live SSA value, per kind. Function arguments are defined
// first, which gives them registers 0.. within their kind as the format
// requires. A value dead from some op on gives its register back, and a later
// value of the same block takes it: a long straight-line function needs as
// many registers as it has values live at once, not as it has values.
// Reuse stays within one block: a value dead at the end of a block may still
// be live in a sibling block, which another register must serve.
class RegisterFile {
public:
  // Assigns a free register of the value's kind (the lowest given back in
  // this block, else the next new one). Errors are reported on `owner` (the
  // defining op, or the function for arguments).
  LogicalResult define(Value value, Operation *owner) {
    std::optional<RegisterKind> kind = getRegisterKind(value.getType());
    if (!kind)
      return owner->emitError()
             << "a value of type " << value.getType()
             << " cannot be held in a Ferry bytecode register; only index, "
                "integers of up to 64 bits, f16, bf16, f32, f64 and !hal "
                "types can";
    SmallVector<uint16_t> &free = freed[static_cast<unsigned>(*kind)];
    if (!free.empty()) {
      registers[value] = free.pop_back_val();
      return success();
    }
    uint16_t &count = counts[static_cast<unsigned>(*kind)];
    if (count >= kMaxRegistersPerKind)
      return owner->emitError()
             << "needs more than " << kMaxRegistersPerKind << " "
             << (*kind == RegisterKind::kI64 ? "i64" : "ref")
             << " registers, the most a Ferry bytecode function can have";
    registers[value] = count++;
    return success();
  }

  // The register of a value defined earlier. Blocks are encoded in reverse
  // post-order and block arguments are defined up front, so dominance
  // guarantees operands are defined before use.
  uint16_t lookup(Value value) const {
    auto it = registers.find(value);
    assert(it != registers.end() && "operand used before its definition");
    return it->second;
  }

  // `value` is not read again in this block, nor after it: its register
  // may hold a later value of the block. (It keeps the register for the
  // blocks encoded later: a sibling block may still read it there.)
  // Releasing twice (an op using a value twice) is harmless.
  void release(Value value) {
    if (!releasedInBlock.insert(value).second)
      return;
    freed[static_cast<unsigned>(*getRegisterKind(value.getType()))].push_back(
        lookup(value));
  }

  // A new block: what the last one gave back stays unused.
  void startBlock() {
    for (SmallVector<uint16_t> &free : freed)
      free.clear();
    releasedInBlock.clear();
  }

  uint16_t count(RegisterKind kind) const {
    return counts[static_cast<unsigned>(kind)];
  }

private:
  llvm::DenseMap<Value, uint16_t> registers;
  uint16_t counts[2] = {0, 0};
  SmallVector<uint16_t> freed[2];
  llvm::DenseSet<Value> releasedInBlock;
};

//===----------------------------------------------------------------------===//
// Executables
//===----------------------------------------------------------------------===//

// `@executable::@function` -> (executable table index, entry index).
using EntryTable = llvm::DenseMap<Attribute, std::pair<uint32_t, uint32_t>>;

bool isExecutable(Operation *op) {
  return isa<ModuleOp>(op) && op->hasAttr(kExecutableAttr);
}

// A dispatch function as text without its name: two functions with the
// same text compile to the same code.
std::string bodyText(func::FuncOp func) {
  StringAttr name = func.getSymNameAttr();
  func.setSymName("f");
  std::string text;
  llvm::raw_string_ostream os(text);
  func->print(os, OpPrintingFlags().printGenericOpForm().useLocalScope());
  func.setSymNameAttr(name);
  return text;
}

// Compiles every executable of `module` into one shared object: executable
// 0 of the table, one entry per distinct dispatch function, in module
// order. A function identical to an earlier one but for its name (the
// same elementwise op at the same types, made once per use) shares its
// entry: a program of thousands of dispatches compiles a handful.
LogicalResult
compileExecutables(ModuleOp module, const BytecodeWriterOptions &options,
                   std::vector<vm::bytecode::ExecutableRecord> &records,
                   EntryTable &entries) {
  OpBuilder builder(module.getContext());
  OwningOpRef<ModuleOp> merged = ModuleOp::create(module.getLoc());
  builder.setInsertionPointToEnd(merged->getBody());
  SmallVector<Attribute> symbols;
  llvm::StringSet<> names;
  llvm::StringMap<unsigned> distinct;
  SmallVector<std::pair<Attribute, unsigned>> sharing;
  for (Operation &op : module.getBody()->getOperations()) {
    if (!isExecutable(&op))
      continue;
    auto executable = cast<ModuleOp>(op);
    for (auto func : executable.getOps<func::FuncOp>()) {
      if (!func.isPublic())
        continue;
      if (!names.insert(func.getSymName()).second)
        return func.emitError() << "dispatch function '" << func.getSymName()
                                << "' is defined by two executables; entry "
                                   "names must be unique in a module";
      auto symbol =
          SymbolRefAttr::get(executable.getSymNameAttr(),
                             {FlatSymbolRefAttr::get(func.getSymNameAttr())});
      auto [it, isNew] = distinct.try_emplace(bodyText(func), symbols.size());
      if (!isNew) {
        sharing.push_back({symbol, it->second});
        continue;
      }
      builder.clone(*func);
      symbols.push_back(symbol);
    }
  }
  if (symbols.empty())
    return success();
  FailureOr<codegen::ExecutableImage> image =
      codegen::compileExecutable(*merged, options.target);
  if (failed(image))
    return failure();
  vm::bytecode::ExecutableRecord record;
  record.name = "dispatches";
  record.format = image->format;
  record.cpuFeatures = image->cpuFeatures;
  record.image = std::move(image->image);
  for (auto [index, entry] : llvm::enumerate(image->entries)) {
    vm::bytecode::EntryRecord entryRecord;
    entryRecord.name = entry.name;
    entryRecord.kind = entry.copyKernel ? vm::bytecode::kEntryCopy
                                        : vm::bytecode::kEntryCompute;
    entryRecord.pushConstantCount = entry.pushConstantCount;
    entryRecord.bindingAccess = entry.bindingAccess;
    record.entries.push_back(std::move(entryRecord));
    entries[symbols[index]] = {0u, uint32_t(index)};
  }
  for (auto [symbol, index] : sharing)
    entries[symbol] = {0u, uint32_t(index)};
  records.push_back(std::move(record));
  return success();
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

// Encodes one func.func: its signature, register counts and code.
class FunctionEncoder {
public:
  FunctionEncoder(StringTable &strings, const DeviceTable &devices,
                  const ImportTable &imports, const FunctionTable &functions,
                  const GlobalTable &globals, const EntryTable &entries,
                  ConstantTable &constants)
      : strings(strings), devices(devices), imports(imports),
        functions(functions), globals(globals), entries(entries),
        constants(constants) {}

  LogicalResult encode(func::FuncOp func, ByteWriter &out);

private:
  LogicalResult checkStructure(func::FuncOp func);
  LogicalResult encodeOp(Operation *op);

  LogicalResult encodeConstant(Operation *op, const APInt &value);
  // Results' then operands' registers; emits the instruction unless more
  // operands follow.
  LogicalResult encodeRegisters(Operation *op, Opcode opcode,
                                bool emitNow = true);
  LogicalResult encodeInteger(Operation *op, Opcode opcode);
  LogicalResult encodeCast(Operation *op, Opcode opcode, Type widthType);
  LogicalResult encodeReturn(func::ReturnOp op);
  LogicalResult encodeDeviceGet(hal::DeviceGetOp op);
  LogicalResult encodeBufferViewDim(hal::BufferViewDimOp op);
  LogicalResult encodeBufferViewAssert(hal::BufferViewAssertOp op);
  LogicalResult encodeBufferViewCreate(hal::BufferViewCreateOp op);
  LogicalResult encodeFenceAwait(hal::FenceAwaitOp op);
  LogicalResult encodeFenceJoin(hal::FenceJoinOp op);
  LogicalResult encodeQueueAlloca(hal::DeviceQueueAllocaOp op);
  LogicalResult encodeQueueDealloca(hal::DeviceQueueDeallocaOp op);
  LogicalResult encodeQueueDispatch(hal::DeviceQueueDispatchOp op);
  LogicalResult encodeQueueDispatchEntry(hal::DeviceQueueDispatchEntryOp op);
  LogicalResult encodeDeviceQuery(hal::DeviceQueryOp op);
  LogicalResult encodeAllocatorSelect(hal::AllocatorSelectOp op);
  LogicalResult encodeImportBuffer(hal::DeviceImportBufferOp op);
  LogicalResult encodeDeviceConstant(hal::DeviceConstantOp op);
  LogicalResult encodeGlobalLoad(hal::GlobalLoadOp op);
  LogicalResult encodeGlobalStore(hal::GlobalStoreOp op);
  LogicalResult encodeQueueFill(hal::DeviceQueueFillOp op);
  LogicalResult encodeQueueCopy(hal::DeviceQueueCopyOp op);
  LogicalResult encodeBufferLoad(hal::BufferLoadOp op);
  LogicalResult encodeCall(func::CallOp op);
  LogicalResult encodeCompare(arith::CmpIOp op);
  LogicalResult encodeSelect(arith::SelectOp op);
  LogicalResult encodeBranch(cf::BranchOp op);
  LogicalResult encodeCondBranch(cf::CondBranchOp op);
  LogicalResult encodeAssert(cf::AssertOp op);
  FailureOr<uint32_t> lookupGlobal(Operation *op, FlatSymbolRefAttr symbol);
  LogicalResult defineResult(Operation *op);

  // Operands of the instruction being built, in the decoded form the format's
  // encoder takes (runtime/vm/bytecode_encoder.h); emit() encodes them.
  void addRegister(Value value) { operands.push_back(registers.lookup(value)); }
  void addOptionalRegister(Value value) {
    operands.push_back(value ? registers.lookup(value) : kNoRegister);
  }
  void addImmediate(int64_t value) { operands.push_back(value); }
  // Every queue operation: device:r wait:r? signal:r.
  void addQueueOrder(Value device, Value wait, Value signal) {
    addRegister(device);
    addOptionalRegister(wait);
    addRegister(signal);
  }
  LogicalResult checkCount(Operation *op, size_t count, StringRef what);
  LogicalResult addRegisters(Operation *op, ValueRange values, StringRef what);
  LogicalResult addKindedRegisters(Operation *op, ValueRange values,
                                   StringRef what);
  LogicalResult addElementType(Operation *op, Type type);
  // A branch edge to `dest` passing `values`: target, then moves.
  LogicalResult addEdge(Operation *op, Block *dest, ValueRange values);
  LogicalResult emit(Operation *op, Opcode opcode);

  StringTable &strings;
  const DeviceTable &devices;
  const ImportTable &imports;
  const FunctionTable &functions;
  const GlobalTable &globals;
  const EntryTable &entries;
  ConstantTable &constants;
  RegisterFile registers;
  ByteWriter code;
  SmallVector<int64_t, 16> operands;
  // The blocks the instruction's targets name, in operand order.
  SmallVector<Block *, 2> targetBlocks;
  std::vector<size_t> targetPositions;
  llvm::DenseMap<Block *, uint32_t> blockOffsets;
  // (code offset of a target:u32, the block it names), patched at the end.
  SmallVector<std::pair<size_t, Block *>> targetFixups;
};

LogicalResult FunctionEncoder::encode(func::FuncOp func, ByteWriter &out) {
  // The signature is checked before arguments get registers, so a bad
  // argument type is reported against the signature.
  ByteWriter signature;
  signature.appendU32(strings.intern(func.getSymName()));
  if (failed(checkStructure(func)) ||
      failed(encodeSignatureKinds(func, "function", signature)))
    return failure();
  // Unreachable blocks are left out: nothing can branch to them.
  Block &entry = func.getBody().front();
  llvm::ReversePostOrderTraversal<Block *> traversal(&entry);
  SmallVector<Block *> order(traversal.begin(), traversal.end());
  // Every block's arguments get registers before any branch names them; the
  // entry's first, as the format requires of function arguments.
  for (Block *block : order)
    for (BlockArgument arg : block->getArguments())
      if (failed(registers.define(arg, block == &entry ? func.getOperation()
                                                       : block->getParentOp())))
        return failure();
  // Nothing is live out of a function's only block, so a straight-line
  // function (the large ones) skips the analysis and its sets of every value.
  std::optional<Liveness> liveness;
  if (!func.getBody().hasOneBlock())
    liveness.emplace(func);
  for (Block *block : order) {
    blockOffsets[block] = code.size();
    registers.startBlock();
    const LivenessBlockInfo *live =
        liveness ? liveness->getLiveness(block) : nullptr;
    // The op of this block that uses each value last.
    llvm::DenseMap<Value, Operation *> lastUser;
    for (Operation &op : *block)
      for (Value operand : op.getOperands())
        lastUser[operand] = &op;
    auto isDeadAfter = [&](Value value, Operation *op) {
      // A branch target's arguments keep their registers: predecessors
      // move into them.
      auto arg = dyn_cast<BlockArgument>(value);
      if (arg && arg.getOwner() != &entry)
        return false;
      return lastUser.lookup(value) == op && !(live && live->isLiveOut(value));
    };
    for (Operation &op : *block) {
      if (failed(encodeOp(&op)))
        return failure();
      // After the instruction, so its results never share a register with
      // its operands (instructions read operands as they write results).
      for (Value result : op.getResults())
        if (result.use_empty())
          registers.release(result);
      for (Value operand : op.getOperands())
        if (isDeadAfter(operand, &op))
          registers.release(operand);
    }
  }
  for (auto [at, block] : targetFixups)
    code.patchU32(at, blockOffsets.lookup(block));
  if (code.size() > kMaxU32)
    return func.emitError() << "function '" << func.getSymName()
                            << "' has more code than a Ferry bytecode module "
                               "can hold";

  out.append(signature.bytes());
  out.appendU16(registers.count(RegisterKind::kI64));
  out.appendU16(registers.count(RegisterKind::kRef));
  out.appendU32(code.size());
  out.append(code.bytes());
  return success();
}

// Control flow is a CFG of blocks (cf.br / cf.cond_br); nested regions
// (scf.if, scf.for) have no encoding.
LogicalResult FunctionEncoder::checkStructure(func::FuncOp func) {
  for (Block &block : func.getBody()) {
    for (Operation &op : block) {
      if (op.getNumRegions() != 0)
        return op.emitError()
               << "'" << op.getName()
               << "' has regions; a Ferry bytecode module holds control flow "
                  "only as branches between blocks (cf.br, cf.cond_br), so "
                  "it should have been lowered to those or to the hal "
                  "dialect";
    }
  }
  return success();
}

LogicalResult FunctionEncoder::encodeOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](arith::ConstantOp op) -> LogicalResult {
        if (auto value = dyn_cast<FloatAttr>(op.getValue());
            value && getRegisterKind(value.getType()))
          return encodeConstant(op, value.getValue().bitcastToAPInt());
        auto value = dyn_cast<IntegerAttr>(op.getValue());
        if (!value)
          return op.emitError() << "only integer, index and float (16 to 64 "
                                   "bits) constants can be serialized to a "
                                   "Ferry bytecode module";
        return encodeConstant(op, value.getValue());
      })
      // Bit masks are unsigned: widen them without sign extension.
      .Case([&](hal::MemoryTypeOp op) {
        return encodeConstant(op, op.getValueAttr().getValue().zext(64));
      })
      .Case([&](hal::BufferUsageOp op) {
        return encodeConstant(op, op.getValueAttr().getValue().zext(64));
      })
      .Case([&](arith::AddIOp op) { return encodeInteger(op, Opcode::kAddI); })
      .Case([&](arith::SubIOp op) { return encodeInteger(op, Opcode::kSubI); })
      .Case([&](arith::MulIOp op) { return encodeInteger(op, Opcode::kMulI); })
      .Case(
          [&](arith::DivSIOp op) { return encodeInteger(op, Opcode::kDivSI); })
      .Case(
          [&](arith::DivUIOp op) { return encodeInteger(op, Opcode::kDivUI); })
      .Case(
          [&](arith::RemSIOp op) { return encodeInteger(op, Opcode::kRemSI); })
      .Case(
          [&](arith::RemUIOp op) { return encodeInteger(op, Opcode::kRemUI); })
      .Case([&](arith::CeilDivSIOp op) {
        return encodeInteger(op, Opcode::kCeilDivSI);
      })
      .Case([&](arith::CeilDivUIOp op) {
        return encodeInteger(op, Opcode::kCeilDivUI);
      })
      .Case([&](arith::FloorDivSIOp op) {
        return encodeInteger(op, Opcode::kFloorDivSI);
      })
      .Case([&](arith::AndIOp op) { return encodeInteger(op, Opcode::kAndI); })
      .Case([&](arith::OrIOp op) { return encodeInteger(op, Opcode::kOrI); })
      .Case([&](arith::XOrIOp op) { return encodeInteger(op, Opcode::kXorI); })
      .Case([&](arith::ShLIOp op) { return encodeInteger(op, Opcode::kShlI); })
      .Case(
          [&](arith::ShRSIOp op) { return encodeInteger(op, Opcode::kShrSI); })
      .Case(
          [&](arith::ShRUIOp op) { return encodeInteger(op, Opcode::kShrUI); })
      .Case(
          [&](arith::MinSIOp op) { return encodeInteger(op, Opcode::kMinSI); })
      .Case(
          [&](arith::MaxSIOp op) { return encodeInteger(op, Opcode::kMaxSI); })
      .Case(
          [&](arith::MinUIOp op) { return encodeInteger(op, Opcode::kMinUI); })
      .Case(
          [&](arith::MaxUIOp op) { return encodeInteger(op, Opcode::kMaxUI); })
      .Case([&](arith::ExtSIOp op) {
        return encodeCast(op, Opcode::kExtSI, op.getIn().getType());
      })
      .Case([&](arith::ExtUIOp op) {
        return encodeCast(op, Opcode::kExtUI, op.getIn().getType());
      })
      .Case([&](arith::TruncIOp op) {
        return encodeCast(op, Opcode::kTruncI, op.getType());
      })
      // index_cast sign-extends a narrower integer, index_castui
      // zero-extends it; either truncates index to a narrower integer.
      .Case([&](arith::IndexCastOp op) {
        return isa<IndexType>(op.getIn().getType())
                   ? encodeCast(op, Opcode::kTruncI, op.getType())
                   : encodeCast(op, Opcode::kExtSI, op.getIn().getType());
      })
      .Case([&](arith::IndexCastUIOp op) {
        return isa<IndexType>(op.getIn().getType())
                   ? encodeCast(op, Opcode::kTruncI, op.getType())
                   : encodeCast(op, Opcode::kExtUI, op.getIn().getType());
      })
      // Floats are held as integers of their width: a bitcast between
      // the two keeps the register's value.
      .Case([&](arith::BitcastOp op) {
        return encodeCast(op, Opcode::kTruncI, op.getType());
      })
      .Case([&](hal::BufferLoadOp op) { return encodeBufferLoad(op); })
      .Case([&](func::ReturnOp op) { return encodeReturn(op); })
      .Case([&](hal::DeviceGetOp op) { return encodeDeviceGet(op); })
      .Case([&](hal::BufferViewDimOp op) { return encodeBufferViewDim(op); })
      .Case([&](hal::BufferViewAssertOp op) {
        return encodeBufferViewAssert(op);
      })
      .Case([&](hal::BufferViewBufferOp op) {
        return encodeRegisters(op, Opcode::kBufferViewBuffer);
      })
      .Case([&](hal::BufferViewCreateOp op) {
        return encodeBufferViewCreate(op);
      })
      .Case([&](hal::BufferLengthOp op) {
        return encodeRegisters(op, Opcode::kBufferLength);
      })
      .Case([&](hal::FenceCreateOp op) {
        return encodeRegisters(op, Opcode::kFenceCreate);
      })
      .Case([&](hal::FenceAwaitOp op) { return encodeFenceAwait(op); })
      .Case([&](hal::FenceJoinOp op) { return encodeFenceJoin(op); })
      .Case([&](hal::DeviceQueueAllocaOp op) { return encodeQueueAlloca(op); })
      .Case([&](hal::DeviceQueueDeallocaOp op) {
        return encodeQueueDealloca(op);
      })
      .Case([&](hal::DeviceQueueDispatchOp op) {
        return encodeQueueDispatch(op);
      })
      .Case([&](hal::DeviceQueueDispatchEntryOp op) {
        return encodeQueueDispatchEntry(op);
      })
      .Case([&](hal::DeviceQueryOp op) { return encodeDeviceQuery(op); })
      .Case(
          [&](hal::AllocatorSelectOp op) { return encodeAllocatorSelect(op); })
      .Case(
          [&](hal::DeviceImportBufferOp op) { return encodeImportBuffer(op); })
      .Case([&](hal::DeviceConstantOp op) { return encodeDeviceConstant(op); })
      .Case([&](hal::GlobalLoadOp op) { return encodeGlobalLoad(op); })
      .Case([&](hal::GlobalStoreOp op) { return encodeGlobalStore(op); })
      .Case([&](hal::DeviceQueueFillOp op) { return encodeQueueFill(op); })
      .Case([&](hal::DeviceQueueCopyOp op) { return encodeQueueCopy(op); })
      .Case([&](func::CallOp op) { return encodeCall(op); })
      .Case([&](arith::CmpIOp op) { return encodeCompare(op); })
      .Case([&](arith::SelectOp op) { return encodeSelect(op); })
      .Case([&](cf::BranchOp op) { return encodeBranch(op); })
      .Case([&](cf::CondBranchOp op) { return encodeCondBranch(op); })
      .Case([&](cf::AssertOp op) { return encodeAssert(op); })
      .Case([&](hal::BufferAllocationPreserveOp op) {
        return encodeRegisters(op, Opcode::kBufferPreserve);
      })
      .Case([&](hal::BufferAllocationDiscardOp op) {
        return encodeRegisters(op, Opcode::kBufferDiscard);
      })
      .Case([&](hal::BufferAllocationIsTerminalOp op) {
        return encodeRegisters(op, Opcode::kBufferIsTerminal);
      })
      .Case([&](hal::BufferAllocationClaimOp op) {
        return encodeRegisters(op, Opcode::kBufferClaim);
      })
      .Default([&](Operation *op) {
        return op->emitError()
               << "'" << op->getName()
               << "' cannot be serialized to a Ferry bytecode module; it "
                  "should have been lowered to the hal dialect";
      });
}

// Narrower integers live sign-extended in i64 registers (i1 as 0 or 1), so
// their arithmetic is exact as long as it does not overflow their width.
LogicalResult FunctionEncoder::encodeConstant(Operation *op,
                                              const APInt &value) {
  if (failed(defineResult(op)))
    return failure();
  addRegister(op->getResult(0));
  addImmediate(value.getBitWidth() == 1 ? value.getZExtValue()
                                        : value.getSExtValue());
  return emit(op, Opcode::kConstI64);
}

// Every op whose operands are, in order, its results' and then its operands'
// registers: binary arithmetic, views, lengths, fence creation, ownership.
LogicalResult FunctionEncoder::encodeRegisters(Operation *op, Opcode opcode,
                                               bool emitNow) {
  for (Value result : op->getResults())
    if (failed(registers.define(result, op)))
      return failure();
  for (Value result : op->getResults())
    addRegister(result);
  for (Value operand : op->getOperands())
    addRegister(operand);
  return emitNow ? emit(op, opcode) : success();
}

// The width an integer op works at: index is 64 bits on every target the
// runtime has. A float's register holds its bit pattern, so a bitcast (the
// only op on one) works at its width.
std::optional<unsigned> getIntegerBits(Type type) {
  if (type.isIndex())
    return 64;
  if (isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(type))
    return type.getIntOrFloatBitWidth();
  if (auto intType = dyn_cast<IntegerType>(type);
      intType && intType.getWidth() <= 64)
    return intType.getWidth();
  return std::nullopt;
}

// dst lhs rhs bits, at the width of the result.
LogicalResult FunctionEncoder::encodeInteger(Operation *op, Opcode opcode) {
  std::optional<unsigned> bits = getIntegerBits(op->getResult(0).getType());
  if (!bits)
    return op->emitError()
           << "'" << op->getName() << "' on " << op->getResult(0).getType()
           << " cannot be serialized to a Ferry bytecode module; only scalar "
              "index and integers of up to 64 bits can";
  if (failed(encodeRegisters(op, opcode, /*emitNow=*/false)))
    return failure();
  addImmediate(*bits);
  return emit(op, opcode);
}

// dst src bits, where `widthType` gives the width: the source's for an
// extension, the result's for a truncation.
LogicalResult FunctionEncoder::encodeCast(Operation *op, Opcode opcode,
                                          Type widthType) {
  std::optional<unsigned> bits = getIntegerBits(widthType);
  if (!bits || !getIntegerBits(op->getResult(0).getType()) ||
      !getIntegerBits(op->getOperand(0).getType()))
    return op->emitError()
           << "'" << op->getName() << "' from " << op->getOperand(0).getType()
           << " to " << op->getResult(0).getType()
           << " cannot be serialized to a Ferry bytecode module; only casts "
              "between scalar index and integers of up to 64 bits can";
  if (failed(encodeRegisters(op, opcode, /*emitNow=*/false)))
    return failure();
  addImmediate(*bits);
  return emit(op, opcode);
}

LogicalResult FunctionEncoder::encodeReturn(func::ReturnOp op) {
  // The function signature was checked, and the verifier ties return operand
  // types to it, so every kind is known here.
  if (failed(addKindedRegisters(op, op.getOperands(), "returned value")))
    return failure();
  return emit(op, Opcode::kReturn);
}

LogicalResult FunctionEncoder::encodeDeviceGet(hal::DeviceGetOp op) {
  std::optional<uint32_t> device = devices.lookup(op.getDeviceAttr().getAttr());
  if (!device)
    return op.emitError() << "'" << op.getDevice()
                          << "' does not name a hal.device.global";
  if (failed(defineResult(op)))
    return failure();
  addRegister(op.getResult());
  addImmediate(*device);
  return emit(op, Opcode::kDeviceGet);
}

LogicalResult FunctionEncoder::encodeBufferViewDim(hal::BufferViewDimOp op) {
  APInt index = op.getIndexAttr().getValue();
  if (index.isNegative() || index.getActiveBits() > 32)
    return op.emitError() << "dimension index " << op.getIndexAttr()
                          << " does not fit the bytecode's 32-bit operand";
  if (failed(defineResult(op)))
    return failure();
  addRegister(op.getResult());
  addRegister(op.getBufferView());
  addImmediate(index.getZExtValue());
  return emit(op, Opcode::kBufferViewDim);
}

LogicalResult
FunctionEncoder::encodeBufferViewAssert(hal::BufferViewAssertOp op) {
  addRegister(op.getBufferView());
  if (failed(addElementType(op, op.getElementType())) ||
      failed(addRegisters(op, op.getShape(), "dimension")))
    return failure();
  addImmediate(strings.intern(op.getMessage()));
  return emit(op, Opcode::kBufferViewAssert);
}

LogicalResult FunctionEncoder::encodeAssert(cf::AssertOp op) {
  addRegister(op.getArg());
  addImmediate(strings.intern(op.getMsg()));
  return emit(op, Opcode::kAssert);
}

LogicalResult
FunctionEncoder::encodeBufferViewCreate(hal::BufferViewCreateOp op) {
  if (failed(defineResult(op)))
    return failure();
  addRegister(op.getResult());
  addRegister(op.getSourceBuffer());
  if (failed(addElementType(op, op.getElementType())) ||
      failed(addRegisters(op, op.getShape(), "dimension")))
    return failure();
  return emit(op, Opcode::kBufferViewCreate);
}

LogicalResult FunctionEncoder::encodeFenceAwait(hal::FenceAwaitOp op) {
  if (failed(addRegisters(op, op.getFences(), "fence")))
    return failure();
  return emit(op, Opcode::kFenceAwait);
}

LogicalResult FunctionEncoder::encodeFenceJoin(hal::FenceJoinOp op) {
  if (failed(defineResult(op)))
    return failure();
  addRegister(op.getResult());
  if (failed(addRegisters(op, op.getFences(), "fence")))
    return failure();
  return emit(op, Opcode::kFenceJoin);
}

LogicalResult FunctionEncoder::encodeQueueAlloca(hal::DeviceQueueAllocaOp op) {
  if (failed(defineResult(op)))
    return failure();
  addRegister(op.getResult());
  addQueueOrder(op.getDevice(), op.getWaitFence(), op.getSignalFence());
  addRegister(op.getMemoryTypes());
  addRegister(op.getBufferUsage());
  addRegister(op.getResultSize());
  addImmediate(op.getIndeterminate() ? hal::kQueueAllocaIndeterminateLifetime
                                     : hal::kQueueAllocaNone);
  return emit(op, Opcode::kQueueAlloca);
}

LogicalResult
FunctionEncoder::encodeQueueDealloca(hal::DeviceQueueDeallocaOp op) {
  addQueueOrder(op.getDevice(), op.getWaitFence(), op.getSignalFence());
  addRegister(op.getBuffer());
  addImmediate(op.getPreferOrigin() ? hal::kQueueDeallocaPreferOrigin
                                    : hal::kQueueDeallocaNone);
  Value condition = op.getCondition();
  if (!condition)
    return emit(op, Opcode::kQueueDealloca);
  addRegister(condition);
  return emit(op, Opcode::kQueueDeallocaIf);
}

LogicalResult
FunctionEncoder::encodeQueueDispatch(hal::DeviceQueueDispatchOp op) {
  std::optional<BuiltinKernel> kernel = hal::parseBuiltinKernel(op.getKernel());
  if (!kernel)
    return op.emitError() << "unknown built-in kernel '" << op.getKernel()
                          << "'";
  addQueueOrder(op.getDevice(), op.getWaitFence(), op.getSignalFence());
  addImmediate(static_cast<uint32_t>(*kernel));
  if (failed(addElementType(op, op.getElementType())))
    return failure();
  addRegister(op.getCount());
  if (failed(addRegisters(op, op.getBindings(), "binding")))
    return failure();
  return emit(op, Opcode::kQueueDispatch);
}

LogicalResult
FunctionEncoder::encodeQueueDispatchEntry(hal::DeviceQueueDispatchEntryOp op) {
  auto entry = entries.find(op.getEntry());
  if (entry == entries.end())
    return op.emitError() << "dispatches " << op.getEntry()
                          << ", which is not a dispatch function of an "
                             "executable of this module";
  addQueueOrder(op.getDevice(), op.getWaitFence(), op.getSignalFence());
  addImmediate(entry->second.first);
  addImmediate(entry->second.second);
  for (Value count : op.getWorkgroups())
    addRegister(count);
  if (failed(addRegisters(op, op.getPushConstants(), "push constant")) ||
      failed(addRegisters(op, op.getBindings(), "binding")) ||
      failed(addRegisters(op, op.getBindingOffsets(), "binding offset")) ||
      failed(addRegisters(op, op.getBindingLengths(), "binding length")))
    return failure();
  return emit(op, Opcode::kQueueDispatchEntry);
}

LogicalResult FunctionEncoder::encodeDeviceQuery(hal::DeviceQueryOp op) {
  if (failed(registers.define(op.getOk(), op)) ||
      failed(registers.define(op.getValue(), op)))
    return failure();
  addRegister(op.getOk());
  addRegister(op.getValue());
  addRegister(op.getDevice());
  addImmediate(strings.intern(op.getCategory()));
  addImmediate(strings.intern(op.getKey()));
  addImmediate(op.getDefaultValue());
  addImmediate(op.getValue().getType().getIntOrFloatBitWidth());
  return emit(op, Opcode::kDeviceQuery);
}

LogicalResult
FunctionEncoder::encodeAllocatorSelect(hal::AllocatorSelectOp op) {
  if (failed(defineResult(op)))
    return failure();
  addRegister(op.getResult());
  if (failed(addRegisters(op, op.getDevices(), "device")))
    return failure();
  return emit(op, Opcode::kAllocatorSelect);
}

LogicalResult
FunctionEncoder::encodeImportBuffer(hal::DeviceImportBufferOp op) {
  if (failed(defineResult(op)))
    return failure();
  addRegister(op.getResult());
  addRegister(op.getDevice());
  addRegister(op.getSourceBuffer());
  addOptionalRegister(op.getWaitFence());
  return emit(op, Opcode::kDeviceImportBuffer);
}

LogicalResult FunctionEncoder::encodeDeviceConstant(hal::DeviceConstantOp op) {
  FailureOr<uint32_t> index = constants.add(op, op.getValue());
  if (failed(index) || failed(defineResult(op)))
    return failure();
  addRegister(op.getResult());
  addRegister(op.getDevice());
  addImmediate(*index);
  return emit(op, Opcode::kDeviceConstant);
}

FailureOr<uint32_t> FunctionEncoder::lookupGlobal(Operation *op,
                                                  FlatSymbolRefAttr symbol) {
  std::optional<uint32_t> index = globals.lookup(symbol.getAttr());
  if (!index)
    return op->emitError() << symbol << " does not name a hal.global";
  return *index;
}

LogicalResult FunctionEncoder::encodeGlobalLoad(hal::GlobalLoadOp op) {
  FailureOr<uint32_t> index = lookupGlobal(op, op.getGlobalAttr());
  if (failed(index) || failed(defineResult(op)))
    return failure();
  addRegister(op.getResult());
  addImmediate(*index);
  return emit(op, Opcode::kGlobalLoadI64);
}

LogicalResult FunctionEncoder::encodeGlobalStore(hal::GlobalStoreOp op) {
  auto func = op->getParentOfType<func::FuncOp>();
  if (func.getSymName() != vm::bytecode::kInitializerFunctionName.data())
    return op.emitError() << "globals may only be stored by the module "
                             "initializer '@"
                          << vm::bytecode::kInitializerFunctionName.data()
                          << "'";
  FailureOr<uint32_t> index = lookupGlobal(op, op.getGlobalAttr());
  if (failed(index))
    return failure();
  addImmediate(*index);
  addRegister(op.getValue());
  return emit(op, Opcode::kGlobalStoreI64);
}

LogicalResult FunctionEncoder::encodeQueueFill(hal::DeviceQueueFillOp op) {
  Value pattern = op.getPattern();
  if (!getRegisterKind(pattern.getType()))
    return op.emitError() << "a fill pattern of type " << pattern.getType()
                          << " must be turned into an integer first";
  addQueueOrder(op.getDevice(), op.getWaitFence(), op.getSignalFence());
  addRegister(op.getTargetBuffer());
  addRegister(op.getTargetOffset());
  addRegister(op.getLength());
  addRegister(pattern);
  addImmediate(pattern.getType().getIntOrFloatBitWidth() / 8);
  return emit(op, Opcode::kQueueFill);
}

// dst buffer offset type (the op's verifier checked the type).
LogicalResult FunctionEncoder::encodeBufferLoad(hal::BufferLoadOp op) {
  if (failed(encodeRegisters(op, Opcode::kBufferLoad, /*emitNow=*/false)))
    return failure();
  addImmediate(
      static_cast<uint32_t>(*hal::getRuntimeElementType(op.getType())));
  return emit(op, Opcode::kBufferLoad);
}

LogicalResult FunctionEncoder::encodeQueueCopy(hal::DeviceQueueCopyOp op) {
  addQueueOrder(op.getDevice(), op.getWaitFence(), op.getSignalFence());
  addRegister(op.getSourceBuffer());
  addRegister(op.getSourceOffset());
  addRegister(op.getTargetBuffer());
  addRegister(op.getTargetOffset());
  addRegister(op.getLength());
  return emit(op, Opcode::kQueueCopy);
}

// count, then (kind, register) per value.
LogicalResult FunctionEncoder::addKindedRegisters(Operation *op,
                                                  ValueRange values,
                                                  StringRef what) {
  if (failed(checkCount(op, values.size(), what)))
    return failure();
  operands.push_back(values.size());
  for (Value value : values) {
    std::optional<RegisterKind> kind = getRegisterKind(value.getType());
    if (!kind)
      return op->emitError() << "a value of type " << value.getType()
                             << " cannot be passed to or from a call";
    operands.push_back(static_cast<int64_t>(*kind));
    addRegister(value);
  }
  return success();
}

// A declaration is an import (call.import); a function defined in the
// module is called in a frame of its own (call).
LogicalResult FunctionEncoder::encodeCall(func::CallOp op) {
  StringAttr callee = op.getCalleeAttr().getAttr();
  std::optional<uint32_t> import = imports.lookup(callee);
  std::optional<uint32_t> function = functions.lookup(callee);
  if (!import && !function)
    return op.emitError() << "calls '" << op.getCallee()
                          << "', which is neither an external function nor a "
                             "function defined in this module";
  if (function &&
      callee.getValue() == vm::bytecode::kInitializerFunctionName.data())
    return op.emitError() << "calls the module initializer '@" << op.getCallee()
                          << "', which only the runtime may run";
  for (Value result : op.getResults())
    if (failed(registers.define(result, op)))
      return failure();
  addImmediate(import ? *import : *function);
  if (failed(addKindedRegisters(op, op.getOperands(), "argument")) ||
      failed(addKindedRegisters(op, op.getResults(), "result")))
    return failure();
  return emit(op, import ? Opcode::kCallImport : Opcode::kCall);
}

// One opcode for every predicate, comparing signed or unsigned values at the
// operands' width.
LogicalResult FunctionEncoder::encodeCompare(arith::CmpIOp op) {
  std::optional<unsigned> bits = getIntegerBits(op.getLhs().getType());
  if (!bits)
    return op.emitError() << "'arith.cmpi' on " << op.getLhs().getType()
                          << " cannot be serialized to a Ferry bytecode "
                             "module; only scalar index and integers of up "
                             "to 64 bits can";
  arith::CmpIPredicate predicate = op.getPredicate();
  // The format names its predicates as arith spells them.
  std::optional<CmpPredicate> encoded;
  StringRef spelling = arith::stringifyCmpIPredicate(predicate);
#define FERRY_X(name, value, text)                                             \
  if (spelling == text)                                                        \
    encoded = CmpPredicate::name;
  FERRY_CMP_PREDICATES(FERRY_X)
#undef FERRY_X
  if (!encoded)
    return op.emitError() << "comparison '" << spelling
                          << "' has no Ferry bytecode encoding";
  if (failed(defineResult(op)))
    return failure();
  addRegister(op.getResult());
  addImmediate(static_cast<uint8_t>(*encoded));
  addRegister(op.getLhs());
  addRegister(op.getRhs());
  addImmediate(*bits);
  return emit(op, Opcode::kCmpI);
}

LogicalResult FunctionEncoder::encodeSelect(arith::SelectOp op) {
  if (!op.getCondition().getType().isInteger(1))
    return op.emitError() << "'arith.select' with a "
                          << op.getCondition().getType()
                          << " condition cannot be serialized to a Ferry "
                             "bytecode module; only a scalar i1 can";
  std::optional<RegisterKind> kind = getRegisterKind(op.getType());
  if (!kind)
    return op.emitError() << "'arith.select' of " << op.getType()
                          << " values cannot be serialized to a Ferry "
                             "bytecode module; only index, integers of up to "
                             "64 bits and !hal types can";
  return encodeRegisters(op, *kind == RegisterKind::kI64 ? Opcode::kSelectI64
                                                         : Opcode::kSelectRef);
}

// target, then the move list writing `dest`'s block-argument registers.
LogicalResult FunctionEncoder::addEdge(Operation *op, Block *dest,
                                       ValueRange values) {
  targetBlocks.push_back(dest);
  addImmediate(0); // patched once every block's offset is known
  if (failed(checkCount(op, values.size(), "block argument")))
    return failure();
  operands.push_back(values.size());
  for (auto [value, arg] : llvm::zip_equal(values, dest->getArguments())) {
    // Block arguments got registers, so their kinds are known; the cf
    // verifier makes operand and argument types equal.
    operands.push_back(static_cast<int64_t>(*getRegisterKind(arg.getType())));
    addRegister(arg);
    addRegister(value);
  }
  return success();
}

LogicalResult FunctionEncoder::encodeBranch(cf::BranchOp op) {
  if (failed(addEdge(op, op.getDest(), op.getDestOperands())))
    return failure();
  return emit(op, Opcode::kBranch);
}

LogicalResult FunctionEncoder::encodeCondBranch(cf::CondBranchOp op) {
  addRegister(op.getCondition());
  if (failed(addEdge(op, op.getTrueDest(), op.getTrueDestOperands())) ||
      failed(addEdge(op, op.getFalseDest(), op.getFalseDestOperands())))
    return failure();
  return emit(op, Opcode::kCondBranch);
}

LogicalResult FunctionEncoder::defineResult(Operation *op) {
  assert(op->getNumResults() == 1 && "expected a single-result op");
  return registers.define(op->getResult(0), op);
}

// Variable-length operand lists carry a uint16 count.
LogicalResult FunctionEncoder::checkCount(Operation *op, size_t count,
                                          StringRef what) {
  if (count > kMaxU16)
    return op->emitError() << "has " << count << " " << what
                           << "s; a Ferry bytecode instruction holds at most "
                           << kMaxU16;
  return success();
}

// count, then one register per value.
LogicalResult FunctionEncoder::addRegisters(Operation *op, ValueRange values,
                                            StringRef what) {
  if (failed(checkCount(op, values.size(), what)))
    return failure();
  operands.push_back(values.size());
  for (Value value : values)
    addRegister(value);
  return success();
}

LogicalResult FunctionEncoder::addElementType(Operation *op, Type type) {
  std::optional<hal::ElementType> elementType =
      hal::getRuntimeElementType(type);
  if (!elementType)
    return op->emitError() << "element type " << type
                           << " is not supported by the runtime";
  addImmediate(static_cast<uint32_t>(*elementType));
  return success();
}

LogicalResult FunctionEncoder::emit(Operation *op, Opcode opcode) {
  targetPositions.clear();
  Status status = vm::bytecode::encodeInstruction(
      code, opcode, std::span<const int64_t>(operands.data(), operands.size()),
      &targetPositions);
  operands.clear();
  if (!status.ok()) {
    targetBlocks.clear();
    return op->emitError() << "cannot be encoded: " << status.message();
  }
  for (auto [at, block] : llvm::zip_equal(targetPositions, targetBlocks))
    targetFixups.emplace_back(at, block);
  targetBlocks.clear();
  return success();
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

// The signature reflection string of `func` (bytecode_format.h), which tells
// the host the type of each i64 argument and result; none when it has no
// scalars, or one no scalar type names (an i4: it stays an untyped i64).
std::optional<std::string> signatureReflection(func::FuncOp func) {
  bool anyScalar = false;
  auto list = [&](TypeRange types) -> std::optional<std::string> {
    std::string text;
    for (auto [i, type] : llvm::enumerate(types)) {
      if (i)
        text += ",";
      if (isa<hal::HALDialect>(type.getDialect())) {
        text += vm::bytecode::kReflectionRefType;
        continue;
      }
      std::string name;
      llvm::raw_string_ostream(name) << type;
      if (!vm::bytecode::parseScalarType(name))
        return std::nullopt;
      anyScalar = true;
      text += name;
    }
    return text;
  };
  std::optional<std::string> args = list(func.getArgumentTypes());
  std::optional<std::string> results = list(func.getResultTypes());
  if (!args || !results || !anyScalar)
    return std::nullopt;
  std::string text(vm::bytecode::kSignatureReflectionPrefix);
  text += func.getSymName();
  text += '\0';
  return text + *args + "->" + *results;
}

// Encodes everything after the header. Reports every function's first error
// rather than stopping at the first bad function.
FailureOr<ByteWriter> encodePayload(ModuleOp module,
                                    const BytecodeWriterOptions &options) {
  StringTable strings;
  DeviceTable devices;
  for (auto device : module.getOps<hal::DeviceGlobalOp>())
    if (failed(devices.add(device, strings)))
      return failure();
  ImportTable imports;
  for (auto func : module.getOps<func::FuncOp>())
    if (func.isExternal() && failed(imports.add(func, strings)))
      return failure();
  FunctionTable functionTable;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      functionTable.add(func.getSymNameAttr());
  GlobalTable globals;
  for (auto global : module.getOps<hal::GlobalOp>())
    globals.add(global.getSymNameAttr());
  if (globals.size() > vm::bytecode::kMaxGlobals)
    return module.emitError() << "has " << globals.size()
                              << " hal.global ops; a Ferry bytecode module "
                                 "holds at most "
                              << vm::bytecode::kMaxGlobals;

  std::vector<vm::bytecode::ExecutableRecord> executableRecords;
  EntryTable entryTable;
  if (failed(
          compileExecutables(module, options, executableRecords, entryTable)))
    return failure();

  ConstantTable constants;
  ByteWriter functions;
  uint32_t functionCount = 0;
  bool succeeded = true;
  for (Operation &op : module.getBody()->getOperations()) {
    if (isa<hal::DeviceGlobalOp, hal::GlobalOp>(op) || isExecutable(&op))
      continue;
    auto func = dyn_cast<func::FuncOp>(op);
    if (!func) {
      succeeded = false;
      op.emitError() << "'" << op.getName()
                     << "' cannot be serialized to a Ferry bytecode module; "
                        "it should have been lowered to the hal dialect";
      continue;
    }
    // Declarations are imports, resolved by the runtime.
    if (func.isExternal())
      continue;
    FunctionEncoder encoder(strings, devices, imports, functionTable, globals,
                            entryTable, constants);
    if (failed(encoder.encode(func, functions))) {
      succeeded = false;
      continue;
    }
    ++functionCount;
    if (std::optional<std::string> reflection = signatureReflection(func))
      strings.intern(*reflection);
  }
  if (!succeeded)
    return failure();

  // The executable table interns its names, so it is encoded before the
  // string table is written.
  ByteWriter executables;
  Status status = vm::bytecode::appendExecutableTable(
      executables, executableRecords,
      [&](std::string_view text) { return strings.intern(text); });
  if (!status.ok())
    return module.emitError()
           << "cannot encode the executable table: " << status.message();

  ByteWriter payload;
  strings.encode(payload);
  devices.encode(payload);
  imports.encode(payload);
  payload.appendU32(functionCount);
  payload.append(functions.bytes());
  payload.append(executables.bytes());
  constants.encode(payload);
  return payload;
}

} // namespace

LogicalResult writeBytecodeModule(ModuleOp module, llvm::raw_ostream &os,
                                  const BytecodeWriterOptions &options) {
  FailureOr<ByteWriter> payload = encodePayload(module, options);
  if (failed(payload))
    return failure();
  std::vector<uint8_t> file = vm::bytecode::sealModule(payload->bytes());
  os.write(reinterpret_cast<const char *>(file.data()), file.size());
  return success();
}

} // namespace ferry
