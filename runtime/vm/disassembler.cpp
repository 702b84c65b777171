#include "runtime/vm/disassembler.h"

#include <cstdio>
#include <span>

#include "runtime/hal/builtin_kernels.h"
#include "runtime/hal/element_type.h"
#include "runtime/hal/queue_flags.h"

namespace ferry::vm {
namespace {

using namespace bytecode;

// Offsets as four (or more) decimal digits, so columns line up.
std::string offsetString(uint64_t offset) {
  char text[24];
  std::snprintf(text, sizeof(text), "%04llu",
                static_cast<unsigned long long>(offset));
  return text;
}

// A string table entry in double quotes, with anything unprintable escaped.
std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c >= 0x20 && c < 0x7f) {
      out += c;
    } else {
      char escape[8];
      std::snprintf(escape, sizeof(escape), "\\x%02x",
                    static_cast<unsigned>(static_cast<uint8_t>(c)));
      out += escape;
    }
  }
  return out + "\"";
}

std::string hexString(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof(text), "0x%llx",
                static_cast<unsigned long long>(value));
  return text;
}

struct FlagName {
  uint64_t bit;
  std::string_view name;
};

// "a|b", "none", with unknown bits in hex.
std::string flagsString(uint64_t flags, std::span<const FlagName> names) {
  std::string out;
  for (const FlagName &flag : names) {
    if (!(flags & flag.bit))
      continue;
    out += strCat(out.empty() ? "" : "|", flag.name);
    flags &= ~flag.bit;
  }
  if (flags)
    out += strCat(out.empty() ? "" : "|", hexString(flags));
  return out.empty() ? "none" : out;
}

constexpr FlagName kAllocaFlagNames[] = {
    {hal::kQueueAllocaIndeterminateLifetime, "indeterminate_lifetime"}};
constexpr FlagName kDeallocaFlagNames[] = {
    {hal::kQueueDeallocaPreferOrigin, "prefer_origin"}};
constexpr FlagName kImportFlagNames[] = {
    {kImportCoarseFences, "coarse_fences"},
    {kImportTiedMayAlias, "tied_may_alias"}};

std::string_view bindingAccessName(uint8_t access) {
  switch (access) {
  case kBindingRead:
    return "read";
  case kBindingWrite:
    return "write";
  case kBindingRead | kBindingParameter:
    return "parameter";
  default:
    return "read_write";
  }
}

std::string registerString(RegisterKind kind, int64_t reg) {
  return strCat(kind == RegisterKind::kI64 ? "i" : "r", reg);
}

// Prints one instruction's operands by walking its layout over the decoded
// operand array.
class InstructionPrinter {
public:
  InstructionPrinter(const Module &module, const Function &function,
                     const Instruction &instruction)
      : module_(module), function_(function),
        operands_(function.operands.data() + instruction.operandBegin,
                  instruction.operandCount),
        info_(opcodeInfo(instruction.opcode)) {}

  std::string print() {
    std::string out(info_.mnemonic);
    for (const OperandSpec &spec : info_.operands)
      out += strCat(" ", spec.name, "=", operand(spec.kind));
    return out;
  }

private:
  int64_t next() { return operands_[next_++]; }

  std::string operand(OperandKind kind) {
    switch (kind) {
    case OperandKind::kI64Register:
      return registerString(RegisterKind::kI64, next());
    case OperandKind::kRefRegister:
      return registerString(RegisterKind::kRef, next());
    case OperandKind::kOptionalRefRegister: {
      int64_t reg = next();
      return reg == kNoRegister ? "none"
                                : registerString(RegisterKind::kRef, reg);
    }
    case OperandKind::kU32:
    case OperandKind::kI64:
    case OperandKind::kPatternBytes:
    case OperandKind::kValueBits:
      return strCat(next());
    case OperandKind::kString:
      return quoted(module_.strings()[size_t(next())]);
    case OperandKind::kDevice:
      return strCat("@", module_.deviceNames()[size_t(next())]);
    case OperandKind::kImport:
      return strCat("@", module_.imports()[size_t(next())].name);
    case OperandKind::kFunction:
      return strCat("@", module_.functions()[size_t(next())].name);
    case OperandKind::kExecutable:
      return strCat("@", module_.executables()[size_t(next())].name);
    case OperandKind::kConstant:
      return strCat("constant[", next(), "]");
    case OperandKind::kGlobal:
      return strCat("global[", next(), "]");
    case OperandKind::kElementType:
      return std::string(hal::elementTypeName(hal::ElementType(next())));
    case OperandKind::kKernel:
      return std::string(hal::builtinKernelName(hal::BuiltinKernel(next())));
    case OperandKind::kCmpPredicate:
      return cmpPredicateSpelling(uint8_t(next()));
    case OperandKind::kAllocaFlags:
      return flagsString(uint64_t(next()), kAllocaFlagNames);
    case OperandKind::kDeallocaFlags:
      return flagsString(uint64_t(next()), kDeallocaFlagNames);
    case OperandKind::kTarget:
      return strCat(
          "^", offsetString(function_.instructions[size_t(next())].codeOffset));
    case OperandKind::kI64RegisterList:
    case OperandKind::kRefRegisterList:
      return registerList(kind == OperandKind::kI64RegisterList
                              ? RegisterKind::kI64
                              : RegisterKind::kRef);
    case OperandKind::kArguments:
    case OperandKind::kResults:
    case OperandKind::kReturnValues:
      return kindedRegisters();
    case OperandKind::kMoves:
      return moves();
    }
    return "?";
  }

  std::string registerList(RegisterKind kind) {
    int64_t count = next();
    std::string out = "[";
    for (int64_t i = 0; i < count; ++i)
      out += strCat(i ? ", " : "", registerString(kind, next()));
    return out + "]";
  }
  std::string kindedRegisters() {
    int64_t count = next();
    std::string out = "(";
    for (int64_t i = 0; i < count; ++i) {
      RegisterKind kind = RegisterKind(next());
      out += strCat(i ? ", " : "", registerString(kind, next()));
    }
    return out + ")";
  }
  std::string moves() {
    int64_t count = next();
    std::string out = "[";
    for (int64_t i = 0; i < count; ++i) {
      RegisterKind kind = RegisterKind(next());
      std::string dst = registerString(kind, next());
      out += strCat(i ? ", " : "", dst, " <- ", registerString(kind, next()));
    }
    return out + "]";
  }

  const Module &module_;
  const Function &function_;
  std::span<const int64_t> operands_;
  const OpcodeInfo &info_;
  size_t next_ = 0;
};

} // namespace

std::string disassembleInstruction(const Module &module,
                                   const Function &function,
                                   const Instruction &instruction) {
  return InstructionPrinter(module, function, instruction).print();
}

std::string disassemble(const Module &module) {
  std::string out =
      strCat("module: format version ", module.formatVersion(), ", ",
             module.payloadBytes(), " payload bytes, ", "checksum ",
             hexString(module.payloadChecksum()), "\n");
  const std::vector<std::string> &strings = module.strings();
  out += strCat("strings (", strings.size(), "):\n");
  for (size_t i = 0; i < strings.size(); ++i)
    out += strCat("  [", i, "] ", quoted(strings[i]), "\n");
  const std::vector<std::string> &devices = module.deviceNames();
  out += strCat("devices (", devices.size(), "):\n");
  for (size_t i = 0; i < devices.size(); ++i)
    out += strCat("  [", i, "] @", devices[i], "\n");
  const std::vector<Import> &imports = module.imports();
  out += strCat("imports (", imports.size(), "):\n");
  for (size_t i = 0; i < imports.size(); ++i)
    out += strCat("  [", i, "] @", imports[i].signatureString(),
                  " flags=", flagsString(imports[i].flags, kImportFlagNames),
                  "\n");
  const std::vector<Function> &functions = module.functions();
  out += strCat("functions (", functions.size(), "):\n");
  for (size_t i = 0; i < functions.size(); ++i) {
    const Function &function = functions[i];
    out += strCat("  [", i, "] @", function.signatureString(),
                  " registers=", function.i64RegisterCount, " i64, ",
                  function.refRegisterCount, " ref code=", function.codeBytes,
                  " bytes\n");
    for (const Instruction &instruction : function.instructions)
      out +=
          strCat("    ", offsetString(instruction.codeOffset), "  ",
                 disassembleInstruction(module, function, instruction), "\n");
  }
  const std::vector<ExecutableRecord> &executables = module.executables();
  out += strCat("executables (", executables.size(), "):\n");
  for (size_t i = 0; i < executables.size(); ++i) {
    const ExecutableRecord &executable = executables[i];
    out +=
        strCat("  [", i, "] @", executable.name, " format=", executable.format,
               " cpu_features=", quoted(executable.cpuFeatures),
               " image=", executable.image.size(), " bytes\n");
    for (size_t e = 0; e < executable.entries.size(); ++e) {
      const EntryRecord &entry = executable.entries[e];
      out += strCat("    entry [", e, "] @", entry.name,
                    entry.kind == kEntryCopy ? " kind=copy" : "",
                    " push_constants=", entry.pushConstantCount, " bindings=(");
      for (size_t b = 0; b < entry.bindingAccess.size(); ++b)
        out += strCat(b ? ", " : "", bindingAccessName(entry.bindingAccess[b]));
      out += ")\n";
    }
  }
  const std::vector<ModuleConstant> &constants = module.constants();
  out += strCat("constants (", constants.size(), "):\n");
  for (size_t i = 0; i < constants.size(); ++i)
    out += strCat("  [", i, "] ", constants[i].size, " bytes\n");
  return out;
}

std::string describeInstructionSet() {
  std::string out = strCat("Ferry bytecode, format version ", kFormatVersion,
                           ": opcode mnemonic operands (name:kind)\n");
  for (const OpcodeInfo *info : kOpcodeTable) {
    char value[8];
    std::snprintf(value, sizeof(value), "0x%02x", unsigned(info->opcode));
    out += strCat("  ", value, " ", info->mnemonic);
    for (const OperandSpec &spec : info->operands)
      out += strCat(" ", spec.name, ":", operandKindNotation(spec.kind));
    if (!info->note.empty())
      out += strCat("\n        (", info->note, ")");
    out += "\n";
  }
  out += "Operand kinds:\n";
  for (uint8_t kind = 0; kind <= uint8_t(OperandKind::kMoves); ++kind)
    out += strCat("  ", operandKindNotation(OperandKind(kind)), ": ",
                  operandKindEncoding(OperandKind(kind)), "\n");
  return out;
}

} // namespace ferry::vm
