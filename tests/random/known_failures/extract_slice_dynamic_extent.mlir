// Feature strided_dynamic_tiles (README.md, known failures): a copy-kernel
// extract_slice (dim 1 cut at offset 1) with a dynamic size at offset 0 and
// stride 1 in dim 0: the kernel's loop takes its extent from the source's
// dim 0, and the run-time check refuses the valid program.
//   ferry-compile extract_slice_dynamic_extent.mlir -o x.fvm
//   ferry-run x.fvm --input=4x5xf32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19 --input=index=2
// fails: "operands of 'linalg.generic' at ...:10:8 differ in the extent of loop 0"
// expected: 2x2xf32=[1 2][6 7]
func.func @main(%x: tensor<?x5xf32>, %n: index) -> tensor<?x2xf32> {
  %s = tensor.extract_slice %x[0, 1] [%n, 2] [1, 1] : tensor<?x5xf32> to tensor<?x2xf32>
  return %s : tensor<?x2xf32>
}
