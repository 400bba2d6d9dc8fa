// RUN: tx8-opt %s --split-input-file --tx8be-layout-align-to-npu | FileCheck %s

// The image goes straight from the host into the Conv: the argument takes the Conv's NHWC, the result the
// Conv's NHWC, both compact (batch 2: NTensor). The OIHW weight is converted to OpLib's HWIO (the weight
// letters name it); the bias is 1-D and read as it is. dev_info.mem_layout is set on every compute op.
// CHECK-LABEL: func.func @conv
// CHECK-SAME: (%arg0: tensor<2x3x5x5xf32> {tx8be.layout_str = "NHWC", tx8be.mem_layout = #tx8be.layout<NTensor>}
// CHECK-SAME: %arg1: tensor<4x3x3x3xf32> {tx8be.layout_str = "HWIO", tx8be.mem_layout = #tx8be.layout<NTensor>}
// CHECK-SAME: %arg2: tensor<4xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}
// CHECK-SAME: -> (tensor<2x4x3x3xf32> {tx8be.layout_str = "NHWC", tx8be.mem_layout = #tx8be.layout<NTensor>}, tensor<2x4x3x3xf32> {tx8be.layout_str = "NHWC", tx8be.mem_layout = #tx8be.layout<NTensor>})
// CHECK-NEXT: %[[W:.*]] = tx8be.Constant dense<1.000000e+00> : tensor<4x3x3x3xf32>
// CHECK-NEXT: %[[WN:.*]] = tx8be.ChannelNorm %[[W]] {dev_info = #tx8be.dev_attr<{{.*}}mem_layout = <NTensor>{{.*}}>, layout_str = "HWIO"}
// CHECK-NEXT: tx8be.Conv %arg0, %[[WN]], %arg2 {dev_info = #tx8be.dev_attr<{{.*}}mem_layout = <NTensor>{{.*}}>, layout_str = "NHWC"}
// CHECK-NEXT: tx8be.Conv %arg0, %arg1, %arg2 {dev_info
// CHECK-NOT: ChannelNorm
func.func @conv(%x: tensor<2x3x5x5xf32>, %w2: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> (tensor<2x4x3x3xf32>, tensor<2x4x3x3xf32>) {
  %w = tx8be.Constant dense<1.0> : tensor<4x3x3x3xf32>
  %0 = tx8be.Conv %x, %w, %b {layout_str = "NHWC"} : (tensor<2x3x5x5xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>
  %1 = tx8be.Conv %x, %w2, %b {layout_str = "NHWC"} : (tensor<2x3x5x5xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>
  return %0, %1 : tensor<2x4x3x3xf32>, tensor<2x4x3x3xf32>
}

// -----

// The argument's first reader (the Conv) decides its image; the two row-major readers after it share one
// ChannelNorm, placed at the top. The Conv's NHWC output goes to a row-major Softmax: converted after the Conv.
// The batchnorm reads the Conv's output as it is; its parameters are 1-D.
// CHECK-LABEL: func.func @mismatch
// CHECK-SAME: (%arg0: tensor<1x2x3x3xf32> {tx8be.layout_str = "NHWC", tx8be.mem_layout = #tx8be.layout<Tensor>}
// CHECK-NEXT: %[[XN:.*]] = tx8be.ChannelNorm %arg0 {{{.*}}layout_str = "NCHW"}
// CHECK-NEXT: %[[C:.*]] = tx8be.Conv %arg0,
// CHECK-NEXT: %[[CN:.*]] = tx8be.ChannelNorm %[[C]] {{{.*}}layout_str = "NCHW"}
// CHECK-NEXT: tx8be.Softmax %[[XN]]
// CHECK-NEXT: tx8be.Softmax %[[XN]]
// CHECK-NEXT: tx8be.Softmax %[[CN]]
// CHECK-NEXT: tx8be.BatchNorm_Inference %[[C]], %arg2, %arg2, %arg2, %arg2
// CHECK-NOT: ChannelNorm
func.func @mismatch(%x: tensor<1x2x3x3xf32>, %w: tensor<2x2x1x1xf32>, %v: tensor<2xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) {
  %0 = tx8be.Conv %x, %w {layout_str = "NHWC"} : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %1 = tx8be.Softmax %x {axis = 1 : i64, layout_str = "NCHW"} : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %2 = tx8be.Softmax %x {axis = 2 : i64, layout_str = "NCHW"} : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %3 = tx8be.Softmax %0 {axis = 1 : i64, layout_str = "NCHW"} : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %4 = tx8be.BatchNorm_Inference %0, %v, %v, %v, %v {layout_str = "NHWC"} : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %1, %2, %3, %4 : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>
}

// -----

// No byte moves when only extent-1 dims differ: NHWC 1x8x1x1 is NCHW 1x8x1x1, so the Reshape reads the pooled
// value directly. An elementwise op reads all its operands in its own order (%y is packed NHWC for the first
// Add); a broadcasting one is row-major, so %x, packed NHWC for its first reader, is converted for it; an
// argument returned as it is keeps its image.
// CHECK-LABEL: func.func @no_move
// CHECK-SAME: (%arg0: tensor<1x8x4x4xf32> {tx8be.layout_str = "NHWC", tx8be.mem_layout = #tx8be.layout<Tensor>}
// CHECK-SAME: %arg1: tensor<1x8x4x4xf32> {tx8be.layout_str = "NHWC", tx8be.mem_layout = #tx8be.layout<Tensor>}
// CHECK-SAME: %arg2: tensor<1x8x1x1xf32> {tx8be.layout_str = "NCHW", tx8be.mem_layout = #tx8be.layout<Tensor>}
// CHECK-SAME: -> (tensor<1x8xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<Tensor>}, tensor<1x8x4x4xf32> {tx8be.layout_str = "NHWC", tx8be.mem_layout = #tx8be.layout<Tensor>}, tensor<1x8x4x4xf32> {tx8be.layout_str = "NCHW", tx8be.mem_layout = #tx8be.layout<Tensor>}, tensor<1x8x1x1xf32> {tx8be.layout_str = "NCHW", tx8be.mem_layout = #tx8be.layout<Tensor>})
// CHECK-NEXT: %[[XN:.*]] = tx8be.ChannelNorm %arg0 {{{.*}}layout_str = "NCHW"}
// CHECK-NEXT: %[[P:.*]] = tx8be.GlobalAvgPool %arg0
// CHECK-NEXT: tx8be.Reshape %[[P]]
// CHECK-NEXT: tx8be.Add %arg0, %arg1
// CHECK-NEXT: tx8be.Add %[[XN]], %arg2
// CHECK-NOT: ChannelNorm
func.func @no_move(%x: tensor<1x8x4x4xf32>, %y: tensor<1x8x4x4xf32>, %b: tensor<1x8x1x1xf32>) -> (tensor<1x8xf32>, tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>, tensor<1x8x1x1xf32>) {
  %0 = tx8be.GlobalAvgPool %x {layout_str = "NHWC"} : (tensor<1x8x4x4xf32>) -> tensor<1x8x1x1xf32>
  %1 = tx8be.Reshape %0 {layout_str = "Tensor"} : (tensor<1x8x1x1xf32>) -> tensor<1x8xf32>
  %2 = tx8be.Add %x, %y {layout_str = "NHWC"} : (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %3 = tx8be.Add %x, %b {layout_str = "NCHW"} : (tensor<1x8x4x4xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x4x4xf32>
  return %1, %2, %3, %b : tensor<1x8xf32>, tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>, tensor<1x8x1x1xf32>
}
