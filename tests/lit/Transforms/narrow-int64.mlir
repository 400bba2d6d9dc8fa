// RUN: tx8-opt %s --split-input-file --tx8be-narrow-int64 | FileCheck %s

// An int64 Add computes in int32 between Casts; the Reshape (a view) keeps its int64 operand.
// CHECK-LABEL: func.func @add
// CHECK-NEXT: %[[A:.*]] = tx8be.Cast %arg0 : (tensor<2x3xi64>) -> tensor<2x3xi32>
// CHECK-NEXT: %[[B:.*]] = tx8be.Cast %arg1 : (tensor<3xi64>) -> tensor<3xi32>
// CHECK-NEXT: %[[S:.*]] = tx8be.Add %[[A]], %[[B]] : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %[[W:.*]] = tx8be.Cast %[[S]] : (tensor<2x3xi32>) -> tensor<2x3xi64>
// CHECK-NEXT: %[[R:.*]] = tx8be.Reshape %[[W]] : (tensor<2x3xi64>) -> tensor<6xi64>
// CHECK-NEXT: return %[[R]]
func.func @add(%a: tensor<2x3xi64>, %b: tensor<3xi64>) -> tensor<6xi64> {
  %0 = tx8be.Add %a, %b : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi64>
  %1 = tx8be.Reshape %0 : (tensor<2x3xi64>) -> tensor<6xi64>
  return %1 : tensor<6xi64>
}

// -----

// A comparison of int64 values reads int32 ones; its bool result stays; f32 ops are not touched.
// CHECK-LABEL: func.func @compare
// CHECK-NEXT: %[[A:.*]] = tx8be.Cast %arg0 : (tensor<4xi64>) -> tensor<4xi32>
// CHECK-NEXT: %[[B:.*]] = tx8be.Cast %arg1 : (tensor<4xi64>) -> tensor<4xi32>
// CHECK-NEXT: %[[L:.*]] = tx8be.Less %[[A]], %[[B]] : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK-NEXT: %[[E:.*]] = tx8be.Exp %arg2 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: return %[[L]], %[[E]]
func.func @compare(%a: tensor<4xi64>, %b: tensor<4xi64>, %x: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xf32>) {
  %0 = tx8be.Less %a, %b : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  %1 = tx8be.Exp %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xi1>, tensor<4xf32>
}
