// The stream dialect: types, attributes and ops. See StreamBase.td and
// StreamOps.td.
#ifndef FERRY_COMPILER_DIALECT_STREAM_IR_STREAMDIALECT_H_
#define FERRY_COMPILER_DIALECT_STREAM_IR_STREAMDIALECT_H_

#include "compiler/Dialect/HAL/IR/HALDialect.h"

#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "compiler/Dialect/Stream/IR/StreamEnums.h.inc"

#include "compiler/Dialect/Stream/IR/StreamDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "compiler/Dialect/Stream/IR/StreamTypes.h.inc"

#define GET_OP_CLASSES
#include "compiler/Dialect/Stream/IR/StreamOps.h.inc"

#endif // FERRY_COMPILER_DIALECT_STREAM_IR_STREAMDIALECT_H_
