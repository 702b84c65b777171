// Dispatch formation: rewrites the tensor ops of an input function for
// fusion and groups them into dispatches (FormDispatches.h says which).
#include "compiler/Dialect/Stream/Conversion/FormDispatches.h"

#include "compiler/Dialect/Stream/Conversion/ImportSupport.h"
#include "compiler/Dialect/Stream/IR/StreamInterfaces.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

namespace ferry::stream {

using namespace input;

namespace {

bool sameAffinity(Operation *a, Operation *b) {
  return getAffinity(a) == getAffinity(b);
}

bool isAllParallel(linalg::LinalgOp op) {
  return op.getNumParallelLoops() == op.getNumLoops();
}

/// For each dynamic size of the tensor.empty `init` of `op`: the input of
/// `op` and its dimension on the same loop, or nullopt if one has none.
std::optional<SmallVector<std::pair<OpOperand *, unsigned>>>
internalEmptySizes(linalg::LinalgOp op, OpOperand &init) {
  auto type = cast<RankedTensorType>(init.get().getType());
  AffineMap outMap = op.getMatchingIndexingMap(&init);
  SmallVector<std::pair<OpOperand *, unsigned>> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d))
      continue;
    auto loop = dyn_cast<AffineDimExpr>(outMap.getResult(d));
    if (!loop)
      return std::nullopt;
    std::optional<std::pair<OpOperand *, unsigned>> found;
    for (OpOperand *input : op.getDpsInputOperands()) {
      if (!isa<RankedTensorType>(input->get().getType()))
        continue;
      for (auto [position, expr] :
           llvm::enumerate(op.getMatchingIndexingMap(input).getResults())) {
        auto dim = dyn_cast<AffineDimExpr>(expr);
        if (dim && dim.getPosition() == loop.getPosition()) {
          found = {input, (unsigned)position};
          break;
        }
      }
      if (found)
        break;
    }
    if (!found)
      return std::nullopt;
    sizes.push_back(*found);
  }
  return sizes;
}

/// Dimension `d` of `value`, read where it was sized (the tensor.empty a
/// chain of linalg destinations starts from) so that no tensor.dim becomes
/// a second use of a value fusion would merge away.
Value dimOf(OpBuilder &builder, Location loc, Value value, int64_t d,
            AffinityAttr affinity) {
  while (auto result = dyn_cast<OpResult>(value)) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(result.getOwner());
    if (!linalgOp)
      break;
    value = linalgOp.getDpsInits()[result.getResultNumber()];
  }
  if (auto empty = value.getDefiningOp<tensor::EmptyOp>())
    return empty.getDynamicSize(d);
  auto dim = tensor::DimOp::create(builder, loc, value, d);
  setAffinity(dim, affinity);
  return dim;
}

/// The elementwise arith/math op `op` as a linalg.generic into a fresh
/// tensor.empty of its result's shape (the dims of its first operand).
void convertToGeneric(IRRewriter &rewriter, Operation *op) {
  rewriter.setInsertionPoint(op);
  Location loc = op->getLoc();
  AffinityAttr affinity = getAffinity(op);
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<Value> dims;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d))
      continue;
    dims.push_back(dimOf(rewriter, loc, op->getOperand(0), d, affinity));
  }
  auto empty = tensor::EmptyOp::create(rewriter, loc, type, dims);
  setAffinity(empty, affinity);
  AffineMap identity = rewriter.getMultiDimIdentityMap(type.getRank());
  SmallVector<AffineMap> maps(op->getNumOperands() + 1, identity);
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{type}, op->getOperands(),
      ValueRange{empty.getResult()}, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        OperationState state(nestedLoc, op->getName());
        state.addOperands(args.drop_back());
        state.addTypes(type.getElementType());
        state.addAttributes(op->getAttrs());
        Operation *scalar = nested.create(state);
        linalg::YieldOp::create(nested, nestedLoc, scalar->getResults());
      });
  setAffinity(generic, affinity);
  generic->setAttr(kElementwiseSourceAttr,
                   rewriter.getStringAttr(op->getName().getStringRef()));
  rewriter.replaceOp(op, generic->getResults());
}

/// A scalar the body of `generic` reads that is no constant (captured, or a
/// scalar `ins`: a function argument, a value read back from a tensor, an
/// induction variable) becomes a 0-d tensor input filled with it just
/// before: a dispatch's operands are tensors, its push constants dynamic
/// sizes. An index goes as i64 and is cast back at the top of the body.
void passScalarsAsTensors(IRRewriter &rewriter, linalg::GenericOp generic) {
  auto isPassed = [](Value value) {
    return !isTensor(value.getType()) && !matchPattern(value, m_Constant());
  };
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(generic.getRegion(), captured);
  SmallVector<Value> passed(llvm::make_filter_range(captured, isPassed));
  if (passed.empty() && llvm::none_of(generic.getDpsInputs(), isPassed))
    return;
  Location loc = generic.getLoc();
  AffinityAttr affinity = getAffinity(generic);
  Type i64 = rewriter.getI64Type();
  rewriter.setInsertionPoint(generic);
  auto asTensor = [&](Value scalar) -> Value {
    if (scalar.getType().isIndex())
      scalar = arith::IndexCastOp::create(rewriter, loc, i64, scalar);
    auto empty = tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{},
                                         scalar.getType());
    auto fill = linalg::FillOp::create(rewriter, loc, ValueRange{scalar},
                                       ValueRange{empty.getResult()});
    setAffinity(empty, affinity);
    setAffinity(fill, affinity);
    return fill.getResult(0);
  };
  Block &body = generic.getRegion().front();
  OpBuilder top = OpBuilder::atBlockBegin(&body);
  // The body's argument for `scalar`, read as the scalar's own type.
  auto asScalar = [&](BlockArgument arg, Type type) -> Value {
    if (!type.isIndex())
      return arg;
    arg.setType(i64);
    auto cast = arith::IndexCastOp::create(top, loc, top.getIndexType(), arg);
    arg.replaceAllUsesExcept(cast, cast);
    return cast;
  };
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    maps.push_back(generic.getMatchingIndexingMap(input));
    Value value = input->get();
    inputs.push_back(isPassed(value) ? asTensor(value) : value);
    if (isPassed(value))
      asScalar(body.getArgument(input->getOperandNumber()), value.getType());
  }
  AffineMap scalarMap =
      AffineMap::get(generic.getNumLoops(), 0, rewriter.getContext());
  for (auto [k, value] : llvm::enumerate(passed)) {
    inputs.push_back(asTensor(value));
    maps.push_back(scalarMap);
    Type type = value.getType();
    BlockArgument arg =
        body.insertArgument(generic.getNumDpsInputs() + k, type, loc);
    Value read = asScalar(arg, type);
    value.replaceUsesWithIf(read, [&](OpOperand &use) {
      return generic.getRegion().isAncestor(use.getOwner()->getParentRegion());
    });
  }
  for (OpOperand &init : generic.getDpsInitsMutable())
    maps.push_back(generic.getMatchingIndexingMap(&init));
  auto replacement = linalg::GenericOp::create(
      rewriter, loc, generic.getResultTypes(), inputs, generic.getDpsInits(),
      maps, generic.getIteratorTypesArray());
  replacement->setDiscardableAttrs(generic->getDiscardableAttrDictionary());
  replacement.getRegion().takeBody(generic.getRegion());
  rewriter.replaceOp(generic, replacement->getResults());
}

/// A gather (tensor.extract of a tensor from outside the generic) reads at
/// indices clamped into the tensor's bounds, so a kernel never reads past
/// its binding: an index out of range reads the nearest element. Before
/// the generic, the program checks that the tensor has an element at all.
void clampGatherIndices(linalg::GenericOp generic) {
  llvm::SmallDenseSet<Value> checked;
  generic.getRegion().walk([&](tensor::ExtractOp extract) {
    Value tensor = extract.getTensor();
    if (generic.getRegion().isAncestor(tensor.getParentRegion()))
      return;
    auto type = cast<RankedTensorType>(tensor.getType());
    if (checked.insert(tensor).second) {
      OpBuilder before(generic);
      Location loc = generic.getLoc();
      for (int64_t d = 0; d < type.getRank(); ++d) {
        if (type.getDimSize(d) > 0)
          continue;
        Value dim = before.createOrFold<tensor::DimOp>(loc, tensor, d);
        Value zero = arith::ConstantIndexOp::create(before, loc, 0);
        Value some = before.createOrFold<arith::CmpIOp>(
            loc, arith::CmpIPredicate::sgt, dim, zero);
        cf::AssertOp::create(before, loc, some,
                             ("'linalg.generic'" + locationSuffix(loc) +
                              " reads elements of a tensor whose dimension " +
                              Twine(d) + " is empty")
                                 .str());
      }
    }
    OpBuilder builder(extract);
    Location loc = extract.getLoc();
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    for (auto [d, index] : llvm::enumerate(extract.getIndices())) {
      Value dim =
          type.isDynamicDim(d)
              ? tensor::DimOp::create(builder, loc, tensor, d).getResult()
              : arith::ConstantIndexOp::create(builder, loc, type.getDimSize(d))
                    .getResult();
      Value last = arith::SubIOp::create(builder, loc, dim, one);
      Value clamped = arith::MinSIOp::create(
          builder, loc, arith::MaxSIOp::create(builder, loc, index, zero),
          last);
      extract.getIndicesMutable()[d].set(clamped);
    }
  });
}

/// Step 1: elementwise ops to generics, softmax decomposed, elementwise
/// named ops generalized, scalars a body reads passed as tensors.
void prepareForFusion(Block &block) {
  IRRewriter rewriter(block.getParentOp()->getContext());
  for (Operation &op : llvm::make_early_inc_range(block)) {
    auto softmax = dyn_cast<linalg::SoftmaxOp>(&op);
    if (!softmax || !softmax.hasPureTensorSemantics())
      continue;
    Operation *before = softmax->getPrevNode();
    rewriter.setInsertionPoint(softmax);
    FailureOr<SmallVector<Value>> results =
        softmax.decomposeOperation(rewriter);
    if (failed(results))
      continue;
    for (Operation *next = before ? before->getNextNode() : &block.front();
         next != softmax.getOperation(); next = next->getNextNode())
      if (hasTensorTypes(next))
        setAffinity(next, getAffinity(softmax));
    rewriter.replaceOp(softmax, *results);
  }
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (isGenericElementwise(&op))
      convertToGeneric(rewriter, &op);
  }
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (!isa<linalg::BroadcastOp, linalg::TransposeOp, linalg::MapOp,
             linalg::CopyOp, linalg::ElementwiseOp, linalg::ReduceOp>(op))
      continue;
    auto linalgOp = cast<linalg::LinalgOp>(op);
    if (!linalgOp.hasPureTensorSemantics())
      continue;
    AffinityAttr affinity = getAffinity(&op);
    rewriter.setInsertionPoint(&op);
    FailureOr<linalg::GenericOp> generic =
        linalg::generalizeNamedOp(rewriter, linalgOp);
    if (succeeded(generic))
      setAffinity(*generic, affinity);
  }
  // A fill of a constant that only generics read: a generic yielding it.
  for (Operation &op : llvm::make_early_inc_range(block)) {
    auto fill = dyn_cast<linalg::FillOp>(&op);
    if (!fill || !fill.hasPureTensorSemantics() || fill->use_empty())
      continue;
    Operation *constant = fill.getInputs()[0].getDefiningOp();
    if (!constant || !matchPattern(constant, m_Constant()))
      continue;
    bool readOnly = llvm::all_of(fill->getUses(), [&](OpOperand &use) {
      auto generic = dyn_cast<linalg::GenericOp>(use.getOwner());
      return generic && generic.isDpsInput(&use) && sameAffinity(generic, fill);
    });
    if (!readOnly)
      continue;
    rewriter.setInsertionPoint(fill);
    auto type = cast<RankedTensorType>(fill.getResult(0).getType());
    auto generic = linalg::GenericOp::create(
        rewriter, fill.getLoc(), TypeRange{type}, ValueRange{},
        fill.getOutputs(), {rewriter.getMultiDimIdentityMap(type.getRank())},
        SmallVector<utils::IteratorType>(type.getRank(),
                                         utils::IteratorType::parallel),
        [&](OpBuilder &nested, Location loc, ValueRange) {
          Operation *value = nested.clone(*constant);
          linalg::YieldOp::create(nested, loc, value->getResults());
        });
    setAffinity(generic, getAffinity(fill));
    rewriter.replaceOp(fill, generic->getResults());
  }
  for (Operation &op : llvm::make_early_inc_range(block))
    if (auto generic = dyn_cast<linalg::GenericOp>(&op);
        generic && generic.hasPureTensorSemantics()) {
      clampGatherIndices(generic);
      passScalarsAsTensors(rewriter, generic);
    }
}

/// Step 2: an all-parallel generic merges into the generic reading it when
/// that is its only user (linalg elementwise fusion), until none does.
/// One pass in block order: producers come before their consumer, and a
/// fused op is tried again at once (its inputs are its producers'), so
/// nothing is rescanned (rescanning the block after every merge was
/// quadratic in the length of a chain).
void fuseElementwise(Block &block) {
  IRRewriter rewriter(block.getParentOp()->getContext());
  for (Operation *op = block.empty() ? nullptr : &block.front(); op;) {
    auto consumer = dyn_cast<linalg::GenericOp>(op);
    if (!consumer || !consumer.hasPureTensorSemantics()) {
      op = op->getNextNode();
      continue;
    }
    Operation *fusedOp = nullptr;
    for (OpOperand *operand : consumer.getDpsInputOperands()) {
      auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
      if (!producer || producer->getBlock() != &block ||
          !sameAffinity(producer, consumer) ||
          // Read once: fused at one operand, a second read would keep
          // the producer's result as another result of the fused op.
          !operand->get().hasOneUse() || producer->getNumResults() != 1 ||
          !linalg::areElementwiseOpsFusable(operand))
        continue;
      AffinityAttr affinity = getAffinity(consumer);
      rewriter.setInsertionPoint(consumer);
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, operand);
      if (failed(fused))
        continue;
      // Upstream keeps a producer result the fused op cannot drop (one
      // whose payload reads its destination, say) as a result of its own;
      // one dispatch makes one result: not fused.
      if (fused->fusedOp->getNumResults() != consumer->getNumResults()) {
        rewriter.eraseOp(fused->fusedOp);
        continue;
      }
      setAffinity(fused->fusedOp, affinity);
      for (auto [from, to] : fused->replacements)
        rewriter.replaceUsesWithIf(from, to, [&](OpOperand &use) {
          return use.getOwner() != producer;
        });
      rewriter.eraseOp(consumer);
      if (producer->use_empty())
        rewriter.eraseOp(producer);
      fusedOp = fused->fusedOp;
      break;
    }
    op = fusedOp ? fusedOp : op->getNextNode();
  }
  // Destinations the merged producers wrote are dead now.
  for (Operation &op : llvm::make_early_inc_range(block))
    if (isa<tensor::EmptyOp>(op) && op.use_empty())
      op.erase();
}

/// The generic `consumer` reading `value` (its only use) element for element
/// at `value`'s type, into a tensor.empty nothing else uses, rewritten to
/// write over `value` instead; null if it is not such a generic.
linalg::GenericOp writeConsumerInPlace(Value value, Operation *root) {
  if (!value.hasOneUse())
    return {};
  OpOperand &use = *value.use_begin();
  auto consumer = dyn_cast<linalg::GenericOp>(use.getOwner());
  if (!consumer || consumer->getBlock() != root->getBlock() ||
      !sameAffinity(consumer, root) || !consumer.hasPureTensorSemantics() ||
      !isAllParallel(consumer) || consumer.getNumDpsInits() != 1 ||
      !consumer.isDpsInput(&use) ||
      consumer->getResult(0).getType() != value.getType())
    return {};
  OpOperand &init = consumer.getDpsInitsMutable()[0];
  AffineMap outMap = consumer.getMatchingIndexingMap(&init);
  if (!outMap.isPermutation() ||
      consumer.getMatchingIndexingMap(&use) != outMap ||
      !init.get().getDefiningOp<tensor::EmptyOp>() || !init.get().hasOneUse() ||
      consumer.payloadUsesValueFromOperand(&init))
    return {};

  IRRewriter rewriter(consumer->getContext());
  rewriter.setInsertionPoint(consumer);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : consumer.getDpsInputOperands()) {
    if (input == &use)
      continue;
    inputs.push_back(input->get());
    maps.push_back(consumer.getMatchingIndexingMap(input));
  }
  maps.push_back(outMap);
  auto inPlace = linalg::GenericOp::create(
      rewriter, consumer.getLoc(), consumer->getResultTypes(), inputs,
      ValueRange{value}, maps, consumer.getIteratorTypesArray());
  inPlace->setDiscardableAttrs(consumer->getDiscardableAttrDictionary());
  inPlace.getRegion().takeBody(consumer.getRegion());
  Block &body = inPlace.getRegion().front();
  unsigned readIndex = use.getOperandNumber();
  body.getArgument(readIndex).replaceAllUsesWith(body.getArguments().back());
  body.eraseArgument(readIndex);
  Operation *empty = init.get().getDefiningOp();
  rewriter.replaceOp(consumer, inPlace->getResults());
  rewriter.eraseOp(empty);
  return inPlace;
}

/// Step 3: the group rooted at `root` (see FormDispatches.h).
std::unique_ptr<DispatchGroup>
formGroup(linalg::LinalgOp root,
          const llvm::DenseMap<Operation *, DispatchGroup *> &taken) {
  auto group = std::make_unique<DispatchGroup>();
  group->ops.push_back(root);
  Block *block = root->getBlock();
  auto fusible = [&](Operation *op) {
    return op && op->getBlock() == block && sameAffinity(op, root) &&
           !taken.contains(op);
  };
  // The fill of a constant initializing the destination.
  OpOperand &rootInit = root.getDpsInitsMutable()[0];
  bool destinationMadeHere = false;
  if (auto fill = rootInit.get().getDefiningOp<linalg::FillOp>();
      fusible(fill) && fill->getResult(0).hasOneUse() &&
      matchPattern(fill.getInputs()[0], m_Constant())) {
    group->ops.push_back(fill);
    destinationMadeHere = true;
  }
  // Elementwise producers of its inputs, with destinations of their own.
  for (OpOperand *input : root.getDpsInputOperands()) {
    auto producer = input->get().getDefiningOp<linalg::GenericOp>();
    if (!fusible(producer) || group->contains(producer) ||
        !producer.hasPureTensorSemantics() || !isAllParallel(producer) ||
        producer->getNumResults() != 1 || producer.getNumDpsInits() != 1)
      continue;
    // Read by the root only, never as its destination.
    if (!llvm::all_of(producer->getUses(), [&](OpOperand &use) {
          return use.getOwner() == root.getOperation() && root.isDpsInput(&use);
        }))
      continue;
    OpOperand &init = producer.getDpsInitsMutable()[0];
    auto empty = init.get().getDefiningOp<tensor::EmptyOp>();
    if (!empty || !init.get().hasOneUse() ||
        !internalEmptySizes(producer, init))
      continue;
    group->ops.push_back(producer);
    group->internalEmpties.push_back(empty);
  }
  // The chain of elementwise consumers, each written in place. Only over a
  // destination the group makes: over a binding (an argument, a fill used
  // again), workgroup tile-and-fuse kept the root whole beside its tiles,
  // which does not bufferize in place (random seeds 1101, 5100).
  Value current = root->getResult(0);
  while (linalg::GenericOp consumer = destinationMadeHere
                                          ? writeConsumerInPlace(current, root)
                                          : linalg::GenericOp()) {
    group->ops.push_back(consumer);
    current = consumer->getResult(0);
  }
  llvm::sort(group->ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return group;
}

} // namespace

Value buildInternalEmpty(OpBuilder &builder, linalg::LinalgOp op,
                         OpOperand &init, function_ref<Value(Value)> lookup) {
  std::optional<SmallVector<std::pair<OpOperand *, unsigned>>> sizes =
      internalEmptySizes(op, init);
  if (!sizes)
    return {};
  Location loc = init.get().getLoc();
  SmallVector<Value> dims;
  for (auto [input, position] : *sizes)
    dims.push_back(tensor::DimOp::create(builder, loc, lookup(input->get()),
                                         (int64_t)position));
  return tensor::EmptyOp::create(
      builder, loc, cast<RankedTensorType>(init.get().getType()), dims);
}

/// A group is dispatched as one op with one result: its last member makes
/// exactly one, and every other member's results are used by members only
/// (a value returned or read after the group must stay a result).
static bool isSelfContained(const DispatchGroup &group) {
  if (group.ops.back()->getNumResults() != 1)
    return false;
  for (Operation *op : ArrayRef(group.ops).drop_back())
    for (Operation *user : op->getUsers())
      if (!group.contains(user))
        return false;
  return true;
}

DispatchGroups DispatchGroups::form(func::FuncOp func) {
  SmallVector<Block *> blocks;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<linalg::LinalgOp>(op))
      return WalkResult::skip();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        blocks.push_back(&block);
    return WalkResult::advance();
  });
  DispatchGroups groups;
  for (Block *block : blocks) {
    prepareForFusion(*block);
    fuseElementwise(*block);
    SmallVector<linalg::LinalgOp> roots;
    for (Operation &op : *block)
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&op);
          linalgOp && isDispatchableLinalgOp(linalgOp) &&
          linalgOp.hasPureTensorSemantics() && linalgOp->getNumResults() == 1 &&
          linalgOp.getNumReductionLoops() > 0)
        roots.push_back(linalgOp);
    for (linalg::LinalgOp root : roots) {
      if (groups.members.contains(root))
        continue;
      std::unique_ptr<DispatchGroup> group = formGroup(root, groups.members);
      if (group->ops.size() == 1 || !isSelfContained(*group))
        continue;
      for (Operation *op : group->ops)
        groups.members[op] = group.get();
      for (Operation *empty : group->internalEmpties)
        groups.empties[empty] = group.get();
      groups.groups.push_back(std::move(group));
    }
  }
  return groups;
}

const DispatchGroup *DispatchGroups::groupOf(Operation *op) const {
  return members.lookup(op);
}

bool DispatchGroups::isInternalEmpty(Operation *op) const {
  return empties.contains(op);
}

} // namespace ferry::stream
