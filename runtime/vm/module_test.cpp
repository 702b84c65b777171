#include "runtime/vm/module.h"

#include <gtest/gtest.h>
#include <random>

#include "runtime/vm/testing/sample_modules.h"

namespace ferry::vm {
namespace {

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
  EXPECT_EQ(loadError(w.finish(7)),
            "module format version 7 is newer than this runtime supports "
            "(version 1); recompile it with a matching ferry-compile");
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
                .find("does not end with return or fail"),
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
      .queueDispatch(0, bytecode::kNoRegister, 1, bytecode::BuiltinKernel(9),
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
                .find("1 unexpected bytes after the function table"),
            std::string::npos);
  BytecodeWriter twice;
  twice.function("f", {}, {}, 0, 0).ret({});
  twice.function("f", {}, {}, 0, 0).ret({});
  EXPECT_NE(loadError(twice.finish()).find("function 'f' is defined twice"),
            std::string::npos);
}

TEST(ModuleTest, ArgumentsMustFitRegisters) {
  BytecodeWriter w;
  w.function("f", {K::kRef, K::kRef}, {}, 0, 1).ret({});
  EXPECT_NE(loadError(w.finish()).find("takes 0 i64 and 2 ref arguments"),
            std::string::npos);
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
