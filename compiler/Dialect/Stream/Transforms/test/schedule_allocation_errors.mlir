// RUN: ferry-opt %s --split-input-file --verify-diagnostics --stream-schedule-allocation -o /dev/null

// Only the function's own block is scheduled: an async op inside another
// op's region is named in an error rather than left without memory.
func.func @in_if(%view: !hal.buffer_view, %n: index, %c: i1) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xf32> : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%s}
  %r = scf.if %c -> !stream.resource<external> {
    // expected-error @+1 {{'stream.async.dispatch' inside 'scf.if': allocation scheduling handles async ops of the function's own block only}}
    %0 = stream.async.dispatch kernel("mul") type(f32) count(%n) (%a, %a) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<external>{%s}
    scf.yield %0 : !stream.resource<external>
  } else {
    scf.yield %a : !stream.resource<external>
  }
  %out = stream.tensor.export %r : tensor<4xf32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

func.func @in_for(%view: !hal.buffer_view, %n: index) {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : i32
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'stream.async.splat' inside 'scf.for': allocation scheduling handles async ops of the function's own block only}}
    %0 = stream.async.splat %c7 : i32 -> !stream.resource<transient>{%s}
  }
  return
}

// -----

// A resource an op of another dialect makes (here chosen by an scf.if)
// has no producer the pass can allocate for.
func.func @chosen(%v0: !hal.buffer_view, %v1: !hal.buffer_view, %c: i1) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xf32> : index
  %a = stream.tensor.import %v0 message("input 0") : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%s}
  %b = stream.tensor.import %v1 message("input 1") : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%s}
  // expected-error @+1 {{'scf.if' makes a resource: allocation scheduling handles resources stream ops make only}}
  %r = scf.if %c -> !stream.resource<external> {
    scf.yield %a : !stream.resource<external>
  } else {
    scf.yield %b : !stream.resource<external>
  }
  %out = stream.tensor.export %r : tensor<4xf32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}
