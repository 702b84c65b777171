#include "runtime/vm/module.h"

#include <array>
#include <cstring>
#include <functional>
#include <gtest/gtest.h>
#include <random>

#include "runtime/hal/queue_flags.h"
#include "runtime/vm/testing/sample_modules.h"

namespace ferry::vm {
namespace {

using bytecode::kNoRegister;
using testing::BytecodeWriter;
using K = RegisterKind;

std::string loadError(const std::vector<uint8_t> &file) {
  Result<Module> module = Module::load(file);
  if (module.ok())
    return "<loaded>";
  return module.status().message();
}

// A module whose single function has the given code and register counts.
std::vector<uint8_t> moduleWithCode(std::vector<uint8_t> code,
                                    uint16_t i64Count = 2,
                                    uint16_t refCount = 2,
                                    std::vector<K> results = {}) {
  BytecodeWriter w;
  w.device("d");
  auto &f = w.function("f", {}, results, i64Count, refCount);
  f.code = std::move(code);
  return w.finish();
}

TEST(ModuleTest, LoadsAValidModule) {
  std::vector<uint8_t> file = testing::buildElementwiseModule();
  Result<Module> module = Module::load(file);
  ASSERT_TRUE(module.ok()) << module.status().toString();
  EXPECT_EQ(module->formatVersion(), bytecode::kFormatVersion);
  EXPECT_EQ(module->deviceNames(), std::vector<std::string>{"device_a"});
  ASSERT_EQ(module->functions().size(), 1u);
  const Function *main = module->lookupFunction("main");
  ASSERT_NE(main, nullptr);
  EXPECT_EQ(main->signatureString(), "main(ref, ref) -> (ref)");
  EXPECT_EQ(main->instructions.front().opcode, Opcode::kBufferViewDim);
  EXPECT_EQ(main->instructions.back().opcode, Opcode::kReturn);
  EXPECT_EQ(module->lookupFunction("nope"), nullptr);
}

TEST(ModuleTest, BadMagic) {
  std::vector<uint8_t> file = testing::buildElementwiseModule();
  file[0] = 'X';
  EXPECT_NE(loadError(file).find("not a Ferry module"), std::string::npos);
  EXPECT_NE(loadError({}).find("not a Ferry module"), std::string::npos);
}

TEST(ModuleTest, Truncated) {
  std::vector<uint8_t> file = testing::buildElementwiseModule();
  size_t payload = file.size() - bytecode::kHeaderBytes;
  file.resize(file.size() - 10);
  EXPECT_EQ(loadError(file),
            strCat("module file is truncated: header says ", payload,
                   " payload bytes, file has ", payload - 10));
  file.resize(20);
  EXPECT_NE(loadError(file).find("module file is truncated"),
            std::string::npos);
}

TEST(ModuleTest, CorruptChecksum) {
  std::vector<uint8_t> file = testing::buildElementwiseModule();
  file.back() ^= 0x40;
  EXPECT_EQ(loadError(file),
            "module file is corrupt: payload checksum mismatch");
}

TEST(ModuleTest, NewerVersion) {
  BytecodeWriter w;
  w.device("d");
  EXPECT_EQ(loadError(w.finish(bytecode::kFormatVersion + 1)),
            strCat("module format version ", bytecode::kFormatVersion + 1,
                   " is newer than this runtime supports (versions 4 to ",
                   bytecode::kFormatVersion,
                   "); recompile it with a matching ferry-compile"));
}

TEST(ModuleTest, BadRegisterIndex) {
  BytecodeWriter::FunctionBuilder code;
  code.constI64(5, 1).ret({});
  EXPECT_EQ(loadError(moduleWithCode(code.code)),
            "invalid module: function 'f' at code offset 0: const.i64: dst: "
            "i64 register 5 is out of range (the function has 2)");
  BytecodeWriter::FunctionBuilder refs;
  refs.viewBuffer(0, 9).ret({});
  EXPECT_NE(loadError(moduleWithCode(refs.code)).find("ref register 9"),
            std::string::npos);
}

TEST(ModuleTest, UnknownOpcode) {
  EXPECT_EQ(loadError(moduleWithCode({0xEE})),
            "invalid module: function 'f' at code offset 0: unknown opcode "
            "0xee");
}

TEST(ModuleTest, CodeRunningOffTheEnd) {
  BytecodeWriter::FunctionBuilder code;
  code.constI64(0, 1);
  code.code.pop_back(); // immediate cut short
  EXPECT_NE(loadError(moduleWithCode(code.code))
                .find("const.i64: operands run past the end of the code"),
            std::string::npos);
  BytecodeWriter::FunctionBuilder noReturn;
  noReturn.constI64(0, 1);
  EXPECT_NE(loadError(moduleWithCode(noReturn.code))
                .find("does not end with return, fail or a branch"),
            std::string::npos);
  EXPECT_NE(loadError(moduleWithCode({})).find("has no code"),
            std::string::npos);
}

TEST(ModuleTest, ReturnMustMatchSignature) {
  BytecodeWriter::FunctionBuilder code;
  code.ret({{K::kI64, 0}});
  EXPECT_NE(loadError(moduleWithCode(code.code, 2, 2, {K::kRef}))
                .find("result 0 has register kind 0 but the function "
                      "signature says ref"),
            std::string::npos);
  EXPECT_NE(loadError(moduleWithCode(code.code, 2, 2, {}))
                .find("returns 1 values but the function signature has 0"),
            std::string::npos);
}

TEST(ModuleTest, TableIndicesChecked) {
  BytecodeWriter::FunctionBuilder code;
  code.fail(42);
  EXPECT_NE(loadError(moduleWithCode(code.code)).find("string index 42"),
            std::string::npos);
  BytecodeWriter::FunctionBuilder device;
  device.deviceGet(0, 3).ret({});
  EXPECT_NE(loadError(moduleWithCode(device.code)).find("device index 3"),
            std::string::npos);
  BytecodeWriter::FunctionBuilder type;
  type.viewCreate(0, 1, hal::ElementType(77), {}).ret({});
  EXPECT_NE(
      loadError(moduleWithCode(type.code)).find("unknown element type 77"),
      std::string::npos);
  BytecodeWriter::FunctionBuilder kernel;
  kernel
      .queueDispatch(0, bytecode::kNoRegister, 1, hal::BuiltinKernel(9),
                     hal::ElementType::kI32, 0, {})
      .ret({});
  EXPECT_NE(loadError(moduleWithCode(kernel.code))
                .find("unknown built-in "
                      "kernel 9"),
            std::string::npos);
}

TEST(ModuleTest, TrailingBytesAndDuplicateFunctions) {
  BytecodeWriter w;
  w.function("f", {}, {}, 0, 0).ret({});
  std::vector<uint8_t> payload = w.payload();
  payload.push_back(0);
  EXPECT_NE(loadError(BytecodeWriter::withHeader(payload))
                .find("1 unexpected bytes after the constant table"),
            std::string::npos);
  BytecodeWriter twice;
  twice.function("f", {}, {}, 0, 0).ret({});
  twice.function("f", {}, {}, 0, 0).ret({});
  EXPECT_NE(loadError(twice.finish()).find("function 'f' is defined twice"),
            std::string::npos);
}

// A string of the form kSignatureReflectionPrefix NAME \0 ARGS->RESULTS.
std::string reflection(std::string_view name, std::string_view types) {
  return strCat(bytecode::kSignatureReflectionPrefix, name,
                std::string_view("\0", 1), types);
}

// A module of one function "f(i64, ref) -> (i64)" and the given strings.
std::vector<uint8_t>
moduleWithReflection(std::initializer_list<std::string> strings) {
  BytecodeWriter w;
  w.function("f", {K::kI64, K::kRef}, {K::kI64}, 1, 1).ret({{K::kI64, 0}});
  for (const std::string &text : strings)
    w.string(text);
  return w.finish();
}

TEST(ModuleTest, ReadsSignatureReflection) {
  Result<Module> module =
      Module::load(moduleWithReflection({reflection("f", "f32,ref->i1")}));
  ASSERT_TRUE(module.ok()) << module.status().toString();
  const Function *f = module->lookupFunction("f");
  using bytecode::ScalarType;
  EXPECT_EQ(f->argTypes, (std::vector<std::optional<ScalarType>>{
                             ScalarType::kF32, std::nullopt}));
  EXPECT_EQ(f->resultTypes,
            (std::vector<std::optional<ScalarType>>{ScalarType::kI1}));
  // Without one, the function's i64s are untyped.
  module = Module::load(moduleWithReflection({}));
  ASSERT_TRUE(module.ok()) << module.status().toString();
  EXPECT_TRUE(module->lookupFunction("f")->argTypes.empty());
}

TEST(ModuleTest, SignatureReflectionChecked) {
  EXPECT_NE(loadError(moduleWithReflection({reflection("g", "i32->i32")}))
                .find("signature reflection names function 'g', which the "
                      "module does not define"),
            std::string::npos);
  EXPECT_NE(loadError(moduleWithReflection({reflection("f", "i32->")}))
                .find("signature reflection of 'f''s arguments names 1 types "
                      "for 2"),
            std::string::npos);
  EXPECT_NE(loadError(moduleWithReflection({reflection("f", "ref,ref->i32")}))
                .find("signature reflection of 'f''s arguments gives entry 0 "
                      "type 'ref' but its register is i64"),
            std::string::npos);
  EXPECT_NE(loadError(moduleWithReflection({reflection("f", "i32,ref->u7")}))
                .find("gives entry 0 type 'u7' but its register is i64"),
            std::string::npos);
  EXPECT_NE(loadError(moduleWithReflection({reflection("f", "i32,ref")}))
                .find("is not 'NAME\\0ARGS->RESULTS'"),
            std::string::npos);
  EXPECT_NE(loadError(moduleWithReflection({reflection("f", "i32,ref->i32"),
                                            reflection("f", "i64,ref->i64")}))
                .find("signature reflection of 'f' is given twice"),
            std::string::npos);
}

TEST(ModuleTest, ArgumentsMustFitRegisters) {
  BytecodeWriter w;
  w.function("f", {K::kRef, K::kRef}, {}, 0, 1).ret({});
  EXPECT_NE(loadError(w.finish()).find("takes 0 i64 and 2 ref arguments"),
            std::string::npos);
}

TEST(ModuleTest, OlderVersionRejected) {
  BytecodeWriter w;
  w.device("d");
  EXPECT_EQ(loadError(w.finish(1)),
            "module format version 1 is older than this runtime supports "
            "(versions 4 to 8); recompile it with a matching ferry-compile");
  // Version 3's integer ops had no width: its code would decode wrongly.
  EXPECT_EQ(loadError(w.finish(3)),
            "module format version 3 is older than this runtime supports "
            "(versions 4 to 8); recompile it with a matching ferry-compile");
  // Version 5 only added an opcode: version 4 files still load; so do
  // version 5 files, which have no executable table.
  EXPECT_EQ(loadError(w.finish(4)), "<loaded>");
  EXPECT_EQ(loadError(w.finish(5)), "<loaded>");
}

TEST(ModuleTest, LoadsTheImportTable) {
  BytecodeWriter w;
  w.device("d");
  uint32_t dbl =
      w.import("Double.function", {K::kRef, K::kRef, K::kRef, K::kRef},
               {K::kRef}, bytecode::kImportCoarseFences);
  uint32_t add = w.import("Math.add", {K::kI64, K::kI64}, {K::kI64});
  auto &f =
      w.function("f", {K::kRef, K::kRef, K::kRef, K::kRef}, {K::kI64}, 2, 5);
  f.callImport(dbl, {{K::kRef, 0}, {K::kRef, 1}, {K::kRef, 2}, {K::kRef, 3}},
               {{K::kRef, 4}})
      .callImport(add, {{K::kI64, 0}, {K::kI64, 1}}, {{K::kI64, 0}})
      .ret({{K::kI64, 0}});
  Result<Module> module = Module::load(w.finish());
  ASSERT_TRUE(module.ok()) << module.status().toString();
  ASSERT_EQ(module->imports().size(), 2u);
  const Import &import = module->imports()[0];
  EXPECT_EQ(import.name, "Double.function");
  EXPECT_EQ(import.moduleName(), "Double");
  EXPECT_EQ(import.functionName(), "function");
  EXPECT_TRUE(import.usesCoarseFences());
  EXPECT_FALSE(module->imports()[1].usesCoarseFences());
  EXPECT_EQ(import.signatureString(),
            "Double.function(ref, ref, ref, ref) -> (ref)");
  EXPECT_EQ(module->functions()[0].instructions[0].opcode, Opcode::kCallImport);
}

TEST(ModuleTest, ImportTableChecked) {
  auto importError = [](std::string_view name, std::vector<K> args,
                        std::vector<K> results, uint32_t flags) {
    BytecodeWriter w;
    w.import(name, std::move(args), std::move(results), flags);
    return loadError(w.finish());
  };
  EXPECT_EQ(importError("nodot", {}, {}, 0),
            "invalid module: import 0 is named 'nodot', not "
            "'module.function'");
  EXPECT_NE(importError(".f", {}, {}, 0).find("not 'module.function'"),
            std::string::npos);
  EXPECT_NE(importError("m.", {}, {}, 0).find("not 'module.function'"),
            std::string::npos);
  EXPECT_EQ(importError("m.f", {}, {}, 0xA),
            "invalid module: import 'm.f' has unknown flag bits 0x8");
  // New results: a (ref, i64, i64) request per result before the fences.
  constexpr uint32_t kNewResults =
      bytecode::kImportCoarseFences | bytecode::kImportResultAllocation;
  EXPECT_EQ(importError("m.f", {K::kRef, K::kI64, K::kRef, K::kRef}, {K::kRef},
                        kNewResults),
            "invalid module: import 'm.f' allocates new results but does not "
            "pass a (ref, i64, i64) request per result before its two fences "
            "(with the coarse-fences ABI): m.f(ref, i64, ref, ref) -> (ref)");
  EXPECT_NE(importError("m.f", {K::kRef, K::kI64, K::kI64, K::kRef, K::kRef},
                        {K::kRef}, bytecode::kImportResultAllocation)
                .find("allocates new results"),
            std::string::npos);
  EXPECT_EQ(
      importError("m.f", {K::kRef, K::kI64}, {}, bytecode::kImportCoarseFences),
      "invalid module: import 'm.f' uses the coarse-fences ABI but its "
      "last two arguments are not refs (the wait and signal fences): "
      "m.f(ref, i64) -> ()");
  EXPECT_NE(importError("m.f", {K::kRef}, {}, bytecode::kImportCoarseFences)
                .find("coarse-fences"),
            std::string::npos);
  {
    BytecodeWriter w;
    w.import("m.f", {}, {});
    w.import("m.f", {}, {});
    EXPECT_EQ(loadError(w.finish()),
              "invalid module: import 'm.f' is declared twice");
  }
  {
    // A kind byte that is neither i64 nor ref. The payload ends with the
    // import's kind:u8, result_count:u16, flags:u32, then function_count:u32,
    // executable_count:u32 and constant_count:u32.
    BytecodeWriter k;
    k.import("m.f", {K::kRef}, {});
    std::vector<uint8_t> p = k.payload();
    p[p.size() - 19] = 9;
    EXPECT_EQ(loadError(BytecodeWriter::withHeader(p)),
              "invalid module: import 'm.f' argument 0 has unknown register "
              "kind 9");
  }
  {
    BytecodeWriter w;
    w.import("m.f", {K::kRef, K::kRef}, {K::kRef});
    std::vector<uint8_t> p = w.payload();
    // Cut the flags and the function, executable and constant counts.
    p.resize(p.size() - 14);
    EXPECT_EQ(loadError(BytecodeWriter::withHeader(p)),
              "invalid module: the import table runs past the payload end");
  }
}

TEST(ModuleTest, CallImportChecked) {
  auto callError = [](auto build) {
    BytecodeWriter w;
    uint32_t index = w.import("m.f", {K::kI64, K::kRef}, {K::kRef});
    auto &f = w.function("f", {}, {}, 2, 2);
    build(f, index);
    f.ret({});
    return loadError(w.finish());
  };
  EXPECT_EQ(callError([](auto &f, uint32_t) {
              f.callImport(3, {{K::kI64, 0}, {K::kRef, 0}}, {{K::kRef, 1}});
            }),
            "invalid module: function 'f' at code offset 0: call.import: "
            "import index 3 is out of range (the module has 1 imports)");
  EXPECT_EQ(callError([](auto &f, uint32_t i) {
              f.callImport(i, {{K::kI64, 0}}, {{K::kRef, 1}});
            }),
            "invalid module: function 'f' at code offset 0: call.import: "
            "passes 1 arguments but import 'm.f' has 2");
  EXPECT_EQ(callError([](auto &f, uint32_t i) {
              f.callImport(i, {{K::kRef, 0}, {K::kRef, 0}}, {{K::kRef, 1}});
            }),
            "invalid module: function 'f' at code offset 0: call.import: "
            "argument 0 has register kind 1 but import 'm.f' expects i64");
  EXPECT_EQ(callError([](auto &f, uint32_t i) {
              f.callImport(i, {{K::kI64, 0}, {K::kRef, 0}}, {});
            }),
            "invalid module: function 'f' at code offset 0: call.import: "
            "passes 0 results but import 'm.f' has 1");
  EXPECT_EQ(callError([](auto &f, uint32_t i) {
              f.callImport(i, {{K::kI64, 0}, {K::kRef, 0}}, {{K::kI64, 1}});
            }),
            "invalid module: function 'f' at code offset 0: call.import: "
            "result 0 has register kind 0 but import 'm.f' expects ref");
  EXPECT_EQ(callError([](auto &f, uint32_t i) {
              f.callImport(i, {{K::kI64, 0}, {K::kRef, 7}}, {{K::kRef, 1}});
            }),
            "invalid module: function 'f' at code offset 0: call.import: "
            "argument 1: ref register 7 is out of range (the function has 2)");
}

TEST(ModuleTest, NewQueueAndOwnershipOpcodesChecked) {
  using Builder = BytecodeWriter::FunctionBuilder;
  auto error = [](Builder code) {
    code.ret({});
    return loadError(moduleWithCode(code.code));
  };
  Builder ok;
  ok.queueFill(0, kNoRegister, 1, 0, 0, 1, 0, 4)
      .queueCopy(0, 1, 1, 0, 0, 0, 1, 0)
      .queueDeallocaIf(0, kNoRegister, 1, 0, hal::kQueueDeallocaPreferOrigin, 1)
      .bufferPreserve(0)
      .bufferDiscard(0, 0)
      .bufferIsTerminal(1, 1)
      .ret({});
  EXPECT_EQ(loadError(moduleWithCode(ok.code)), "<loaded>");

  EXPECT_EQ(error(std::move(Builder().queueFill(0, 1, 1, 0, 0, 1, 0, 3))),
            "invalid module: function 'f' at code offset 0: "
            "hal.device.queue.fill: pattern width 3 is not 1, 2, 4 or 8 "
            "bytes");
  EXPECT_NE(error(std::move(Builder().queueFill(0, 1, 1, 0, 0, 1, 9, 4)))
                .find("pattern: i64 register 9 is out of range"),
            std::string::npos);
  EXPECT_NE(error(std::move(Builder().queueCopy(0, 1, 1, 5, 0, 0, 1, 0)))
                .find("hal.device.queue.copy: source: ref register 5"),
            std::string::npos);
  EXPECT_NE(error(std::move(Builder().queueCopy(0, 1, 1, 0, 0, 0, 1, 4)))
                .find("length: i64 register 4"),
            std::string::npos);
  EXPECT_EQ(error(std::move(Builder().queueDeallocaIf(0, 1, 1, 0, 0x8, 0))),
            "invalid module: function 'f' at code offset 0: "
            "hal.device.queue.dealloca.if: unknown flag bits 0x8");
  EXPECT_NE(error(std::move(Builder().queueDeallocaIf(0, 1, 1, 0, 0, 3)))
                .find("condition: i64 register 3"),
            std::string::npos);
  EXPECT_NE(error(std::move(Builder().queueDealloca(0, 1, 1, 0, 0x10)))
                .find("hal.device.queue.dealloca: unknown flag bits 0x10"),
            std::string::npos);
  EXPECT_NE(error(std::move(Builder().queueAlloca(0, 0, 1, 1, 0, 0, 0, 0x2)))
                .find("hal.device.queue.alloca: unknown flag bits 0x2"),
            std::string::npos);
  EXPECT_NE(error(std::move(Builder().bufferPreserve(2)))
                .find("hal.buffer.allocation.preserve: buffer: ref register 2"),
            std::string::npos);
  EXPECT_NE(error(std::move(Builder().bufferDiscard(2, 0)))
                .find("hal.buffer.allocation.discard: dst: i64 register 2"),
            std::string::npos);
  EXPECT_NE(
      error(std::move(Builder().bufferIsTerminal(0, 3)))
          .find("hal.buffer.allocation.is_terminal: buffer: ref register 3"),
      std::string::npos);
  // Each new opcode cut short.
  for (Builder cut : {std::move(Builder().queueFill(0, 1, 1, 0, 0, 1, 0, 4)),
                      std::move(Builder().queueCopy(0, 1, 1, 0, 0, 0, 1, 0)),
                      std::move(Builder().queueDeallocaIf(0, 1, 1, 0, 0, 0)),
                      std::move(Builder().bufferDiscard(0, 0))}) {
    cut.code.pop_back();
    EXPECT_NE(loadError(moduleWithCode(cut.code))
                  .find("operands run past the end of the code"),
              std::string::npos);
  }
}

// Random corruption must be rejected (or, rarely, accepted) without crashing.
// Byte flips inside the payload are caught by the checksum, so the payload is
// mutated and then re-sealed with a fresh header to reach the decoder.
TEST(ModuleTest, RandomMutationsNeverCrash) {
  std::vector<uint8_t> valid = testing::buildElementwiseModule();
  std::vector<uint8_t> payload(valid.begin() + bytecode::kHeaderBytes,
                               valid.end());
  std::mt19937 rng(1234);
  int rejected = 0;
  for (int i = 0; i < 20000; ++i) {
    std::vector<uint8_t> mutated = payload;
    int flips = 1 + int(rng() % 4);
    for (int f = 0; f < flips; ++f) {
      size_t at = rng() % mutated.size();
      switch (rng() % 3) {
      case 0:
        mutated[at] ^= uint8_t(1u << (rng() % 8));
        break;
      case 1:
        mutated[at] = uint8_t(rng());
        break;
      default:
        mutated.resize(at);
        break;
      }
      if (mutated.empty())
        break;
    }
    bool reseal = rng() % 4 != 0;
    std::vector<uint8_t> file;
    if (reseal) {
      file = BytecodeWriter::withHeader(mutated);
    } else {
      file = valid;
      file[rng() % file.size()] ^= 0xFF;
      file.resize(rng() % (file.size() + 1));
    }
    if (!Module::load(file).ok())
      ++rejected;
  }
  EXPECT_GT(rejected, 10000);
}

} // namespace
} // namespace ferry::vm

namespace ferry::vm {
namespace {

// An executable with one entry "run" of one push constant and bindings
// (read, write); the image is not looked at by the loader.
bytecode::ExecutableRecord sampleExecutable() {
  return {"exe", "elf-x86_64", "avx", {{"run", 1, {1, 2}}}, {1, 2, 3}};
}

// A module with sampleExecutable() (changed by `edit`) and a function
// dispatching its entry `entry` with `pushConstants` and `bindings`.
std::vector<uint8_t> dispatchModule(
    std::function<void(bytecode::ExecutableRecord &)> edit, uint32_t entry = 0,
    std::initializer_list<uint16_t> pushConstants = {0},
    std::initializer_list<std::array<uint16_t, 3>> bindings = {{0, 0, 0},
                                                               {1, 0, 0}},
    uint32_t executable = 0) {
  BytecodeWriter w;
  w.device("d");
  bytecode::ExecutableRecord record = sampleExecutable();
  edit(record);
  w.executable(record);
  auto &f = w.function("f", {}, {}, 2, 4);
  f.queueDispatchEntry(2, kNoRegister, 3, executable, entry, 0, 0, 0,
                       pushConstants, bindings)
      .ret({});
  return w.finish();
}

TEST(ModuleExecutableTest, LoadsTheExecutableTable) {
  Result<Module> module =
      Module::load(dispatchModule([](bytecode::ExecutableRecord &) {}));
  ASSERT_TRUE(module.ok()) << module.status().toString();
  ASSERT_EQ(module->executables().size(), 1u);
  const bytecode::ExecutableRecord &exe = module->executables()[0];
  EXPECT_EQ(exe.name, "exe");
  EXPECT_EQ(exe.format, "elf-x86_64");
  EXPECT_EQ(exe.cpuFeatures, "avx");
  EXPECT_EQ(exe.image, (std::vector<uint8_t>{1, 2, 3}));
  ASSERT_EQ(exe.entries.size(), 1u);
  EXPECT_EQ(exe.entries[0].name, "run");
  EXPECT_EQ(exe.entries[0].pushConstantCount, 1);
  EXPECT_EQ(exe.entries[0].bindingAccess, (std::vector<uint8_t>{1, 2}));
  EXPECT_EQ(exe.entries[0].kind, bytecode::kEntryCompute);
}

// Version 7 added an entry's kind byte: it is read back, and version 6
// files, without it, load with compute entries.
TEST(ModuleExecutableTest, EntryKinds) {
  Result<Module> copy =
      Module::load(dispatchModule([](bytecode::ExecutableRecord &e) {
        e.entries[0].kind = bytecode::kEntryCopy;
      }));
  ASSERT_TRUE(copy.ok()) << copy.status().toString();
  EXPECT_EQ(copy->executables()[0].entries[0].kind, bytecode::kEntryCopy);

  BytecodeWriter w;
  w.device("d");
  bytecode::ExecutableRecord record = sampleExecutable();
  record.entries[0].kind = bytecode::kEntryCopy;
  w.executable(record);
  w.function("f", {}, {}, 0, 0).ret({});
  Result<Module> old = Module::load(w.finish(6));
  ASSERT_TRUE(old.ok()) << old.status().toString();
  EXPECT_EQ(old->formatVersion(), 6u);
  ASSERT_EQ(old->executables().size(), 1u);
  EXPECT_EQ(old->executables()[0].entries[0].name, "run");
  EXPECT_EQ(old->executables()[0].entries[0].kind, bytecode::kEntryCompute);
  EXPECT_EQ(old->executables()[0].entries[0].bindingAccess,
            record.entries[0].bindingAccess);
}

// Version 8 added parameter bindings (read, access 5): read back as
// written, refused in an older file.
TEST(ModuleExecutableTest, ParameterBindings) {
  Result<Module> module =
      Module::load(dispatchModule([](bytecode::ExecutableRecord &e) {
        e.entries[0].bindingAccess[0] =
            bytecode::kBindingRead | bytecode::kBindingParameter;
      }));
  ASSERT_TRUE(module.ok()) << module.status().toString();
  EXPECT_EQ(module->executables()[0].entries[0].bindingAccess,
            (std::vector<uint8_t>{5, 2}));

  BytecodeWriter w;
  w.device("d");
  bytecode::ExecutableRecord record = sampleExecutable();
  record.entries[0].bindingAccess[0] = 5;
  w.executable(record);
  w.function("f", {}, {}, 0, 0).ret({});
  EXPECT_EQ(loadError(w.finish(7)),
            "invalid module: executable 'exe' entry 'run' binding 0 has "
            "access 5 (1 read, 2 write, 3 read and write, 5 read as a "
            "parameter from version 8)");
}

TEST(ModuleExecutableTest, DispatchOperandsChecked) {
  auto none = [](bytecode::ExecutableRecord &) {};
  EXPECT_EQ(loadError(dispatchModule(none, 0, {0}, {{0, 0, 0}, {1, 0, 0}}, 1)),
            "invalid module: function 'f' at code offset 0: "
            "hal.device.queue.dispatch.entry: executable index 1 is out of "
            "range (the module has 1 executables)");
  EXPECT_EQ(loadError(dispatchModule(none, 1)),
            "invalid module: function 'f' at code offset 0: "
            "hal.device.queue.dispatch.entry: entry index 1 is out of range "
            "(executable 'exe' has 1 entries)");
  EXPECT_EQ(loadError(dispatchModule(none, 0, {})),
            "invalid module: function 'f' at code offset 0: "
            "hal.device.queue.dispatch.entry: passes 0 push constants but "
            "executable 'exe' entry 'run' takes 1");
  EXPECT_EQ(loadError(dispatchModule(none, 0, {0}, {{0, 0, 0}})),
            "invalid module: function 'f' at code offset 0: "
            "hal.device.queue.dispatch.entry: binding has 1 elements but "
            "executable 'exe' entry 'run' has 2 bindings");
  // The offset and length lists must match too: written by hand, each list
  // a different length.
  BytecodeWriter w;
  w.device("d");
  w.executable(sampleExecutable());
  auto &f = w.function("f", {}, {}, 2, 4);
  f.emit(Opcode::kQueueDispatchEntry,
         {2, kNoRegister, 3, 0, 0, 0, 0, 0, 1, 0, 2, 0, 1, 2, 0, 0, 1, 0})
      .ret({});
  EXPECT_EQ(loadError(w.finish()),
            "invalid module: function 'f' at code offset 0: "
            "hal.device.queue.dispatch.entry: binding_length has 1 elements "
            "but executable 'exe' entry 'run' has 2 bindings");
}

TEST(ModuleExecutableTest, TableChecked) {
  auto error = [](std::function<void(bytecode::ExecutableRecord &)> edit) {
    return loadError(dispatchModule(std::move(edit)));
  };
  const std::string accesses = "(1 read, 2 write, 3 read and write, 5 read "
                               "as a parameter from version 8)";
  EXPECT_EQ(error([](auto &e) { e.entries[0].bindingAccess[1] = 0; }),
            "invalid module: executable 'exe' entry 'run' binding 1 has "
            "access 0 " +
                accesses);
  EXPECT_EQ(error([](auto &e) { e.entries[0].bindingAccess[0] = 4; }),
            "invalid module: executable 'exe' entry 'run' binding 0 has "
            "access 4 " +
                accesses);
  // A parameter is only read.
  EXPECT_EQ(error([](auto &e) { e.entries[0].bindingAccess[1] = 6; }),
            "invalid module: executable 'exe' entry 'run' binding 1 has "
            "access 6 " +
                accesses);
  EXPECT_EQ(error([](auto &e) { e.entries[0].kind = bytecode::EntryKind(2); }),
            "invalid module: executable 'exe' entry 'run' has kind 2 (0 "
            "compute, 1 copy)");
  EXPECT_EQ(error([](auto &e) { e.format = "elf-sparc"; }),
            "invalid module: executable 'exe' has unknown format 'elf-sparc' "
            "(known: elf-x86_64, elf-aarch64)");
  EXPECT_EQ(error([](auto &e) { e.name = ""; }),
            "invalid module: executable 0 has an empty name");
  EXPECT_EQ(error([](auto &e) { e.entries[0].name = "9lives"; }),
            "invalid module: executable 'exe' entry 0 is named '9lives', not "
            "a symbol (a C identifier)");
  EXPECT_EQ(error([](auto &e) { e.entries[0].name = "a.b"; }),
            "invalid module: executable 'exe' entry 0 is named 'a.b', not a "
            "symbol (a C identifier)");
  EXPECT_EQ(error([](auto &e) { e.entries.push_back(e.entries[0]); }),
            "invalid module: executable 'exe' declares entry 'run' twice");

  BytecodeWriter twice;
  twice.executable(sampleExecutable());
  twice.executable(sampleExecutable());
  EXPECT_EQ(loadError(twice.finish()),
            "invalid module: executable 'exe' is defined twice");
}

TEST(ModuleExecutableTest, RawTableChecked) {
  auto rawError = [](std::vector<uint8_t> table) {
    BytecodeWriter w;
    w.string("exe");
    w.string("elf-x86_64");
    w.rawExecutableTable(std::move(table));
    return loadError(w.finish());
  };
  // count 1, name string 7 (the module has 2).
  EXPECT_EQ(rawError({1, 0, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}),
            "invalid module: executable 0 names string 7 but the module has 2 "
            "strings");
  // A format string index out of range.
  EXPECT_EQ(rawError({1, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 1, 0, 0, 0}),
            "invalid module: executable 'exe' format names string 9 but the "
            "module has 2 strings");
  // No entries, then an image of 100 bytes the payload does not have.
  EXPECT_EQ(rawError({1, 0, 0, 0, 0, 0,   0, 0, 1, 0, 0, 0, 1,
                      0, 0, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0}),
            "invalid module: the executable table runs past the payload end");
  // An image size near 2^64.
  EXPECT_EQ(
      rawError({1, 0, 0, 0, 0, 0,    0,    0,    1,    0,    0,    0,    1,
                0, 0, 0, 0, 0, 0xF0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}),
      "invalid module: the executable table runs past the payload end");
  // A version 6 file with no executable table at all.
  EXPECT_EQ(rawError({}),
            "invalid module: the executable table runs past the payload end");
  // A good table, then no constant table.
  EXPECT_EQ(rawError({1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1,   0,
                      0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0x7F}),
            "invalid module: the constant table runs past the payload end");
  // A good table and an empty constant table.
  EXPECT_EQ(rawError({1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0,    0, 1, 0, 0, 0,
                      0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0x7F, 0, 0, 0, 0}),
            "<loaded>");
}

TEST(ModuleConstantTest, LoadsConstantsAligned) {
  BytecodeWriter w;
  w.constant({1, 2, 3});
  w.constant({});
  w.constant({4, 5, 6, 7, 8});
  Result<Module> module = Module::load(w.finish());
  ASSERT_TRUE(module.ok()) << module.status().toString();
  ASSERT_EQ(module->constants().size(), 3u);
  const std::vector<ModuleConstant> &constants = module->constants();
  EXPECT_EQ(constants[0].size, 3u);
  EXPECT_EQ(constants[1].size, 0u);
  EXPECT_EQ(constants[2].size, 5u);
  EXPECT_EQ(std::memcmp(constants[0].data.get(), "\1\2\3", 3), 0);
  EXPECT_EQ(std::memcmp(constants[2].data.get(), "\4\5\6\7\10", 5), 0);
  for (const ModuleConstant &constant : constants)
    EXPECT_EQ(reinterpret_cast<uintptr_t>(constant.data.get()) %
                  Module::kConstantAlignment,
              0u);
}

TEST(ModuleConstantTest, TableAndIndicesChecked) {
  auto rawError = [](std::vector<uint8_t> tail) {
    BytecodeWriter w;
    w.rawExecutableTable(std::move(tail));
    return loadError(w.finish());
  };
  // No executables; one constant of 100 bytes the payload does not have.
  EXPECT_EQ(rawError({0, 0, 0, 0, 1, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0}),
            "invalid module: the constant table runs past the payload end");
  // A length near 2^64.
  EXPECT_EQ(rawError({0, 0, 0, 0, 1, 0, 0, 0, 0xF0, 0xFF, 0xFF, 0xFF, 0xFF,
                      0xFF, 0xFF, 0xFF}),
            "invalid module: the constant table runs past the payload end");
  // Bytes after the constant table.
  EXPECT_EQ(rawError({0, 0, 0, 0, 0, 0, 0, 0, 9}),
            "invalid module: 1 unexpected bytes after the constant table");

  BytecodeWriter w;
  w.device("d");
  w.constant({1, 2, 3, 4});
  auto &f = w.function("f", {}, {}, 0, 2);
  f.deviceGet(0, 0).deviceConstant(1, 0, 1).ret({});
  EXPECT_EQ(loadError(w.finish()),
            "invalid module: function 'f' at code offset 7: "
            "hal.device.constant: constant index 1 is out of range (the module "
            "has 1 constants)");
}

} // namespace
} // namespace ferry::vm
