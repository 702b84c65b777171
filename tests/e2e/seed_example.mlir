// The seed example (ARCHITECTURE 1.3, shared/seeds/004): two tied,
// coarse-fences external calls writing in place into their own
// tensor.empty, run with samples/custom_module (Double = 2x, Triple = 3x on a
// worker thread). Outputs are (3*(2*x*x))^2 in wrapping i32; the two empties
// get two allocations, nothing is copied, nothing leaks.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --module=%plugins/custom_module.so --input=1x1xi32=7 | FileCheck %s --check-prefix=ONE
// RUN: %python %S/check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=12
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=1x1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONEWALK
// ONEWALK: remark: peak live bytes: 12 (inputs 4, allocated 12)
// ONE: 1x1xi32=[86436]
// RUN: ferry-run %t.fvm --module=%plugins/custom_module.so --input=3x5xi32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14 --stats=%t.json | FileCheck %s --check-prefix=SMALL
// SMALL: 3x5xi32=[0 36 576 2916 9216][22500 46656 86436 147456 236196][360000 527076 746496 1028196 1382976]
// The input, x*x and the two empties (the result reuses storage): four
// allocations, so the empties were not merged; no copies; nothing leaks.
// RUN: %python %S/check_stats.py %t.json allocations=4 copies=0 bytes_copied=0 live_bytes_at_exit=0 peak_bytes=180
// The compiler's liveness walk for a 3x5 input agrees with the allocator:
// input 60, x*x 60, the two empties 60 each, x*x freed before the second.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=3x5 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 180 (inputs 60, allocated 180)
// RUN: %python -c "import numpy as np; np.save('%t.big.npy', np.random.default_rng(4).integers(-1000, 1000, size=(1000, 1000), dtype=np.int32))"
// RUN: ferry-run %t.fvm --module=%plugins/custom_module.so --input=@%t.big.npy --output=@%t.out.npy --stats=%t.big.json > /dev/null
// RUN: %python -c "import numpy as np; x = np.load('%t.big.npy'); out = np.load('%t.out.npy'); expected = (np.int32(3) * (np.int32(2) * x * x)) ** 2; assert out.dtype == np.int32 and out.shape == (1000, 1000), out.shape; assert (out == expected).all(), 'wrong values'"
// RUN: %python %S/check_stats.py %t.big.json copies=0 bytes_copied=0 live_bytes_at_exit=0 peak_bytes=12000000
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=1000x1000 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BIGWALK
// BIGWALK: remark: peak live bytes: 12000000 (inputs 4000000, allocated 12000000)
// A plugin that fails through the signal fence is reported naming the function.
// RUN: not ferry-run %t.fvm --module=%plugins/test_plugin_failing.so --input=1x1xi32=7 2>&1 | FileCheck %s --check-prefix=FAIL
// FAIL: ferry-run: error: {{.*}}external function 'Double.function': simulated device fault
// A plugin that signals late still gives the right answer.
// RUN: ferry-run %t.fvm --stats=%t.wc1.json --module=%plugins/test_plugin_late.so --input=1x1xi32=7 | FileCheck %s --check-prefix=ONE
// RUN: %python %S/check_stats.py %t.wc1.json live_bytes_at_exit=0 peak_bytes=12
// Without the plugin, the missing import is named.
// RUN: not ferry-run %t.fvm --input=1x1xi32=7 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: ferry-run: error: module imports '{{Double|Triple}}.function', which no loaded native module provides (no native modules are loaded); load a plugin that provides it with --module=PATH.so
module @example {
  func.func private @Double.function(tensor<?x?xi32>, tensor<?x?xi32>) -> (tensor<?x?xi32> {iree.abi.tied = 1 : index}) attributes {
    iree.abi.model = "coarse-fences",
    nosideeffects
  }

  func.func private @Triple.function(tensor<?x?xi32>, tensor<?x?xi32>) -> (tensor<?x?xi32> {iree.abi.tied = 1 : index}) attributes {
    iree.abi.model = "coarse-fences",
    nosideeffects
  }

  func.func @main(%arg0: tensor<?x?xi32>) -> tensor<?x?xi32> {

    %c0 = arith.constant 0: index
    %c1 = arith.constant 1: index
    %dim0 = tensor.dim %arg0, %c0: tensor<?x?xi32>
    %dim1 = tensor.dim %arg0, %c1: tensor<?x?xi32>
    %0 = arith.muli %arg0, %arg0 : tensor<?x?xi32>
    %init = tensor.empty(%dim0, %dim1) : tensor<?x?xi32>
    %p1 = call @Double.function(%0, %init) : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi32>
    %init2 = tensor.empty(%dim0, %dim1) : tensor<?x?xi32>
    %1 = call @Triple.function(%p1, %init2) : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi32>

    %2 = arith.muli %1, %1 : tensor<?x?xi32>

    return %2 : tensor<?x?xi32>
  }

}
