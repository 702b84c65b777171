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

// Only an external buffer (a type implementing ExternalBufferType, such as
// !hal.buffer_view) crosses the program boundary: not a bare buffer.
func.func @import_not_external_buffer(%b: !hal.buffer, %s: index) {
  // expected-error @+1 {{operand #0 must be an external buffer}}
  %0 = stream.tensor.import %b message("x") : !hal.buffer -> tensor<4xi32> in !stream.resource<external>{%s}
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

// -----

func.func private @write(tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> attributes {stream.tied_operands = array<i64: 1>}
func.func @tie_mismatch(%a: !stream.resource<*>, %b: !stream.resource<*>, %s: index) {
  // expected-error @+1 {{result 0 is tied to operand 0 at the call but tied to operand 1 in 'write'}}
  %0 = stream.async.call @write(%a, %b) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> (%a{%s})
  return
}

// -----

func.func private @write(tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> attributes {stream.tied_operands = array<i64: 1>}
func.func @tie_missing(%a: !stream.resource<*>, %b: !stream.resource<*>, %s: index) {
  // expected-error @+1 {{result 0 is not tied at the call but tied to operand 1 in 'write'}}
  %0 = stream.async.call @write(%a, %b) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> (!stream.resource<*>{%s})
  return
}

// -----

func.func private @f(tensor<?xi32>) -> tensor<4xi32>
func.func @dims(%a: !stream.resource<*>, %s: index) {
  // expected-error @+1 {{passes 0 argument dimensions, but the arguments of 'f' have 1 dynamic dimensions}}
  %0 = stream.async.call @f(%a) : (!stream.resource<*>{%s}) -> (!stream.resource<*>{%s})
  return
}

// -----

func.func @tied_type(%a: !stream.resource<external>, %s: index) {
  // expected-error @+1 {{result 0 of type '!stream.resource<*>' is tied to operand 0 of type '!stream.resource<external>'}}
  %0 = "stream.async.dispatch"(%s, %a, %a, %s, %s, %s) <{kernel = "add", element_type = i32, tied_operands = array<i64: 0>, operandSegmentSizes = array<i32: 1, 2, 2, 1>}> : (index, !stream.resource<external>, !stream.resource<external>, index, index, index) -> !stream.resource<*>
  return
}

// -----

func.func @tied_twice(%a: !stream.resource<*>, %s: index) {
  // expected-error @+1 {{tied result names a value that is not an operand}}
  %0 = stream.async.dispatch kernel("add") type(i32) count(%s) (%a, %a) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %s{%s}
  return
}

// -----

func.func @retain_unknown(%r: !stream.resource<*>, %s: index) {
  // expected-error @+1 {{needs a resource of decided lifetime}}
  stream.resource.retain %r : !stream.resource<*>{%s}
  return
}

// -----

func.func @release_constant(%r: !stream.resource<constant>, %s: index) {
  // expected-error @+1 {{cannot act on a constant resource}}
  %0 = stream.resource.release %r : !stream.resource<constant>{%s}
  return
}

// -----

func.func @is_terminal_unknown(%r: !stream.resource<*>, %s: index) {
  // expected-error @+1 {{needs a resource of decided lifetime}}
  %0 = stream.resource.is_terminal %r : !stream.resource<*>{%s}
  return
}

// -----

func.func @free_host_buffer(%v: !hal.buffer_view, %s: index) {
  %r = stream.tensor.import %v message("x") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  // expected-error @+1 {{frees a buffer the host owns}}
  %t = stream.resource.dealloca %r : !stream.resource<external>{%s} => !stream.timepoint
  return
}

// -----

func.func @free_indeterminate(%s: index) {
  %r, %t = stream.resource.alloca uninitialized indeterminate : !stream.resource<transient>{%s} => !stream.timepoint
  // expected-error @+1 {{frees an indeterminate allocation}}
  %t2 = stream.resource.dealloca %r : !stream.resource<transient>{%s} => !stream.timepoint
  return
}

// -----

hal.device.global @dev = #hal.device.target<"local", {}>
func.func @origin_and_affinity(%r: !stream.resource<transient>, %s: index) {
  // expected-error @+1 {{has both 'origin' and an affinity}}
  %t = stream.resource.dealloca origin %r : !stream.resource<transient>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@dev>}
  return
}

// -----

func.func @consume_twice(%v: !hal.buffer_view, %s: index) {
  // expected-error @+1 {{consumes a buffer view that another import also consumes}}
  %a = stream.tensor.import consume %v message("x") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %b = stream.tensor.import consume %v message("y") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  return
}

// -----

func.func @execute_alloca(%s: index) {
  // expected-error @+2 {{'stream.resource.alloca' op cannot run inside an execution region: only stream.cmd.dispatch, dispatch.entry, fill and copy can (memory is allocated and freed on the timeline around a region, never inside it)}}
  %t = stream.cmd.execute with() {
    %r, %rt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  } => !stream.timepoint
  return
}

// -----

func.func @execute_dealloca(%r: !stream.resource<transient>, %s: index) {
  // expected-error @+2 {{'stream.resource.dealloca' op cannot run inside an execution region}}
  %t = stream.cmd.execute with(%r as %arg0: !stream.resource<transient>{%s}) {
    %f = stream.resource.dealloca %arg0 : !stream.resource<transient>{%s} => !stream.timepoint
  } => !stream.timepoint
  return
}

// -----

func.func private @ext(tensor<4xi32>) -> tensor<4xi32> attributes {stream.tied_operands = array<i64: 0>}
func.func @execute_call(%r: !stream.resource<external>, %s: index) {
  // expected-error @+2 {{'stream.cmd.call' op cannot run inside an execution region: only stream.cmd.dispatch, dispatch.entry, fill and copy can (a call runs on the host, between regions)}}
  %t = stream.cmd.execute with(%r as %arg0: !stream.resource<external>{%s}) {
    %0, %1 = stream.cmd.call @ext(%arg0) : (!stream.resource<external>{%s}) -> (%arg0{%s}) => !stream.timepoint
  } => !stream.timepoint
  return
}

// -----

func.func @execute_mixed_affinities(%r: !stream.resource<transient>, %s: index) {
  %c0 = arith.constant 0 : i32
  // expected-error @+3 {{'stream.cmd.fill' op runs on #hal.device.affinity<@b> but its execution region runs on #hal.device.affinity<@a>; one region submits to one queue}}
  %t = stream.cmd.execute on(#hal.device.affinity<@a>) with(%r as %arg0: !stream.resource<transient>{%s}) {
    %0 = stream.cmd.fill %c0, %arg0 : i32 -> !stream.resource<transient>{%s} => !stream.timepoint
    %1 = stream.cmd.fill %c0, %arg0 : i32 -> !stream.resource<transient>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
  } => !stream.timepoint
  return
}

// -----

func.func @execute_placed_command_in_default_region(%r: !stream.resource<transient>, %s: index) {
  %c0 = arith.constant 0 : i32
  // expected-error @+2 {{'stream.cmd.fill' op runs on #hal.device.affinity<@b> but its execution region runs on the default device}}
  %t = stream.cmd.execute with(%r as %arg0: !stream.resource<transient>{%s}) {
    %0 = stream.cmd.fill %c0, %arg0 : i32 -> !stream.resource<transient>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
  } => !stream.timepoint
  return
}

// -----

func.func @execute_inner_await(%r: !stream.resource<transient>, %s: index, %t0: !stream.timepoint) {
  %c0 = arith.constant 0 : i32
  // expected-error @+2 {{'stream.cmd.fill' op must not await a timepoint inside an execution region: its commands run in order once the region's await is reached}}
  %t = stream.cmd.execute with(%r as %arg0: !stream.resource<transient>{%s}) {
    %0 = stream.cmd.fill %c0, %arg0 await(%t0) : i32 -> !stream.resource<transient>{%s} => !stream.timepoint
  } => !stream.timepoint
  return
}

// -----

func.func @execute_inner_timepoint_used(%r: !stream.resource<transient>, %s: index) {
  %c0 = arith.constant 0 : i32
  %t = stream.cmd.execute with(%r as %arg0: !stream.resource<transient>{%s}) {
    // expected-error @+1 {{'stream.cmd.fill' op has its timepoint used, but inside an execution region only the region's timepoint is reached; use that}}
    %0 = stream.cmd.fill %c0, %arg0 : i32 -> !stream.resource<transient>{%s} => !stream.timepoint
    %1 = stream.cmd.fill %c0, %arg0 await(%0) : i32 -> !stream.resource<transient>{%s} => !stream.timepoint
  } => !stream.timepoint
  return
}

// -----

func.func @execute_uncaptured(%r: !stream.resource<transient>, %s: index) {
  %c0 = arith.constant 0 : i32
  %t = stream.cmd.execute with() {
    // expected-error @+1 {{'stream.cmd.fill' op uses a resource defined outside its execution region; capture it with 'with(%r as %arg: ...)'}}
    %0 = stream.cmd.fill %c0, %r : i32 -> !stream.resource<transient>{%s} => !stream.timepoint
  } => !stream.timepoint
  return
}

// -----

func.func @execute_empty() {
  // expected-error @+1 {{'stream.cmd.execute' op has no commands; an execution region needs at least one dispatch, fill or copy}}
  %t = stream.cmd.execute with() {
  } => !stream.timepoint
  return
}

// -----

func.func @execute_capture_type(%r: !stream.resource<transient>, %s: index) {
  // expected-error @+1 {{expected ':'}}
  %t = stream.cmd.execute with(%r as %arg0) {
  } => !stream.timepoint
  return
}

// -----

func.func @execute_on_not_affinity(%r: !stream.resource<transient>, %s: index) {
  // expected-error @+1 {{invalid kind of attribute specified}}
  %t = stream.cmd.execute on("a") with() {
  } => !stream.timepoint
  return
}

// -----

func.func @dispatch_entry_untied(%a: !stream.resource<*>, %s: index) -> !stream.resource<*> {
  // expected-error @+1 {{'stream.async.dispatch.entry' op requires attribute 'tied_operands'}}
  %r = stream.async.dispatch.entry @exe::@entry workgroups(%s, %s, %s) push_constants() (%a) : (!stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return %r : !stream.resource<*>
}

// -----

func.func @dispatch_entry_workgroups(%a: !stream.resource<*>, %s: index) -> !stream.resource<*> {
  // expected-error @+1 {{'stream.async.dispatch.entry' op has 2 workgroup counts; it needs 3 (x, y, z)}}
  %r = stream.async.dispatch.entry @exe::@entry workgroups(%s, %s) push_constants() (%a) : (!stream.resource<*>{%s}) -> %a{%s}
  return %r : !stream.resource<*>
}

// -----

func.func @dispatch_entry_output(%a: !stream.resource<*>, %s: index) {
  // expected-error @+1 {{'stream.cmd.dispatch.entry' op output 1 is not one of its 1 resources}}
  %t = stream.cmd.dispatch.entry @exe::@entry workgroups(%s, %s, %s) push_constants() output(1) (%a) : (!stream.resource<*>{%s}) => !stream.timepoint
  return
}

// -----

func.func @dispatch_entry_ranges(%a: !stream.resource<*>, %s: index) {
  // expected-error @+1 {{'stream.cmd.dispatch.entry' op has 1 binding offsets and 1 lengths; it needs none or one of each per resource (2)}}
  %t = stream.cmd.dispatch.entry @exe::@entry workgroups(%s, %s, %s) push_constants() output(1) (%a, %a) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) ranges(%s) lengths(%s) => !stream.timepoint
  return
}
