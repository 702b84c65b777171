// RUN: ferry-opt %s --split-input-file --convert-input-to-stream | FileCheck %s

// A public function whose result is tied to an argument (iree.abi.tied)
// writes the result into the buffer the host lent: the tie becomes the
// function's stream.tied_operands, the result is copied whole into the
// argument's import (an update, which later passes make the producer write
// there directly) and the updated argument is what is returned.
// CHECK-LABEL: func.func @accumulate(
// CHECK-SAME: %[[X:.+]]: !hal.buffer_view, %[[ACC:.+]]: !hal.buffer_view) -> !hal.buffer_view
// CHECK-SAME: stream.tied_operands = array<i64: 1>
// CHECK-NOT: iree.abi.tied
// CHECK: %[[IX:.+]] = stream.tensor.import %[[X]]
// CHECK: %[[IACC:.+]] = stream.tensor.import %[[ACC]]
// CHECK: %[[SUM:.+]] = stream.async.dispatch.entry {{.+}} (%[[IACC]], %[[IX]], %{{.+}})
// CHECK: %[[U:.+]] = stream.async.update %[[SUM]], %[[IACC]][%{{.+}}] : !stream.resource<*>{%{{.+}}} -> !stream.resource<external>{%{{.+}}}
// CHECK: %[[V:.+]] = stream.tensor.export %[[U]]
// CHECK: return %[[V]]
func.func @accumulate(%x: tensor<4xi32>, %acc: tensor<4xi32>) -> (tensor<4xi32> {iree.abi.tied = 1 : index}) {
  %0 = arith.addi %acc, %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Returning the argument itself needs no copy: it is in place already.
// CHECK-LABEL: func.func @unchanged(
// CHECK: %[[I:.+]] = stream.tensor.import
// CHECK-NOT: stream.async.update
// CHECK: stream.tensor.export %[[I]]
func.func @unchanged(%a: tensor<4xi32>) -> (tensor<4xi32> {iree.abi.tied = 0 : index}) {
  return %a : tensor<4xi32>
}

// -----

// The lent argument is overwritten last, so an untied result returning its
// original value gets a copy of it first.
// CHECK-LABEL: func.func @original_too(
// CHECK: %[[IACC:.+]] = stream.tensor.import %arg1
// CHECK: %[[SUM:.+]] = stream.async.dispatch
// CHECK: %[[COPY:.+]] = stream.async.transfer %[[IACC]]
// CHECK: %[[U:.+]] = stream.async.update %[[SUM]], %[[IACC]]
// CHECK: stream.tensor.export %[[U]]
// CHECK: stream.tensor.export %[[COPY]]
func.func @original_too(%x: tensor<4xi32>, %acc: tensor<4xi32>) -> (tensor<4xi32> {iree.abi.tied = 1 : index}, tensor<4xi32>) {
  %0 = arith.addi %acc, %x : tensor<4xi32>
  return %0, %acc : tensor<4xi32>, tensor<4xi32>
}

// -----

// Dynamic dims: the result and the argument it goes into must agree, which
// the program checks at run time where they are different values.
// CHECK-LABEL: func.func @dynamic(
// CHECK: %[[DX:.+]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view> [0]
// CHECK: %[[DO:.+]] = hal.buffer_view.dim<%arg1 : !hal.buffer_view> [0]
// CHECK: %[[SAME:.+]] = arith.cmpi eq, %[[DX]], %[[DO]]
// CHECK: cf.assert %[[SAME]], "result 0 and argument 1 (iree.abi.tied) of 'dynamic' at {{.+}} differ in dimension 0"
// CHECK: stream.async.update
func.func @dynamic(%x: tensor<?xi32>, %out: tensor<?xi32>) -> (tensor<?xi32> {iree.abi.tied = 1 : index}) {
  %0 = arith.addi %x, %x : tensor<?xi32>
  return %0 : tensor<?xi32>
}
