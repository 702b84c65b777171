// Transformations not tied to one of Ferry's dialects.
#ifndef FERRY_COMPILER_TRANSFORMS_PASSES_H_
#define FERRY_COMPILER_TRANSFORMS_PASSES_H_

#include "mlir/Pass/Pass.h"

namespace ferry {

#define GEN_PASS_DECL
#include "compiler/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/Passes.h.inc"

} // namespace ferry

#endif // FERRY_COMPILER_TRANSFORMS_PASSES_H_
