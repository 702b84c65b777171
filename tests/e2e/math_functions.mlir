// Every `math` function Ferry compiles (exp, exp2, log, log1p, tanh, sqrt,
// rsqrt, erf, powf, absf, floor, ceil, round, sin, cos, fma) on whole
// tensors of dynamic size, f32 and f64, on local-sync and local-task,
// against NumPy within the bounds math_reference.py states (f32: MLIR's
// polynomial approximations, at most 4 ulp, sin/cos 1e-6 absolute; f64:
// libm, at most 4 ulp). f64 `erf` (no LLVM intrinsic) and `log1p` (which
// MathToLLVM computes as log(1 + x): 0 for 1e-30) call libm's. Each result
// is its own dispatch; nothing is live at exit and the peak is the walk's.
// RUN: ferry-compile %s -o %t.fvm
// RUN: %python %S/math_reference.py inputs %t
// RUN: ferry-run %t.fvm --function=f32 --device=__device_0=local-sync --input=@%t.f32.x.npy --input=@%t.f32.y.npy --output=@%t.f32.sync.out0.npy --output=@%t.f32.sync.out1.npy --output=@%t.f32.sync.out2.npy --output=@%t.f32.sync.out3.npy --output=@%t.f32.sync.out4.npy --output=@%t.f32.sync.out5.npy --output=@%t.f32.sync.out6.npy --output=@%t.f32.sync.out7.npy --output=@%t.f32.sync.out8.npy --output=@%t.f32.sync.out9.npy --output=@%t.f32.sync.out10.npy --output=@%t.f32.sync.out11.npy --output=@%t.f32.sync.out12.npy --output=@%t.f32.sync.out13.npy --output=@%t.f32.sync.out14.npy --output=@%t.f32.sync.out15.npy --stats=%t.f32.sync.json > /dev/null
// RUN: ferry-run %t.fvm --function=f32 --device=__device_0=local-task --input=@%t.f32.x.npy --input=@%t.f32.y.npy --output=@%t.f32.task.out0.npy --output=@%t.f32.task.out1.npy --output=@%t.f32.task.out2.npy --output=@%t.f32.task.out3.npy --output=@%t.f32.task.out4.npy --output=@%t.f32.task.out5.npy --output=@%t.f32.task.out6.npy --output=@%t.f32.task.out7.npy --output=@%t.f32.task.out8.npy --output=@%t.f32.task.out9.npy --output=@%t.f32.task.out10.npy --output=@%t.f32.task.out11.npy --output=@%t.f32.task.out12.npy --output=@%t.f32.task.out13.npy --output=@%t.f32.task.out14.npy --output=@%t.f32.task.out15.npy --stats=%t.f32.task.json > /dev/null
// RUN: ferry-run %t.fvm --function=f64 --device=__device_0=local-sync --input=@%t.f64.x.npy --input=@%t.f64.y.npy --output=@%t.f64.sync.out0.npy --output=@%t.f64.sync.out1.npy --output=@%t.f64.sync.out2.npy --output=@%t.f64.sync.out3.npy --output=@%t.f64.sync.out4.npy --output=@%t.f64.sync.out5.npy --output=@%t.f64.sync.out6.npy --output=@%t.f64.sync.out7.npy --output=@%t.f64.sync.out8.npy --output=@%t.f64.sync.out9.npy --output=@%t.f64.sync.out10.npy --output=@%t.f64.sync.out11.npy --output=@%t.f64.sync.out12.npy --output=@%t.f64.sync.out13.npy --output=@%t.f64.sync.out14.npy --output=@%t.f64.sync.out15.npy --stats=%t.f64.sync.json > /dev/null
// RUN: ferry-run %t.fvm --function=f64 --device=__device_0=local-task --input=@%t.f64.x.npy --input=@%t.f64.y.npy --output=@%t.f64.task.out0.npy --output=@%t.f64.task.out1.npy --output=@%t.f64.task.out2.npy --output=@%t.f64.task.out3.npy --output=@%t.f64.task.out4.npy --output=@%t.f64.task.out5.npy --output=@%t.f64.task.out6.npy --output=@%t.f64.task.out7.npy --output=@%t.f64.task.out8.npy --output=@%t.f64.task.out9.npy --output=@%t.f64.task.out10.npy --output=@%t.f64.task.out11.npy --output=@%t.f64.task.out12.npy --output=@%t.f64.task.out13.npy --output=@%t.f64.task.out14.npy --output=@%t.f64.task.out15.npy --stats=%t.f64.task.json > /dev/null
// RUN: %python %S/math_reference.py check %t f32 sync task
// RUN: %python %S/math_reference.py check %t f64 sync task
// RUN: %python %S/check_stats.py %t.f32.sync.json live_bytes_at_exit=0 dispatches=16 copies=0 peak_bytes=295200
// RUN: %python %S/check_stats.py %t.f32.task.json live_bytes_at_exit=0 dispatches=16 copies=0 peak_bytes=295200
// RUN: %python %S/check_stats.py %t.f64.sync.json live_bytes_at_exit=0 dispatches=16 copies=0 peak_bytes=590400
// RUN: %python %S/check_stats.py %t.f64.task.json live_bytes_at_exit=0 dispatches=16 copies=0 peak_bytes=590400
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=4100,4100 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 295200 (inputs 32800, allocated 262400)
// WALK: remark: peak live bytes: 590400 (inputs 65600, allocated 524800)
func.func @f32(%x: tensor<?xf32>, %y: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %0 = math.exp %x : tensor<?xf32>
  %1 = math.exp2 %x : tensor<?xf32>
  %2 = math.log %y : tensor<?xf32>
  %3 = math.log1p %y : tensor<?xf32>
  %4 = math.tanh %x : tensor<?xf32>
  %5 = math.sqrt %y : tensor<?xf32>
  %6 = math.rsqrt %y : tensor<?xf32>
  %7 = math.erf %x : tensor<?xf32>
  %8 = math.powf %y, %x : tensor<?xf32>
  %9 = math.absf %x : tensor<?xf32>
  %10 = math.floor %x : tensor<?xf32>
  %11 = math.ceil %x : tensor<?xf32>
  %12 = math.round %x : tensor<?xf32>
  %13 = math.sin %x : tensor<?xf32>
  %14 = math.cos %x : tensor<?xf32>
  %15 = math.fma %x, %y, %x : tensor<?xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}

func.func @f64(%x: tensor<?xf64>, %y: tensor<?xf64>) -> (tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>) {
  %0 = math.exp %x : tensor<?xf64>
  %1 = math.exp2 %x : tensor<?xf64>
  %2 = math.log %y : tensor<?xf64>
  %3 = math.log1p %y : tensor<?xf64>
  %4 = math.tanh %x : tensor<?xf64>
  %5 = math.sqrt %y : tensor<?xf64>
  %6 = math.rsqrt %y : tensor<?xf64>
  %7 = math.erf %x : tensor<?xf64>
  %8 = math.powf %y, %x : tensor<?xf64>
  %9 = math.absf %x : tensor<?xf64>
  %10 = math.floor %x : tensor<?xf64>
  %11 = math.ceil %x : tensor<?xf64>
  %12 = math.round %x : tensor<?xf64>
  %13 = math.sin %x : tensor<?xf64>
  %14 = math.cos %x : tensor<?xf64>
  %15 = math.fma %x, %y, %x : tensor<?xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15 : tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>
}
