// Writing the bytecode format (bytecode_format.h): the one byte writer and
// instruction encoder shared by the compiler's module writer
// (compiler/Target/Bytecode) and the tests' module builder
// (runtime/vm/testing/bytecode_writer.h). Header-only plain C++ so both sides
// can use it without linking the VM.
//
// Instructions are given in the loader's decoded form (module.h): one int64
// per scalar operand, and a list as its count followed by its elements'
// fields. The encoder takes each operand's width from the opcode table, so a
// writer never spells a layout out by hand.
//
// Ownership/threads: plain single-threaded values.
#ifndef FERRY_RUNTIME_VM_BYTECODE_ENCODER_H_
#define FERRY_RUNTIME_VM_BYTECODE_ENCODER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/vm/bytecode_format.h"

namespace ferry::vm::bytecode {

// A growable byte buffer that writes integers little-endian byte by byte, so
// the file layout never depends on the host's endianness or struct padding.
class ByteWriter {
public:
  void appendU8(uint8_t value) { bytes_.push_back(value); }
  void appendU16(uint16_t value) { appendLittleEndian(value, 2); }
  void appendU32(uint32_t value) { appendLittleEndian(value, 4); }
  void appendU64(uint64_t value) { appendLittleEndian(value, 8); }
  void append(std::span<const uint8_t> bytes) {
    bytes_.insert(bytes_.end(), bytes.begin(), bytes.end());
  }
  void append(std::string_view text) {
    bytes_.insert(bytes_.end(), text.begin(), text.end());
  }
  // Overwrites the 4 bytes at `offset` (a placeholder appended earlier).
  void patchU32(size_t offset, uint32_t value) {
    for (size_t i = 0; i < 4; ++i)
      bytes_[offset + i] = uint8_t(value >> (8 * i));
  }
  void truncate(size_t size) { bytes_.resize(size); }

  size_t size() const { return bytes_.size(); }
  const uint8_t *data() const { return bytes_.data(); }
  std::span<const uint8_t> bytes() const { return bytes_; }
  std::vector<uint8_t> take() { return std::move(bytes_); }

private:
  void appendLittleEndian(uint64_t value, size_t byteCount) {
    for (size_t i = 0; i < byteCount; ++i)
      bytes_.push_back(uint8_t(value >> (8 * i)));
  }

  std::vector<uint8_t> bytes_;
};

// An import's or a function's register kinds: count:u16 then one u8 each,
// arguments first.
inline void appendSignature(ByteWriter &out,
                            std::span<const RegisterKind> arguments,
                            std::span<const RegisterKind> results) {
  for (std::span<const RegisterKind> kinds : {arguments, results}) {
    out.appendU16(uint16_t(kinds.size()));
    for (RegisterKind kind : kinds)
      out.appendU8(uint8_t(kind));
  }
}

// The whole file: the header (magic, `version`, payload size and checksum)
// followed by `payload`.
inline std::vector<uint8_t> sealModule(std::span<const uint8_t> payload,
                                       uint32_t version = kFormatVersion) {
  ByteWriter out;
  out.append(std::string_view(kMagic, sizeof(kMagic)));
  out.appendU32(version);
  out.appendU32(/*reserved=*/0);
  out.appendU64(payload.size());
  out.appendU64(fnv1a64(payload.data(), payload.size()));
  out.append(payload);
  return out.take();
}

// One entry point of an executable (bytecode_format.h "Entry").
struct EntryRecord {
  std::string name; // the exported symbol
  uint16_t pushConstantCount = 0;
  std::vector<uint8_t> bindingAccess; // BindingAccess per binding
  EntryKind kind = kEntryCompute;
};

// One executable of the executable table (bytecode_format.h "Executable").
// The loader gives back the same records (Module::executables()).
struct ExecutableRecord {
  std::string name;        // the compiler's symbol, for errors
  std::string format;      // "elf-x86_64" or "elf-aarch64"
  std::string cpuFeatures; // "avx,avx2,fma" (runtime/hal/cpu_features.h)
  std::vector<EntryRecord> entries;
  std::vector<uint8_t> image; // the ELF shared object
};

// Appends the executable table (count, then each executable) to `out`,
// turning names into string indices with `intern` (the writer's string
// table; call this before the string table is written). Fails, leaving
// `out` as it was, when a count does not fit its field. It does not check
// names, formats or access bytes: the loader does. `version` below
// kFirstEntryKindVersion leaves out the entry kinds (tests of older files).
inline Status
appendExecutableTable(ByteWriter &out,
                      std::span<const ExecutableRecord> executables,
                      const std::function<uint32_t(std::string_view)> &intern,
                      uint32_t version = kFormatVersion) {
  size_t start = out.size();
  auto fail = [&](auto &&...why) {
    out.truncate(start);
    return invalidArgument(why...);
  };
  if (executables.size() > UINT32_MAX)
    return fail(executables.size(), " executables do not fit 32 bits");
  out.appendU32(uint32_t(executables.size()));
  for (const ExecutableRecord &executable : executables) {
    out.appendU32(intern(executable.name));
    out.appendU32(intern(executable.format));
    out.appendU32(intern(executable.cpuFeatures));
    if (executable.entries.size() > UINT16_MAX)
      return fail("executable '", executable.name,
                  "': ", executable.entries.size(),
                  " entries do not fit 16 bits");
    out.appendU16(uint16_t(executable.entries.size()));
    for (const EntryRecord &entry : executable.entries) {
      out.appendU32(intern(entry.name));
      if (version >= kFirstEntryKindVersion)
        out.appendU8(entry.kind);
      out.appendU16(entry.pushConstantCount);
      if (entry.bindingAccess.size() > UINT16_MAX)
        return fail("executable '", executable.name, "' entry '", entry.name,
                    "': ", entry.bindingAccess.size(),
                    " bindings do not fit 16 bits");
      out.appendU16(uint16_t(entry.bindingAccess.size()));
      out.append(entry.bindingAccess);
    }
    out.appendU64(executable.image.size());
    out.append(executable.image);
  }
  return okStatus();
}

// Appends the constant table (count, then each constant's length and
// bytes) to `out`.
inline void
appendConstantTable(ByteWriter &out,
                    std::span<const std::span<const uint8_t>> constants) {
  out.appendU32(uint32_t(constants.size()));
  for (std::span<const uint8_t> constant : constants) {
    out.appendU64(constant.size());
    out.append(constant);
  }
}

namespace detail {

// Appends `value` as `bytes` little-endian bytes if it fits them unsigned.
inline bool appendFitting(ByteWriter &out, int64_t value, size_t bytes) {
  if (bytes < 8 && (value < 0 || uint64_t(value) >> (8 * bytes)))
    return false;
  for (size_t i = 0; i < bytes; ++i)
    out.appendU8(uint8_t(uint64_t(value) >> (8 * i)));
  return true;
}

inline size_t scalarBytes(OperandShape shape) {
  switch (shape) {
  case OperandShape::kU8:
    return 1;
  case OperandShape::kU16:
    return 2;
  case OperandShape::kU64:
    return 8;
  default:
    return 4;
  }
}

} // namespace detail

// Appends `opcode` and its `operands` (decoded form) to `out`. Branch targets
// are written as given (byte offsets); when `targetPositions` is not null the
// position of each target field in `out` is appended to it, in operand
// order, for a writer that patches forward targets once it knows them.
// Fails, leaving `out` as it was, when the operands do not match the layout
// or a value does not fit its field (e.g. a list of more than 65535).
inline Status
encodeInstruction(ByteWriter &out, Opcode opcode,
                  std::span<const int64_t> operands,
                  std::vector<size_t> *targetPositions = nullptr) {
  const OpcodeInfo &info = opcodeInfo(opcode);
  size_t start = out.size();
  size_t firstTarget = targetPositions ? targetPositions->size() : 0;
  size_t next = 0;
  auto fail = [&](std::string_view operand, auto &&...why) {
    out.truncate(start);
    if (targetPositions)
      targetPositions->resize(firstTarget);
    return invalidArgument(info.mnemonic, ": ", operand, ": ", why...);
  };
  auto take = [&]() -> std::optional<int64_t> {
    if (next == operands.size())
      return std::nullopt;
    return operands[next++];
  };
  out.appendU8(uint8_t(opcode));
  for (const OperandSpec &spec : info.operands) {
    OperandShape shape = operandShape(spec.kind);
    std::optional<int64_t> value = take();
    if (!value)
      return fail(spec.name, "missing (the layout has more operands)");
    if (shape == OperandShape::kU8 || shape == OperandShape::kU16 ||
        shape == OperandShape::kU32 || shape == OperandShape::kU64) {
      if (spec.kind == OperandKind::kTarget && targetPositions)
        targetPositions->push_back(out.size());
      if (!detail::appendFitting(out, *value, detail::scalarBytes(shape)))
        return fail(spec.name, "value ", *value, " does not fit ",
                    8 * detail::scalarBytes(shape), " bits");
      continue;
    }
    // A list: the count, then each element's fields.
    if (!detail::appendFitting(out, *value, 2))
      return fail(spec.name, "count ", *value, " does not fit 16 bits");
    // Field widths of one element: (register) or (kind, register) or
    // (kind, dst, src).
    static constexpr size_t kRegisterFields[] = {2};
    static constexpr size_t kKindedFields[] = {1, 2};
    static constexpr size_t kMoveFields[] = {1, 2, 2};
    std::span<const size_t> fields = kMoveFields;
    if (shape == OperandShape::kRegisterList)
      fields = kRegisterFields;
    else if (shape == OperandShape::kKindedRegisters)
      fields = kKindedFields;
    for (int64_t i = 0; i < *value; ++i) {
      for (size_t width : fields) {
        std::optional<int64_t> field = take();
        if (!field)
          return fail(spec.name, "element ", i, " is missing");
        if (!detail::appendFitting(out, *field, width))
          return fail(spec.name, "element ", i, " field ", *field,
                      " does not fit ", 8 * width, " bits");
      }
    }
  }
  if (next != operands.size())
    return fail("operands", operands.size() - next,
                " more than the layout has");
  return okStatus();
}

} // namespace ferry::vm::bytecode

#endif // FERRY_RUNTIME_VM_BYTECODE_ENCODER_H_
