// Conversions into the stream dialect.
#ifndef FERRY_COMPILER_DIALECT_STREAM_CONVERSION_PASSES_H_
#define FERRY_COMPILER_DIALECT_STREAM_CONVERSION_PASSES_H_

#include "compiler/Dialect/Stream/IR/StreamDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace ferry::stream {

// What one plugin declares about the external functions it implements,
// read from the plugin so that it need not stay loaded while compiling.
struct PluginDeclarations {
  struct Function {
    std::string module; // "Double" of @Double.function
    std::string name;   // "function"
    bool coarseFences = false;
    bool tiedMayAlias = false;
    // One letter per register: 'i' integer, 'r' buffer view or fence.
    std::string argKinds, resultKinds;
  };
  std::string path;
  std::vector<Function> functions;
};

// Loads the plugins at `paths` in order, reads their declarations and
// unloads them again. Fails with the loader's message, which names the path,
// for the first plugin that cannot be loaded.
llvm::Expected<std::vector<PluginDeclarations>>
loadPluginDeclarations(llvm::ArrayRef<std::string> paths);

// apply-plugin-declarations with plugins already read, for a caller that
// reports load failures itself (ferry-compile, against its --module flag).
std::unique_ptr<mlir::Pass>
createApplyPluginDeclarationsPass(std::vector<PluginDeclarations> plugins);

#define GEN_PASS_DECL
#include "compiler/Dialect/Stream/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Dialect/Stream/Conversion/Passes.h.inc"

} // namespace ferry::stream

#endif // FERRY_COMPILER_DIALECT_STREAM_CONVERSION_PASSES_H_
