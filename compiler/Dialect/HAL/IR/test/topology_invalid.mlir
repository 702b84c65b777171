// RUN: ferry-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{topology link @a -> @missing names @missing, which is not a hal.device.global of the module}}
module attributes {stream.topology = #hal.device.topology<links = [(@a -> @missing = {transparent_access = true})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
}

// -----

func.func @empty_optimal() {
  // expected-error @+1 {{#hal.device.optimal needs at least one affinity}}
  %m, %u = hal.allocator.resolve_memory_properties for(#hal.device.optimal<[]>) lifetime(transient) : i32, i32
  return
}

// -----

// expected-error @+1 {{unknown link property 'transparent' (known: transparent_access, unified_memory, import_handle_types, export_handle_types; put others in 'properties')}}
module attributes {stream.topology = #hal.device.topology<links = [(@a -> @b = {transparent = true})]>} {
}

// -----

// expected-error @+1 {{link @a -> @b is declared twice}}
module attributes {stream.topology = #hal.device.topology<links = [(@a -> @b = {}), (@a -> @b = {})]>} {
}

// -----

// expected-error @+1 {{device target property 'host_visible_memory' must be a bool or #hal.runtime, got 1 : i64}}
hal.device.global @a = #hal.device.target<"local", {host_visible_memory = 1}>

// -----

// expected-error @+1 {{'stream.affinity' must be a #hal.device.affinity, got "a"}}
func.func @bad_affinity() attributes {stream.affinity = "a"} {
  return
}

// -----

func.func @resolve_bad_for() {
  // expected-error @+1 {{'for' must be a #hal.device.affinity or a #hal.device.optimal, got @a}}
  %m, %u = hal.allocator.resolve_memory_properties for(@a) lifetime(transient) : i32, i32
  return
}

// -----

hal.device.global @a = #hal.device.target<"local", {}>
func.func @resolve_unknown_device() {
  // expected-error @+1 {{@b does not name a hal.device.global}}
  %m, %u = hal.allocator.resolve_memory_properties for(#hal.device.affinity<@b>) lifetime(transient) : i32, i32
  return
}

// -----

func.func @select_none() {
  %c = arith.constant 0 : i32
  // expected-error @+1 {{needs at least one device to select from}}
  %d = hal.allocator.select from([]) type(%c) usage(%c) : !hal.device
  return
}

// -----

hal.global @g : i32
func.func @global_type(%v: i64) {
  // expected-error @+1 {{type 'i64' does not match @g of type 'i32'}}
  hal.global.store %v, @g : i64
  return
}
