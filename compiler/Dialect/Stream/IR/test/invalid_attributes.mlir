// RUN: ferry-opt %s --split-input-file --verify-diagnostics

// The stream dialect checks `stream.affinity` and `stream.topology` wherever
// they appear.

func.func @affinity_string(%s: index) {
  // expected-error @+1 {{'stream.affinity' must be a #hal.device.affinity, got "a"}}
  %r = stream.async.alloca : !stream.resource<*>{%s} {stream.affinity = "a"}
  return
}

// -----

func.func @affinity_symbol(%s: index) {
  // expected-error @+1 {{'stream.affinity' must be a #hal.device.affinity, got @a}}
  %r = stream.async.alloca : !stream.resource<*>{%s} {stream.affinity = @a}
  return
}

// -----

// An op runs on one device: an optimal set is what a query asks about, not
// a placement.
func.func @affinity_optimal(%s: index) {
  // expected-error @+1 {{'stream.affinity' must be a #hal.device.affinity, got #hal.device.optimal<[#hal.device.affinity<@a>, #hal.device.affinity<@b>]>}}
  %r = stream.async.alloca : !stream.resource<*>{%s} {stream.affinity = #hal.device.optimal<[#hal.device.affinity<@a>, #hal.device.affinity<@b>]>}
  return
}

// -----

// expected-error @+1 {{'stream.affinity' must be a #hal.device.affinity, got #hal.device.target<"local", {}>}}
func.func @affinity_on_function() attributes {stream.affinity = #hal.device.target<"local", {}>} {
  return
}

// -----

// expected-error @+1 {{'stream.topology' must be a #hal.device.topology on a module}}
module attributes {stream.topology = "links"} {
}

// -----

// A topology describes the module's devices: not a function's.
// expected-error @+1 {{'stream.topology' must be a #hal.device.topology on a module}}
func.func @topology_on_function() attributes {stream.topology = #hal.device.topology<links = []>} {
  return
}

// -----

// expected-error @+1 {{topology link @a -> @b names @b, which is not a hal.device.global of the module}}
module attributes {stream.topology = #hal.device.topology<links = [(@a -> @b = {transparent_access = true})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
}

// -----

// expected-error @+1 {{topology link @x -> @a names @x, which is not a hal.device.global of the module}}
module attributes {stream.topology = #hal.device.topology<links = [(@x -> @a = {})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
}
