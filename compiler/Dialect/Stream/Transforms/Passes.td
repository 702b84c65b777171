#ifndef FERRY_DIALECT_STREAM_TRANSFORMS_PASSES
#define FERRY_DIALECT_STREAM_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def ScheduleAllocationPass : Pass<"stream-schedule-allocation", "mlir::ModuleOp"> {
  let summary = "Lowers the async phase to the cmd phase: explicit allocation, "
                "deallocation and timepoints";
  let description = [{
    Every `stream.async.dispatch` result gets a `stream.resource.alloca`
    and the dispatch becomes a `stream.cmd.dispatch` that awaits the
    allocation and its operands' timepoints. A resource the program owns
    (anything it allocated that is not returned to the host) gets a
    `stream.resource.dealloca` right after its last use, ordered on that
    use's timepoint rather than at the end of the function. Resources of
    unknown lifetime (`*`) become `transient`. Exports await the timepoint
    of the resource they hand out, and before returning the function awaits
    every deallocation it issued, so nothing is in flight when the host
    regains control.

    Assumes single-block functions in the async phase.
  }];
  let dependentDialects = ["::ferry::stream::StreamDialect"];
}

#endif // FERRY_DIALECT_STREAM_TRANSFORMS_PASSES
