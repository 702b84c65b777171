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

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/RegionGraphTraits.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include "runtime/hal/builtin_kernels.h"
#include "runtime/hal/element_type.h"
#include "runtime/hal/queue_flags.h"
#include "runtime/vm/bytecode_format.h"

#include <limits>
#include <optional>
#include <vector>

using namespace mlir;
using ferry::hal::BuiltinKernel;
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
// Byte encoding
//===----------------------------------------------------------------------===//

// A growable byte buffer that writes integers little-endian byte by byte, so
// the file layout never depends on the host's endianness or struct padding.
class ByteBuffer {
public:
  void appendU8(uint8_t value) { bytes.push_back(value); }
  void appendU16(uint16_t value) { appendLittleEndian(value, 2); }
  void appendU32(uint32_t value) { appendLittleEndian(value, 4); }
  void appendU64(uint64_t value) { appendLittleEndian(value, 8); }
  void appendI64(int64_t value) {
    appendLittleEndian(static_cast<uint64_t>(value), 8);
  }
  void append(const ByteBuffer &other) {
    bytes.insert(bytes.end(), other.bytes.begin(), other.bytes.end());
  }
  void append(StringRef text) {
    bytes.insert(bytes.end(), text.begin(), text.end());
  }
  // Overwrites the 4 bytes at `offset` (a placeholder appended earlier).
  void patchU32(size_t offset, uint32_t value) {
    for (unsigned i = 0; i < 4; ++i)
      bytes[offset + i] = static_cast<uint8_t>(value >> (8 * i));
  }

  size_t size() const { return bytes.size(); }
  const uint8_t *data() const { return bytes.data(); }

private:
  void appendLittleEndian(uint64_t value, unsigned byteCount) {
    for (unsigned i = 0; i < byteCount; ++i)
      bytes.push_back(static_cast<uint8_t>(value >> (8 * i)));
  }

  std::vector<uint8_t> bytes;
};

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

  void encode(ByteBuffer &out) const {
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

// The hal.device.global ops of the module, in declaration order.
class DeviceTable : public SymbolIndex {
public:
  void add(StringAttr name, StringTable &strings) {
    SymbolIndex::add(name);
    nameIndices.push_back(strings.intern(name.getValue()));
  }

  void encode(ByteBuffer &out) const {
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
                                   ByteBuffer &out) {
  FunctionType type = func.getFunctionType();
  for (auto [types, what] : {std::pair(type.getInputs(), "argument"),
                             std::pair(type.getResults(), "result")}) {
    if (types.size() > kMaxU16)
      return func.emitError()
             << whose << " '" << func.getSymName() << "' has more than "
             << kMaxU16 << " " << what << "s";
    out.appendU16(types.size());
    for (auto [position, kindType] : llvm::enumerate(types)) {
      std::optional<RegisterKind> kind = getRegisterKind(kindType);
      if (!kind)
        return func.emitError()
               << whose << " '" << func.getSymName() << "': " << what << " "
               << position << " has type " << kindType
               << ", which a Ferry bytecode module cannot pass; only index, "
                  "integers of up to 64 bits and !hal types can";
      out.appendU8(static_cast<uint8_t>(*kind));
    }
  }
  return success();
}

// The external functions (func.func declarations) the module calls, in
// declaration order.
class ImportTable : public SymbolIndex {
public:
  // Adds `func` with its signature; errors name a type no register holds.
  LogicalResult add(func::FuncOp func, StringTable &strings) {
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
    entries.appendU32(flags);
    return success();
  }

  void encode(ByteBuffer &out) const {
    out.appendU32(size());
    out.append(entries);
  }

private:
  ByteBuffer entries;
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
  if (isa<hal::HALDialect>(type.getDialect()))
    return RegisterKind::kRef;
  return std::nullopt;
}

// One register per SSA value, numbered per kind in definition order. Function
// arguments are defined first, which gives them registers 0.. within their
// kind as the format requires.
class RegisterFile {
public:
  // Assigns the next register of the value's kind. Errors are reported on
  // `owner` (the defining op, or the function for arguments).
  LogicalResult define(Value value, Operation *owner) {
    std::optional<RegisterKind> kind = getRegisterKind(value.getType());
    if (!kind)
      return owner->emitError()
             << "a value of type " << value.getType()
             << " cannot be held in a Ferry bytecode register; only index, "
                "integers of up to 64 bits and !hal types can";
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

  uint16_t count(RegisterKind kind) const {
    return counts[static_cast<unsigned>(kind)];
  }

private:
  llvm::DenseMap<Value, uint16_t> registers;
  uint16_t counts[2] = {0, 0};
};

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

// Encodes one func.func: its signature, register counts and code.
class FunctionEncoder {
public:
  FunctionEncoder(StringTable &strings, const DeviceTable &devices,
                  const ImportTable &imports, const FunctionTable &functions,
                  const GlobalTable &globals)
      : strings(strings), devices(devices), imports(imports),
        functions(functions), globals(globals) {}

  LogicalResult encode(func::FuncOp func, ByteBuffer &out);

private:
  LogicalResult checkStructure(func::FuncOp func);
  LogicalResult encodeOp(Operation *op);

  LogicalResult encodeConstant(Operation *op, const APInt &value);
  LogicalResult encodeBinary(Operation *op, Opcode opcode);
  LogicalResult encodeReturn(func::ReturnOp op);
  LogicalResult encodeDeviceGet(hal::DeviceGetOp op);
  LogicalResult encodeBufferViewDim(hal::BufferViewDimOp op);
  LogicalResult encodeBufferViewAssert(hal::BufferViewAssertOp op);
  LogicalResult encodeBufferViewBuffer(hal::BufferViewBufferOp op);
  LogicalResult encodeBufferViewCreate(hal::BufferViewCreateOp op);
  LogicalResult encodeBufferLength(hal::BufferLengthOp op);
  LogicalResult encodeFenceCreate(hal::FenceCreateOp op);
  LogicalResult encodeFenceAwait(hal::FenceAwaitOp op);
  LogicalResult encodeFenceJoin(hal::FenceJoinOp op);
  LogicalResult encodeQueueAlloca(hal::DeviceQueueAllocaOp op);
  LogicalResult encodeQueueDealloca(hal::DeviceQueueDeallocaOp op);
  LogicalResult encodeQueueDispatch(hal::DeviceQueueDispatchOp op);
  LogicalResult encodeDeviceQuery(hal::DeviceQueryOp op);
  LogicalResult encodeAllocatorSelect(hal::AllocatorSelectOp op);
  LogicalResult encodeImportBuffer(hal::DeviceImportBufferOp op);
  LogicalResult encodeGlobalLoad(hal::GlobalLoadOp op);
  LogicalResult encodeGlobalStore(hal::GlobalStoreOp op);
  LogicalResult encodeQueueFill(hal::DeviceQueueFillOp op);
  LogicalResult encodeQueueCopy(hal::DeviceQueueCopyOp op);
  LogicalResult encodeCall(func::CallOp op);
  LogicalResult encodeCompare(arith::CmpIOp op);
  LogicalResult encodeSelect(arith::SelectOp op);
  LogicalResult encodeBranch(cf::BranchOp op);
  LogicalResult encodeCondBranch(cf::CondBranchOp op);
  LogicalResult encodeAssert(cf::AssertOp op);
  // target:t moves:m for the edge to `dest` passing `operands`.
  LogicalResult emitEdge(Operation *op, Block *dest, ValueRange operands);
  LogicalResult encodeOwnership(Operation *op, Opcode opcode);
  FailureOr<uint32_t> lookupGlobal(Operation *op, FlatSymbolRefAttr symbol);
  LogicalResult emitKindsAndRegisters(Operation *op, ValueRange values,
                                      StringRef what);

  // Operand emitters, one per layout letter in bytecode_format.h.
  LogicalResult defineResult(Operation *op);
  void emitOpcode(Opcode opcode) {
    code.appendU8(static_cast<uint8_t>(opcode));
  }
  void emitRegister(Value value) { code.appendU16(registers.lookup(value)); }
  void emitOptionalRegister(Value value) {
    code.appendU16(value ? registers.lookup(value) : kNoRegister);
  }
  // Every queue operation: device:r wait:r? signal:r.
  void emitQueueOrder(Value device, Value wait, Value signal) {
    emitRegister(device);
    emitOptionalRegister(wait);
    emitRegister(signal);
  }
  LogicalResult emitCount(Operation *op, size_t count, StringRef what);
  LogicalResult emitElementType(Operation *op, Type type);
  LogicalResult emitShape(Operation *op, ValueRange shape);

  StringTable &strings;
  const DeviceTable &devices;
  const ImportTable &imports;
  const FunctionTable &functions;
  const GlobalTable &globals;
  RegisterFile registers;
  ByteBuffer code;
  llvm::DenseMap<Block *, uint32_t> blockOffsets;
  // (code offset of a target:u32, the block it names), patched at the end.
  SmallVector<std::pair<size_t, Block *>> targetFixups;
};

LogicalResult FunctionEncoder::encode(func::FuncOp func, ByteBuffer &out) {
  // The signature is checked before arguments get registers, so a bad
  // argument type is reported against the signature.
  ByteBuffer signature;
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
  for (Block *block : order) {
    blockOffsets[block] = code.size();
    for (Operation &op : *block)
      if (failed(encodeOp(&op)))
        return failure();
  }
  for (auto [at, block] : targetFixups)
    code.patchU32(at, blockOffsets.lookup(block));
  if (code.size() > kMaxU32)
    return func.emitError() << "function '" << func.getSymName()
                            << "' has more code than a Ferry bytecode module "
                               "can hold";

  out.append(signature);
  out.appendU16(registers.count(RegisterKind::kI64));
  out.appendU16(registers.count(RegisterKind::kRef));
  out.appendU32(code.size());
  out.append(code);
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
        auto value = dyn_cast<IntegerAttr>(op.getValue());
        if (!value)
          return op.emitError() << "only integer and index constants can be "
                                   "serialized to a Ferry bytecode module";
        return encodeConstant(op, value.getValue());
      })
      // Bit masks are unsigned: widen them without sign extension.
      .Case([&](hal::MemoryTypeOp op) {
        return encodeConstant(op, op.getValueAttr().getValue().zext(64));
      })
      .Case([&](hal::BufferUsageOp op) {
        return encodeConstant(op, op.getValueAttr().getValue().zext(64));
      })
      .Case([&](arith::AddIOp op) { return encodeBinary(op, Opcode::kAddI64); })
      .Case([&](arith::SubIOp op) { return encodeBinary(op, Opcode::kSubI64); })
      .Case([&](arith::MulIOp op) { return encodeBinary(op, Opcode::kMulI64); })
      .Case(
          [&](arith::DivSIOp op) { return encodeBinary(op, Opcode::kDivSI64); })
      .Case([&](arith::AndIOp op) { return encodeBinary(op, Opcode::kAndI64); })
      .Case([&](arith::OrIOp op) { return encodeBinary(op, Opcode::kOrI64); })
      .Case([&](func::ReturnOp op) { return encodeReturn(op); })
      .Case([&](hal::DeviceGetOp op) { return encodeDeviceGet(op); })
      .Case([&](hal::BufferViewDimOp op) { return encodeBufferViewDim(op); })
      .Case([&](hal::BufferViewAssertOp op) {
        return encodeBufferViewAssert(op);
      })
      .Case([&](hal::BufferViewBufferOp op) {
        return encodeBufferViewBuffer(op);
      })
      .Case([&](hal::BufferViewCreateOp op) {
        return encodeBufferViewCreate(op);
      })
      .Case([&](hal::BufferLengthOp op) { return encodeBufferLength(op); })
      .Case([&](hal::FenceCreateOp op) { return encodeFenceCreate(op); })
      .Case([&](hal::FenceAwaitOp op) { return encodeFenceAwait(op); })
      .Case([&](hal::FenceJoinOp op) { return encodeFenceJoin(op); })
      .Case([&](hal::DeviceQueueAllocaOp op) { return encodeQueueAlloca(op); })
      .Case([&](hal::DeviceQueueDeallocaOp op) {
        return encodeQueueDealloca(op);
      })
      .Case([&](hal::DeviceQueueDispatchOp op) {
        return encodeQueueDispatch(op);
      })
      .Case([&](hal::DeviceQueryOp op) { return encodeDeviceQuery(op); })
      .Case(
          [&](hal::AllocatorSelectOp op) { return encodeAllocatorSelect(op); })
      .Case(
          [&](hal::DeviceImportBufferOp op) { return encodeImportBuffer(op); })
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
        return encodeOwnership(op, Opcode::kBufferPreserve);
      })
      .Case([&](hal::BufferAllocationDiscardOp op) {
        return encodeOwnership(op, Opcode::kBufferDiscard);
      })
      .Case([&](hal::BufferAllocationIsTerminalOp op) {
        return encodeOwnership(op, Opcode::kBufferIsTerminal);
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
  emitOpcode(Opcode::kConstI64);
  emitRegister(op->getResult(0));
  code.appendI64(value.getBitWidth() == 1 ? value.getZExtValue()
                                          : value.getSExtValue());
  return success();
}

LogicalResult FunctionEncoder::encodeBinary(Operation *op, Opcode opcode) {
  if (failed(defineResult(op)))
    return failure();
  emitOpcode(opcode);
  emitRegister(op->getResult(0));
  emitRegister(op->getOperand(0));
  emitRegister(op->getOperand(1));
  return success();
}

LogicalResult FunctionEncoder::encodeReturn(func::ReturnOp op) {
  emitOpcode(Opcode::kReturn);
  if (failed(emitCount(op, op.getNumOperands(), "returned value")))
    return failure();
  for (Value value : op.getOperands()) {
    // The function signature was checked, and the verifier ties return
    // operand types to it, so every kind is known here.
    code.appendU8(static_cast<uint8_t>(*getRegisterKind(value.getType())));
    emitRegister(value);
  }
  return success();
}

LogicalResult FunctionEncoder::encodeDeviceGet(hal::DeviceGetOp op) {
  std::optional<uint32_t> device = devices.lookup(op.getDeviceAttr().getAttr());
  if (!device)
    return op.emitError() << "'" << op.getDevice()
                          << "' does not name a hal.device.global";
  if (failed(defineResult(op)))
    return failure();
  emitOpcode(Opcode::kDeviceGet);
  emitRegister(op.getResult());
  code.appendU32(*device);
  return success();
}

LogicalResult FunctionEncoder::encodeBufferViewDim(hal::BufferViewDimOp op) {
  APInt index = op.getIndexAttr().getValue();
  if (index.isNegative() || index.getActiveBits() > 32)
    return op.emitError() << "dimension index " << op.getIndexAttr()
                          << " does not fit the bytecode's 32-bit operand";
  if (failed(defineResult(op)))
    return failure();
  emitOpcode(Opcode::kBufferViewDim);
  emitRegister(op.getResult());
  emitRegister(op.getBufferView());
  code.appendU32(index.getZExtValue());
  return success();
}

LogicalResult
FunctionEncoder::encodeBufferViewAssert(hal::BufferViewAssertOp op) {
  emitOpcode(Opcode::kBufferViewAssert);
  emitRegister(op.getBufferView());
  if (failed(emitElementType(op, op.getElementType())) ||
      failed(emitShape(op, op.getShape())))
    return failure();
  code.appendU32(strings.intern(op.getMessage()));
  return success();
}

LogicalResult FunctionEncoder::encodeAssert(cf::AssertOp op) {
  emitOpcode(Opcode::kAssert);
  emitRegister(op.getArg());
  code.appendU32(strings.intern(op.getMsg()));
  return success();
}

LogicalResult
FunctionEncoder::encodeBufferViewBuffer(hal::BufferViewBufferOp op) {
  if (failed(defineResult(op)))
    return failure();
  emitOpcode(Opcode::kBufferViewBuffer);
  emitRegister(op.getResult());
  emitRegister(op.getBufferView());
  return success();
}

LogicalResult
FunctionEncoder::encodeBufferViewCreate(hal::BufferViewCreateOp op) {
  if (failed(defineResult(op)))
    return failure();
  emitOpcode(Opcode::kBufferViewCreate);
  emitRegister(op.getResult());
  emitRegister(op.getSourceBuffer());
  if (failed(emitElementType(op, op.getElementType())) ||
      failed(emitShape(op, op.getShape())))
    return failure();
  return success();
}

LogicalResult FunctionEncoder::encodeBufferLength(hal::BufferLengthOp op) {
  if (failed(defineResult(op)))
    return failure();
  emitOpcode(Opcode::kBufferLength);
  emitRegister(op.getResult());
  emitRegister(op.getBuffer());
  return success();
}

LogicalResult FunctionEncoder::encodeFenceCreate(hal::FenceCreateOp op) {
  if (failed(defineResult(op)))
    return failure();
  emitOpcode(Opcode::kFenceCreate);
  emitRegister(op.getResult());
  emitRegister(op.getDevice());
  return success();
}

LogicalResult FunctionEncoder::encodeFenceAwait(hal::FenceAwaitOp op) {
  emitOpcode(Opcode::kFenceAwait);
  if (failed(emitCount(op, op.getFences().size(), "fence")))
    return failure();
  for (Value fence : op.getFences())
    emitRegister(fence);
  return success();
}

LogicalResult FunctionEncoder::encodeFenceJoin(hal::FenceJoinOp op) {
  if (failed(defineResult(op)))
    return failure();
  emitOpcode(Opcode::kFenceJoin);
  emitRegister(op.getResult());
  if (failed(emitCount(op, op.getFences().size(), "fence")))
    return failure();
  for (Value fence : op.getFences())
    emitRegister(fence);
  return success();
}

LogicalResult FunctionEncoder::encodeQueueAlloca(hal::DeviceQueueAllocaOp op) {
  if (failed(defineResult(op)))
    return failure();
  emitOpcode(Opcode::kQueueAlloca);
  emitRegister(op.getResult());
  emitQueueOrder(op.getDevice(), op.getWaitFence(), op.getSignalFence());
  emitRegister(op.getMemoryTypes());
  emitRegister(op.getBufferUsage());
  emitRegister(op.getResultSize());
  code.appendU32(op.getIndeterminate() ? hal::kQueueAllocaIndeterminateLifetime
                                       : hal::kQueueAllocaNone);
  return success();
}

LogicalResult
FunctionEncoder::encodeQueueDealloca(hal::DeviceQueueDeallocaOp op) {
  Value condition = op.getCondition();
  emitOpcode(condition ? Opcode::kQueueDeallocaIf : Opcode::kQueueDealloca);
  emitQueueOrder(op.getDevice(), op.getWaitFence(), op.getSignalFence());
  emitRegister(op.getBuffer());
  code.appendU32(op.getPreferOrigin() ? hal::kQueueDeallocaPreferOrigin
                                      : hal::kQueueDeallocaNone);
  if (condition)
    emitRegister(condition);
  return success();
}

LogicalResult
FunctionEncoder::encodeQueueDispatch(hal::DeviceQueueDispatchOp op) {
  std::optional<BuiltinKernel> kernel = hal::parseBuiltinKernel(op.getKernel());
  if (!kernel)
    return op.emitError() << "unknown built-in kernel '" << op.getKernel()
                          << "'";
  emitOpcode(Opcode::kQueueDispatch);
  emitQueueOrder(op.getDevice(), op.getWaitFence(), op.getSignalFence());
  code.appendU32(static_cast<uint32_t>(*kernel));
  if (failed(emitElementType(op, op.getElementType())))
    return failure();
  emitRegister(op.getCount());
  if (failed(emitCount(op, op.getBindings().size(), "binding")))
    return failure();
  for (Value binding : op.getBindings())
    emitRegister(binding);
  return success();
}

LogicalResult FunctionEncoder::encodeDeviceQuery(hal::DeviceQueryOp op) {
  if (failed(registers.define(op.getOk(), op)) ||
      failed(registers.define(op.getValue(), op)))
    return failure();
  emitOpcode(Opcode::kDeviceQuery);
  emitRegister(op.getOk());
  emitRegister(op.getValue());
  emitRegister(op.getDevice());
  code.appendU32(strings.intern(op.getCategory()));
  code.appendU32(strings.intern(op.getKey()));
  code.appendI64(op.getDefaultValue());
  code.appendU8(op.getValue().getType().getIntOrFloatBitWidth());
  return success();
}

LogicalResult
FunctionEncoder::encodeAllocatorSelect(hal::AllocatorSelectOp op) {
  if (failed(defineResult(op)))
    return failure();
  emitOpcode(Opcode::kAllocatorSelect);
  emitRegister(op.getResult());
  if (failed(emitCount(op, op.getDevices().size(), "device")))
    return failure();
  for (Value device : op.getDevices())
    emitRegister(device);
  return success();
}

LogicalResult
FunctionEncoder::encodeImportBuffer(hal::DeviceImportBufferOp op) {
  if (failed(defineResult(op)))
    return failure();
  emitOpcode(Opcode::kDeviceImportBuffer);
  emitRegister(op.getResult());
  emitRegister(op.getDevice());
  emitRegister(op.getSourceBuffer());
  emitOptionalRegister(op.getWaitFence());
  return success();
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
  emitOpcode(Opcode::kGlobalLoadI64);
  emitRegister(op.getResult());
  code.appendU32(*index);
  return success();
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
  emitOpcode(Opcode::kGlobalStoreI64);
  code.appendU32(*index);
  emitRegister(op.getValue());
  return success();
}

LogicalResult FunctionEncoder::encodeQueueFill(hal::DeviceQueueFillOp op) {
  Value pattern = op.getPattern();
  if (!getRegisterKind(pattern.getType()))
    return op.emitError() << "a fill pattern of type " << pattern.getType()
                          << " must be turned into an integer first";
  emitOpcode(Opcode::kQueueFill);
  emitQueueOrder(op.getDevice(), op.getWaitFence(), op.getSignalFence());
  emitRegister(op.getTargetBuffer());
  emitRegister(op.getTargetOffset());
  emitRegister(op.getLength());
  emitRegister(pattern);
  code.appendU8(pattern.getType().getIntOrFloatBitWidth() / 8);
  return success();
}

LogicalResult FunctionEncoder::encodeQueueCopy(hal::DeviceQueueCopyOp op) {
  emitOpcode(Opcode::kQueueCopy);
  emitQueueOrder(op.getDevice(), op.getWaitFence(), op.getSignalFence());
  emitRegister(op.getSourceBuffer());
  emitRegister(op.getSourceOffset());
  emitRegister(op.getTargetBuffer());
  emitRegister(op.getTargetOffset());
  emitRegister(op.getLength());
  return success();
}

// count:u16 then count x (kind:u8 reg:u16).
LogicalResult FunctionEncoder::emitKindsAndRegisters(Operation *op,
                                                     ValueRange values,
                                                     StringRef what) {
  if (failed(emitCount(op, values.size(), what)))
    return failure();
  for (Value value : values) {
    std::optional<RegisterKind> kind = getRegisterKind(value.getType());
    if (!kind)
      return op->emitError() << "a value of type " << value.getType()
                             << " cannot be passed to or from a call";
    code.appendU8(static_cast<uint8_t>(*kind));
    emitRegister(value);
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
  emitOpcode(import ? Opcode::kCallImport : Opcode::kCall);
  code.appendU32(import ? *import : *function);
  if (failed(emitKindsAndRegisters(op, op.getOperands(), "argument")) ||
      failed(emitKindsAndRegisters(op, op.getResults(), "result")))
    return failure();
  return success();
}

// One opcode for every predicate: registers hold integers sign-extended (i1
// as 0 or 1), which preserves signed and unsigned order of every width but
// the signed order of i1.
LogicalResult FunctionEncoder::encodeCompare(arith::CmpIOp op) {
  using arith::CmpIPredicate;
  CmpIPredicate predicate = op.getPredicate();
  bool signedOrder =
      predicate == CmpIPredicate::slt || predicate == CmpIPredicate::sle ||
      predicate == CmpIPredicate::sgt || predicate == CmpIPredicate::sge;
  if (signedOrder && op.getLhs().getType().isInteger(1))
    return op.emitError() << "signed comparison '"
                          << arith::stringifyCmpIPredicate(predicate)
                          << "' of i1 values cannot be serialized to a Ferry "
                             "bytecode module (i1 is held as 0 or 1); compare "
                             "them as unsigned or widen them first";
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
  emitOpcode(Opcode::kCmpI64);
  emitRegister(op.getResult());
  code.appendU8(static_cast<uint8_t>(*encoded));
  emitRegister(op.getLhs());
  emitRegister(op.getRhs());
  return success();
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
  if (failed(defineResult(op)))
    return failure();
  emitOpcode(*kind == RegisterKind::kI64 ? Opcode::kSelectI64
                                         : Opcode::kSelectRef);
  emitRegister(op.getResult());
  emitRegister(op.getCondition());
  emitRegister(op.getTrueValue());
  emitRegister(op.getFalseValue());
  return success();
}

LogicalResult FunctionEncoder::emitEdge(Operation *op, Block *dest,
                                        ValueRange operands) {
  targetFixups.emplace_back(code.size(), dest);
  code.appendU32(0);
  if (failed(emitCount(op, operands.size(), "block argument")))
    return failure();
  for (auto [operand, arg] : llvm::zip_equal(operands, dest->getArguments())) {
    // Block arguments got registers, so their kinds are known; the cf
    // verifier makes operand and argument types equal.
    code.appendU8(static_cast<uint8_t>(*getRegisterKind(arg.getType())));
    emitRegister(arg);
    emitRegister(operand);
  }
  return success();
}

LogicalResult FunctionEncoder::encodeBranch(cf::BranchOp op) {
  emitOpcode(Opcode::kBranch);
  return emitEdge(op, op.getDest(), op.getDestOperands());
}

LogicalResult FunctionEncoder::encodeCondBranch(cf::CondBranchOp op) {
  emitOpcode(Opcode::kCondBranch);
  emitRegister(op.getCondition());
  if (failed(emitEdge(op, op.getTrueDest(), op.getTrueDestOperands())))
    return failure();
  return emitEdge(op, op.getFalseDest(), op.getFalseDestOperands());
}

// preserve: buffer:r; discard and is_terminal: dst:i buffer:r.
LogicalResult FunctionEncoder::encodeOwnership(Operation *op, Opcode opcode) {
  if (op->getNumResults() && failed(defineResult(op)))
    return failure();
  emitOpcode(opcode);
  if (op->getNumResults())
    emitRegister(op->getResult(0));
  emitRegister(op->getOperand(0));
  return success();
}

LogicalResult FunctionEncoder::defineResult(Operation *op) {
  assert(op->getNumResults() == 1 && "expected a single-result op");
  return registers.define(op->getResult(0), op);
}

// Variable-length operand lists carry a uint16 count.
LogicalResult FunctionEncoder::emitCount(Operation *op, size_t count,
                                         StringRef what) {
  if (count > kMaxU16)
    return op->emitError() << "has " << count << " " << what
                           << "s; a Ferry bytecode instruction holds at most "
                           << kMaxU16;
  code.appendU16(count);
  return success();
}

LogicalResult FunctionEncoder::emitElementType(Operation *op, Type type) {
  std::optional<hal::ElementType> elementType =
      hal::getRuntimeElementType(type);
  if (!elementType)
    return op->emitError() << "element type " << type
                           << " is not supported by the runtime";
  code.appendU32(static_cast<uint32_t>(*elementType));
  return success();
}

// rank:u16 then rank x dim:i.
LogicalResult FunctionEncoder::emitShape(Operation *op, ValueRange shape) {
  if (failed(emitCount(op, shape.size(), "dimension")))
    return failure();
  for (Value dim : shape)
    emitRegister(dim);
  return success();
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

// Encodes everything after the header. Reports every function's first error
// rather than stopping at the first bad function.
FailureOr<ByteBuffer> encodePayload(ModuleOp module) {
  StringTable strings;
  DeviceTable devices;
  for (auto device : module.getOps<hal::DeviceGlobalOp>())
    devices.add(device.getSymNameAttr(), strings);
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

  ByteBuffer functions;
  uint32_t functionCount = 0;
  bool succeeded = true;
  for (Operation &op : module.getBody()->getOperations()) {
    if (isa<hal::DeviceGlobalOp, hal::GlobalOp>(op))
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
    FunctionEncoder encoder(strings, devices, imports, functionTable, globals);
    if (failed(encoder.encode(func, functions))) {
      succeeded = false;
      continue;
    }
    ++functionCount;
  }
  if (!succeeded)
    return failure();

  ByteBuffer payload;
  strings.encode(payload);
  devices.encode(payload);
  imports.encode(payload);
  payload.appendU32(functionCount);
  payload.append(functions);
  return payload;
}

ByteBuffer encodeHeader(const ByteBuffer &payload) {
  namespace bc = ferry::vm::bytecode;
  ByteBuffer header;
  for (char c : bc::kMagic)
    header.appendU8(static_cast<uint8_t>(c));
  header.appendU32(bc::kFormatVersion);
  header.appendU32(/*reserved=*/0);
  header.appendU64(payload.size());
  header.appendU64(bc::fnv1a64(payload.data(), payload.size()));
  assert(header.size() == bc::kHeaderBytes && "header layout drifted");
  return header;
}

} // namespace

LogicalResult writeBytecodeModule(ModuleOp module, llvm::raw_ostream &os) {
  FailureOr<ByteBuffer> payload = encodePayload(module);
  if (failed(payload))
    return failure();
  ByteBuffer header = encodeHeader(*payload);
  os.write(reinterpret_cast<const char *>(header.data()), header.size());
  os.write(reinterpret_cast<const char *>(payload->data()), payload->size());
  return success();
}

} // namespace ferry
