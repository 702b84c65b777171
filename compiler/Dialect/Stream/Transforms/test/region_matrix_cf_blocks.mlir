// RUN: ferry-opt %s --split-input-file --convert-input-to-stream --ferry-canonicalize --cse --stream-materialize-copy-on-write --stream-elide-async-copies --stream-reuse-operand-storage | FileCheck %s --check-prefix=ASYNC
// RUN: ferry-opt %s --split-input-file --convert-input-to-stream --ferry-canonicalize --cse --stream-materialize-copy-on-write --stream-elide-async-copies --stream-reuse-operand-storage --stream-schedule-allocation --stream-form-execution-regions --stream-automatic-reference-counting 2>/dev/null | FileCheck %s --check-prefix=CMD

// Issue 15's matrix of region kinds and memory behaviours for the `cf`
// blocks kind: tensor programs written with cf.br / cf.cond_br, lifted to
// scf by the import, then through ferry-compile's passes up to copy
// elision (ASYNC) and up to reference counting (CMD). Lifting yields
// `ub.poison` on the paths that never use a value; each use gets a poison
// (so an allocation) of its own, or the loop's carried positions would mix
// a value captured from outside the loop with the program's own, and their
// allocations would be indeterminate.

// A loop of blocks adding a captured value to its accumulator, lifted to
// an scf.while in the usual form (the test in the before region, the body
// in the after region): the body's add is the accumulator's last use, so
// the add writes it in place (no copy, no allocation in the loop, before
// allocation). No allocation is indeterminate; none is made or freed in the
// loop; the captured value is freed right after the loop (on its done
// timepoint), the loop's result, read on the host, after that read (CMD).
// ASYNC-LABEL: func.func @cf_loop(
// ASYNC-NOT: stream.async.clone
// ASYNC: scf.while (%{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{.+}})
// ASYNC-NOT: stream.async.alloca
// ASYNC: } do {
// ASYNC-NEXT: ^bb0(%{{[^ ]+}}: i32, %[[ACC:[^ ]+]]: !stream.resource<*>):
// ASYNC-NOT: stream.async.alloca
// ASYNC: stream.async.dispatch.entry {{.+}}(%{{.+}}, %[[ACC]]) : {{.+}} -> %[[ACC]]{
// ASYNC-NOT: stream.async.alloca
// ASYNC-NOT: stream.async.clone
// ASYNC: return
// CMD-LABEL: func.func @cf_loop(
// CMD-NOT: indeterminate
// CMD: %[[CAP:.+]], %{{.+}} = stream.resource.alloca uninitialized :
// CMD: %[[INIT:.+]], %{{.+}} = stream.resource.alloca uninitialized :
// CMD-NOT: indeterminate
// CMD: %[[W:.+]]:4 = scf.while (%{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %[[INIT]],
// CMD-NOT: stream.resource.alloca
// CMD-NOT: stream.resource.dealloca
// CMD: } do {
// CMD-NEXT: ^bb0(%{{[^ ]+}}: i32, %[[A:[^ ]+]]: !stream.resource<transient>,
// CMD-NOT: stream.resource.alloca
// CMD-NOT: stream.resource.dealloca
// CMD: stream.cmd.dispatch.entry {{.+}} output(1) {{.+}}(%[[CAP]], %[[A]])
// CMD-NOT: stream.resource.alloca
// CMD-NOT: stream.resource.dealloca
// CMD: %[[J:.+]] = stream.timepoint.join max(%{{.+}}, %[[W]]#3, %{{.+}})
// CMD-NEXT: stream.resource.dealloca origin await(%[[J]]) %[[CAP]] :
// CMD: stream.resource.load
// CMD-NEXT: stream.resource.size %[[W]]#1
// CMD-NEXT: stream.resource.dealloca origin await(%[[W]]#2) %[[W]]#1 :
func.func @cf_loop(%x: tensor<4xi32>, %n: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %cap = arith.addi %x, %x : tensor<4xi32>
  %e = tensor.empty() : tensor<4xi32>
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  cf.br ^head(%zero, %init : i32, tensor<4xi32>)
^head(%i: i32, %acc: tensor<4xi32>):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit, ^body
^body:
  %y = arith.addi %acc, %cap : tensor<4xi32>
  %i1 = arith.addi %i, %one : i32
  cf.br ^head(%i1, %y : i32, tensor<4xi32>)
^exit:
  %v = tensor.extract %acc[%c0] : tensor<4xi32>
  return %v : i32
}

// -----

// A loop of blocks whose body makes a temporary and reads it on the host:
// the temporary is freed in the body after the read, the free folded into
// the done timepoint the body passes on; the captured value is freed right
// after the loop.
// CMD-LABEL: func.func @cf_loop_local(
// CMD: %[[CAP:.+]], %{{.+}} = stream.resource.alloca uninitialized :
// CMD: %[[W:.+]]:4 = scf.while
// CMD: } else {
// CMD-NEXT: %[[T:.+]], %{{.+}} = stream.resource.alloca uninitialized :
// CMD: %[[D:.+]] = stream.cmd.dispatch.entry {{.+}}(%[[CAP]], %[[CAP]], %[[T]])
// CMD: stream.resource.load
// CMD-NEXT: %[[F:.+]] = stream.resource.dealloca origin await(%[[D]]) %[[T]] :
// CMD: %[[JF:.+]] = stream.timepoint.join max(%{{.+}}, %[[F]])
// CMD-NEXT: scf.yield %{{.+}}, %{{.+}}, %[[JF]] :
// CMD: } do {
// CMD-NOT: stream.resource.dealloca
// CMD: scf.yield
// CMD-NEXT: }
// CMD-NEXT: %[[J:.+]] = stream.timepoint.join max(%{{.+}}, %[[W]]#3, %{{.+}})
// CMD-NEXT: stream.resource.dealloca origin await(%[[J]]) %[[CAP]] :
func.func @cf_loop_local(%x: tensor<4xi32>, %n: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %cap = arith.addi %x, %x : tensor<4xi32>
  cf.br ^head(%zero, %zero : i32, i32)
^head(%i: i32, %s: i32):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit, ^body
^body:
  %t = arith.muli %cap, %cap : tensor<4xi32>
  %e = tensor.extract %t[%c0] : tensor<4xi32>
  %s1 = arith.addi %s, %e : i32
  %i1 = arith.addi %i, %one : i32
  cf.br ^head(%i1, %s1 : i32, i32)
^exit:
  return %s : i32
}

// -----

// A loop of blocks passing a host input on unchanged and reading it: a
// read-only pass, no copy. (Before each use had its own poison, the
// canonicalizer folded the lifted branch yielding the input or the shared
// poison into an arith.select of resources, which allocation scheduling
// refused.) The exit passes the input on too rather than a placeholder,
// so the loop stops carrying it: the input is read in place and nothing
// is allocated, none of it indeterminate (the placeholder's allocation
// shared a carried position with the input: its owner was unknown).
// ASYNC-LABEL: func.func @cf_loop_read_only(
// ASYNC-NOT: stream.async.clone
// ASYNC-NOT: arith.select
// ASYNC-NOT: stream.async.alloca
// ASYNC: return
// CMD-LABEL: func.func @cf_loop_read_only(
// CMD-NOT: indeterminate
// CMD-NOT: stream.resource.alloca
// CMD: scf.while (%{{[^ ]+}} = %{{[^ ]+}}, %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) : (i32, i32, !stream.timepoint)
// CMD-NOT: indeterminate
// CMD-NOT: stream.resource.alloca
// CMD: return
func.func @cf_loop_read_only(%x: tensor<4xi32>, %n: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  cf.br ^head(%zero, %x, %zero : i32, tensor<4xi32>, i32)
^head(%i: i32, %v: tensor<4xi32>, %s: i32):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit, ^body
^body:
  %e = tensor.extract %v[%c0] : tensor<4xi32>
  %s1 = arith.addi %s, %e : i32
  %i1 = arith.addi %i, %one : i32
  cf.br ^head(%i1, %v, %s1 : i32, tensor<4xi32>, i32)
^exit:
  return %s : i32
}

// -----

// A loop of blocks writing a slice of its accumulator (an insert_slice):
// the condition passes the accumulator on, so each iteration updates it in
// place: no copy and no allocation in the loop (ASYNC), nothing made
// or freed in it (CMD).
// ASYNC-LABEL: func.func @cf_loop_insert_slice(
// ASYNC-NOT: stream.async.clone
// ASYNC: scf.while
// ASYNC-NOT: stream.async.alloca
// ASYNC: } do {
// ASYNC-NEXT: ^bb0(%{{[^ ]+}}: i32, %[[ACC:[^ ]+]]: !stream.resource<*>):
// ASYNC-NOT: stream.async.alloca
// ASYNC: stream.async.update %{{.+}}, %[[ACC]][
// ASYNC-NOT: stream.async.alloca
// ASYNC-NOT: stream.async.clone
// ASYNC: return
// CMD-LABEL: func.func @cf_loop_insert_slice(
// CMD-NOT: indeterminate
// CMD: %[[W:.+]]:4 = scf.while
// CMD-NOT: stream.resource.alloca
// CMD-NOT: stream.resource.dealloca
// CMD: } do {
// CMD-NEXT: ^bb0(%{{[^ ]+}}: i32, %[[A:[^ ]+]]: !stream.resource<transient>,
// CMD-NOT: stream.resource.alloca
// CMD-NOT: stream.resource.dealloca
// CMD: stream.cmd.copy %{{.+}}, %[[A]][
// CMD-NOT: stream.resource.alloca
// CMD-NOT: stream.resource.dealloca
// CMD: stream.resource.load
// CMD-NEXT: stream.resource.size %[[W]]#1
// CMD-NEXT: stream.resource.dealloca origin await(%[[W]]#2) %[[W]]#1 :
func.func @cf_loop_insert_slice(%x: tensor<8xi32>, %t: tensor<2xi32>, %n: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %three = arith.constant 3 : i32
  %c0 = arith.constant 0 : index
  %init = arith.addi %x, %x : tensor<8xi32>
  cf.br ^head(%zero, %init : i32, tensor<8xi32>)
^head(%i: i32, %acc: tensor<8xi32>):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit, ^body
^body:
  %slot = arith.andi %i, %three : i32
  %idx = arith.index_castui %slot : i32 to index
  %y = tensor.insert_slice %t into %acc[%idx] [2] [1] : tensor<2xi32> into tensor<8xi32>
  %i1 = arith.addi %i, %one : i32
  cf.br ^head(%i1, %y : i32, tensor<8xi32>)
^exit:
  %v = tensor.extract %acc[%c0] : tensor<8xi32>
  return %v : i32
}

// -----

// The same, the accumulator's initial value read again after the loop: the
// write in the loop may reach it (on the first iteration), so it keeps a
// copy, made once before the loop (as for a loop written as scf.for), not
// in the loop every iteration; each iteration updates the copy in place
// (ASYNC), which the loop owns: no owned flag, nothing made or freed in
// the loop (CMD).
// ASYNC-LABEL: func.func @cf_loop_read_after(
// ASYNC: %[[INIT:.+]] = stream.async.dispatch.entry
// ASYNC-NEXT: %[[COPY:.+]] = stream.async.clone %[[INIT]]
// ASYNC-NEXT: scf.while (%{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %[[COPY]])
// ASYNC-NOT: stream.async.clone
// ASYNC: } do {
// ASYNC-NEXT: ^bb0(%{{[^ ]+}}: i32, %[[ACC:[^ ]+]]: !stream.resource<*>):
// ASYNC-NEXT: stream.async.update %{{.+}}, %[[ACC]][
// ASYNC-NOT: stream.async.clone
// ASYNC: stream.resource.load %[[INIT]]
// CMD-LABEL: func.func @cf_loop_read_after(
// CMD: stream.cmd.copy
// CMD-NEXT: stream.timepoint.immediate
// CMD-NEXT: scf.while (%{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}) : (i32, !stream.resource<transient>, !stream.timepoint, !stream.timepoint)
// CMD-NOT: stream.resource.alloca
// CMD-NOT: stream.resource.dealloca
// CMD: } do {
// CMD-NEXT: ^bb0(%{{[^ ]+}}: i32, %[[A:[^ ]+]]: !stream.resource<transient>,
// CMD-NOT: stream.resource.alloca
// CMD-NOT: stream.resource.dealloca
// CMD: stream.cmd.copy %{{.+}}, %[[A]][
// CMD-NOT: stream.resource.alloca
// CMD-NOT: stream.resource.dealloca
// CMD: scf.yield
func.func @cf_loop_read_after(%x: tensor<8xi32>, %t: tensor<2xi32>, %n: i32) -> (i32, i32) {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %init = arith.addi %x, %x : tensor<8xi32>
  cf.br ^head(%zero, %init : i32, tensor<8xi32>)
^head(%i: i32, %acc: tensor<8xi32>):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit, ^body
^body:
  %y = tensor.insert_slice %t into %acc[%c0] [2] [1] : tensor<2xi32> into tensor<8xi32>
  %i1 = arith.addi %i, %one : i32
  cf.br ^head(%i1, %y : i32, tensor<8xi32>)
^exit:
  %v = tensor.extract %acc[%c0] : tensor<8xi32>
  %u = tensor.extract %init[%c0] : tensor<8xi32>
  return %v, %u : i32, i32
}

// -----

// Two paths, one writing a value made before the branch in place (an
// insert_slice), the other reading it: nothing after the join reads the
// value, so no copy; the joined value, read on the host, is freed after
// that read. (Both paths write the value's storage: the joined value is
// that storage, freed after the branch is done.)
// ASYNC-LABEL: func.func @cf_diamond_one_branch(
// ASYNC: %[[CAP:.+]] = stream.async.dispatch.entry
// ASYNC-NOT: stream.async.clone
// ASYNC: stream.async.update %{{.+}}, %[[CAP]][
// ASYNC-NOT: stream.async.clone
// ASYNC: return
// CMD-LABEL: func.func @cf_diamond_one_branch(
// CMD: %[[CAP:.+]], %{{.+}} = stream.resource.alloca uninitialized :
// CMD: %[[IF:.+]]:3 = scf.if
// CMD: stream.resource.load
// CMD-NEXT: stream.timepoint.join max(%{{.+}}, %[[IF]]#2,
// CMD-NEXT: stream.resource.dealloca origin await(%{{.+}}) %[[CAP]] :
func.func @cf_diamond_one_branch(%x: tensor<8xi32>, %t: tensor<2xi32>, %c: i1) -> i32 {
  %c0 = arith.constant 0 : index
  %cap = arith.addi %x, %x : tensor<8xi32>
  cf.cond_br %c, ^then, ^else
^then:
  %w = tensor.insert_slice %t into %cap[%c0] [2] [1] : tensor<2xi32> into tensor<8xi32>
  cf.br ^join(%w : tensor<8xi32>)
^else:
  %e = arith.subi %cap, %x : tensor<8xi32>
  cf.br ^join(%e : tensor<8xi32>)
^join(%r: tensor<8xi32>):
  %v = tensor.extract %r[%c0] : tensor<8xi32>
  return %v : i32
}

// -----

// The same, the value read again after the join: the path that writes it
// keeps its copy.
// ASYNC-LABEL: func.func @cf_diamond_read_after(
// ASYNC: %[[CAP:.+]] = stream.async.dispatch.entry
// ASYNC: scf.if
// ASYNC-NEXT: %[[COPY:.+]] = stream.async.clone %[[CAP]]
// ASYNC-NEXT: stream.async.update %{{.+}}, %[[COPY]][
// ASYNC: stream.resource.load %[[CAP]]
func.func @cf_diamond_read_after(%x: tensor<8xi32>, %t: tensor<2xi32>, %c: i1) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %cap = arith.addi %x, %x : tensor<8xi32>
  cf.cond_br %c, ^then, ^else
^then:
  %w = tensor.insert_slice %t into %cap[%c0] [2] [1] : tensor<2xi32> into tensor<8xi32>
  cf.br ^join(%w : tensor<8xi32>)
^else:
  %e = arith.subi %cap, %x : tensor<8xi32>
  cf.br ^join(%e : tensor<8xi32>)
^join(%r: tensor<8xi32>):
  %v = tensor.extract %r[%c0] : tensor<8xi32>
  %u = tensor.extract %cap[%c0] : tensor<8xi32>
  return %v, %u : i32, i32
}

// -----

// Both paths write the value in place (two insert_slices): no copy in
// either; the joined value (the value's storage) is freed after its host
// read.
// ASYNC-LABEL: func.func @cf_diamond_both(
// ASYNC: %[[CAP:.+]] = stream.async.dispatch.entry
// ASYNC-NOT: stream.async.clone
// ASYNC: stream.async.update %{{.+}}, %[[CAP]][
// ASYNC: } else {
// ASYNC-NEXT: stream.async.update %{{.+}}, %[[CAP]][
// ASYNC-NOT: stream.async.clone
// ASYNC: return
// CMD-LABEL: func.func @cf_diamond_both(
// CMD: %[[CAP:.+]], %{{.+}} = stream.resource.alloca uninitialized :
// CMD: %[[IF:.+]]:3 = scf.if
// CMD: stream.resource.load
// CMD-NEXT: stream.timepoint.join max(%{{.+}}, %[[IF]]#2,
// CMD-NEXT: stream.resource.dealloca origin await(%{{.+}}) %[[CAP]] :
func.func @cf_diamond_both(%x: tensor<8xi32>, %t: tensor<2xi32>, %c: i1) -> i32 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %cap = arith.addi %x, %x : tensor<8xi32>
  cf.cond_br %c, ^then, ^else
^then:
  %w = tensor.insert_slice %t into %cap[%c0] [2] [1] : tensor<2xi32> into tensor<8xi32>
  cf.br ^join(%w : tensor<8xi32>)
^else:
  %e = tensor.insert_slice %t into %cap[%c2] [2] [1] : tensor<2xi32> into tensor<8xi32>
  cf.br ^join(%e : tensor<8xi32>)
^join(%r: tensor<8xi32>):
  %v = tensor.extract %r[%c0] : tensor<8xi32>
  return %v : i32
}

// -----

// One path makes a temporary (a broadcast) and reads it on the host: it is
// freed on that path after the read, folded into the done timepoint the
// path yields; the value made before the branch, used on that path only,
// is freed right after the branch on its done timepoint.
// CMD-LABEL: func.func @cf_diamond_local(
// CMD: %[[CAP:.+]], %{{.+}} = stream.resource.alloca uninitialized :
// CMD: %[[IF:.+]]:2 = scf.if
// CMD: %[[T:.+]], %{{.+}} = stream.resource.alloca uninitialized :
// CMD: %[[D:.+]] = stream.cmd.dispatch.entry {{.+}}(%[[CAP]], %[[T]])
// CMD: stream.resource.load
// CMD-NEXT: %[[F:.+]] = stream.resource.dealloca origin await(%[[D]]) %[[T]] :
// CMD: %[[JF:.+]] = stream.timepoint.join max(%{{.+}}, %[[F]])
// CMD-NEXT: scf.yield %{{.+}}, %[[JF]] :
// CMD: } else {
// CMD-NOT: stream.resource.dealloca
// CMD: }
// CMD-NEXT: %[[J:.+]] = stream.timepoint.join max(%{{.+}}, %[[IF]]#1, %{{.+}})
// CMD-NEXT: stream.resource.dealloca origin await(%[[J]]) %[[CAP]] :
func.func @cf_diamond_local(%x: tensor<4xi32>, %c: i1) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %cap = arith.addi %x, %x : tensor<4xi32>
  cf.cond_br %c, ^then, ^else
^then:
  %e = tensor.empty() : tensor<2x4xi32>
  %t = linalg.broadcast ins(%cap : tensor<4xi32>) outs(%e : tensor<2x4xi32>) dimensions = [0]
  %s = tensor.extract %t[%c1, %c0] : tensor<2x4xi32>
  cf.br ^join(%s : i32)
^else:
  cf.br ^join(%zero : i32)
^join(%r: i32):
  return %r : i32
}

// -----

// A loop of blocks whose body branches, each path updating the accumulator
// in place (an elementwise add or multiply into it): no copy and no
// allocation in the loop (ASYNC). Both branches of the inner if yield the
// accumulator's storage, so allocation scheduling makes the if's result
// that storage: the condition passes the accumulator the iteration
// received, owned by the loop throughout (no owned flag, no indeterminate
// value), and the loop's result is freed after its host read (CMD).
// ASYNC-LABEL: func.func @cf_loop_branches_in_place(
// ASYNC: scf.while (%{{[^ ]+}} = %{{[^ ]+}}, %[[ACC:[^ ]+]] = %{{.+}})
// ASYNC-NOT: stream.async.alloca
// ASYNC-NOT: stream.async.clone
// ASYNC: stream.async.dispatch.entry {{.+}} -> %[[ACC]]{
// ASYNC-NOT: stream.async.alloca
// ASYNC: stream.async.dispatch.entry {{.+}} -> %[[ACC]]{
// ASYNC-NOT: stream.async.alloca
// ASYNC-NOT: stream.async.clone
// ASYNC: return
// CMD-LABEL: func.func @cf_loop_branches_in_place(
// CMD: %[[W:.+]]:4 = scf.while (%{{[^ ]+}} = %{{[^ ]+}}, %[[A:[^ ]+]] = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}) : (i32, !stream.resource<transient>, !stream.timepoint, !stream.timepoint)
// CMD-NOT: stream.resource.alloca
// CMD-NOT: stream.resource.dealloca
// CMD: scf.condition(%{{.+}}) %{{.+}}, %[[A]], %{{.+}}, %{{.+}} :
// CMD: } do {
// CMD-NOT: stream.resource.dealloca
// CMD: stream.resource.load
// CMD-NEXT: stream.resource.size %[[W]]#1
// CMD-NEXT: stream.resource.dealloca origin await(%[[W]]#2) %[[W]]#1 :
func.func @cf_loop_branches_in_place(%x: tensor<8xi32>, %n: i32, %c: i1) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %init = arith.addi %x, %x : tensor<8xi32>
  cf.br ^head(%zero, %init : i32, tensor<8xi32>)
^head(%i: i32, %acc: tensor<8xi32>):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit, ^body
^body:
  %i1 = arith.addi %i, %one : i32
  cf.cond_br %c, ^a, ^b
^a:
  %ya = arith.addi %acc, %x : tensor<8xi32>
  cf.br ^head(%i1, %ya : i32, tensor<8xi32>)
^b:
  %yb = arith.muli %acc, %x : tensor<8xi32>
  cf.br ^head(%i1, %yb : i32, tensor<8xi32>)
^exit:
  %v = tensor.extract %acc[%c0] : tensor<8xi32>
  return %v : i32
}

// -----

// A cf.switch (lifted to an scf.index_switch) whose cases join a value made
// before it (read again after the join: lent) or new ones: the switch's
// position carries an owned flag as an scf.if's does (false where the case
// passes the lent value, true where it passes its own), and the joined
// value is freed under it; the lent value is freed after its last use.
// CMD-LABEL: func.func @cf_switch_lent_or_new(
// CMD: %[[Y:.+]], %{{.+}} = stream.resource.alloca uninitialized :
// CMD: %[[SW:.+]]:4 = scf.index_switch %{{.+}} -> !stream.resource<transient>, i1, !stream.timepoint, !stream.timepoint
// CMD: case 0 {
// CMD: scf.yield %{{.+}}, %true,
// CMD: case 1 {
// CMD: scf.yield %[[Y]], %false,
// CMD: default {
// CMD: scf.yield %{{.+}}, %true,
// CMD: stream.resource.dealloca origin if(%[[SW]]#1) await(%{{.+}}) %[[SW]]#0 :
// CMD: stream.resource.dealloca origin await(%{{.+}}) %[[Y]] :
func.func @cf_switch_lent_or_new(%x: tensor<4xi32>, %k: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %y = arith.addi %x, %x : tensor<4xi32>
  cf.switch %k : i32, [
    default: ^d,
    0: ^a,
    1: ^b
  ]
^a:
  %ya = arith.muli %y, %x : tensor<4xi32>
  cf.br ^join(%ya : tensor<4xi32>)
^b:
  cf.br ^join(%y : tensor<4xi32>)
^d:
  %yd = arith.subi %y, %x : tensor<4xi32>
  cf.br ^join(%yd : tensor<4xi32>)
^join(%r: tensor<4xi32>):
  %s = arith.addi %r, %y : tensor<4xi32>
  %v = tensor.extract %s[%c0] : tensor<4xi32>
  return %v : i32
}
