// The tensor ops convert-input-to-stream imports beyond empty/dim/extract
// and reshapes. Most become ops the import already handles, rewritten in
// the input before anything is checked (decomposeTensorOps):
//
//   tensor.splat         -> tensor.empty + linalg.fill (an alloca and a fill)
//   tensor.from_elements -> a dense constant when every element is one;
//                           else a fill of a one-element tensor per element
//                           and a linalg.generic picking each element's by
//                           its linear index (one dispatch)
//   tensor.pad           -> tensor.empty + linalg.fill of the padding value
//                           (a linalg.generic when the region computes it
//                           per element) + a linalg.generic copying the
//                           source into the interior (its `outs` map
//                           offset by the low pad; a dynamic low pad: a
//                           tensor.insert_slice, the source contiguous)
//   tensor.concat        -> (on an inner axis) tensor.empty + one
//                           linalg.generic per input writing it into its
//                           part (`outs` map offset by the sizes of the
//                           inputs before it), in place
//
// so each is dispatches and fills the stream passes see as usual. The two
// metadata ops stay and are imported in place (ConvertInputToStream.cpp):
//
//   tensor.bitcast       -> the source's resource, size and dims (same width)
//   tensor.cast          -> the same resource with the result's dims, after
//                           a run-time check of each dimension that becomes
//                           static (importCastDims)
//
// and a concat on the outermost axis, or on an axis after dims of size 1
// (each input a contiguous byte range of the result, at any offset, dynamic
// sizes included), is an alloca and one `stream.async.update` per input, a
// copy with no dispatch (isContiguousConcat).
#ifndef FERRY_COMPILER_DIALECT_STREAM_CONVERSION_IMPORTTENSOROPS_H_
#define FERRY_COMPILER_DIALECT_STREAM_CONVERSION_IMPORTTENSOROPS_H_

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

namespace ferry::stream::input {

// Rewrites the splat, from_elements, pad and concat ops of `func` (in any
// region) as above, and strided slices with dynamic offsets
// (ImportSlices.h, decomposeFlatCopy). Reports each it cannot rewrite (a
// pad with dynamic low padding whose source is not one contiguous range of
// the result, a concat whose offsets are dynamic) naming the op; true when
// all were rewritten.
bool decomposeTensorOps(mlir::func::FuncOp func);

// A concat on axis 0, or on an axis after dims of static size 1 only:
// imported as updates of byte ranges, not decomposed.
bool isContiguousConcat(mlir::Operation *op);

// Reports why a bitcast or cast cannot be imported, or succeeds.
mlir::LogicalResult checkMetadataTensorOp(mlir::Operation *op);

// The result's dynamic dims of `op` from the source's dims (`sourceDim(d)`
// is dimension d of the source), with a `cf.assert` naming the op and its
// location for every dynamic source dimension the result makes static.
llvm::SmallVector<mlir::Value>
importCastDims(mlir::OpBuilder &builder, mlir::tensor::CastOp op,
               llvm::function_ref<mlir::Value(int64_t)> sourceDim);

} // namespace ferry::stream::input

#endif // FERRY_COMPILER_DIALECT_STREAM_CONVERSION_IMPORTTENSOROPS_H_
