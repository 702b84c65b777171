#include "runtime/vm/context.h"
#include "runtime/vm/integer_ops.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <limits>
#include <optional>

#include "runtime/hal/buffer_bits.h"
#include "runtime/hal/buffer_claim.h"
#include "runtime/hal/buffer_import.h"
#include "runtime/vm/import_staging.h"
#include "runtime/vm/result_allocator.h"

namespace ferry::vm {

std::string_view refTypeName(const Ref &ref) {
  struct Visitor {
    std::string_view operator()(std::monostate) const { return "null"; }
    std::string_view operator()(const std::shared_ptr<hal::Device> &) const {
      return "device";
    }
    std::string_view operator()(const std::shared_ptr<hal::Buffer> &) const {
      return "buffer";
    }
    std::string_view
    operator()(const std::shared_ptr<hal::BufferView> &) const {
      return "buffer_view";
    }
    std::string_view operator()(const std::shared_ptr<hal::Fence> &) const {
      return "fence";
    }
  };
  return std::visit(Visitor{}, ref);
}

Result<Context>
Context::create(std::shared_ptr<const Module> module,
                std::vector<std::shared_ptr<hal::Device>> devices,
                std::vector<std::shared_ptr<const NativeModule>> nativeModules,
                ContextOptions options) {
  if (!module)
    return invalidArgument("context needs a module, got null");
  const std::vector<std::string> &names = module->deviceNames();
  if (devices.size() != names.size())
    return invalidArgument("module has ", names.size(), " devices, got ",
                           devices.size());
  for (size_t i = 0; i < devices.size(); ++i)
    if (!devices[i])
      return invalidArgument("device ", i, " ('", names[i], "') is null");
  for (size_t i = 0; i < nativeModules.size(); ++i) {
    if (!nativeModules[i])
      return invalidArgument("native module ", i, " is null");
    for (size_t j = 0; j < i; ++j)
      if (nativeModules[j]->name() == nativeModules[i]->name())
        return invalidArgument("two native modules are named '",
                               nativeModules[i]->name(), "'");
  }
  if (options.fenceTimeout.count() < 0)
    return invalidArgument("fence timeout ", options.fenceTimeout.count(),
                           " ns is negative");
  Context context(std::move(module), std::move(devices));
  context.nativeModules_ = std::move(nativeModules);
  context.options_ = options;
  if (options.fenceTimeout.count() > 0)
    context.fenceDeadlines_ = std::make_shared<hal::FenceDeadlines>();
  FERRY_RETURN_IF_ERROR(context.resolveImports());
  FERRY_RETURN_IF_ERROR(context.loadExecutables());
  FERRY_RETURN_IF_ERROR(context.initialize());
  return context;
}

Status Context::loadExecutables() {
  for (const bytecode::ExecutableRecord &record : module_->executables()) {
    std::vector<hal::ExecutableEntrySpec> entries;
    for (const bytecode::EntryRecord &entry : record.entries)
      entries.push_back({entry.name, entry.pushConstantCount,
                         entry.bindingAccess, entry.kind});
    Result<std::shared_ptr<hal::Executable>> executable =
        hal::Executable::load({record.name, record.format, record.cpuFeatures,
                               entries, record.image});
    if (!executable.ok())
      return executable.status().withContext("loading the module");
    executables_.push_back(std::move(*executable));
  }
  return okStatus();
}

Status Context::resolveImports() {
  auto available = [&] {
    std::string out;
    for (const auto &native : nativeModules_)
      for (const NativeFunction &function : native->functions())
        out += strCat(out.empty() ? "" : ", ", "'", native->name(), ".",
                      function.name, "'");
    return out.empty() ? std::string("no native modules are loaded")
                       : strCat("available: ", out);
  };
  auto convention = [](uint32_t flags) {
    return (flags & bytecode::kImportCoarseFences) ? "the coarse-fences ABI"
                                                   : "the plain calling "
                                                     "convention";
  };
  for (const Import &import : module_->imports()) {
    const NativeFunction *found = nullptr;
    const NativeModule *owner = nullptr;
    for (const auto &native : nativeModules_)
      if (native->name() == import.moduleName()) {
        owner = native.get();
        found = native->lookup(import.functionName());
      }
    if (!found)
      return notFound("module imports '", import.name,
                      "', which no loaded native module provides (",
                      available(), ")");
    if (found->argKinds != import.calleeArgKinds() ||
        found->resultKinds != import.resultKinds) {
      Import expected{import.name, import.calleeArgKinds(), import.resultKinds,
                      import.flags};
      Import actual{import.name, found->argKinds, found->resultKinds,
                    found->flags};
      return invalidArgument("module imports ", expected.signatureString(),
                             " but native module '", owner->name(),
                             "' defines ", actual.signatureString());
    }
    if ((found->flags ^ import.flags) & bytecode::kImportCoarseFences)
      return invalidArgument("module calls '", import.name, "' with ",
                             convention(import.flags), " but native module '",
                             owner->name(), "' implements it with ",
                             convention(found->flags));
    if ((import.flags & bytecode::kImportTiedMayAlias) &&
        !(found->flags & bytecode::kImportTiedMayAlias))
      return invalidArgument(
          "module was compiled to pass '", import.name,
          "' one storage as an input and as its output, but native module '",
          owner->name(),
          "' does not declare that its function allows it "
          "(FERRY_PLUGIN_TIED_MAY_ALIAS); recompile without --module or with "
          "the plugin that will run it");
    imports_.push_back(found);
  }
  return okStatus();
}

std::shared_ptr<hal::Buffer> Context::constantBuffer(hal::Device &device,
                                                     uint32_t index) const {
  std::lock_guard<std::mutex> lock(constantBuffers_->mutex);
  std::shared_ptr<hal::Buffer> &buffer =
      constantBuffers_->buffers[{&device, index}];
  if (!buffer) {
    const ModuleConstant &constant = module_->constants()[index];
    buffer = device.allocator().wrapConstant(constant.data, constant.size);
  }
  return buffer;
}

void Context::watchExternalFence(const std::shared_ptr<hal::Fence> &signal,
                                 std::string_view importName) const {
  if (!fenceDeadlines_)
    return;
  // "0.5 s": the shortest decimal that reads back as the timeout.
  double seconds = std::chrono::duration<double>(options_.fenceTimeout).count();
  char text[32];
  std::to_chars_result written =
      std::to_chars(text, text + sizeof(text), seconds);
  fenceDeadlines_->watch(signal, options_.fenceTimeout,
                         strCat("external function '", importName,
                                "' did not signal its fence within ",
                                std::string_view(text, written.ptr), " s"));
}

namespace {

using bytecode::kNoRegister;

// One activation of a function: its registers and the instruction running.
// Frames do not call each other: run() stops at a `call` or `return` and
// runFunction() below keeps the stack, so the interpreter's own (C++) stack
// does not grow with the program's call depth.
class Frame {
public:
  // Why run() stopped.
  struct Stop {
    enum Kind { kReturn, kCall } kind;
    // The returned values (kReturn) or the callee's arguments (kCall).
    std::vector<Value> values;
    const Function *callee = nullptr; // kCall only
  };

  // `writableGlobals` is empty except for the module initializer.
  Frame(const Context &context, const Function &function,
        std::span<int64_t> writableGlobals = {})
      : context_(context), function_(function),
        i64s_(function.i64RegisterCount), refs_(function.refRegisterCount),
        writableGlobals_(writableGlobals) {}

  // Registers of both kinds this frame holds.
  size_t registerCount() const { return i64s_.size() + refs_.size(); }

  Status placeArguments(std::vector<Value> &args) {
    size_t nextI64 = 0, nextRef = 0;
    for (size_t i = 0; i < args.size(); ++i) {
      if (function_.argKinds[i] == RegisterKind::kI64)
        i64s_[nextI64++] = args[i].i64();
      else
        refs_[nextRef++] = args[i].ref();
    }
    return okStatus();
  }

  // Runs from the current instruction until the function returns or calls
  // another function of the module (resume with receiveResults() + run()).
  Result<Stop> run() {
    const std::vector<Instruction> &instructions = function_.instructions;
    // The instruction index stays in a local: a taken branch sets jumpTo_,
    // tested by a well-predicted check, so the next index never waits for a
    // store and reload through memory.
    size_t pc = pc_;
    while (pc < instructions.size()) {
      const Instruction &instruction = instructions[pc++];
      instruction_ = &instruction;
      operands_ =
          std::span<const int64_t>(function_.operands)
              .subspan(instruction.operandBegin, instruction.operandCount);
      next_ = 0;
      std::optional<Stop> stop;
      Status status = execute(stop);
      if (!status.ok())
        return status;
      if (jumpTo_ != kNoJump) [[unlikely]] {
        pc = jumpTo_;
        jumpTo_ = kNoJump;
      }
      if (stop) {
        pc_ = pc; // a call resumes here
        return std::move(*stop);
      }
    }
    // The verifier guarantees code ends with return, fail or a branch.
    return internalError("function '", function_.name,
                         "' ran off the end of its code");
  }

  // Writes a callee's results into the registers the pending `call` names.
  void receiveResults(std::vector<Value> &results) {
    std::span<const int64_t> operands = pendingResults_;
    size_t next = 1; // operands[0] is the count, equal to results.size()
    for (Value &value : results) {
      RegisterKind kind = RegisterKind(operands[next++]);
      size_t reg = size_t(operands[next++]);
      if (kind == RegisterKind::kI64)
        i64s_[reg] = value.i64();
      else
        refs_[reg] = value.ref();
    }
    pendingResults_ = {};
  }

  // `status` (from a callee) with the call instruction that led to it.
  Status calledFrom(const Status &status) const {
    return status.withContext(strCat("called from ", where()));
  }
  template <typename... Args> Status failWith(const Args &...args) const {
    return invalidArgument(where(), ": ", args...);
  }

private:
  // Operand cursor over the decoded operands of the current instruction.
  int64_t operand() { return operands_[next_++]; }
  int64_t &i64Operand() { return i64s_[size_t(operand())]; }

  Opcode opcode() const { return instruction_->opcode; }
  std::string where() const {
    return strCat("function '", function_.name, "' at code offset ",
                  instruction_->codeOffset, " (",
                  bytecode::opcodeMnemonic(opcode()), ")");
  }
  Status fail(const Status &status) const {
    return status.withContext(where());
  }

  // Reads a ref operand that must hold a T.
  template <typename T>
  Result<std::shared_ptr<T>> refOperand(std::string_view what) {
    int64_t reg = operand();
    const Ref &ref = refs_[size_t(reg)];
    if (const auto *object = std::get_if<std::shared_ptr<T>>(&ref))
      if (*object)
        return *object;
    if (std::holds_alternative<std::monostate>(ref) || isNullObject(ref))
      return failWith(what, " (ref register ", reg, ") is null, expected a ",
                      refTypeNameOf<T>());
    return failWith(what, " (ref register ", reg, ") holds a ",
                    refTypeName(ref), ", expected a ", refTypeNameOf<T>());
  }
  // An optional ref operand: null pointer when kNoRegister.
  template <typename T>
  Result<std::shared_ptr<T>> optionalRefOperand(std::string_view what) {
    if (operands_[next_] == kNoRegister) {
      ++next_;
      return std::shared_ptr<T>();
    }
    return refOperand<T>(what);
  }
  static bool isNullObject(const Ref &ref) {
    return std::visit(
        [](const auto &object) {
          if constexpr (std::is_same_v<std::decay_t<decltype(object)>,
                                       std::monostate>)
            return true;
          else
            return object == nullptr;
        },
        ref);
  }
  void setRef(int64_t reg, Ref value) { refs_[size_t(reg)] = std::move(value); }

  Result<uint32_t> u32FromI64(int64_t value, std::string_view what) {
    if (value < 0 || value > int64_t(std::numeric_limits<uint32_t>::max()))
      return failWith(what, " ", value, " does not fit in 32 bits");
    return uint32_t(value);
  }

  Result<std::vector<int64_t>> dimOperands() {
    int64_t rank = operand();
    std::vector<int64_t> dims;
    for (int64_t i = 0; i < rank; ++i)
      dims.push_back(i64Operand());
    return dims;
  }

  // Inlined into run(): a call per instruction (and the Status it returns
  // through memory) costs more than most instructions do.
  [[gnu::always_inline]] inline Status execute(std::optional<Stop> &stop);
  Status executeHal();
  // cmp.i / select.i64 / select.ref.
  void executeCompareOrSelect();
  // A target:t operand followed by its moves:m; jumps when `taken`, else only
  // steps over the operands.
  void branch(bool taken);
  Status executeCallImport();
  // A buffer:r operand of the ownership opcodes: a buffer, or null (which
  // the null-tolerant hal::allocation* helpers accept).
  Result<hal::Buffer *> nullableBufferOperand();
  // A non-negative i64 register operand as a byte count or offset.
  Result<uint64_t> byteOperand(std::string_view what) {
    int64_t value = i64Operand();
    if (value < 0)
      return failWith(what, " ", value, " is negative");
    return uint64_t(value);
  }
  Result<std::shared_ptr<hal::Device>>
  selectAllocator(const std::vector<std::shared_ptr<hal::Device>> &candidates);
  // hal.buffer.load: the element of `type` at byte `offset` of `buffer`,
  // sign-extended.
  Result<int64_t> loadElement(const std::shared_ptr<hal::Buffer> &buffer,
                              int64_t offset, hal::ElementType type);

  const Context &context_;
  const Function &function_;
  std::vector<int64_t> i64s_;
  std::vector<Ref> refs_;
  std::span<int64_t> writableGlobals_;
  const Instruction *instruction_ = nullptr;
  std::span<const int64_t> operands_;
  size_t next_ = 0;
  size_t pc_ = 0; // where run() starts: 0, or after a call
  static constexpr size_t kNoJump = ~size_t(0);
  size_t jumpTo_ = kNoJump; // a taken branch's target, for run()
  // The result list (count, then kind/register pairs) of the `call` waiting
  // for its callee.
  std::span<const int64_t> pendingResults_;
  // Move sources, read before any destination is written (kept to avoid an
  // allocation per branch).
  std::vector<int64_t> movedI64s_;
  std::vector<Ref> movedRefs_;
};

void Frame::branch(bool taken) {
  int64_t target = operand();
  int64_t count = operand();
  std::span<const int64_t> moves = operands_.subspan(next_, size_t(count) * 3);
  next_ += moves.size();
  if (!taken)
    return;
  for (size_t i = 0; i < moves.size(); i += 3) {
    size_t src = size_t(moves[i + 2]);
    if (RegisterKind(moves[i]) == RegisterKind::kI64)
      movedI64s_.push_back(i64s_[src]);
    else
      movedRefs_.push_back(refs_[src]);
  }
  size_t nextI64 = 0, nextRef = 0;
  for (size_t i = 0; i < moves.size(); i += 3) {
    size_t dst = size_t(moves[i + 1]);
    if (RegisterKind(moves[i]) == RegisterKind::kI64)
      i64s_[dst] = movedI64s_[nextI64++];
    else
      refs_[dst] = std::move(movedRefs_[nextRef++]);
  }
  movedI64s_.clear();
  movedRefs_.clear();
  jumpTo_ = size_t(target);
}

void Frame::executeCompareOrSelect() {
  switch (opcode()) {
  case Opcode::kCmpI: {
    int64_t &dst = i64Operand();
    auto predicate = bytecode::CmpPredicate(operand());
    int64_t lhs = i64Operand();
    int64_t rhs = i64Operand();
    dst = compareIntegers(predicate, lhs, rhs, unsigned(operand())) ? 1 : 0;
    return;
  }
  case Opcode::kSelectI64: {
    int64_t &dst = i64Operand();
    bool condition = i64Operand() != 0;
    int64_t ifTrue = i64Operand();
    int64_t ifFalse = i64Operand();
    dst = condition ? ifTrue : ifFalse;
    return;
  }
  default: { // kSelectRef
    int64_t dst = operand();
    bool condition = i64Operand() != 0;
    int64_t ifTrue = operand();
    int64_t ifFalse = operand();
    // Copy first: dst may be one of the sources.
    Ref chosen = refs_[size_t(condition ? ifTrue : ifFalse)];
    setRef(dst, std::move(chosen));
    return;
  }
  }
}

inline Status Frame::execute(std::optional<Stop> &stop) {
  switch (opcode()) {
  case Opcode::kConstI64: {
    int64_t &dst = i64Operand();
    dst = operand();
    return okStatus();
  }
  case Opcode::kAddI:
  case Opcode::kSubI:
  case Opcode::kMulI:
  case Opcode::kAndI:
  case Opcode::kOrI:
  case Opcode::kXorI:
  case Opcode::kDivSI:
  case Opcode::kDivUI:
  case Opcode::kRemSI:
  case Opcode::kRemUI:
  case Opcode::kCeilDivSI:
  case Opcode::kCeilDivUI:
  case Opcode::kFloorDivSI:
  case Opcode::kShlI:
  case Opcode::kShrSI:
  case Opcode::kShrUI:
  case Opcode::kMinSI:
  case Opcode::kMaxSI:
  case Opcode::kMinUI:
  case Opcode::kMaxUI: {
    int64_t &dst = i64Operand();
    int64_t lhs = i64Operand();
    int64_t rhs = i64Operand();
    unsigned bits = unsigned(operand());
    std::optional<int64_t> result =
        evaluateIntegerBinary(opcode(), lhs, rhs, bits);
    // The verifier admits only the opcodes above, so only a zero divisor
    // gets here without a result.
    if (!result)
      return failWith("division by zero (", signedInteger(lhs, bits),
                      " / 0 : i", bits, ")");
    dst = *result;
    return okStatus();
  }
  case Opcode::kExtSI:
  case Opcode::kExtUI:
  case Opcode::kTruncI: {
    int64_t &dst = i64Operand();
    int64_t src = i64Operand();
    unsigned bits = unsigned(operand());
    dst = opcode() == Opcode::kExtSI   ? signedInteger(src, bits)
          : opcode() == Opcode::kExtUI ? int64_t(unsignedInteger(src, bits))
                                       : canonicalInteger(uint64_t(src), bits);
    return okStatus();
  }
  case Opcode::kCmpI:
  case Opcode::kSelectI64:
  case Opcode::kSelectRef:
    executeCompareOrSelect();
    return okStatus();
  case Opcode::kBranch:
    branch(/*taken=*/true);
    return okStatus();
  case Opcode::kCondBranch: {
    bool condition = i64Operand() != 0;
    branch(condition);
    branch(!condition);
    return okStatus();
  }
  case Opcode::kReturn:
  case Opcode::kCall: {
    const Function *callee = nullptr;
    if (opcode() == Opcode::kCall)
      callee = &context_.module().functions()[size_t(operand())];
    int64_t count = operand();
    std::vector<Value> values;
    values.reserve(size_t(count));
    for (int64_t i = 0; i < count; ++i) {
      RegisterKind kind = RegisterKind(operand());
      int64_t reg = operand();
      if (kind == RegisterKind::kI64)
        values.emplace_back(i64s_[size_t(reg)]);
      else
        values.emplace_back(refs_[size_t(reg)]);
    }
    if (callee)
      pendingResults_ = operands_.subspan(next_);
    stop =
        Stop{callee ? Stop::kCall : Stop::kReturn, std::move(values), callee};
    return okStatus();
  }
  case Opcode::kGlobalLoadI64: {
    int64_t &dst = i64Operand();
    dst = context_.globals()[size_t(operand())];
    return okStatus();
  }
  case Opcode::kGlobalStoreI64: {
    size_t index = size_t(operand());
    int64_t value = i64Operand();
    // The verifier admits stores only in the initializer, which runs with
    // the globals writable.
    if (index >= writableGlobals_.size())
      return internalError(where(), ": globals are read-only here");
    writableGlobals_[index] = value;
    return okStatus();
  }
  case Opcode::kCallImport:
    return executeCallImport();
  case Opcode::kFail:
    return makeStatus(
        StatusCode::kAborted, "function '", function_.name,
        "' failed: ", context_.module().strings()[size_t(operand())]);
  case Opcode::kAssert: {
    bool holds = i64Operand() != 0;
    const std::string &message = context_.module().strings()[size_t(operand())];
    if (holds)
      return okStatus();
    return fail(makeStatus(StatusCode::kAborted, message));
  }
  default:
    return executeHal();
  }
}

Status Frame::executeHal() {
  switch (opcode()) {
  case Opcode::kDeviceGet: {
    int64_t dst = operand();
    setRef(dst, context_.devices()[size_t(operand())]);
    return okStatus();
  }
  case Opcode::kBufferViewDim: {
    int64_t &dst = i64Operand();
    FERRY_ASSIGN_OR_RETURN(auto view, refOperand<hal::BufferView>("view"));
    int64_t index = operand();
    if (uint64_t(index) >= view->rank())
      return failWith("dimension ", index, " is out of range for ",
                      view->typeString(), " (rank ", view->rank(), ")");
    dst = view->shape()[size_t(index)];
    return okStatus();
  }
  case Opcode::kBufferViewAssert: {
    FERRY_ASSIGN_OR_RETURN(auto view, refOperand<hal::BufferView>("view"));
    hal::ElementType type = hal::ElementType(operand());
    FERRY_ASSIGN_OR_RETURN(std::vector<int64_t> dims, dimOperands());
    const std::string &message = context_.module().strings()[size_t(operand())];
    bool shapeMatches =
        view->shape().size() == dims.size() &&
        std::equal(dims.begin(), dims.end(), view->shape().begin());
    if (shapeMatches && view->elementType() == type)
      return okStatus();
    // The module's message says which value this is ("input 0").
    return invalidArgument(message, ": expected ",
                           hal::formatTensorType(dims, type), ", got ",
                           view->typeString());
  }
  case Opcode::kBufferViewBuffer: {
    int64_t dst = operand();
    FERRY_ASSIGN_OR_RETURN(auto view, refOperand<hal::BufferView>("view"));
    setRef(dst, view->buffer());
    return okStatus();
  }
  case Opcode::kBufferViewCreate: {
    int64_t dst = operand();
    FERRY_ASSIGN_OR_RETURN(auto buffer, refOperand<hal::Buffer>("buffer"));
    hal::ElementType type = hal::ElementType(operand());
    FERRY_ASSIGN_OR_RETURN(std::vector<int64_t> dims, dimOperands());
    if (buffer->isReleased())
      return failWith("the buffer was already deallocated");
    Result<std::shared_ptr<hal::BufferView>> view =
        hal::BufferView::create(std::move(buffer), std::move(dims), type);
    if (!view.ok())
      return fail(view.status());
    setRef(dst, std::move(*view));
    return okStatus();
  }
  case Opcode::kBufferLength: {
    int64_t &dst = i64Operand();
    FERRY_ASSIGN_OR_RETURN(auto buffer, refOperand<hal::Buffer>("buffer"));
    dst = int64_t(buffer->byteLength());
    return okStatus();
  }
  case Opcode::kFenceCreate: {
    int64_t dst = operand();
    FERRY_ASSIGN_OR_RETURN(auto device, refOperand<hal::Device>("device"));
    setRef(dst, hal::Fence::create());
    return okStatus();
  }
  case Opcode::kFenceAwait: {
    int64_t count = operand();
    for (int64_t i = 0; i < count; ++i) {
      FERRY_ASSIGN_OR_RETURN(auto fence,
                             refOperand<hal::Fence>(strCat("fence ", i)));
      // A failed fence carries the error of the work that failed; pass it on
      // unchanged so the user sees the root cause.
      FERRY_RETURN_IF_ERROR(fence->wait());
    }
    return okStatus();
  }
  case Opcode::kFenceJoin: {
    int64_t dst = operand();
    int64_t count = operand();
    std::vector<std::shared_ptr<hal::Fence>> fences;
    for (int64_t i = 0; i < count; ++i) {
      FERRY_ASSIGN_OR_RETURN(auto fence,
                             refOperand<hal::Fence>(strCat("fence ", i)));
      fences.push_back(std::move(fence));
    }
    setRef(dst, hal::Fence::join(fences));
    return okStatus();
  }
  case Opcode::kQueueAlloca: {
    int64_t dst = operand();
    FERRY_ASSIGN_OR_RETURN(auto device, refOperand<hal::Device>("device"));
    FERRY_ASSIGN_OR_RETURN(auto wait,
                           optionalRefOperand<hal::Fence>("wait fence"));
    FERRY_ASSIGN_OR_RETURN(auto signal, refOperand<hal::Fence>("signal fence"));
    FERRY_ASSIGN_OR_RETURN(uint32_t memoryType,
                           u32FromI64(i64Operand(), "memory type"));
    FERRY_ASSIGN_OR_RETURN(uint32_t usage,
                           u32FromI64(i64Operand(), "buffer usage"));
    int64_t size = i64Operand();
    uint32_t flags = uint32_t(operand());
    if (size < 0) {
      Status status = failWith("allocation size ", size, " is negative");
      signal->fail(status);
      return status;
    }
    Result<std::shared_ptr<hal::Buffer>> buffer = device->queueAlloca(
        wait, signal, memoryType, usage, uint64_t(size), flags);
    if (!buffer.ok())
      return fail(buffer.status());
    setRef(dst, std::move(*buffer));
    return okStatus();
  }
  case Opcode::kQueueDealloca: {
    FERRY_ASSIGN_OR_RETURN(auto device, refOperand<hal::Device>("device"));
    FERRY_ASSIGN_OR_RETURN(auto wait,
                           optionalRefOperand<hal::Fence>("wait fence"));
    FERRY_ASSIGN_OR_RETURN(auto signal, refOperand<hal::Fence>("signal fence"));
    FERRY_ASSIGN_OR_RETURN(auto buffer, refOperand<hal::Buffer>("buffer"));
    uint32_t flags = uint32_t(operand());
    Status status = device->queueDealloca(wait, signal, buffer, flags);
    return status.ok() ? status : fail(status);
  }
  case Opcode::kQueueDeallocaIf: {
    FERRY_ASSIGN_OR_RETURN(auto device, refOperand<hal::Device>("device"));
    FERRY_ASSIGN_OR_RETURN(auto wait,
                           optionalRefOperand<hal::Fence>("wait fence"));
    FERRY_ASSIGN_OR_RETURN(auto signal, refOperand<hal::Fence>("signal fence"));
    FERRY_ASSIGN_OR_RETURN(auto buffer, refOperand<hal::Buffer>("buffer"));
    uint32_t flags = uint32_t(operand());
    int64_t condition = i64Operand();
    Status status = condition != 0
                        ? device->queueDealloca(wait, signal, buffer, flags)
                        : device->queueBarrier(wait, signal);
    return status.ok() ? status : fail(status);
  }
  case Opcode::kQueueFill: {
    FERRY_ASSIGN_OR_RETURN(auto device, refOperand<hal::Device>("device"));
    FERRY_ASSIGN_OR_RETURN(auto wait,
                           optionalRefOperand<hal::Fence>("wait fence"));
    FERRY_ASSIGN_OR_RETURN(auto signal, refOperand<hal::Fence>("signal fence"));
    FERRY_ASSIGN_OR_RETURN(auto target, refOperand<hal::Buffer>("target"));
    Result<uint64_t> offset = byteOperand("fill offset");
    Result<uint64_t> length = byteOperand("fill length");
    int64_t pattern = i64Operand();
    uint32_t patternBytes = uint32_t(operand());
    for (const Status &status : {offset.status(), length.status()})
      if (!status.ok()) {
        signal->fail(status);
        return status;
      }
    Status status = device->queueFill(wait, signal, target, *offset, *length,
                                      uint64_t(pattern), patternBytes);
    return status.ok() ? status : fail(status);
  }
  case Opcode::kQueueCopy: {
    FERRY_ASSIGN_OR_RETURN(auto device, refOperand<hal::Device>("device"));
    FERRY_ASSIGN_OR_RETURN(auto wait,
                           optionalRefOperand<hal::Fence>("wait fence"));
    FERRY_ASSIGN_OR_RETURN(auto signal, refOperand<hal::Fence>("signal fence"));
    FERRY_ASSIGN_OR_RETURN(auto source, refOperand<hal::Buffer>("source"));
    Result<uint64_t> sourceOffset = byteOperand("source offset");
    FERRY_ASSIGN_OR_RETURN(auto target, refOperand<hal::Buffer>("target"));
    Result<uint64_t> targetOffset = byteOperand("target offset");
    Result<uint64_t> length = byteOperand("copy length");
    for (const Status &status :
         {sourceOffset.status(), targetOffset.status(), length.status()})
      if (!status.ok()) {
        signal->fail(status);
        return status;
      }
    Status status = device->queueCopy(wait, signal, source, *sourceOffset,
                                      target, *targetOffset, *length);
    return status.ok() ? status : fail(status);
  }
  case Opcode::kBufferPreserve: {
    FERRY_ASSIGN_OR_RETURN(hal::Buffer * buffer, nullableBufferOperand());
    hal::allocationPreserve(buffer);
    return okStatus();
  }
  case Opcode::kBufferDiscard: {
    int64_t &dst = i64Operand();
    FERRY_ASSIGN_OR_RETURN(hal::Buffer * buffer, nullableBufferOperand());
    Result<bool> last = hal::allocationDiscard(buffer);
    if (!last.ok())
      return fail(last.status());
    dst = *last ? 1 : 0;
    return okStatus();
  }
  case Opcode::kBufferIsTerminal: {
    int64_t &dst = i64Operand();
    FERRY_ASSIGN_OR_RETURN(hal::Buffer * buffer, nullableBufferOperand());
    dst = hal::allocationIsTerminal(buffer) ? 1 : 0;
    return okStatus();
  }
  case Opcode::kQueueDispatch: {
    FERRY_ASSIGN_OR_RETURN(auto device, refOperand<hal::Device>("device"));
    FERRY_ASSIGN_OR_RETURN(auto wait,
                           optionalRefOperand<hal::Fence>("wait fence"));
    FERRY_ASSIGN_OR_RETURN(auto signal, refOperand<hal::Fence>("signal fence"));
    auto kernel = hal::BuiltinKernel(operand());
    auto type = hal::ElementType(operand());
    int64_t count = i64Operand();
    int64_t bindingCount = operand();
    std::vector<std::shared_ptr<hal::Buffer>> bindings;
    for (int64_t i = 0; i < bindingCount; ++i) {
      FERRY_ASSIGN_OR_RETURN(auto buffer,
                             refOperand<hal::Buffer>(strCat("binding ", i)));
      bindings.push_back(std::move(buffer));
    }
    if (count < 0) {
      Status status = failWith("element count ", count, " is negative");
      signal->fail(status);
      return status;
    }
    Status status = device->queueDispatch(wait, signal, kernel, type,
                                          uint64_t(count), bindings);
    return status.ok() ? status : fail(status);
  }
  case Opcode::kQueueDispatchEntry: {
    FERRY_ASSIGN_OR_RETURN(auto device, refOperand<hal::Device>("device"));
    FERRY_ASSIGN_OR_RETURN(auto wait,
                           optionalRefOperand<hal::Fence>("wait fence"));
    FERRY_ASSIGN_OR_RETURN(auto signal, refOperand<hal::Fence>("signal fence"));
    const std::shared_ptr<const hal::Executable> &executable =
        context_.executables()[size_t(operand())];
    auto entry = uint32_t(operand());
    std::array<int64_t, 3> counts = {i64Operand(), i64Operand(), i64Operand()};
    std::vector<uint64_t> pushConstants(static_cast<size_t>(operand()));
    for (uint64_t &value : pushConstants)
      value = uint64_t(i64Operand());
    std::vector<hal::DispatchBinding> bindings(static_cast<size_t>(operand()));
    for (size_t i = 0; i < bindings.size(); ++i) {
      FERRY_ASSIGN_OR_RETURN(bindings[i].buffer,
                             refOperand<hal::Buffer>(strCat("binding ", i)));
    }
    std::array<std::vector<int64_t>, 2> ranges; // offsets, lengths
    for (std::vector<int64_t> &range : ranges) {
      range.resize(size_t(operand()));
      for (int64_t &value : range)
        value = i64Operand();
    }
    // Negative counts, offsets and lengths never reach the device.
    auto negative = [&](std::string_view what, size_t i, int64_t value) {
      Status status = failWith("executable '", executable->name(), "' ", what,
                               " ", i, " is negative (", value, ")");
      signal->fail(status);
      return status;
    };
    std::array<uint64_t, 3> workgroups;
    for (size_t d = 0; d < 3; ++d) {
      if (counts[d] < 0)
        return negative("workgroup count", d, counts[d]);
      workgroups[d] = uint64_t(counts[d]);
    }
    for (size_t i = 0; i < bindings.size(); ++i) {
      if (ranges[0][i] < 0)
        return negative("binding offset", i, ranges[0][i]);
      if (ranges[1][i] < 0)
        return negative("binding length", i, ranges[1][i]);
      bindings[i].offset = uint64_t(ranges[0][i]);
      bindings[i].length = uint64_t(ranges[1][i]);
    }
    Status status = device->queueDispatchEntry(
        wait, signal, executable, entry, workgroups, pushConstants, bindings);
    return status.ok() ? status : fail(status);
  }
  case Opcode::kDeviceQuery: {
    int64_t &ok = i64Operand();
    int64_t &value = i64Operand();
    FERRY_ASSIGN_OR_RETURN(auto device, refOperand<hal::Device>("device"));
    const std::vector<std::string> &strings = context_.module().strings();
    const std::string &category = strings[size_t(operand())];
    const std::string &key = strings[size_t(operand())];
    int64_t defaultValue = operand();
    int64_t bits = operand();
    hal::DeviceQueryResult answer = device->query(category, key);
    ok = answer.known ? 1 : 0;
    value = canonicalInteger(
        uint64_t(answer.known ? answer.value : defaultValue), unsigned(bits));
    return okStatus();
  }
  case Opcode::kAllocatorSelect: {
    int64_t dst = operand();
    int64_t count = operand();
    std::vector<std::shared_ptr<hal::Device>> candidates;
    for (int64_t i = 0; i < count; ++i) {
      FERRY_ASSIGN_OR_RETURN(auto device,
                             refOperand<hal::Device>(strCat("device ", i)));
      candidates.push_back(std::move(device));
    }
    FERRY_ASSIGN_OR_RETURN(auto chosen, selectAllocator(candidates));
    setRef(dst, std::move(chosen));
    return okStatus();
  }
  case Opcode::kDeviceImportBuffer: {
    int64_t dst = operand();
    FERRY_ASSIGN_OR_RETURN(auto device, refOperand<hal::Device>("device"));
    FERRY_ASSIGN_OR_RETURN(auto buffer, refOperand<hal::Buffer>("buffer"));
    FERRY_ASSIGN_OR_RETURN(auto wait,
                           optionalRefOperand<hal::Fence>("wait fence"));
    Result<std::shared_ptr<hal::Buffer>> imported =
        hal::importBufferToDevice(*device, buffer, wait);
    if (!imported.ok())
      return fail(imported.status());
    setRef(dst, std::move(*imported));
    return okStatus();
  }
  case Opcode::kDeviceConstant: {
    int64_t dst = operand();
    FERRY_ASSIGN_OR_RETURN(auto device, refOperand<hal::Device>("device"));
    setRef(dst, context_.constantBuffer(*device, uint32_t(operand())));
    return okStatus();
  }
  case Opcode::kBufferClaim: {
    int64_t dst = operand();
    FERRY_ASSIGN_OR_RETURN(auto device, refOperand<hal::Device>("device"));
    FERRY_ASSIGN_OR_RETURN(auto buffer, refOperand<hal::Buffer>("buffer"));
    Result<std::shared_ptr<hal::Buffer>> claimed =
        hal::claimBuffer(*device, buffer);
    if (!claimed.ok())
      return fail(claimed.status());
    setRef(dst, std::move(*claimed));
    return okStatus();
  }
  case Opcode::kBufferLoad: {
    int64_t &dst = i64Operand();
    FERRY_ASSIGN_OR_RETURN(auto buffer, refOperand<hal::Buffer>("buffer"));
    int64_t offset = i64Operand();
    auto type = hal::ElementType(operand());
    FERRY_ASSIGN_OR_RETURN(dst, loadElement(buffer, offset, type));
    return okStatus();
  }
  default:
    return internalError(where(), ": opcode has no implementation");
  }
}

Result<int64_t> Frame::loadElement(const std::shared_ptr<hal::Buffer> &buffer,
                                   int64_t offset, hal::ElementType type) {
  uint64_t size = hal::elementByteSize(type);
  if (offset < 0 || uint64_t(offset) > buffer->byteLength() ||
      buffer->byteLength() - uint64_t(offset) < size)
    return failWith("reading ", hal::elementTypeName(type), " at byte offset ",
                    offset, " is out of bounds of ", buffer->describe());
  if (buffer->isReleased())
    return failWith("reading ", buffer->describe(), ", which is deallocated");
  uint8_t bytes[8] = {};
  bool mappable =
      (buffer->memoryType() & hal::kHostVisible) &&
      (buffer->usage() & (hal::kMappingScoped | hal::kMappingPersistent));
  if (mappable) {
    Result<std::span<uint8_t>> mapped =
        buffer->map(hal::MappingMode::kScoped, uint64_t(offset), size);
    if (!mapped.ok())
      return fail(mapped.status());
    std::memcpy(bytes, mapped->data(), size);
  } else {
    // Memory the host cannot see: copied into host memory on the queue of
    // the device that allocated it (the work writing it is done: the
    // program awaited it). A buffer the host allocated directly (an input
    // ferry-run staged onto a discrete device) names no device: the one
    // whose allocator it came from.
    std::shared_ptr<hal::Device> device = buffer->placement().device.lock();
    if (!device)
      for (const std::shared_ptr<hal::Device> &candidate : context_.devices())
        if (&candidate->allocator() == &buffer->allocator())
          device = candidate;
    if (!device)
      return failWith(buffer->describe(), " is not host-visible and has no "
                                          "device to stage it through");
    Status status = [&]() -> Status {
      FERRY_ASSIGN_OR_RETURN(
          std::shared_ptr<hal::Buffer> staging,
          device->allocator().allocate(
              hal::kHostVisible | hal::kHostCoherent | hal::kDeviceVisible,
              hal::kTransfer | hal::kMappingScoped, size));
      auto done = hal::Fence::create();
      FERRY_RETURN_IF_ERROR(device->queueCopy(
          nullptr, done, buffer, uint64_t(offset), staging, 0, size));
      FERRY_RETURN_IF_ERROR(done->wait());
      FERRY_ASSIGN_OR_RETURN(std::span<uint8_t> mapped,
                             staging->map(hal::MappingMode::kScoped));
      std::memcpy(bytes, mapped.data(), size);
      return okStatus();
    }();
    if (!status.ok())
      return fail(status.withContext("staging the element"));
  }
  uint64_t raw = 0;
  std::memcpy(&raw, bytes, 8); // little-endian
  unsigned shift = 64 - unsigned(size) * 8;
  return shift ? int64_t(raw << shift) >> shift : int64_t(raw);
}

Result<hal::Buffer *> Frame::nullableBufferOperand() {
  int64_t reg = operand();
  const Ref &ref = refs_[size_t(reg)];
  if (std::holds_alternative<std::monostate>(ref))
    return static_cast<hal::Buffer *>(nullptr);
  if (const auto *buffer = std::get_if<std::shared_ptr<hal::Buffer>>(&ref))
    return buffer->get();
  return failWith("buffer (ref register ", reg, ") holds a ", refTypeName(ref),
                  ", expected a buffer");
}

Status Frame::executeCallImport() {
  size_t index = size_t(operand());
  const Import &import = context_.module().imports()[index];
  const NativeFunction &callee = *context_.resolvedImports()[index];
  int64_t argCount = operand();
  std::vector<Value> args;
  args.reserve(size_t(argCount));
  for (int64_t i = 0; i < argCount; ++i) {
    RegisterKind kind = RegisterKind(operand());
    int64_t reg = operand();
    if (kind == RegisterKind::kI64)
      args.emplace_back(i64s_[size_t(reg)]);
    else
      args.emplace_back(refs_[size_t(reg)]);
  }
  auto named = [&](const Status &status) {
    return status.withContext(strCat("external function '", import.name, "'"));
  };

  ContextObserver *observer = context_.observer();
  ImportCallEvent::Clock::time_point start;
  if (observer)
    start = ImportCallEvent::Clock::now();

  // New results: the program's allocation requests (device, memory types,
  // usage per result) go to the callee's CallContext, not to the callee.
  ImportStaging staging;
  ResultAllocator resultAllocator;
  std::shared_ptr<hal::Fence> calleeWait;
  if (import.usesResultAllocation()) {
    size_t at = import.resultRequestsAt();
    std::vector<ResultAllocator::Request> requests;
    for (size_t r = 0; r < import.resultKinds.size(); ++r, at += 3) {
      ResultAllocator::Request request;
      request.device = args[at].refAs<hal::Device>();
      if (!request.device && !isNullObject(args[at].ref()))
        return failWith("allocation request for result ", r, " of '",
                        import.name, "' (argument ", at, ") holds a ",
                        refTypeName(args[at].ref()), ", expected a device");
      request.memoryType = uint32_t(args[at + 1].i64());
      request.usage = uint32_t(args[at + 2].i64());
      if (request.usage == 0) // a tied result: written in place
        request.device = nullptr;
      requests.push_back(std::move(request));
    }
    args.erase(args.begin() + std::ptrdiff_t(import.resultRequestsAt()),
               args.begin() + std::ptrdiff_t(at));
    resultAllocator = ResultAllocator(std::move(requests), &staging);
  }

  // Coarse fences: the callee gets a signal fence of its own whose
  // resolution is forwarded to the program's (after any staged buffers are
  // copied back), so a failure arriving later on another thread still names
  // the function.
  std::shared_ptr<hal::Fence> programSignal, calleeSignal;
  if (import.usesCoarseFences()) {
    size_t signalAt = args.size() - 1;
    for (size_t at : {signalAt - 1, signalAt}) {
      const Ref &ref = args[at].ref();
      if (!std::holds_alternative<std::monostate>(ref) &&
          !args[at].refAs<hal::Fence>())
        return failWith(at == signalAt ? "signal" : "wait", " fence of '",
                        import.name, "' (argument ", at, ") holds a ",
                        refTypeName(ref), ", expected a fence");
    }
    // External code maps its views through the host: stage those in memory
    // the host cannot see.
    hal::Device *fallback =
        context_.devices().empty() ? nullptr : context_.devices()[0].get();
    Result<ImportStaging> staged =
        ImportStaging::stageArguments(args, fallback);
    if (!staged.ok())
      return fail(named(staged.status()));
    staging = std::move(*staged);
    programSignal = args[signalAt].refAs<hal::Fence>();
    // Results the callee allocates become new staged views: it gets a
    // signal fence of its own whenever it may allocate.
    if (programSignal || !staging.empty() || import.usesResultAllocation()) {
      calleeSignal = hal::Fence::create();
      args[signalAt] = Value(calleeSignal);
    }
    // It may touch a result once its allocation executed: its wait fence
    // is resolved after the call returns, joining the allocations made.
    if (import.usesResultAllocation()) {
      calleeWait = hal::Fence::create();
      calleeWait->addPendingSignal(); // resolved below, after the call
      std::shared_ptr<hal::Fence> wait = args[signalAt - 1].refAs<hal::Fence>();
      args[signalAt - 1] = Value(calleeWait);
      if (wait)
        resultAllocator.addWait(wait);
    }
  }

  Result<std::vector<Value>> results = callee.body(args, resultAllocator);
  if (calleeWait) {
    // Resolve the callee's wait fence whatever happened, so a worker the
    // callee started never waits forever.
    std::shared_ptr<hal::Fence> ready =
        hal::Fence::join(resultAllocator.allocated());
    ready->whenResolved([calleeWait](const Status &status) {
      if (status.ok())
        calleeWait->signal();
      else
        calleeWait->fail(status);
    });
  }
  if (results.ok()) {
    Status checked = resultAllocator.checkResults(*results);
    if (!checked.ok())
      results = checked;
  }
  if (observer)
    observer->onImportCall(
        {import.name, start, ImportCallEvent::Clock::now(), results.ok()});
  if (!results.ok()) {
    Status status = named(results.status());
    if (programSignal)
      programSignal->fail(status);
    return fail(status);
  }
  if (calleeSignal) {
    // Returning successfully promises to resolve the signal fence: the
    // copies back may wait for it.
    calleeSignal->addPendingSignal();
    std::shared_ptr<hal::Fence> completion = calleeSignal;
    if (!staging.empty()) {
      // The copies back may wait for the callee inline (a synchronous
      // device): a fence timeout must be able to end that wait too.
      context_.watchExternalFence(calleeSignal, import.name);
      Result<std::shared_ptr<hal::Fence>> done =
          staging.finish(*results, calleeSignal);
      if (!done.ok()) {
        Status status = named(done.status());
        if (programSignal)
          programSignal->fail(status);
        return fail(status);
      }
      completion = *done;
    }
    // With a fence timeout, the program's fence must resolve within it.
    if (programSignal) {
      programSignal->addPendingSignal();
      context_.watchExternalFence(programSignal, import.name);
    }
    completion->whenResolved([programSignal, name = import.name, observer,
                              start](const Status &status) {
      if (observer)
        observer->onImportCompleted(
            {name, start, ImportCallEvent::Clock::now(), status.ok()});
      if (!programSignal)
        return;
      if (status.ok())
        programSignal->signal();
      else
        programSignal->fail(
            status.withContext(strCat("external function '", name, "'")));
    });
  }

  // Results the import cannot use fail the call, and its fence with it.
  auto reject = [&](const Status &status) {
    if (programSignal)
      programSignal->fail(status);
    return status;
  };
  int64_t resultCount = operand();
  if (results->size() != size_t(resultCount))
    return reject(failWith("external function '", import.name, "' returned ",
                           results->size(), " values, its import declares ",
                           resultCount));
  for (int64_t i = 0; i < resultCount; ++i) {
    RegisterKind kind = RegisterKind(operand());
    int64_t reg = operand();
    Value &value = (*results)[size_t(i)];
    if (value.isI64() != (kind == RegisterKind::kI64))
      return reject(failWith("external function '", import.name, "' result ", i,
                             " is ", value.isI64() ? "an i64" : "a ref",
                             ", its import declares ", registerKindName(kind)));
    // The program uses each result as a tensor: the operand it is tied to,
    // written in place, or a new one (checked against its type).
    if (kind == RegisterKind::kRef && import.usesCoarseFences() &&
        !value.refAs<hal::BufferView>())
      return reject(failWith(
          "external function '", import.name, "' returned ",
          isNullObject(value.ref()) ? std::string("null")
                                    : strCat("a ", refTypeName(value.ref())),
          " as result ", i,
          "; a coarse-fences function returns a buffer view for every "
          "result (for a tied result, a view of the operand it writes)"));
    if (kind == RegisterKind::kI64)
      i64s_[size_t(reg)] = value.i64();
    else
      setRef(reg, value.ref());
  }
  return okStatus();
}

// The device to allocate a buffer shared by all `candidates` on, by the
// runtime topology (the same preference as the compiler's rules): the first
// whose memory every other candidate accesses transparently, else the first
// every other shares unified memory with, else the first whose buffers every
// other can import, else the first.
Result<std::shared_ptr<hal::Device>> Frame::selectAllocator(
    const std::vector<std::shared_ptr<hal::Device>> &candidates) {
  // Each preference holds when `user` answers yes to any of its keys about
  // the owner ("<owner>:<property>", see runtime/hal/device.h).
  static constexpr std::string_view kPreferences[][2] = {
      {"transparent_access", ""},
      {"unified_memory", ""},
      {"import.opaque_fd", "import.host_allocation"},
  };
  auto holds = [](const hal::Device &user, const hal::Device &owner,
                  const std::string_view(&properties)[2]) {
    for (std::string_view property : properties) {
      if (property.empty())
        continue;
      hal::DeviceQueryResult answer =
          user.query("hal.device.link", strCat(owner.name(), ":", property));
      if (answer.known && answer.value != 0)
        return true;
    }
    return false;
  };
  for (const auto &properties : kPreferences)
    for (const auto &owner : candidates)
      if (std::all_of(candidates.begin(), candidates.end(),
                      [&](const std::shared_ptr<hal::Device> &user) {
                        return user == owner ||
                               holds(*user, *owner, properties);
                      }))
        return owner;
  return candidates.front();
}

// Runs `function` and every function it calls, keeping the frames in a
// stack of its own. Errors from a callee name the calls that led to it.
Result<std::vector<Value>> runFunction(const Context &context,
                                       const Function &function,
                                       std::vector<Value> args,
                                       std::span<int64_t> writableGlobals) {
  std::vector<std::unique_ptr<Frame>> stack;
  stack.push_back(std::make_unique<Frame>(context, function, writableGlobals));
  size_t liveRegisters = stack.back()->registerCount();
  FERRY_RETURN_IF_ERROR(stack.back()->placeArguments(args));
  args.clear();
  auto unwind = [&](Status status) {
    // Name the innermost callers (the whole chain of a deep recursion would
    // drown the message), then how many more there are.
    constexpr size_t kNamedCallers = 4;
    size_t named = 0;
    for (auto it = stack.rbegin(); it != stack.rend() && named < kNamedCallers;
         ++it, ++named)
      status = (*it)->calledFrom(status);
    if (stack.size() > named)
      status = status.withContext(
          strCat("(", stack.size() - named, " more enclosing calls)"));
    // Frames drop their registers (and the refs in them) as they go.
    stack.clear();
    return status;
  };
  while (true) {
    Result<Frame::Stop> stop = stack.back()->run();
    if (!stop.ok()) {
      stack.pop_back();
      return unwind(stop.status());
    }
    if (stop->kind == Frame::Stop::kCall) {
      if (stack.size() >= Context::kMaxCallDepth) {
        Status status = stack.back()->failWith(
            "call depth exceeds ", Context::kMaxCallDepth, " calling '",
            stop->callee->name, "' (unbounded recursion?)");
        stack.pop_back();
        return unwind(status);
      }
      size_t calleeRegisters = size_t(stop->callee->i64RegisterCount) +
                               stop->callee->refRegisterCount;
      if (liveRegisters + calleeRegisters > Context::kMaxLiveRegisters) {
        Status status = stack.back()->failWith(
            "calls hold more than ", Context::kMaxLiveRegisters,
            " registers calling '", stop->callee->name, "' (", stack.size(),
            " frames deep; unbounded recursion?)");
        stack.pop_back();
        return unwind(status);
      }
      liveRegisters += calleeRegisters;
      auto callee = std::make_unique<Frame>(context, *stop->callee);
      FERRY_RETURN_IF_ERROR(callee->placeArguments(stop->values));
      stop->values.clear();
      stack.push_back(std::move(callee));
      continue;
    }
    liveRegisters -= stack.back()->registerCount();
    stack.pop_back();
    if (stack.empty())
      return std::move(stop->values);
    stack.back()->receiveResults(stop->values);
  }
}

} // namespace

Status Context::initialize() {
  const Function *init = module_->initializer();
  if (!init)
    return okStatus();
  Result<std::vector<Value>> results = runFunction(*this, *init, {}, globals_);
  if (!results.ok())
    return results.status().withContext("module initializer");
  return okStatus();
}

Result<std::vector<Value>> Context::invoke(std::string_view functionName,
                                           std::vector<Value> args) const {
  const Function *function = module_->lookupFunction(functionName);
  if (!function)
    return notFound("module has no function '", functionName,
                    "' (functions: ", module_->functionNamesString(), ")");
  if (args.size() != function->argKinds.size())
    return invalidArgument("function '", function->name, "' expects ",
                           function->argKinds.size(), " arguments, got ",
                           args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    bool isI64 = function->argKinds[i] == RegisterKind::kI64;
    if (isI64 != args[i].isI64())
      return invalidArgument("function '", function->name, "' argument ", i,
                             " must be ", isI64 ? "an i64" : "a ref", ", got ",
                             args[i].isI64() ? "an i64" : "a ref");
  }
  return runFunction(*this, *function, std::move(args), {});
}

} // namespace ferry::vm
