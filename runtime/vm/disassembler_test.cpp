// The opcode table drives three walkers: the encoder, the loader's decoder
// and the disassembler. These tests hold them to each other for every row of
// the table, so a new opcode is checked by adding it to the table alone.
#include "runtime/vm/disassembler.h"

#include <gtest/gtest.h>

#include "runtime/vm/testing/sample_modules.h"

namespace ferry::vm {
namespace {

using bytecode::OperandKind;
using bytecode::OperandSpec;
using testing::BytecodeWriter;
using K = RegisterKind;

// Valid operands for `info` in a function with 4 i64 and 4 ref registers and
// one i64 result, in a module with one string, device, import m.f(i64) ->
// (i64) and function callee(i64) -> (i64). Targets name offset 0, the first
// instruction, which decodes to instruction index 0: decoding gives back
// exactly these values.
std::vector<int64_t> sampleOperands(const bytecode::OpcodeInfo &info) {
  std::vector<int64_t> out;
  for (const OperandSpec &spec : info.operands) {
    switch (spec.kind) {
    case OperandKind::kI64Register:
    case OperandKind::kRefRegister:
    case OperandKind::kOptionalRefRegister:
      out.push_back(1);
      break;
    case OperandKind::kI64:
      out.push_back(-5);
      break;
    case OperandKind::kElementType:
      out.push_back(int64_t(hal::ElementType::kF32));
      break;
    case OperandKind::kKernel:
    case OperandKind::kAllocaFlags:
    case OperandKind::kDeallocaFlags:
      out.push_back(1);
      break;
    case OperandKind::kCmpPredicate:
      out.push_back(int64_t(bytecode::CmpPredicate::kUge));
      break;
    case OperandKind::kPatternBytes:
      out.push_back(4);
      break;
    case OperandKind::kValueBits:
      out.push_back(32);
      break;
    case OperandKind::kI64RegisterList:
    case OperandKind::kRefRegisterList:
      out.insert(out.end(), {2, 1, 2});
      break;
    case OperandKind::kArguments:
    case OperandKind::kResults:
    case OperandKind::kReturnValues:
      out.insert(out.end(), {1, int64_t(K::kI64), 3});
      break;
    case OperandKind::kMoves:
      out.insert(out.end(), {1, int64_t(K::kRef), 2, 3});
      break;
    default: // indices into one-entry tables, targets, u32 immediates
      out.push_back(0);
      break;
    }
  }
  return out;
}

TEST(DisassemblerTest, EveryOpcodeEncodesLoadsAndPrints) {
  for (const bytecode::OpcodeInfo *info : bytecode::kOpcodeTable) {
    SCOPED_TRACE(std::string(info->mnemonic));
    std::vector<int64_t> operands = sampleOperands(*info);
    BytecodeWriter w;
    w.string("s");
    w.device("d");
    w.import("m.f", {K::kI64}, {K::kI64});
    w.function("callee", {K::kI64}, {K::kI64}, 1, 0).ret({{K::kI64, 0}});
    // An entry taking the sample lists' two push constants and bindings.
    w.executable({"exe", "elf-x86_64", "", {{"e", 2, {1, 3}}}, {0}});
    // Only the initializer may store globals.
    bool store = info->opcode == Opcode::kGlobalStoreI64;
    auto &f =
        w.function(store ? "__init" : "f", {},
                   store ? std::vector<K>{} : std::vector<K>{K::kI64}, 4, 4);
    f.emit(info->opcode, operands);
    if (store)
      f.ret({});
    else
      f.ret({{K::kI64, 0}});

    Result<Module> module = Module::load(w.finish());
    ASSERT_TRUE(module.ok()) << module.status().toString();
    const Function &function = module->functions()[1];
    const Instruction &first = function.instructions.front();
    EXPECT_EQ(first.opcode, info->opcode);
    std::vector<int64_t> decoded(function.operands.begin() + first.operandBegin,
                                 function.operands.begin() +
                                     first.operandBegin + first.operandCount);
    EXPECT_EQ(decoded, operands);

    std::string text = disassembleInstruction(*module, function, first);
    EXPECT_EQ(text.substr(0, info->mnemonic.size() + 1),
              strCat(info->mnemonic, " "));
    for (const OperandSpec &spec : info->operands)
      EXPECT_NE(text.find(strCat(" ", spec.name, "=")), std::string::npos)
          << text;
  }
}

TEST(DisassemblerTest, PrintsTablesAndInstructions) {
  BytecodeWriter w;
  w.device("gpu");
  w.import("m.f", {K::kRef, K::kRef}, {},
           bytecode::kImportCoarseFences | bytecode::kImportTiedMayAlias);
  auto &f = w.function("f", {K::kI64}, {K::kI64}, 3, 2);
  testing::Label exit = f.label();
  f.deviceGet(0, 0)
      .cmp(bytecode::CmpPredicate::kSlt, 1, 0, 0)
      .condBr(1, exit, {{K::kI64, 2, 0}}, exit, {})
      .bind(exit)
      .assertTrue(1, w.string("bad \"x\"\n"))
      .ret({{K::kI64, 2}});
  Result<Module> module = Module::load(w.finish());
  ASSERT_TRUE(module.ok()) << module.status().toString();
  std::string text = disassemble(*module);
  std::string header =
      strCat("module: format version ", bytecode::kFormatVersion, ", ",
             module->payloadBytes(), " payload bytes, checksum 0x", std::hex,
             module->payloadChecksum(), "\n");
  EXPECT_EQ(text.substr(0, header.size()), header);
  EXPECT_EQ(text.substr(header.size()),
            "strings (4):\n"
            "  [0] \"gpu\"\n"
            "  [1] \"m.f\"\n"
            "  [2] \"f\"\n"
            "  [3] \"bad \\\"x\\\"\\x0a\"\n"
            "devices (1):\n"
            "  [0] @gpu\n"
            "imports (1):\n"
            "  [0] @m.f(ref, ref) -> () flags=coarse_fences|tied_may_alias\n"
            "functions (1):\n"
            "  [0] @f(i64) -> (i64) registers=3 i64, 2 ref code=49 bytes\n"
            "    0000  hal.device.get dst=r0 device=@gpu\n"
            "    0007  cmp.i dst=i1 predicate=slt lhs=i0 rhs=i0 bits=64\n"
            "    0016  br.cond condition=i1 true_target=^0036 "
            "true_moves=[i2 <- i0] false_target=^0036 false_moves=[]\n"
            "    0036  assert condition=i1 message=\"bad \\\"x\\\"\\x0a\"\n"
            "    0043  return values=(i2)\n"
            "executables (0):\n");
}

TEST(DisassemblerTest, PrintsTheExecutableTable) {
  BytecodeWriter w;
  w.device("d");
  w.executable({"exe",
                "elf-x86_64",
                "avx,avx2",
                {{"run", 1, {1, 2, 3}}, {"other", 0, {}}},
                {7, 7, 7, 7}});
  auto &f = w.function("f", {}, {}, 2, 4);
  f.queueDispatchEntry(0, bytecode::kNoRegister, 1, 0, 0, 0, 0, 1, {1},
                       {{2, 0, 1}, {3, 0, 1}, {2, 0, 1}})
      .ret({});
  Result<Module> module = Module::load(w.finish());
  ASSERT_TRUE(module.ok()) << module.status().toString();
  std::string text = disassemble(*module);
  EXPECT_NE(text.find("    0000  hal.device.queue.dispatch.entry device=r0 "
                      "wait=none signal=r1 executable=@exe entry=0 "
                      "workgroups_x=i0 workgroups_y=i0 workgroups_z=i1 "
                      "push_constant=[i1] binding=[r2, r3, r2] "
                      "binding_offset=[i0, i0, i0] "
                      "binding_length=[i1, i1, i1]\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("executables (1):\n"
                      "  [0] @exe format=elf-x86_64 cpu_features=\"avx,avx2\" "
                      "image=4 bytes\n"
                      "    entry [0] @run push_constants=1 "
                      "bindings=(read, write, read_write)\n"
                      "    entry [1] @other push_constants=0 bindings=()\n"),
            std::string::npos)
      << text;
}

TEST(DisassemblerTest, InstructionSetListsEveryOpcode) {
  std::string text = describeInstructionSet();
  for (const bytecode::OpcodeInfo *info : bytecode::kOpcodeTable)
    EXPECT_NE(text.find(strCat(" ", info->mnemonic, " ")), std::string::npos)
        << info->mnemonic;
  EXPECT_NE(text.find("hal.device.queue.alloca dst:r device:r wait:r? "
                      "signal:r memory_type:i usage:i size:i "
                      "flags:alloca_flags"),
            std::string::npos)
      << text;
}

} // namespace
} // namespace ferry::vm
