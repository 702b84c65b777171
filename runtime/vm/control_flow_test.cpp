// Branches, comparisons, selects and internal calls (format version 3):
// what the interpreter computes with them, the call depth limit, and every
// way the loader rejects them.
#include <gtest/gtest.h>

#include "runtime/drivers/local/local_device.h"
#include "runtime/vm/context.h"
#include "runtime/vm/testing/sample_modules.h"

namespace ferry::vm {
namespace {

using bytecode::CmpPredicate;
using testing::BytecodeWriter;
using testing::Label;
using K = RegisterKind;

Result<Context>
makeContext(const std::vector<uint8_t> &file,
            std::vector<std::shared_ptr<hal::Device>> devices = {}) {
  Result<Module> module = Module::load(file);
  if (!module.ok())
    return module.status();
  return Context::create(std::make_shared<const Module>(std::move(*module)),
                         std::move(devices));
}

std::string loadError(const std::vector<uint8_t> &file) {
  Result<Module> module = Module::load(file);
  return module.ok() ? "<loaded>" : module.status().message();
}

Result<int64_t> invokeI64(const Context &context, std::string_view name,
                          std::vector<Value> args) {
  Result<std::vector<Value>> results = context.invoke(name, std::move(args));
  if (!results.ok())
    return results.status();
  if (results->size() != 1 || !(*results)[0].isI64())
    return internalError("expected one i64 result");
  return (*results)[0].i64();
}

TEST(ControlFlowTest, LoopSumsOneToN) {
  Result<Context> context = makeContext(testing::buildControlFlowModule());
  ASSERT_TRUE(context.ok()) << context.status().toString();
  for (auto [n, expected] : std::vector<std::pair<int64_t, int64_t>>{
           {0, 0}, {1, 1}, {10, 55}, {100000, 5000050000}}) {
    Result<int64_t> sum = invokeI64(*context, "sum", {Value(n)});
    ASSERT_TRUE(sum.ok()) << sum.status().toString();
    EXPECT_EQ(*sum, expected) << "n = " << n;
  }
}

TEST(ControlFlowTest, RecursiveFactorial) {
  Result<Context> context = makeContext(testing::buildControlFlowModule());
  ASSERT_TRUE(context.ok()) << context.status().toString();
  for (auto [n, expected] : std::vector<std::pair<int64_t, int64_t>>{
           {0, 1}, {1, 1}, {5, 120}, {20, 2432902008176640000}}) {
    Result<int64_t> fact = invokeI64(*context, "fact", {Value(n)});
    ASSERT_TRUE(fact.ok()) << fact.status().toString();
    EXPECT_EQ(*fact, expected) << "n = " << n;
  }
  // The deepest recursion the limit allows: fact(1024) is 1024 frames (the
  // product wraps, as i64 arithmetic does).
  Result<int64_t> deepest =
      invokeI64(*context, "fact", {Value(int64_t(Context::kMaxCallDepth))});
  EXPECT_TRUE(deepest.ok()) << deepest.status().toString();
}

TEST(ControlFlowTest, CallDepthLimit) {
  Result<Context> context = makeContext(testing::buildControlFlowModule());
  ASSERT_TRUE(context.ok()) << context.status().toString();
  Result<int64_t> tooDeep =
      invokeI64(*context, "fact", {Value(int64_t(Context::kMaxCallDepth + 1))});
  ASSERT_FALSE(tooDeep.ok());
  std::string message = tooDeep.status().message();
  EXPECT_NE(message.find("call depth exceeds 1024 calling 'fact'"),
            std::string::npos)
      << message;
  // The innermost callers are named, the rest counted.
  EXPECT_NE(message.find("called from function 'fact' at code offset"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("(1019 more enclosing calls)"), std::string::npos)
      << message;
}

// Frames with many registers hit the register budget long before the depth
// limit: a 100-byte module must not take gigabytes (65,534 + 65,534
// registers a frame would be about 2 MB each).
TEST(ControlFlowTest, RegisterBudgetLimitsWideFrames) {
  BytecodeWriter w;
  auto &f = w.function("wide", {}, {}, 0xFFFE, 0xFFFE);
  f.call(0, {}, {}).ret({});
  Result<Context> context = makeContext(w.finish());
  ASSERT_TRUE(context.ok()) << context.status().toString();
  Result<std::vector<Value>> results = context->invoke("wide", {});
  ASSERT_FALSE(results.ok());
  std::string message = results.status().message();
  EXPECT_NE(message.find("calls hold more than 1048576 registers calling "
                         "'wide' (8 frames deep; unbounded recursion?)"),
            std::string::npos)
      << message;
}

// A function that calls itself forever, passing a ref along: the depth error
// ends it, and every frame's copy of the ref is dropped.
TEST(ControlFlowTest, UnboundedRecursionFailsAndDropsRefs) {
  BytecodeWriter w;
  auto &f = w.function("forever", {K::kRef}, {K::kRef}, 0, 2);
  f.call(0, {{K::kRef, 0}}, {{K::kRef, 1}}).ret({{K::kRef, 1}});
  Result<Context> context = makeContext(w.finish());
  ASSERT_TRUE(context.ok()) << context.status().toString();
  std::shared_ptr<hal::Fence> fence = hal::Fence::create();
  Result<std::vector<Value>> results =
      context->invoke("forever", {Value(fence)});
  ASSERT_FALSE(results.ok());
  EXPECT_NE(results.status().message().find("call depth exceeds"),
            std::string::npos)
      << results.status().toString();
  EXPECT_EQ(fence.use_count(), 1);
}

// Block-argument moves read every source before writing: (a, b) -> (b, a)
// swaps without a temporary register.
TEST(ControlFlowTest, MovesAreParallel) {
  BytecodeWriter w;
  // i64: 0 a, 1 b, 2 count, 3 one, 4 zero, 5 count > 0, 6 count - 1.
  auto &f =
      w.function("swap", {K::kI64, K::kI64, K::kI64}, {K::kI64, K::kI64}, 7, 0);
  Label header = f.label(), body = f.label(), exit = f.label();
  f.constI64(3, 1)
      .constI64(4, 0)
      .br(header)
      .bind(header)
      .cmp(CmpPredicate::kSgt, 5, 2, 4)
      .condBr(5, body, {}, exit, {})
      .bind(body)
      .binary(Opcode::kSubI, 6, 2, 3)
      .br(header, {{K::kI64, 0, 1}, {K::kI64, 1, 0}, {K::kI64, 2, 6}})
      .bind(exit)
      .ret({{K::kI64, 0}, {K::kI64, 1}});
  Result<Context> context = makeContext(w.finish());
  ASSERT_TRUE(context.ok()) << context.status().toString();
  for (int64_t times : {0, 1, 2, 3}) {
    Result<std::vector<Value>> results = context->invoke(
        "swap", {Value(int64_t(7)), Value(int64_t(9)), Value(times)});
    ASSERT_TRUE(results.ok()) << results.status().toString();
    EXPECT_EQ((*results)[0].i64(), times % 2 ? 9 : 7) << times << " swaps";
    EXPECT_EQ((*results)[1].i64(), times % 2 ? 7 : 9) << times << " swaps";
  }
}

TEST(ControlFlowTest, ComparePredicates) {
  struct Case {
    CmpPredicate predicate;
    int64_t lhs, rhs, expected;
  };
  // -1 is the largest unsigned value; sign extension keeps that order for
  // narrower widths too.
  std::vector<Case> cases = {
      {CmpPredicate::kEq, 3, 3, 1},    {CmpPredicate::kEq, 3, 4, 0},
      {CmpPredicate::kNe, 3, 4, 1},    {CmpPredicate::kNe, 4, 4, 0},
      {CmpPredicate::kSlt, -1, 0, 1},  {CmpPredicate::kSlt, 0, -1, 0},
      {CmpPredicate::kSle, 2, 2, 1},   {CmpPredicate::kSle, 3, 2, 0},
      {CmpPredicate::kSgt, 0, -1, 1},  {CmpPredicate::kSgt, -1, 0, 0},
      {CmpPredicate::kSge, 2, 2, 1},   {CmpPredicate::kSge, 1, 2, 0},
      {CmpPredicate::kUlt, 0, -1, 1},  {CmpPredicate::kUlt, -1, 0, 0},
      {CmpPredicate::kUle, -1, -1, 1}, {CmpPredicate::kUle, -1, 0, 0},
      {CmpPredicate::kUgt, -1, 0, 1},  {CmpPredicate::kUgt, 0, -1, 0},
      {CmpPredicate::kUge, 5, 5, 1},   {CmpPredicate::kUge, 0, -1, 0},
  };
  for (const Case &c : cases) {
    BytecodeWriter w;
    auto &f = w.function("cmp", {K::kI64, K::kI64}, {K::kI64}, 3, 0);
    f.cmp(c.predicate, 2, 0, 1).ret({{K::kI64, 2}});
    Result<Context> context = makeContext(w.finish());
    ASSERT_TRUE(context.ok()) << context.status().toString();
    Result<int64_t> result =
        invokeI64(*context, "cmp", {Value(c.lhs), Value(c.rhs)});
    ASSERT_TRUE(result.ok()) << result.status().toString();
    EXPECT_EQ(*result, c.expected) << "predicate " << int(c.predicate) << " ("
                                   << c.lhs << ", " << c.rhs << ")";
  }
}

TEST(ControlFlowTest, SelectI64AndRef) {
  BytecodeWriter w;
  // i64: 0 condition, 1 picked; refs: 0 a, 1 b, 2 picked ref.
  auto &f =
      w.function("pick", {K::kI64, K::kRef, K::kRef}, {K::kI64, K::kRef}, 4, 3);
  f.constI64(2, 10)
      .constI64(3, 20)
      .select(RegisterKind::kI64, 1, 0, 2, 3)
      .select(RegisterKind::kRef, 2, 0, 0, 1)
      .ret({{K::kI64, 1}, {K::kRef, 2}});
  Result<Context> context = makeContext(w.finish());
  ASSERT_TRUE(context.ok()) << context.status().toString();
  auto a = hal::Fence::create(), b = hal::Fence::create();
  for (int64_t condition : {0, 1, -5}) {
    Result<std::vector<Value>> results =
        context->invoke("pick", {Value(condition), Value(a), Value(b)});
    ASSERT_TRUE(results.ok()) << results.status().toString();
    EXPECT_EQ((*results)[0].i64(), condition ? 10 : 20);
    EXPECT_EQ((*results)[1].refAs<hal::Fence>(), condition ? a : b);
  }
}

// Refs go into a callee's argument registers and come back as results; the
// callee's own registers are gone after it returns.
TEST(ControlFlowTest, CallPassesAndReturnsRefs) {
  BytecodeWriter w;
  w.device("device_a");
  // main: refs 0 device, 1 fence from the callee; i64 0 one.
  auto &main = w.function("main", {}, {K::kRef, K::kI64}, 1, 2);
  main.deviceGet(0, 0)
      .call(/*make_fence=*/1, {{K::kRef, 0}}, {{K::kRef, 1}, {K::kI64, 0}})
      .ret({{K::kRef, 1}, {K::kI64, 0}});
  // make_fence(device) -> (fence, 42).
  auto &make = w.function("make_fence", {K::kRef}, {K::kRef, K::kI64}, 1, 2);
  make.fenceCreate(1, 0).constI64(0, 42).ret({{K::kRef, 1}, {K::kI64, 0}});
  std::shared_ptr<hal::Device> device =
      drivers::local::LocalDevice::create("device_a");
  Result<Context> context = makeContext(w.finish(), {device});
  ASSERT_TRUE(context.ok()) << context.status().toString();
  Result<std::vector<Value>> results = context->invoke("main", {});
  ASSERT_TRUE(results.ok()) << results.status().toString();
  ASSERT_EQ(results->size(), 2u);
  auto fence = (*results)[0].refAs<hal::Fence>();
  ASSERT_NE(fence, nullptr);
  EXPECT_EQ(fence.use_count(), 2); // `results` and `fence`, nothing else
  EXPECT_EQ((*results)[1].i64(), 42);
}

TEST(ControlFlowTest, CalleeErrorNamesTheCall) {
  BytecodeWriter w;
  auto &main = w.function("main", {K::kI64}, {K::kI64}, 2, 0);
  main.call(1, {{K::kI64, 0}}, {{K::kI64, 1}}).ret({{K::kI64, 1}});
  auto &divide = w.function("divide", {K::kI64}, {K::kI64}, 2, 0);
  divide.constI64(1, 100).binary(Opcode::kDivSI, 1, 1, 0).ret({{K::kI64, 1}});
  Result<Context> context = makeContext(w.finish());
  ASSERT_TRUE(context.ok()) << context.status().toString();
  Result<int64_t> ok = invokeI64(*context, "main", {Value(int64_t(4))});
  ASSERT_TRUE(ok.ok()) << ok.status().toString();
  EXPECT_EQ(*ok, 25);
  Result<int64_t> failed = invokeI64(*context, "main", {Value(int64_t(0))});
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().message(),
            "called from function 'main' at code offset 0 (call): function "
            "'divide' at code offset 11 (div.s.i): division by zero (100 / 0 "
            ": i64)");
}

//===----------------------------------------------------------------------===//
// Loader rejections
//===----------------------------------------------------------------------===//

// A module whose function "f" (i64 registers 0-1, ref registers 0-1) has
// `build`'s code, next to "g"(i64) -> (ref).
template <typename Build> std::vector<uint8_t> moduleWith(Build build) {
  BytecodeWriter w;
  w.string("message");
  auto &f = w.function("f", {}, {}, 2, 2);
  build(f);
  auto &g = w.function("g", {K::kI64}, {K::kRef}, 1, 1);
  g.ret({{K::kRef, 0}});
  return w.finish();
}

TEST(ControlFlowLoaderTest, AcceptsCodeEndingWithABranch) {
  EXPECT_EQ(loadError(moduleWith([](auto &f) {
              Label loop = f.label();
              f.bind(loop).br(loop);
            })),
            "<loaded>");
}

TEST(ControlFlowLoaderTest, TargetOutsideTheFunction) {
  EXPECT_EQ(loadError(moduleWith([](auto &f) { f.brToOffset(100); })),
            "invalid module: function 'f' at code offset 0: br: target "
            "offset 100 is outside the function's 7 bytes of code");
  // The end of the code is outside too: there is no instruction there.
  EXPECT_EQ(loadError(moduleWith([](auto &f) { f.brToOffset(7); })),
            "invalid module: function 'f' at code offset 0: br: target "
            "offset 7 is outside the function's 7 bytes of code");
}

TEST(ControlFlowLoaderTest, TargetInsideAnInstruction) {
  // const.i64 spans bytes 0-10; offset 3 is inside it.
  EXPECT_EQ(
      loadError(moduleWith([](auto &f) { f.constI64(0, 1).brToOffset(3); })),
      "invalid module: function 'f' at code offset 11: br: target "
      "offset 3 is not the start of an instruction");
  // Both edges of a conditional branch are checked.
  EXPECT_EQ(loadError(moduleWith([](auto &f) {
              Label end = f.label();
              f.constI64(0, 1);
              f.op(Opcode::kCondBranch).u16(0).target(end).moves({});
              f.u32(5).moves({});
              f.bind(end).ret({});
            })),
            "invalid module: function 'f' at code offset 11: br.cond: target "
            "offset 5 is not the start of an instruction");
}

TEST(ControlFlowLoaderTest, MovesChecked) {
  EXPECT_NE(loadError(moduleWith([](auto &f) {
              Label l = f.label();
              f.bind(l).br(l, {{K::kI64, 0, 2}});
            })).find("br: move 0 source: i64 register 2 is out of range"),
            std::string::npos);
  EXPECT_NE(loadError(moduleWith([](auto &f) {
              Label l = f.label();
              f.bind(l).br(l, {{K::kRef, 5, 0}});
            })).find("br: move 0 destination: ref register 5 is out of range"),
            std::string::npos);
  EXPECT_NE(loadError(moduleWith([](auto &f) {
              Label l = f.label();
              f.bind(l).br(l, {{RegisterKind(7), 0, 0}});
            })).find("br: move 0 has unknown register kind 7"),
            std::string::npos);
  EXPECT_NE(loadError(moduleWith([](auto &f) {
              Label l = f.label();
              f.constI64(0, 1).bind(l).condBr(0, l, {}, l, {{K::kI64, 9, 0}});
            })).find("br.cond: false edge move 0 destination: i64 register 9"),
            std::string::npos);
}

TEST(ControlFlowLoaderTest, CallChecked) {
  EXPECT_EQ(loadError(moduleWith([](auto &f) { f.call(2, {}, {}).ret({}); })),
            "invalid module: function 'f' at code offset 0: call: function "
            "index 2 is out of range (the module has 2 functions)");
  EXPECT_EQ(loadError(moduleWith([](auto &f) {
              f.call(1, {{K::kRef, 0}}, {{K::kRef, 0}}).ret({});
            })),
            "invalid module: function 'f' at code offset 0: call: argument 0 "
            "has register kind 1 but function 'g' expects i64");
  EXPECT_EQ(loadError(moduleWith([](auto &f) {
              f.call(1, {{K::kI64, 0}}, {{K::kI64, 0}}).ret({});
            })),
            "invalid module: function 'f' at code offset 0: call: result 0 "
            "has register kind 0 but function 'g' expects ref");
  EXPECT_EQ(loadError(moduleWith([](auto &f) {
              f.call(1, {}, {{K::kRef, 0}}).ret({});
            })),
            "invalid module: function 'f' at code offset 0: call: passes 0 "
            "arguments but function 'g' has 1");
  EXPECT_NE(loadError(moduleWith([](auto &f) {
              f.call(1, {{K::kI64, 3}}, {{K::kRef, 0}}).ret({});
            })).find("call: argument 0: i64 register 3 is out of range"),
            std::string::npos);
}

TEST(ControlFlowLoaderTest, CallerMayPrecedeItsCallee) {
  // f (function 0) calls g (function 1), checked against g's signature
  // before g's own code is decoded.
  EXPECT_EQ(loadError(moduleWith([](auto &f) {
              f.constI64(0, 1).call(1, {{K::kI64, 0}}, {{K::kRef, 0}}).ret({});
            })),
            "<loaded>");
}

TEST(ControlFlowLoaderTest, InitializerCannotBeCalled) {
  BytecodeWriter w;
  w.function("__init", {}, {}, 0, 0).ret({});
  w.function("f", {}, {}, 0, 0).call(0, {}, {}).ret({});
  EXPECT_EQ(loadError(w.finish()),
            "invalid module: function 'f' at code offset 0: call: calls the "
            "module initializer '__init', which only the runtime may run");
}

TEST(ControlFlowLoaderTest, CompareAndSelectChecked) {
  EXPECT_EQ(loadError(moduleWith(
                [](auto &f) { f.cmp(CmpPredicate(10), 0, 0, 1).ret({}); })),
            "invalid module: function 'f' at code offset 0: cmp.i: unknown "
            "predicate 10");
  EXPECT_NE(loadError(moduleWith([](auto &f) {
              f.select(RegisterKind::kRef, 0, 0, 0, 2).ret({});
            })).find("select.ref: false: ref register 2 is out of range"),
            std::string::npos);
  EXPECT_NE(loadError(moduleWith([](auto &f) {
              f.select(RegisterKind::kI64, 0, 4, 0, 1).ret({});
            })).find("select.i64: condition: i64 register 4 is out of range"),
            std::string::npos);
}

TEST(ControlFlowLoaderTest, TruncatedBranch) {
  EXPECT_NE(loadError(moduleWith([](auto &f) {
              f.op(Opcode::kBranch).u32(0).u16(1).u8(0);
            })).find("br: operands run past the end of the code"),
            std::string::npos);
}

// assert: passes on a nonzero condition, fails with its message on zero.
TEST(ControlFlowTest, AssertFailsWithItsMessage) {
  BytecodeWriter w;
  uint32_t message = w.string("dims differ");
  auto &f = w.function("check", {K::kI64}, {K::kI64}, 1, 0);
  f.assertTrue(0, message).ret({{K::kI64, 0}});
  Result<Context> context = makeContext(w.finish());
  ASSERT_TRUE(context.ok()) << context.status().toString();
  Result<int64_t> passed = invokeI64(*context, "check", {Value(int64_t(7))});
  ASSERT_TRUE(passed.ok()) << passed.status().toString();
  EXPECT_EQ(*passed, 7);
  Result<int64_t> failed = invokeI64(*context, "check", {Value(int64_t(0))});
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), StatusCode::kAborted);
  EXPECT_EQ(failed.status().message(),
            "function 'check' at code offset 0 (assert): dims differ");
}

TEST(ControlFlowTest, LoaderRejectsAssertOperands) {
  {
    BytecodeWriter w;
    w.function("f", {}, {}, 1, 0).assertTrue(0, 99).ret({});
    EXPECT_NE(loadError(w.finish()).find("string index 99"), std::string::npos)
        << loadError(w.finish());
  }
  {
    BytecodeWriter w;
    uint32_t message = w.string("m");
    w.function("f", {}, {}, 1, 0).assertTrue(5, message).ret({});
    EXPECT_NE(loadError(w.finish()).find("condition"), std::string::npos)
        << loadError(w.finish());
  }
}

} // namespace
} // namespace ferry::vm
