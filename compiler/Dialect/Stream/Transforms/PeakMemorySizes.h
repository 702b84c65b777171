// The sizes stream-estimate-peak-memory needs (EstimatePeakMemory.cpp): what
// it knows of a function's arguments (input-shapes, or what a caller
// passes), and an evaluator of index and integer values (constants, tensor
// sizes, arithmetic in each type's width, arguments' dims and scalars, dims
// of buffers a call returned, dims and scalars regions carry). Used by that
// pass only.
#ifndef FERRY_COMPILER_DIALECT_STREAM_TRANSFORMS_PEAKMEMORYSIZES_H_
#define FERRY_COMPILER_DIALECT_STREAM_TRANSFORMS_PEAKMEMORYSIZES_H_

#include "compiler/Dialect/Stream/Analysis/ResourceUsage.h"
#include "compiler/Dialect/Stream/IR/StreamDialect.h"
#include "compiler/Utils/ElementTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <functional>
#include <optional>
#include <string>

namespace ferry::stream::peak_memory {

// (Using-declarations, not a using-directive: the names this header needs.)
using llvm::APInt;
using llvm::ArrayRef;
using llvm::cast;
using llvm::dyn_cast;
using llvm::dyn_cast_or_null;
using llvm::isa;
using llvm::SmallVector;
using llvm::StringRef;
using llvm::TypeSwitch;
using mlir::Attribute;
using mlir::BlockArgument;
using mlir::FailureOr;
using mlir::InFlightDiagnostic;
using mlir::IntegerAttr;
using mlir::m_ConstantInt;
using mlir::matchPattern;
using mlir::Operation;
using mlir::OpOperand;
using mlir::OpResult;
using mlir::RankedTensorType;
using mlir::Region;
using mlir::RegionBranchOpInterface;
using mlir::RegionSuccessor;
using mlir::ShapedType;
using mlir::Type;
using mlir::Value;
namespace arith = mlir::arith;
namespace func = mlir::func;
namespace scf = mlir::scf;

// What the walk knows of one argument of a function: a tensor's shape, an
// integer scalar's value. `input-shapes` gives one entry per argument, in
// order: an entry of one integer (`5`) is either, the argument's type
// decides; a callee's come from what its caller passes.
struct ArgInput {
  std::optional<SmallVector<int64_t>> shape;
  std::optional<int64_t> value;
  // The entry as written in input-shapes (for remarks); none for a callee.
  std::optional<std::string> text;
};
using ArgInputs = SmallVector<ArgInput>;

// The width the evaluator computes a value of `type` in (index: 64 bits, as
// the VM's registers).
inline unsigned bitWidth(Type type) {
  return type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
}

// `value` (kept sign-extended to 64 bits) as the bits of `type`.
inline APInt toBits(int64_t value, Type type) {
  return APInt(bitWidth(type), static_cast<uint64_t>(value),
               /*isSigned=*/true, /*implicitTrunc=*/true);
}

// Whether `value` is a value of integer type `type`, read as signed or as
// unsigned (i8: -128 to 255).
inline bool fitsType(int64_t value, Type type) {
  unsigned width = bitWidth(type);
  if (width >= 64)
    return true;
  return value >= -(int64_t(1) << (width - 1)) && value < (int64_t(1) << width);
}

// Dimension `dim` of result `result` of a call, or nullopt.
using CallResultDim =
    std::function<std::optional<int64_t>(func::CallOp, unsigned, int64_t)>;

// The value a structured region op's block argument or result first holds:
// a loop's init, the value a while's condition passes on, the value the
// first region of a branch region op (scf.if, scf.index_switch,
// scf.execute_region) yields. Null for anything else.
inline Value carriedSource(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *op = arg.getOwner()->getParentOp();
    unsigned number = arg.getArgNumber();
    if (auto forOp = dyn_cast<scf::ForOp>(op))
      return number < forOp.getNumInductionVars()
                 ? Value()
                 : forOp.getInitArgs()[number - forOp.getNumInductionVars()];
    if (auto whileOp = dyn_cast<scf::WhileOp>(op))
      return arg.getParentRegion() == &whileOp.getBefore()
                 ? whileOp.getInits()[number]
                 : whileOp.getConditionOp().getArgs()[number];
    return {};
  }
  auto result = cast<OpResult>(value);
  unsigned number = result.getResultNumber();
  return TypeSwitch<Operation *, Value>(result.getOwner())
      .Case([&](scf::ForOp op) { return op.getInitArgs()[number]; })
      .Case([&](scf::WhileOp op) {
        return op.getConditionOp().getArgs()[number];
      })
      .Default([&](Operation *op) {
        if (!isBranchRegionOp(op))
          return Value();
        Region &first = op->getRegion(0);
        return first.empty()
                   ? Value()
                   : first.front().getTerminator()->getOperand(number);
      });
}

// Evaluates index values of one function: constants, tensor sizes, integer
// arithmetic (arith ops in their type's width, wrapping as at run time),
// argument dimensions and scalar arguments bound by `args` (`input-shapes`
// for the function the walk starts from, what the caller passes for a
// callee) and the dimensions of buffers a call returned.
class SizeEvaluator {
public:
  SizeEvaluator(ArrayRef<ArgInput> args, CallResultDim callResultDim)
      : args(args), callResultDim(std::move(callResultDim)) {}

  std::optional<int64_t> evaluate(Value value) {
    auto it = known.find(value);
    if (it != known.end())
      return it->second;
    // A value met again while it is computed (carried around a loop) is
    // not known from itself.
    if (!computing.insert(value).second)
      return std::nullopt;
    std::optional<int64_t> result = compute(value);
    computing.erase(value);
    known[value] = result;
    return result;
  }

  // The region of branch region op `op` that runs, where the operands
  // deciding it (an scf.if's condition, an scf.index_switch's selector)
  // evaluate: the op's own RegionBranchOpInterface answer for them as
  // constants. Null when no region runs (an scf.if without else whose
  // condition is false); none when it is not known.
  std::optional<Region *> takenRegion(Operation *op) {
    SmallVector<Attribute> operands;
    for (Value operand : op->getOperands()) {
      Type type = operand.getType();
      std::optional<int64_t> value =
          type.isIntOrIndex() ? evaluate(operand) : std::nullopt;
      if (value && type.isInteger(1))
        value = *value != 0 ? 1 : 0;
      operands.push_back(value ? IntegerAttr::get(type, *value) : Attribute());
    }
    SmallVector<RegionSuccessor> successors;
    cast<RegionBranchOpInterface>(op).getEntrySuccessorRegions(operands,
                                                               successors);
    if (successors.size() != 1)
      return std::nullopt;
    return successors.front().getSuccessor();
  }

  // Result `number` of branch region op `op`, by `evaluateYielded` of what
  // its regions yield there: the taken region's where it is known, else
  // the largest (an upper bound, as the walk keeps the largest branch; an
  // i1 only where they agree).
  template <typename Fn>
  std::optional<int64_t> branchResult(Operation *op, unsigned number,
                                      Fn evaluateYielded) {
    auto yielded = [&](Region &region) -> std::optional<int64_t> {
      if (region.empty())
        return std::nullopt;
      return evaluateYielded(
          region.front().getTerminator()->getOperand(number));
    };
    if (std::optional<Region *> taken = takenRegion(op))
      return *taken ? yielded(**taken) : std::nullopt;
    // (A flag is no size: the regions must agree on it.)
    bool flag = op->getResult(number).getType().isInteger(1);
    std::optional<int64_t> largest;
    for (Region &region : op->getRegions()) {
      if (region.empty())
        continue;
      std::optional<int64_t> value = yielded(region);
      if (!value || (flag && largest && *largest != *value))
        return std::nullopt;
      largest = std::max(largest.value_or(*value), *value);
    }
    return largest;
  }

  // The size `resource` was allocated with (resourceSize, below).
  std::optional<int64_t> bufferSize(Value resource) {
    return resourceSize(resource);
  }

  // The number of iterations of `forOp` where its bounds evaluate.
  std::optional<int64_t> tripCount(scf::ForOp forOp) {
    std::optional<int64_t> lb = evaluate(forOp.getLowerBound());
    std::optional<int64_t> ub = evaluate(forOp.getUpperBound());
    std::optional<int64_t> step = evaluate(forOp.getStep());
    if (!lb || !ub || !step)
      return std::nullopt;
    Type type = forOp.getLowerBound().getType();
    APInt lower = toBits(*lb, type), upper = toBits(*ub, type);
    APInt stride = toBits(*step, type);
    bool isUnsigned = forOp.getUnsignedCmp();
    if (isUnsigned ? upper.ule(lower) : upper.sle(lower))
      return 0;
    if (stride.isZero() || (!isUnsigned && stride.isNegative()))
      return std::nullopt;
    APInt span = upper - lower; // positive: upper > lower
    return llvm::APIntOps::RoundingUDiv(span, stride, APInt::Rounding::UP)
        .getLimitedValue(std::numeric_limits<int64_t>::max());
  }

  // Why `size` is not known where it depends on an argument of the function
  // the walk lacks: an integer scalar's value, or a dynamic dimension of a
  // tensor's shape. That argument (and dimension), and why.
  std::optional<std::string> missingArgument(Value size) {
    SmallVector<Value> pending = {size};
    llvm::DenseSet<Value> seen;
    while (!pending.empty()) {
      Value value = pending.pop_back_val();
      if (!seen.insert(value).second || evaluate(value))
        continue;
      if (auto arg = dyn_cast<BlockArgument>(value)) {
        if (isFunctionArgument(arg) && arg.getType().isIntOrIndex())
          return describeMissing(arg);
        continue;
      }
      Operation *def = value.getDefiningOp();
      if (auto dim = dyn_cast<ExternalBufferDimOpInterface>(def)) {
        auto arg = dyn_cast<BlockArgument>(dim.getExternalBuffer());
        if (arg && isFunctionArgument(arg))
          return describeMissingDim(arg, dim.getDimIndex());
        continue;
      }
      // (Operands in order: the first dimension missing is named.)
      llvm::append_range(pending, llvm::reverse(def->getOperands()));
    }
    return std::nullopt;
  }

private:
  static bool isFunctionArgument(BlockArgument arg) {
    return isa<func::FuncOp>(arg.getOwner()->getParentOp());
  }

  // A tensor argument's dimension `index` the walk lacks.
  std::string describeMissingDim(BlockArgument arg, int64_t index) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "it depends on dimension " << index << " of argument "
       << arg.getArgNumber() << " (";
    // The tensor type the function imports the argument as, where it does.
    auto importOp = llvm::find_if(arg.getUsers(), [](Operation *user) {
      return isa<TensorImportOp>(user);
    });
    if (importOp != arg.getUsers().end())
      os << cast<TensorImportOp>(*importOp).getResultEncoding();
    else
      os << arg.getType();
    os << "), ";
    const ArgInput *input =
        arg.getArgNumber() < args.size() ? &args[arg.getArgNumber()] : nullptr;
    if (input && !input->text)
      os << "whose shape the caller passes is not known";
    else if (!input)
      os << "whose shape input-shapes does not give";
    else if (input->text->empty())
      os << "and input-shapes gives an empty entry for it (rank 0)";
    else if (!input->shape)
      os << "and input-shapes gives '" << *input->text
         << "' for it, not a shape";
    else
      os << "and input-shapes gives '" << *input->text << "' for it, of "
         << input->shape->size() << " dimension"
         << (input->shape->size() == 1 ? "" : "s");
    return text;
  }

  std::string describeMissing(BlockArgument arg) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "it depends on argument " << arg.getArgNumber() << " ("
       << arg.getType() << "), ";
    const ArgInput *input =
        arg.getArgNumber() < args.size() ? &args[arg.getArgNumber()] : nullptr;
    if (input && !input->text)
      os << "whose value the caller passes is not known";
    else if (!input || input->text->empty())
      os << "whose value input-shapes does not give";
    else if (!input->value)
      os << "and input-shapes gives '" << *input->text
         << "' for it, not an integer";
    else
      os << "and input-shapes gives '" << *input->text << "' for it, not an "
         << arg.getType() << " value";
    return text;
  }

  // An integer scalar argument's value, from `args`.
  std::optional<int64_t> argumentValue(BlockArgument arg) {
    if (arg.getArgNumber() >= args.size() || !arg.getType().isIntOrIndex())
      return std::nullopt;
    std::optional<int64_t> value = args[arg.getArgNumber()].value;
    if (!value || !fitsType(*value, arg.getType()))
      return std::nullopt;
    return toBits(*value, arg.getType()).getSExtValue();
  }

  // A loop's iter_arg or result (an index carried with a tensor's dims):
  // known when every value passed into the position is the same.
  // A value passed in may depend on the position itself (an scf.if in the
  // body choosing between a new dim and the carried one, folded to a
  // select): the first value passed in that does not is assumed for every
  // member, and kept if every value passed in then agrees.
  std::optional<int64_t> carried(Value value) {
    std::optional<CarriedPosition> position = getCarriedPosition(value);
    if (!position)
      return std::nullopt;
    // A while's before-region argument, after-region argument and result
    // are one position where the condition passes the first on unchanged:
    // the assumption below must cover all three, as the body may read the
    // after-region one (a select of it, random seed 1007).
    Operation *owner = isa<BlockArgument>(value)
                           ? value.getParentBlock()->getParentOp()
                           : value.getDefiningOp();
    if (auto whileOp = dyn_cast<scf::WhileOp>(owner)) {
      unsigned index = isa<BlockArgument>(value)
                           ? cast<BlockArgument>(value).getArgNumber()
                           : cast<OpResult>(value).getResultNumber();
      mlir::OperandRange passed = whileOp.getConditionOp().getArgs();
      if (index < passed.size() &&
          index < whileOp.getBeforeArguments().size() &&
          passed[index] == whileOp.getBeforeArguments()[index]) {
        position->values = {whileOp.getBeforeArguments()[index],
                            whileOp.getAfterArguments()[index],
                            whileOp.getResult(index)};
        position->incoming = {&whileOp.getInitsMutable()[index],
                              &whileOp.getYieldOp()->getOpOperand(index)};
      }
    }
    std::optional<int64_t> common;
    SmallVector<Value> dependent;
    for (OpOperand *in : position->incoming) {
      if (llvm::is_contained(position->values, in->get()))
        continue; // passed on unchanged
      auto saved = known;
      std::optional<int64_t> incoming = evaluate(in->get());
      if (!incoming) {
        known = std::move(saved); // may be known under the assumption below
        dependent.push_back(in->get());
        continue;
      }
      if (common && *common != *incoming)
        return std::nullopt;
      common = incoming;
    }
    if (!common || dependent.empty())
      return common;
    // Under the assumption, values being computed further out (a select of
    // this position and another, whose evaluation led here: random seed
    // 1346) are computed afresh: a cycle through this position ends at its
    // members, now known, and one through another position at that
    // position's own guard, so this terminates.
    auto saved = known;
    llvm::DenseSet<Value> outer = std::move(computing);
    computing.clear();
    for (Value member : position->values)
      known[member] = common;
    bool agree = llvm::all_of(dependent, [&](Value in) {
      std::optional<int64_t> incoming = evaluate(in);
      return incoming && *incoming == *common;
    });
    computing = std::move(outer);
    if (!agree) {
      known = std::move(saved);
      return std::nullopt;
    }
    return common;
  }

  std::optional<int64_t> compute(Value value) {
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant)))
      return constant.getSExtValue();
    Operation *def = value.getDefiningOp();
    if (!def) {
      Operation *parent = value.getParentBlock()->getParentOp();
      if (isa<scf::ForOp, scf::WhileOp>(parent))
        return carried(value);
      if (isa<func::FuncOp>(parent))
        return argumentValue(cast<BlockArgument>(value));
      return std::nullopt;
    }
    if (isBranchRegionOp(def))
      return branchResult(def, cast<OpResult>(value).getResultNumber(),
                          [&](Value yielded) { return evaluate(yielded); });
    if (isa<scf::ForOp, scf::WhileOp>(def))
      return carried(value);
    return TypeSwitch<Operation *, std::optional<int64_t>>(def)
        .Case([&](TensorSizeOfOp op) -> std::optional<int64_t> {
          auto type = cast<RankedTensorType>(op.getEncoding());
          int64_t bytes = elementByteSize(
              *hal::getRuntimeElementType(type.getElementType()));
          for (int64_t dim : type.getShape())
            if (!ShapedType::isDynamic(dim))
              bytes *= dim;
          // (A negative or overflowing dim, from scalars the program checks
          // at run time, sizes nothing.)
          for (Value dim : op.getEncodingDims()) {
            std::optional<int64_t> size = evaluate(dim);
            if (!size || *size < 0 || llvm::MulOverflow(bytes, *size, bytes))
              return std::nullopt;
          }
          return bytes;
        })
        .Case([&](ResourceSizeOp op) { return resourceSize(op.getOperand()); })
        // A dim of a value an scf.if chose, once folded to a select: the
        // chosen one where the condition is known, else the larger.
        .Case([&](arith::SelectOp op) -> std::optional<int64_t> {
          std::optional<int64_t> condition = evaluate(op.getCondition());
          if (condition)
            return evaluate(*condition != 0 ? op.getTrueValue()
                                            : op.getFalseValue());
          std::optional<int64_t> a = evaluate(op.getTrueValue());
          std::optional<int64_t> b = evaluate(op.getFalseValue());
          if (!a || !b)
            return std::nullopt;
          return std::max(*a, *b);
        })
        .Case([&](ExternalBufferDimOpInterface op) -> std::optional<int64_t> {
          int64_t index = op.getDimIndex();
          Value buffer = op.getExternalBuffer();
          if (auto call = buffer.getDefiningOp<func::CallOp>())
            return callResultDim(call, cast<OpResult>(buffer).getResultNumber(),
                                 index);
          auto arg = dyn_cast<BlockArgument>(buffer);
          if (!arg || arg.getArgNumber() >= args.size())
            return std::nullopt;
          const std::optional<SmallVector<int64_t>> &shape =
              args[arg.getArgNumber()].shape;
          if (!shape || index >= static_cast<int64_t>(shape->size()))
            return std::nullopt;
          return (*shape)[index];
        })
        .Default([&](Operation *op) { return arithmetic(op); });
  }

  // An integer arith op of operands that evaluate, in its type's width.
  // None where it has no value: a division by zero, an overflowing signed
  // division, a shift by the width or more.
  std::optional<int64_t> arithmetic(Operation *op) {
    if (!isa<arith::ArithDialect>(op->getDialect()) ||
        op->getNumResults() != 1 || !op->getResult(0).getType().isIntOrIndex())
      return std::nullopt;
    Type type = op->getResult(0).getType();
    unsigned width = bitWidth(type);
    SmallVector<APInt, 2> in;
    for (Value operand : op->getOperands()) {
      if (!operand.getType().isIntOrIndex())
        return std::nullopt;
      std::optional<int64_t> value = evaluate(operand);
      if (!value)
        return std::nullopt;
      in.push_back(toBits(*value, operand.getType()));
    }
    using llvm::APIntOps::RoundingSDiv;
    using llvm::APIntOps::RoundingUDiv;
    using Rounding = APInt::Rounding;
    auto divisor = [&](bool isSigned) {
      return !in[1].isZero() &&
             !(isSigned && in[0].isMinSignedValue() && in[1].isAllOnes());
    };
    auto shift = [&] { return in[1].ult(width); };
    std::optional<APInt> result =
        TypeSwitch<Operation *, std::optional<APInt>>(op)
            .Case([&](arith::AddIOp) { return in[0] + in[1]; })
            .Case([&](arith::SubIOp) { return in[0] - in[1]; })
            .Case([&](arith::MulIOp) { return in[0] * in[1]; })
            .Case([&](arith::DivSIOp) -> std::optional<APInt> {
              return divisor(true) ? std::optional(in[0].sdiv(in[1]))
                                   : std::nullopt;
            })
            .Case([&](arith::DivUIOp) -> std::optional<APInt> {
              return divisor(false) ? std::optional(in[0].udiv(in[1]))
                                    : std::nullopt;
            })
            .Case([&](arith::CeilDivSIOp) -> std::optional<APInt> {
              return divisor(true) ? std::optional(RoundingSDiv(in[0], in[1],
                                                                Rounding::UP))
                                   : std::nullopt;
            })
            .Case([&](arith::CeilDivUIOp) -> std::optional<APInt> {
              return divisor(false) ? std::optional(RoundingUDiv(in[0], in[1],
                                                                 Rounding::UP))
                                    : std::nullopt;
            })
            .Case([&](arith::FloorDivSIOp) -> std::optional<APInt> {
              return divisor(true) ? std::optional(RoundingSDiv(in[0], in[1],
                                                                Rounding::DOWN))
                                   : std::nullopt;
            })
            .Case([&](arith::RemSIOp) -> std::optional<APInt> {
              return divisor(true) ? std::optional(in[0].srem(in[1]))
                                   : std::nullopt;
            })
            .Case([&](arith::RemUIOp) -> std::optional<APInt> {
              return divisor(false) ? std::optional(in[0].urem(in[1]))
                                    : std::nullopt;
            })
            .Case([&](arith::MinSIOp) {
              return llvm::APIntOps::smin(in[0], in[1]);
            })
            .Case([&](arith::MaxSIOp) {
              return llvm::APIntOps::smax(in[0], in[1]);
            })
            .Case([&](arith::MinUIOp) {
              return llvm::APIntOps::umin(in[0], in[1]);
            })
            .Case([&](arith::MaxUIOp) {
              return llvm::APIntOps::umax(in[0], in[1]);
            })
            .Case([&](arith::AndIOp) { return in[0] & in[1]; })
            .Case([&](arith::OrIOp) { return in[0] | in[1]; })
            .Case([&](arith::XOrIOp) { return in[0] ^ in[1]; })
            .Case([&](arith::ShLIOp) -> std::optional<APInt> {
              return shift() ? std::optional(in[0].shl(in[1])) : std::nullopt;
            })
            .Case([&](arith::ShRSIOp) -> std::optional<APInt> {
              return shift() ? std::optional(in[0].ashr(in[1])) : std::nullopt;
            })
            .Case([&](arith::ShRUIOp) -> std::optional<APInt> {
              return shift() ? std::optional(in[0].lshr(in[1])) : std::nullopt;
            })
            .Case([&](arith::CmpIOp op) {
              return APInt(
                  1, arith::applyCmpPredicate(op.getPredicate(), in[0], in[1]));
            })
            .Case<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(
                [&](Operation *) { return in[0].sextOrTrunc(width); })
            .Case<arith::IndexCastUIOp, arith::ExtUIOp>(
                [&](Operation *) { return in[0].zextOrTrunc(width); })
            .Default([](Operation *) { return std::nullopt; });
    if (!result)
      return std::nullopt;
    return result->getSExtValue();
  }

  // The size `resource` was allocated with, following a value carried
  // through a structured region back to the value passed in (a carried
  // position keeps its size: its sizes are values in scope of the op). A
  // branch region op's result is what the branch taken yields: the largest
  // of them (as the walk keeps the largest branch live after the op), or
  // the one taken where the walk knows it.
  std::optional<int64_t> resourceSize(Value resource) {
    if (auto result = dyn_cast<OpResult>(resource);
        result && isBranchRegionOp(result.getOwner()))
      return branchResult(result.getOwner(), result.getResultNumber(),
                          [&](Value yielded) { return resourceSize(yielded); });
    if (Value source = carriedSource(resource))
      return resourceSize(source);
    Operation *def = resource.getDefiningOp();
    if (!def)
      return std::nullopt;
    return TypeSwitch<Operation *, std::optional<int64_t>>(def)
        .Case(
            [&](ResourceAllocaOp op) { return evaluate(op.getStorageSize()); })
        .Case([&](ResourceConstantOp op) {
          return evaluate(op.getStorageSize());
        })
        .Case([&](TensorImportOp op) { return evaluate(op.getResultSize()); })
        .Case([&](CmdCallOp op) {
          return evaluate(
              op.getResultSizes()[cast<OpResult>(resource).getResultNumber()]);
        })
        .Case([&](TimepointAwaitOp op) {
          return resourceSize(op.getResourceOperands()[cast<OpResult>(resource)
                                                           .getResultNumber()]);
        })
        .Default([](Operation *) { return std::nullopt; });
  }

  ArrayRef<ArgInput> args;
  CallResultDim callResultDim;
  llvm::DenseMap<Value, std::optional<int64_t>> known;
  llvm::DenseSet<Value> computing;
};

// The bytes `size` stands for, or a remark naming the op it belongs to.
inline FailureOr<int64_t> sizeOf(Operation *op, Value size,
                                 SizeEvaluator &evaluator) {
  if (std::optional<int64_t> bytes = evaluator.evaluate(size))
    return *bytes;
  InFlightDiagnostic remark = op->emitRemark()
                              << "peak live bytes unknown: the size of '"
                              << op->getName() << "' is not known statically ";
  if (std::optional<std::string> why = evaluator.missingArgument(size))
    return remark << "(" << *why << ")";
  return remark << "(give input-shapes for dynamic inputs)";
}

} // namespace ferry::stream::peak_memory

#endif // FERRY_COMPILER_DIALECT_STREAM_TRANSFORMS_PEAKMEMORYSIZES_H_
