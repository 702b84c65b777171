#include "runtime/vm/module.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "runtime/hal/builtin_kernels.h"
#include "runtime/hal/device.h"
#include "runtime/hal/element_type.h"
#include "runtime/hal/queue_flags.h"

namespace ferry::vm {
namespace {

using namespace bytecode;

// Bounds-checked little-endian reader over untrusted bytes. Reads past the
// end set a sticky failure and return 0, so decoding code can read a whole
// record and check once.
class Reader {
public:
  explicit Reader(std::span<const uint8_t> bytes) : bytes_(bytes) {}

  bool failed() const { return failed_; }
  size_t offset() const { return offset_; }
  size_t remaining() const { return bytes_.size() - offset_; }
  bool atEnd() const { return offset_ == bytes_.size(); }

  template <typename T> T read() {
    if (failed_ || remaining() < sizeof(T)) {
      failed_ = true;
      return T();
    }
    T value = 0;
    for (size_t i = 0; i < sizeof(T); ++i)
      value |= T(T(bytes_[offset_ + i]) << (8 * i));
    offset_ += sizeof(T);
    return value;
  }
  uint8_t u8() { return read<uint8_t>(); }
  uint16_t u16() { return read<uint16_t>(); }
  uint32_t u32() { return read<uint32_t>(); }
  uint64_t u64() { return read<uint64_t>(); }

  std::string_view bytes(size_t count) {
    if (failed_ || remaining() < count) {
      failed_ = true;
      return {};
    }
    std::string_view out(
        reinterpret_cast<const char *>(bytes_.data()) + offset_, count);
    offset_ += count;
    return out;
  }

private:
  std::span<const uint8_t> bytes_;
  size_t offset_ = 0;
  bool failed_ = false;
};

Status invalidModule(const std::string &message) {
  return dataLoss("invalid module: ", message);
}

// The oldest format this runtime reads: version 2 added the import table,
// which every later part of the payload follows.
constexpr uint32_t kMinFormatVersion = 2;

std::string kindListString(const std::vector<RegisterKind> &kinds) {
  std::string out;
  for (size_t i = 0; i < kinds.size(); ++i)
    out += strCat(i ? ", " : "", registerKindName(kinds[i]));
  return out;
}

// Decodes and verifies one function's code into `function`.
class CodeVerifier {
public:
  // `functions` holds every function's signature (its code may not be
  // decoded yet), for checking `call` against its callee.
  CodeVerifier(size_t stringCount, size_t deviceCount,
               const std::vector<Import> &imports,
               const std::vector<Function> &functions, Function &function,
               std::span<const uint8_t> code, uint32_t &globalCount)
      : stringCount_(stringCount), deviceCount_(deviceCount), imports_(imports),
        functions_(functions), function_(function), reader_(code),
        globalCount_(globalCount) {}

  Status run() {
    if (reader_.atEnd())
      return error(0, "has no code (it must end with return or fail)");
    Opcode last = Opcode::kReturn;
    while (!reader_.atEnd()) {
      size_t offset = reader_.offset();
      uint8_t raw = reader_.u8();
      if (!isKnownOpcode(raw))
        return error(offset, strCat("unknown opcode 0x", std::hex, int(raw)));
      Opcode opcode = Opcode(raw);
      Instruction instruction{opcode, uint32_t(offset),
                              uint32_t(function_.operands.size()), 0};
      current_ = opcode;
      currentOffset_ = offset;
      FERRY_RETURN_IF_ERROR(decodeOperands(opcode));
      if (reader_.failed())
        return error(offset, strCat(opcodeMnemonic(opcode),
                                    ": operands run past the end of the code"));
      instruction.operandCount =
          uint32_t(function_.operands.size() - instruction.operandBegin);
      function_.instructions.push_back(instruction);
      last = opcode;
    }
    if (last != Opcode::kReturn && last != Opcode::kFail &&
        last != Opcode::kBranch && last != Opcode::kCondBranch)
      return error(currentOffset_,
                   "code does not end with return, fail or a branch (it would "
                   "run off the end)");
    return resolveBranchTargets();
  }

private:
  // A branch target operand, decoded as a byte offset and rewritten to an
  // instruction index once every instruction boundary is known (targets may
  // point forward).
  struct BranchTarget {
    size_t operand;           // index in function_.operands
    size_t instructionOffset; // the branch, for messages
    Opcode opcode;
  };

  Status resolveBranchTargets() {
    const std::vector<Instruction> &instructions = function_.instructions;
    for (const BranchTarget &target : branchTargets_) {
      int64_t &operand = function_.operands[target.operand];
      uint64_t offset = uint64_t(operand);
      auto it =
          std::lower_bound(instructions.begin(), instructions.end(), offset,
                           [](const Instruction &instruction, uint64_t value) {
                             return instruction.codeOffset < value;
                           });
      if (it == instructions.end() || it->codeOffset != offset) {
        std::string why =
            it == instructions.end() && offset >= codeBytes_
                ? strCat("is outside the function's ", codeBytes_,
                         " bytes of code")
                : std::string("is not the start of an instruction");
        return error(target.instructionOffset,
                     strCat(opcodeMnemonic(target.opcode), ": target offset ",
                            offset, " ", why));
      }
      operand = int64_t(it - instructions.begin());
    }
    return okStatus();
  }

  Status error(size_t offset, std::string_view message) {
    return invalidModule(strCat("function '", function_.name,
                                "' at code offset ", offset, ": ", message));
  }
  Status operandError(std::string_view message) {
    return error(currentOffset_,
                 strCat(opcodeMnemonic(current_), ": ", message));
  }

  void push(int64_t value) { function_.operands.push_back(value); }

  Status i64Reg(std::string_view what) {
    uint16_t reg = reader_.u16();
    if (reader_.failed())
      return okStatus(); // reported by the caller as running past the end
    if (reg >= function_.i64RegisterCount)
      return operandError(strCat(what, ": i64 register ", reg,
                                 " is out of range (the function has ",
                                 function_.i64RegisterCount, ")"));
    push(reg);
    return okStatus();
  }
  Status refReg(std::string_view what, bool optional = false) {
    uint16_t reg = reader_.u16();
    if (reader_.failed())
      return okStatus();
    if (optional && reg == kNoRegister) {
      push(reg);
      return okStatus();
    }
    if (reg >= function_.refRegisterCount)
      return operandError(strCat(what, ": ref register ", reg,
                                 " is out of range (the function has ",
                                 function_.refRegisterCount, ")"));
    push(reg);
    return okStatus();
  }
  Status stringIndex(std::string_view what) {
    uint32_t index = reader_.u32();
    if (reader_.failed())
      return okStatus();
    if (index >= stringCount_)
      return operandError(strCat(what, ": string index ", index,
                                 " is out of range (the module has ",
                                 stringCount_, " strings)"));
    push(index);
    return okStatus();
  }
  Status elementType() {
    uint32_t value = reader_.u32();
    if (reader_.failed())
      return okStatus();
    if (!hal::elementTypeFromValue(value))
      return operandError(strCat("unknown element type ", value));
    push(value);
    return okStatus();
  }
  // A u16 count followed by that many i64 registers.
  Status i64RegList(std::string_view what) {
    uint16_t count = reader_.u16();
    if (reader_.failed())
      return okStatus();
    push(count);
    for (uint16_t i = 0; i < count && !reader_.failed(); ++i)
      FERRY_RETURN_IF_ERROR(i64Reg(what));
    return okStatus();
  }
  Status refRegList(std::string_view what) {
    uint16_t count = reader_.u16();
    if (reader_.failed())
      return okStatus();
    push(count);
    for (uint16_t i = 0; i < count && !reader_.failed(); ++i)
      FERRY_RETURN_IF_ERROR(refReg(what));
    return okStatus();
  }

  // A flags:u32 immediate that may only carry bits of `known`.
  Status flagsOperand(uint32_t known) {
    uint32_t flags = reader_.u32();
    if (reader_.failed())
      return okStatus();
    if (flags & ~known)
      return operandError(
          strCat("unknown flag bits 0x", std::hex, flags & ~known));
    push(flags);
    return okStatus();
  }

  // A u16 count followed by that many (kind:u8 reg:u16) pairs whose kinds
  // must equal `expected` (`what` is "argument" or "result" of `callee`).
  Status kindedRegList(const std::vector<RegisterKind> &expected,
                       std::string_view what, std::string_view callee) {
    uint16_t count = reader_.u16();
    if (reader_.failed())
      return okStatus();
    if (count != expected.size())
      return operandError(strCat("passes ", count, " ", what, "s but ", callee,
                                 " has ", expected.size()));
    push(count);
    for (uint16_t i = 0; i < count && !reader_.failed(); ++i) {
      uint8_t kind = reader_.u8();
      if (reader_.failed())
        return okStatus();
      if (kind != uint8_t(expected[i]))
        return operandError(strCat(what, " ", i, " has register kind ",
                                   int(kind), " but ", callee, " expects ",
                                   registerKindName(expected[i])));
      push(kind);
      std::string name = strCat(what, " ", i);
      if (RegisterKind(kind) == RegisterKind::kI64)
        FERRY_RETURN_IF_ERROR(i64Reg(name));
      else
        FERRY_RETURN_IF_ERROR(refReg(name));
    }
    return okStatus();
  }

  // target:t, recorded for resolveBranchTargets().
  void branchTarget() {
    uint32_t offset = reader_.u32();
    if (reader_.failed())
      return;
    branchTargets_.push_back(
        {function_.operands.size(), currentOffset_, current_});
    push(offset);
  }

  // moves:m, a u16 count of (kind:u8 dst:reg src:reg) with both registers of
  // the given kind.
  Status moveList(std::string_view edge) {
    uint16_t count = reader_.u16();
    if (reader_.failed())
      return okStatus();
    push(count);
    for (uint16_t i = 0; i < count && !reader_.failed(); ++i) {
      uint8_t kind = reader_.u8();
      if (reader_.failed())
        return okStatus();
      std::string what = strCat(edge, "move ", i);
      if (kind != uint8_t(RegisterKind::kI64) &&
          kind != uint8_t(RegisterKind::kRef))
        return operandError(
            strCat(what, " has unknown register kind ", int(kind)));
      push(kind);
      for (std::string_view side : {" destination", " source"}) {
        if (RegisterKind(kind) == RegisterKind::kI64)
          FERRY_RETURN_IF_ERROR(i64Reg(strCat(what, side)));
        else
          FERRY_RETURN_IF_ERROR(refReg(strCat(what, side)));
      }
    }
    return okStatus();
  }

  Status globalIndex() {
    uint32_t index = reader_.u32();
    if (reader_.failed())
      return okStatus();
    if (index >= kMaxGlobals)
      return operandError(strCat("global index ", index,
                                 " is out of range (at most ", kMaxGlobals,
                                 " globals)"));
    globalCount_ = std::max(globalCount_, index + 1);
    push(index);
    return okStatus();
  }

  Status decodeOperands(Opcode opcode) {
    switch (opcode) {
    case Opcode::kConstI64:
      FERRY_RETURN_IF_ERROR(i64Reg("dst"));
      push(int64_t(reader_.u64()));
      return okStatus();
    case Opcode::kAddI64:
    case Opcode::kSubI64:
    case Opcode::kMulI64:
    case Opcode::kDivSI64:
    case Opcode::kAndI64:
    case Opcode::kOrI64:
      FERRY_RETURN_IF_ERROR(i64Reg("dst"));
      FERRY_RETURN_IF_ERROR(i64Reg("lhs"));
      return i64Reg("rhs");
    case Opcode::kCmpI64: {
      FERRY_RETURN_IF_ERROR(i64Reg("dst"));
      uint8_t predicate = reader_.u8();
      if (reader_.failed())
        return okStatus();
      if (!isKnownCmpPredicate(predicate))
        return operandError(strCat("unknown predicate ", int(predicate)));
      push(predicate);
      FERRY_RETURN_IF_ERROR(i64Reg("lhs"));
      return i64Reg("rhs");
    }
    case Opcode::kSelectI64:
      FERRY_RETURN_IF_ERROR(i64Reg("dst"));
      FERRY_RETURN_IF_ERROR(i64Reg("condition"));
      FERRY_RETURN_IF_ERROR(i64Reg("true"));
      return i64Reg("false");
    case Opcode::kSelectRef:
      FERRY_RETURN_IF_ERROR(refReg("dst"));
      FERRY_RETURN_IF_ERROR(i64Reg("condition"));
      FERRY_RETURN_IF_ERROR(refReg("true"));
      return refReg("false");
    case Opcode::kBranch:
      branchTarget();
      return moveList("");
    case Opcode::kCondBranch:
      FERRY_RETURN_IF_ERROR(i64Reg("condition"));
      branchTarget();
      FERRY_RETURN_IF_ERROR(moveList("true edge "));
      branchTarget();
      return moveList("false edge ");
    case Opcode::kCall: {
      uint32_t index = reader_.u32();
      if (reader_.failed())
        return okStatus();
      if (index >= functions_.size())
        return operandError(strCat("function index ", index,
                                   " is out of range (the module has ",
                                   functions_.size(), " functions)"));
      const Function &callee = functions_[index];
      // The initializer runs once, with the globals writable; a second run
      // from a call could not store them.
      if (callee.name == kInitializerFunctionName)
        return operandError(strCat("calls the module initializer '",
                                   callee.name,
                                   "', which only the runtime may run"));
      push(index);
      std::string name = strCat("function '", callee.name, "'");
      FERRY_RETURN_IF_ERROR(kindedRegList(callee.argKinds, "argument", name));
      if (reader_.failed())
        return okStatus();
      return kindedRegList(callee.resultKinds, "result", name);
    }
    case Opcode::kReturn: {
      uint16_t count = reader_.u16();
      if (reader_.failed())
        return okStatus();
      if (count != function_.resultKinds.size())
        return operandError(strCat("returns ", count,
                                   " values but the function signature has ",
                                   function_.resultKinds.size(), " results"));
      push(count);
      for (uint16_t i = 0; i < count && !reader_.failed(); ++i) {
        uint8_t kind = reader_.u8();
        if (reader_.failed())
          return okStatus();
        if (kind != uint8_t(function_.resultKinds[i]))
          return operandError(
              strCat("result ", i, " has register kind ", int(kind),
                     " but the function signature says ",
                     registerKindName(function_.resultKinds[i])));
        push(kind);
        std::string what = strCat("result ", i);
        if (RegisterKind(kind) == RegisterKind::kI64)
          FERRY_RETURN_IF_ERROR(i64Reg(what));
        else
          FERRY_RETURN_IF_ERROR(refReg(what));
      }
      return okStatus();
    }
    case Opcode::kFail:
      return stringIndex("message");
    case Opcode::kAssert:
      FERRY_RETURN_IF_ERROR(i64Reg("condition"));
      return stringIndex("message");
    case Opcode::kDeviceGet: {
      FERRY_RETURN_IF_ERROR(refReg("dst"));
      uint32_t device = reader_.u32();
      if (reader_.failed())
        return okStatus();
      if (device >= deviceCount_)
        return operandError(strCat("device index ", device,
                                   " is out of range (the module has ",
                                   deviceCount_, " devices)"));
      push(device);
      return okStatus();
    }
    case Opcode::kBufferViewDim:
      FERRY_RETURN_IF_ERROR(i64Reg("dst"));
      FERRY_RETURN_IF_ERROR(refReg("view"));
      push(reader_.u32());
      return okStatus();
    case Opcode::kBufferViewAssert:
      FERRY_RETURN_IF_ERROR(refReg("view"));
      FERRY_RETURN_IF_ERROR(elementType());
      FERRY_RETURN_IF_ERROR(i64RegList("dim"));
      return stringIndex("message");
    case Opcode::kBufferViewBuffer:
      FERRY_RETURN_IF_ERROR(refReg("dst"));
      return refReg("view");
    case Opcode::kBufferViewCreate:
      FERRY_RETURN_IF_ERROR(refReg("dst"));
      FERRY_RETURN_IF_ERROR(refReg("buffer"));
      FERRY_RETURN_IF_ERROR(elementType());
      return i64RegList("dim");
    case Opcode::kBufferLength:
      FERRY_RETURN_IF_ERROR(i64Reg("dst"));
      return refReg("buffer");
    case Opcode::kFenceCreate:
      FERRY_RETURN_IF_ERROR(refReg("dst"));
      return refReg("device");
    case Opcode::kFenceAwait:
      return refRegList("fence");
    case Opcode::kQueueAlloca:
      FERRY_RETURN_IF_ERROR(refReg("dst"));
      FERRY_RETURN_IF_ERROR(refReg("device"));
      FERRY_RETURN_IF_ERROR(refReg("wait", /*optional=*/true));
      FERRY_RETURN_IF_ERROR(refReg("signal"));
      FERRY_RETURN_IF_ERROR(i64Reg("memory_type"));
      FERRY_RETURN_IF_ERROR(i64Reg("usage"));
      FERRY_RETURN_IF_ERROR(i64Reg("size"));
      return flagsOperand(hal::kQueueAllocaKnownFlags);
    case Opcode::kQueueDealloca:
    case Opcode::kQueueDeallocaIf:
      FERRY_RETURN_IF_ERROR(refReg("device"));
      FERRY_RETURN_IF_ERROR(refReg("wait", /*optional=*/true));
      FERRY_RETURN_IF_ERROR(refReg("signal"));
      FERRY_RETURN_IF_ERROR(refReg("buffer"));
      FERRY_RETURN_IF_ERROR(flagsOperand(hal::kQueueDeallocaKnownFlags));
      if (opcode == Opcode::kQueueDeallocaIf)
        return i64Reg("condition");
      return okStatus();
    case Opcode::kQueueFill: {
      FERRY_RETURN_IF_ERROR(refReg("device"));
      FERRY_RETURN_IF_ERROR(refReg("wait", /*optional=*/true));
      FERRY_RETURN_IF_ERROR(refReg("signal"));
      FERRY_RETURN_IF_ERROR(refReg("target"));
      FERRY_RETURN_IF_ERROR(i64Reg("offset"));
      FERRY_RETURN_IF_ERROR(i64Reg("length"));
      FERRY_RETURN_IF_ERROR(i64Reg("pattern"));
      uint8_t patternBytes = reader_.u8();
      if (reader_.failed())
        return okStatus();
      if (patternBytes != 1 && patternBytes != 2 && patternBytes != 4 &&
          patternBytes != 8)
        return operandError(strCat("pattern width ", int(patternBytes),
                                   " is not 1, 2, 4 or 8 bytes"));
      push(patternBytes);
      return okStatus();
    }
    case Opcode::kQueueCopy:
      FERRY_RETURN_IF_ERROR(refReg("device"));
      FERRY_RETURN_IF_ERROR(refReg("wait", /*optional=*/true));
      FERRY_RETURN_IF_ERROR(refReg("signal"));
      FERRY_RETURN_IF_ERROR(refReg("source"));
      FERRY_RETURN_IF_ERROR(i64Reg("source_offset"));
      FERRY_RETURN_IF_ERROR(refReg("target"));
      FERRY_RETURN_IF_ERROR(i64Reg("target_offset"));
      return i64Reg("length");
    case Opcode::kCallImport: {
      uint32_t index = reader_.u32();
      if (reader_.failed())
        return okStatus();
      if (index >= imports_.size())
        return operandError(strCat("import index ", index,
                                   " is out of range (the module has ",
                                   imports_.size(), " imports)"));
      push(index);
      const Import &import = imports_[index];
      std::string callee = strCat("import '", import.name, "'");
      FERRY_RETURN_IF_ERROR(kindedRegList(import.argKinds, "argument", callee));
      if (reader_.failed())
        return okStatus();
      return kindedRegList(import.resultKinds, "result", callee);
    }
    case Opcode::kBufferPreserve:
      return refReg("buffer");
    case Opcode::kBufferDiscard:
    case Opcode::kBufferIsTerminal:
      FERRY_RETURN_IF_ERROR(i64Reg("dst"));
      return refReg("buffer");
    case Opcode::kQueueDispatch: {
      FERRY_RETURN_IF_ERROR(refReg("device"));
      FERRY_RETURN_IF_ERROR(refReg("wait", /*optional=*/true));
      FERRY_RETURN_IF_ERROR(refReg("signal"));
      uint32_t kernel = reader_.u32();
      if (reader_.failed())
        return okStatus();
      if (!hal::builtinKernelFromValue(kernel))
        return operandError(strCat("unknown built-in kernel ", kernel));
      push(kernel);
      FERRY_RETURN_IF_ERROR(elementType());
      FERRY_RETURN_IF_ERROR(i64Reg("count"));
      return refRegList("binding");
    }
    case Opcode::kFenceJoin:
      FERRY_RETURN_IF_ERROR(refReg("dst"));
      return refRegList("fence");
    case Opcode::kDeviceQuery: {
      FERRY_RETURN_IF_ERROR(i64Reg("ok"));
      FERRY_RETURN_IF_ERROR(i64Reg("value"));
      FERRY_RETURN_IF_ERROR(refReg("device"));
      FERRY_RETURN_IF_ERROR(stringIndex("category"));
      FERRY_RETURN_IF_ERROR(stringIndex("key"));
      push(int64_t(reader_.u64()));
      uint8_t bits = reader_.u8();
      if (reader_.failed())
        return okStatus();
      if (bits == 0 || bits > 64)
        return operandError(
            strCat("value width ", int(bits), " is not between 1 and 64 bits"));
      push(bits);
      return okStatus();
    }
    case Opcode::kAllocatorSelect: {
      FERRY_RETURN_IF_ERROR(refReg("dst"));
      size_t countAt = function_.operands.size();
      FERRY_RETURN_IF_ERROR(refRegList("device"));
      if (!reader_.failed() && function_.operands[countAt] == 0)
        return operandError("selects from no devices");
      return okStatus();
    }
    case Opcode::kDeviceImportBuffer:
      FERRY_RETURN_IF_ERROR(refReg("dst"));
      FERRY_RETURN_IF_ERROR(refReg("device"));
      FERRY_RETURN_IF_ERROR(refReg("buffer"));
      return refReg("wait", /*optional=*/true);
    case Opcode::kGlobalLoadI64:
      FERRY_RETURN_IF_ERROR(i64Reg("dst"));
      return globalIndex();
    case Opcode::kGlobalStoreI64:
      if (function_.name != kInitializerFunctionName)
        return operandError(strCat("only the module initializer '",
                                   kInitializerFunctionName,
                                   "' may store to globals"));
      FERRY_RETURN_IF_ERROR(globalIndex());
      return i64Reg("value");
    }
    return operandError("opcode has no decoder");
  }

  size_t stringCount_;
  size_t deviceCount_;
  const std::vector<Import> &imports_;
  const std::vector<Function> &functions_;
  Function &function_;
  Reader reader_;
  size_t codeBytes_ = reader_.remaining();
  uint32_t &globalCount_;
  Opcode current_ = Opcode::kReturn;
  size_t currentOffset_ = 0;
  std::vector<BranchTarget> branchTargets_;
};

// `owner` names the signature's owner in messages ("function 'f'").
Status readKinds(Reader &reader, std::vector<RegisterKind> &kinds,
                 std::string_view what, const std::string &owner) {
  uint16_t count = reader.u16();
  for (uint16_t i = 0; i < count && !reader.failed(); ++i) {
    uint8_t kind = reader.u8();
    if (reader.failed())
      break;
    if (kind != uint8_t(RegisterKind::kI64) &&
        kind != uint8_t(RegisterKind::kRef))
      return invalidModule(strCat(owner, " ", what, " ", i,
                                  " has unknown register kind ", int(kind)));
    kinds.push_back(RegisterKind(kind));
  }
  return okStatus();
}

} // namespace

std::string_view registerKindName(RegisterKind kind) {
  switch (kind) {
  case RegisterKind::kI64:
    return "i64";
  case RegisterKind::kRef:
    return "ref";
  }
  return "<unknown kind>";
}

std::string Function::signatureString() const {
  return strCat(name, "(", kindListString(argKinds), ") -> (",
                kindListString(resultKinds), ")");
}

std::string_view Import::moduleName() const {
  std::string_view view = name;
  return view.substr(0, view.find('.'));
}

std::string_view Import::functionName() const {
  std::string_view view = name;
  size_t dot = view.find('.');
  return dot == std::string_view::npos ? std::string_view()
                                       : view.substr(dot + 1);
}

std::string Import::signatureString() const {
  return strCat(name, "(", kindListString(argKinds), ") -> (",
                kindListString(resultKinds), ")");
}

const Function *Module::lookupFunction(std::string_view name) const {
  for (const Function &function : functions_)
    if (function.name == name)
      return &function;
  return nullptr;
}

const Function *Module::initializer() const {
  return lookupFunction(kInitializerFunctionName);
}

std::string Module::functionNamesString() const {
  std::string out;
  for (const Function &function : functions_)
    out += strCat(out.empty() ? "" : ", ", "'", function.name, "'");
  return out.empty() ? "none" : out;
}

Result<Module> Module::load(std::span<const uint8_t> file) {
  if (file.size() < sizeof(kMagic) ||
      std::memcmp(file.data(), kMagic, sizeof(kMagic)) != 0)
    return invalidArgument("not a Ferry module (bad magic; expected a .fvm "
                           "file written by ferry-compile)");
  if (file.size() < kHeaderBytes)
    return dataLoss("module file is truncated: the header needs ", kHeaderBytes,
                    " bytes, file has ", file.size());
  Reader header(file.first(kHeaderBytes));
  header.bytes(sizeof(kMagic));
  uint32_t version = header.u32();
  uint32_t reserved = header.u32();
  uint64_t payloadBytes = header.u64();
  uint64_t checksum = header.u64();
  if (version > kFormatVersion)
    return unimplemented("module format version ", version,
                         " is newer than this runtime supports (version ",
                         kFormatVersion,
                         "); recompile it with a matching ferry-compile");
  if (version == 0)
    return dataLoss("module file is corrupt: format version 0 does not exist");
  if (version < kMinFormatVersion)
    return unimplemented("module format version ", version,
                         " is older than this runtime supports (version ",
                         kMinFormatVersion, " to ", kFormatVersion,
                         "); recompile it with a matching ferry-compile");
  if (reserved != 0)
    return dataLoss("module file is corrupt: reserved header field is ",
                    reserved, ", not 0");
  uint64_t actualPayload = file.size() - kHeaderBytes;
  if (payloadBytes > actualPayload)
    return dataLoss("module file is truncated: header says ", payloadBytes,
                    " payload bytes, file has ", actualPayload);
  if (payloadBytes < actualPayload)
    return dataLoss("module file is corrupt: header says ", payloadBytes,
                    " payload bytes, file has ", actualPayload);
  std::span<const uint8_t> payload = file.subspan(kHeaderBytes);
  if (fnv1a64(payload.data(), payload.size()) != checksum)
    return dataLoss("module file is corrupt: payload checksum mismatch");

  Module module;
  module.formatVersion_ = version;
  Reader reader(payload);
  auto truncatedTable = [&](std::string_view table) {
    return invalidModule(strCat("the ", table, " runs past the payload end"));
  };

  uint32_t stringCount = reader.u32();
  for (uint32_t i = 0; i < stringCount && !reader.failed(); ++i) {
    uint32_t length = reader.u32();
    module.strings_.emplace_back(reader.bytes(length));
  }
  if (reader.failed())
    return truncatedTable("string table");

  uint32_t deviceCount = reader.u32();
  for (uint32_t i = 0; i < deviceCount && !reader.failed(); ++i) {
    uint32_t name = reader.u32();
    if (reader.failed())
      break;
    if (name >= module.strings_.size())
      return invalidModule(strCat("device ", i, " names string ", name,
                                  " but the module has ",
                                  module.strings_.size(), " strings"));
    module.deviceNames_.push_back(module.strings_[name]);
  }
  if (reader.failed())
    return truncatedTable("device table");

  uint32_t importCount = reader.u32();
  std::set<std::string, std::less<>> importNames;
  for (uint32_t i = 0; i < importCount && !reader.failed(); ++i) {
    Import import;
    uint32_t name = reader.u32();
    if (reader.failed())
      break;
    if (name >= module.strings_.size())
      return invalidModule(strCat("import ", i, " names string ", name,
                                  " but the module has ",
                                  module.strings_.size(), " strings"));
    import.name = module.strings_[name];
    if (import.moduleName().empty() || import.functionName().empty())
      return invalidModule(strCat("import ", i, " is named '", import.name,
                                  "', not 'module.function'"));
    if (!importNames.insert(import.name).second)
      return invalidModule(
          strCat("import '", import.name, "' is declared twice"));
    std::string owner = strCat("import '", import.name, "'");
    FERRY_RETURN_IF_ERROR(
        readKinds(reader, import.argKinds, "argument", owner));
    FERRY_RETURN_IF_ERROR(
        readKinds(reader, import.resultKinds, "result", owner));
    import.flags = reader.u32();
    if (reader.failed())
      break;
    if (import.flags & ~kKnownImportFlags)
      return invalidModule(strCat(owner, " has unknown flag bits 0x", std::hex,
                                  import.flags & ~kKnownImportFlags));
    if (import.usesCoarseFences()) {
      size_t n = import.argKinds.size();
      if (n < 2 || import.argKinds[n - 2] != RegisterKind::kRef ||
          import.argKinds[n - 1] != RegisterKind::kRef)
        return invalidModule(
            strCat(owner,
                   " uses the coarse-fences ABI but its last two arguments "
                   "are not refs (the wait and signal fences): ",
                   import.signatureString()));
    }
    module.imports_.push_back(std::move(import));
  }
  if (reader.failed())
    return truncatedTable("import table");

  // Every signature is read before any code is verified, so a `call` can be
  // checked against a callee defined later in the table.
  uint32_t functionCount = reader.u32();
  std::set<std::string, std::less<>> names;
  std::vector<std::span<const uint8_t>> codes;
  for (uint32_t i = 0; i < functionCount && !reader.failed(); ++i) {
    Function function;
    uint32_t name = reader.u32();
    if (reader.failed())
      break;
    if (name >= module.strings_.size())
      return invalidModule(strCat("function ", i, " names string ", name,
                                  " but the module has ",
                                  module.strings_.size(), " strings"));
    function.name = module.strings_[name];
    if (!names.insert(function.name).second)
      return invalidModule(
          strCat("function '", function.name, "' is defined twice"));
    FERRY_RETURN_IF_ERROR(readKinds(reader, function.argKinds, "argument",
                                    strCat("function '", function.name, "'")));
    FERRY_RETURN_IF_ERROR(readKinds(reader, function.resultKinds, "result",
                                    strCat("function '", function.name, "'")));
    function.i64RegisterCount = reader.u16();
    function.refRegisterCount = reader.u16();
    uint32_t codeBytes = reader.u32();
    std::string_view code = reader.bytes(codeBytes);
    if (reader.failed())
      break;
    size_t i64Args = 0, refArgs = 0;
    for (RegisterKind kind : function.argKinds)
      ++(kind == RegisterKind::kI64 ? i64Args : refArgs);
    if (i64Args > function.i64RegisterCount ||
        refArgs > function.refRegisterCount)
      return invalidModule(strCat(
          "function '", function.name, "' takes ", i64Args, " i64 and ",
          refArgs, " ref arguments but has only ", function.i64RegisterCount,
          " i64 and ", function.refRegisterCount, " ref registers"));
    if (function.name == kInitializerFunctionName &&
        (!function.argKinds.empty() || !function.resultKinds.empty()))
      return invalidModule(strCat("the module initializer '", function.name,
                                  "' must take no arguments and return "
                                  "nothing, but is ",
                                  function.signatureString()));
    codes.emplace_back(reinterpret_cast<const uint8_t *>(code.data()),
                       code.size());
    module.functions_.push_back(std::move(function));
  }
  if (reader.failed())
    return truncatedTable("function table");
  for (size_t i = 0; i < module.functions_.size(); ++i) {
    CodeVerifier verifier(module.strings_.size(), module.deviceNames_.size(),
                          module.imports_, module.functions_,
                          module.functions_[i], codes[i], module.globalCount_);
    FERRY_RETURN_IF_ERROR(verifier.run());
  }
  if (!reader.atEnd())
    return invalidModule(strCat(reader.remaining(),
                                " unexpected bytes after the function table"));
  return module;
}

} // namespace ferry::vm
