// Every element type through .npy in and out unchanged, bit for bit: bool
// ('|b1') as i1, int8 to int64, float16 ('<f2'), bf16 as '<u2' bits (NaN
// and infinity patterns included), float32 and float64. Each result is a
// argument returned as it is (the host's own buffer: nothing allocated).
// RUN: %python -c "import numpy as np; r = np.random.default_rng(3); ts = [r.random(5) < 0.5, r.integers(-128, 128, 5).astype(np.int8), r.integers(-30000, 30000, 5).astype(np.int16), r.integers(-2**31, 2**31, 5).astype(np.int32), r.integers(-2**62, 2**62, 5).astype(np.int64), np.array([1.5, -0.0, np.inf, 65504, 6e-8], np.float16), np.array([0x3f80, 0x7f80, 0xffc0, 0x0001, 0x8000], np.uint16), r.standard_normal(5).astype(np.float32), r.standard_normal(5)]; [np.save('%t.in%%d.npy' %% i, t) for i, t in enumerate(ts)]"
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=@%t.in0.npy --input=@%t.in1.npy --input=@%t.in2.npy --input=@%t.in3.npy --input=@%t.in4.npy --input=@%t.in5.npy --input=@%t.in6.npy --input=@%t.in7.npy --input=@%t.in8.npy --output=@%t.out0.npy --output=@%t.out1.npy --output=@%t.out2.npy --output=@%t.out3.npy --output=@%t.out4.npy --output=@%t.out5.npy --output=@%t.out6.npy --output=@%t.out7.npy --output=@%t.out8.npy --stats=%t.json | FileCheck %s
// CHECK: 5xi1=
// CHECK: 5xf16=[1.5 -0 inf 65504 5.9604645e-08]
// CHECK: 5xbf16=[1 inf -nan 9.1835e-41 -0]
// RUN: %python -c "import numpy as np; [np.testing.assert_equal(np.load('%t.out%%d.npy' %% i).view(np.uint8), np.load('%t.in%%d.npy' %% i).view(np.uint8)) or (np.load('%t.out%%d.npy' %% i).dtype == np.load('%t.in%%d.npy' %% i).dtype) or exit('dtype %%d' %% i) for i in range(9)]"
// RUN: %python %S/check_stats.py %t.json live_bytes_at_exit=0 peak_bytes=160
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=5,5,5,5,5,5,5,5,5 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 160 (inputs 160, allocated 0)
func.func @main(%a: tensor<?xi1>, %b: tensor<?xi8>, %c: tensor<?xi16>, %d: tensor<?xi32>,
                %e: tensor<?xi64>, %f: tensor<?xf16>, %g: tensor<?xbf16>,
                %h: tensor<?xf32>, %i: tensor<?xf64>)
    -> (tensor<?xi1>, tensor<?xi8>, tensor<?xi16>, tensor<?xi32>, tensor<?xi64>,
        tensor<?xf16>, tensor<?xbf16>, tensor<?xf32>, tensor<?xf64>) {
  return %a, %b, %c, %d, %e, %f, %g, %h, %i
      : tensor<?xi1>, tensor<?xi8>, tensor<?xi16>, tensor<?xi32>, tensor<?xi64>,
        tensor<?xf16>, tensor<?xbf16>, tensor<?xf32>, tensor<?xf64>
}
