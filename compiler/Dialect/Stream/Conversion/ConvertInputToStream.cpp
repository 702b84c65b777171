// Imports a tensor program into the stream dialect's async phase. See
// Passes.td for the contract.
//
// The rewrite walks each function's single block in order, keeping for every
// tensor value the resource that now holds it, the resource's byte size and
// the tensor's dynamic dimensions. External declarations are imported first so
// that calls can read their ties. Unsupported ops are all reported before
// anything is changed.
//
// Calls between functions of the module use the convention every function
// has towards the host: the caller exports each tensor argument as a buffer
// view, which the callee imports without taking ownership (the caller keeps
// owning and frees it after the call), and imports each result with
// `consume` (the callee hands its ownership over). So a callee's results are
// always storage of their own: one it returns twice, or that is one of its
// arguments, is copied first. Functions without tensors (scalar code, which
// may branch between blocks) are left as they are.
//
// Structured control flow is imported body by body: a region op carrying
// tensors is rebuilt with a resource in each tensor's position and the
// tensor's dynamic dims appended after all original values (operands,
// block arguments, results, yields alike), so sizes in and after the region
// are computed from values in scope. Inside a body, a tensor block argument
// is retyped in place and reached through a cast that goes with the other
// replaced ops. A tensor function with several blocks is lifted to scf
// first.

#include "compiler/Codegen/ExecutableCompiler.h"
#include "compiler/Dialect/HAL/IR/HALDialect.h"
#include "compiler/Dialect/Stream/Analysis/ResourceUsage.h"
#include "compiler/Dialect/Stream/Conversion/FormDispatches.h"
#include "compiler/Dialect/Stream/Conversion/ImportBoundary.h"
#include "compiler/Dialect/Stream/Conversion/ImportSlices.h"
#include "compiler/Dialect/Stream/Conversion/ImportSupport.h"
#include "compiler/Dialect/Stream/Conversion/ImportTensorOps.h"
#include "compiler/Dialect/Stream/Conversion/LiftControlFlow.h"
#include "compiler/Dialect/Stream/Conversion/LinalgOperands.h"
#include "compiler/Dialect/Stream/Conversion/Passes.h"
#include "compiler/Utils/ABI.h"
#include "compiler/Utils/ElementTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"

namespace ferry::stream {
#define GEN_PASS_DEF_CONVERTINPUTTOSTREAMPASS
#include "compiler/Dialect/Stream/Conversion/Passes.h.inc"
} // namespace ferry::stream

using namespace mlir;

namespace ferry::stream {
namespace {

using namespace input;

// Where a tensor value lives after import. Kept small (32 bytes): the map
// of every tensor of a function to its storage is the pass's largest table,
// and with room for six dimensions inline (80 bytes) a 100,000-op function
// touched about 45 MB to build it.
struct TensorStorage {
  Value resource;
  Value size;                        // bytes, index
  SmallVector<Value, 0> dynamicDims; // one per dynamic dimension
};

class FunctionImporter {
public:
  // `tensorFunctions`: the defined functions that used tensors before any
  // was imported. `calledInternally`: some function of the module calls
  // `func`, which must then return storage of its own for every result.
  FunctionImporter(func::FuncOp func, SymbolTable &symbols,
                   const llvm::DenseSet<StringAttr> &tensorFunctions,
                   bool calledInternally)
      : func(func), symbols(symbols), tensorFunctions(tensorFunctions),
        calledInternally(calledInternally), builder(func.getContext()) {}

  void run() {
    ties = *readTies(func); // checked before any function was imported
    consumed = *readConsumed(func, ties);
    applyTies(func, ties);
    groups = DispatchGroups::form(func);
    Block &block = func.getBody().front();
    importArguments(block);
    importBlock(block);
    // Erase replaced tensor ops last-first so their uses go before them.
    for (Operation *op : llvm::reverse(deadOps))
      op->erase();
    block.eraseArguments(0, originalArgCount);
    func.setType(FunctionType::get(
        func.getContext(), block.getArgumentTypes(),
        llvm::map_to_vector(func.getResultTypes(),
                            [&](Type type) { return boundaryType(type); })));
  }

private:
  Type viewType() { return hal::BufferViewType::get(func.getContext()); }
  // How a value of `type` crosses a boundary: a tensor as a buffer view, a
  // scalar as it is.
  Type boundaryType(Type type) { return isTensor(type) ? viewType() : type; }
  ResourceType resourceType(Lifetime lifetime) {
    return ResourceType::get(func.getContext(), lifetime);
  }
  Value indexConstant(Location loc, int64_t value) {
    return arith::ConstantIndexOp::create(builder, loc, value);
  }

  void importBlock(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      builder.setInsertionPoint(&op);
      importOp(&op);
    }
  }

  void importOp(Operation *op) {
    if (const DispatchGroup *group = groups.groupOf(op)) {
      if (op == group->ops.back())
        importGroup(group->ops, group->internalEmpties);
      else
        deadOps.push_back(op); // dispatched with the group's last op
      return;
    }
    if (isImportedRegionOp(op))
      importRegionOp(op);
    else if (isa<scf::YieldOp, scf::ConditionOp>(op))
      importTerminator(op);
    else if (auto poison = dyn_cast<ub::PoisonOp>(op))
      importPoison(poison);
    else if (auto dimOp = dyn_cast<tensor::DimOp>(op))
      importDim(dimOp);
    else if (auto empty = dyn_cast<tensor::EmptyOp>(op))
      importEmpty(empty);
    else if (auto extract = dyn_cast<tensor::ExtractOp>(op))
      importExtract(extract);
    else if (DenseElementsAttr splat = getSplatConstant(op))
      importSplat(op, splat);
    else if (ElementsAttr data = getDataConstant(op))
      importDataConstant(op, data);
    else if (auto fill = dyn_cast<linalg::FillOp>(op))
      importFill(fill);
    else if (isDispatchableLinalgOp(op))
      importLinalg(cast<linalg::LinalgOp>(op));
    else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
      importCollapse(collapse);
    else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
      importExpand(expand);
    else if (isSliceOp(op))
      importSlice(cast<OffsetSizeAndStrideOpInterface>(op));
    else if (isa<tensor::BitcastOp, tensor::CastOp>(op))
      importMetadataCast(op);
    else if (isContiguousConcat(op))
      importContiguousConcat(cast<tensor::ConcatOp>(op));
    else if (auto call = dyn_cast<func::CallOp>(op))
      importCall(call);
    else if (auto returnOp = dyn_cast<func::ReturnOp>(op))
      importReturn(returnOp);
  }

  // A region op carrying tensors is rebuilt: each tensor operand becomes
  // its resource, each tensor result a resource result, and their dynamic
  // dims are appended after all original operands (results), in order.
  // The bodies move over and are imported in place.
  void importRegionOp(Operation *op) {
    if (!hasTensorTypes(op)) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          importBlockArguments(block);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          importBlock(block);
      return;
    }
    Location loc = op->getLoc();
    OperationState state(loc, op->getName());
    state.addOperands(carriedValues(op->getOperands()));
    SmallVector<Type> resultTypes, dimTypes;
    for (Type type : op->getResultTypes()) {
      resultTypes.push_back(isTensor(type) ? resourceType(Lifetime::Unknown)
                                           : type);
      if (isTensor(type))
        dimTypes.append(cast<RankedTensorType>(type).getNumDynamicDims(),
                        builder.getIndexType());
    }
    llvm::append_range(resultTypes, dimTypes);
    state.addTypes(resultTypes);
    state.addAttributes(
        llvm::to_vector(op->getDiscardableAttrDictionary().getValue()));
    state.propertiesAttr = op->getPropertiesAsAttribute();
    for (unsigned i = 0; i < op->getNumRegions(); ++i)
      state.addRegion();
    Operation *newOp = builder.create(state);
    for (auto [from, to] : llvm::zip(op->getRegions(), newOp->getRegions()))
      to.takeBody(from);

    builder.setInsertionPointAfter(newOp);
    unsigned nextDim = op->getNumResults();
    for (auto [i, result] : llvm::enumerate(op->getResults())) {
      if (!isTensor(result.getType())) {
        result.replaceAllUsesWith(newOp->getResult(i));
        continue;
      }
      auto type = cast<RankedTensorType>(result.getType());
      unsigned count = type.getNumDynamicDims();
      TensorStorage storage =
          sizedStorage(loc, type, newOp->getResults().slice(nextDim, count));
      nextDim += count;
      storage.resource = newOp->getResult(i);
      storages[result] = storage;
    }
    deadOps.push_back(op);

    for (Region &region : newOp->getRegions())
      for (Block &block : region)
        importBlockArguments(block);
    for (Region &region : newOp->getRegions())
      for (Block &block : region)
        importBlock(block);
    unifyCarriedLifetimes(newOp);
  }

  // `values` with each tensor replaced by its resource and the tensors'
  // dynamic dims appended.
  SmallVector<Value> carriedValues(ValueRange values) {
    SmallVector<Value> carried, dims;
    for (Value value : values) {
      if (!isTensor(value.getType())) {
        carried.push_back(value);
        continue;
      }
      const TensorStorage &storage = storages[value];
      carried.push_back(storage.resource);
      llvm::append_range(dims, storage.dynamicDims);
    }
    llvm::append_range(carried, dims);
    return carried;
  }

  // A tensor argument of a region's block becomes a resource in its place
  // (its uses go through a cast that is erased with the tensor ops) and
  // each of its dynamic dims an index argument appended to the block.
  void importBlockArguments(Block &block) {
    SmallVector<BlockArgument> tensors;
    for (BlockArgument arg : block.getArguments())
      if (isTensor(arg.getType()))
        tensors.push_back(arg);
    builder.setInsertionPointToStart(&block);
    SmallVector<SmallVector<Value>> dims;
    for (BlockArgument arg : tensors) {
      auto type = cast<RankedTensorType>(arg.getType());
      dims.emplace_back();
      for (size_t i = 0; i < type.getNumDynamicDims(); ++i)
        dims.back().push_back(
            block.addArgument(builder.getIndexType(), arg.getLoc()));
    }
    for (auto [arg, argDims] : llvm::zip(tensors, dims)) {
      auto type = cast<RankedTensorType>(arg.getType());
      auto cast = UnrealizedConversionCastOp::create(builder, arg.getLoc(),
                                                     TypeRange{type}, arg);
      arg.replaceAllUsesExcept(cast.getResult(0), cast);
      arg.setType(resourceType(Lifetime::Unknown));
      TensorStorage storage = sizedStorage(arg.getLoc(), type, argDims);
      storage.resource = arg;
      storages[cast.getResult(0)] = storage;
      deadOps.push_back(cast);
    }
  }

  // A yield or condition passes resources and their dims on.
  void importTerminator(Operation *op) {
    if (llvm::any_of(op->getOperandTypes(), isTensor))
      op->setOperands(carriedValues(SmallVector<Value>(op->getOperands())));
  }

  // The values of one carried position share one storage type: an import
  // (external) decides it for all.
  void unifyCarriedLifetimes(Operation *regionOp) {
    SmallVector<Value> carried(regionOp->getResults());
    for (Region &region : regionOp->getRegions())
      for (Block &block : region)
        llvm::append_range(carried, block.getArguments());
    for (Value value : carried) {
      if (!isa<ResourceType>(value.getType()))
        continue;
      std::optional<CarriedPosition> position = getCarriedPosition(value);
      if (!position)
        continue;
      SmallVector<Value> members(position->values.begin(),
                                 position->values.end());
      for (OpOperand *incoming : position->incoming)
        members.push_back(incoming->get());
      Type decided;
      for (Value member : members)
        if (auto type = dyn_cast<ResourceType>(member.getType());
            type && type.getLifetime() != Lifetime::Unknown)
          decided = type;
      if (!decided)
        continue;
      for (Value member : members)
        if (member.getType() != decided)
          retypeStorageChain(member, decided);
    }
  }

  // Poison (what lifting branches leaves on paths that never use it): a
  // zero scalar, or a tensor of undefined contents.
  void importPoison(ub::PoisonOp op) {
    Type type = op.getType();
    if (!isTensor(type)) {
      op.getResult().replaceAllUsesWith(arith::ConstantOp::create(
          builder, op.getLoc(), cast<TypedAttr>(builder.getZeroAttr(type))));
    } else {
      TensorStorage storage =
          sizedStorage(op.getLoc(), cast<RankedTensorType>(type), {});
      storage.resource = AsyncAllocaOp::create(
          builder, op.getLoc(), resourceType(Lifetime::Unknown), storage.size);
      setAffinity(storage.resource.getDefiningOp(), affinityOf(op));
      storages[op.getResult()] = storage;
    }
    deadOps.push_back(op);
  }

  // A fresh storage for a tensor of `type` with the given dynamic dims.
  TensorStorage sizedStorage(Location loc, RankedTensorType type,
                             ValueRange dynamicDims) {
    TensorStorage storage;
    storage.dynamicDims.assign(dynamicDims.begin(), dynamicDims.end());
    storage.size =
        TensorSizeOfOp::create(builder, loc, builder.getIndexType(),
                               TypeAttr::get(type), storage.dynamicDims);
    return storage;
  }

  // Every argument becomes a buffer view, checked and imported.
  void importArguments(Block &block) {
    originalArgCount = block.getNumArguments();
    builder.setInsertionPointToStart(&block);
    for (unsigned i = 0; i < originalArgCount; ++i) {
      BlockArgument arg = block.getArgument(i);
      Location loc = arg.getLoc();
      if (!isTensor(arg.getType())) {
        // A scalar stays a scalar, in the same position.
        arg.replaceAllUsesWith(block.addArgument(arg.getType(), loc));
        argumentStorages.emplace_back();
        continue;
      }
      Value view = block.addArgument(viewType(), loc);
      TensorImportOp import =
          importView(loc, view, cast<RankedTensorType>(arg.getType()),
                     "input " + std::to_string(i), storages[arg]);
      setAffinity(import, boundaryAffinity(func.getArgAttrDict(i)));
      // The host hands this one over: the program frees it and, when the
      // host kept no share, writes it in place.
      if (consumed[i]) {
        import.setConsume(true);
        func.removeArgAttr(i, kInputConsumeAttr);
      }
      argumentStorages.push_back(storages[arg]);
    }
  }

  // Imports `view` as a tensor of `type` (its dynamic dims read from the
  // view) into `storage`; `message` names it in the import's shape check.
  TensorImportOp importView(Location loc, Value view, RankedTensorType type,
                            const std::string &message,
                            TensorStorage &storage) {
    SmallVector<Value> dynamicDims;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        dynamicDims.push_back(
            hal::BufferViewDimOp::create(builder, loc, builder.getIndexType(),
                                         view, builder.getIndexAttr(d)));
    storage = sizedStorage(loc, type, dynamicDims);
    auto import =
        TensorImportOp::create(builder, loc, resourceType(Lifetime::External),
                               view, builder.getStringAttr(message), type,
                               storage.dynamicDims, storage.size);
    storage.resource = import.getResult();
    return import;
  }

  // The device an op runs on: its own stream.affinity, else its function's.
  AffinityAttr affinityOf(Operation *op) {
    if (AffinityAttr affinity = getAffinity(op))
      return affinity;
    return getAffinity(func);
  }
  // The same for a function argument or result, given its attributes.
  AffinityAttr boundaryAffinity(DictionaryAttr attrs) {
    if (auto affinity =
            attrs ? attrs.getAs<AffinityAttr>(kAffinityAttrName) : nullptr)
      return affinity;
    return getAffinity(func);
  }

  // A result and the argument it is written into must agree on their
  // dynamic dimensions. Where those come from different values the program
  // checks at run time: the callee sees only the buffer, so a 2x3 and a 3x2
  // tensor would otherwise combine silently. `what` names the two tensors in
  // the message.
  void checkSameDims(Location loc, RankedTensorType type, ValueRange lhs,
                     ValueRange rhs, const std::string &what) {
    std::string where = locationSuffix(loc);
    unsigned next = 0;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d))
        continue;
      Value a = lhs[next], b = rhs[next];
      ++next;
      if (a == b)
        continue;
      Value same =
          arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, a, b);
      cf::AssertOp::create(
          builder, loc, same,
          (what + where + " differ in dimension " + Twine(d)).str());
    }
  }

  void importDim(tensor::DimOp op) {
    auto type = cast<RankedTensorType>(op.getSource().getType());
    int64_t index = *op.getConstantIndex();
    Value dim;
    if (index < 0 || index >= type.getRank()) {
      op.emitWarning() << "dimension " << index << " is out of range for "
                       << type << "; the result is undefined";
      dim = indexConstant(op.getLoc(), 0);
    } else if (!type.isDynamicDim(index)) {
      dim = indexConstant(op.getLoc(), type.getDimSize(index));
    } else {
      dim =
          storages[op.getSource()].dynamicDims[type.getDynamicDimIndex(index)];
    }
    op.getResult().replaceAllUsesWith(dim);
    deadOps.push_back(op);
  }

  // One element read on the host: its byte offset (row-major), after a
  // run-time check of every index that is not known to be in bounds.
  void importExtract(tensor::ExtractOp op) {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getTensor().getType());
    const TensorStorage &storage = storages[op.getTensor()];
    std::string where = locationSuffix(loc);
    Value linear;
    unsigned next = 0;
    for (auto [d, index] : llvm::enumerate(op.getIndices())) {
      Value dim = type.isDynamicDim(d) ? storage.dynamicDims[next++]
                                       : indexConstant(loc, type.getDimSize(d));
      std::optional<int64_t> constant = getConstantIntValue(index);
      if (!constant || type.isDynamicDim(d)) {
        // Unsigned: a negative index is out of bounds too.
        Value inBounds = arith::CmpIOp::create(
            builder, loc, arith::CmpIPredicate::ult, index, dim);
        cf::AssertOp::create(builder, loc, inBounds,
                             ("'tensor.extract'" + where +
                              ": index of "
                              "dimension " +
                              Twine(d) + " is out of bounds")
                                 .str());
      }
      linear =
          linear ? arith::AddIOp::create(
                       builder, loc,
                       arith::MulIOp::create(builder, loc, linear, dim), index)
                 : index;
    }
    int64_t elementBytes = hal::elementByteSize(
        *hal::getRuntimeElementType(type.getElementType()));
    Value offset = linear
                       ? arith::MulIOp::create(builder, loc, linear,
                                               indexConstant(loc, elementBytes))
                             .getResult()
                       : indexConstant(loc, 0);
    auto load = ResourceLoadOp::create(builder, loc, type.getElementType(),
                                       storage.resource, storage.size, offset);
    setAffinity(load, affinityOf(op));
    op.getResult().replaceAllUsesWith(load.getResult());
    deadOps.push_back(op);
  }

  // Undefined contents: an allocation of its own that nothing merges.
  void importEmpty(tensor::EmptyOp op) {
    auto type = cast<RankedTensorType>(op.getType());
    // A destination made inside a dispatch group: dims only (for checks).
    if (groups.isInternalEmpty(op)) {
      storages[op.getResult()] = TensorStorage{
          Value(), Value(), SmallVector<Value, 0>(op.getDynamicSizes())};
      deadOps.push_back(op);
      return;
    }
    // Only shaping windows: no storage (LinalgOperands.h).
    if (isShapeOnlyEmpty(op)) {
      deadOps.push_back(op);
      return;
    }
    TensorStorage storage =
        sizedStorage(op.getLoc(), type, op.getDynamicSizes());
    storage.resource = AsyncAllocaOp::create(
        builder, op.getLoc(), resourceType(Lifetime::Unknown), storage.size);
    setAffinity(storage.resource.getDefiningOp(), affinityOf(op));
    storages[op.getResult()] = storage;
    deadOps.push_back(op);
  }

  void importSplat(Operation *op, DenseElementsAttr splat) {
    Location loc = op->getLoc();
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    TensorStorage storage = sizedStorage(loc, type, {});
    Value value = arith::ConstantOp::create(
        builder, loc, cast<TypedAttr>(splat.getSplatValue<Attribute>()));
    storage.resource = AsyncSplatOp::create(
        builder, loc, resourceType(Lifetime::Unknown), value, storage.size);
    setAffinity(storage.resource.getDefiningOp(), affinityOf(op));
    storages[op->getResult(0)] = storage;
    deadOps.push_back(op);
  }

  void importDataConstant(Operation *op, ElementsAttr data) {
    Location loc = op->getLoc();
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    TensorStorage storage = sizedStorage(loc, type, {});
    storage.resource = AsyncConstantOp::create(
        builder, loc, resourceType(Lifetime::Unknown), data, storage.size);
    setAffinity(storage.resource.getDefiningOp(), affinityOf(op));
    storages[op->getResult(0)] = storage;
    deadOps.push_back(op);
  }

  // The value of dimension `d` of tensor `value`.
  Value dimOf(Location loc, Value value, int64_t d) {
    auto type = cast<RankedTensorType>(value.getType());
    if (!type.isDynamicDim(d))
      return indexConstant(loc, type.getDimSize(d));
    return storages[value].dynamicDims[type.getDynamicDimIndex(d)];
  }

  // Outlines `op` into an executable of its own and dispatches it.
  void importLinalg(linalg::LinalgOp op) {
    importGroup({op.getOperation()}, {});
  }

  // Outlines the linalg ops `ops` (a dispatch group, FormDispatches.h, in
  // block order; or one op) into an executable of its own (a nested module
  // marked `ferry.executable` holding one dispatch function over their
  // operands from outside the group) and dispatches it where the last one
  // was, writing its result in place into the destination (`outs`) its
  // destination operands lead to. `internalEmpties` are made inside.
  void importGroup(ArrayRef<Operation *> ops,
                   ArrayRef<Operation *> internalEmpties) {
    auto last = cast<linalg::LinalgOp>(ops.back());
    Location loc = last.getLoc();
    auto isMember = [&](Value value) {
      Operation *def = value.getDefiningOp();
      return def && llvm::is_contained(ops, def);
    };
    auto isInternalEmpty = [&](Value value) {
      Operation *def = value.getDefiningOp();
      return def && llvm::is_contained(internalEmpties, def);
    };
    // The bindings: every tensor operand from outside the group but the
    // shape-only ones, which the executable makes itself
    // (LinalgOperands.h).
    auto isBinding = [&](OpOperand &operand) {
      return isTensor(operand.get().getType()) && !isMember(operand.get()) &&
             !isInternalEmpty(operand.get()) && !isShapeOnlyOperand(operand);
    };
    SmallVector<Value> operands;
    SmallVector<Type> operandTypes;
    for (Operation *member : ops)
      for (OpOperand &operand : member->getOpOperands()) {
        if (!isBinding(operand))
          continue;
        operands.push_back(operand.get());
        operandTypes.push_back(operand.get().getType());
      }
    // The values each member's body uses from outside it. Tensors a body
    // reads elements of (a gather) are bindings too, after the operands'
    // (FormDispatches.h); the other captured values (constants) are cloned
    // into the dispatch.
    SmallVector<SetVector<Value>> capturedByMember(ops.size());
    SetVector<Value> gathered;
    for (auto [member, captured] : llvm::zip_equal(ops, capturedByMember)) {
      getUsedValuesDefinedAbove(member->getRegions(), captured);
      for (Value value : captured)
        if (isTensor(value.getType()))
          gathered.insert(value);
    }
    unsigned firstGathered = operands.size();
    for (Value value : gathered) {
      operands.push_back(value);
      operandTypes.push_back(value.getType());
    }
    Type resultType = last->getResult(0).getType();

    OpBuilder moduleBuilder(func);
    std::string name =
        (func.getSymName() + "_dispatch_" + Twine(dispatchCount++)).str();
    auto executable = ModuleOp::create(moduleBuilder, loc, StringRef(name));
    executable->setAttr(kExecutableAttr, moduleBuilder.getUnitAttr());
    symbols.insert(executable);
    name = executable.getSymName()->str();
    OpBuilder bodyBuilder = OpBuilder::atBlockEnd(executable.getBody());
    auto entry = func::FuncOp::create(
        bodyBuilder, loc, name,
        bodyBuilder.getFunctionType(operandTypes, {resultType}));
    if (ops.size() == 1 && ops.front()->hasAttr(codegen::kCopyKernelAttr))
      entry->setAttr(codegen::kCopyKernelAttr, bodyBuilder.getUnitAttr());
    Block *block = entry.addEntryBlock();
    bodyBuilder.setInsertionPointToStart(block);
    IRMapping mapping;
    for (auto [k, value] : llvm::enumerate(gathered))
      mapping.map(value, block->getArgument(firstGathered + k));
    auto arg = block->args_begin();
    Operation *clone = nullptr;
    for (auto [member, captured] : llvm::zip_equal(ops, capturedByMember)) {
      for (OpOperand &operand : member->getOpOperands()) {
        Operation *def = operand.get().getDefiningOp();
        if (isShapeOnlyOperand(operand) ||
            (!isTensor(operand.get().getType()) && def &&
             matchPattern(def, m_Constant())))
          mapping.map(operand.get(), bodyBuilder.clone(*def)->getResult(0));
      }
      for (Value value : captured)
        if (!gathered.contains(value))
          mapping.map(value,
                      bodyBuilder.clone(*value.getDefiningOp())->getResult(0));
      clone = bodyBuilder.clone(*member, mapping);
      clone->removeAttr(kElementwiseSourceAttr);
      // Each binding operand its own argument, also where one value is
      // passed twice (`ins(%x, %x) outs(%x)`): copy-on-write gives the
      // written one its own storage, the others may share theirs.
      for (OpOperand &operand : member->getOpOperands())
        if (isBinding(operand))
          clone->setOperand(operand.getOperandNumber(), *arg++);
      // An intermediate's destination, sized by the inputs in the dispatch.
      for (OpOperand &operand : member->getOpOperands()) {
        if (!isInternalEmpty(operand.get()))
          continue;
        bodyBuilder.setInsertionPoint(clone);
        Value empty = buildInternalEmpty(
            bodyBuilder, cast<linalg::LinalgOp>(member), operand,
            [&](Value input) {
              for (OpOperand &use : member->getOpOperands())
                if (use.get() == input)
                  return clone->getOperand(use.getOperandNumber());
              return Value();
            });
        assert(empty && "dispatch formation checked the sizes");
        clone->setOperand(operand.getOperandNumber(), empty);
        bodyBuilder.setInsertionPointToEnd(block);
      }
      mapping.map(member->getResults(), clone->getResults());
    }
    func::ReturnOp::create(bodyBuilder, loc, clone->getResults());

    FailureOr<codegen::EntryLayout> layout =
        codegen::analyzeDispatchFunction(entry);
    assert(succeeded(layout) && "a checked linalg op outlines cleanly");

    for (Operation *member : ops) {
      auto op = cast<linalg::LinalgOp>(member);
      checkLoopExtents(op);
      // An intermediate has no storage, but dims for the checks of the
      // members using it: those of its destination.
      if (member != ops.back())
        storages[op->getResult(0)] = TensorStorage{
            Value(), Value(), storages[op.getDpsInits()[0]].dynamicDims};
    }

    SmallVector<Value> pushConstants, resources, sizes;
    for (Value operand : operands) {
      const TensorStorage &storage = storages[operand];
      llvm::append_range(pushConstants, storage.dynamicDims);
      resources.push_back(storage.resource);
      sizes.push_back(storage.size);
    }
    Value one = indexConstant(loc, 1);
    Value countX = one;
    if (layout->workgroups.tileSize > 0) {
      Value extent = layout->workgroups.staticExtent
                         ? indexConstant(loc, *layout->workgroups.staticExtent)
                         : dimOf(loc, operands[layout->workgroups.bindingIndex],
                                 layout->workgroups.dimIndex);
      countX = arith::CeilDivUIOp::create(
          builder, loc, extent,
          indexConstant(loc, layout->workgroups.tileSize));
    }
    int64_t tied = layout->resultBindings.front();
    entry.setResultAttr(0, codegen::kDestinationAttr,
                        builder.getI64IntegerAttr(tied));
    Value dest = operands[tied];
    TensorStorage result = storages[dest];
    auto dispatch = AsyncDispatchEntryOp::create(
        builder, loc, result.resource.getType(),
        SymbolRefAttr::get(executable.getSymNameAttr(),
                           {FlatSymbolRefAttr::get(entry.getSymNameAttr())}),
        ValueRange{countX, one, one}, pushConstants, resources, sizes,
        result.size, builder.getDenseI64ArrayAttr({tied}));
    setAffinity(dispatch, affinityOf(last));
    result.resource = dispatch.getResult();
    storages[last->getResult(0)] = result;
    deadOps.push_back(last);
  }

  // Operands of `op` mapped to the same loop must agree on its extent;
  // where their dynamic dims are different values, the program checks.
  void checkLoopExtents(linalg::LinalgOp op) {
    Location loc = op.getLoc();
    SmallVector<Value> allOperands(op->getOperands());
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<Value> loopExtent(op.getNumLoops());
    // An elementwise op the user wrote is named as such, its dims (the
    // generic's loops, in order) as dimensions.
    auto source = op->getAttrOfType<StringAttr>(kElementwiseSourceAttr);
    std::string what =
        "operands of '" +
        (source ? source.str() : op->getName().getStringRef().str()) + "'";
    StringRef extent =
        source ? " differ in dimension " : " differ in the extent of loop ";
    for (auto [operand, map] : llvm::zip(allOperands, maps)) {
      for (auto [position, expr] : llvm::enumerate(map.getResults())) {
        auto loopExpr = dyn_cast<AffineDimExpr>(expr);
        if (!loopExpr)
          continue;
        unsigned loop = loopExpr.getPosition();
        Value dim = dimOf(loc, operand, position);
        if (!loopExtent[loop]) {
          loopExtent[loop] = dim;
          continue;
        }
        if (loopExtent[loop] == dim ||
            (matchPattern(loopExtent[loop], m_Constant()) &&
             matchPattern(dim, m_Constant())))
          continue;
        Value same = arith::CmpIOp::create(
            builder, loc, arith::CmpIPredicate::eq, loopExtent[loop], dim);
        cf::AssertOp::create(
            builder, loc, same,
            (what + locationSuffix(loc) + extent + Twine(loop)).str());
      }
    }
    checkWindowExtents(op, allOperands, loopExtent);
  }

  // A dimension an operand indexes with a sum of loops (a convolution
  // window) or a constant must hold the index's largest value, unless a loop
  // of the sum is empty. The linalg verifier checked this where every loop
  // range and the dimension are static (and the dimension not 0); the
  // program checks the rest.
  void checkWindowExtents(linalg::LinalgOp op, ArrayRef<Value> operands,
                          ArrayRef<Value> loopExtent) {
    Location loc = op.getLoc();
    bool staticLoops =
        llvm::none_of(op.getStaticLoopRanges(), ShapedType::isDynamic);
    for (auto [index, operand, map] :
         llvm::enumerate(operands, op.getIndexingMapsArray())) {
      auto type = cast<RankedTensorType>(operand.getType());
      for (auto [position, expr] : llvm::enumerate(map.getResults())) {
        if (isa<AffineDimExpr>(expr))
          continue;
        if (staticLoops && !type.isDynamicDim(position) &&
            type.getDimSize(position) != 0)
          continue;
        Value dim = dimOf(loc, operand, position);
        SmallVector<Value> loops;
        expr.walk([&](AffineExpr sub) {
          if (auto loop = dyn_cast<AffineDimExpr>(sub))
            loops.push_back(loopExtent[loop.getPosition()]);
        });
        Value largest = buildLargestIndex(builder, loc, expr, loopExtent);
        Value fits = arith::CmpIOp::create(
            builder, loc, arith::CmpIPredicate::slt, largest, dim);
        Value zero = indexConstant(loc, 0);
        for (Value extent : loops)
          fits = arith::OrIOp::create(
              builder, loc, fits,
              arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                    extent, zero));
        cf::AssertOp::create(builder, loc, fits,
                             ("operand " + Twine(index) + " of '" +
                              op->getName().getStringRef() + "'" +
                              locationSuffix(loc) +
                              " is too small in dimension " + Twine(position) +
                              " for the window the loops read")
                                 .str());
      }
    }
  }

  // linalg.fill writes its init operand in place.
  void importFill(linalg::FillOp op) {
    TensorStorage storage = storages[op.getOutputs()[0]];
    storage.resource =
        AsyncFillOp::create(builder, op.getLoc(), storage.resource.getType(),
                            op.getInputs()[0], storage.resource, storage.size);
    setAffinity(storage.resource.getDefiningOp(), affinityOf(op));
    storages[op.getResult(0)] = storage;
    deadOps.push_back(op);
  }

  // A reshape of a row-major tensor is the same bytes: the result is its
  // source's resource and size with dims of its own (no copy, no dispatch).
  void importCollapse(tensor::CollapseShapeOp op) {
    Location loc = op.getLoc();
    TensorStorage storage = storages[op.getSrc()];
    RankedTensorType type = op.getResultType();
    storage.dynamicDims.clear();
    for (auto [d, group] : llvm::enumerate(op.getReassociationIndices())) {
      if (!type.isDynamicDim(d))
        continue;
      Value product;
      for (int64_t source : group) {
        Value dim = dimOf(loc, op.getSrc(), source);
        product =
            product ? arith::MulIOp::create(builder, loc, product, dim) : dim;
      }
      storage.dynamicDims.push_back(product);
    }
    storages[op.getResult()] = storage;
    deadOps.push_back(op);
  }

  // The same for an expansion, whose dynamic output sizes the program
  // checks multiply to the source's dimension.
  void importExpand(tensor::ExpandShapeOp op) {
    Location loc = op.getLoc();
    TensorStorage storage = storages[op.getSrc()];
    RankedTensorType type = op.getResultType();
    SmallVector<OpFoldResult> shape = op.getMixedOutputShape();
    SmallVector<Value> dims =
        llvm::map_to_vector(shape, [&](OpFoldResult size) {
          return getValueOrCreateConstantIndexOp(builder, loc, size);
        });
    storage.dynamicDims.clear();
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        storage.dynamicDims.push_back(dims[d]);
    for (auto [source, group] : llvm::enumerate(op.getReassociationIndices())) {
      Value sourceDim = dimOf(loc, op.getSrc(), source);
      bool known =
          matchPattern(sourceDim, m_Constant()) &&
          llvm::all_of(group, [&](int64_t d) { return !type.isDynamicDim(d); });
      if (known)
        continue;
      Value product;
      for (int64_t d : group)
        product = product
                      ? arith::MulIOp::create(builder, loc, product, dims[d])
                      : dims[d];
      Value same = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                         product, sourceDim);
      cf::AssertOp::create(builder, loc, same,
                           ("'tensor.expand_shape'" + locationSuffix(loc) +
                            ": the output sizes of group " + Twine(source) +
                            " do not multiply to source dimension " +
                            Twine(source))
                               .str());
    }
    storages[op.getResult()] = storage;
    deadOps.push_back(op);
  }

  // A slice (ImportSlices.h): a contiguous one is a byte range of its
  // source (`stream.async.slice`) or an update of its destination at its
  // byte offset; a strided one a copy kernel.
  void importSlice(OffsetSizeAndStrideOpInterface op) {
    Location loc = op.getLoc();
    auto extract = dyn_cast<tensor::ExtractSliceOp>(op.getOperation());
    Value full = op->getOperand(extract ? 0 : 1);
    SmallVector<Value> fullDims;
    for (int64_t d = 0; d < cast<RankedTensorType>(full.getType()).getRank();
         ++d)
      fullDims.push_back(dimOf(loc, full, d));
    buildSliceBoundsChecks(builder, op, fullDims);
    if (!extract)
      buildTileSizeChecks(builder, op, storages[op->getOperand(0)].dynamicDims);
    std::optional<Value> offset =
        buildContiguousByteOffset(builder, op, fullDims);
    AffinityAttr affinity = getAffinity(op);
    if (!offset) {
      Value init;
      if (extract) {
        auto empty = tensor::EmptyOp::create(builder, loc, extract.getType(),
                                             extract.getSizes());
        setAffinity(empty, affinity);
        importEmpty(empty);
        init = empty;
      }
      linalg::GenericOp copy = buildStridedCopy(builder, op, init);
      setAffinity(copy, affinity);
      importLinalg(copy);
      // (Copied out first: inserting the result may grow the map, which
      // moves the copy's entry.)
      TensorStorage storage = storages[copy.getResult(0)];
      storages[op->getResult(0)] = storage;
    } else if (extract) {
      const TensorStorage &source = storages[full];
      TensorStorage result =
          sizedStorage(loc, extract.getType(), extract.getSizes());
      result.resource = AsyncSliceOp::create(
          builder, loc, resourceType(Lifetime::Unknown), source.resource,
          source.size, *offset, result.size);
      setAffinity(result.resource.getDefiningOp(), affinityOf(op));
      storages[op->getResult(0)] = result;
    } else {
      const TensorStorage &tile = storages[op->getOperand(0)];
      TensorStorage dest = storages[full];
      auto update = AsyncUpdateOp::create(builder, loc, dest.resource.getType(),
                                          tile.resource, tile.size,
                                          dest.resource, dest.size, *offset);
      setAffinity(update, affinityOf(op));
      dest.resource = update.getResult();
      storages[op->getResult(0)] = dest;
    }
    deadOps.push_back(op);
  }

  // tensor.bitcast and tensor.cast: the source's storage, with the result's
  // dims (ImportTensorOps.h).
  void importMetadataCast(Operation *op) {
    Value source = op->getOperand(0);
    TensorStorage storage = storages[source];
    if (auto cast = dyn_cast<tensor::CastOp>(op))
      storage.dynamicDims = importCastDims(builder, cast, [&](int64_t d) {
        return dimOf(op->getLoc(), source, d);
      });
    storages[op->getResult(0)] = storage;
    deadOps.push_back(op);
  }

  // A concat whose inputs are contiguous byte ranges of the result (on the
  // outermost axis, or after dims of size 1): each input is the range after
  // the ones before it, copied in with an update (ImportTensorOps.h). The
  // inputs' other dims must agree with the result's (static) or the first
  // input's.
  void importContiguousConcat(tensor::ConcatOp op) {
    Location loc = op.getLoc();
    RankedTensorType type = op.getResultType();
    int64_t axis = int64_t(op.getDim());
    Value first = op.getInputs().front();
    SmallVector<Value> dims;
    Value total;
    for (Value input : op.getInputs()) {
      Value extent = dimOf(loc, input, axis);
      total =
          total ? arith::AddIOp::create(builder, loc, total, extent).getResult()
                : extent;
      for (int64_t d = 0; d < type.getRank(); ++d) {
        auto inputType = cast<RankedTensorType>(input.getType());
        if (d == axis || (!inputType.isDynamicDim(d) && !type.isDynamicDim(d)))
          continue;
        Value a = type.isDynamicDim(d) ? dimOf(loc, first, d)
                                       : indexConstant(loc, type.getDimSize(d));
        Value b = dimOf(loc, input, d);
        if (a == b ||
            (matchPattern(a, m_Constant()) && matchPattern(b, m_Constant())))
          continue;
        Value same =
            arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, a, b);
        cf::AssertOp::create(builder, loc, same,
                             ("inputs of 'tensor.concat'" +
                              locationSuffix(loc) + " differ in dimension " +
                              Twine(d))
                                 .str());
      }
    }
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        dims.push_back(d == axis ? total : dimOf(loc, first, d));
    TensorStorage result = sizedStorage(loc, type, dims);
    result.resource = AsyncAllocaOp::create(
        builder, loc, resourceType(Lifetime::Unknown), result.size);
    setAffinity(result.resource.getDefiningOp(), affinityOf(op));
    Value offset = indexConstant(loc, 0);
    for (Value input : op.getInputs()) {
      const TensorStorage &part = storages[input];
      auto update = AsyncUpdateOp::create(
          builder, loc, result.resource.getType(), part.resource, part.size,
          result.resource, result.size, offset);
      setAffinity(update, affinityOf(op));
      result.resource = update.getResult();
      offset = arith::AddIOp::create(builder, loc, offset, part.size);
    }
    storages[op.getResult()] = result;
    deadOps.push_back(op);
  }

  // A call to a function of this module that uses tensors: the host
  // convention (see the file comment). Results may have dynamic shapes: the
  // returned buffer views carry their dims.
  void importInternalCall(func::CallOp op) {
    Location loc = op.getLoc();
    AffinityAttr affinity = affinityOf(op);
    SmallVector<Value> views;
    for (Value operand : op.getOperands()) {
      if (!isTensor(operand.getType())) {
        views.push_back(operand);
        continue;
      }
      TensorStorage &storage = storages[operand];
      // What the callee sees is external storage, like a host input.
      retypeStorageChain(storage.resource, resourceType(Lifetime::External));
      views.push_back(TensorExportOp::create(
          builder, loc, viewType(), storage.resource,
          TypeAttr::get(operand.getType()), storage.dynamicDims, storage.size));
      setAffinity(views.back().getDefiningOp(), affinity);
    }
    SmallVector<Type> viewTypes = llvm::map_to_vector(
        op.getResultTypes(), [&](Type type) { return boundaryType(type); });
    auto call = func::CallOp::create(builder, loc, op.getCalleeAttr(),
                                     viewTypes, views);
    for (auto [i, result] : llvm::enumerate(op.getResults())) {
      if (!isTensor(result.getType())) {
        result.replaceAllUsesWith(call.getResult(i));
        continue;
      }
      TensorImportOp import = importView(
          loc, call.getResult(i), cast<RankedTensorType>(result.getType()),
          "result " + std::to_string(i) + " of '" + op.getCallee().str() + "'",
          storages[result]);
      import.setConsume(true);
      setAffinity(import, affinity);
    }
    deadOps.push_back(op);
  }

  // A call to an external function: tied results are the operands they are
  // written into; new results have static shapes.
  void importCall(func::CallOp op) {
    Location loc = op.getLoc();
    auto callee = symbols.lookup<func::FuncOp>(op.getCallee());
    if (!callee.isDeclaration()) {
      if (tensorFunctions.contains(callee.getSymNameAttr()))
        importInternalCall(op);
      return;
    }
    // A new result of dynamic shape: views in, views (with their dims) out,
    // as between functions of the module. convert-stream-to-hal adds the
    // fences and the allocation requests and waits for the callee.
    if (callee->hasAttr(kResultAllocationAttr)) {
      importInternalCall(op);
      return;
    }
    SmallVector<int64_t> ties(op.getNumResults(), -1);
    if (auto attr = callee->getAttrOfType<DenseI64ArrayAttr>(kTiedOperandsAttr))
      ties.assign(attr.asArrayRef().begin(), attr.asArrayRef().end());

    SmallVector<Value> resources, sizes, argumentDims;
    for (Value operand : op.getOperands()) {
      const TensorStorage &storage = storages[operand];
      resources.push_back(storage.resource);
      sizes.push_back(storage.size);
      llvm::append_range(argumentDims, storage.dynamicDims);
    }
    SmallVector<TensorStorage> results;
    SmallVector<Type> resultTypes;
    SmallVector<Value> resultSizes;
    for (auto [i, type] : llvm::enumerate(op.getResultTypes())) {
      TensorStorage result =
          ties[i] >= 0 ? storages[op.getOperand(ties[i])]
                       : sizedStorage(loc, cast<RankedTensorType>(type), {});
      resultTypes.push_back(ties[i] >= 0 ? result.resource.getType()
                                         : resourceType(Lifetime::Unknown));
      resultSizes.push_back(result.size);
      results.push_back(result);
    }
    bool anyTied = llvm::any_of(ties, [](int64_t t) { return t >= 0; });
    auto call = AsyncCallOp::create(
        builder, loc, resultTypes, op.getCalleeAttr(), resources, sizes,
        argumentDims, resultSizes,
        anyTied ? builder.getDenseI64ArrayAttr(ties) : nullptr);
    setAffinity(call, affinityOf(op));
    for (auto [i, result] : llvm::enumerate(results)) {
      result.resource = call.getResult(i);
      storages[op.getResult(i)] = result;
    }
    deadOps.push_back(op);
  }

  // Results leave as external resources wrapped in fresh buffer views.
  // Result `index` goes into the storage of argument `ties[index]`, which the
  // host lent for it (`iree.abi.tied`): a whole update, which allocation
  // scheduling turns into whatever made the value writing there directly.
  // Their dims must agree. The argument itself needs no copy.
  TensorStorage writeIntoArgument(Location loc, unsigned index,
                                  TensorStorage storage) {
    const TensorStorage &argument = argumentStorages[ties[index]];
    if (storage.resource == argument.resource)
      return storage;
    checkSameDims(loc, cast<RankedTensorType>(func.getResultTypes()[index]),
                  storage.dynamicDims, argument.dynamicDims,
                  "result " + std::to_string(index) + " and argument " +
                      std::to_string(ties[index]) + " (iree.abi.tied) of '" +
                      func.getSymName().str() + "'");
    Value zero = indexConstant(loc, 0);
    auto update = AsyncUpdateOp::create(
        builder, loc, argument.resource.getType(), storage.resource,
        storage.size, argument.resource, argument.size, zero);
    setAffinity(update, getAffinity(argument.resource.getDefiningOp()));
    TensorStorage written = argument;
    written.resource = update.getResult();
    return written;
  }

  // Whether `resource` is an argument the host lent for a result to be
  // written into.
  bool isTiedArgument(Value resource) {
    return llvm::any_of(ties, [&](int64_t tie) {
      return tie >= 0 && argumentStorages[tie].resource == resource;
    });
  }

  // Whether `resource`, a result of a region op (a loop's or a branch's),
  // may hold on some path a value the function cannot hand to its caller as
  // its own: a constant, an argument (for a caller in the module, which
  // takes ownership), storage returned as another result (directly, in
  // `returned`, or possibly, in `returnedLeaves`), or a value the function
  // still uses after the op (the result would alias it). Followed through
  // the values passed into each position; what it may hold is added to
  // `returnedLeaves` when it is not.
  bool mayCarryBorrowed(Value resource,
                        const llvm::SmallPtrSetImpl<Value> &returned,
                        llvm::DenseSet<Value> &returnedLeaves) {
    std::optional<CarriedPosition> start = getCarriedPosition(resource);
    if (!start)
      return false;
    Operation *regionOp = resource.getDefiningOp();
    SmallVector<Value> work{resource};
    llvm::DenseSet<Value> seen;
    SmallVector<Value> leaves;
    while (!work.empty()) {
      Value value = work.pop_back_val();
      if (!seen.insert(value).second)
        continue;
      if (std::optional<CarriedPosition> position = getCarriedPosition(value)) {
        for (OpOperand *in : position->incoming)
          work.push_back(in->get());
        continue;
      }
      if (value.getDefiningOp<AsyncConstantOp>() || returned.contains(value) ||
          returnedLeaves.contains(value))
        return true;
      leaves.push_back(value);
      // The host's own argument may go back to it as a view; a caller in
      // the module would take ownership of it.
      if (auto importOp = value.getDefiningOp<TensorImportOp>()) {
        if (!importOp.getConsume() && calledInternally)
          return true;
        continue;
      }
      // Used after the op (in the block that holds both): the result may
      // be that value while the function still needs it.
      Block *block = value.getParentBlock();
      Operation *anchor = block->findAncestorOpInBlock(*regionOp);
      if (anchor && llvm::any_of(value.getUsers(), [&](Operation *user) {
            Operation *use = block->findAncestorOpInBlock(*user);
            return use && anchor->isBeforeInBlock(use);
          }))
        return true;
    }
    returnedLeaves.insert(leaves.begin(), leaves.end());
    return false;
  }

  void importReturn(func::ReturnOp op) {
    SmallVector<Value> views;
    llvm::SmallPtrSet<Value, 4> returned;
    SmallVector<TensorStorage> results;
    for (Value operand : op.getOperands())
      results.push_back(isTensor(operand.getType()) ? storages[operand]
                                                    : TensorStorage());
    // The lent arguments are overwritten last; an untied result that returns
    // one as it is gets a copy of the value it had.
    for (auto [index, storage] : llvm::enumerate(results)) {
      if (ties[index] >= 0 || !isTiedArgument(storage.resource))
        continue;
      storage.resource = AsyncTransferOp::create(
          builder, op.getLoc(), resourceType(Lifetime::External),
          storage.resource, storage.size, storage.size);
      setAffinity(storage.resource.getDefiningOp(),
                  boundaryAffinity(func.getResultAttrDict(index)));
    }
    // Every result's storage, for a carried result that may be one of them.
    llvm::SmallPtrSet<Value, 4> allResults;
    for (const TensorStorage &storage : results)
      if (storage.resource)
        allResults.insert(storage.resource);
    llvm::DenseSet<Value> returnedLeaves;
    for (auto [index, operand] : llvm::enumerate(op.getOperands())) {
      // A scalar is returned as it is.
      if (!isTensor(operand.getType())) {
        views.push_back(operand);
        continue;
      }
      TensorStorage storage = results[index];
      if (ties[index] >= 0)
        storage = writeIntoArgument(op.getLoc(), index, storage);
      // A caller in the module takes ownership of each result, so each must
      // be storage this function owns and returns once: an argument (the
      // caller's, imported without `consume`) or a repeated result is
      // copied. The copy is a transfer, which copy elision keeps. So is a
      // constant, for every caller: the module's copy is read-only, and a
      // caller may write its results.
      // A value a loop or branch carries is copied when it may be such
      // storage, or one the function still uses elsewhere, on some path.
      auto importOp = storage.resource.getDefiningOp<TensorImportOp>();
      if (storage.resource.getDefiningOp<AsyncConstantOp>() ||
          (calledInternally && ((importOp && !importOp.getConsume()) ||
                                returned.contains(storage.resource))) ||
          mayCarryBorrowed(storage.resource, allResults, returnedLeaves)) {
        storage.resource = AsyncTransferOp::create(
            builder, op.getLoc(), resourceType(Lifetime::External),
            storage.resource, storage.size, storage.size);
        setAffinity(storage.resource.getDefiningOp(),
                    boundaryAffinity(func.getResultAttrDict(views.size())));
      }
      returned.insert(storage.resource);
      // Returned storage is external, with all it was written into.
      retypeStorageChain(storage.resource, resourceType(Lifetime::External));
      views.push_back(TensorExportOp::create(
          builder, op.getLoc(), viewType(), storage.resource,
          TypeAttr::get(operand.getType()), storage.dynamicDims, storage.size));
      setAffinity(views.back().getDefiningOp(),
                  boundaryAffinity(func.getResultAttrDict(views.size() - 1)));
    }
    op->setOperands(views);
  }

  func::FuncOp func;
  SymbolTable &symbols;
  const llvm::DenseSet<StringAttr> &tensorFunctions;
  bool calledInternally;
  OpBuilder builder;
  unsigned originalArgCount = 0;
  // Whether the caller hands each argument over (`iree.abi.consume`).
  SmallVector<bool> consumed;
  // The argument each result is written into (`iree.abi.tied`), or -1.
  SmallVector<int64_t> ties;
  // Where each argument lives once imported.
  SmallVector<TensorStorage> argumentStorages;
  llvm::DenseMap<Value, TensorStorage> storages;
  SmallVector<Operation *> deadOps;
  unsigned dispatchCount = 0;
  DispatchGroups groups;
};

struct ConvertInputToStreamPass
    : impl::ConvertInputToStreamPassBase<ConvertInputToStreamPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    bool ok = true;
    // Declarations first: calls read the ties they declare.
    for (auto func : module.getOps<func::FuncOp>())
      if (func.isDeclaration() && isInputFunction(func))
        ok &= succeeded(importExternal(func));
    // Branches of tensor functions become scf ops before anything is
    // checked (the ops they hold are checked in their new places).
    bool lifted = true;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isDeclaration() && isInputFunction(func))
        lifted &= succeeded(liftControlFlow(func));
    if (!lifted)
      return signalPassFailure();
    // Tensor ops that are other ops the import knows (ImportTensorOps.h),
    // rewritten before the check sees them.
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isDeclaration() && isInputFunction(func))
        ok &= decomposeTensorOps(func);
    for (Operation &op : module.getBody()->getOperations()) {
      if (auto func = dyn_cast<func::FuncOp>(op)) {
        if (!func.isDeclaration() && isInputFunction(func))
          ok &= succeeded(checkFunction(func, symbols));
        continue;
      }
      if (isa<hal::HALDialect>(op.getDialect()))
        continue;
      if (isa<ModuleOp>(op) && op.hasAttr(kExecutableAttr))
        continue;
      op.emitError() << "'" << op.getName()
                     << "' is not supported at module level";
      ok = false;
    }
    ok &= succeeded(verifyAffinityDevices(module));
    if (!ok)
      return signalPassFailure();
    llvm::DenseSet<StringAttr> called = calledFunctions(module);
    // Decided before any import: an imported function no longer has tensors.
    llvm::DenseSet<StringAttr> tensorFunctions;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isDeclaration() && isInputFunction(func))
        tensorFunctions.insert(func.getSymNameAttr());
    for (auto func : module.getOps<func::FuncOp>())
      if (tensorFunctions.contains(func.getSymNameAttr()))
        FunctionImporter(func, symbols, tensorFunctions,
                         called.contains(func.getSymNameAttr()))
            .run();
    for (auto func : module.getOps<func::FuncOp>())
      if (func.isDeclaration() && func->hasAttr(kResultAllocationAttr))
        useViewSignature(func);
  }
};

} // namespace
} // namespace ferry::stream
