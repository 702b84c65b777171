// A coarse-fences external function returns a buffer view for each result;
// for a tied result, a view of the operand it writes in place. A plugin
// returning NULL or a fence instead (test_plugin_bad_results) fails the run
// naming the function, though the program itself never reads a tied result.
// RUN: ferry-compile %s -o %t.fvm
// RUN: not ferry-run %t.fvm --function=null_result --module=%plugins/test_plugin_bad_results.so --input=4xi32=1,2,3,4 2>&1 | FileCheck %s --check-prefix=NULL
// NULL: ferry-run: error: {{.*}}external function 'NullResult.function' returned null as result 0; a coarse-fences function returns a buffer view for every result (for a tied result, a view of the operand it writes){{$}}
// RUN: not ferry-run %t.fvm --function=fence_result --module=%plugins/test_plugin_bad_results.so --input=4xi32=1,2,3,4 2>&1 | FileCheck %s --check-prefix=FENCE
// FENCE: ferry-run: error: {{.*}}external function 'FenceResult.function' returned a fence as result 0; a coarse-fences function returns a buffer view for every result (for a tied result, a view of the operand it writes){{$}}
func.func private @NullResult.function(tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32> {iree.abi.tied = 1 : index}) attributes {iree.abi.model = "coarse-fences"}
func.func private @FenceResult.function(tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32> {iree.abi.tied = 1 : index}) attributes {iree.abi.model = "coarse-fences"}
func.func @null_result(%x: tensor<4xi32>) -> tensor<4xi32> {
  %init = tensor.empty() : tensor<4xi32>
  %0 = call @NullResult.function(%x, %init) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
func.func @fence_result(%x: tensor<4xi32>) -> tensor<4xi32> {
  %init = tensor.empty() : tensor<4xi32>
  %0 = call @FenceResult.function(%x, %init) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// A new result (tied to no operand) must be the view the runtime allocated
// for it (result_allocate): ForeignResult returns its input's view instead,
// WrongShape allocates 3 elements for a declared tensor<4xi32>.
// RUN: not ferry-run %t.fvm --function=foreign --module=%plugins/test_plugin_bad_results.so --input=4xi32=1,2,3,4 2>&1 | FileCheck %s --check-prefix=FOREIGN
// FOREIGN: ferry-run: error: {{.*}}external function 'ForeignResult.function': new result 0 was not allocated with result_allocate (plugin_api.h): the runtime allocates a new result where the program uses it{{$}}
// RUN: not ferry-run %t.fvm --function=wrong_shape --module=%plugins/test_plugin_bad_results.so --input=4xi32=1,2,3,4 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: ferry-run: error: {{.*}}result 0 of 'WrongShape.function'{{.*}}
func.func private @ForeignResult.function(tensor<4xi32>) -> tensor<4xi32> attributes {iree.abi.model = "coarse-fences"}
func.func private @WrongShape.function(tensor<4xi32>) -> tensor<4xi32> attributes {iree.abi.model = "coarse-fences"}
func.func @foreign(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = call @ForeignResult.function(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
func.func @wrong_shape(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = call @WrongShape.function(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
