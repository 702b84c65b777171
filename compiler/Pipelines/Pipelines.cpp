#include "compiler/Pipelines/Pipelines.h"

#include "compiler/Dialect/HAL/Conversion/Passes.h"
#include "compiler/Dialect/Stream/Conversion/Passes.h"
#include "compiler/Dialect/Stream/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace ferry {

static void addCleanup(mlir::OpPassManager &pm) {
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
}

void buildCompilePipeline(mlir::OpPassManager &pm,
                          const CompileOptions &options) {
  if (options.compileTo == CompilePhase::Input)
    return;
  pm.addPass(stream::createConvertInputToStreamPass());
  addCleanup(pm);
  if (options.compileTo == CompilePhase::StreamAsync)
    return;
  pm.addPass(stream::createScheduleAllocationPass());
  if (options.compileTo == CompilePhase::StreamCmd)
    return;
  pm.addPass(hal::createConvertStreamToHALPass());
  addCleanup(pm);
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
