// Random seed 510 (of 300..599), reduced: a tensor captured by nested
// scf.ifs, written in place in the inner branches, whose result the outer
// then-branch yields, read on the host after the if. An owned-flag scheme
// once freed the captured tensor in the then-branch while yielding the
// inner result as lent, so the read found freed memory ("reading buffer
// ..., which is deallocated"). The run must read live memory, free
// everything, and peak where the walk says.
// RUN: %python -c "import numpy as np; np.save('%t.a.npy', np.ones((2, 3, 4), np.int16)); np.save('%t.b.npy', np.arange(9, dtype=np.int64).reshape(3, 3)); np.save('%t.c.npy', np.array([1, 2, 3], np.int64))"
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=@%t.a.npy --input=@%t.b.npy --input=@%t.c.npy --stats=%t.json | FileCheck %s --match-full-lines
// RUN: ferry-run %t.fvm --device=__device_0=local-task --input=@%t.a.npy --input=@%t.b.npy --input=@%t.c.npy | FileCheck %s --match-full-lines
// CHECK: 3x3xi64=[1 3 1][2 6 6][7 5 11]
// RUN: %python %S/../check_stats.py %t.json live_bytes_at_exit=0 peak_bytes=664
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=2x3x4,3x3,3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 664 (inputs 144, allocated 264)
// WALK-NEXT: func.func @main
module {
  func.func private @scalar0() -> (i64) {
    %z0 = arith.constant 0 : i64
    return %z0 : i64
  }
  func.func private @scalar1() -> (i64) {
    %z0 = arith.constant 0 : i64
    return %z0 : i64
  }
  func.func private @tensor0(%arg42: tensor<?x?x4xi8>, %arg43: tensor<?x?x4xf32>) -> (tensor<?x?x4xf32>) {
    %c46 = arith.constant 0 : index
    %d47 = tensor.dim %arg42, %c46 : tensor<?x?x4xi8>
    %c48 = arith.constant 0 : index
    %d49 = tensor.dim %arg42, %c48 : tensor<?x?x4xi8>
    %e45 = tensor.empty(%d47, %d49) : tensor<?x?x4xf32>
    %c50 = arith.constant 0.75 : f32
    %t51 = linalg.fill ins(%c50 : f32) outs(%e45 : tensor<?x?x4xf32>) -> tensor<?x?x4xf32>
    %t52 = arith.mulf %t51, %t51 : tensor<?x?x4xf32>
    %c53 = arith.constant 0 : index
    %c54 = arith.constant 0 : index
    %c55 = arith.constant 1 : index
    %l56:2 = scf.for %i57 = %c53 to %c54 step %c55 iter_args(%acc58 = %t52, %acc59 = %arg43) -> (tensor<?x?x4xf32>, tensor<?x?x4xf32>) {
      %t60 = arith.addf %acc59, %t52 : tensor<?x?x4xf32>
      %t61 = arith.mulf %acc58, %t52 : tensor<?x?x4xf32>
      scf.yield %t61, %t60 : tensor<?x?x4xf32>, tensor<?x?x4xf32>
    }
    return %l56#0 : tensor<?x?x4xf32>
  }
  func.func private @tensor1(%arg62: tensor<?x?x4xf64>) -> () {
    %r92 = call @scalar0() : () -> (i64)
    %c102 = arith.constant 0 : index
    %d103 = tensor.dim %arg62, %c102 : tensor<?x?x4xf64>
    %c104 = arith.constant 0 : index
    %d105 = tensor.dim %arg62, %c104 : tensor<?x?x4xf64>
    %e101 = tensor.empty(%d103, %d105) : tensor<?x?x4xi8>
    %r108 = call @scalar1() : () -> (i64)
    %v110 = arith.constant 0 : i8
    %t111 = linalg.fill ins(%v110 : i8) outs(%e101 : tensor<?x?x4xi8>) -> tensor<?x?x4xi8>
    %e112 = tensor.empty(%d103, %d105) : tensor<?x?x4xf32>
    %c113 = arith.constant -2.5 : f32
    %t114 = linalg.fill ins(%c113 : f32) outs(%e112 : tensor<?x?x4xf32>) -> tensor<?x?x4xf32>
    %t122 = call @tensor0(%t111, %t114) : (tensor<?x?x4xi8>, tensor<?x?x4xf32>) -> (tensor<?x?x4xf32>)
    %e123 = tensor.empty(%d103, %d105) : tensor<?x?x4xi32>
    %v129 = arith.constant 0 : i32
    %t130 = linalg.fill ins(%v129 : i32) outs(%e123 : tensor<?x?x4xi32>) -> tensor<?x?x4xi32>
    %c132 = arith.constant 0 : i64
    %cmp131 = arith.cmpi sge, %r92, %c132 : i64
    %f133:2 = scf.if %cmp131 -> (tensor<?x?x4xi32>, tensor<?x?x4xf32>) {
    %c135 = arith.constant 0 : i64
      %cmp134 = arith.cmpi ule, %r108, %c135 : i64
      %f136:2 = scf.if %cmp134 -> (tensor<?x?x4xi32>, tensor<?x?x4xf32>) {
        %t137 = arith.subi %t130, %t130 : tensor<?x?x4xi32>
        %t138 = arith.addf %t114, %t122 : tensor<?x?x4xf32>
        scf.yield %t137, %t138 : tensor<?x?x4xi32>, tensor<?x?x4xf32>
      } else {
        %t140 = arith.mulf %t114, %t114 : tensor<?x?x4xf32>
        %t141 = arith.subi %t130, %t130 : tensor<?x?x4xi32>
        scf.yield %t141, %t140 : tensor<?x?x4xi32>, tensor<?x?x4xf32>
      }
      %t142 = arith.addi %t130, %t130 : tensor<?x?x4xi32>
      scf.yield %t142, %f136#1 : tensor<?x?x4xi32>, tensor<?x?x4xf32>
    } else {
    %cmp143 = arith.constant false
      %f145 = scf.if %cmp143 -> (tensor<?x?x4xi32>) {
        %t147 = arith.addi %t130, %t130 : tensor<?x?x4xi32>
        scf.yield %t147 : tensor<?x?x4xi32>
      } else {
        %t155 = arith.subi %t130, %t130 : tensor<?x?x4xi32>
        scf.yield %t155 : tensor<?x?x4xi32>
      }
      %t156 = arith.mulf %t114, %t122 : tensor<?x?x4xf32>
      scf.yield %f145, %t156 : tensor<?x?x4xi32>, tensor<?x?x4xf32>
    }
    %c157 = arith.constant 0 : index
    %c158 = arith.constant 0 : index
    %c159 = arith.constant 0 : index
    %x160 = tensor.extract %f133#1[%c157, %c158, %c159] : tensor<?x?x4xf32>
    return
  }
  func.func @main(%arg233: tensor<?x?x4xi16>, %arg243: tensor<?x?xi64>, %arg245: tensor<?xi64>) -> (tensor<?x?xi64>) {
    %c246 = arith.constant 0 : index
    %d247 = tensor.dim %arg233, %c246 : tensor<?x?x4xi16>
    %c248 = arith.constant 1 : index
    %d249 = tensor.dim %arg233, %c248 : tensor<?x?x4xi16>
    %e250 = tensor.empty(%d249, %d249) : tensor<?x?xi64>
    %b251 = linalg.broadcast ins(%arg245 : tensor<?xi64>) outs(%e250 : tensor<?x?xi64>) dimensions = [0]
    %t244 = arith.xori %arg243, %b251 : tensor<?x?xi64>
    %e264 = tensor.empty(%d249, %d249) : tensor<?x?xi64>
    %cp265 = linalg.copy ins(%t244 : tensor<?x?xi64>) outs(%e264 : tensor<?x?xi64>) -> tensor<?x?xi64>
    %e266 = tensor.empty(%d247, %d249) : tensor<?x?x4xf64>
    %c267 = arith.constant 0.5 : f64
    %t268 = linalg.fill ins(%c267 : f64) outs(%e266 : tensor<?x?x4xf64>) -> tensor<?x?x4xf64>
    call @tensor1(%t268) : (tensor<?x?x4xf64>) -> ()
    return %cp265 : tensor<?x?xi64>
  }
}
