// TOSA shape, data-movement, constant and reduction ops -> tx8be.
// RUN: tx8-opt %s -convert-tosa-to-tx8be | FileCheck %s

// CHECK-LABEL: func.func @const_reshape_transpose
func.func @const_reshape_transpose(%x: tensor<2x3x4xf32>) -> (tensor<6x4xf32>, tensor<4x2x3xf32>, tensor<2xf32>) {
  // The perms constant only feeds an attribute: it is gone after the conversion.
  // CHECK-NOT: dense<[2, 0, 1]>
  // CHECK: %[[R:.*]] = tx8be.Reshape %{{.*}} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %0 = tosa.reshape %x {new_shape = array<i64: 6, 4>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %perms = "tosa.const"() <{value = dense<[2, 0, 1]> : tensor<3xi32>}> : () -> tensor<3xi32>
  // CHECK: %[[T:.*]] = tx8be.Transpose %{{.*}} {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %1 = tosa.transpose %x, %perms : (tensor<2x3x4xf32>, tensor<3xi32>) -> tensor<4x2x3xf32>
  // CHECK: %[[C:.*]] = tx8be.Constant dense<[1.500000e+00, -2.000000e+00]> : tensor<2xf32>
  %2 = "tosa.const"() <{value = dense<[1.5, -2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  // CHECK: return %[[R]], %[[T]], %[[C]]
  return %0, %1, %2 : tensor<6x4xf32>, tensor<4x2x3xf32>, tensor<2xf32>
}

// CHECK-LABEL: func.func @concat_slice
func.func @concat_slice(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> (tensor<2x8xf32>, tensor<1x4xf32>, tensor<2x2xf32>) {
  // CHECK: tx8be.Concat %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  %0 = tosa.concat %a, %b {axis = 1 : i32} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  // CHECK: tx8be.Slice %{{.*}} {offsets = array<i64: 1, 2>, sizes = array<i64: 1, 4>, strides = array<i64: 1, 1>} : (tensor<2x8xf32>) -> tensor<1x4xf32>
  %1 = tosa.slice %0 {start = array<i64: 1, 2>, size = array<i64: 1, 4>} : (tensor<2x8xf32>) -> tensor<1x4xf32>
  // size -1: to the end of the dim.
  // CHECK: tx8be.Slice %{{.*}} {offsets = array<i64: 0, 3>, sizes = array<i64: 2, 2>, strides = array<i64: 1, 1>} : (tensor<2x5xf32>) -> tensor<2x2xf32>
  %2 = tosa.slice %b {start = array<i64: 0, 3>, size = array<i64: -1, -1>} : (tensor<2x5xf32>) -> tensor<2x2xf32>
  return %0, %1, %2 : tensor<2x8xf32>, tensor<1x4xf32>, tensor<2x2xf32>
}

// CHECK-LABEL: func.func @pad
func.func @pad(%x: tensor<1x2x3xf32>) -> (tensor<2x4x4xf32>, tensor<1x2x5xf32>) {
  // [[low, high], ...] -> ONNX [lows..., highs...]
  // CHECK: tx8be.Pad %{{.*}} {pads = array<i64: 0, 1, 0, 1, 1, 1>} : (tensor<1x2x3xf32>) -> tensor<2x4x4xf32>
  %p = "tosa.const"() <{value = dense<[[0, 1], [1, 1], [0, 1]]> : tensor<3x2xi64>}> : () -> tensor<3x2xi64>
  %0 = tosa.pad %x, %p : (tensor<1x2x3xf32>, tensor<3x2xi64>) -> tensor<2x4x4xf32>
  // CHECK: tx8be.Pad %{{.*}} {pads = array<i64: 0, 0, 2, 0, 0, 0>, value = -1.000000e+00 : f32} : (tensor<1x2x3xf32>) -> tensor<1x2x5xf32>
  %q = "tosa.const"() <{value = dense<[[0, 0], [0, 0], [2, 0]]> : tensor<3x2xi32>}> : () -> tensor<3x2xi32>
  %v = "tosa.const"() <{value = dense<-1.0> : tensor<f32>}> : () -> tensor<f32>
  %1 = tosa.pad %x, %q, %v : (tensor<1x2x3xf32>, tensor<3x2xi32>, tensor<f32>) -> tensor<1x2x5xf32>
  return %0, %1 : tensor<2x4x4xf32>, tensor<1x2x5xf32>
}

// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: tensor<2x3x4xf32>) -> (tensor<2x1x4xf32>, tensor<1x3x4xf32>, tensor<2x3x1xf32>) {
  // CHECK: tx8be.ReduceSum %{{.*}} {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %0 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  // CHECK: tx8be.ReduceMax %{{.*}} {axes = array<i64: 0>} : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
  %1 = tosa.reduce_max %x {axis = 0 : i32} : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
  // CHECK: tx8be.ReduceMin %{{.*}} {axes = array<i64: 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  %2 = tosa.reduce_min %x {axis = 2 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  return %0, %1, %2 : tensor<2x1x4xf32>, tensor<1x3x4xf32>, tensor<2x3x1xf32>
}
