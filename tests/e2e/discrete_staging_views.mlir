// A result that views an input's buffer (a tensor.bitcast or a tensor.cast
// of the argument) is staged back on local-discrete like the input
// returned as it came: the program did not allocate it, so the host cannot
// map it. Its staging buffer comes while every result is live, so the peak
// is the walk's plus the staged result (112 + 12), memory the runtime adds
// outside the program (ARCHITECTURE, "Peak memory"). The random test
// counted that only for an argument returned by name or through a
// collapse_shape / expand_shape, and so expected 12 bytes less than a
// local-discrete run measured for a program returning a cast of an
// argument; run_random.returned_operands follows casts and bitcasts now.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 112 (inputs 12, allocated 100)
// WALK: remark: peak live bytes: 112 (inputs 12, allocated 100)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=bitcast --input=3xi32=1065353216,1073741824,1077936128 --input=f32=1.5 --device=__device_0=local-sync --stats=%t.bs.json | FileCheck %s --check-prefix=BITCAST
// RUN: ferry-run %t.fvm --function=bitcast --input=3xi32=1065353216,1073741824,1077936128 --input=f32=1.5 --device=__device_0=local-discrete --stats=%t.bd.json | FileCheck %s --check-prefix=BITCAST
// RUN: ferry-run %t.fvm --function=cast --input=3xi32=1,2,3 --input=i32=2 --device=__device_0=local-sync --stats=%t.cs.json | FileCheck %s --check-prefix=CAST
// RUN: ferry-run %t.fvm --function=cast --input=3xi32=1,2,3 --input=i32=2 --device=__device_0=local-discrete --stats=%t.cd.json | FileCheck %s --check-prefix=CAST
// RUN: %python %S/check_stats.py %t.bs.json live_bytes_at_exit=0 copies=0 peak_bytes=112
// RUN: %python %S/check_stats.py %t.bd.json live_bytes_at_exit=0 copies=2 peak_bytes=124
// RUN: %python %S/check_stats.py %t.cs.json live_bytes_at_exit=0 copies=0 peak_bytes=112
// RUN: %python %S/check_stats.py %t.cd.json live_bytes_at_exit=0 copies=2 peak_bytes=124
// The random test's view of it: each function's first result is its
// argument's buffer.
// RUN: %python -c "import sys; sys.path.insert(0, '%S/../random'); import run_random; t = open('%s').read(); \
// RUN:   assert run_random.returned_operands(t.replace('@bitcast', '@main')) == (['%%x', '%%v'], ['%%x', '%%b']); \
// RUN:   assert run_random.returned_operands(t.replace('@cast', '@main')) == (['%%x', '%%v'], ['%%x', '%%b'])"
// BITCAST: 3xf32=[1 2 3]
// BITCAST-NEXT: 25xf32=[1.5 1.5 1.5 1.5 1.5 1.5 1.5 1.5 1.5 1.5 1.5 1.5 1.5 1.5 1.5 1.5 1.5 1.5 1.5 1.5 1.5 1.5 1.5 1.5 1.5]
// CAST: 3xi32=[1 2 3]
// CAST-NEXT: 25xi32=[2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2]

func.func @bitcast(%x: tensor<3xi32>, %v: f32) -> (tensor<3xf32>, tensor<25xf32>) {
  %a = tensor.bitcast %x : tensor<3xi32> to tensor<3xf32>
  %e = tensor.empty() : tensor<25xf32>
  %b = linalg.fill ins(%v : f32) outs(%e : tensor<25xf32>) -> tensor<25xf32>
  return %a, %b : tensor<3xf32>, tensor<25xf32>
}
func.func @cast(%x: tensor<?xi32>, %v: i32) -> (tensor<3xi32>, tensor<25xi32>) {
  %a = tensor.cast %x : tensor<?xi32> to tensor<3xi32>
  %e = tensor.empty() : tensor<25xi32>
  %b = linalg.fill ins(%v : i32) outs(%e : tensor<25xi32>) -> tensor<25xi32>
  return %a, %b : tensor<3xi32>, tensor<25xi32>
}
