// ferry-compile allocates with jemalloc on transparent huge pages (on a large
// program glibc malloc's scattered heap made every walk of the IR miss the
// cache and the TLB; docs/PERFORMANCE.md, compile-time section). The runtime
// keeps the system allocator: ferry-run must not load jemalloc.
// REQUIRES: ferry-compile-jemalloc
// RUN: env MALLOC_CONF=stats_print:true ferry-compile %s -o %t.fvm 2>&1 | FileCheck %s --check-prefix=COMPILE
// COMPILE: opt.thp: "always"
// RUN: env MALLOC_CONF=stats_print:true ferry-run %t.fvm --function=main --input=2xi32=1,2 --input=2xi32=10,20 2>&1 | FileCheck %s --check-prefix=RUNTIME --implicit-check-not=jemalloc
// RUNTIME: 2xi32=[11 22]
// RUNTIME-EMPTY:
func.func @main(%lhs: tensor<2xi32>, %rhs: tensor<2xi32>) -> tensor<2xi32> {
  %sum = arith.addi %lhs, %rhs : tensor<2xi32>
  return %sum : tensor<2xi32>
}
