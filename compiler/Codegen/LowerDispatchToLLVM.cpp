// Lowers dispatch functions (ExecutableCompiler.h) to the LLVM dialect:
// distribute each over workgroup x on tensors (tile and fuse,
// DistributeWorkgroups.h), bufferize it on its bindings alone, tile and
// vectorize each workgroup's linalg ops (TileAndVectorize.h), lower the rest
// to loops and everything to LLVM, then add the ABI wrapper `int32_t
// ENTRY(const ferry_dispatch_state_t *)` that builds memref descriptors from
// the state's bindings and push constants.
#include "compiler/Codegen/LowerDispatchToLLVM.h"
#include "compiler/Codegen/DistributeWorkgroups.h"
#include "compiler/Codegen/GuardHeapTiles.h"

#include <cstddef>

#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/AllocationOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace ferry::codegen {

namespace {

constexpr llvm::StringLiteral kBodySuffix = "__body";

/// Byte offsets of ferry_dispatch_state_t (runtime/hal/executable_abi.h).
constexpr int64_t kStateWorkgroupId =
    offsetof(ferry_dispatch_state_t, workgroup_id);
constexpr int64_t kStateWorkgroupCount =
    offsetof(ferry_dispatch_state_t, workgroup_count);
constexpr int64_t kStateBindings = offsetof(ferry_dispatch_state_t, bindings);
constexpr int64_t kStatePushConstants =
    offsetof(ferry_dispatch_state_t, push_constants);

/// Rewrites the dispatch function `func` into a private `NAME__body` over
/// binding memrefs (identity layout) and the workgroup id and count, with the
/// tensor body reading the bindings and writing each result into its
/// argument's binding.
func::FuncOp makeBufferBody(func::FuncOp func, const EntryLayout &layout) {
  OpBuilder builder(func);
  Location loc = func.getLoc();
  SmallVector<Type> argTypes;
  for (Type type : func.getArgumentTypes()) {
    auto tensor = cast<RankedTensorType>(type);
    argTypes.push_back(
        MemRefType::get(tensor.getShape(), tensor.getElementType()));
  }
  argTypes.push_back(builder.getIndexType());
  argTypes.push_back(builder.getIndexType());

  auto body = func::FuncOp::create(builder, loc,
                                   func.getSymName().str() + kBodySuffix.str(),
                                   builder.getFunctionType(argTypes, {}));
  body.setPrivate();
  Block *entry = body.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  IRMapping mapping;
  for (auto [index, arg] : llvm::enumerate(func.getArguments())) {
    auto tensor = bufferization::ToTensorOp::create(
        builder, loc, arg.getType(), entry->getArgument(index),
        /*restrict=*/true, /*writable=*/true);
    mapping.map(arg, tensor.getResult());
  }
  for (Operation &op : func.getBody().front().without_terminator())
    builder.clone(op, mapping);
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  for (auto [result, binding] :
       llvm::zip(ret.getOperands(), layout.resultBindings)) {
    Value dest = mapping.lookup(func.getArgument(binding));
    Value value = mapping.lookupOrDefault(result);
    // A body that returns another binding as it is (canonicalization erases
    // a copy whose body only yields its input) copies that binding.
    if (isa<BlockArgument>(result) && value != dest)
      value = linalg::CopyOp::create(builder, loc, value, dest).getResult(0);
    bufferization::MaterializeInDestinationOp::create(builder, loc, value,
                                                      dest);
  }
  func::ReturnOp::create(builder, loc);
  return body;
}

/// Adds `int32_t NAME(const ferry_dispatch_state_t *state)` calling the
/// lowered body with memref descriptors built from the state.
void buildAbiWrapper(ModuleOp module, func::FuncOp original,
                     const EntryLayout &layout) {
  MLIRContext *context = module.getContext();
  OpBuilder builder(context);
  builder.setInsertionPointToEnd(module.getBody());
  Location loc = original.getLoc();
  auto ptrType = LLVM::LLVMPointerType::get(context);
  Type i32 = builder.getI32Type();
  Type i64 = builder.getI64Type();
  auto wrapper = LLVM::LLVMFuncOp::create(
      builder, loc, layout.name, LLVM::LLVMFunctionType::get(i32, {ptrType}));
  Block *entry = wrapper.addEntryBlock(builder);
  builder.setInsertionPointToStart(entry);
  Value state = entry->getArgument(0);

  auto constI64 = [&](int64_t value) -> Value {
    return LLVM::ConstantOp::create(builder, loc, i64,
                                    builder.getI64IntegerAttr(value));
  };
  auto bytePtr = [&](Value base, int64_t offset) -> Value {
    return LLVM::GEPOp::create(builder, loc, ptrType, builder.getI8Type(), base,
                               ArrayRef<LLVM::GEPArg>{(int32_t)offset});
  };
  auto loadU32 = [&](int64_t offset) -> Value {
    Value value =
        LLVM::LoadOp::create(builder, loc, i32, bytePtr(state, offset));
    return LLVM::ZExtOp::create(builder, loc, i64, value);
  };
  Value bindings = LLVM::LoadOp::create(builder, loc, ptrType,
                                        bytePtr(state, kStateBindings));
  Value pushConstants = LLVM::LoadOp::create(
      builder, loc, ptrType, bytePtr(state, kStatePushConstants));

  SmallVector<Value> args;
  unsigned pushConstant = 0;
  for (auto [index, type] : llvm::enumerate(original.getArgumentTypes())) {
    auto tensor = cast<RankedTensorType>(type);
    Value slot = LLVM::GEPOp::create(builder, loc, ptrType, ptrType, bindings,
                                     ArrayRef<LLVM::GEPArg>{(int32_t)index});
    Value base = LLVM::LoadOp::create(builder, loc, ptrType, slot);
    args.push_back(base); // allocated
    args.push_back(base); // aligned
    args.push_back(constI64(0));
    SmallVector<Value> sizes;
    for (int64_t dim : tensor.getShape()) {
      if (!ShapedType::isDynamic(dim)) {
        sizes.push_back(constI64(dim));
        continue;
      }
      Value slotPtr =
          LLVM::GEPOp::create(builder, loc, ptrType, i64, pushConstants,
                              ArrayRef<LLVM::GEPArg>{(int32_t)pushConstant++});
      sizes.push_back(LLVM::LoadOp::create(builder, loc, i64, slotPtr));
    }
    SmallVector<Value> strides(sizes.size());
    Value stride = constI64(1);
    for (int64_t d = (int64_t)sizes.size() - 1; d >= 0; --d) {
      strides[d] = stride;
      stride = LLVM::MulOp::create(builder, loc, stride, sizes[d]);
    }
    llvm::append_range(args, sizes);
    llvm::append_range(args, strides);
  }
  args.push_back(loadU32(kStateWorkgroupId));
  args.push_back(loadU32(kStateWorkgroupCount));
  // The body returns the entry's status (GuardHeapTiles.h).
  Value status =
      LLVM::CallOp::create(
          builder, loc, TypeRange{i32},
          SymbolRefAttr::get(context, layout.name + kBodySuffix.str()), args)
          .getResult();
  // Non-temporal stores (TileAndVectorize.cpp streams large outputs) are
  // weakly ordered on x86: a later plain store may become visible before
  // them, and not every vendor documents a locked instruction as ordering
  // them. An SFENCE at the end of the workgroup makes them visible before
  // whatever the runtime does next to signal completion (local-task's
  // atomic countdown, a fence's release store), as plain stores are;
  // glibc's non-temporal memcpy ends the same way. One per workgroup.
  auto body =
      module.lookupSymbol<LLVM::LLVMFuncOp>(layout.name + kBodySuffix.str());
  bool streams = body && body.walk([](LLVM::StoreOp store) {
                               return store.getNontemporal()
                                          ? WalkResult::interrupt()
                                          : WalkResult::advance();
                             })
                             .wasInterrupted();
  if (streams)
    LLVM::CallIntrinsicOp::create(builder, loc,
                                  builder.getStringAttr("llvm.x86.sse.sfence"),
                                  ValueRange{});
  LLVM::ReturnOp::create(builder, loc, status);
}

/// Expands math functions LLVM would turn into libm calls into polynomial
/// approximations (the f32 ones MLIR has). What is left calls libm, which
/// the loading process resolves: LLVM's intrinsics do that for f64 `exp`,
/// `log`, `sin`, ...; `math.erf` on f64, which has no intrinsic, and
/// `math.log1p` on f64, which MathToLLVM computes as log(1 + x) (0 for
/// x = 1e-30), become calls of libm's `erf` / `log1p` here (per lane for a
/// vector).
struct ApproximateMathPass
    : PassWrapper<ApproximateMathPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ApproximateMathPass)
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    SmallVector<Operation *> libmCalls;
    getOperation().walk([&](Operation *op) {
      if (isa<math::ErfOp, math::Log1pOp>(op))
        libmCalls.push_back(op);
    });
    if (libmCalls.empty())
      return;
    RewritePatternSet libm(&getContext());
    populateMathToLibmConversionPatterns(libm);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (failed(applyOpPatternsGreedily(libmCalls, std::move(libm), config)))
      signalPassFailure();
  }
};

/// Puts each allocation a kernel makes on its stack where it is of a static
/// size up to kMaxStackTileBytes and outside every loop (an alloca in a
/// loop would grow the stack every iteration). Runs before the
/// deallocation pipeline, so an alloc has no dealloc yet.
struct StackTilesPass : PassWrapper<StackTilesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(StackTilesPass)
  void runOnOperation() override {
    SmallVector<memref::AllocOp> tiles;
    getOperation().walk([&](memref::AllocOp alloc) {
      MemRefType type = alloc.getType();
      if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat() ||
          alloc->getParentOfType<LoopLikeOpInterface>())
        return;
      int64_t bits = type.getNumElements() *
                     int64_t(type.getElementType().getIntOrFloatBitWidth());
      if (bits <= kMaxStackTileBytes * 8)
        tiles.push_back(alloc);
    });
    for (memref::AllocOp alloc : tiles) {
      OpBuilder builder(alloc);
      auto alloca = memref::AllocaOp::create(
          builder, alloc.getLoc(), alloc.getType(), alloc.getDynamicSizes(),
          alloc.getSymbolOperands(), alloc.getAlignmentAttr());
      alloc.replaceAllUsesWith(alloca.getResult());
      alloc.erase();
    }
  }
};

/// Clears the `contract` flag arith-emulate-unsupported-floats puts on the
/// conversions it adds: with it, canonicalization folds an op's rounding
/// back to f16 and the next op's widening away, so a fused chain of f16 ops
/// would round once at its end instead of after every op, as the program
/// (and NumPy's float16) does.
struct RoundEveryOpPass
    : PassWrapper<RoundEveryOpPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RoundEveryOpPass)
  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      if (isa<arith::TruncFOp, arith::ExtFOp>(op))
        if (auto fastmath = dyn_cast<arith::ArithFastMathInterface>(op))
          op->setAttr(fastmath.getFastMathAttrName(),
                      arith::FastMathFlagsAttr::get(
                          op->getContext(), arith::FastMathFlags::none));
    });
  }
};

} // namespace

void registerCodegenDialects(DialectRegistry &registry) {
  registry.insert<affine::AffineDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, cf::ControlFlowDialect,
                  func::FuncDialect, linalg::LinalgDialect, LLVM::LLVMDialect,
                  math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect, vector::VectorDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerTilingInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  // Which allocations may leave a loop (buffer-loop-hoisting).
  memref::registerAllocationOpInterfaceExternalModels(registry);
  // Bounds of tile sizes (DistributeWorkgroups.cpp).
  affine::registerValueBoundsOpInterfaceExternalModels(registry);
  arith::registerValueBoundsOpInterfaceExternalModels(registry);
  tensor::registerValueBoundsOpInterfaceExternalModels(registry);
}

FailureOr<OwningOpRef<ModuleOp>>
lowerDispatchesToLLVM(ModuleOp module, SmallVectorImpl<EntryLayout> &entries,
                      const VectorTarget &vectorTarget) {
  MLIRContext *context = module.getContext();
  DialectRegistry registry;
  registerCodegenDialects(registry);
  context->appendDialectRegistry(registry);
  context->loadAllAvailableDialects();

  OwningOpRef<ModuleOp> lowered = ModuleOp::create(module.getLoc());
  SmallVector<func::FuncOp> originals;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func.isPublic())
      continue;
    FailureOr<EntryLayout> layout = analyzeDispatchFunction(func);
    if (failed(layout))
      return failure();
    entries.push_back(*layout);
    originals.push_back(func);
  }
  if (entries.empty())
    return module.emitOpError("has no dispatch function to compile");

  OpBuilder builder(context);
  builder.setInsertionPointToEnd(lowered->getBody());
  for (auto [func, layout] : llvm::zip(originals, entries)) {
    auto copy = cast<func::FuncOp>(builder.clone(*func));
    func::FuncOp body = makeBufferBody(copy, layout);
    copy.erase();
    if (failed(distributeOverWorkgroups(body, layout)))
      return failure();
  }

  bufferization::OneShotBufferizationOptions bufferizeOptions;
  bufferizeOptions.bufferizeFunctionBoundaries = false;
  bufferization::BufferizationState bufferizeState;
  if (failed(bufferization::runOneShotBufferize(*lowered, bufferizeOptions,
                                                bufferizeState)))
    return failure();
  // Tiles written in place bufferize to copies of a subview onto an equal
  // subview, and the loop result to one onto its binding: folded away here.
  {
    PassManager cleanup(context);
    cleanup.addPass(createCanonicalizerPass());
    cleanup.addPass(createCSEPass());
    cleanup.addPass(createCanonicalizerPass());
    if (failed(cleanup.run(*lowered)))
      return failure();
  }
  // A result that could not be written in place shows up as a copy into
  // its binding; the destination-style contract forbids that.
  WalkResult copies = lowered->walk([&](memref::CopyOp copy) {
    if (copy.getSource() == copy.getTarget()) {
      copy.erase();
      return WalkResult::advance();
    }
    copy.emitOpError("dispatch result could not be written in place into "
                     "its binding");
    return WalkResult::interrupt();
  });
  if (copies.wasInterrupted())
    return failure();

  if (failed(tileAndVectorize(*lowered, vectorTarget)))
    return failure();

  PassManager pm(context);
  pm.addPass(createCanonicalizerPass());
  // Buffers a kernel makes itself (tiles of fused producers, shape-only
  // window operands) come out of loops where their size allows, and those
  // of a static size up to kMaxStackTileBytes go on the workgroup's stack:
  // no malloc, so no allocation that can fail inside a kernel. Larger or
  // dynamic ones stay heap buffers (ARCHITECTURE.md, "Code generation"),
  // their sizes bounded here and each malloc checked after the conversion
  // (GuardHeapTiles.h).
  pm.addNestedPass<func::FuncOp>(bufferization::createBufferLoopHoistingPass());
  pm.addPass(std::make_unique<StackTilesPass>());
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createBoundHeapTileSizesPass());
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(std::make_unique<ApproximateMathPass>());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  // f16 and bf16 arithmetic computes in f32 and rounds once per op (exact
  // for + - * / and sqrt: f32 has more than twice their precision), and
  // bf16 conversions become integer ops, so no CPU needs bf16 support and
  // images call no compiler-rt conversion (__truncsfbf2). f16 conversions
  // stay LLVM's: F16C instructions (a recorded CPU feature), or on a
  // target without it calls of __truncsfhf2 / __extendhfsf2, which the
  // loading process resolves from libgcc_s (GCC 12 and later; without them
  // the load fails naming the symbol).
  pm.addPass(arith::createArithEmulateUnsupportedFloats(
      arith::ArithEmulateUnsupportedFloatsOptions{{"f16", "bf16"}, "f32"}));
  pm.addPass(std::make_unique<RoundEveryOpPass>());
  pm.addPass(arith::createArithExpandOpsPass(
      arith::ArithExpandOpsPassOptions{/*includeBf16=*/true}));
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  if (failed(pm.run(*lowered)))
    return failure();

  for (auto [func, layout] : llvm::zip(originals, entries)) {
    auto body = lowered->lookupSymbol<LLVM::LLVMFuncOp>(layout.name +
                                                        kBodySuffix.str());
    if (!body || failed(checkHeapTiles(body)))
      return failure();
    buildAbiWrapper(*lowered, func, layout);
  }

  builder.setInsertionPointToStart(lowered->getBody());
  LLVM::GlobalOp::create(builder, module.getLoc(), builder.getI32Type(),
                         /*isConstant=*/true, LLVM::Linkage::External,
                         "ferry_executable_abi_version",
                         builder.getI32IntegerAttr(kExecutableAbiVersion));
  return lowered;
}

} // namespace ferry::codegen
