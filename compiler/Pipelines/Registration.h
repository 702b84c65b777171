// Registration of every Ferry dialect and pass, for the tools.
#ifndef FERRY_COMPILER_PIPELINES_REGISTRATION_H_
#define FERRY_COMPILER_PIPELINES_REGISTRATION_H_

#include "mlir/IR/DialectRegistry.h"

namespace ferry {

// Ferry's dialects plus the upstream ones its input and output use.
void registerAllDialects(mlir::DialectRegistry &registry);

// Ferry's passes and pipelines plus the upstream passes useful beside them.
void registerAllPasses();

} // namespace ferry

#endif // FERRY_COMPILER_PIPELINES_REGISTRATION_H_
