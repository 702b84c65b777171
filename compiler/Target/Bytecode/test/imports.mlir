// External functions become the module's import table and calls become
// call.import; the seed example compiles verbatim. Its two externals use the
// coarse-fences ABI: buffer views plus a wait and a signal fence.
// RUN: ferry-compile %samples/tied_external_calls.mlir -o %t.fvm
// RUN: ferry-dump %t.fvm | FileCheck %s
// CHECK:      imports (2):
// CHECK-NEXT:   [0] @Double.function(ref, ref, ref, ref) -> (ref) flags=coarse_fences{{$}}
// CHECK-NEXT:   [1] @Triple.function(ref, ref, ref, ref) -> (ref) flags=coarse_fences{{$}}
// CHECK-NEXT: functions (1):
// CHECK-NEXT:   [0] @main(ref) -> (ref)
// CHECK:        call.import import=@Double.function arguments=({{r[0-9]+, r[0-9]+, r[0-9]+, r[0-9]+}}) results=(r{{[0-9]+}})
// CHECK:        call.import import=@Triple.function arguments=({{r[0-9]+, r[0-9]+, r[0-9]+, r[0-9]+}}) results=(r{{[0-9]+}})

// Compiled against a plugin whose functions declare that an output may
// alias an input, the imports carry that flag for ferry-run to check.
// RUN: ferry-compile %samples/tied_external_calls.mlir --module=%compile_plugins/custom_module.so -o %t.alias.fvm
// RUN: ferry-dump %t.alias.fvm | FileCheck %s --check-prefix=ALIAS
// ALIAS:      imports (2):
// ALIAS-NEXT:   [0] @Double.function(ref, ref, ref, ref) -> (ref) flags=coarse_fences|tied_may_alias
// ALIAS-NEXT:   [1] @Triple.function(ref, ref, ref, ref) -> (ref) flags=coarse_fences|tied_may_alias

// A call to a function with a body is not an import: it becomes `call`
// (internal_call.mlir), and the module still loads.
// RUN: ferry-compile %s -o %t2.fvm
// RUN: ferry-dump %t2.fvm | FileCheck %s --check-prefix=INTERNAL
// INTERNAL:      imports (0):
// INTERNAL-NEXT: functions (2):
// INTERNAL-NEXT:   [0] @helper(i64) -> (i64)
// INTERNAL:        [1] @main(i64) -> (i64)
// INTERNAL-NEXT:     0000  call function=@helper arguments=(i0) results=(i1)
func.func private @helper(%a: index) -> index {
  return %a : index
}
func.func @main(%a: index) -> index {
  %0 = call @helper(%a) : (index) -> index
  return %0 : index
}
