// Stream code whose resources and timepoints go through control flow: an
// scf.if choosing a cmd-phase resource or timepoint (convert-stream-to-hal
// once passed a null binding on), async work inside scf.if and scf.for, and
// a resource passed to another block.

// A cmd-phase resource chosen by an scf.if.
func.func @select(%view: !hal.buffer_view, %c: i1, %n: index) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
  %r = scf.if %c -> !stream.resource<external> {
    scf.yield %a : !stream.resource<external>
  } else {
    scf.yield %t : !stream.resource<external>
  }
  %d = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%ta) (%r, %r, %t) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
  %o = stream.timepoint.await %d => %t : (!stream.resource<external>{%s})
  %out = stream.tensor.export %o : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

// A timepoint chosen by an scf.if.
func.func @select(%view: !hal.buffer_view, %c: i1, %n: index) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
  %w = scf.if %c -> !stream.timepoint {
    scf.yield %ta : !stream.timepoint
  } else {
    scf.yield %ta : !stream.timepoint
  }
  %d = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%w) (%a, %a, %t) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
  %o = stream.timepoint.await %d => %t : (!stream.resource<external>{%s})
  %out = stream.tensor.export %o : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

// Async work inside an scf.if.
func.func @branchy(%view: !hal.buffer_view, %c: i1, %n: index) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xf32> : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%s}
  %r = scf.if %c -> !stream.resource<external> {
    %0 = stream.async.dispatch kernel("mul") type(f32) count(%n) (%a, %a) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<external>{%s}
    scf.yield %0 : !stream.resource<external>
  } else {
    scf.yield %a : !stream.resource<external>
  }
  %1 = stream.async.dispatch kernel("add") type(f32) count(%n) (%r, %a) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<external>{%s}
  %out = stream.tensor.export %1 : tensor<4xf32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

// Async work inside an scf.for, through its iter_args.
func.func @loop(%view: !hal.buffer_view, %n: index) -> !hal.buffer_view {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s = stream.tensor.sizeof tensor<4xf32> : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%s}
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %a) -> !stream.resource<external> {
    %0 = stream.async.dispatch kernel("add") type(f32) count(%n) (%acc, %a) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<external>{%s}
    scf.yield %0 : !stream.resource<external>
  }
  %out = stream.tensor.export %r : tensor<4xf32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

// A resource passed to another block.
func.func @f(%n: index) {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  cf.br ^bb1(%t : !stream.resource<transient>)
^bb1(%r: !stream.resource<transient>):
  %f = stream.resource.dealloca await(%ta) %r : !stream.resource<transient>{%s} => !stream.timepoint
  stream.timepoint.await %f
  return
}
