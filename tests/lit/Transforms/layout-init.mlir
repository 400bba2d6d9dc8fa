// RUN: tx8-opt %s --tx8be-layout-init | FileCheck %s

// OpLib's conv / pool / batchnorm kernels read and write channel-last feature maps; GEMM, softmax, the data
// movers, reductions, ConvTranspose and broadcasting binaries need row-major ones; elementwise ops on equal
// shapes are left Unknown (no layout_str) for tx8be-layout-transmit; rank <= 2 results are "Tensor".
// CHECK-LABEL: func.func @init
// CHECK: tx8be.Conv %arg0, %arg1 {layout_str = "NHWC"}
// CHECK: tx8be.BatchNorm_Inference {{.*}} {layout_str = "NHWC"}
// CHECK: tx8be.Relu %{{[0-9]+}} :
// CHECK: tx8be.Sigmoid %{{[0-9]+}} :
// CHECK: tx8be.MaxPool {{.*}}layout_str = "NHWC"
// CHECK: tx8be.AvgPool {{.*}}layout_str = "NHWC"
// CHECK: tx8be.GlobalAvgPool {{.*}} {layout_str = "NHWC"}
// CHECK: tx8be.GlobalMaxPool {{.*}} {layout_str = "NHWC"}
// CHECK: tx8be.Add %{{.*}}, %arg2 {layout_str = "NCHW"}
// CHECK: tx8be.Softmax {{.*}}layout_str = "NCHW"
// CHECK: tx8be.Transpose {{.*}}layout_str = "NCHW"
// CHECK: tx8be.ConvTranspose {{.*}}layout_str = "NCHW"
// CHECK: tx8be.Reshape {{.*}} {layout_str = "Tensor"}
// CHECK: tx8be.Gemm {{.*}} {layout_str = "Tensor"}
// CHECK: tx8be.Relu {{.*}} {layout_str = "Tensor"}
// CHECK: tx8be.Reshape {{.*}} {layout_str = "NCW"}
// CHECK: tx8be.Conv {{.*}}layout_str = "NWC"
// CHECK: tx8be.Conv {{.*}}layout_str = "NDHWC"
func.func @init(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x1x1xf32>, %b: tensor<1x4x1x1xf32>, %v: tensor<4xf32>,
                %w2: tensor<2x10xf32>, %x1: tensor<2x3x5xf32>, %w1: tensor<4x3x1xf32>,
                %x3: tensor<1x2x3x4x4xf32>, %w3: tensor<2x2x1x1x1xf32>, %wt: tensor<4x4x1x1xf32>)
    -> (tensor<1x4x8x8xf32>, tensor<2x10xf32>, tensor<2x10xf32>, tensor<2x4x5xf32>, tensor<1x2x3x4x4xf32>) {
  %0 = tx8be.Conv %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x8x8xf32>
  %1 = tx8be.BatchNorm_Inference %0, %v, %v, %v, %v : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  // A layout_str left from before is reset.
  %2 = tx8be.Relu %1 {layout_str = "NCHW"} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %3 = tx8be.Sigmoid %2 : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %4 = tx8be.MaxPool %3 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  %5 = tx8be.AvgPool %4 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x4xf32>) -> tensor<1x4x2x2xf32>
  %6 = tx8be.GlobalAvgPool %5 : (tensor<1x4x2x2xf32>) -> tensor<1x4x1x1xf32>
  %7 = tx8be.GlobalMaxPool %5 : (tensor<1x4x2x2xf32>) -> tensor<1x4x1x1xf32>
  %8 = tx8be.Add %3, %b : (tensor<1x4x8x8xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %9 = tx8be.Softmax %8 {axis = 1 : i64} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %10 = tx8be.Transpose %9 {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %11 = tx8be.ConvTranspose %10, %wt : (tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %12 = tx8be.Reshape %6 : (tensor<1x4x1x1xf32>) -> tensor<2x2xf32>
  %13 = tx8be.Gemm %12, %w2 : (tensor<2x2xf32>, tensor<2x10xf32>) -> tensor<2x10xf32>
  %14 = tx8be.Relu %13 : (tensor<2x10xf32>) -> tensor<2x10xf32>
  %15 = tx8be.Reshape %7 : (tensor<1x4x1x1xf32>) -> tensor<1x2x2xf32>
  %16 = tx8be.Conv %x1, %w1 : (tensor<2x3x5xf32>, tensor<4x3x1xf32>) -> tensor<2x4x5xf32>
  %17 = tx8be.Conv %x3, %w3 : (tensor<1x2x3x4x4xf32>, tensor<2x2x1x1x1xf32>) -> tensor<1x2x3x4x4xf32>
  return %11, %13, %14, %16, %17 : tensor<1x4x8x8xf32>, tensor<2x10xf32>, tensor<2x10xf32>, tensor<2x4x5xf32>, tensor<1x2x3x4x4xf32>
}
