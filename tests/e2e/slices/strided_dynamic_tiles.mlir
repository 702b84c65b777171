// Copy-kernel slices whose tile has a dynamic dim cut at offset 0 with
// stride 1 (found by the random test's strided_dynamic_tiles): the kernel
// indexes the full tensor there with `loop + w`, w a loop of one iteration
// (a window), so the loop's extent is the tile's. Before, an extract took
// the loop's extent from the full tensor and the run-time check refused a
// valid program ("differ in the extent of loop 0"), and an insert whose
// maps were all the identity failed to compile ("'memref.copy' op dispatch
// result could not be written in place into its binding"). Each is one
// copy kernel (an extract of 2x2 f32: one copy of 16 bytes; an insert into
// an argument that is not consumed: its copy-on-write clone and the
// kernel), nothing live at exit.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=extract --input=4x5xf32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19 --input=index=2 --stats=%t.e.json | FileCheck %s --check-prefix=EXTRACT
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --function=extract --device=__device_0=local-task --input=4x5xf32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19 --input=index=2 | FileCheck %s --check-prefix=EXTRACT
// RUN: %python %S/../check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=96
// EXTRACT: 2x2xf32=[1 2][6 7]
// RUN: %python %S/../check_stats.py %t.e.json live_bytes_at_exit=0 copies=1 bytes_copied=16 dispatches=0 peak_bytes=96
// RUN: ferry-run %t.fvm --function=insert --input=2x4x2xf32=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 --input=2x4x1xf32=1,2,3,4,5,6,7,8 --stats=%t.i.json | FileCheck %s --check-prefix=INSERT
// RUN: ferry-run %t.fvm --stats=%t.wc1.json --function=insert --device=__device_0=local-task --input=2x4x2xf32=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 --input=2x4x1xf32=1,2,3,4,5,6,7,8 | FileCheck %s --check-prefix=INSERT
// RUN: %python %S/../check_stats.py %t.wc1.json live_bytes_at_exit=0 peak_bytes=160
// INSERT: 2x4x2xf32={{\[\[}}1 0][2 0][3 0][4 0]]{{\[\[}}5 0][6 0][7 0][8 0]]
// RUN: %python %S/../check_stats.py %t.i.json live_bytes_at_exit=0 copies=2 bytes_copied=96 dispatches=0 peak_bytes=160
// The walk, one entry per argument position: extract's 4x5 and the value
// of its scalar input %n (its tile size), insert's 2x4x1 (its first
// argument is static).
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=4x5,2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=EWALK
// EWALK: remark: peak live bytes: 96 (inputs 80, allocated 16)
// EWALK-NEXT: func.func @extract
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=,2x4x1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 160 (inputs 96, allocated 64)
// WALK-NEXT: func.func @insert
func.func @extract(%x: tensor<?x5xf32>, %n: index) -> tensor<?x2xf32> {
  %s = tensor.extract_slice %x[0, 1] [%n, 2] [1, 1] : tensor<?x5xf32> to tensor<?x2xf32>
  return %s : tensor<?x2xf32>
}

func.func @insert(%d: tensor<2x4x2xf32>, %t: tensor<?x4x?xf32>) -> tensor<2x4x2xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %t, %c2 : tensor<?x4x?xf32>
  %m = tensor.dim %t, %c0 : tensor<?x4x?xf32>
  %r = tensor.insert_slice %t into %d[0, 0, 0] [%m, 4, %n] [1, 1, 1] : tensor<?x4x?xf32> into tensor<2x4x2xf32>
  return %r : tensor<2x4x2xf32>
}
