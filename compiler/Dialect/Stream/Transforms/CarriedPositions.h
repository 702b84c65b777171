// The carried positions of the structured region ops of the cmd phase, as
// stream-schedule-allocation leaves them: scf.for / scf.while and the branch
// region ops carry each resource together with its ready timepoint (the
// resources first, then one timepoint each in order) and end with an
// "everything done" timepoint. Reference counting decides who owns what each
// position holds, and carries i1 owned flags beside the positions it must.

#ifndef FERRY_DIALECT_STREAM_TRANSFORMS_CARRIEDPOSITIONS_H
#define FERRY_DIALECT_STREAM_TRANSFORMS_CARRIEDPOSITIONS_H

#include "compiler/Dialect/Stream/IR/StreamDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include <array>
#include <optional>
#include <string>
#include <tuple>

namespace ferry::stream::carried {

// One carried position of a structured region op: what a loop iteration, a
// branch or a while's condition passes on in one place. `after` tells
// scf.while's after-region arguments and results from its before-region
// arguments.
struct Position {
  mlir::Operation *op = nullptr;
  bool after = false;
  unsigned index = 0;

  bool operator==(const Position &other) const {
    return op == other.op && after == other.after && index == other.index;
  }
};

// A position as an ordered key (sets and maps of positions).
using PositionKey = std::tuple<mlir::Operation *, bool, unsigned>;
inline PositionKey key(Position position) {
  return {position.op, position.after, position.index};
}

// The "everything issued inside is done" timepoint of a structured region
// op: its last result. Null if it has none.
mlir::Value doneTimepointOf(mlir::Operation *op);

// The values that hold a position's value: block arguments and results.
llvm::SmallVector<mlir::Value> membersOf(Position position);

// The operands that pass a value into a position.
llvm::SmallVector<mlir::OpOperand *> incomingOf(Position position);

// The position a value passed by `use` goes to, if `use` passes one.
std::optional<Position> passedTo(mlir::OpOperand &use);

// The position `value` is a member of, if any.
std::optional<Position> positionOf(mlir::Value value);

// The values the condition of `dealloca` may be an owned flag among: the
// condition, or both sides where it is and-ed; none where it frees
// unconditionally.
llvm::SmallVector<mlir::Value, 2> conditionFlags(ResourceDeallocaOp dealloca);

// The owned flag reference counting passes beside `use` (an init, or a
// region's terminator passing a value into a flagged position): the operand
// of the same op passing the flag's position, that position found where a
// member is freed under a flag of the same list of positions (or and-ed
// with another), or passed on by a terminator beside such a flag. Null
// where none is found.
mlir::Value flagPassedWith(mlir::OpOperand &use);

// The timepoint at which `value`, a member of a position, is ready. Null if
// its op or block does not carry timepoints so.
mlir::Value readyTimepointOf(mlir::Value value);

// The operand of a region's terminator passing on the ready timepoint of
// what `passed` passes on; null if the terminator does not carry them so.
mlir::OpOperand *readyOperandOf(mlir::OpOperand &passed);

// "carried position N (before region) of 'scf.while'", for remarks.
std::string describe(Position position);

// The number of the first timepoint of `types` (carried values come
// before: one timepoint per resource and the done one end the list), or
// their number if they do not end so.
unsigned firstTimepoint(mlir::TypeRange types);

// Whether owned flags can be carried through `op` (withOwnedFlags): a loop
// or a branch region op that ends with its timepoints.
bool canCarryFlags(mlir::Operation *op);

// Replaces `op` by the same op with i1 values more before its timepoints:
// `count` of them in its results, a loop's iter_args and block arguments
// and the operands of every yield (false until set: a constant added to
// `placeholders`); for an scf.while, `count` in its inits, before-region
// arguments and after-region yield, and `afterCount` in its condition's
// values, after-region arguments and results. Returns the new op and the
// number of its first flag among the positions of each list (a while's
// before and after positions), or failure if `op` has no timepoints to put
// them before.
mlir::FailureOr<std::pair<mlir::Operation *, std::array<unsigned, 2>>>
withOwnedFlags(mlir::OpBuilder &builder, mlir::Operation *op, unsigned count,
               unsigned afterCount,
               llvm::SmallVectorImpl<mlir::Operation *> &placeholders);

} // namespace ferry::stream::carried

#endif // FERRY_DIALECT_STREAM_TRANSFORMS_CARRIEDPOSITIONS_H
