// Transformations of the hal dialect: resolving allocation properties from
// the device topology and memoizing device queries.
#ifndef FERRY_COMPILER_DIALECT_HAL_TRANSFORMS_PASSES_H_
#define FERRY_COMPILER_DIALECT_HAL_TRANSFORMS_PASSES_H_

#include "compiler/Dialect/HAL/IR/HALDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace ferry::hal {

#define GEN_PASS_DECL
#include "compiler/Dialect/HAL/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Dialect/HAL/Transforms/Passes.h.inc"

} // namespace ferry::hal

#endif // FERRY_COMPILER_DIALECT_HAL_TRANSFORMS_PASSES_H_
