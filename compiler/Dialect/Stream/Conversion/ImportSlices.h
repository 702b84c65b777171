// How convert-input-to-stream imports `tensor.extract_slice` and
// `tensor.insert_slice` (ConvertInputToStream.cpp calls these):
//
// - A slice is contiguous in its row-major source (the destination, for an
//   insert) when, after leading dims of size 1, one dim is taken in part
//   with stride 1 and every later dim whole (offset 0, stride 1). Then it
//   is a byte range: `stream.async.slice` (extract) or `stream.async.update`
//   (insert) at its byte offset, which allocation scheduling makes a view
//   or writes in place.
// - Any other (strided) slice is a copy kernel: with constant offsets and
//   strides, a `linalg.generic` whose map indexes the sliced operand with
//   `offset + loop * stride` (a window, LinalgOperands.h), outlined like
//   every linalg op. With constant strides and dynamic offsets on a tensor
//   whose dims after the first are static, the offsets are taken into the
//   byte offset of the contiguous range the slice spans (decomposeFlatCopy).
//   Otherwise (a dynamic stride, or dynamic offsets and a dynamic dim after
//   the first) the generic's body computes the positions from the offsets
//   and strides, scalars passed as 0-d inputs (decomposeGatherCopy).
// - Bounds: a slice known out of bounds at compile time is an error; where
//   anything is dynamic the program checks each dim (`cf.assert`, naming
//   the op, its location and the dim).
#ifndef FERRY_COMPILER_DIALECT_STREAM_CONVERSION_IMPORTSLICES_H_
#define FERRY_COMPILER_DIALECT_STREAM_CONVERSION_IMPORTSLICES_H_

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <optional>

namespace ferry::stream::input {

/// Whether `op` is a tensor.extract_slice or tensor.insert_slice.
bool isSliceOp(mlir::Operation *op);

/// Reports why a slice op cannot be imported: elements the runtime cannot
/// hold, a negative constant offset or stride, or out of bounds by
/// constants.
mlir::LogicalResult checkSlice(mlir::Operation *op);

/// The slice's byte offset in its full tensor (the source of an extract,
/// the destination of an insert) of dims `fullDims` (one per dim), built
/// at the builder's point, when the slice is contiguous there.
std::optional<mlir::Value>
buildContiguousByteOffset(mlir::OpBuilder &builder,
                          mlir::OffsetSizeAndStrideOpInterface op,
                          llvm::ArrayRef<mlir::Value> fullDims);

/// Run-time checks that every dim of the slice lies within `fullDims`,
/// except those known to.
void buildSliceBoundsChecks(mlir::OpBuilder &builder,
                            mlir::OffsetSizeAndStrideOpInterface op,
                            llvm::ArrayRef<mlir::Value> fullDims);

/// Run-time checks that an insert_slice's source has the slice's sizes
/// where a dim of either is dynamic and they are different values
/// (`tileDims`: the source's dynamic dims), so the copy never writes past
/// the slice's range.
void buildTileSizeChecks(mlir::OpBuilder &builder,
                         mlir::OffsetSizeAndStrideOpInterface op,
                         mlir::ValueRange tileDims);

/// The copy kernel of a strided slice: for an extract, a generic reading
/// the source at the slice's positions into `init` (an empty tensor of the
/// result's type); for an insert, one writing the source into the
/// destination at the slice's positions.
mlir::linalg::GenericOp
buildStridedCopy(mlir::OpBuilder &builder,
                 mlir::OffsetSizeAndStrideOpInterface op, mlir::Value init);

/// Whether `op` is a strided slice with offsets that are not all constants
/// of a tensor whose dims after the first are static (and strides that
/// are): decomposeFlatCopy imports it.
bool needsFlatCopy(mlir::Operation *op);

/// Rewrites such a slice on the full tensor collapsed to one dim, where the
/// range from its first element to its last is contiguous: an extract is
/// a copy kernel reading that range (a view) at `sum(loop * stride *
/// pitch)` into a fresh tile; an insert one writing the tile into a copy of
/// the range, updated back into the full tensor, expanded again. The
/// bounds are checked at run time first, naming the slice.
void decomposeFlatCopy(mlir::Operation *op);

/// Whether `op` is a strided slice with offsets or strides that are not
/// all constants that decomposeFlatCopy does not take (a dynamic stride,
/// or dynamic offsets where a dim after the first is dynamic):
/// decomposeGatherCopy imports it.
bool needsGatherCopy(mlir::Operation *op);

/// Rewrites such a slice as a copy kernel whose body computes positions
/// from the offsets and strides (scalars it reads; FormDispatches passes
/// them as 0-d tensor inputs): an extract is a generic over a fresh tile
/// reading the source at offset + loop * stride (a gather); an insert a
/// generic over the destination, in place, taking the tile's element
/// where (position - offset) is a multiple of the stride within the
/// slice's size in every dim and keeping the destination's elsewhere. The
/// bounds are checked at run time first, naming the slice (negative
/// offsets and strides fail there too); a tile that may be empty skips
/// the kernel when it is (an scf.if).
void decomposeGatherCopy(mlir::Operation *op);

} // namespace ferry::stream::input

#endif // FERRY_COMPILER_DIALECT_STREAM_CONVERSION_IMPORTSLICES_H_
