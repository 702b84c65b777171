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
  }];
  let options = [
    Option<"maxIterations", "max-iterations", "int64_t",
           /*default=*/"10",
           "Greedy rewriter iterations at most (MLIR's default)">,
  ];
}

#endif // FERRY_TRANSFORMS_PASSES
