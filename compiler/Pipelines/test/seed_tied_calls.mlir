// The seed program (samples/tied_external_calls.mlir, verbatim from the
// design discussion) at stream level: the two tensor.empty values are two
// distinct allocations, each written in place by its call, and nothing with
// undefined contents is ever copied. The --implicit-check-not patterns are
// checked over the whole output, before, between and after the matches.
// RUN: ferry-compile %samples/tied_external_calls.mlir --compile-to=stream-async | FileCheck %s --check-prefix=ASYNC --implicit-check-not=stream.async.clone --implicit-check-not=stream.async.transfer
// RUN: ferry-compile %samples/tied_external_calls.mlir --compile-to=stream-cmd | FileCheck %s --check-prefix=CMD --implicit-check-not=stream.cmd.copy

// ASYNC-LABEL: func.func @main
// x*x is a native dispatch into a fresh alloca (the input is the host's).
// ASYNC: %[[A:.+]] = stream.async.alloca : !stream.resource<*>
// ASYNC: %[[X:.+]] = stream.async.dispatch.entry @main_dispatch_0::@main_dispatch_0 {{.+}} -> %[[A]]{
// ASYNC: %[[E1:.+]] = stream.async.alloca : !stream.resource<*>{%[[S:.+]]}
// ASYNC: %[[P1:.+]] = stream.async.call @Double.function(%[[X]], %[[E1]]) {{.+}} -> (%[[E1]]{%[[S]]})
// ASYNC: %[[E2:.+]] = stream.async.alloca : !stream.resource<external>{%[[S]]}
// ASYNC: %[[P2:.+]] = stream.async.call @Triple.function(%[[P1]], %[[E2]]) {{.+}} -> (%[[E2]]{%[[S]]})
// The final multiply writes into the dead result of Triple: its executable
// reads its one binding as the destination (outs) and no alloca is made.
// ASYNC: stream.async.dispatch.entry @main_dispatch_1::@main_dispatch_1 {{.+}} push_constants(%{{[^,]+}}, %{{[^,]+}}) (%[[P2]]) : ({{.+}}) -> %[[P2]]{%[[S]]}

// CMD-LABEL: func.func @main
// Three separate checks rather than one with a count: implicit not-checks
// do not look between the repetitions of a counted check.
// CMD: stream.resource.alloca uninitialized
// CMD: stream.resource.alloca uninitialized
// CMD: stream.resource.alloca uninitialized
// CMD-NOT: stream.resource.alloca
// CMD: return
