// tx8be-infer-shapes: dynamic result extents are refined from the operands, through Groups, and the function
// signature follows.
// RUN: tx8-opt %s -tx8be-infer-shapes -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @chain
// CHECK-SAME: -> tensor<1x8x4x4xf32>
func.func @chain(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>) -> tensor<?x?x?x?xf32> {
  // CHECK: tx8be.Conv {{.*}} -> tensor<1x8x8x8xf32>
  %0 = tx8be.Conv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<?x?x?x?xf32>
  // CHECK: tx8be.Relu {{.*}} : (tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %1 = tx8be.Relu %0 : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  // CHECK: tx8be.MaxPool {{.*}} : (tensor<1x8x8x8xf32>) -> tensor<1x8x4x4xf32>
  %2 = tx8be.MaxPool %1 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  // CHECK: return {{.*}} : tensor<1x8x4x4xf32>
  return %2 : tensor<?x?x?x?xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_and_group
// CHECK-SAME: -> tensor<2x3x4xf32>
func.func @broadcast_and_group(%a: tensor<2x1x4xf32>, %b: tensor<3x1xf32>) -> tensor<?x?x?xf32> {
  // CHECK: tx8be.Add {{.*}} -> tensor<2x3x4xf32>
  %0 = tx8be.Add %a, %b : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<?x?x?xf32>
  // CHECK: tx8be.Group({{.*}}) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK-NEXT: ^bb0(%{{.*}}: tensor<2x3x4xf32>):
  // CHECK-NEXT: tx8be.Transpose {{.*}} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  // CHECK-NEXT: tx8be.Transpose {{.*}} : (tensor<4x2x3xf32>) -> tensor<2x3x4xf32>
  // CHECK-NEXT: tx8be.Return {{.*}} : tensor<2x3x4xf32>
  %1 = tx8be.Group(%0) : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  ^bb0(%arg: tensor<?x?x?xf32>):
    %t = tx8be.Transpose %arg {perm = array<i64: 2, 0, 1>} : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %u = tx8be.Transpose %t {perm = array<i64: 1, 2, 0>} : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    tx8be.Return %u : tensor<?x?x?xf32>
  }
  return %1 : tensor<?x?x?xf32>
}

// -----

// Operands whose dynamic extents meet a static operand: the rule cannot check them until inference knows
// them, and then it fails with the op's own message.
func.func @inconsistent(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<?x?xf32> {
  %0 = tx8be.Reshape %b : (tensor<4x3xf32>) -> tensor<?x3xf32>
  // expected-error @+1 {{'tx8be.Add' op operand shapes 2x3 and 4x3 are not broadcast-compatible (result dim 0)}}
  %1 = tx8be.Add %a, %0 : (tensor<2x3xf32>, tensor<?x3xf32>) -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}
