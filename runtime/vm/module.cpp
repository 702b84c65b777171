#include "runtime/vm/module.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <new>
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

// The oldest format this runtime reads: version 4 gave integer ops their
// width, so older code would decode wrongly.
constexpr uint32_t kMinFormatVersion = 4;

std::string kindListString(const std::vector<RegisterKind> &kinds) {
  std::string out;
  for (size_t i = 0; i < kinds.size(); ++i)
    out += strCat(i ? ", " : "", registerKindName(kinds[i]));
  return out;
}

// Decodes and verifies one function's code into `function`, walking each
// opcode's operand layout in the format's table.
class CodeVerifier {
public:
  // `functions` holds every function's signature (its code may not be
  // decoded yet), for checking `call` against its callee.
  CodeVerifier(size_t stringCount, size_t deviceCount,
               const std::vector<Import> &imports,
               const std::vector<Function> &functions,
               const std::vector<ExecutableRecord> &executables,
               size_t constantCount, Function &function,
               std::span<const uint8_t> code, uint32_t &globalCount)
      : stringCount_(stringCount), deviceCount_(deviceCount), imports_(imports),
        functions_(functions), executables_(executables),
        constantCount_(constantCount), function_(function), reader_(code),
        globalCount_(globalCount) {}

  Status run() {
    if (reader_.atEnd())
      return error(0, "has no code (it must end with return or fail)");
    Opcode last = Opcode::kReturn;
    while (!reader_.atEnd()) {
      size_t offset = reader_.offset();
      uint8_t raw = reader_.u8();
      const OpcodeInfo *info = lookupOpcode(raw);
      if (!info)
        return error(offset, strCat("unknown opcode 0x", std::hex, int(raw)));
      Instruction instruction{info->opcode, uint32_t(offset),
                              uint32_t(function_.operands.size()), 0};
      current_ = info;
      currentOffset_ = offset;
      callee_ = {};
      for (const OperandSpec &spec : info->operands) {
        FERRY_RETURN_IF_ERROR(decodeOperand(spec));
        if (reader_.failed())
          return error(offset,
                       strCat(info->mnemonic,
                              ": operands run past the end of the code"));
      }
      FERRY_RETURN_IF_ERROR(checkInstruction(instruction.operandBegin));
      instruction.operandCount =
          uint32_t(function_.operands.size() - instruction.operandBegin);
      function_.instructions.push_back(instruction);
      last = info->opcode;
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
    const OpcodeInfo *info;
  };

  // The signature a call's argument and result lists must match.
  struct Callee {
    const std::vector<RegisterKind> *args = nullptr;
    const std::vector<RegisterKind> *results = nullptr;
    std::string name; // "function 'f'" or "import 'm.f'"
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
                     strCat(target.info->mnemonic, ": target offset ", offset,
                            " ", why));
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
    return error(currentOffset_, strCat(current_->mnemonic, ": ", message));
  }

  void push(int64_t value) { function_.operands.push_back(value); }

  // Reads one field of `shape`; a read past the end returns 0 and leaves
  // the reader failed, which run() reports.
  uint64_t readScalar(OperandShape shape) {
    switch (shape) {
    case OperandShape::kU8:
      return reader_.u8();
    case OperandShape::kU16:
      return reader_.u16();
    case OperandShape::kU64:
      return reader_.u64();
    default:
      return reader_.u32();
    }
  }

  Status decodeOperand(const OperandSpec &spec) {
    switch (operandShape(spec.kind)) {
    case OperandShape::kRegisterList:
    case OperandShape::kKindedRegisters:
    case OperandShape::kMoves:
      return decodeList(spec);
    default:
      break;
    }
    uint64_t value = readScalar(operandShape(spec.kind));
    if (reader_.failed())
      return okStatus();
    return checkScalar(spec.kind, spec.name, value);
  }

  // Checks a scalar operand's value against its kind and appends it.
  Status checkScalar(OperandKind kind, std::string_view name, uint64_t value) {
    switch (kind) {
    case OperandKind::kI64Register:
      return registerOperand(RegisterKind::kI64, name, value);
    case OperandKind::kRefRegister:
      return registerOperand(RegisterKind::kRef, name, value);
    case OperandKind::kOptionalRefRegister:
      if (value == kNoRegister)
        break;
      return registerOperand(RegisterKind::kRef, name, value);
    case OperandKind::kU32:
    case OperandKind::kI64:
      break;
    case OperandKind::kString:
      FERRY_RETURN_IF_ERROR(
          indexOperand(name, "string", value, stringCount_, "strings"));
      break;
    case OperandKind::kDevice:
      FERRY_RETURN_IF_ERROR(
          indexOperand({}, "device", value, deviceCount_, "devices"));
      break;
    case OperandKind::kImport:
      FERRY_RETURN_IF_ERROR(
          indexOperand({}, "import", value, imports_.size(), "imports"));
      callee_ = {&imports_[value].argKinds, &imports_[value].resultKinds,
                 strCat("import '", imports_[value].name, "'")};
      break;
    case OperandKind::kFunction: {
      FERRY_RETURN_IF_ERROR(
          indexOperand({}, "function", value, functions_.size(), "functions"));
      const Function &callee = functions_[value];
      // The initializer runs once, with the globals writable; a second run
      // from a call could not store them.
      if (callee.name == kInitializerFunctionName)
        return operandError(strCat("calls the module initializer '",
                                   callee.name,
                                   "', which only the runtime may run"));
      callee_ = {&callee.argKinds, &callee.resultKinds,
                 strCat("function '", callee.name, "'")};
      break;
    }
    case OperandKind::kExecutable:
      FERRY_RETURN_IF_ERROR(indexOperand({}, "executable", value,
                                         executables_.size(), "executables"));
      break;
    case OperandKind::kConstant:
      FERRY_RETURN_IF_ERROR(
          indexOperand({}, "constant", value, constantCount_, "constants"));
      break;
    case OperandKind::kGlobal:
      if (value >= kMaxGlobals)
        return operandError(strCat("global index ", value,
                                   " is out of range (at most ", kMaxGlobals,
                                   " globals)"));
      globalCount_ = std::max(globalCount_, uint32_t(value) + 1);
      break;
    case OperandKind::kElementType:
      if (!hal::elementTypeFromValue(uint32_t(value)))
        return operandError(strCat("unknown element type ", value));
      break;
    case OperandKind::kKernel:
      if (!hal::builtinKernelFromValue(uint32_t(value)))
        return operandError(strCat("unknown built-in kernel ", value));
      break;
    case OperandKind::kCmpPredicate:
      if (!isKnownCmpPredicate(uint8_t(value)))
        return operandError(strCat("unknown predicate ", value));
      break;
    case OperandKind::kAllocaFlags:
    case OperandKind::kDeallocaFlags: {
      uint64_t known = kind == OperandKind::kAllocaFlags
                           ? hal::kQueueAllocaKnownFlags
                           : hal::kQueueDeallocaKnownFlags;
      if (value & ~known)
        return operandError(
            strCat("unknown flag bits 0x", std::hex, value & ~known));
      break;
    }
    case OperandKind::kPatternBytes:
      if (value != 1 && value != 2 && value != 4 && value != 8)
        return operandError(
            strCat("pattern width ", value, " is not 1, 2, 4 or 8 bytes"));
      break;
    case OperandKind::kValueBits:
      if (value == 0 || value > 64)
        return operandError(
            strCat("value width ", value, " is not between 1 and 64 bits"));
      break;
    case OperandKind::kTarget:
      branchTargets_.push_back(
          {function_.operands.size(), currentOffset_, current_});
      break;
    default:
      return operandError(strCat(name, ": not a scalar operand"));
    }
    push(int64_t(value));
    return okStatus();
  }

  Status registerOperand(RegisterKind kind, std::string_view name,
                         uint64_t reg) {
    uint16_t count = kind == RegisterKind::kI64 ? function_.i64RegisterCount
                                                : function_.refRegisterCount;
    if (reg >= count)
      return operandError(
          strCat(name, ": ", registerKindName(kind), " register ", reg,
                 " is out of range (the function has ", count, ")"));
    push(int64_t(reg));
    return okStatus();
  }

  // "<name>: <what> index 3 is out of range (the module has 2 <plural>)";
  // without a name when the opcode has only that one index.
  Status indexOperand(std::string_view name, std::string_view what,
                      uint64_t index, size_t count, std::string_view plural) {
    if (index < count)
      return okStatus();
    return operandError(strCat(name, name.empty() ? "" : ": ", what, " index ",
                               index, " is out of range (the module has ",
                               count, " ", plural, ")"));
  }

  // A count:u16 and its elements: registers, (kind, register) pairs that
  // must match a signature, or (kind, dst, src) moves.
  Status decodeList(const OperandSpec &spec) {
    uint16_t count = reader_.u16();
    if (reader_.failed())
      return okStatus();
    switch (spec.kind) {
    case OperandKind::kI64RegisterList:
    case OperandKind::kRefRegisterList: {
      push(count);
      OperandKind element = spec.kind == OperandKind::kI64RegisterList
                                ? OperandKind::kI64Register
                                : OperandKind::kRefRegister;
      for (uint16_t i = 0; i < count; ++i) {
        uint16_t reg = reader_.u16();
        if (reader_.failed())
          return okStatus();
        FERRY_RETURN_IF_ERROR(checkScalar(element, spec.name, reg));
      }
      return okStatus();
    }
    case OperandKind::kMoves:
      return decodeMoves(spec.name, count);
    default:
      return decodeKindedList(spec.kind, count);
    }
  }

  // Arguments and results of a call (against callee_) or the values of a
  // return (against the function's own results).
  Status decodeKindedList(OperandKind kind, uint16_t count) {
    const std::vector<RegisterKind> *expected =
        kind == OperandKind::kArguments ? callee_.args
        : kind == OperandKind::kResults ? callee_.results
                                        : &function_.resultKinds;
    if (!expected) // the table puts a callee before its lists
      return operandError("a call's list precedes its callee");
    std::string_view what =
        kind == OperandKind::kArguments ? "argument" : "result";
    if (count != expected->size()) {
      if (kind == OperandKind::kReturnValues)
        return operandError(strCat("returns ", count,
                                   " values but the function signature has ",
                                   expected->size(), " results"));
      return operandError(strCat("passes ", count, " ", what, "s but ",
                                 callee_.name, " has ", expected->size()));
    }
    push(count);
    for (uint16_t i = 0; i < count; ++i) {
      uint8_t raw = reader_.u8();
      if (reader_.failed())
        return okStatus();
      RegisterKind want = (*expected)[i];
      if (raw != uint8_t(want)) {
        std::string whose = kind == OperandKind::kReturnValues
                                ? "the function signature says "
                                : strCat(callee_.name, " expects ");
        return operandError(strCat(what, " ", i, " has register kind ",
                                   int(raw), " but ", whose,
                                   registerKindName(want)));
      }
      push(raw);
      uint16_t reg = reader_.u16();
      if (reader_.failed())
        return okStatus();
      FERRY_RETURN_IF_ERROR(registerOperand(want, strCat(what, " ", i), reg));
    }
    return okStatus();
  }

  // Moves of a branch edge; "true_moves" names its errors "true edge move i".
  Status decodeMoves(std::string_view name, uint16_t count) {
    std::string edge;
    if (size_t at = name.find("_moves"); at != std::string_view::npos)
      edge = strCat(name.substr(0, at), " edge ");
    push(count);
    for (uint16_t i = 0; i < count; ++i) {
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
        uint16_t reg = reader_.u16();
        if (reader_.failed())
          return okStatus();
        FERRY_RETURN_IF_ERROR(
            registerOperand(RegisterKind(kind), strCat(what, side), reg));
      }
    }
    return okStatus();
  }

  // Rules that span operands or depend on the function, beyond what each
  // operand's kind checks.
  Status checkInstruction(size_t operandBegin) {
    switch (current_->opcode) {
    case Opcode::kAllocatorSelect:
      if (function_.operands[operandBegin + 1] == 0)
        return operandError("selects from no devices");
      return okStatus();
    case Opcode::kQueueDispatchEntry:
      return checkDispatchEntry(operandBegin);
    case Opcode::kGlobalStoreI64:
      if (function_.name != kInitializerFunctionName)
        return operandError(strCat("only the module initializer '",
                                   kInitializerFunctionName,
                                   "' may store to globals"));
      return okStatus();
    default:
      return okStatus();
    }
  }

  // The entry exists, and the push constants and the three binding lists
  // have the entry's counts.
  Status checkDispatchEntry(size_t operandBegin) {
    const std::vector<int64_t> &operands = function_.operands;
    const ExecutableRecord &executable =
        executables_[size_t(operands[operandBegin + 3])];
    uint64_t entryIndex = uint64_t(operands[operandBegin + 4]);
    if (entryIndex >= executable.entries.size())
      return operandError(strCat(
          "entry index ", entryIndex, " is out of range (executable '",
          executable.name, "' has ", executable.entries.size(), " entries)"));
    const EntryRecord &entry = executable.entries[entryIndex];
    std::string owner =
        strCat("executable '", executable.name, "' entry '", entry.name, "'");
    size_t at = operandBegin + 8; // the push constant list's count
    int64_t pushConstants = operands[at];
    if (pushConstants != entry.pushConstantCount)
      return operandError(strCat("passes ", pushConstants,
                                 " push constants but ", owner, " takes ",
                                 entry.pushConstantCount));
    at += 1 + size_t(pushConstants);
    for (std::string_view list :
         {"binding", "binding_offset", "binding_length"}) {
      int64_t count = operands[at];
      if (uint64_t(count) != entry.bindingAccess.size())
        return operandError(strCat(list, " has ", count, " elements but ",
                                   owner, " has ", entry.bindingAccess.size(),
                                   " bindings"));
      at += 1 + size_t(count);
    }
    return okStatus();
  }

  size_t stringCount_;
  size_t deviceCount_;
  const std::vector<Import> &imports_;
  const std::vector<Function> &functions_;
  const std::vector<ExecutableRecord> &executables_;
  size_t constantCount_;
  Function &function_;
  Reader reader_;
  size_t codeBytes_ = reader_.remaining();
  uint32_t &globalCount_;
  const OpcodeInfo *current_ = nullptr;
  size_t currentOffset_ = 0;
  Callee callee_;
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

// The executable table (format version 6; entry kinds from version 7): every
// name a valid string, unique where it must be, a known format and entry
// kind, access bytes 1 to 3, and the image
// inside the payload. The images themselves are checked when a Context loads
// them (runtime/hal/executable.h).
Status readExecutables(Reader &reader, uint32_t version,
                       const std::vector<std::string> &strings,
                       std::vector<ExecutableRecord> &executables) {
  auto truncated = [] {
    return invalidModule("the executable table runs past the payload end");
  };
  // A string operand of the table; `what` names it in messages.
  auto string = [&](std::string_view what, uint32_t index,
                    std::string &out) -> Status {
    if (index >= strings.size())
      return invalidModule(strCat(what, " names string ", index,
                                  " but the module has ", strings.size(),
                                  " strings"));
    out = strings[index];
    return okStatus();
  };
  uint32_t count = reader.u32();
  std::set<std::string, std::less<>> names;
  for (uint32_t i = 0; i < count; ++i) {
    ExecutableRecord executable;
    uint32_t name = reader.u32();
    uint32_t format = reader.u32();
    uint32_t features = reader.u32();
    if (reader.failed())
      return truncated();
    FERRY_RETURN_IF_ERROR(
        string(strCat("executable ", i), name, executable.name));
    if (executable.name.empty())
      return invalidModule(strCat("executable ", i, " has an empty name"));
    if (!names.insert(executable.name).second)
      return invalidModule(
          strCat("executable '", executable.name, "' is defined twice"));
    std::string owner = strCat("executable '", executable.name, "'");
    FERRY_RETURN_IF_ERROR(
        string(strCat(owner, " format"), format, executable.format));
    if (!isExecutableFormat(executable.format))
      return invalidModule(strCat(owner, " has unknown format '",
                                  executable.format,
                                  "' (known: elf-x86_64, elf-aarch64)"));
    FERRY_RETURN_IF_ERROR(string(strCat(owner, " cpu_features"), features,
                                 executable.cpuFeatures));
    uint16_t entryCount = reader.u16();
    std::set<std::string, std::less<>> entryNames;
    for (uint16_t e = 0; e < entryCount; ++e) {
      EntryRecord entry;
      uint32_t entryName = reader.u32();
      uint8_t kind = version >= kFirstEntryKindVersion ? reader.u8()
                                                       : uint8_t{kEntryCompute};
      entry.pushConstantCount = reader.u16();
      uint16_t bindingCount = reader.u16();
      std::string_view access = reader.bytes(bindingCount);
      if (reader.failed())
        return truncated();
      FERRY_RETURN_IF_ERROR(
          string(strCat(owner, " entry ", e), entryName, entry.name));
      if (!isEntryName(entry.name))
        return invalidModule(strCat(owner, " entry ", e, " is named '",
                                    entry.name,
                                    "', not a symbol (a C identifier)"));
      if (!entryNames.insert(entry.name).second)
        return invalidModule(
            strCat(owner, " declares entry '", entry.name, "' twice"));
      if (!isEntryKind(kind))
        return invalidModule(strCat(owner, " entry '", entry.name,
                                    "' has kind ", int(kind),
                                    " (0 compute, 1 copy)"));
      entry.kind = EntryKind(kind);
      for (size_t b = 0; b < access.size(); ++b) {
        uint8_t bits = uint8_t(access[b]);
        if (!isBindingAccess(bits) || ((bits & kBindingParameter) &&
                                       version < kFirstParameterBindingVersion))
          return invalidModule(
              strCat(owner, " entry '", entry.name, "' binding ", b,
                     " has access ", int(bits),
                     " (1 read, 2 write, 3 read and write, 5 read as a "
                     "parameter from version ",
                     kFirstParameterBindingVersion, ")"));
        entry.bindingAccess.push_back(bits);
      }
      executable.entries.push_back(std::move(entry));
    }
    uint64_t imageBytes = reader.u64();
    if (reader.failed() || imageBytes > reader.remaining())
      return truncated();
    std::string_view image = reader.bytes(size_t(imageBytes));
    executable.image.assign(image.begin(), image.end());
    executables.push_back(std::move(executable));
  }
  if (reader.failed())
    return truncated();
  return okStatus();
}

// The constant table (format version 6): each constant inside the payload,
// copied into one block where every constant starts on a
// Module::kConstantAlignment boundary (kernels read their elements as
// aligned data; the payload is not aligned).
Status readConstants(Reader &reader, std::vector<ModuleConstant> &constants) {
  auto truncated = [] {
    return invalidModule("the constant table runs past the payload end");
  };
  uint32_t count = reader.u32();
  if (reader.failed())
    return truncated();
  std::vector<std::string_view> sources;
  uint64_t total = 0;
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t bytes = reader.u64();
    if (reader.failed() || bytes > reader.remaining())
      return truncated();
    sources.push_back(reader.bytes(size_t(bytes)));
    total += (bytes + Module::kConstantAlignment - 1) &
             ~uint64_t(Module::kConstantAlignment - 1);
  }
  if (sources.empty())
    return okStatus();
  constexpr std::align_val_t alignment{Module::kConstantAlignment};
  std::shared_ptr<uint8_t> block(
      static_cast<uint8_t *>(
          ::operator new(std::max<uint64_t>(total, 1), alignment)),
      [](uint8_t *p) { ::operator delete(p, alignment); });
  uint64_t offset = 0;
  for (std::string_view source : sources) {
    std::memcpy(block.get() + offset, source.data(), source.size());
    constants.push_back(
        {std::shared_ptr<const uint8_t>(block, block.get() + offset),
         source.size()});
    offset += (source.size() + Module::kConstantAlignment - 1) &
              ~uint64_t(Module::kConstantAlignment - 1);
  }
  return okStatus();
}

// Reads one list of signature reflection ("i32,ref"; empty for none) into
// `types`, checked against `kinds`. `owner` names the list in messages.
Status readReflectedTypes(std::string_view text,
                          const std::vector<RegisterKind> &kinds,
                          std::vector<std::optional<ScalarType>> &types,
                          const std::string &owner) {
  std::vector<std::string_view> entries;
  while (!text.empty()) {
    size_t comma = text.find(',');
    entries.push_back(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view()
                                           : text.substr(comma + 1);
  }
  if (entries.size() != kinds.size())
    return invalidModule(
        strCat(owner, " names ", entries.size(), " types for ", kinds.size()));
  for (size_t i = 0; i < entries.size(); ++i) {
    std::optional<ScalarType> type = parseScalarType(entries[i]);
    RegisterKind kind = type ? RegisterKind::kI64 : RegisterKind::kRef;
    if ((!type && entries[i] != kReflectionRefType) || kind != kinds[i])
      return invalidModule(strCat(owner, " gives entry ", i, " type '",
                                  entries[i], "' but its register is ",
                                  registerKindName(kinds[i])));
    types.push_back(type);
  }
  return okStatus();
}

// The signature reflection strings of the string table
// (kSignatureReflectionPrefix), each checked against the function it names.
Status readSignatureReflection(const std::vector<std::string> &strings,
                               std::vector<Function> &functions) {
  for (std::string_view text : strings) {
    if (!text.starts_with(kSignatureReflectionPrefix))
      continue;
    text.remove_prefix(kSignatureReflectionPrefix.size());
    size_t end = text.find('\0');
    std::string_view name = text.substr(0, end);
    auto function =
        std::find_if(functions.begin(), functions.end(),
                     [&](const Function &f) { return f.name == name; });
    if (function == functions.end())
      return invalidModule(strCat("signature reflection names function '", name,
                                  "', which the module does not define"));
    std::string owner = strCat("signature reflection of '", name, "'");
    size_t arrow = text.find("->");
    if (end == std::string_view::npos || arrow == std::string_view::npos ||
        arrow < end)
      return invalidModule(strCat(owner, " is not 'NAME\\0ARGS->RESULTS'"));
    if (!function->argTypes.empty() || !function->resultTypes.empty())
      return invalidModule(strCat(owner, " is given twice"));
    FERRY_RETURN_IF_ERROR(readReflectedTypes(
        text.substr(end + 1, arrow - end - 1), function->argKinds,
        function->argTypes, strCat(owner, "'s arguments")));
    FERRY_RETURN_IF_ERROR(
        readReflectedTypes(text.substr(arrow + 2), function->resultKinds,
                           function->resultTypes, strCat(owner, "'s results")));
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

std::vector<RegisterKind> Import::calleeArgKinds() const {
  if (!usesResultAllocation())
    return argKinds;
  std::vector<RegisterKind> kinds(argKinds.begin(),
                                  argKinds.begin() + resultRequestsAt());
  kinds.insert(kinds.end(), argKinds.end() - 2, argKinds.end());
  return kinds;
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

namespace {

struct ModuleHeader {
  uint32_t version;
  uint64_t payloadBytes;
  uint64_t checksum;
};

Result<ModuleHeader> readHeader(std::span<const uint8_t> file) {
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
  std::string readable =
      kMinFormatVersion == kFormatVersion
          ? strCat("version ", kFormatVersion)
          : strCat("versions ", kMinFormatVersion, " to ", kFormatVersion);
  if (version > kFormatVersion)
    return unimplemented("module format version ", version,
                         " is newer than this runtime supports (", readable,
                         "); recompile it with a matching ferry-compile");
  if (version == 0)
    return dataLoss("module file is corrupt: format version 0 does not exist");
  if (version < kMinFormatVersion)
    return unimplemented("module format version ", version,
                         " is older than this runtime supports (", readable,
                         "); recompile it with a matching ferry-compile");
  if (reserved != 0)
    return dataLoss("module file is corrupt: reserved header field is ",
                    reserved, ", not 0");
  if (payloadBytes > std::numeric_limits<uint64_t>::max() - kHeaderBytes)
    return dataLoss("module file is corrupt: header says ", payloadBytes,
                    " payload bytes");
  return ModuleHeader{version, payloadBytes, checksum};
}

} // namespace

Result<uint64_t> Module::declaredFileBytes(std::span<const uint8_t> header) {
  FERRY_ASSIGN_OR_RETURN(ModuleHeader parsed, readHeader(header));
  return kHeaderBytes + parsed.payloadBytes;
}

Result<Module> Module::load(std::span<const uint8_t> file) {
  FERRY_ASSIGN_OR_RETURN(ModuleHeader header, readHeader(file));
  uint64_t payloadBytes = header.payloadBytes;
  uint64_t actualPayload = file.size() - kHeaderBytes;
  if (payloadBytes > actualPayload)
    return dataLoss("module file is truncated: header says ", payloadBytes,
                    " payload bytes, file has ", actualPayload);
  if (payloadBytes < actualPayload)
    return dataLoss("module file is corrupt: header says ", payloadBytes,
                    " payload bytes, file has ", actualPayload);
  std::span<const uint8_t> payload = file.subspan(kHeaderBytes);
  if (fnv1a64(payload.data(), payload.size()) != header.checksum)
    return dataLoss("module file is corrupt: payload checksum mismatch");

  Module module;
  module.formatVersion_ = header.version;
  module.payloadBytes_ = payloadBytes;
  module.payloadChecksum_ = header.checksum;
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
    if (!bytecode::isImportName(import.name))
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
    if (import.usesResultAllocation()) {
      constexpr size_t kPerResult =
          std::size(bytecode::kImportResultRequestKinds);
      size_t requests = import.resultKinds.size() * kPerResult;
      bool shaped =
          import.usesCoarseFences() && import.argKinds.size() >= requests + 2;
      for (size_t i = 0; shaped && i < requests; ++i)
        shaped = import.argKinds[import.resultRequestsAt() + i] ==
                 bytecode::kImportResultRequestKinds[i % kPerResult];
      if (!shaped)
        return invalidModule(
            strCat(owner,
                   " allocates new results but does not pass a (ref, i64, i64) "
                   "request per result before its two fences (with the "
                   "coarse-fences ABI): ",
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
    function.codeBytes = reader.u32();
    std::string_view code = reader.bytes(function.codeBytes);
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
  // Executables come before the code is verified: dispatches name them.
  bool hasExecutables = header.version >= kFirstExecutableTableVersion;
  if (hasExecutables) {
    FERRY_RETURN_IF_ERROR(readExecutables(
        reader, header.version, module.strings_, module.executables_));
    FERRY_RETURN_IF_ERROR(readConstants(reader, module.constants_));
  }
  FERRY_RETURN_IF_ERROR(
      readSignatureReflection(module.strings_, module.functions_));
  for (size_t i = 0; i < module.functions_.size(); ++i) {
    CodeVerifier verifier(module.strings_.size(), module.deviceNames_.size(),
                          module.imports_, module.functions_,
                          module.executables_, module.constants_.size(),
                          module.functions_[i], codes[i], module.globalCount_);
    FERRY_RETURN_IF_ERROR(verifier.run());
  }
  if (!reader.atEnd())
    return invalidModule(
        strCat(reader.remaining(), " unexpected bytes after the ",
               hasExecutables ? "constant" : "function", " table"));
  return module;
}

} // namespace ferry::vm
