// The carried positions of the structured region ops of the cmd phase (see
// CarriedPositions.h).

#include "compiler/Dialect/Stream/Transforms/CarriedPositions.h"

#include "compiler/Dialect/Stream/Analysis/ResourceUsage.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/TypeSwitch.h"

#include <set>

using namespace mlir;

namespace ferry::stream::carried {

Value doneTimepointOf(Operation *op) {
  if (op->getNumResults() == 0)
    return {};
  Value last = op->getResults().back();
  return isa<TimepointType>(last.getType()) ? last : Value();
}

SmallVector<Value> membersOf(Position position) {
  return TypeSwitch<Operation *, SmallVector<Value>>(position.op)
      .Case([&](scf::ForOp op) -> SmallVector<Value> {
        return {op.getRegionIterArgs()[position.index],
                op.getResult(position.index)};
      })
      .Case([&](scf::WhileOp op) -> SmallVector<Value> {
        if (!position.after)
          return {op.getBeforeArguments()[position.index]};
        return {op.getAfterArguments()[position.index],
                op.getResult(position.index)};
      })
      .Default([&](Operation *op) -> SmallVector<Value> {
        return {op->getResult(position.index)};
      });
}

SmallVector<OpOperand *> incomingOf(Position position) {
  SmallVector<OpOperand *> incoming;
  auto addYields = [&](Region &region) {
    for (Block &block : region)
      if (auto yield = dyn_cast<scf::YieldOp>(block.getTerminator()))
        incoming.push_back(&yield->getOpOperand(position.index));
  };
  TypeSwitch<Operation *>(position.op)
      .Case([&](scf::ForOp op) {
        incoming.push_back(&op.getInitArgsMutable()[position.index]);
        addYields(op.getRegion());
      })
      .Case([&](scf::WhileOp op) {
        if (position.after) {
          incoming.push_back(
              &op.getConditionOp().getArgsMutable()[position.index]);
        } else {
          incoming.push_back(&op.getInitsMutable()[position.index]);
          addYields(op.getAfter());
        }
      })
      .Default([&](Operation *op) {
        // A branch region op: what each region yields.
        for (Region &region : op->getRegions())
          addYields(region);
      });
  return incoming;
}

std::optional<Position> passedTo(OpOperand &use) {
  Operation *user = use.getOwner();
  unsigned number = use.getOperandNumber();
  if (auto forOp = dyn_cast<scf::ForOp>(user)) {
    unsigned first = forOp.getNumControlOperands();
    if (number >= first)
      return Position{user, false, number - first};
    return std::nullopt;
  }
  if (isa<scf::WhileOp>(user))
    return Position{user, false, number};
  if (auto condition = dyn_cast<scf::ConditionOp>(user)) {
    if (number == 0)
      return std::nullopt;
    return Position{condition->getParentOp(), true, number - 1};
  }
  if (isa<scf::YieldOp>(user) && isStructuredRegionOp(user->getParentOp()))
    return Position{user->getParentOp(), false, number};
  return std::nullopt;
}

std::optional<Position> positionOf(Value value) {
  if (auto result = dyn_cast<OpResult>(value)) {
    Operation *op = result.getOwner();
    if (!isStructuredRegionOp(op))
      return std::nullopt;
    return Position{op, isa<scf::WhileOp>(op), result.getResultNumber()};
  }
  auto arg = cast<BlockArgument>(value);
  Operation *op = arg.getOwner()->getParentOp();
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    if (arg.getArgNumber() < forOp.getNumInductionVars())
      return std::nullopt;
    return Position{op, false,
                    arg.getArgNumber() - forOp.getNumInductionVars()};
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return Position{op, arg.getParentRegion() == &whileOp.getAfter(),
                    arg.getArgNumber()};
  return std::nullopt;
}

SmallVector<Value, 2> conditionFlags(ResourceDeallocaOp dealloca) {
  Value condition = dealloca.getCondition();
  if (!condition)
    return {};
  if (auto both = condition.getDefiningOp<arith::AndIOp>())
    return {both.getLhs(), both.getRhs()};
  return {condition};
}

// The position of the flag carried beside `position` (see flagPassedWith).
static std::optional<Position> flagPositionOf(Position position,
                                              std::set<PositionKey> &seen) {
  if (!seen.insert(key(position)).second)
    return std::nullopt;
  // A flag of the op's list of positions `position` is in.
  auto ofSameList = [&](Value flag) -> std::optional<Position> {
    std::optional<Position> at = positionOf(flag);
    if (!flag.getType().isInteger(1) || !at || at->op != position.op ||
        at->after != position.after)
      return std::nullopt;
    return at;
  };
  for (Value member : membersOf(position)) {
    for (OpOperand &use : member.getUses()) {
      Operation *user = use.getOwner();
      if (auto dealloca = dyn_cast<ResourceDeallocaOp>(user)) {
        for (Value candidate : conditionFlags(dealloca))
          if (std::optional<Position> at = ofSameList(candidate))
            return at;
        continue;
      }
      std::optional<Position> next = passedTo(use);
      if (!next || !user->hasTrait<OpTrait::IsTerminator>())
        continue;
      std::optional<Position> nextFlag = flagPositionOf(*next, seen);
      if (!nextFlag)
        continue;
      for (OpOperand *in : incomingOf(*nextFlag))
        if (in->getOwner() == user)
          if (std::optional<Position> at = ofSameList(in->get()))
            return at;
    }
  }
  return std::nullopt;
}

Value flagPassedWith(OpOperand &use) {
  std::optional<Position> to = passedTo(use);
  if (!to)
    return {};
  std::set<PositionKey> seen;
  std::optional<Position> flag = flagPositionOf(*to, seen);
  if (!flag)
    return {};
  for (OpOperand *in : incomingOf(*flag))
    if (in->getOwner() == use.getOwner())
      return in->get();
  return {};
}

// The number of the ready timepoint of value `number` among `types`: the
// positions of resources are followed by one timepoint each, in order, and
// one last "everything done" timepoint. None if the shape differs.
static std::optional<unsigned> readyNumber(TypeRange types, unsigned number) {
  unsigned resources = 0, index = 0;
  for (auto [i, type] : llvm::enumerate(types)) {
    if (!isa<ResourceType>(type))
      continue;
    if (i == number)
      index = resources;
    ++resources;
  }
  if (types.size() < resources + 1)
    return std::nullopt;
  unsigned ready = types.size() - 1 - resources + index;
  if (!isa<TimepointType>(types[ready]))
    return std::nullopt;
  return ready;
}

Value readyTimepointOf(Value value) {
  ValueRange values;
  unsigned number;
  if (auto result = dyn_cast<OpResult>(value)) {
    values = result.getOwner()->getResults();
    number = result.getResultNumber();
  } else {
    auto arg = cast<BlockArgument>(value);
    values = arg.getOwner()->getArguments();
    number = arg.getArgNumber();
  }
  std::optional<unsigned> ready = readyNumber(values.getTypes(), number);
  return ready ? values[*ready] : Value();
}

OpOperand *readyOperandOf(OpOperand &passed) {
  Operation *terminator = passed.getOwner();
  unsigned first = isa<scf::ConditionOp>(terminator) ? 1 : 0;
  std::optional<unsigned> ready =
      readyNumber(TypeRange(terminator->getOperands()).drop_front(first),
                  passed.getOperandNumber() - first);
  return ready ? &terminator->getOpOperand(first + *ready) : nullptr;
}

std::string describe(Position position) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "carried position " << position.index;
  if (isa<scf::WhileOp>(position.op))
    os << (position.after ? " (after region)" : " (before region)");
  os << " of '" << position.op->getName() << "'";
  return text;
}

bool canCarryFlags(Operation *op) {
  if (!isa<scf::ForOp, scf::WhileOp>(op) && !isBranchRegionOp(op))
    return false;
  if (firstTimepoint(op->getResultTypes()) == op->getNumResults())
    return false;
  auto whileOp = dyn_cast<scf::WhileOp>(op);
  return !whileOp ||
         firstTimepoint(whileOp.getBeforeBody()->getArgumentTypes()) !=
             whileOp.getBeforeBody()->getNumArguments();
}

unsigned firstTimepoint(TypeRange types) {
  unsigned resources =
      llvm::count_if(types, [](Type type) { return isa<ResourceType>(type); });
  unsigned count = types.size();
  if (count < resources + 1)
    return count;
  for (Type type : types.drop_front(count - resources - 1))
    if (!isa<TimepointType>(type))
      return count;
  return count - resources - 1;
}

FailureOr<std::pair<Operation *, std::array<unsigned, 2>>>
withOwnedFlags(OpBuilder &builder, Operation *op, unsigned count,
               unsigned afterCount,
               SmallVectorImpl<Operation *> &placeholders) {
  if (!canCarryFlags(op))
    return failure();
  auto whileOp = dyn_cast<scf::WhileOp>(op);
  // Where the flags go among the results (a while's after positions)
  // and, for a while, among its before positions.
  unsigned at = firstTimepoint(op->getResultTypes());
  unsigned beforeAt =
      whileOp ? firstTimepoint(whileOp.getBeforeBody()->getArgumentTypes())
              : at;
  unsigned resultCount = whileOp ? afterCount : count;
  Location loc = op->getLoc();
  Type i1 = builder.getI1Type();
  builder.setInsertionPoint(op);
  Value placeholder = arith::ConstantIntOp::create(builder, loc, 0, 1);
  placeholders.push_back(placeholder.getDefiningOp());
  SmallVector<Value> operands(op->getOperands());
  auto forOp = dyn_cast<scf::ForOp>(op);
  if (forOp)
    operands.insert(operands.begin() + forOp.getNumControlOperands() + at,
                    count, placeholder);
  if (whileOp)
    operands.insert(operands.begin() + beforeAt, count, placeholder);
  SmallVector<Type> types(op->getResultTypes());
  types.insert(types.begin() + at, resultCount, i1);
  OperationState state(loc, op->getName());
  state.addOperands(operands);
  state.addTypes(types);
  state.propertiesAttr = op->getPropertiesAsAttribute();
  for (NamedAttribute attribute : op->getDiscardableAttrs())
    state.addAttribute(attribute.getName(), attribute.getValue());
  for (unsigned i = 0; i < op->getNumRegions(); ++i)
    state.addRegion();
  Operation *flagged = builder.create(state);
  unsigned inductionVars = forOp ? forOp.getNumInductionVars() : 0;
  for (auto [number, regions] : llvm::enumerate(
           llvm::zip_equal(op->getRegions(), flagged->getRegions()))) {
    auto &[from, to] = regions;
    to.takeBody(from);
    // A while's before region takes its before positions and passes on
    // the after ones (its condition's values, after the condition);
    // its after region the reverse.
    bool beforeRegion = whileOp && number == 0;
    bool afterRegion = whileOp && number == 1;
    for (Block &block : to) {
      if (forOp)
        for (unsigned i = 0; i < count; ++i)
          block.insertArgument(inductionVars + at + i, i1, loc);
      if (beforeRegion)
        for (unsigned i = 0; i < count; ++i)
          block.insertArgument(beforeAt + i, i1, loc);
      if (afterRegion)
        for (unsigned i = 0; i < afterCount; ++i)
          block.insertArgument(at + i, i1, loc);
      Operation *terminator = block.getTerminator();
      SmallVector<Value> passed(terminator->getOperands());
      if (beforeRegion) // after the condition
        passed.insert(passed.begin() + 1 + at, afterCount, placeholder);
      else if (afterRegion)
        passed.insert(passed.begin() + beforeAt, count, placeholder);
      else
        passed.insert(passed.begin() + at, count, placeholder);
      terminator->setOperands(passed);
    }
  }
  for (auto [i, result] : llvm::enumerate(op->getResults()))
    result.replaceAllUsesWith(flagged->getResult(i < at ? i : i + resultCount));
  op->erase();
  return std::make_pair(flagged,
                        std::array<unsigned, 2>{whileOp ? beforeAt : at, at});
}

} // namespace ferry::stream::carried
