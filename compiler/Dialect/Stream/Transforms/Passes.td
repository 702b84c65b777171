#ifndef FERRY_DIALECT_STREAM_TRANSFORMS_PASSES
#define FERRY_DIALECT_STREAM_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def MaterializeCopyOnWritePass
    : Pass<"stream-materialize-copy-on-write", "mlir::ModuleOp"> {
  let summary = "Copies a value before an op writes into it, where needed";
  let description = [{
    An op with a tied result (a dispatch or call writing in place, a fill,
    an update) overwrites its tied operand. When anything else may still
    see that value (it has other uses, is a block argument, is a constant,
    or is a host import the program does not own), the operand is replaced
    by a copy first:

    - a copy of undefined contents (`stream.async.alloca`) is a fresh
      alloca, never a copy of garbage;
    - a copy for a `stream.async.fill`, which sets every element, is a fresh
      alloca too: nothing reads what the copy would hold; and a fill of a
      value that dies there, in storage the program may write (see
      stream-elide-async-copies), gets no copy at all;
    - a copy of a splat is a new splat of the same value, and a copy of a
      fill's result a new fill of a fresh alloca with the same value (as
      when a zero-filled accumulator is also read after a dispatch writes
      it in place);
    - anything else gets a `stream.async.clone`.

    A write inside a loop into a value defined outside it is copied (the
    next iteration reads the value again); a use in another branch of the
    same `scf.if` does not count as one that sees the write.

    A carried position of an scf op owns what is passed into it: a
    `scf.for`/`scf.while` init, `scf.yield` or `scf.condition` operand that
    is not writable storage passed once as its last use gets a copy right
    before the passing op, unless nothing writes the value or the position
    (a read-only pass).

    Clones are inserted conservatively; stream-elide-async-copies removes
    the ones whose source is never used again. A copy takes the writer's
    `stream.affinity`: it is made for the writer, on the writer's device.
  }];
  let dependentDialects = ["::ferry::stream::StreamDialect"];
}

def ElideAsyncCopiesPass : Pass<"stream-elide-async-copies", "mlir::ModuleOp"> {
  let summary = "Removes copies nobody could tell from their source, and "
                "copies overwritten before they are read";
  let description = [{
    A copy is a `stream.async.clone`, or a `stream.async.transfer` that keeps
    the lifetime and the device of its source (one to another lifetime or
    device moves the value and stays). Its users take the source instead
    when either

    - the copy is the source's last use and the source is storage the
      program may write: something it allocated, split, cloned or computed,
      possibly through in-place writes (host imports and constants are
      not); whoever writes the copy may write the source; or
    - nothing writes the source or the copy (a read-only fork, such as
      several clones of one import or a constant that are only read): their
      readers can share one storage.

    So a copy stays whenever one side is written while the other may still
    be read. Reads count when nothing writes in place and the value stays in
    the function: a value returned, yielded, passed along a branch or to a
    function of the module, or exported (other than as a view lent to
    calls) may be written elsewhere. An export holds its value until the
    function returns, wherever it sits.

    A `stream.async.update` whose every byte is written again before
    anything reads it (its result's only use is the target of a fill, or of
    an update whose range contains its own) is removed too.

    Block arguments count as writable when every predecessor passes a
    writable value as its last use: every call of a private function, every
    branch to a block (a value passed twice to one block is not). So are
    the block arguments and results of a carried position of an scf op
    (`scf.for`, `scf.while`, `scf.if`, `scf.index_switch`,
    `scf.execute_region`) when every value passed into it (init, yield,
    condition) is writable and passed once as its last use; a loop's yield
    of its own iter_arg is assumed to qualify while this is decided, so a
    clone of a loop-carried value whose previous iteration's value is dead
    goes. A use in another branch of the same `scf.if` never counts as
    later; a use inside a loop around the copy (a loop op, or a cycle of
    branches that does not define the value anew) always does. A pass into
    a carried position only reads when everything the position holds is
    only read.
    Runs to a fixed point, as one elision can enable another. Copies inside
    more loops are tried first, since one elision can also keep another:
    copy-on-write copies a loop's init still read after the loop on entry
    and the iter_arg the body writes in the body; the body's copy goes (the
    init's copy makes the position the loop's own) and the init's stays,
    one copy rather than one per iteration.
  }];
  let dependentDialects = ["::ferry::stream::StreamDialect"];
}

def ReuseOperandStoragePass
    : Pass<"stream-reuse-operand-storage", "mlir::ModuleOp"> {
  let summary = "Writes elementwise results into operands that die there";
  let description = [{
    When an operand of an untied `stream.async.dispatch` is used for the
    last time by it, has the result's size and is storage the program may
    write, the result is tied to it: the kernel writes in place and no new
    allocation is made. Elementwise kernels read element i before writing
    it, so this is safe even when the operand is read twice. A chain of
    elementwise ops on dead operands then allocates only once. A value
    passed uncopied into a carried position of an scf op (a read-only
    init, a yield) is one storage with that position: a loop that runs no
    iteration returns its init itself. Its use is then the last only where
    nothing reads the position's values later (nor at this op, under
    another name).

    A native elementwise dispatch (`stream.async.dispatch.entry` whose
    executable, run by it alone, is one all-parallel `linalg.generic` with
    identity indexing maps that does not read its `outs`) whose destination
    is a fresh `stream.async.alloca` nothing else uses writes into an input
    of the destination's tensor type and size that dies there and may be
    written (not a slice) instead: linalg destination style, the input
    becomes the `outs`. The executable's payload reads the destination where
    it read the input, and the input's bindings (every position it was
    passed in) and their push constants go, so no two bindings alias; the
    alloca goes. A result whose one use copies it whole into one of the
    dispatch's operands, which nothing reads after the dispatch (a result
    tied to a function argument), is written into that operand directly and
    the copy goes; a result only copied into another resource is left for
    stream-schedule-allocation to make in place there.

    Calls get the same treatment where the callee allows it: when a
    `stream.async.call` result is tied to a fresh `stream.async.alloca`
    nothing else uses (a `tensor.empty` the callee writes) and the callee
    carries `ferry.abi.tied_may_alias`, an untied input of the same size
    that dies at the call and may be written is passed in the alloca's
    place, and the alloca goes. Without the attribute an input and an
    output of an external function never share storage.
  }];
  let dependentDialects = ["::ferry::stream::StreamDialect"];
}

def ScheduleAllocationPass : Pass<"stream-schedule-allocation", "mlir::ModuleOp"> {
  let summary = "Lowers the async phase to the cmd phase: explicit allocation, "
                "deallocation and timepoints";
  let description = [{
    Every new resource (dispatch and call results, allocas, splats, clones)
    gets a `stream.resource.alloca`, and each async op becomes the cmd op
    that awaits what it reads (its operands' producers) and, when it writes
    an operand in place, every earlier reader of that operand. Resources of
    undecided lifetime (`*`) become `transient`. Exports await the timepoint
    of the resource they hand out. Deallocation is left to
    stream-automatic-reference-counting.

    A value a `stream.async.update` copies whole into a resource is made in
    that resource instead, when nothing uses the resource from the value's
    making on: the dispatch, alloca, splat or copy that made it writes there
    (a dispatch may read it too; elementwise, it writes what it read), the
    in-place writes after it follow, and the update copies nothing. A result
    written into an argument the host lent for it so needs no allocation.

    Each cmd op, and each alloca made for an async op's result, keeps that
    async op's `stream.affinity`, so the work and the memory stay on the
    device the program placed them on.

    Assumes single-block functions in the async phase; `scf.for`,
    `scf.while` and the branch region ops (regions run at most once, take
    no arguments and yield the op's results: `scf.if`, `scf.index_switch`,
    `scf.execute_region`; single-block bodies) are scheduled body by body. Each resource such an op carries (iter_arg,
    while argument, yield or condition operand, result) gets one
    `!stream.timepoint` in the same op, appended after all other values in
    the order of the resources: when it is ready for any access (its last
    write and every read since, joined). One more timepoint follows: when
    everything issued inside the region is done (loops carry it as an
    iter_arg too, starting at `stream.timepoint.immediate` and joined every
    iteration; a branch that does nothing yields an immediate one). So an
    iteration waits only for what it reads or writes. Outer resources used
    inside wait on their outer timepoints; after the op its last timepoint
    is a reader of each (and the producer of one it wrote in place), and of
    each value it took as an initial value. A host load inside a body
    awaits the carried timepoint. The values of one carried position get
    one lifetime: external if any of them is, else the one they share,
    else transient. A branch region op every branch of which yields one
    outer resource (each writes it in place or leaves it) has that resource
    as its result: the result's users read the resource itself (ready at
    the result's timepoint), so reference counting sees one value, not a
    position the resource was lent to (a lifted loop whose body branches,
    each updating the accumulator in place, passes on the accumulator).

    Another op with regions holding stream code, a region of several
    blocks, or a resource made by an op of another dialect is an error
    naming the op: never left unscheduled.
  }];
  let dependentDialects = ["::ferry::stream::StreamDialect"];
}

def FormExecutionRegionsPass
    : Pass<"stream-form-execution-regions", "mlir::ModuleOp"> {
  let summary = "Groups runs of device work into execution regions";
  let description = [{
    Runs right after stream-schedule-allocation. A run is a maximal
    sequence of `stream.cmd.dispatch`, `stream.cmd.fill` and
    `stream.cmd.copy` on the same `stream.affinity` with nothing between
    them but ops free of side effects (sizes, constants, timepoint joins).
    Anything else ends a run: an alloca or dealloca (memory is managed on
    the timeline between regions), a call (it runs on the host), a host
    await or export (the host sees a result there), an import, a change
    of device, an op with regions (`scf.for`, `scf.if`: no region spans
    one). Runs form inside the bodies of such ops as in the function's.

    Each run of two or more commands becomes one `stream.cmd.execute` in
    place of its last command: the region awaits everything the run waited
    for from outside it (joined), its commands lose their own awaits (the
    queue runs them in order), the resources they use are captured, and
    whoever waited for one of the commands waits for the region's
    timepoint instead. Joins left without users are removed.

    Later passes see each region as one op using its captured resources:
    a resource whose last use is inside a region is freed after the
    region.
  }];
  let dependentDialects = ["::ferry::stream::StreamDialect"];
}

def AutomaticReferenceCountingPass
    : Pass<"stream-automatic-reference-counting", "mlir::ModuleOp"> {
  let summary = "Decides who frees every resource, and frees it at its last use";
  let description = [{
    Runs on the cmd phase. The program owns what it allocates, what an
    external call returns as a new buffer, and what it imports with
    `consume`; a plain import stays the host's and is never freed here.
    A resource's uses include those of its other names: the value a host
    await yields for it, and a call result tied to it (the call wrote it in
    place; `stream.cmd.call` with `tied_operands`), so it is freed after the
    last use of any of them, and a tied result returned or passed on counts
    as the resource returned or passed on. For each owned resource:

    - returned to the host (exported): ownership goes to the caller, no
      dealloca;
    - otherwise a `stream.resource.dealloca` is placed right after its last
      use, ordered on that use's timepoint (not at the end of the function);
      a use inside an execution region is the region (which captures the
      resource), so the dealloca follows the region and awaits its
      timepoint;
    - if it was passed to an external function that may keep it (one not
      marked `nosideeffects`), the program cannot know whether the callee
      became an owner: it releases its ownership
      (`stream.resource.release`) and the dealloca is guarded by the result;
      a consumed import is released the same way, as the host may still own
      it too, and so is a resource the program retains (the retain made
      another owner, who releases that share);
    - a resource no device work uses (only host ops such as retain or
      is_terminal) is freed once its allocation is done, never unordered;
    - if it is used where this analysis cannot follow (by an unknown op),
      an allocation is marked `indeterminate`: its memory
      goes with its last reference.

    Structured regions (`scf.for`, `scf.while`, `scf.if`,
    `scf.index_switch`, `scf.execute_region`, nested arbitrarily, in the form
    stream-schedule-allocation leaves them: each carried resource followed by
    its ready timepoint, and a last "everything done" timepoint). Each
    resource is freed in the block that defines it:

    - a region op is one use of each resource of an outer block used inside
      it (directly or nested), done at its last timepoint: a resource whose
      last use is a region op is freed right after it, ordered on that;
    - an allocation made inside a body is freed inside it at its last use
      there; a carried block argument the body does not pass on (it yields
      a new value in its place) is freed in the body after its last use;
    - a value passed into a carried position (a loop's init, a yield, a
      while's condition) by the block that owns it is handed on: the
      position owns it, and its result is freed after its last use after
      the op (or returned);
    - a position is owned when every value passed into it is owned, not
      owned when none is (an import, a constant, a read-only pass without a
      clone: the values it holds are the passed-in value, and uses of them
      count as its uses), and with both (an import, a constant, a captured
      value or one used again after the op, or lent before to a region op
      whose result, which may be it, is used there or after, beside new
      allocations) it
      carries an i1 owned flag: one more iter_arg and result of an
      `scf.for`, one more result of an `scf.if` / `scf.index_switch`, one
      more init, before-region argument and yield operand (a before
      position) or condition operand, after-region argument and result (an
      after position) of an `scf.while`, before the timepoints. Each value passed in passes `true` where it
      hands ownership on, `false` where it is lent, or the flag of the
      position it comes from; each member is freed by `dealloca if(flag)`
      (released first under an `scf.if` on the flag where a callee may keep
      it), and a value lent in lives until the last use of any member. No
      copy is made;
    - a value made before an `scf.if` / `scf.index_switch` that a branch
      yields as its last use is handed to the op's position (the other
      branches free it at their end) only if no branch yields it at
      another position or as what an op nested in the branch holds (an
      inner `scf.if` or loop it was passed into, which may hand it back
      written in place); otherwise it is lent;
    - an owned value lent into an inner position, whose member its block's
      terminator then passes on (a body yielding what an inner loop that
      read the value made), is passed on under that position's flag where
      the position holds nothing else unowned: where the flag is clear the
      member is the value, so the terminator passes `flag or owned` and the
      value is freed by `dealloca if(owned and flag)` after its last use.
      Lent on through further positions of the block (a second loop
      started from the first's result), the flags of every position on the
      way take the place of `flag` (or-ed: where any is set, the member is
      something else); values escaping through one operand each or their
      part into its flag. Otherwise it stays indeterminate, with a remark on
      the terminator. A member returned to the function's caller (exported)
      hands the value over the same way: where the flags are clear; it is
      freed where one is set (when nothing else passes the value on; else
      the caller gets it on every way). Returned as what a position holds
      that may also hold another value nothing owns there (an `scf.if`
      yielding one of two values it wrote in place), it is indeterminate,
      with a remark on the export;
    - a value a block's terminator passes on at one position while it also
      passes on, at another, what a position the value was lent to holds
      (an inner loop started from it that may run no iteration, a branch
      yielding it unchanged) goes to its own position, which owns it; the
      other position gets, in an `scf.if` before the terminator, a copy of
      what it would get where that position's flag is clear while the
      value's is set (`alloca` + `cmd.copy`, the value's ready timepoint
      and the body's done one waiting for the copy), and its flag is or-ed
      with the value's. One copy in the runs that alias, none in the
      others, and nothing is indeterminate. (Run again, the pass copies
      again: the copy's `scf.if` is a position like any other);
    - deallocations inside a body are joined into the "everything done"
      timepoint it passes on, so the function's final await covers them.

    Nothing else inside a region becomes indeterminate; where it cannot
    decide (a region op without a done timepoint, a use it does not follow
    inside a region) it says why in a remark on the op.

    A resource that already has a dealloca or a release (written by hand,
    or by an earlier run of this pass) is left alone, so running the pass
    again frees nothing twice (it may carry owned flags again beside
    positions that have them).

    Deallocations of resources with no `stream.affinity` carry `origin`,
    routing them to the device and queue that allocated them. Before a
    function returns it awaits all its deallocations.
  }];
  let dependentDialects = ["::ferry::stream::StreamDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def ReuseAllocationsPass : Pass<"stream-reuse-allocations", "mlir::ModuleOp"> {
  let summary = "Hands memory freed by a dealloca to a later compatible alloca";
  let description = [{
    Runs after stream-automatic-reference-counting. When an unconditional
    `stream.resource.dealloca` frees an allocation and a later
    `stream.resource.alloca` in the same block asks for the same size (the
    same SSA value or equal constants), lifetime (so the same memory type
    and usage bits) and affinity (so the same device), the alloca takes the
    freed resource instead: both ops go, and the alloca's users wait for
    what the dealloca waited for.

    Flags stay right: the memory keeps its first allocation's placement, so
    the reused resource's final dealloca routes to `origin` if the freed one
    did. Indeterminate allocations take no part: their memory may still be
    held by others (so it is never handed on), and an allocation whose
    lifetime is unknown must stay separate from one whose lifetime is known.
    Conditional deallocations (after a release) are not recycled either: at
    compile time nobody knows whether they free anything.

    Structured regions: each block (a function body, a loop body, a branch)
    is a pool of its own, and only an allocation made in the same block as
    its dealloca is recycled. Memory never crosses a region boundary: freed
    before a loop it is not taken by an alloca in the body (which runs once
    per iteration), freed in a body not by an alloca after the op or in the
    other branch, and a free in a body of memory allocated outside it (which
    runs every iteration) hands nothing on.
  }];
  let dependentDialects = ["::ferry::stream::StreamDialect"];
}

def EstimatePeakMemoryPass
    : Pass<"stream-estimate-peak-memory", "mlir::ModuleOp"> {
  let summary = "Reports the peak of simultaneously live bytes of each function";
  let description = [{
    An analysis that changes nothing: a liveness walk over each function of
    the cmd phase, in program order, emitting one remark per function:
    `peak live bytes: N (inputs I, allocated A)`.

    - Imported buffers (the host's inputs) are live for the whole call.
    - A `stream.resource.alloca`, and a new result of an external call, adds
      its size when issued; the peak is taken after every addition.
    - An unconditional `stream.resource.dealloca` subtracts its size when
      issued. A conditional one frees when its guard is the release of the
      last owner: the walk counts owners as the run time does (one for what
      the program allocates, for a new external result and for a callee's
      result imported with `consume`; one more per `stream.resource.retain`;
      external code may keep a reference but never an owner). A release of
      a buffer the host may still own is assumed not to free (an upper
      bound).
    - Exported results stay live: the host releases them after the call.
    - A `func.call` to a function of the module counts, while it runs, the
      callee's own peak beyond its inputs (which are the caller's buffers)
      on top of what the caller holds. Each callee is walked with the
      shapes of the tensors and the values of the integer scalars the
      caller passes (so `input-shapes` reach callees), the dims of a
      returned buffer are those of the tensor the callee exports, and a
      recursive call makes the peak unknown. The buffer a callee returns is
      the caller's allocation from its `stream.tensor.import consume` on,
      on the device the callee allocated it on, and the release-guarded
      free of it does free (the callee handed over its only ownership).
      Functions without stream ops that call none that have any (scalar
      code, which may branch) hold nothing; one that calls such a function
      holds what the callee holds while it runs.

    On a device that runs queue operations in issue order (local-sync) this
    is exactly the allocator's `peak_bytes` for one call, which end-to-end
    tests check against `ferry-run --stats`. Execution regions need no
    special case: allocations and deallocations stay outside them.

    Structured regions: a loop counts one iteration's peak plus what it
    carries (reference counting frees in the body what an iteration does not
    carry on, so iterations repeat each other and the peak is the same for
    any trip count of at least one; a body that leaves more live than it
    found makes the peak unknown, with a remark; a loop whose bounds
    evaluate (constants, scalar inputs) to no iteration adds nothing); an
    `scf.if` or `scf.index_switch` counts the branch its condition or
    selector picks where the walk can evaluate it (constants, scalar
    inputs), else its largest branch, and sizes its results by what that
    branch yields (the largest value the branches
    yield there); an `scf.while` counts its before region and then its
    after region once each (the before region runs at least once, the
    after region maybe never; a condition the walk evaluates to false
    leaves the after region out; its owned flags pass from the inits and
    the after region's yield to the before region, and from the condition
    to the after region and the results). A carried value's size is the size of the
    value passed in (`stream.resource.size` of it evaluates to that).
    Sizes are evaluated through the index values regions carry: a dim an
    `scf.if` chose (or the `arith.select` it folds to) is the chosen one
    where the condition is known (`arith.cmpi` of known values), else the
    larger; a dim a loop carries is known when every value passed into
    its position is the same (also where one depends on the position
    itself, as a select between the carried dim and the initial one).

    An owned flag reference counting carries beside a position (a
    `dealloca if(%flag)`) is evaluated where the walk is: constants, a
    loop's i1 iter_arg per iteration, what the last iteration or the
    branch taken yielded (or every branch, where they agree, or else the
    one that left the most live, whose live bytes the walk keeps: an upper
    bound, said in a remark), and flags and-ed, or-ed or negated where one
    side decides or both are known; an `scf.if` on a known flag (reference
    counting's copy of an alias) takes its branch. A
    loop whose
    first iteration changes a flag (or moves a carried buffer to another
    device) is walked again from what it yielded until an iteration leaves
    the flags and devices as it found them (a position fed another's
    previous value settles an iteration later; at most the trip count
    where known), and that one must repeat; with a dynamic trip count the second
    may not run, so the peak is an upper bound, said in a remark (a trip
    count of 1 walks once), as for a loop nested in another whose carried
    buffer moves to another device. A flag the walk cannot evaluate
    (branches that leave as much live yield different flags) counts its
    free as not freeing: an upper bound, said in a remark. A release of a carried value is counted
    as its one owner's (its root is only the position's first value).

    When the module declares several devices, one more remark per device
    (in declaration order) gives that device's own walk, as each device's
    allocator has its own peak: `peak live bytes on @a: N (inputs I,
    allocated A)`. An allocation counts on the device convert-stream-to-hal
    allocates it on: the first device among its own affinity and its uses'
    (a view passed to a call or returned counts that callee's or the
    callers' devices; the module's first device comes last, for uses
    without an affinity), which is the one the default topology picks
    (local devices reach each other's memory; `--lead-allocation-device`
    or links left to run time may pick another). Inputs count on the first
    device, where `ferry-run` places them. A buffer the walk cannot place
    on one device counts on each it may be on and is freed on each (an
    upper bound on every one: after the op, each device counts the largest
    of its ways out's live bytes without the op's results, plus each
    result that may be on it): an `scf.if` / `scf.index_switch` result
    whose branches yield buffers on different devices, the result of a
    loop of dynamic trip count whose iterations move a carried buffer to
    another device (with no iteration it stays where it came in; the
    result is on the devices it holds after no iteration and after one), the
    result of an `scf.while` whose after region does so (its condition
    may stop it before the after region runs), and a callee's result
    that is any of these. (A result that only holds what another value
    owns, freed nowhere and carried on nowhere but beside an owned flag
    known clear, is its owner's to count and takes no part.) Memory the
    runtime adds (an import into a device that cannot reach the buffer,
    staging copies `ferry-run` makes for a host that cannot map it) is
    outside the program and not counted.

    Sizes are evaluated from constants, `stream.tensor.sizeof` and integer
    arithmetic (the arith ops on integers and index, in their type's width
    as at run time: add/sub/mul, the divisions and remainders, min/max,
    bit ops and shifts, casts, `cmpi`, `select`). The inputs' values come
    from `input-shapes`, one entry per argument of the function walked, in
    order, as `ferry-run` takes its `--input`s: a tensor's shape (`3x5`;
    empty for rank 0) gives its dynamic dimensions, an integer or index
    scalar's value (`5`, `-2`; read as signed or unsigned in its type)
    gives sizes, conditions and trip counts computed from it; an entry of
    one integer is either, by the argument's type, and a float scalar's
    entry is left empty (e.g. `input-shapes=4x3,,2` for a tensor, an f32
    and an index). The list is applied to each function of the module,
    except that an entry `@NAME:ENTRY` starts function NAME's own list
    (ENTRY its first entry, the entries after it the rest, up to the next
    `@`): `input-shapes=@main:4x3,5,@step:7` gives `main` a shape and a
    value and `step` a value, and entries before the first `@` are for the
    functions not named (a callee walked for its caller takes what the
    caller passes either way). An entry that is neither a shape nor an
    integer is an error, and so is a name that is no function with a body,
    one without `:ENTRY`, or one given twice.
    A size that still depends on something unknown makes the function
    report which op's size is unknown instead, naming the scalar argument
    or the dimension of the tensor argument it lacks (no entry, an entry
    that is not a value of its type or has too few dimensions, or a
    callee's argument whose value or shape the caller does not know).
  }];
  let options = [
    ListOption<"inputShapes", "input-shapes", "std::string",
               "One entry per argument, in order: a tensor's shape (e.g. "
               "3x5; empty for rank 0) for its dynamic dimensions, or an "
               "integer scalar's value (e.g. -2) for sizes computed from "
               "it; empty for a float. For every function, except that "
               "@NAME:ENTRY starts function NAME's own list (e.g. "
               "@main:3x5,2,@step:4)">,
  ];
}

#endif // FERRY_DIALECT_STREAM_TRANSFORMS_PASSES
