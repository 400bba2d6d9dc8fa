// RUN: tx8-opt %s --tx8be-group-optimization | FileCheck %s

// One Group per compute op. Values from other ops (and function arguments) become Group operands; the
// LoadConst an op reads moves into its Group; one that two ops read is cloned into the first Group and moves
// into the last. Nothing stays outside the Groups.
// CHECK-LABEL: func.func @main(%arg0: tensor<1x4x8x8xf32>, %arg1: tensor<1x4x8x8xf32>)
// CHECK-NOT: tx8be.LoadConst
// CHECK: %[[C:.*]] = tx8be.Group(%arg0) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
// CHECK-NEXT: ^bb0(%[[X:.*]]: tensor<1x4x8x8xf32>):
// CHECK-NEXT: %[[W:.*]] = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<4x4x3x3xf32>
// CHECK-NEXT: %[[B:.*]] = tx8be.LoadConst {const_map_id = 1 : ui32} : tensor<4xf32>
// CHECK-NEXT: %[[CONV:.*]] = tx8be.Conv %[[X]], %[[W]], %[[B]]
// CHECK-NEXT: tx8be.Return %[[CONV]]
// CHECK: %[[R:.*]] = tx8be.Group(%[[C]]) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
// CHECK-NEXT: ^bb0(%[[RX:.*]]: tensor<1x4x8x8xf32>):
// CHECK-NEXT: %[[RELU:.*]] = tx8be.Relu %[[RX]]
// CHECK-NEXT: tx8be.Return %[[RELU]]
// CHECK: %[[A:.*]] = tx8be.Group(%[[R]], %arg1) : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
// CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<1x4x8x8xf32>, %[[A1:.*]]: tensor<1x4x8x8xf32>):
// CHECK-NEXT: %[[ADD:.*]] = tx8be.Add %[[A0]], %[[A1]]
// CHECK-NEXT: tx8be.Return %[[ADD]]
// CHECK: %[[S:.*]] = tx8be.Group() : () -> tensor<1x4x1x1xf32> {
// CHECK-NEXT: %[[B2:.*]] = tx8be.LoadConst {const_map_id = 1 : ui32} : tensor<4xf32>
// CHECK-NEXT: %[[RS:.*]] = tx8be.Reshape %[[B2]]
// CHECK-NEXT: tx8be.Return %[[RS]]
// CHECK: %[[M:.*]] = tx8be.Group(%[[A]], %[[S]])
// CHECK: tx8be.Mul
// CHECK: return %[[M]]
func.func @main(%x: tensor<1x4x8x8xf32>, %y: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %w = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<4x4x3x3xf32>
  %b = tx8be.LoadConst {const_map_id = 1 : ui32} : tensor<4xf32>
  %c = tx8be.Conv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %r = tx8be.Relu %c : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %a = tx8be.Add %r, %y : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %s = tx8be.Reshape %b : (tensor<4xf32>) -> tensor<1x4x1x1xf32>
  %m = tx8be.Mul %a, %s : (tensor<1x4x8x8xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  return %m : tensor<1x4x8x8xf32>
}
