// RUN: ferry-opt --convert-input-to-stream %s | FileCheck %s

// A generic whose body reads its destination (the accumulator) is not
// merged into its elementwise consumer: upstream fusion would keep its
// result as a second result of the merged op, and a dispatch makes one
// ("'func.return' op has 2 operands" before; random seed 3). Each is a
// dispatch of its own, the first writing its destination in place.
// CHECK-LABEL: func.func @reads_destination(
// CHECK: %[[A:.+]] = stream.async.dispatch.entry @reads_destination_dispatch_0::@reads_destination_dispatch_0
// CHECK: stream.async.dispatch.entry @reads_destination_dispatch_1::@reads_destination_dispatch_1{{.*}}(%[[A]],
func.func @reads_destination(%x: tensor<3x1xi8>, %y: tensor<1x3xi8>, %acc: tensor<3x1xi8>) -> tensor<3x1xi8> {
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<3x1xi8>, tensor<1x3xi8>) outs(%acc : tensor<3x1xi8>) {
  ^bb0(%a: i8, %b: i8, %c: i8):
    %s = arith.subi %c, %b : i8
    linalg.yield %s : i8
  } -> tensor<3x1xi8>
  %m = arith.maxsi %g, %x : tensor<3x1xi8>
  return %m : tensor<3x1xi8>
}
