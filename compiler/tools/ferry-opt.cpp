// ferry-opt: mlir-opt with every Ferry dialect and pass registered, for
// testing and debugging individual passes.
#include "compiler/Pipelines/Registration.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  ferry::registerAllDialects(registry);
  ferry::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv,
      "ferry-opt: runs Ferry and upstream MLIR passes over an .mlir file.\n\n"
      "Example:\n"
      "  ferry-opt input.mlir --convert-input-to-stream "
      "--stream-schedule-allocation --convert-stream-to-hal\n",
      registry));
}
