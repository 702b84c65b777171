// Two devices (random seed 5825, reduced). A loop lifted from blocks
// carries the result of an inner scf.while that holds either a constant
// made before it (no iteration) or the host's input (an iteration), a
// buffer another value owns either way, on @b or on the first device @a.
// The outer loop passes it on beside an owned flag that is clear, so it is
// freed nowhere under its own name. The walk merged the inner loop's ways
// out as if the result were a buffer of its own on both devices, which
// nothing frees, and the outer iteration seemed to grow ("leaves 4 bytes
// more live on @a": no peak). A result passed on lent takes no part in
// the merge, as one passed nowhere does (while_lent_result_two_devices).
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=1,2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK --implicit-check-not="peak live bytes unknown"
// WALK: remark: peak live bytes: 20 (inputs 4, allocated 64)
// WALK: remark: peak live bytes on @a: 4 (inputs 4, allocated 0)
// WALK: remark: peak live bytes on @b: 16 (inputs 0, allocated 64)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --device=a=local-sync --device=b=local-task --stats=%t.json --input=1xi32=7 --input=i32=2 | FileCheck %s --check-prefix=OUT --match-full-lines
// RUN: %python %S/../check_stats.py %t.json --device=a live_bytes_at_exit=0 peak_bytes=4
// RUN: %python %S/../check_stats.py %t.json --device=b live_bytes_at_exit=0 peak_bytes=16
// OUT: 1xi32=[0]
// OUT-NEXT: 1xi32=[0]
module {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @main(%input: tensor<1xi32>, %n: i32) -> (tensor<1xi32>, tensor<1xi32>) attributes {stream.affinity = #hal.device.affinity<@b>} {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : i32
    %k0 = arith.constant 0 : i32
    %a0 = arith.constant dense<0> : tensor<1xi32>
    %b0 = arith.constant dense<0> : tensor<1xi32>
    cf.br ^head1(%c0, %a0, %b0 : index, tensor<1xi32>, tensor<1xi32>)
  ^head1(%i1: index, %acc1: tensor<1xi32>, %carried1: tensor<1xi32>):
    %done1 = arith.cmpi sge, %i1, %c0 : index
    cf.cond_br %done1, ^exit1(%acc1, %carried1 : tensor<1xi32>, tensor<1xi32>), ^body1
  ^body1:
    %a1 = arith.constant dense<0> : tensor<1xi32>
    %b1 = arith.constant dense<0> : tensor<1xi32>
    cf.br ^head1(%c0, %a1, %b1 : index, tensor<1xi32>, tensor<1xi32>)
  ^exit1(%first: tensor<1xi32>, %second: tensor<1xi32>):
    %start = arith.constant dense<0> : tensor<1xi32>
    %masked = arith.andi %n, %c3 : i32
    %trips = arith.index_cast %masked : i32 to index
    cf.br ^head2(%c0, %second, %first : index, tensor<1xi32>, tensor<1xi32>)
  ^head2(%i2: index, %acc2: tensor<1xi32>, %carried2: tensor<1xi32>):
    %done2 = arith.cmpi sge, %i2, %trips : index
    %x = tensor.extract %acc2[%c0] : tensor<1xi32>
    cf.cond_br %done2, ^exit2(%acc2, %carried2 : tensor<1xi32>, tensor<1xi32>), ^body2
  ^body2:
    %m = arith.andi %x, %c3 : i32
    %w:3 = scf.while (%v = %start, %u = %carried2, %k = %k0) : (tensor<1xi32>, tensor<1xi32>, i32) -> (tensor<1xi32>, tensor<1xi32>, i32) {
      %more = arith.cmpi slt, %k, %m : i32
      %y = tensor.extract %v[%c0] : tensor<1xi32>
      %small = arith.cmpi ule, %y, %k0 : i32
      %go = arith.andi %more, %small : i1
      %fresh = arith.constant dense<0> : tensor<1xi32>
      scf.condition(%go) %v, %fresh, %k : tensor<1xi32>, tensor<1xi32>, i32
    } do {
    ^bb0(%v2: tensor<1xi32>, %u2: tensor<1xi32>, %k2: i32):
      %zero = arith.constant dense<0> : tensor<1xi32>
      scf.yield %input, %zero, %k0 : tensor<1xi32>, tensor<1xi32>, i32
    }
    %next = arith.constant dense<0> : tensor<1xi32>
    %c1 = arith.constant 1 : index
    %i2n = arith.addi %i2, %c1 : index
    cf.br ^head2(%i2n, %next, %w#0 : index, tensor<1xi32>, tensor<1xi32>)
  ^exit2(%l1: tensor<1xi32>, %l2: tensor<1xi32>):
    return %first, %l2 : tensor<1xi32>, tensor<1xi32>
  }
}
