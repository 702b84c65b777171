// HAL IR the topology and query passes meet rarely: a query on a device
// that is a function argument, queries and resolves inside regions.

// A query on an argument, and one inside an scf.if.
hal.device.global @a = #hal.device.target<"local", {}>
func.func @f(%d: !hal.device, %c: i1) -> (i32, i32) {
  %ok, %v = hal.device.query<%d : !hal.device> category("hal.device.link") key("a:transparent_access") : i1, i32
  %r = scf.if %c -> i32 {
    %a = hal.device.get @a : !hal.device
    %ok2, %v2 = hal.device.query<%a : !hal.device> category("hal.device") key("concurrency") : i1, i32
    scf.yield %v2 : i32
  } else {
    scf.yield %v : i32
  }
  return %v, %r : i32, i32
}

// -----

// A resolve inside an scf.if.
hal.device.global @a = #hal.device.target<"local", {}>
hal.device.global @b = #hal.device.target<"local", {}>
func.func @f(%c: i1) -> i32 {
  %r = scf.if %c -> i32 {
    %m, %u = hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@a>, #hal.device.affinity<@b>]>) lifetime(transient) : i32, i32
    scf.yield %m : i32
  } else {
    %z = arith.constant 0 : i32
    scf.yield %z : i32
  }
  return %r : i32
}
