// RUN: ferry-opt %s --split-input-file --verify-diagnostics --stream-schedule-allocation -o /dev/null

// Stream code is scheduled in the function's block and in the bodies of
// scf.for, scf.while and the ops whose regions run at most once (scf.if,
// scf.index_switch, scf.execute_region): an async op inside another op's
// region is named in an error rather than left without memory.
func.func @in_parallel(%view: !hal.buffer_view, %n: index) -> !hal.buffer_view {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = stream.tensor.sizeof tensor<4xf32> : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%s}
  // expected-error @+1 {{'scf.parallel' holds stream code: allocation scheduling handles scf.for, scf.while and ops whose regions run at most once without arguments (scf.if, scf.index_switch, scf.execute_region) only}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %0 = stream.async.dispatch kernel("mul") type(f32) count(%n) (%a, %a) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<external>{%s}
    scf.reduce
  }
  %out = stream.tensor.export %a : tensor<4xf32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

// A body of several blocks is not scheduled.
func.func @several_blocks(%view: !hal.buffer_view, %n: index, %c: i1) {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %c7 = arith.constant 7 : i32
  // expected-error @+1 {{'scf.execute_region' has a region of several blocks: allocation scheduling handles single-block regions only}}
  scf.execute_region {
    cf.cond_br %c, ^a, ^b
  ^a:
    %0 = stream.async.splat %c7 : i32 -> !stream.resource<transient>{%s}
    scf.yield
  ^b:
    scf.yield
  }
  return
}

// -----

// A resource an op of another dialect makes (here chosen by an
// arith.select) has no producer the pass can allocate for.
func.func @chosen(%v0: !hal.buffer_view, %v1: !hal.buffer_view, %c: i1) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xf32> : index
  %a = stream.tensor.import %v0 message("input 0") : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%s}
  %b = stream.tensor.import %v1 message("input 1") : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%s}
  // expected-error @+1 {{'arith.select' makes a resource: allocation scheduling handles resources stream ops make only}}
  %r = arith.select %c, %a, %b : !stream.resource<external>
  %out = stream.tensor.export %r : tensor<4xf32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

// A constant carried through a loop together with a value of another
// lifetime cannot be retyped.
func.func @carried_constant(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : i32
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %k = stream.async.constant dense<[1, 2, 3, 4]> : tensor<4xi32> -> !stream.resource<*>{%s}
  // expected-error @+1 {{'scf.for' carries a constant together with resources of another lifetime in one position; copy it first}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %k) -> (!stream.resource<*>) {
    %y = stream.async.splat %c7 : i32 -> !stream.resource<*>{%s}
    scf.yield %y : !stream.resource<*>
  }
  return
}

// -----

// An outer resource written in place inside a loop: the next iteration
// waits only for what the loop carries, so the write would race with it.
func.func @loop_writes_outer(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : i32
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %t = stream.async.splat %c7 : i32 -> !stream.resource<*>{%s}
  // expected-error @+1 {{'scf.for' writes a resource defined outside it in place; allocation scheduling needs such a value carried through the loop (or copied inside it)}}
  scf.for %i = %c0 to %n step %c1 {
    %w = stream.async.fill %c7, %t : i32 -> !stream.resource<*>{%s}
  }
  return
}
