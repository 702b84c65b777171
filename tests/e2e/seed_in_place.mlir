// The seed example compiled against the plugin that will run it
// (ferry-compile --module): samples/custom_module declares that Double and
// Triple may write their output over their input
// (FERRY_PLUGIN_TIED_MAY_ALIAS), so each call gets the storage of x*x, which
// dies there, instead of its tensor.empty. The program then holds two
// buffers at most, the input and one more, like a hand-written program
// working in place.
// RUN: ferry-compile %samples/tied_external_calls.mlir --module=%compile_plugins/custom_module.so -o %t.fvm
// RUN: ferry-run %t.fvm --module=%plugins/custom_module.so --input=3x5xi32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14 --stats=%t.json | FileCheck %s
// CHECK: 3x5xi32=[0 36 576 2916 9216][22500 46656 86436 147456 236196][360000 527076 746496 1028196 1382976]
// The input and x*x (which Double, Triple and the last square all write in
// place): two allocations of 60 bytes, no copies, nothing leaks.
// RUN: %python %S/check_stats.py %t.json allocations=2 copies=0 live_bytes_at_exit=0 peak_bytes=120
// RUN: ferry-compile %samples/tied_external_calls.mlir --module=%compile_plugins/custom_module.so --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=3x5 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 120 (inputs 60, allocated 60)
// RUN: ferry-compile %samples/tied_external_calls.mlir --module=%compile_plugins/custom_module.so --compile-to=stream-cmd | FileCheck %s --check-prefix=CMD
// CMD-COUNT-1: stream.resource.alloca
// CMD-NOT: stream.resource.alloca
// CMD: stream.cmd.call @Double.function(%[[X:.+]], %[[X]])
// CMD: stream.cmd.call @Triple.function(%[[X]], %[[X]])
//
// A plugin whose functions do not allow it cannot run that module: the
// runtime names the function and the missing declaration.
// RUN: not ferry-run %t.fvm --module=%plugins/test_plugin_late.so --input=1x1xi32=7 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: ferry-run: error: module was compiled to pass 'Double.function' one storage as an input and as its output, but native module 'Double' does not declare that its function allows it (FERRY_PLUGIN_TIED_MAY_ALIAS)
// The same plugin compiles the seed as before (two fresh outputs) and runs it.
// RUN: ferry-compile %samples/tied_external_calls.mlir --module=%compile_plugins/test_plugin_late.so -o %t.late.fvm
// RUN: ferry-run %t.late.fvm --stats=%t.wc0.json --module=%plugins/test_plugin_late.so --input=1x1xi32=7 | FileCheck %s --check-prefix=ONE
// RUN: %python %S/check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=12
// RUN: ferry-compile %samples/tied_external_calls.mlir --module=%compile_plugins/test_plugin_late.so --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=1x1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=LATEWALK
// LATEWALK: remark: peak live bytes: 12 (inputs 4, allocated 12)
// ONE: 1x1xi32=[86436]
//
// Compile-time errors: a plugin that cannot be loaded, and declarations the
// plugin contradicts (no output file is left behind).
// RUN: not ferry-compile %samples/tied_external_calls.mlir --module=%t.missing.so -o %t.bad.fvm 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: ferry-compile: error: --module: cannot load plugin '{{.+}}.missing.so'
// RUN: not ferry-compile %s --module=%compile_plugins/custom_module.so -o %t.bad.fvm 2>&1 | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: error: 'Double.function' imports (rrrrr) -> (r) but plugin '{{.+}}custom_module.so' defines (rrrr) -> (r) (i: integer, r: buffer view or fence)
// A plugin that lacks the program's external functions: each is named, with
// the plugins searched (ferry-run could not bind the module with them).
// RUN: not ferry-compile %samples/tied_external_calls.mlir --module=%compile_plugins/test_plugin_bad_results.so -o %t.bad.fvm 2>&1 | FileCheck %s --check-prefix=UNPROVIDED
// UNPROVIDED: tied_external_calls.mlir:2:3: error: external function 'Double.function' is provided by none of the plugins given ('{{.+}}test_plugin_bad_results.so'); give every plugin the program calls with --module
// UNPROVIDED: tied_external_calls.mlir:7:3: error: external function 'Triple.function' is provided by none of the plugins given
// RUN: not test -e %t.bad.fvm
module {
  func.func private @Double.function(tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) -> (tensor<?xi32> {iree.abi.tied = 1 : index}) attributes {iree.abi.model = "coarse-fences", nosideeffects}
  func.func @main(%x: tensor<?xi32>) -> tensor<?xi32> {
    %0 = arith.muli %x, %x : tensor<?xi32>
    return %0 : tensor<?xi32>
  }
}
