// BytecodeWriter: builds .fvm modules by hand, for tests only.
//
// Tests describe a module instruction by instruction and get the file bytes
// back; finish() fills in the header (payload size, checksum). Instructions
// go through the format's one encoder (bytecode_encoder.h), so their layouts
// come from the opcode table. Nothing is validated here on purpose, so tests
// can also build broken modules for the loader to reject: raw bytes (op(),
// u8() ... u64()) write anything. Branches take either a Label (bound to an
// offset later, patched when the payload is written) or a raw byte offset.
//
// Ownership/threads: a plain single-threaded builder.
#ifndef FERRY_RUNTIME_VM_TESTING_BYTECODE_WRITER_H_
#define FERRY_RUNTIME_VM_TESTING_BYTECODE_WRITER_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/hal/builtin_kernels.h"
#include "runtime/hal/element_type.h"
#include "runtime/vm/bytecode_encoder.h"
#include "runtime/vm/bytecode_format.h"

namespace ferry::vm::testing {

using bytecode::ByteWriter;
using bytecode::CmpPredicate;
using bytecode::kNoRegister;
using bytecode::Opcode;
using bytecode::RegisterKind;
using hal::BuiltinKernel;

// One block-argument move of a branch: dst <- src, both of `kind`.
struct Move {
  RegisterKind kind;
  uint16_t dst, src;
};

// A branch target in a function under construction.
struct Label {
  size_t id;
};

class BytecodeWriter {
public:
  class FunctionBuilder {
  public:
    std::string name;
    std::vector<RegisterKind> args, results;
    uint16_t i64Count = 0, refCount = 0;
    std::vector<uint8_t> code;
    // Label id -> bound byte offset (SIZE_MAX while unbound).
    std::vector<size_t> labels;
    // (code position of a target:u32, label id) to patch.
    std::vector<std::pair<size_t, size_t>> fixups;

    Label label() {
      labels.push_back(SIZE_MAX);
      return Label{labels.size() - 1};
    }
    // Binds `l` to the next instruction written.
    FunctionBuilder &bind(Label l) {
      labels[l.id] = code.size();
      return *this;
    }
    // The byte offset the next instruction will have.
    size_t offset() const { return code.size(); }
    // The code with every label reference patched to its offset.
    std::vector<uint8_t> resolvedCode() const {
      std::vector<uint8_t> out = code;
      for (auto [at, id] : fixups)
        for (int i = 0; i < 4; ++i)
          out[at + size_t(i)] = uint8_t(labels[id] >> (8 * i));
      return out;
    }

    // Raw bytes, for code the loader must reject.
    FunctionBuilder &op(Opcode opcode) { return u8(uint8_t(opcode)); }
    FunctionBuilder &u8(uint8_t v) { return raw(v, 1); }
    FunctionBuilder &u16(uint16_t v) { return raw(v, 2); }
    FunctionBuilder &u32(uint32_t v) { return raw(v, 4); }
    FunctionBuilder &u64(uint64_t v) { return raw(v, 8); }

    // One instruction through the format's encoder: `operands` in decoded
    // form (bytecode_encoder.h), where a target:t operand is a Label id when
    // `labelTargets` is set and a raw byte offset otherwise.
    FunctionBuilder &emit(Opcode opcode, std::vector<int64_t> operands,
                          bool labelTargets = false) {
      ByteWriter bytes;
      std::vector<size_t> targets;
      Status status =
          bytecode::encodeInstruction(bytes, opcode, operands, &targets);
      if (!status.ok()) {
        std::fprintf(stderr, "BytecodeWriter: %s\n", status.toString().c_str());
        std::abort();
      }
      if (labelTargets)
        for (size_t at : targets)
          fixups.emplace_back(code.size() + at, size_t(readU32(bytes, at)));
      code.insert(code.end(), bytes.bytes().begin(), bytes.bytes().end());
      return *this;
    }

    FunctionBuilder &constI64(uint16_t dst, int64_t value) {
      return emit(Opcode::kConstI64, {dst, value});
    }
    // An integer op (add.i ... max.u.i) at `bits`.
    FunctionBuilder &binary(Opcode opcode, uint16_t dst, uint16_t lhs,
                            uint16_t rhs, uint8_t bits = 64) {
      return emit(opcode, {dst, lhs, rhs, bits});
    }
    // (kind, register) pairs.
    FunctionBuilder &
    ret(std::initializer_list<std::pair<RegisterKind, uint16_t>> values) {
      return emit(Opcode::kReturn, registerList({}, values));
    }
    FunctionBuilder &fail(uint32_t message) {
      return emit(Opcode::kFail, {message});
    }
    FunctionBuilder &assertTrue(uint16_t condition, uint32_t message) {
      return emit(Opcode::kAssert, {condition, message});
    }
    FunctionBuilder &cmp(CmpPredicate predicate, uint16_t dst, uint16_t lhs,
                         uint16_t rhs, uint8_t bits = 64) {
      return emit(Opcode::kCmpI, {dst, int64_t(predicate), lhs, rhs, bits});
    }
    // select.i64 (kind kI64) or select.ref (kRef); the condition is an i64.
    FunctionBuilder &select(RegisterKind kind, uint16_t dst, uint16_t condition,
                            uint16_t ifTrue, uint16_t ifFalse) {
      return emit(kind == RegisterKind::kI64 ? Opcode::kSelectI64
                                             : Opcode::kSelectRef,
                  {dst, condition, ifTrue, ifFalse});
    }
    // A move list in raw bytes, after a hand-written branch.
    FunctionBuilder &moves(std::initializer_list<Move> list) {
      u16(uint16_t(list.size()));
      for (const Move &m : list)
        u8(uint8_t(m.kind)).u16(m.dst).u16(m.src);
      return *this;
    }
    // A Label as a raw target:u32, after a hand-written branch.
    FunctionBuilder &target(Label l) {
      fixups.emplace_back(code.size(), l.id);
      return u32(0);
    }
    FunctionBuilder &br(Label to, std::initializer_list<Move> list = {}) {
      return emit(Opcode::kBranch, edge({}, int64_t(to.id), list),
                  /*labelTargets=*/true);
    }
    // A raw byte offset, for targets the loader must reject.
    FunctionBuilder &brToOffset(uint32_t offset,
                                std::initializer_list<Move> list = {}) {
      return emit(Opcode::kBranch, edge({}, offset, list));
    }
    FunctionBuilder &condBr(uint16_t condition, Label ifTrue,
                            std::initializer_list<Move> trueMoves,
                            Label ifFalse,
                            std::initializer_list<Move> falseMoves) {
      std::vector<int64_t> operands = {condition};
      edge(operands, int64_t(ifTrue.id), trueMoves);
      edge(operands, int64_t(ifFalse.id), falseMoves);
      return emit(Opcode::kCondBranch, std::move(operands),
                  /*labelTargets=*/true);
    }
    // (kind, register) pairs for the arguments and results.
    FunctionBuilder &
    call(uint32_t function,
         std::initializer_list<std::pair<RegisterKind, uint16_t>> args,
         std::initializer_list<std::pair<RegisterKind, uint16_t>> results) {
      return emit(Opcode::kCall,
                  registerList(registerList({function}, args), results));
    }
    FunctionBuilder &deviceGet(uint16_t dst, uint32_t device) {
      return emit(Opcode::kDeviceGet, {dst, device});
    }
    FunctionBuilder &viewDim(uint16_t dst, uint16_t view, uint32_t index) {
      return emit(Opcode::kBufferViewDim, {dst, view, index});
    }
    FunctionBuilder &viewAssert(uint16_t view, hal::ElementType type,
                                std::initializer_list<uint16_t> dims,
                                uint32_t message) {
      std::vector<int64_t> operands =
          list({view, int64_t(uint32_t(type))}, dims);
      operands.push_back(message);
      return emit(Opcode::kBufferViewAssert, std::move(operands));
    }
    FunctionBuilder &viewBuffer(uint16_t dst, uint16_t view) {
      return emit(Opcode::kBufferViewBuffer, {dst, view});
    }
    FunctionBuilder &viewCreate(uint16_t dst, uint16_t buffer,
                                hal::ElementType type,
                                std::initializer_list<uint16_t> dims) {
      return emit(Opcode::kBufferViewCreate,
                  list({dst, buffer, int64_t(uint32_t(type))}, dims));
    }
    FunctionBuilder &bufferLength(uint16_t dst, uint16_t buffer) {
      return emit(Opcode::kBufferLength, {dst, buffer});
    }
    FunctionBuilder &fenceCreate(uint16_t dst, uint16_t device) {
      return emit(Opcode::kFenceCreate, {dst, device});
    }
    FunctionBuilder &fenceAwait(std::initializer_list<uint16_t> fences) {
      return emit(Opcode::kFenceAwait, list({}, fences));
    }
    FunctionBuilder &fenceJoin(uint16_t dst,
                               std::initializer_list<uint16_t> fences) {
      return emit(Opcode::kFenceJoin, list({dst}, fences));
    }
    FunctionBuilder &queueAlloca(uint16_t dst, uint16_t device, uint16_t wait,
                                 uint16_t signal, uint16_t memoryType,
                                 uint16_t usage, uint16_t size,
                                 uint32_t flags = 0) {
      return emit(Opcode::kQueueAlloca,
                  {dst, device, wait, signal, memoryType, usage, size, flags});
    }
    FunctionBuilder &queueDealloca(uint16_t device, uint16_t wait,
                                   uint16_t signal, uint16_t buffer,
                                   uint32_t flags = 0) {
      return emit(Opcode::kQueueDealloca,
                  {device, wait, signal, buffer, flags});
    }
    FunctionBuilder &queueDispatch(uint16_t device, uint16_t wait,
                                   uint16_t signal, BuiltinKernel kernel,
                                   hal::ElementType type, uint16_t count,
                                   std::initializer_list<uint16_t> bindings) {
      return emit(Opcode::kQueueDispatch,
                  list({device, wait, signal, int64_t(uint32_t(kernel)),
                        int64_t(uint32_t(type)), count},
                       bindings));
    }
    FunctionBuilder &deviceConstant(uint16_t dst, uint16_t device,
                                    uint32_t constant) {
      return emit(Opcode::kDeviceConstant, {dst, device, constant});
    }
    FunctionBuilder &queueFill(uint16_t device, uint16_t wait, uint16_t signal,
                               uint16_t target, uint16_t offset,
                               uint16_t length, uint16_t pattern,
                               uint8_t patternBytes) {
      return emit(Opcode::kQueueFill, {device, wait, signal, target, offset,
                                       length, pattern, patternBytes});
    }
    FunctionBuilder &queueCopy(uint16_t device, uint16_t wait, uint16_t signal,
                               uint16_t source, uint16_t sourceOffset,
                               uint16_t target, uint16_t targetOffset,
                               uint16_t length) {
      return emit(Opcode::kQueueCopy,
                  {device, wait, signal, source, sourceOffset, target,
                   targetOffset, length});
    }
    FunctionBuilder &queueDeallocaIf(uint16_t device, uint16_t wait,
                                     uint16_t signal, uint16_t buffer,
                                     uint32_t flags, uint16_t condition) {
      return emit(Opcode::kQueueDeallocaIf,
                  {device, wait, signal, buffer, flags, condition});
    }
    // hal.device.queue.dispatch.entry: `bindings` are (buffer, offset,
    // length) register triples.
    FunctionBuilder &queueDispatchEntry(
        uint16_t device, uint16_t wait, uint16_t signal, uint32_t executable,
        uint32_t entry, uint16_t workgroupsX, uint16_t workgroupsY,
        uint16_t workgroupsZ, std::initializer_list<uint16_t> pushConstants,
        std::initializer_list<std::array<uint16_t, 3>> bindings) {
      std::vector<int64_t> operands =
          list({device, wait, signal, executable, entry, workgroupsX,
                workgroupsY, workgroupsZ},
               pushConstants);
      for (size_t field = 0; field < 3; ++field) {
        operands.push_back(int64_t(bindings.size()));
        for (const std::array<uint16_t, 3> &binding : bindings)
          operands.push_back(binding[field]);
      }
      return emit(Opcode::kQueueDispatchEntry, std::move(operands));
    }
    // (kind, register) pairs for the arguments and results.
    FunctionBuilder &callImport(
        uint32_t import,
        std::initializer_list<std::pair<RegisterKind, uint16_t>> args,
        std::initializer_list<std::pair<RegisterKind, uint16_t>> results) {
      return emit(Opcode::kCallImport,
                  registerList(registerList({import}, args), results));
    }
    FunctionBuilder &bufferPreserve(uint16_t buffer) {
      return emit(Opcode::kBufferPreserve, {buffer});
    }
    FunctionBuilder &bufferDiscard(uint16_t dst, uint16_t buffer) {
      return emit(Opcode::kBufferDiscard, {dst, buffer});
    }
    FunctionBuilder &bufferIsTerminal(uint16_t dst, uint16_t buffer) {
      return emit(Opcode::kBufferIsTerminal, {dst, buffer});
    }
    FunctionBuilder &bufferClaim(uint16_t dst, uint16_t device,
                                 uint16_t buffer) {
      return emit(Opcode::kBufferClaim, {dst, device, buffer});
    }
    FunctionBuilder &bufferLoad(uint16_t dst, uint16_t buffer, uint16_t offset,
                                hal::ElementType type) {
      return emit(Opcode::kBufferLoad,
                  {dst, buffer, offset, int64_t(uint32_t(type))});
    }

  private:
    FunctionBuilder &raw(uint64_t value, size_t bytes) {
      for (size_t i = 0; i < bytes; ++i)
        code.push_back(uint8_t(value >> (8 * i)));
      return *this;
    }
    static uint32_t readU32(const ByteWriter &bytes, size_t at) {
      uint32_t value = 0;
      for (size_t i = 0; i < 4; ++i)
        value |= uint32_t(bytes.data()[at + i]) << (8 * i);
      return value;
    }
    // `operands` followed by a register list (count, then each register).
    static std::vector<int64_t> list(std::vector<int64_t> operands,
                                     std::initializer_list<uint16_t> regs) {
      operands.push_back(int64_t(regs.size()));
      operands.insert(operands.end(), regs.begin(), regs.end());
      return operands;
    }
    // `operands` followed by a kinded register list (count, then each
    // (kind, register)), as calls and returns list their registers.
    static std::vector<int64_t> registerList(
        std::vector<int64_t> operands,
        std::initializer_list<std::pair<RegisterKind, uint16_t>> regs) {
      operands.push_back(int64_t(regs.size()));
      for (auto [kind, reg] : regs) {
        operands.push_back(int64_t(kind));
        operands.push_back(reg);
      }
      return operands;
    }
    // `operands` followed by a branch edge: target, then its move list.
    static std::vector<int64_t> &edge(std::vector<int64_t> &operands,
                                      int64_t target,
                                      std::initializer_list<Move> moves) {
      operands.push_back(target);
      operands.push_back(int64_t(moves.size()));
      for (const Move &m : moves) {
        operands.push_back(int64_t(m.kind));
        operands.push_back(m.dst);
        operands.push_back(m.src);
      }
      return operands;
    }
    static std::vector<int64_t> edge(std::vector<int64_t> &&operands,
                                     int64_t target,
                                     std::initializer_list<Move> moves) {
      return std::move(edge(operands, target, moves));
    }
  };

  struct ImportEntry {
    uint32_t name;
    std::vector<RegisterKind> args, results;
    uint32_t flags;
  };

  // Interns a string; returns its index.
  uint32_t string(std::string_view text) {
    for (size_t i = 0; i < strings_.size(); ++i)
      if (strings_[i] == text)
        return uint32_t(i);
    strings_.emplace_back(text);
    return uint32_t(strings_.size() - 1);
  }
  uint32_t device(std::string_view name) {
    devices_.push_back(string(name));
    return uint32_t(devices_.size() - 1);
  }
  // Declares an import ("module.function"); returns its index.
  uint32_t import(std::string_view name, std::vector<RegisterKind> args,
                  std::vector<RegisterKind> results, uint32_t flags = 0) {
    imports_.push_back(
        ImportEntry{string(name), std::move(args), std::move(results), flags});
    return uint32_t(imports_.size() - 1);
  }
  // Adds an executable (its names are interned when the payload is
  // written); returns its index.
  uint32_t executable(bytecode::ExecutableRecord record) {
    executables_.push_back(std::move(record));
    return uint32_t(executables_.size() - 1);
  }
  // Adds a constant (the constant table's next entry); returns its index.
  uint32_t constant(std::vector<uint8_t> bytes) {
    constants_.push_back(std::move(bytes));
    return uint32_t(constants_.size() - 1);
  }
  // Replaces the encoded executable table (count included) and the constant
  // table after it with raw bytes, for tables the loader must reject.
  void rawExecutableTable(std::vector<uint8_t> bytes) {
    rawExecutableTable_ = std::move(bytes);
  }
  // The returned reference stays valid as more functions are added.
  FunctionBuilder &function(std::string_view name,
                            std::vector<RegisterKind> args,
                            std::vector<RegisterKind> results,
                            uint16_t i64Count, uint16_t refCount) {
    string(name);
    FunctionBuilder &f = functions_.emplace_back();
    f.name = std::string(name);
    f.args = std::move(args);
    f.results = std::move(results);
    f.i64Count = i64Count;
    f.refCount = refCount;
    return f;
  }

  // The payload as format `version` writes it: the executable table only
  // from kFirstExecutableTableVersion on.
  std::vector<uint8_t>
  payload(uint32_t version = bytecode::kFormatVersion) const {
    // Executable names go into the string table, so encode them first.
    std::vector<std::string> strings = strings_;
    ByteWriter executables;
    auto intern = [&](std::string_view text) {
      for (size_t i = 0; i < strings.size(); ++i)
        if (strings[i] == text)
          return uint32_t(i);
      strings.emplace_back(text);
      return uint32_t(strings.size() - 1);
    };
    if (rawExecutableTable_) {
      executables.append(*rawExecutableTable_);
    } else {
      Status status = bytecode::appendExecutableTable(executables, executables_,
                                                      intern, version);
      if (!status.ok()) {
        std::fprintf(stderr, "BytecodeWriter: %s\n", status.toString().c_str());
        std::abort();
      }
    }
    ByteWriter out;
    out.appendU32(uint32_t(strings.size()));
    for (const std::string &s : strings) {
      out.appendU32(uint32_t(s.size()));
      out.append(s);
    }
    out.appendU32(uint32_t(devices_.size()));
    for (uint32_t d : devices_)
      out.appendU32(d);
    out.appendU32(uint32_t(imports_.size()));
    for (const ImportEntry &i : imports_) {
      out.appendU32(i.name);
      bytecode::appendSignature(out, i.args, i.results);
      out.appendU32(i.flags);
    }
    out.appendU32(uint32_t(functions_.size()));
    for (const FunctionBuilder &f : functions_) {
      out.appendU32(indexOf(f.name));
      bytecode::appendSignature(out, f.args, f.results);
      out.appendU16(f.i64Count);
      out.appendU16(f.refCount);
      std::vector<uint8_t> code = f.resolvedCode();
      out.appendU32(uint32_t(code.size()));
      out.append(code);
    }
    if (version >= bytecode::kFirstExecutableTableVersion) {
      out.append(executables.bytes());
      std::vector<std::span<const uint8_t>> constants(constants_.begin(),
                                                      constants_.end());
      if (!rawExecutableTable_)
        bytecode::appendConstantTable(out, constants);
    }
    return out.take();
  }

  // The whole file: header + payload.
  std::vector<uint8_t>
  finish(uint32_t version = bytecode::kFormatVersion) const {
    return withHeader(payload(version), version);
  }

  static std::vector<uint8_t>
  withHeader(const std::vector<uint8_t> &payload,
             uint32_t version = bytecode::kFormatVersion) {
    return bytecode::sealModule(payload, version);
  }

private:
  uint32_t indexOf(const std::string &text) const {
    for (size_t i = 0; i < strings_.size(); ++i)
      if (strings_[i] == text)
        return uint32_t(i);
    return 0;
  }

  std::vector<std::string> strings_;
  std::vector<uint32_t> devices_;
  std::vector<ImportEntry> imports_;
  std::deque<FunctionBuilder> functions_;
  std::vector<bytecode::ExecutableRecord> executables_;
  std::vector<std::vector<uint8_t>> constants_;
  std::optional<std::vector<uint8_t>> rawExecutableTable_;
};

} // namespace ferry::vm::testing

#endif // FERRY_RUNTIME_VM_TESTING_BYTECODE_WRITER_H_
