// RUN: ferry-opt %s --split-input-file --convert-input-to-stream --ferry-canonicalize --cse --stream-materialize-copy-on-write --stream-elide-async-copies --stream-reuse-operand-storage --stream-schedule-allocation --stream-form-execution-regions --stream-automatic-reference-counting 2>&1 | FileCheck %s --implicit-check-not=indeterminate

// A loop body passes on a value %t at one position and, at another, what a
// position %t was lent to holds, which may be %t itself. Nothing writes
// either, so copy-on-write shares them, and which of the two positions holds
// %t last depends on the run. Reference counting gives %t to its own
// position and, before the yield, copies what goes to the other where its
// owned flag is clear while %t's is set; that position owns what it gets
// then (its flag or-ed with %t's). Before, %t was indeterminate (random
// seeds 1977, 2513, 3287).

// An scf.if yields %t in one branch and a new value in the other: the copy
// is made where the branch yielding %t ran.
// CHECK-LABEL: func.func @branch_yields_it(
// CHECK: scf.for
// CHECK: %[[T:[a-z_0-9]+]], %{{.+}} = stream.resource.alloca uninitialized
// CHECK: %[[S:.+]]:4 = scf.if %{{.+}} -> (!stream.resource<external>, i1, !stream.timepoint, !stream.timepoint)
// CHECK: scf.yield %[[T]], %false
// CHECK: } else {
// CHECK: %[[NOT:.+]] = arith.xori %[[S]]#1, %{{.+}} : i1
// CHECK: %[[COND:.+]] = arith.andi %[[NOT]], %[[OWNED:.+]] : i1
// CHECK: %[[C:.+]]:3 = scf.if %[[COND]] -> (!stream.resource<external>, !stream.timepoint, !stream.timepoint)
// CHECK: %[[NEW:[a-z_0-9]+]], %{{.+}} = stream.resource.alloca uninitialized
// CHECK: stream.cmd.copy %[[S]]#0[%{{.+}}], %[[NEW]][
// CHECK: scf.yield %[[NEW]],
// CHECK: } else {
// CHECK: scf.yield %[[S]]#0,
// CHECK: %[[FLAG:.+]] = arith.ori %[[S]]#1, %[[OWNED]] : i1
// CHECK: scf.yield %[[C]]#0, %[[T]], %[[FLAG]], %[[OWNED]], %[[C]]#1, %[[C]]#2,
func.func @branch_yields_it(%a: tensor<5xi8>, %b: tensor<5xi8>, %n: index, %c: i1) -> tensor<5xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a, %y = %b) -> (tensor<5xi8>, tensor<5xi8>) {
    %t = arith.addi %a, %y : tensor<5xi8>
    %s = scf.if %c -> (tensor<5xi8>) {
      scf.yield %t : tensor<5xi8>
    } else {
      %u = arith.muli %y, %y : tensor<5xi8>
      scf.yield %u : tensor<5xi8>
    }
    scf.yield %s, %t : tensor<5xi8>, tensor<5xi8>
  }
  %o = arith.subi %r#0, %r#1 : tensor<5xi8>
  return %o : tensor<5xi8>
}

// -----

// An inner scf.while starts from %t and may run no iteration: the copy is
// made where it ran none (its result's flag is clear).
// CHECK-LABEL: func.func @while_may_run_no_iteration(
// CHECK: scf.for
// CHECK: %[[T:[a-z_0-9]+]], %{{.+}} = stream.resource.alloca uninitialized
// CHECK: %[[W:.+]]:5 = scf.while (%{{.+}} = %[[T]],
// CHECK: %[[NOT:.+]] = arith.xori %[[W]]#2, %{{.+}} : i1
// CHECK: %[[COND:.+]] = arith.andi %[[NOT]], %[[OWNED:.+]] : i1
// CHECK: %[[C:.+]]:3 = scf.if %[[COND]]
// CHECK: stream.cmd.copy %[[W]]#0[
// CHECK: %[[FLAG:.+]] = arith.ori %[[W]]#2, %[[OWNED]] : i1
// CHECK: scf.yield %[[C]]#0, %[[T]], %[[FLAG]], %[[OWNED]], %[[C]]#1, %[[C]]#2,
func.func @while_may_run_no_iteration(%a: tensor<5xi8>, %b: tensor<5xi8>, %n: index, %m: i32) -> tensor<5xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k0 = arith.constant 0 : i32
  %k1 = arith.constant 1 : i32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a, %y = %b) -> (tensor<5xi8>, tensor<5xi8>) {
    %t = arith.addi %a, %y : tensor<5xi8>
    %w:2 = scf.while (%z = %t, %k = %k0) : (tensor<5xi8>, i32) -> (tensor<5xi8>, i32) {
      %more = arith.cmpi slt, %k, %m : i32
      scf.condition(%more) %z, %k : tensor<5xi8>, i32
    } do {
    ^bb0(%z2: tensor<5xi8>, %k2: i32):
      %u = arith.muli %y, %y : tensor<5xi8>
      %kn = arith.addi %k2, %k1 : i32
      scf.yield %u, %kn : tensor<5xi8>, i32
    }
    scf.yield %w#0, %t : tensor<5xi8>, tensor<5xi8>
  }
  %o = arith.subi %r#0, %r#1 : tensor<5xi8>
  return %o : tensor<5xi8>
}
