// RUN: ferry-opt %s --split-input-file --verify-diagnostics

func.func @unknown_bit() {
  // expected-error @+1 {{unknown memory type bits "DeviceLocal|Shiny"}}
  %0 = hal.memory_type<"DeviceLocal|Shiny"> : i32
  return
}

// -----

func.func @trailing_bar() {
  // expected-error @+1 {{unknown buffer usage bits "Transfer|"}}
  %0 = hal.buffer_usage<"Transfer|"> : i32
  return
}

// -----

func.func @unknown_device() {
  // expected-error @+1 {{'@missing' does not name a hal.device.global}}
  %0 = hal.device.get @missing : !hal.device
  return
}

// -----

func.func @unknown_kernel(%d: !hal.device, %f: !hal.fence, %n: index, %b: !hal.buffer) {
  // expected-error @+1 {{unknown built-in kernel 'pow'}}
  hal.device.queue.dispatch<%d : !hal.device> signal(%f) kernel("pow") type(i32) count(%n) bindings(%b, %b, %b)
  return
}

// -----

func.func @binding_count(%d: !hal.device, %f: !hal.fence, %n: index, %b: !hal.buffer) {
  // expected-error @+1 {{kernel 'add' takes 2 inputs and one output, got 2 bindings}}
  hal.device.queue.dispatch<%d : !hal.device> signal(%f) kernel("add") type(i32) count(%n) bindings(%b, %b)
  return
}

// -----

func.func @element_type(%v: !hal.buffer_view) {
  // expected-error @+1 {{element type 'f8E4M3FN' is not supported by the runtime}}
  hal.buffer_view.assert<%v : !hal.buffer_view> message("x") shape([]) type(f8E4M3FN)
  return
}

// -----

func.func @fill_width(%d: !hal.device, %f: !hal.fence, %a: !hal.buffer, %n: index, %v: i3) {
  // expected-error @+1 {{pattern type 'i3' is not 8, 16, 32 or 64 bits wide}}
  hal.device.queue.fill<%d : !hal.device> signal(%f) target(%a : !hal.buffer)[%n, %n] pattern(%v : i3)
  return
}

// -----

hal.device.global @a = #hal.device.target<"local", {}>
hal.device.global @b = #hal.device.target<"local", {}>

func.func @import_without_export(%f: !hal.fence, %n: index) {
  %a = hal.device.get @a : !hal.device
  %b = hal.device.get @b : !hal.device
  %mt = hal.memory_type<"DeviceLocal"> : i32
  %u = hal.buffer_usage<"Transfer|DispatchStorage"> : i32
  %buffer = hal.device.queue.alloca<%a : !hal.device> signal(%f) type(%mt) usage(%u) : !hal.buffer{%n}
  // expected-error @+1 {{imports a buffer allocated with usage "Transfer|DispatchStorage", which lacks SharingExport: the allocating device cannot export it}}
  %0 = hal.device.import_buffer<%b : !hal.device> buffer(%buffer : !hal.buffer) wait(%f) : !hal.buffer
  return
}
