// i1 tensors end to end: .npy bools ('|b1') in and out, comparisons making
// masks, andi/ori/select on them, splat and dense i1 constants (one byte per
// element in the module), on local-sync and local-task, compared with NumPy
// exactly; peak equals the walk.
// RUN: %python %S/element_types_reference.py bools inputs %t
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=@%t.in0.npy --input=@%t.in1.npy --input=@%t.in2.npy --output=@%t.sync.out0.npy --output=@%t.sync.out1.npy --output=@%t.sync.out2.npy --output=@%t.sync.out3.npy --device=__device_0=local-sync --stats=%t.sync.json > /dev/null
// RUN: ferry-run %t.fvm --input=@%t.in0.npy --input=@%t.in1.npy --input=@%t.in2.npy --output=@%t.task.out0.npy --output=@%t.task.out1.npy --output=@%t.task.out2.npy --output=@%t.task.out3.npy --device=__device_0=local-task --stats=%t.task.json > /dev/null
// RUN: %python %S/element_types_reference.py bools check %t sync task
// RUN: %python %S/check_stats.py %t.sync.json live_bytes_at_exit=0 peak_bytes=439
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 peak_bytes=439
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=29,29,29 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 439 (inputs 261, allocated 178)
// WALK-NEXT: func.func @main
// WALK: remark: peak live bytes: 18 (inputs 0, allocated 18)
// WALK-NEXT: func.func @consts
// scalars' results are sized by its scalar input %n: input-shapes gives
// its value (nothing for the floats before it), as the runs below.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=,,3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCALARSWALK
// SCALARSWALK: remark: peak live bytes: 12 (inputs 0, allocated 12)
// SCALARSWALK-NEXT: func.func @scalars
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=,,1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCALARSWALK1
// SCALARSWALK1: remark: peak live bytes: 4 (inputs 0, allocated 4)
// SCALARSWALK1-NEXT: func.func @scalars

// Constants of each new type, stored once; printed as text.
// RUN: ferry-run %t.fvm --function=consts --stats=%t.consts.json | FileCheck %s --check-prefix=CONSTS --match-full-lines
// CONSTS:      5xi1=[1 0 1 1 0]
// CONSTS-NEXT: 3xf16=[1.5 -0.099975586 65504]
// CONSTS-NEXT: 2xbf16=[3 -0.100097656]
// CONSTS-NEXT: 3xi1=[1 1 1]
// RUN: %python %S/check_stats.py %t.consts.json live_bytes_at_exit=0 peak_bytes=18 constant_bytes=15

// f16 and bf16 scalar arguments (--input=f16=VALUE) fill tensors and come
// back as scalars; a 0-d .npy of each works the same way.
// RUN: ferry-run %t.fvm --function=scalars --input=f16=0.1 --input=bf16=-2.5 --input=index=3 --stats=%t.scalars.json | FileCheck %s --check-prefix=SCALARS --match-full-lines
// SCALARS:      3xf16=[0.099975586 0.099975586 0.099975586]
// SCALARS-NEXT: 3xbf16=[-2.5 -2.5 -2.5]
// SCALARS-NEXT: f16=0.099975586
// SCALARS-NEXT: bf16=-2.5
// RUN: %python %S/check_stats.py %t.scalars.json live_bytes_at_exit=0 peak_bytes=12
// RUN: %python -c "import numpy as np; np.save('%t.h.npy', np.float16(0.1)); np.save('%t.b.npy', np.uint16(0xC020))"
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --function=scalars --input=@%t.h.npy --input=@%t.b.npy --input=index=1 --output=@%t.o0.npy --output=@%t.o1.npy --output=@%t.o2.npy --output=@%t.o3.npy | FileCheck %s --check-prefix=NPY --match-full-lines
// RUN: %python %S/check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=4
// NPY:      1xf16=[0.099975586]
// NPY-NEXT: 1xbf16=[-2.5]
// RUN: %python -c "import numpy as np; o = [np.load('%t.o%%d.npy' %% i) for i in range(4)]; assert o[0].dtype == np.float16 and o[0][0] == np.float16(0.1), o; assert o[1].dtype == np.uint16 and o[1][0] == 0xC020, o; assert o[2].shape == () and o[2] == np.float16(0.1), o; assert o[3].dtype == np.uint16 and o[3] == 0xC020, o"

func.func @main(%x: tensor<?xf32>, %y: tensor<?xf32>, %m: tensor<?xi1>)
    -> (tensor<?xi1>, tensor<?xf32>, tensor<?xi1>, tensor<4xi1>) {
  %lt = arith.cmpf olt, %x, %y : tensor<?xf32>
  %both = arith.andi %lt, %m : tensor<?xi1>
  %sel = arith.select %both, %x, %y : tensor<?xi1>, tensor<?xf32>
  %any = arith.ori %lt, %m : tensor<?xi1>
  %t = arith.constant dense<true> : tensor<4xi1>
  %k = arith.constant dense<[true, false, true, false]> : tensor<4xi1>
  %o = arith.ori %t, %k : tensor<4xi1>
  return %both, %sel, %any, %o : tensor<?xi1>, tensor<?xf32>, tensor<?xi1>, tensor<4xi1>
}

func.func @consts() -> (tensor<5xi1>, tensor<3xf16>, tensor<2xbf16>, tensor<3xi1>) {
  %k = arith.constant dense<[true, false, true, true, false]> : tensor<5xi1>
  %h = arith.constant dense<[1.5, -0.1, 65504.0]> : tensor<3xf16>
  %b = arith.constant dense<[3.0, -0.1]> : tensor<2xbf16>
  %f = arith.constant dense<true> : tensor<3xi1>
  return %k, %h, %b, %f : tensor<5xi1>, tensor<3xf16>, tensor<2xbf16>, tensor<3xi1>
}

func.func @scalars(%h: f16, %b: bf16, %n: index) -> (tensor<?xf16>, tensor<?xbf16>, f16, bf16) {
  %e = tensor.empty(%n) : tensor<?xf16>
  %f = linalg.fill ins(%h : f16) outs(%e : tensor<?xf16>) -> tensor<?xf16>
  %e2 = tensor.empty(%n) : tensor<?xbf16>
  %f2 = linalg.fill ins(%b : bf16) outs(%e2 : tensor<?xbf16>) -> tensor<?xbf16>
  return %f, %f2, %h, %b : tensor<?xf16>, tensor<?xbf16>, f16, bf16
}
