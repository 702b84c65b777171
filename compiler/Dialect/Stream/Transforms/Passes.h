// Transformations within the stream dialect.
#ifndef FERRY_COMPILER_DIALECT_STREAM_TRANSFORMS_PASSES_H_
#define FERRY_COMPILER_DIALECT_STREAM_TRANSFORMS_PASSES_H_

#include "compiler/Dialect/Stream/IR/StreamDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace ferry::stream {

#define GEN_PASS_DECL
#include "compiler/Dialect/Stream/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Dialect/Stream/Transforms/Passes.h.inc"

} // namespace ferry::stream

#endif // FERRY_COMPILER_DIALECT_STREAM_TRANSFORMS_PASSES_H_
