// RUN: ferry-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{unknown resource lifetime 'forever'}}
func.func private @bad_lifetime(!stream.resource<forever>)

// -----

func.func @dims_mismatch(%d: index) {
  // expected-error @+1 {{encoding 'tensor<?x?xi32>' has 2 dynamic dimensions but 1 dimension values were given}}
  %0 = stream.tensor.sizeof tensor<?x?xi32>{%d} : index
  return
}

// -----

func.func @not_tensor() {
  // expected-error @+1 {{encoding must be a ranked tensor type, got 'i32'}}
  %0 = stream.tensor.sizeof i32 : index
  return
}

// -----

func.func @import_lifetime(%v: !hal.buffer_view, %s: index) {
  // expected-error @+1 {{expects a resource of lifetime 'external', got '!stream.resource<transient>'}}
  %0 = stream.tensor.import %v message("x") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<transient>{%s}
  return
}

// -----

func.func @kernel_arity(%r: !stream.resource<*>, %s: index) {
  // expected-error @+1 {{kernel 'add' takes 2 inputs, got 1}}
  %0 = stream.async.dispatch kernel("add") type(i32) count(%s) (%r) : (!stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return
}

// -----

func.func @dispatch_needs_output(%s: index) {
  // expected-error @+1 {{needs an output resource}}
  %0 = stream.cmd.dispatch kernel("add") type(i32) count(%s) () : () => !stream.timepoint
  return
}

// -----

func.func @empty_join() {
  // expected-error @+1 {{needs at least one timepoint to join}}
  %0 = stream.timepoint.join max() => !stream.timepoint
  return
}
