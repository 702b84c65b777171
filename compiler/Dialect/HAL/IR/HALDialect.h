// The HAL dialect: types, attributes and ops. See HALBase.td and HALOps.td.
#ifndef FERRY_COMPILER_DIALECT_HAL_IR_HALDIALECT_H_
#define FERRY_COMPILER_DIALECT_HAL_IR_HALDIALECT_H_

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "runtime/hal/element_type.h"
#include "runtime/vm/bytecode_format.h"

#include <optional>

#include "compiler/Dialect/HAL/IR/HALDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "compiler/Dialect/HAL/IR/HALTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "compiler/Dialect/HAL/IR/HALAttrs.h.inc"

#define GET_OP_CLASSES
#include "compiler/Dialect/HAL/IR/HALOps.h.inc"

namespace ferry::hal {

// The runtime element type of an MLIR element type; nullopt when the runtime
// has no such type (e.g. bf16 or i1 today).
std::optional<ElementType> getRuntimeElementType(mlir::Type type);

// The built-in kernel named `name` and its input count; nullopt if unknown.
std::optional<vm::bytecode::BuiltinKernel>
lookupBuiltinKernel(llvm::StringRef name, int *inputCount);

} // namespace ferry::hal

#endif // FERRY_COMPILER_DIALECT_HAL_IR_HALDIALECT_H_
