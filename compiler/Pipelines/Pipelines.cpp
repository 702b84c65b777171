#include "compiler/Pipelines/Pipelines.h"

#include "compiler/Dialect/HAL/Conversion/Passes.h"
#include "compiler/Dialect/HAL/Transforms/Passes.h"
#include "compiler/Dialect/Stream/Conversion/Passes.h"
#include "compiler/Dialect/Stream/Transforms/Passes.h"
#include "compiler/Transforms/Passes.h"

#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace ferry {

namespace {
// Fails the pipeline if the IR does not verify, with the verifier's errors.
struct VerifyPass
    : mlir::PassWrapper<VerifyPass, mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(VerifyPass)
  llvm::StringRef getArgument() const override { return "ferry-verify"; }
  void runOnOperation() override {
    if (mlir::failed(mlir::verify(getOperation())))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace

static void addCleanup(mlir::OpPassManager &pm) {
  // MLIR's canonicalizer, minus its hang on loops a folded branch leaves
  // unreachable (compiler/Transforms/Passes.td).
  pm.addPass(createCanonicalizePass());
  pm.addPass(mlir::createCSEPass());
}

void buildCompilePipeline(mlir::OpPassManager &pm,
                          const CompileOptions &options) {
  // Even for --compile-to=input, whose printed IR then shows the marks.
  if (!options.plugins.empty())
    pm.addPass(stream::createApplyPluginDeclarationsPass(options.plugins));
  if (options.compileTo == CompilePhase::Input)
    return;
  pm.addPass(stream::createConvertInputToStreamPass());
  if (options.verifyImportedIR)
    pm.addPass(std::make_unique<VerifyPass>());
  addCleanup(pm);
  // Copy-on-write first (conservatively), then remove the copies nobody
  // needs, then write elementwise results into operands that die there.
  pm.addPass(stream::createMaterializeCopyOnWritePass());
  pm.addPass(stream::createElideAsyncCopiesPass());
  pm.addPass(stream::createReuseOperandStoragePass());
  if (options.compileTo == CompilePhase::StreamAsync)
    return;
  pm.addPass(stream::createScheduleAllocationPass());
  pm.addPass(stream::createFormExecutionRegionsPass());
  pm.addPass(stream::createAutomaticReferenceCountingPass());
  pm.addPass(stream::createReuseAllocationsPass());
  if (options.compileTo == CompilePhase::StreamCmd)
    return;
  pm.addPass(hal::createConvertStreamToHALPass({options.externalMapping}));
  if (options.explainMemoryProperties)
    pm.addPass(
        hal::createExplainMemoryPropertiesPass({options.leadAllocationDevice}));
  pm.addPass(
      hal::createResolveTopologyQueriesPass({options.leadAllocationDevice}));
  addCleanup(pm);
  pm.addPass(hal::createMemoizeDeviceQueriesPass());
  addCleanup(pm);
  if (options.compileTo == CompilePhase::HAL)
    return;
  // The bytecode holds control flow as branches between blocks (br /
  // br.cond with block-argument moves): structured control flow that
  // carried buffers and fences through the stream passes and the HAL
  // lowering becomes those here, right before the writer; a multi-way
  // branch (scf.index_switch, so cf.switch) becomes a chain of br.cond.
  pm.addPass(mlir::createSCFToControlFlowPass());
  pm.addPass(createLowerSwitchToBranchesPass());
}

void registerPipelines() {
  mlir::PassPipelineRegistration<>(
      "ferry-lower-to-hal",
      "Runs ferry-compile's pipeline from input IR down to the hal dialect",
      [](mlir::OpPassManager &pm) {
        CompileOptions options;
        options.compileTo = CompilePhase::HAL;
        buildCompilePipeline(pm, options);
      });
}

} // namespace ferry
