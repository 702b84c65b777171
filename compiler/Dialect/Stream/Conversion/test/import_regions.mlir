// RUN: ferry-opt %s --split-input-file --convert-input-to-stream | FileCheck %s

// Tensors carried by scf ops become resources in the same positions, and
// each dynamic dim an index appended after all original values.

// scf.for: the iter_arg, yield and result are resources; the dynamic dim
// is carried as the last iter_arg; sizes inside and after the loop come from
// carried dims. An import makes the position external.
// CHECK-LABEL: func.func @for_dynamic(
// CHECK: %[[D:.+]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view> [0]
// CHECK: %[[A:.+]] = stream.tensor.import
// CHECK: %[[R:.+]]:3 = scf.for %{{.+}} = %{{.+}} to %arg1 step %{{.+}} iter_args(%[[ACC:.+]] = %[[A]], %[[K:.+]] = %c0_i32, %[[ACCD:.+]] = %[[D]]) -> (!stream.resource<external>, i32, index) {
// CHECK-NEXT: %[[SIZE:.+]] = stream.tensor.sizeof tensor<?xi32>{%[[ACCD]]}
// CHECK: %[[Y:.+]] = stream.async.dispatch.entry {{.+}}(%[[ACC]], %[[A]], %{{.+}}) : (!stream.resource<external>{%[[SIZE]]}
// CHECK: scf.yield %[[Y]], %{{.+}}, %[[ACCD]] : !stream.resource<external>, i32, index
// CHECK: %[[RSIZE:.+]] = stream.tensor.sizeof tensor<?xi32>{%[[R]]#2}
// CHECK: stream.tensor.export %[[R]]#0 : tensor<?xi32>{%[[R]]#2} in !stream.resource<external>{%[[RSIZE]]}
// CHECK: return %{{.+}}, %[[R]]#1 : !hal.buffer_view, i32
func.func @for_dynamic(%a: tensor<?xi32>, %n: index) -> (tensor<?xi32>, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k0 = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a, %k = %k0) -> (tensor<?xi32>, i32) {
    %y = arith.addi %acc, %a : tensor<?xi32>
    %k1 = arith.addi %k, %one : i32
    scf.yield %y, %k1 : tensor<?xi32>, i32
  }
  return %r#0, %r#1 : tensor<?xi32>, i32
}

// -----

// A loop whose values the function makes itself stays of undecided lifetime
// (resource<*>) until something decides it.
// CHECK-LABEL: func.func @for_undecided(
// CHECK: %[[INIT:.+]] = stream.async.splat
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %[[INIT]]) -> (!stream.resource<*>)
// CHECK: stream.resource.load
func.func @for_undecided(%n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant dense<1> : tensor<4xi32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<4xi32>) {
    %y = arith.addi %acc, %acc : tensor<4xi32>
    scf.yield %y : tensor<4xi32>
  }
  %e = tensor.extract %r[%c0] : tensor<4xi32>
  return %e : i32
}

// -----

// scf.if: both branches yield a resource; the dynamic dim is an extra result
// yielded by each branch.
// CHECK-LABEL: func.func @if_dynamic(
// CHECK: %[[D:.+]] = hal.buffer_view.dim
// CHECK: %[[A:.+]] = stream.tensor.import
// CHECK: %[[R:.+]]:2 = scf.if %arg1 -> (!stream.resource<external>, index) {
// CHECK: %[[Y:.+]] = stream.async.dispatch.entry
// CHECK: scf.yield %[[Y]], %[[D]] : !stream.resource<external>, index
// CHECK: } else {
// CHECK: scf.yield %[[A]], %[[D]] : !stream.resource<external>, index
// CHECK: stream.tensor.sizeof tensor<?xi32>{%[[R]]#1}
func.func @if_dynamic(%a: tensor<?xi32>, %c: i1) -> tensor<?xi32> {
  %r = scf.if %c -> tensor<?xi32> {
    %y = arith.muli %a, %a : tensor<?xi32>
    scf.yield %y : tensor<?xi32>
  } else {
    scf.yield %a : tensor<?xi32>
  }
  return %r : tensor<?xi32>
}

// -----

// scf.while: before and after arguments, the condition's values and the
// results are resources, each with its dim appended.
// CHECK-LABEL: func.func @while_dynamic(
// CHECK: %[[D:.+]] = hal.buffer_view.dim
// CHECK: %[[A:.+]] = stream.tensor.import
// CHECK: %[[R:.+]]:2 = scf.while (%[[W:.+]] = %[[A]], %[[WD:.+]] = %[[D]]) : (!stream.resource<external>, index) -> (!stream.resource<external>, index) {
// CHECK: stream.resource.load %[[W]]
// CHECK: scf.condition(%{{.+}}) %[[W]], %[[WD]] : !stream.resource<external>, index
// CHECK: ^bb0(%[[Z:.+]]: !stream.resource<external>, %[[ZD:.+]]: index):
// CHECK: stream.tensor.sizeof tensor<?xi32>{%[[ZD]]}
// CHECK: %[[Y:.+]] = stream.async.dispatch.entry {{.+}}(%[[Z]], %[[Z]], %{{.+}})
// CHECK: scf.yield %[[Y]], %[[ZD]] : !stream.resource<external>, index
// CHECK: stream.tensor.export %[[R]]#0 : tensor<?xi32>{%[[R]]#1}
func.func @while_dynamic(%a: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %lim = arith.constant 100 : i32
  %r = scf.while (%w = %a) : (tensor<?xi32>) -> tensor<?xi32> {
    %e = tensor.extract %w[%c0] : tensor<?xi32>
    %cond = arith.cmpi slt, %e, %lim : i32
    scf.condition(%cond) %w : tensor<?xi32>
  } do {
  ^bb0(%z: tensor<?xi32>):
    %y = arith.addi %z, %z : tensor<?xi32>
    scf.yield %y : tensor<?xi32>
  }
  return %r : tensor<?xi32>
}

// -----

// Nested: a loop inside an scf.if inside a loop, each carrying the tensor.
// CHECK-LABEL: func.func @nested(
// CHECK: scf.for {{.+}} iter_args(%[[OUTER:.+]] = %{{.+}}) -> (!stream.resource<external>)
// CHECK: scf.if %{{.+}} -> (!stream.resource<external>)
// CHECK: scf.for {{.+}} iter_args(%[[INNER:.+]] = %[[OUTER]]) -> (!stream.resource<external>)
// CHECK: stream.async.dispatch.entry {{.+}}(%[[INNER]], %[[INNER]], %{{.+}})
// CHECK: } else {
// CHECK: scf.yield %[[OUTER]] : !stream.resource<external>
func.func @nested(%a: tensor<4xi32>, %n: index, %c: i1) -> tensor<4xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%outer = %a) -> (tensor<4xi32>) {
    %b = scf.if %c -> tensor<4xi32> {
      %l = scf.for %j = %c0 to %n step %c1 iter_args(%inner = %outer) -> (tensor<4xi32>) {
        %y = arith.addi %inner, %inner : tensor<4xi32>
        scf.yield %y : tensor<4xi32>
      }
      scf.yield %l : tensor<4xi32>
    } else {
      scf.yield %outer : tensor<4xi32>
    }
    scf.yield %b : tensor<4xi32>
  }
  return %r : tensor<4xi32>
}

// -----

// scf.execute_region of one block yields a resource.
// CHECK-LABEL: func.func @execute_region(
// CHECK: %[[R:.+]] = scf.execute_region -> !stream.resource<external> {
// CHECK: %[[Y:.+]] = stream.async.dispatch.entry
// CHECK: scf.yield %[[Y]] : !stream.resource<external>
// CHECK: stream.tensor.export %[[R]]
func.func @execute_region(%a: tensor<4xi32>) -> tensor<4xi32> {
  %r = scf.execute_region -> tensor<4xi32> {
    %y = arith.subi %a, %a : tensor<4xi32>
    scf.yield %y : tensor<4xi32>
  }
  return %r : tensor<4xi32>
}

// -----

// Branches between blocks are lifted to scf first: a diamond becomes an
// scf.if.
// CHECK-LABEL: func.func @cf_diamond(
// CHECK-NOT: cf.cond_br
// CHECK: scf.if %arg1 -> (!stream.resource<external>)
// CHECK: stream.async.dispatch.entry
// CHECK: return
func.func @cf_diamond(%a: tensor<4xi32>, %c: i1) -> tensor<4xi32> {
  cf.cond_br %c, ^a, ^b
^a:
  return %a : tensor<4xi32>
^b:
  %0 = arith.addi %a, %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// A loop of branches becomes an scf.while carrying the tensor, in the
// usual form (the test in the before region, the body in the after
// region: import_lifted_loops.mlir); nothing the lifting left undefined
// (ub.poison) remains.
// CHECK-LABEL: func.func @cf_loop(
// CHECK-NOT: cf.br
// CHECK-NOT: ub.poison
// CHECK: scf.while
// CHECK: scf.condition
// CHECK: } do {
// CHECK: stream.async.alloca
// CHECK: stream.async.dispatch.entry
// CHECK: scf.yield
// CHECK: return
func.func @cf_loop(%a: tensor<4xi32>, %n: index) -> tensor<4xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^head(%c0, %a : index, tensor<4xi32>)
^head(%i: index, %acc: tensor<4xi32>):
  %done = arith.cmpi sge, %i, %n : index
  cf.cond_br %done, ^exit, ^body
^body:
  %y = arith.addi %acc, %a : tensor<4xi32>
  %i1 = arith.addi %i, %c1 : index
  cf.br ^head(%i1, %y : index, tensor<4xi32>)
^exit:
  return %acc : tensor<4xi32>
}

// -----

// A scalar ub.poison is a zero.
// CHECK-LABEL: func.func @scalar_poison(
// CHECK-NOT: ub.poison
// CHECK: %[[Z:.+]] = arith.constant 0 : i32
// CHECK: return %{{.+}}, %[[Z]]
func.func @scalar_poison(%a: tensor<4xi32>) -> (tensor<4xi32>, i32) {
  %p = ub.poison : i32
  return %a, %p : tensor<4xi32>, i32
}

// -----

// A function a caller in the module calls returns a loop's result, which is
// its argument where the loop runs no iteration: the caller takes ownership
// of each result, so the result is copied (once, after the loop). The
// public caller returning its own argument's loop result needs no copy.
// CHECK-LABEL: func.func private @returns_carried_argument(
// CHECK: %[[R:.+]] = scf.for
// CHECK: %[[C:.+]] = stream.async.transfer %[[R]]
// CHECK: stream.tensor.export %[[C]]
// CHECK-LABEL: func.func @calls_it(
// CHECK: %[[R2:.+]] = scf.for
// CHECK-NOT: stream.async.transfer
// CHECK: stream.tensor.export %[[R2]]
func.func private @returns_carried_argument(%a: tensor<4xi32>, %n: index) -> tensor<4xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (tensor<4xi32>) {
    %y = arith.addi %acc, %acc : tensor<4xi32>
    scf.yield %y : tensor<4xi32>
  }
  return %r : tensor<4xi32>
}
func.func @calls_it(%a: tensor<4xi32>, %n: index) -> tensor<4xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = call @returns_carried_argument(%a, %n) : (tensor<4xi32>, index) -> tensor<4xi32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (tensor<4xi32>) {
    %y = arith.addi %acc, %b : tensor<4xi32>
    scf.yield %y : tensor<4xi32>
  }
  return %r : tensor<4xi32>
}

// -----

// A loop whose result may be a value the function still uses after it (it
// is also the loop's initial value and read again): the result is copied,
// so the caller does not get storage the function frees.
// CHECK-LABEL: func.func @returns_carried_used_again(
// CHECK: %[[X:.+]] = stream.async.dispatch
// CHECK: %[[R:.+]] = scf.for {{.+}} iter_args(%{{.+}} = %[[X]])
// CHECK: stream.async.dispatch.entry {{.+}} push_constants() (%[[X]], %[[X]],
// CHECK: %[[C:.+]] = stream.async.transfer %[[R]]
// CHECK: stream.tensor.export %[[C]]
func.func @returns_carried_used_again(%a: tensor<4xi32>, %n: index) -> (tensor<4xi32>, tensor<4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.addi %a, %a : tensor<4xi32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<4xi32>) {
    %y = arith.addi %acc, %acc : tensor<4xi32>
    scf.yield %y : tensor<4xi32>
  }
  %z = arith.muli %x, %x : tensor<4xi32>
  return %r, %z : tensor<4xi32>, tensor<4xi32>
}

// -----

// A loop's result that may be another result of the function (no
// iteration leaves it the initial value, which is returned too): the same
// storage would go back twice, so the loop's result is copied (random test
// seed 16: "the buffer was already deallocated").
// CHECK-LABEL: func.func @returns_carried_twice(
// CHECK: %[[X:.+]] = stream.async.dispatch.entry
// CHECK: %[[R:.+]] = scf.for {{.+}} iter_args(%{{.+}} = %[[X]])
// CHECK: %[[C:.+]] = stream.async.transfer %[[R]]
// CHECK: stream.tensor.export %[[C]]
// CHECK: stream.tensor.export %[[X]]
func.func @returns_carried_twice(%a: tensor<4xi32>, %n: index) -> (tensor<4xi32>, tensor<4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.addi %a, %a : tensor<4xi32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<4xi32>) {
    %y = arith.addi %acc, %acc : tensor<4xi32>
    scf.yield %y : tensor<4xi32>
  }
  return %r, %x : tensor<4xi32>, tensor<4xi32>
}
