// RUN: ferry-opt %s --split-input-file --verify-diagnostics --convert-input-to-stream

// An op the import cannot handle inside a loop body is reported with its
// name and location, before anything changes.
func.func @unsupported_in_loop(%a: tensor<4xi32>, %n: index) -> tensor<4xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (tensor<4xi32>) {
    %v = arith.constant 7 : i32
    // expected-error @+1 {{'tensor.insert' is not supported by Ferry}}
    %y = tensor.insert %v into %acc[%c0] : tensor<4xi32>
    scf.yield %y : tensor<4xi32>
  }
  return %r : tensor<4xi32>
}

// -----

// A carried tensor of an element type the runtime does not hold.
func.func @carried_f8E4M3FN(%a: tensor<4xi32>, %c: i1) -> tensor<4xi32> {
  %z = arith.constant dense<0> : tensor<4xi32>
  // expected-error @+1 {{'scf.if' on 'tensor<4xf8E4M3FN>' is not supported: only ranked tensors of i1, i8, i16, i32, i64, f16, bf16, f32 or f64 are}}
  %r = scf.if %c -> tensor<4xf8E4M3FN> {
    %e = arith.constant dense<1.0> : tensor<4xf8E4M3FN>
    scf.yield %e : tensor<4xf8E4M3FN>
  } else {
    %e = arith.constant dense<2.0> : tensor<4xf8E4M3FN>
    scf.yield %e : tensor<4xf8E4M3FN>
  }
  return %z : tensor<4xi32>
}

// -----

// scf.execute_region with several blocks is not lifted.
func.func @execute_region_blocks(%a: tensor<4xi32>, %c: i1) -> tensor<4xi32> {
  // expected-error @+1 {{'scf.execute_region' with several blocks in a function that uses tensors is not supported}}
  %r = scf.execute_region -> tensor<4xi32> {
    cf.cond_br %c, ^a, ^b
  ^a:
    scf.yield %a : tensor<4xi32>
  ^b:
    %y = arith.addi %a, %a : tensor<4xi32>
    scf.yield %y : tensor<4xi32>
  }
  return %r : tensor<4xi32>
}

// -----

// Other structured ops are refused by name.
func.func @parallel(%a: tensor<4xi32>, %n: index) -> tensor<4xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.forall' is not supported by Ferry}}
  %r = scf.forall (%i) in (%n) shared_outs(%o = %a) -> (tensor<4xi32>) {
  }
  return %r : tensor<4xi32>
}

// -----

// Poison of a dynamic shape: nothing says how much to allocate.
func.func @poison_dynamic(%a: tensor<?xi32>) -> tensor<?xi32> {
  // expected-error @+1 {{'ub.poison' of dynamic shape 'tensor<?xi32>' is not supported: only a static shape says how much to allocate}}
  %p = ub.poison : tensor<?xi32>
  return %p : tensor<?xi32>
}

// -----

// A loop yielding a tensor of another type than it carries: the scf
// verifier names both types.
func.func @yield_type(%a: tensor<4xi32>, %b: tensor<8xi32>, %n: index) -> tensor<4xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' op 0-th region iter_arg and 0-th yielded value have different type: 'tensor<4xi32>' != 'tensor<8xi32>'}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (tensor<4xi32>) {
    scf.yield %b : tensor<8xi32>
  }
  return %r : tensor<4xi32>
}
