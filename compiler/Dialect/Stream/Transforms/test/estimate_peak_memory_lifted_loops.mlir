// RUN: ferry-opt %s --split-input-file --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s

// The liveness walk through the rotated scf.while that lifting a loop of
// blocks makes: the before region tests the exit in an scf.if whose exit
// branch passes the carried buffer and its owned flag on unchanged and
// whose other branch runs the body (a new buffer, owned; the previous one
// freed under its flag), and the loop goes on under the exit test
// negated. The buffer comes in lent (flag false: %x is freed after the
// loop). The flag the after region gets is the body branch's (true), the
// one the results get on the way out either branch's: the walk knows the
// second iteration frees what the first made, and the peak (%x, the
// previous buffer and a new one: 48 bytes) does not depend on the number
// of iterations. (Taking the if's result as it is, the flag was unknown
// where the branches disagree, the free counted as not freeing, and each
// iteration seemed to leave 16 bytes more live: "peak live bytes
// unknown".)

// -----

// Goes on under its test a comparison of the same operands with the inverse predicate.
// CHECK-LABEL: remark: peak live bytes are an upper bound: the walk counts iterations after the first
// CHECK-NOT: unknown
// CHECK: remark: peak live bytes: 48 (inputs 0, allocated 48)
func.func @negated_compare(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %false = arith.constant false
  %x, %xt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
  %r:4 = scf.while (%i = %c0, %v = %x, %o = %false, %vt = %xt) : (index, !stream.resource<external>, i1, !stream.timepoint) -> (index, !stream.resource<external>, i1, !stream.timepoint) {
    %stop = arith.cmpi sge, %i, %n : index
    %go = arith.cmpi slt, %i, %n : index
    %y:5 = scf.if %stop -> (index, !stream.resource<external>, i1, !stream.timepoint, i32) {
      %exit = arith.constant 0 : i32
      scf.yield %i, %v, %o, %vt, %exit : index, !stream.resource<external>, i1, !stream.timepoint, i32
    } else {
      %new, %newt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
      %f = stream.resource.dealloca origin if(%o) await(%vt) %v : !stream.resource<external>{%s} => !stream.timepoint
      %true = arith.constant true
      %i1 = arith.addi %i, %c1 : index
      %more = arith.cmpi ne, %i1, %c1 : index
      %on = arith.extui %more : i1 to i32
      scf.yield %i1, %new, %true, %newt, %on : index, !stream.resource<external>, i1, !stream.timepoint, i32
    }
    scf.condition(%go) %y#0, %y#1, %y#2, %y#3 : index, !stream.resource<external>, i1, !stream.timepoint
  } do {
  ^bb0(%j: index, %w: !stream.resource<external>, %p: i1, %wt: !stream.timepoint):
    scf.yield %j, %w, %p, %wt : index, !stream.resource<external>, i1, !stream.timepoint
  }
  %f1 = stream.resource.dealloca origin if(%r#2) await(%r#3) %r#1 : !stream.resource<external>{%s} => !stream.timepoint
  %f2 = stream.resource.dealloca origin await(%f1) %x : !stream.resource<external>{%s} => !stream.timepoint
  return
}

// -----

// Goes on under its test the exit test xor-ed with true.
// CHECK-LABEL: remark: peak live bytes are an upper bound: the walk counts iterations after the first
// CHECK-NOT: unknown
// CHECK: remark: peak live bytes: 48 (inputs 0, allocated 48)
func.func @negated_xori(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %false = arith.constant false
  %x, %xt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
  %r:4 = scf.while (%i = %c0, %v = %x, %o = %false, %vt = %xt) : (index, !stream.resource<external>, i1, !stream.timepoint) -> (index, !stream.resource<external>, i1, !stream.timepoint) {
    %stop = arith.cmpi sge, %i, %n : index
    %true0 = arith.constant true
    %go = arith.xori %stop, %true0 : i1
    %y:5 = scf.if %stop -> (index, !stream.resource<external>, i1, !stream.timepoint, i32) {
      %exit = arith.constant 0 : i32
      scf.yield %i, %v, %o, %vt, %exit : index, !stream.resource<external>, i1, !stream.timepoint, i32
    } else {
      %new, %newt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
      %f = stream.resource.dealloca origin if(%o) await(%vt) %v : !stream.resource<external>{%s} => !stream.timepoint
      %true = arith.constant true
      %i1 = arith.addi %i, %c1 : index
      %more = arith.cmpi ne, %i1, %c1 : index
      %on = arith.extui %more : i1 to i32
      scf.yield %i1, %new, %true, %newt, %on : index, !stream.resource<external>, i1, !stream.timepoint, i32
    }
    scf.condition(%go) %y#0, %y#1, %y#2, %y#3 : index, !stream.resource<external>, i1, !stream.timepoint
  } do {
  ^bb0(%j: index, %w: !stream.resource<external>, %p: i1, %wt: !stream.timepoint):
    scf.yield %j, %w, %p, %wt : index, !stream.resource<external>, i1, !stream.timepoint
  }
  %f1 = stream.resource.dealloca origin if(%r#2) await(%r#3) %r#1 : !stream.resource<external>{%s} => !stream.timepoint
  %f2 = stream.resource.dealloca origin await(%f1) %x : !stream.resource<external>{%s} => !stream.timepoint
  return
}

// -----

// Goes on under its test a flag the branches yield: a constant 0 on the exit branch, a value the body computes on the other (an exit in the middle of the body), so only the body's branch goes on.
// CHECK-LABEL: remark: peak live bytes are an upper bound: the walk counts iterations after the first
// CHECK-NOT: unknown
// CHECK: remark: peak live bytes: 48 (inputs 0, allocated 48)
func.func @flag_from_branches(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %false = arith.constant false
  %x, %xt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
  %r:4 = scf.while (%i = %c0, %v = %x, %o = %false, %vt = %xt) : (index, !stream.resource<external>, i1, !stream.timepoint) -> (index, !stream.resource<external>, i1, !stream.timepoint) {
    %stop = arith.cmpi sge, %i, %n : index
    %y:5 = scf.if %stop -> (index, !stream.resource<external>, i1, !stream.timepoint, i32) {
      %exit = arith.constant 0 : i32
      scf.yield %i, %v, %o, %vt, %exit : index, !stream.resource<external>, i1, !stream.timepoint, i32
    } else {
      %new, %newt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
      %f = stream.resource.dealloca origin if(%o) await(%vt) %v : !stream.resource<external>{%s} => !stream.timepoint
      %true = arith.constant true
      %i1 = arith.addi %i, %c1 : index
      %more = arith.cmpi ne, %i1, %c1 : index
      %on = arith.extui %more : i1 to i32
      scf.yield %i1, %new, %true, %newt, %on : index, !stream.resource<external>, i1, !stream.timepoint, i32
    }
    %go = arith.trunci %y#4 : i32 to i1
    scf.condition(%go) %y#0, %y#1, %y#2, %y#3 : index, !stream.resource<external>, i1, !stream.timepoint
  } do {
  ^bb0(%j: index, %w: !stream.resource<external>, %p: i1, %wt: !stream.timepoint):
    scf.yield %j, %w, %p, %wt : index, !stream.resource<external>, i1, !stream.timepoint
  }
  %f1 = stream.resource.dealloca origin if(%r#2) await(%r#3) %r#1 : !stream.resource<external>{%s} => !stream.timepoint
  %f2 = stream.resource.dealloca origin await(%f1) %x : !stream.resource<external>{%s} => !stream.timepoint
  return
}

// -----

// Frees the previous buffer after the exit test, under a flag the exit
// test's branches yield: false where the loop leaves (the buffer is passed
// on), the previous buffer's owned flag where the body ran. The walk takes
// the before region once each way, the scf.if running the branch of that
// way, so the free is known on both (taking the scf.if as it is, its
// branches disagree, the free counted as not freeing and each iteration
// seemed to leave 16 bytes more live).
// CHECK-LABEL: remark: peak live bytes are an upper bound: the walk counts iterations after the first
// CHECK-NOT: cannot tell
// CHECK-NOT: unknown
// CHECK: remark: peak live bytes: 48 (inputs 0, allocated 48)
func.func @free_under_exit_test(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %false = arith.constant false
  %x, %xt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
  %r:4 = scf.while (%i = %c0, %v = %x, %o = %false, %vt = %xt) : (index, !stream.resource<external>, i1, !stream.timepoint) -> (index, !stream.resource<external>, i1, !stream.timepoint) {
    %stop = arith.cmpi sge, %i, %n : index
    %go = arith.cmpi slt, %i, %n : index
    %y:5 = scf.if %stop -> (index, !stream.resource<external>, i1, !stream.timepoint, i1) {
      %keep = arith.constant false
      scf.yield %i, %v, %o, %vt, %keep : index, !stream.resource<external>, i1, !stream.timepoint, i1
    } else {
      %new, %newt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
      %true = arith.constant true
      %i1 = arith.addi %i, %c1 : index
      scf.yield %i1, %new, %true, %newt, %o : index, !stream.resource<external>, i1, !stream.timepoint, i1
    }
    %f = stream.resource.dealloca origin if(%y#4) await(%vt) %v : !stream.resource<external>{%s} => !stream.timepoint
    scf.condition(%go) %y#0, %y#1, %y#2, %y#3 : index, !stream.resource<external>, i1, !stream.timepoint
  } do {
  ^bb0(%j: index, %w: !stream.resource<external>, %p: i1, %wt: !stream.timepoint):
    scf.yield %j, %w, %p, %wt : index, !stream.resource<external>, i1, !stream.timepoint
  }
  %f1 = stream.resource.dealloca origin if(%r#2) await(%r#3) %r#1 : !stream.resource<external>{%s} => !stream.timepoint
  %f2 = stream.resource.dealloca origin await(%f1) %x : !stream.resource<external>{%s} => !stream.timepoint
  return
}

// -----

// Two devices: the buffer comes in on @a, the body makes each new one on
// @b and frees the previous one under its flag. The exit test's result is
// on @a where the loop leaves and on @b where it goes on: each walk of the
// before region sets it anew (the walk going on added @b to the @a the
// walk leaving had set, the after region then carried a buffer on both,
// its free counted on both, and an iteration seemed to move 16 bytes from
// @a to @b: "leaves 0 bytes more live than it found").
// CHECK-LABEL: remark: peak live bytes are an upper bound: the walk counts iterations after the first
// CHECK-NOT: unknown
// CHECK: remark: peak live bytes: 48 (inputs 0, allocated 48)
// CHECK: remark: peak live bytes on @a: 16 (inputs 0, allocated 16)
// CHECK: remark: peak live bytes on @b: 32 (inputs 0, allocated 32)
module {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @exit_test_on_two_devices(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = arith.constant 16 : index
    %false = arith.constant false
    %x, %xt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@a>}
    %r:4 = scf.while (%i = %c0, %v = %x, %o = %false, %vt = %xt) : (index, !stream.resource<external>, i1, !stream.timepoint) -> (index, !stream.resource<external>, i1, !stream.timepoint) {
      %stop = arith.cmpi sge, %i, %n : index
      %go = arith.cmpi slt, %i, %n : index
      %y:4 = scf.if %stop -> (index, !stream.resource<external>, i1, !stream.timepoint) {
        scf.yield %i, %v, %o, %vt : index, !stream.resource<external>, i1, !stream.timepoint
      } else {
        %new, %newt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
        %f = stream.resource.dealloca origin if(%o) await(%vt) %v : !stream.resource<external>{%s} => !stream.timepoint
        %true = arith.constant true
        %i1 = arith.addi %i, %c1 : index
        scf.yield %i1, %new, %true, %newt : index, !stream.resource<external>, i1, !stream.timepoint
      }
      scf.condition(%go) %y#0, %y#1, %y#2, %y#3 : index, !stream.resource<external>, i1, !stream.timepoint
    } do {
    ^bb0(%j: index, %w: !stream.resource<external>, %p: i1, %wt: !stream.timepoint):
      scf.yield %j, %w, %p, %wt : index, !stream.resource<external>, i1, !stream.timepoint
    }
    %f1 = stream.resource.dealloca origin if(%r#2) await(%r#3) %r#1 : !stream.resource<external>{%s} => !stream.timepoint
    %f2 = stream.resource.dealloca origin await(%f1) %x : !stream.resource<external>{%s} => !stream.timepoint
    return
  }
}

// -----

// The flag the condition passes on is computed after the exit test from
// what that test's scf.if yields (`ori` with the previous flag, as
// reference counting writes it): evaluated while the walk still takes the
// scf.if's branch of the way, it is known on each (evaluated after, the
// branches disagreed, the next iteration's flag was unknown, its free
// counted as not freeing, and the loop seemed to grow: random seed 2863).
// CHECK-LABEL: remark: peak live bytes are an upper bound: the walk counts iterations after the first
// CHECK-NOT: cannot tell
// CHECK-NOT: unknown
// CHECK: remark: peak live bytes: 48 (inputs 0, allocated 48)
func.func @flag_after_exit_test(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %false = arith.constant false
  %x, %xt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
  %r:4 = scf.while (%i = %c0, %v = %x, %o = %false, %vt = %xt) : (index, !stream.resource<external>, i1, !stream.timepoint) -> (index, !stream.resource<external>, i1, !stream.timepoint) {
    %stop = arith.cmpi sge, %i, %n : index
    %go = arith.cmpi slt, %i, %n : index
    %y:4 = scf.if %stop -> (index, !stream.resource<external>, i1, !stream.timepoint) {
      %kept = arith.constant false
      scf.yield %i, %v, %kept, %vt : index, !stream.resource<external>, i1, !stream.timepoint
    } else {
      %new, %newt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
      %made = arith.constant true
      %i1 = arith.addi %i, %c1 : index
      scf.yield %i1, %new, %made, %newt : index, !stream.resource<external>, i1, !stream.timepoint
    }
    %both = arith.andi %o, %y#2 : i1
    %f = stream.resource.dealloca origin if(%both) await(%vt) %v : !stream.resource<external>{%s} => !stream.timepoint
    %on = arith.ori %y#2, %o : i1
    scf.condition(%go) %y#0, %y#1, %on, %y#3 : index, !stream.resource<external>, i1, !stream.timepoint
  } do {
  ^bb0(%j: index, %w: !stream.resource<external>, %p: i1, %wt: !stream.timepoint):
    scf.yield %j, %w, %p, %wt : index, !stream.resource<external>, i1, !stream.timepoint
  }
  %f1 = stream.resource.dealloca origin if(%r#2) await(%r#3) %r#1 : !stream.resource<external>{%s} => !stream.timepoint
  %f2 = stream.resource.dealloca origin await(%f1) %x : !stream.resource<external>{%s} => !stream.timepoint
  return
}
