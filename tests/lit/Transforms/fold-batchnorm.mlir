// RUN: tx8-opt %s --split-input-file --tx8be-fold-batchnorm --mlir-print-local-scope | FileCheck %s

// Conv(x, W, b) then BatchNorm: W * s and (b - mean) * s + offset with s = scale / sqrt(variance + eps).
// Channel 0: s = 2 / sqrt(3 + 1) = 1, W 1 -> 1, b (1 - 1) * 1 + 0.5 = 0.5.
// Channel 1: s = 6 / sqrt(8 + 1) = 2, W 2 -> 4, b (0 - 2) * 2 + 1 = -3.
// CHECK-LABEL: func.func @conv_bn
// CHECK-DAG: %[[W:.*]] = tx8be.Constant dense<{{\[\[\[\[}}1.000000e+00]]], {{\[\[\[}}4.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-DAG: %[[B:.*]] = tx8be.Constant dense<[5.000000e-01, -3.000000e+00]> : tensor<2xf32>
// CHECK: %[[Y:.*]] = tx8be.Conv %arg0, %[[W]], %[[B]] {pads = array<i64: 0, 0, 0, 0>}
// CHECK-NOT: BatchNorm
// CHECK: return %[[Y]]
func.func @conv_bn(%x: tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = tx8be.Constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %b = tx8be.Constant dense<[1.0, 0.0]> : tensor<2xf32>
  %c = tx8be.Conv %x, %w, %b {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %scale = tx8be.Constant dense<[2.0, 6.0]> : tensor<2xf32>
  %offset = tx8be.Constant dense<[0.5, 1.0]> : tensor<2xf32>
  %mean = tx8be.Constant dense<[1.0, 2.0]> : tensor<2xf32>
  %var = tx8be.Constant dense<[3.0, 8.0]> : tensor<2xf32>
  %y = tx8be.BatchNorm_Inference %c, %scale, %offset, %mean, %var {epsilon = 1.0 : f32} : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}

// -----

// No bias: the folded Conv gets one, (0 - mean) * s + offset; statistics shaped 1xCx1x1 are read alike.
// CHECK-LABEL: func.func @conv_no_bias
// CHECK-DAG: %[[B:.*]] = tx8be.Constant dense<[-1.000000e+00, 1.000000e+00]> : tensor<2xf32>
// CHECK: tx8be.Conv %arg0, %{{.*}}, %[[B]]
// CHECK-NOT: BatchNorm
func.func @conv_no_bias(%x: tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = tx8be.Constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %c = tx8be.Conv %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %scale = tx8be.Constant dense<[[[[1.0]], [[1.0]]]]> : tensor<1x2x1x1xf32>
  %offset = tx8be.Constant dense<[[[[0.0]], [[2.0]]]]> : tensor<1x2x1x1xf32>
  %mean = tx8be.Constant dense<[[[[1.0]], [[1.0]]]]> : tensor<1x2x1x1xf32>
  %var = tx8be.Constant dense<[[[[1.0]], [[1.0]]]]> : tensor<1x2x1x1xf32>
  %y = tx8be.BatchNorm_Inference %c, %scale, %offset, %mean, %var {epsilon = 0.0 : f32} : (tensor<1x2x2x2xf32>, tensor<1x2x1x1xf32>, tensor<1x2x1x1xf32>, tensor<1x2x1x1xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}

// -----

// Left alone: the Conv's result is read by something else too (it must stay as it is), and statistics that are
// inputs, not constants.
// CHECK-LABEL: func.func @not_folded
// CHECK-COUNT-2: tx8be.BatchNorm_Inference
func.func @not_folded(%x: tensor<1x1x2x2xf32>, %m: tensor<2xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  %w = tx8be.Constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %one = tx8be.Constant dense<[1.0, 1.0]> : tensor<2xf32>
  %c = tx8be.Conv %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %y = tx8be.BatchNorm_Inference %c, %one, %one, %one, %one : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %c2 = tx8be.Conv %x, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %y2 = tx8be.BatchNorm_Inference %c2, %one, %one, %m, %one : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  return %y, %c, %y2 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}
