// Module: a loaded and fully verified bytecode module (.fvm).
//
// Module::load() treats every byte as untrusted. It checks the header (magic,
// version, payload size, checksum), decodes the string, device, import,
// function and executable tables, and verifies every instruction of every
// function up front: known opcode, operands inside the code, register indices
// inside the function's register counts and of the kind the operand needs,
// string / device / import / element type / kernel / flag values valid,
// `return` matching the function's result kinds, `call.import` and `call`
// matching the callee's argument and result kinds, and every branch target the
// first byte of an instruction of the same function. After load() succeeds the
// interpreter can run any function without bounds checks on the encoding;
// only runtime values (null refs, sizes, shapes, call depth) can still fail.
//
// Instructions are stored decoded: one Instruction per opcode with its
// operands, in layout order (bytecode_format.h), as int64 values in a flat
// per-function array. Variable-length operand lists keep their count operand.
// Branch targets are stored as indices into Function::instructions rather
// than byte offsets, so the interpreter jumps without a lookup.
//
// Ownership/threads: a Module is an immutable value after load(); share it
// (e.g. by std::shared_ptr<const Module>) between any number of threads.
#ifndef FERRY_RUNTIME_VM_MODULE_H_
#define FERRY_RUNTIME_VM_MODULE_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/vm/bytecode_encoder.h"
#include "runtime/vm/bytecode_format.h"

namespace ferry::vm {

using bytecode::Opcode;
using bytecode::RegisterKind;

std::string_view registerKindName(RegisterKind kind);

struct Instruction {
  Opcode opcode;
  uint32_t codeOffset;   // byte offset in the function's code, for messages
  uint32_t operandBegin; // index of the first operand in Function::operands
  uint32_t operandCount;
};

// A function the module calls but does not define, resolved by the runtime
// against its native modules (runtime/vm/native_module.h) when a Context is
// created.
struct Import {
  std::string name; // "module.function" (both parts non-empty)
  std::vector<RegisterKind> argKinds;
  std::vector<RegisterKind> resultKinds;
  uint32_t flags = bytecode::kImportFlagsNone; // bytecode::ImportFlags

  // The parts of `name` before and after its first '.'.
  std::string_view moduleName() const;
  std::string_view functionName() const;
  bool usesCoarseFences() const {
    return (flags & bytecode::kImportCoarseFences) != 0;
  }
  bool usesResultAllocation() const {
    return (flags & bytecode::kImportResultAllocation) != 0;
  }
  // Where the result allocation requests start in the arguments (one per
  // result, before the two fences); only with usesResultAllocation().
  size_t resultRequestsAt() const {
    return argKinds.size() - 2 -
           resultKinds.size() * std::size(bytecode::kImportResultRequestKinds);
  }
  // The arguments the bound function receives: argKinds without the result
  // allocation requests.
  std::vector<RegisterKind> calleeArgKinds() const;
  // "Double.function(ref, ref, ref, ref) -> (ref)" for messages.
  std::string signatureString() const;
};

struct Function {
  std::string name;
  std::vector<RegisterKind> argKinds;
  std::vector<RegisterKind> resultKinds;
  // The scalar type of each i64 argument / result (nullopt for a ref), from
  // the module's signature reflection (bytecode_format.h); empty when the
  // module records none for this function (its i64s are untyped).
  std::vector<std::optional<bytecode::ScalarType>> argTypes;
  std::vector<std::optional<bytecode::ScalarType>> resultTypes;
  uint16_t i64RegisterCount = 0;
  uint16_t refRegisterCount = 0;
  uint32_t codeBytes = 0;
  std::vector<Instruction> instructions;
  std::vector<int64_t> operands;

  // "main(ref, ref) -> (ref)" for messages.
  std::string signatureString() const;
};

// One constant of the constant table: its bytes, in a block the module
// shares with the buffers made of it (hal.device.constant), so a buffer
// outlives neither.
struct ModuleConstant {
  std::shared_ptr<const uint8_t> data;
  uint64_t size = 0;
};

class Module {
public:
  static Result<Module> load(std::span<const uint8_t> file);
  // The size of the whole file a module header declares (header plus
  // payload), from the file's first bytes (bytecode::kHeaderBytes of them,
  // or all there are when the file is shorter). Checks what load() checks
  // first, with its messages: the magic, the header's length, the version
  // and the reserved field. A reader bounds what it reads by this before it
  // has the payload (runtime/tools/file_reader.h).
  static Result<uint64_t> declaredFileBytes(std::span<const uint8_t> header);

  uint32_t formatVersion() const { return formatVersion_; }
  // The header's payload size and checksum (verified by load()).
  uint64_t payloadBytes() const { return payloadBytes_; }
  uint64_t payloadChecksum() const { return payloadChecksum_; }
  const std::vector<std::string> &strings() const { return strings_; }
  // Device symbol names, in device-table order.
  const std::vector<std::string> &deviceNames() const { return deviceNames_; }
  const std::vector<Import> &imports() const { return imports_; }
  const std::vector<Function> &functions() const { return functions_; }
  // The executable table (format version 6; empty for older files): names,
  // formats and entries checked, images not yet (the Context loads them,
  // runtime/hal/executable.h).
  const std::vector<bytecode::ExecutableRecord> &executables() const {
    return executables_;
  }
  // The constant table (format version 6; empty for older files), in table
  // order: each constant's bytes, aligned to kConstantAlignment.
  const std::vector<ModuleConstant> &constants() const { return constants_; }
  static constexpr size_t kConstantAlignment = 64;
  // Null if absent.
  const Function *lookupFunction(std::string_view name) const;
  // The module initializer (kInitializerFunctionName), or null.
  const Function *initializer() const;
  // One more than the highest global index the code uses.
  uint32_t globalCount() const { return globalCount_; }
  // "'a', 'b'" for "unknown function" messages.
  std::string functionNamesString() const;

private:
  uint32_t formatVersion_ = 0;
  uint64_t payloadBytes_ = 0;
  uint64_t payloadChecksum_ = 0;
  std::vector<std::string> strings_;
  std::vector<std::string> deviceNames_;
  std::vector<Import> imports_;
  std::vector<Function> functions_;
  std::vector<bytecode::ExecutableRecord> executables_;
  std::vector<ModuleConstant> constants_;
  uint32_t globalCount_ = 0;
};

} // namespace ferry::vm

#endif // FERRY_RUNTIME_VM_MODULE_H_
