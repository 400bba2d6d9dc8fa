// TOSA matrix, convolution and pooling ops -> tx8be. TOSA is NHWC / OHWI: the tx8be ops are NCHW / OIHW
// between Transposes, and TOSA's [top, bottom, left, right] pads become ONNX's [top, left, bottom, right].
// RUN: tx8-opt %s -convert-tosa-to-tx8be | FileCheck %s

// CHECK-LABEL: func.func @matmul
func.func @matmul(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  // CHECK: tx8be.MatMul %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %0 = tosa.matmul %a, %b : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// CHECK-LABEL: func.func @fully_connected
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf32>, %[[W:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4xf32>)
func.func @fully_connected(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  // CHECK: tx8be.Gemm %[[X]], %[[W]], %[[B]] {transB = true} : (tensor<2x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %0 = tosa.fully_connected %x, %w, %b : (tensor<2x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @conv2d
// CHECK-SAME: (%[[X:.*]]: tensor<1x9x10x3xf32>, %[[W:.*]]: tensor<8x3x3x3xf32>, %[[B:.*]]: tensor<8xf32>)
func.func @conv2d(%x: tensor<1x9x10x3xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x4x3x8xf32> {
  // CHECK: %[[XT:.*]] = tx8be.Transpose %[[X]] {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x9x10x3xf32>) -> tensor<1x3x9x10xf32>
  // CHECK: %[[WT:.*]] = tx8be.Transpose %[[W]] {perm = array<i64: 0, 3, 1, 2>} : (tensor<8x3x3x3xf32>) -> tensor<8x3x3x3xf32>
  // CHECK: %[[C:.*]] = tx8be.Conv %[[XT]], %[[WT]], %[[B]] {dilations = array<i64: 1, 2>, pads = array<i64: 1, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x3x9x10xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x8x4x3xf32>
  // CHECK: %[[Y:.*]] = tx8be.Transpose %[[C]] {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x8x4x3xf32>) -> tensor<1x4x3x8xf32>
  // CHECK: return %[[Y]]
  %0 = tosa.conv2d %x, %w, %b {pad = array<i64: 1, 0, 0, 0>, stride = array<i64: 2, 2>, dilation = array<i64: 1, 2>} : (tensor<1x9x10x3xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x4x3x8xf32>
  return %0 : tensor<1x4x3x8xf32>
}

// CHECK-LABEL: func.func @depthwise_conv2d
func.func @depthwise_conv2d(%x: tensor<1x6x6x4xf32>, %w: tensor<3x3x4x2xf32>, %b: tensor<8xf32>) -> tensor<1x4x4x8xf32> {
  // KH x KW x C x M -> (C*M) x 1 x KH x KW, group C.
  // CHECK: %[[XT:.*]] = tx8be.Transpose %{{.*}} {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x6x6x4xf32>) -> tensor<1x4x6x6xf32>
  // CHECK: %[[WT:.*]] = tx8be.Transpose %{{.*}} {perm = array<i64: 2, 3, 0, 1>} : (tensor<3x3x4x2xf32>) -> tensor<4x2x3x3xf32>
  // CHECK: %[[WR:.*]] = tx8be.Reshape %[[WT]] : (tensor<4x2x3x3xf32>) -> tensor<8x1x3x3xf32>
  // CHECK: %[[C:.*]] = tx8be.Conv %[[XT]], %[[WR]], %{{.*}} {dilations = array<i64: 1, 1>, group = 4 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x6x6xf32>, tensor<8x1x3x3xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
  // CHECK: tx8be.Transpose %[[C]] {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x8x4x4xf32>) -> tensor<1x4x4x8xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %b {pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x6x6x4xf32>, tensor<3x3x4x2xf32>, tensor<8xf32>) -> tensor<1x4x4x8xf32>
  return %0 : tensor<1x4x4x8xf32>
}

// CHECK-LABEL: func.func @pools
func.func @pools(%x: tensor<1x8x8x3xf32>) -> (tensor<1x4x4x3xf32>, tensor<1x4x5x3xf32>) {
  // CHECK: %[[XT:.*]] = tx8be.Transpose %{{.*}} {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x8x8x3xf32>) -> tensor<1x3x8x8xf32>
  // CHECK: %[[A:.*]] = tx8be.AvgPool %[[XT]] {kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  // CHECK: tx8be.Transpose %[[A]] {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x3x4x4xf32>) -> tensor<1x4x4x3xf32>
  %0 = tosa.avg_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, acc_type = f32} : (tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32>
  // TOSA pad [top 0, bottom 1, left 1, right 1] -> [0, 1, 1, 1] in ONNX order [top, left, bottom, right].
  // CHECK: %[[XT2:.*]] = tx8be.Transpose %{{.*}} {perm = array<i64: 0, 3, 1, 2>}
  // CHECK: %[[M:.*]] = tx8be.MaxPool %[[XT2]] {kernel_shape = array<i64: 3, 2>, pads = array<i64: 0, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x5xf32>
  // CHECK: tx8be.Transpose %[[M]] {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x3x4x5xf32>) -> tensor<1x4x5x3xf32>
  %1 = tosa.max_pool2d %x {kernel = array<i64: 3, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 1, 1, 1>} : (tensor<1x8x8x3xf32>) -> tensor<1x4x5x3xf32>
  return %0, %1 : tensor<1x4x4x3xf32>, tensor<1x4x5x3xf32>
}
