// BytecodeWriter: builds .fvm modules by hand, for tests only.
//
// Tests describe a module instruction by instruction and get the file bytes
// back; finish() fills in the header (payload size, checksum). Nothing is
// validated here on purpose, so tests can also build broken modules for the
// loader to reject. Branches take either a Label (bound to an offset later,
// patched when the payload is written) or a raw byte offset.
//
// Ownership/threads: a plain single-threaded builder.
#ifndef FERRY_RUNTIME_VM_TESTING_BYTECODE_WRITER_H_
#define FERRY_RUNTIME_VM_TESTING_BYTECODE_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/hal/builtin_kernels.h"
#include "runtime/hal/element_type.h"
#include "runtime/vm/bytecode_format.h"

namespace ferry::vm::testing {

using bytecode::CmpPredicate;
using bytecode::kNoRegister;
using bytecode::Opcode;
using bytecode::RegisterKind;
using hal::BuiltinKernel;

inline void appendU8(std::vector<uint8_t> &out, uint8_t v) { out.push_back(v); }
inline void appendU16(std::vector<uint8_t> &out, uint16_t v) {
  for (int i = 0; i < 2; ++i)
    out.push_back(uint8_t(v >> (8 * i)));
}
inline void appendU32(std::vector<uint8_t> &out, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    out.push_back(uint8_t(v >> (8 * i)));
}
inline void appendU64(std::vector<uint8_t> &out, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    out.push_back(uint8_t(v >> (8 * i)));
}
// An import's or a function's register kinds: count:u16 then one u8 each,
// arguments first.
inline void appendSignature(std::vector<uint8_t> &out,
                            const std::vector<RegisterKind> &args,
                            const std::vector<RegisterKind> &results) {
  for (const std::vector<RegisterKind> *kinds : {&args, &results}) {
    appendU16(out, uint16_t(kinds->size()));
    for (RegisterKind k : *kinds)
      appendU8(out, uint8_t(k));
  }
}

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

    FunctionBuilder &op(Opcode opcode) {
      appendU8(code, uint8_t(opcode));
      return *this;
    }
    FunctionBuilder &u8(uint8_t v) { return appendU8(code, v), *this; }
    FunctionBuilder &u16(uint16_t v) { return appendU16(code, v), *this; }
    FunctionBuilder &u32(uint32_t v) { return appendU32(code, v), *this; }
    FunctionBuilder &u64(uint64_t v) { return appendU64(code, v), *this; }

    FunctionBuilder &constI64(uint16_t dst, int64_t value) {
      return op(Opcode::kConstI64).u16(dst).u64(uint64_t(value));
    }
    FunctionBuilder &binaryI64(Opcode opcode, uint16_t dst, uint16_t lhs,
                               uint16_t rhs) {
      return op(opcode).u16(dst).u16(lhs).u16(rhs);
    }
    // (kind, register) pairs.
    FunctionBuilder &
    ret(std::initializer_list<std::pair<RegisterKind, uint16_t>> values) {
      op(Opcode::kReturn);
      return registerList(values);
    }
    FunctionBuilder &fail(uint32_t message) {
      return op(Opcode::kFail).u32(message);
    }
    FunctionBuilder &assertTrue(uint16_t condition, uint32_t message) {
      return op(Opcode::kAssert).u16(condition).u32(message);
    }
    FunctionBuilder &cmp(CmpPredicate predicate, uint16_t dst, uint16_t lhs,
                         uint16_t rhs) {
      return op(Opcode::kCmpI64)
          .u16(dst)
          .u8(uint8_t(predicate))
          .u16(lhs)
          .u16(rhs);
    }
    // select.i64 (kind kI64) or select.ref (kRef); the condition is an i64.
    FunctionBuilder &select(RegisterKind kind, uint16_t dst, uint16_t condition,
                            uint16_t ifTrue, uint16_t ifFalse) {
      return op(kind == RegisterKind::kI64 ? Opcode::kSelectI64
                                           : Opcode::kSelectRef)
          .u16(dst)
          .u16(condition)
          .u16(ifTrue)
          .u16(ifFalse);
    }
    FunctionBuilder &moves(std::initializer_list<Move> list) {
      u16(uint16_t(list.size()));
      for (const Move &m : list)
        u8(uint8_t(m.kind)).u16(m.dst).u16(m.src);
      return *this;
    }
    FunctionBuilder &target(Label l) {
      fixups.emplace_back(code.size(), l.id);
      return u32(0);
    }
    FunctionBuilder &br(Label to, std::initializer_list<Move> list = {}) {
      return op(Opcode::kBranch).target(to).moves(list);
    }
    // A raw byte offset, for targets the loader must reject.
    FunctionBuilder &brToOffset(uint32_t offset,
                                std::initializer_list<Move> list = {}) {
      return op(Opcode::kBranch).u32(offset).moves(list);
    }
    FunctionBuilder &condBr(uint16_t condition, Label ifTrue,
                            std::initializer_list<Move> trueMoves,
                            Label ifFalse,
                            std::initializer_list<Move> falseMoves) {
      op(Opcode::kCondBranch).u16(condition).target(ifTrue).moves(trueMoves);
      return target(ifFalse).moves(falseMoves);
    }
    // (kind, register) pairs for the arguments and results.
    FunctionBuilder &
    call(uint32_t function,
         std::initializer_list<std::pair<RegisterKind, uint16_t>> args,
         std::initializer_list<std::pair<RegisterKind, uint16_t>> results) {
      op(Opcode::kCall).u32(function);
      return registerList(args).registerList(results);
    }
    FunctionBuilder &deviceGet(uint16_t dst, uint32_t device) {
      return op(Opcode::kDeviceGet).u16(dst).u32(device);
    }
    FunctionBuilder &viewDim(uint16_t dst, uint16_t view, uint32_t index) {
      return op(Opcode::kBufferViewDim).u16(dst).u16(view).u32(index);
    }
    FunctionBuilder &viewAssert(uint16_t view, hal::ElementType type,
                                std::initializer_list<uint16_t> dims,
                                uint32_t message) {
      op(Opcode::kBufferViewAssert).u16(view).u32(uint32_t(type));
      u16(uint16_t(dims.size()));
      for (uint16_t d : dims)
        u16(d);
      return u32(message);
    }
    FunctionBuilder &viewBuffer(uint16_t dst, uint16_t view) {
      return op(Opcode::kBufferViewBuffer).u16(dst).u16(view);
    }
    FunctionBuilder &viewCreate(uint16_t dst, uint16_t buffer,
                                hal::ElementType type,
                                std::initializer_list<uint16_t> dims) {
      op(Opcode::kBufferViewCreate).u16(dst).u16(buffer).u32(uint32_t(type));
      u16(uint16_t(dims.size()));
      for (uint16_t d : dims)
        u16(d);
      return *this;
    }
    FunctionBuilder &bufferLength(uint16_t dst, uint16_t buffer) {
      return op(Opcode::kBufferLength).u16(dst).u16(buffer);
    }
    FunctionBuilder &fenceCreate(uint16_t dst, uint16_t device) {
      return op(Opcode::kFenceCreate).u16(dst).u16(device);
    }
    FunctionBuilder &fenceAwait(std::initializer_list<uint16_t> fences) {
      op(Opcode::kFenceAwait).u16(uint16_t(fences.size()));
      for (uint16_t f : fences)
        u16(f);
      return *this;
    }
    FunctionBuilder &fenceJoin(uint16_t dst,
                               std::initializer_list<uint16_t> fences) {
      op(Opcode::kFenceJoin).u16(dst).u16(uint16_t(fences.size()));
      for (uint16_t f : fences)
        u16(f);
      return *this;
    }
    FunctionBuilder &queueAlloca(uint16_t dst, uint16_t device, uint16_t wait,
                                 uint16_t signal, uint16_t memoryType,
                                 uint16_t usage, uint16_t size,
                                 uint32_t flags = 0) {
      return op(Opcode::kQueueAlloca)
          .u16(dst)
          .u16(device)
          .u16(wait)
          .u16(signal)
          .u16(memoryType)
          .u16(usage)
          .u16(size)
          .u32(flags);
    }
    FunctionBuilder &queueDealloca(uint16_t device, uint16_t wait,
                                   uint16_t signal, uint16_t buffer,
                                   uint32_t flags = 0) {
      return op(Opcode::kQueueDealloca)
          .u16(device)
          .u16(wait)
          .u16(signal)
          .u16(buffer)
          .u32(flags);
    }
    FunctionBuilder &queueDispatch(uint16_t device, uint16_t wait,
                                   uint16_t signal, BuiltinKernel kernel,
                                   hal::ElementType type, uint16_t count,
                                   std::initializer_list<uint16_t> bindings) {
      op(Opcode::kQueueDispatch).u16(device).u16(wait).u16(signal);
      u32(uint32_t(kernel)).u32(uint32_t(type)).u16(count);
      u16(uint16_t(bindings.size()));
      for (uint16_t b : bindings)
        u16(b);
      return *this;
    }
    FunctionBuilder &queueFill(uint16_t device, uint16_t wait, uint16_t signal,
                               uint16_t target, uint16_t offset,
                               uint16_t length, uint16_t pattern,
                               uint8_t patternBytes) {
      return op(Opcode::kQueueFill)
          .u16(device)
          .u16(wait)
          .u16(signal)
          .u16(target)
          .u16(offset)
          .u16(length)
          .u16(pattern)
          .u8(patternBytes);
    }
    FunctionBuilder &queueCopy(uint16_t device, uint16_t wait, uint16_t signal,
                               uint16_t source, uint16_t sourceOffset,
                               uint16_t target, uint16_t targetOffset,
                               uint16_t length) {
      return op(Opcode::kQueueCopy)
          .u16(device)
          .u16(wait)
          .u16(signal)
          .u16(source)
          .u16(sourceOffset)
          .u16(target)
          .u16(targetOffset)
          .u16(length);
    }
    FunctionBuilder &queueDeallocaIf(uint16_t device, uint16_t wait,
                                     uint16_t signal, uint16_t buffer,
                                     uint32_t flags, uint16_t condition) {
      return op(Opcode::kQueueDeallocaIf)
          .u16(device)
          .u16(wait)
          .u16(signal)
          .u16(buffer)
          .u32(flags)
          .u16(condition);
    }
    // (kind, register) pairs for the arguments and results.
    FunctionBuilder &callImport(
        uint32_t import,
        std::initializer_list<std::pair<RegisterKind, uint16_t>> args,
        std::initializer_list<std::pair<RegisterKind, uint16_t>> results) {
      op(Opcode::kCallImport).u32(import);
      return registerList(args).registerList(results);
    }
    // count:u16 then count x (kind:u8 reg:u16), as calls and returns list
    // their registers.
    FunctionBuilder &registerList(
        std::initializer_list<std::pair<RegisterKind, uint16_t>> list) {
      u16(uint16_t(list.size()));
      for (auto [kind, reg] : list)
        u8(uint8_t(kind)).u16(reg);
      return *this;
    }
    FunctionBuilder &bufferPreserve(uint16_t buffer) {
      return op(Opcode::kBufferPreserve).u16(buffer);
    }
    FunctionBuilder &bufferDiscard(uint16_t dst, uint16_t buffer) {
      return op(Opcode::kBufferDiscard).u16(dst).u16(buffer);
    }
    FunctionBuilder &bufferIsTerminal(uint16_t dst, uint16_t buffer) {
      return op(Opcode::kBufferIsTerminal).u16(dst).u16(buffer);
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

  std::vector<uint8_t> payload() const {
    std::vector<uint8_t> out;
    appendU32(out, uint32_t(strings_.size()));
    for (const std::string &s : strings_) {
      appendU32(out, uint32_t(s.size()));
      out.insert(out.end(), s.begin(), s.end());
    }
    appendU32(out, uint32_t(devices_.size()));
    for (uint32_t d : devices_)
      appendU32(out, d);
    appendU32(out, uint32_t(imports_.size()));
    for (const ImportEntry &i : imports_) {
      appendU32(out, i.name);
      appendSignature(out, i.args, i.results);
      appendU32(out, i.flags);
    }
    appendU32(out, uint32_t(functions_.size()));
    for (const FunctionBuilder &f : functions_) {
      appendU32(out, indexOf(f.name));
      appendSignature(out, f.args, f.results);
      appendU16(out, f.i64Count);
      appendU16(out, f.refCount);
      std::vector<uint8_t> code = f.resolvedCode();
      appendU32(out, uint32_t(code.size()));
      out.insert(out.end(), code.begin(), code.end());
    }
    return out;
  }

  // The whole file: header + payload.
  std::vector<uint8_t>
  finish(uint32_t version = bytecode::kFormatVersion) const {
    return withHeader(payload(), version);
  }

  static std::vector<uint8_t>
  withHeader(const std::vector<uint8_t> &payload,
             uint32_t version = bytecode::kFormatVersion) {
    std::vector<uint8_t> out(bytecode::kMagic,
                             bytecode::kMagic + sizeof(bytecode::kMagic));
    appendU32(out, version);
    appendU32(out, 0);
    appendU64(out, payload.size());
    appendU64(out, bytecode::fnv1a64(payload.data(), payload.size()));
    out.insert(out.end(), payload.begin(), payload.end());
    return out;
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
};

} // namespace ferry::vm::testing

#endif // FERRY_RUNTIME_VM_TESTING_BYTECODE_WRITER_H_
