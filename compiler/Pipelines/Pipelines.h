// The pass pipeline ferry-compile runs, phase by phase.
#ifndef FERRY_COMPILER_PIPELINES_PIPELINES_H_
#define FERRY_COMPILER_PIPELINES_PIPELINES_H_

#include "compiler/Dialect/Stream/Conversion/Passes.h"

#include "mlir/Pass/PassManager.h"

#include <string>

namespace ferry {

// Where compilation stops; each phase's IR can be printed with --compile-to.
enum class CompilePhase { Input, StreamAsync, StreamCmd, HAL, Bytecode };

struct CompileOptions {
  CompilePhase compileTo = CompilePhase::Bytecode;
  // Device symbol (without @) that allocates every shared buffer it uses;
  // empty: the topology, or the runtime, decides.
  std::string leadAllocationDevice;
  // Which external buffers are host-mappable: "where-read" (those the host
  // or external code reads) or "always" (convert-stream-to-hal).
  std::string externalMapping = "where-read";
  // Remark, per allocation, which rule chose its memory bits.
  bool explainMemoryProperties = false;
  // The plugins that will implement the program's external functions
  // (--module); apply-plugin-declarations checks them against the program.
  std::vector<stream::PluginDeclarations> plugins;
  // Verify the IR right after convert-input-to-stream, for a pass manager
  // that does not verify after every pass (ferry-compile's release default):
  // stream ops written in the input may no longer match the declarations
  // the conversion rewrites, and later passes assume valid IR.
  bool verifyImportedIR = false;
};

// Adds the passes that lower input IR to the given phase.
void buildCompilePipeline(mlir::OpPassManager &pm,
                          const CompileOptions &options);

// Registers `ferry-lower-to-hal` (the full pipeline) with ferry-opt.
void registerPipelines();

} // namespace ferry

#endif // FERRY_COMPILER_PIPELINES_PIPELINES_H_
