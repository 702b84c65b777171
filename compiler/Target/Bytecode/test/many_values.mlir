// A function with far more values than a bytecode function has registers
// (65535 per kind): registers are reused once their values are dead, so a
// long straight-line program needs only as many as it has values live at
// once. 50,000 ops of the compiler benchmark's program define about 80,000
// ref values (fences, buffers, views) and need fewer than 30,000 ref
// registers (about 15,000 since add/sub/mul are native dispatches, whose
// bindings keep more refs live at once than built-in kernels did; the
// executables are one per distinct body, so the module stays small).
// RUN: %python %S/../../../../bench/compiler/generate_program.py 50000 --size=4 > %t.mlir
// RUN: ferry-compile %t.mlir -o %t.fvm
// RUN: ferry-compile %t.mlir --compile-to=hal | grep -c -E "= hal\.(fence|device\.queue\.alloca|buffer_view)" | FileCheck %s --check-prefix=VALUES
// VALUES: {{^[7-9][0-9][0-9][0-9][0-9]$}}
// RUN: ferry-dump %t.fvm | FileCheck %s
// CHECK: [0] @main(ref, ref) -> (ref) registers={{[0-9]}} i64, {{[1-2]?[0-9]?[0-9]?[0-9]?[0-9]}} ref
