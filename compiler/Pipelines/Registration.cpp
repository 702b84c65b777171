#include "compiler/Pipelines/Registration.h"

#include "compiler/Dialect/HAL/Conversion/Passes.h"
#include "compiler/Dialect/HAL/IR/HALDialect.h"
#include "compiler/Dialect/HAL/Transforms/Passes.h"
#include "compiler/Dialect/Stream/Conversion/Passes.h"
#include "compiler/Dialect/Stream/IR/StreamDialect.h"
#include "compiler/Dialect/Stream/Transforms/Passes.h"
#include "compiler/Pipelines/Pipelines.h"
#include "compiler/Transforms/Passes.h"

#include "compiler/Codegen/ExecutableCompiler.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Transforms/Passes.h"

namespace ferry {

void registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<hal::HALDialect, stream::StreamDialect,
                  mlir::arith::ArithDialect, mlir::cf::ControlFlowDialect,
                  mlir::func::FuncDialect, mlir::linalg::LinalgDialect,
                  mlir::scf::SCFDialect, mlir::tensor::TensorDialect,
                  // What lifting branches to scf leaves on dead paths.
                  mlir::ub::UBDialect>();
  // math in linalg bodies, and what executables are compiled with.
  codegen::registerCodegenDialects(registry);
}

void registerAllPasses() {
  mlir::registerTransformsPasses();
  stream::registerStreamConversionPasses();
  stream::registerStreamTransformsPasses();
  hal::registerHALConversionPasses();
  hal::registerHALTransformsPasses();
  registerFerryTransformsPasses();
  registerPipelines();
}

} // namespace ferry
