#ifndef FERRY_TRANSFORMS_PASSES
#define FERRY_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def CanonicalizePass : Pass<"ferry-canonicalize"> {
  let summary = "MLIR's canonicalizer, erasing blocks as they become unreachable";
  let description = [{
    Runs every canonicalization pattern and folder of the loaded dialects,
    as `--canonicalize` does, plus one pattern that runs first on a branch
    whose block is no longer reachable from its region's entry: it erases
    every unreachable block of the region at once.

    Without it MLIR 22's canonicalizer never returns when folding a branch
    leaves a loop unreachable (llvm/llvm-project#159743): `cf.br`'s
    simplification merges the loop header into its latch, its only
    predecessor left, and the induction variable's update becomes defined
    in terms of itself (`%next = arith.addi %next, %c1`), which the folder
    rewrites in place forever. Blocks nothing can reach are dead code, so
    erasing them first changes no result and leaves no such cycle.

    ```mlir
    cf.cond_br %false, ^header(%c0 : i64), ^exit  // folded to cf.br ^exit
    ^header(%i: i64):  // erased: unreachable
    ```

    MLIR's pattern that turns an `scf.if` yielding values defined outside
    it into `arith.select`s leaves alone an if where it would select two
    values of the stream dialect: the stream passes carry resources and
    timepoints through an if, not through a select (allocation scheduling
    refuses one), so an if choosing between two input tensors stays an if.
    Scalars, and the HAL phase's buffers and fences (the bytecode selects
    refs), still become selects.
  }];
  let options = [
    Option<"maxIterations", "max-iterations", "int64_t",
           /*default=*/"10",
           "Greedy rewriter iterations at most (MLIR's default)">,
  ];
}

def LowerSwitchToBranchesPass : Pass<"ferry-lower-switch-to-branches"> {
  let summary = "Turns each cf.switch into a chain of compares and cf.cond_br";
  let description = [{
    Ferry's bytecode holds control flow as `br` / `br.cond` between blocks.
    `scf.index_switch` (a multi-way branch that lowerings and the lifting of
    branches to scf produce) becomes `cf.switch` under `convert-scf-to-cf`;
    this pass rewrites that into one `arith.cmpi eq` and `cf.cond_br` per
    case, in case order, the last falling through to the default
    destination, each passing its destination's operands. A switch of no
    case becomes a `cf.br` to the default.

    ```mlir
    cf.switch %flag : i32, [default: ^d, 0: ^a, 5: ^b(%x : i32)]
    // becomes
    %c0 = arith.constant 0 : i32
    %is0 = arith.cmpi eq, %flag, %c0 : i32
    cf.cond_br %is0, ^a, ^next
    ^next:
    %c5 = arith.constant 5 : i32
    %is5 = arith.cmpi eq, %flag, %c5 : i32
    cf.cond_br %is5, ^b(%x : i32), ^d
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::cf::ControlFlowDialect"];
}

#endif // FERRY_TRANSFORMS_PASSES
