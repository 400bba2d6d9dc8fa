// RUN: tx8-opt %s --split-input-file --tx8be-decompose | FileCheck %s

// LogSoftmax along axis 1: (x - max) - log(sum(exp(x - max))), the reductions keeping the axis.
// CHECK-LABEL: func.func @log_softmax
// CHECK-NEXT: %[[M:.*]] = tx8be.ReduceMax %arg0 {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
// CHECK-NEXT: %[[D:.*]] = tx8be.Sub %arg0, %[[M]] : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: %[[E:.*]] = tx8be.Exp %[[D]]
// CHECK-NEXT: %[[S:.*]] = tx8be.ReduceSum %[[E]] {axes = array<i64: 1>}
// CHECK-NEXT: %[[L:.*]] = tx8be.Log %[[S]] : (tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
// CHECK-NEXT: %[[Y:.*]] = tx8be.Sub %[[D]], %[[L]] : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: return %[[Y]]
func.func @log_softmax(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %y = tx8be.LogSoftmax %x {axis = -2 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}

// -----

// Softmax along the last axis has a kernel: left alone. Along axis 0: exp(x - max) / sum.
// CHECK-LABEL: func.func @softmax
// CHECK-NEXT: %[[A:.*]] = tx8be.Softmax %arg0 :
// CHECK-NEXT: %[[M:.*]] = tx8be.ReduceMax %arg0 {axes = array<i64: 0>}
// CHECK-NEXT: %[[D:.*]] = tx8be.Sub %arg0, %[[M]]
// CHECK-NEXT: %[[E:.*]] = tx8be.Exp %[[D]]
// CHECK-NEXT: %[[S:.*]] = tx8be.ReduceSum %[[E]] {axes = array<i64: 0>}
// CHECK-NEXT: %[[B:.*]] = tx8be.Div %[[E]], %[[S]]
// CHECK-NEXT: return %[[A]], %[[B]]
func.func @softmax(%x: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %a = tx8be.Softmax %x {axis = -1 : i64} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %b = tx8be.Softmax %x {axis = 0 : i64} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %a, %b : tensor<3x4xf32>, tensor<3x4xf32>
}

// -----

// PRelu with a per-channel slope: max(x, 0) + min(x, 0) * slope. A slope that would widen the result is
// left to the verifier / codegen (not decomposed).
// CHECK-LABEL: func.func @prelu
// CHECK-NEXT: %[[Z:.*]] = tx8be.Constant dense<0.000000e+00> : tensor<1xf32>
// CHECK-NEXT: %[[P:.*]] = tx8be.Max %arg0, %[[Z]]
// CHECK-NEXT: %[[N:.*]] = tx8be.Min %arg0, %[[Z]]
// CHECK-NEXT: %[[S:.*]] = tx8be.Mul %[[N]], %arg1 : (tensor<1x3x4xf32>, tensor<3x1xf32>) -> tensor<1x3x4xf32>
// CHECK-NEXT: %[[Y:.*]] = tx8be.Add %[[P]], %[[S]]
// CHECK-NEXT: return %[[Y]]
func.func @prelu(%x: tensor<1x3x4xf32>, %slope: tensor<3x1xf32>) -> tensor<1x3x4xf32> {
  %y = tx8be.PRelu %x, %slope : (tensor<1x3x4xf32>, tensor<3x1xf32>) -> tensor<1x3x4xf32>
  return %y : tensor<1x3x4xf32>
}

// -----

// GlobalMaxPool: ReduceMax over H and W, kept.
// CHECK-LABEL: func.func @global_max_pool
// CHECK-NEXT: %[[R:.*]] = tx8be.ReduceMax %arg0 {axes = array<i64: 2, 3>} : (tensor<1x3x5x6xf32>) -> tensor<1x3x1x1xf32>
// CHECK-NEXT: return %[[R]]
func.func @global_max_pool(%x: tensor<1x3x5x6xf32>) -> tensor<1x3x1x1xf32> {
  %y = tx8be.GlobalMaxPool %x : (tensor<1x3x5x6xf32>) -> tensor<1x3x1x1xf32>
  return %y : tensor<1x3x1x1xf32>
}
