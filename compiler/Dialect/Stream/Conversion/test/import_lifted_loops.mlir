// RUN: ferry-opt %s --split-input-file --convert-input-to-stream | FileCheck %s

// Lifting a loop of blocks rotates it: the before region runs the whole
// iteration in an scf.if whose constant yields decide whether the loop
// goes on, and the condition passes out, besides what the next iteration
// reads, the old accumulator the exit needs, still live after the body
// overwrote it. The import merges the positions of one type whose values
// are never needed on the same path: the exit passes the accumulator it
// received, the other path the body's new one, in one carried position.
// A loop whose only exit is its header's test is then put back in the
// usual form: the test in the before region, which passes the carried
// values on, and the body in the after region.

// One exit: the loop carries one resource; the condition passes the
// accumulator the iteration received, the after region reads it and
// yields the one it made; nothing is allocated in the before region.
// CHECK-LABEL: func.func @accumulate(
// CHECK: %[[W:.+]]:2 = scf.while (%{{[^ ]+}} = %{{[^ ]+}}, %[[ACC:[^ ]+]] = %{{.+}}) : (i32, !stream.resource<*>) -> (i32, !stream.resource<*>) {
// CHECK-NOT: stream.async.alloca
// CHECK: scf.condition(%{{.+}}) %{{.+}}, %[[ACC]] : i32, !stream.resource<*>
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%{{[^ ]+}}: i32, %[[A:[^ ]+]]: !stream.resource<*>):
// CHECK: %[[Y:.+]] = stream.async.dispatch.entry {{.+}}(%[[A]], %{{.+}})
// CHECK: scf.yield %{{.+}}, %[[Y]] :
// CHECK: stream.resource.load %[[W]]#1
func.func @accumulate(%x: tensor<4xi32>, %n: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<4xi32>
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  cf.br ^head(%zero, %init : i32, tensor<4xi32>)
^head(%i: i32, %acc: tensor<4xi32>):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit, ^body
^body:
  %y = arith.addi %acc, %x : tensor<4xi32>
  %i1 = arith.addi %i, %one : i32
  cf.br ^head(%i1, %y : i32, tensor<4xi32>)
^exit:
  %v = tensor.extract %acc[%c0] : tensor<4xi32>
  return %v : i32
}

// -----

// Two exits (the head's, with the accumulator received, and one in the
// middle of the body, with the value made there) and a branch in the body:
// lifting makes a tree of ifs and passes each exit's value in a position
// of its own. All three positions merge into one: each leaf of the tree
// yields the value that matters there, the loop carries one resource and
// both exits read its one result (no poison, so no allocation but the
// body's own, on any path).
// CHECK-LABEL: func.func @two_exits(
// CHECK: %[[W:.+]]:3 = scf.while (%{{[^ ]+}} = %{{[^ ]+}}, %[[ACC:[^ ]+]] = %{{.+}}) : (i32, !stream.resource<external>) -> (i32, !stream.resource<external>, i32) {
// CHECK: scf.if %{{.+}} -> (i32, i32, i32, !stream.resource<external>) {
// CHECK-NEXT: scf.yield %{{.+}}, %{{.+}}, %{{.+}}, %[[ACC]] :
// CHECK-NEXT: } else {
// CHECK-NEXT: stream.tensor.sizeof
// CHECK-NEXT: %[[NEW:.+]] = stream.async.alloca
// CHECK: %[[Y:.+]] = stream.async.dispatch.entry {{.+}} -> %[[NEW]]{
// CHECK: scf.if %{{.+}} -> (i32, i32, i32, !stream.resource<external>) {
// CHECK-NEXT: scf.yield %{{.+}}, %{{.+}}, %{{.+}}, %[[Y]] :
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.if %{{.+}} -> (!stream.resource<external>) {
// CHECK: %[[M:.+]] = stream.async.dispatch.entry {{.+}}(%[[Y]], %[[Y]],
// CHECK: scf.yield %[[M]] :
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[Y]] :
// CHECK: scf.condition(%{{.+}}) %{{.+}}, %{{.+}}, %{{.+}} : i32, !stream.resource<external>, i32
// CHECK: scf.index_switch
// CHECK: stream.resource.load %[[W]]#1
// CHECK: default
// CHECK: stream.resource.load %[[W]]#1
func.func @two_exits(%x: tensor<4xi32>, %n: i32, %c: i1) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  cf.br ^head(%zero, %x : i32, tensor<4xi32>)
^head(%i: i32, %acc: tensor<4xi32>):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit(%acc : tensor<4xi32>), ^body
^body:
  %y = arith.addi %acc, %x : tensor<4xi32>
  %i1 = arith.addi %i, %one : i32
  %e = tensor.extract %y[%c0] : tensor<4xi32>
  %big = arith.cmpi sgt, %e, %n : i32
  cf.cond_br %big, ^exit2, ^br
^br:
  cf.cond_br %c, ^a, ^b
^a:
  %ya = arith.muli %y, %y : tensor<4xi32>
  cf.br ^head(%i1, %ya : i32, tensor<4xi32>)
^b:
  cf.br ^head(%i1, %y : i32, tensor<4xi32>)
^exit2:
  %r2 = tensor.extract %y[%c0] : tensor<4xi32>
  return %r2 : i32
^exit(%z: tensor<4xi32>):
  %v = tensor.extract %z[%c0] : tensor<4xi32>
  return %v : i32
}

// -----

// Nested loops of blocks: each lifted loop carries one resource, and each
// condition passes on the accumulator its loop received; the outer body
// lends its accumulator to the inner loop and yields the inner result.
// CHECK-LABEL: func.func @nested(
// CHECK: scf.while (%{{[^ ]+}} = %{{[^ ]+}}, %[[OUTER:[^ ]+]] = %{{.+}}) : (i32, !stream.resource<*>) -> (i32, !stream.resource<*>) {
// CHECK: scf.condition(%{{.+}}) %{{.+}}, %[[OUTER]] : i32, !stream.resource<*>
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%{{[^ ]+}}: i32, %[[O:[^ ]+]]: !stream.resource<*>):
// CHECK: %[[IW:.+]]:2 = scf.while (%{{[^ ]+}} = %{{[^ ]+}}, %[[INNER:[^ ]+]] = %[[O]]) : (i32, !stream.resource<*>) -> (i32, !stream.resource<*>) {
// CHECK: scf.condition(%{{.+}}) %{{.+}}, %[[INNER]] : i32, !stream.resource<*>
// CHECK: scf.yield %{{.+}}, %[[IW]]#1 :
func.func @nested(%x: tensor<4xi32>, %n: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<4xi32>
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  cf.br ^head(%zero, %init : i32, tensor<4xi32>)
^head(%i: i32, %acc: tensor<4xi32>):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit, ^ihead(%zero, %acc : i32, tensor<4xi32>)
^ihead(%j: i32, %a2: tensor<4xi32>):
  %idone = arith.cmpi sge, %j, %i : i32
  cf.cond_br %idone, ^latch, ^ibody
^ibody:
  %y = arith.addi %a2, %x : tensor<4xi32>
  %j1 = arith.addi %j, %one : i32
  cf.br ^ihead(%j1, %y : i32, tensor<4xi32>)
^latch:
  %i1 = arith.addi %i, %one : i32
  cf.br ^head(%i1, %a2 : i32, tensor<4xi32>)
^exit:
  %v = tensor.extract %acc[%c0] : tensor<4xi32>
  return %v : i32
}

// -----

// An exit in the middle of the body whose tensor nothing reads after the
// loop: no exit needs the accumulator, so the exit before the body passes
// the one the iteration received and the one in the body the one it made
// (the same as going on: the inner if yields no resource), never a poison
// (an allocation per iteration), and the old accumulator is read on no
// path after the body.
// CHECK-LABEL: func.func @exit_in_body_unused(
// CHECK: scf.while (%{{[^ ]+}} = %{{[^ ]+}}, %[[ACC:[^ ]+]] = %{{[^ ]+}}, %{{.+}}) : (index, !stream.resource<*>, i16) -> (index, !stream.resource<*>, i16, i16) {
// CHECK: scf.if %{{.+}} -> (index, i16, i16, i32, !stream.resource<*>) {
// CHECK-NEXT: scf.yield %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[ACC]] :
// CHECK-NEXT: } else {
// CHECK-NEXT: stream.tensor.sizeof
// CHECK-NEXT: %[[NEW:.+]] = stream.async.alloca
// CHECK-NOT: stream.async.alloca
// CHECK: %[[T:.+]] = stream.async.dispatch.entry {{.+}}(%[[ACC]], %[[ACC]], %[[NEW]]) {{.+}} -> %[[NEW]]{
// CHECK-NOT: stream.async.alloca
// CHECK: scf.if %{{.+}} -> (index, i16, i16, i32) {
// CHECK-NOT: stream.async.alloca
// CHECK: scf.yield %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[T]] :
// CHECK-NEXT: }
// CHECK: } do {
func.func @exit_in_body_unused(%n: index, %s: i16) -> i16 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %h = arith.constant 0.5 : f64
  %e = tensor.empty() : tensor<3xf64>
  %init = linalg.fill ins(%h : f64) outs(%e : tensor<3xf64>) -> tensor<3xf64>
  cf.br ^head(%c0, %init, %s : index, tensor<3xf64>, i16)
^head(%i: index, %acc: tensor<3xf64>, %sa: i16):
  %stop = arith.cmpi sge, %i, %n : index
  cf.cond_br %stop, ^exit(%acc, %sa : tensor<3xf64>, i16), ^body
^body:
  %t = arith.subf %acc, %acc : tensor<3xf64>
  %s1 = arith.addi %sa, %sa : i16
  %i1 = arith.addi %i, %c1 : index
  %brk = arith.cmpi slt, %i, %c2 : index
  cf.cond_br %brk, ^exit(%t, %s1 : tensor<3xf64>, i16), ^head(%i1, %t, %s1 : index, tensor<3xf64>, i16)
^exit(%l: tensor<3xf64>, %r: i16):
  return %r : i16
}

// -----

// Two accumulators of one type, the second read after the loop: each
// position carries its own, the exit passes each the one it received (the
// second's old value must not go to the first's position, or the first's
// would take the same value: one value in two carried positions).
// CHECK-LABEL: func.func @two_accumulators(
// CHECK: %[[W:.+]]:3 = scf.while (%{{[^ ]+}} = %{{[^ ]+}}, %[[P:[^ ]+]] = %{{[^ ]+}}, %[[Q:[^ ]+]] = %{{[^ ]+}}) : (index, !stream.resource<*>, !stream.resource<*>) -> (index, !stream.resource<*>, !stream.resource<*>) {
// CHECK: scf.condition(%{{.+}}) %{{.+}}, %[[P]], %[[Q]] : index, !stream.resource<*>, !stream.resource<*>
// CHECK: stream.resource.load %[[W]]#2
func.func @two_accumulators(%x: tensor<4xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = arith.addf %x, %x : tensor<4xf32>
  %b = arith.mulf %x, %x : tensor<4xf32>
  cf.br ^head(%c0, %a, %b : index, tensor<4xf32>, tensor<4xf32>)
^head(%i: index, %p: tensor<4xf32>, %q: tensor<4xf32>):
  %stop = arith.cmpi sge, %i, %n : index
  cf.cond_br %stop, ^exit(%p, %q : tensor<4xf32>, tensor<4xf32>), ^body
^body:
  %p1 = arith.addf %p, %q : tensor<4xf32>
  %q1 = arith.mulf %q, %p : tensor<4xf32>
  %i1 = arith.addi %i, %c1 : index
  cf.br ^head(%i1, %p1, %q1 : index, tensor<4xf32>, tensor<4xf32>)
^exit(%r: tensor<4xf32>, %s: tensor<4xf32>):
  %v = tensor.extract %s[%c0] : tensor<4xf32>
  return %v : f32
}

// -----

// An exit in the middle of the body passing a value the loop does not
// carry, which the body only reads: the path that goes on passes it too
// (to an after-region argument nothing reads) rather than a poison, which
// the import would allocate every iteration.
// CHECK-LABEL: func.func @exit_in_body_uncarried(
// CHECK: scf.while
// CHECK-NOT: stream.async.alloca
// CHECK: } else {
// CHECK-NEXT: stream.tensor.sizeof
// CHECK-NEXT: %[[NEW:.+]] = stream.async.alloca
// CHECK-NOT: stream.async.alloca
// CHECK: %[[T:.+]] = stream.async.dispatch.entry {{.+}} -> %[[NEW]]{
// CHECK-NOT: stream.async.alloca
// CHECK: scf.yield %{{.+}}, %{{.+}}, %[[T]] :
// CHECK-NEXT: }
// CHECK: } do {
func.func @exit_in_body_uncarried(%x: tensor<4xi32>, %n: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  cf.br ^head(%zero : i32)
^head(%i: i32):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit(%x : tensor<4xi32>), ^body
^body:
  %t = arith.muli %x, %x : tensor<4xi32>
  %e = tensor.extract %t[%c0] : tensor<4xi32>
  %big = arith.cmpi sgt, %e, %n : i32
  %i1 = arith.addi %i, %one : i32
  cf.cond_br %big, ^exit(%t : tensor<4xi32>), ^head(%i1 : i32)
^exit(%r: tensor<4xi32>):
  %v = tensor.extract %r[%c0] : tensor<4xi32>
  return %v : i32
}

// -----

// A cf.switch in the body (lifted to an scf.index_switch inside the if of
// the exit test, whose cases yield the flag's constants): its cases are
// leaves of the flag's tree like an if's branches, so the positions merge
// as for an if: the loop carries one resource, the exit passes the
// accumulator it received, each case the one it made. Every case goes on,
// so the header's test is the only exit and the loop takes the usual
// form, the switch in its after region.
// CHECK-LABEL: func.func @switch_in_body(
// CHECK: %[[W:.+]]:2 = scf.while (%{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{.+}}) : (i32, !stream.resource<*>) -> (i32, !stream.resource<*>) {
// CHECK: scf.condition
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%{{[^ ]+}}: i32, %[[ACC:[^ ]+]]: !stream.resource<*>):
// CHECK: %[[SW:.+]] = scf.index_switch %{{.+}} -> !stream.resource<*>
// CHECK: case 0 {
// CHECK: %[[A:.+]] = stream.async.dispatch.entry {{.+}}(%[[ACC]], %{{.+}})
// CHECK-NEXT: scf.yield %[[A]] :
// CHECK: case 1 {
// CHECK: %[[B:.+]] = stream.async.dispatch.entry {{.+}}(%[[ACC]], %{{.+}})
// CHECK-NEXT: scf.yield %[[B]] :
// CHECK: default {
// CHECK: %[[D:.+]] = stream.async.dispatch.entry {{.+}}(%[[ACC]], %{{.+}})
// CHECK-NEXT: scf.yield %[[D]] :
// CHECK: scf.yield %{{.+}}, %[[SW]] :
// CHECK: stream.resource.load %[[W]]#1
func.func @switch_in_body(%x: tensor<4xi32>, %n: i32, %k: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<4xi32>
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  cf.br ^head(%zero, %init : i32, tensor<4xi32>)
^head(%i: i32, %acc: tensor<4xi32>):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit, ^body
^body:
  %i1 = arith.addi %i, %one : i32
  cf.switch %k : i32, [
    default: ^d,
    0: ^a,
    1: ^b
  ]
^a:
  %ya = arith.addi %acc, %x : tensor<4xi32>
  cf.br ^head(%i1, %ya : i32, tensor<4xi32>)
^b:
  %yb = arith.muli %acc, %x : tensor<4xi32>
  cf.br ^head(%i1, %yb : i32, tensor<4xi32>)
^d:
  %yd = arith.subi %acc, %x : tensor<4xi32>
  cf.br ^head(%i1, %yd : i32, tensor<4xi32>)
^exit:
  %v = tensor.extract %acc[%c0] : tensor<4xi32>
  return %v : i32
}

// -----

// The exit test itself a cf.switch (the top of the flag's tree an
// scf.index_switch): the exit case passes the accumulator the iteration
// received, the body's case the one it made, in one carried position.
// CHECK-LABEL: func.func @switch_exit_test(
// CHECK: %[[W:.+]]:2 = scf.while (%{{[^ ]+}} = %{{[^ ]+}}, %[[ACC:[^ ]+]] = %{{.+}}) : (i32, !stream.resource<*>) -> (i32, !stream.resource<*>) {
// CHECK: scf.index_switch %{{.+}} -> i32, i32, !stream.resource<*>
// CHECK: case 0 {
// CHECK-NEXT: scf.yield %{{.+}}, %{{.+}}, %[[ACC]] :
// CHECK: default {
// CHECK: %[[Y:.+]] = stream.async.dispatch.entry {{.+}}(%[[ACC]], %{{.+}})
// CHECK: scf.yield %{{.+}}, %{{.+}}, %[[Y]] :
// CHECK: scf.condition(%{{.+}}) %{{.+}}, %{{.+}} : i32, !stream.resource<*>
// CHECK: stream.resource.load %[[W]]#1
func.func @switch_exit_test(%x: tensor<4xi32>, %n: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<4xi32>
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  cf.br ^head(%zero, %init : i32, tensor<4xi32>)
^head(%i: i32, %acc: tensor<4xi32>):
  %left = arith.subi %n, %i : i32
  cf.switch %left : i32, [
    default: ^body,
    0: ^exit
  ]
^body:
  %y = arith.addi %acc, %x : tensor<4xi32>
  %i1 = arith.addi %i, %one : i32
  cf.br ^head(%i1, %y : i32, tensor<4xi32>)
^exit:
  %v = tensor.extract %acc[%c0] : tensor<4xi32>
  return %v : i32
}

// -----

// An exit in the middle of the body passing a new value (%t) the loop does
// not carry, which the path that goes on gives to an op that may write it
// in place (the add of %t to itself), while the exits never read the
// accumulator: the exit's position and the accumulator's merge (neither
// passes a value the iteration received), so each leaf passes the value
// that matters there (the exit before the body %x, the one in the body %t,
// the body the new accumulator) in one carried position, with no poison
// (an allocation every iteration) on the path that goes on.
// CHECK-LABEL: func.func @exit_in_body_written(
// CHECK: %[[X:.+]] = stream.tensor.import
// CHECK: scf.while (%{{[^ ]+}} = %{{[^ ]+}}, %[[ACC:[^ ]+]] = %{{[^ ]+}}) : (i32, !stream.resource<external>) -> (i32, !stream.resource<external>) {
// CHECK: scf.yield %{{.+}}, %{{.+}}, %[[X]] :
// CHECK-NEXT: } else {
// CHECK: %[[T:.+]] = stream.async.dispatch.entry {{.+}}(%[[ACC]], %[[X]], %{{.+}})
// CHECK: scf.if
// CHECK-NEXT: scf.yield %{{.+}}, %{{.+}}, %[[T]] :
// CHECK-NEXT: } else {
// CHECK-NEXT: stream.tensor.sizeof
// CHECK-NEXT: stream.async.alloca
// CHECK-NOT: stream.async.alloca
// CHECK: %[[U:.+]] = stream.async.dispatch.entry {{.+}}(%[[T]], %[[T]], %{{.+}})
// CHECK-NEXT: scf.yield %{{.+}}, %{{.+}}, %[[U]] :
// CHECK: scf.condition(%{{.+}}) %{{.+}}, %{{.+}} : i32, !stream.resource<external>
func.func @exit_in_body_written(%x: tensor<4xi32>, %n: i32) -> tensor<4xi32> {
  %zero = arith.constant 0 : i32
  %limit = arith.constant 1000 : i32
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<4xi32>
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  cf.br ^head(%zero, %init : i32, tensor<4xi32>)
^head(%i: i32, %acc: tensor<4xi32>):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit(%x : tensor<4xi32>), ^body
^body:
  %t = arith.addi %acc, %x : tensor<4xi32>
  %t0 = tensor.extract %t[%c0] : tensor<4xi32>
  %big = arith.cmpi sgt, %t0, %limit : i32
  %i1 = arith.addi %i, %one : i32
  cf.cond_br %big, ^exit(%t : tensor<4xi32>), ^cont
^cont:
  %u = arith.addi %t, %t : tensor<4xi32>
  cf.br ^head(%i1, %u : i32, tensor<4xi32>)
^exit(%r: tensor<4xi32>):
  return %r : tensor<4xi32>
}
