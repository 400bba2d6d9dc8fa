// RUN: tx8-opt %s --split-input-file --tx8be-layout-align-opt --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s

// ConstChannelNormErase: the weight is stored HWIO instead of converted on the device.
// CHECK-LABEL: func.func @const_weight
// CHECK-NEXT: %[[W:.*]] = tx8be.Constant {layout_str = "HWIO"} dense<1.000000e+00> : tensor<4x3x1x1xf32> loc("w")
// CHECK-NEXT: tx8be.Conv %arg0, %[[W]] {layout_str = "NHWC"}
// CHECK-NOT: ChannelNorm
func.func @const_weight(%x: tensor<1x3x4x4xf32> {tx8be.layout_str = "NHWC"}) -> tensor<1x4x4x4xf32> {
  %w = tx8be.Constant dense<1.0> : tensor<4x3x1x1xf32> loc("w")
  %wn = tx8be.ChannelNorm %w {layout_str = "HWIO"} : (tensor<4x3x1x1xf32>) -> tensor<4x3x1x1xf32>
  %y = tx8be.Conv %x, %wn {layout_str = "NHWC"} : (tensor<1x3x4x4xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x4x4xf32>
  return %y : tensor<1x4x4x4xf32>
}

// -----

// A constant another user reads row-major (the Add) is cloned for the ChannelNorm's reader (same data and
// location, HWIO); the original keeps serving the Add.
// CHECK-LABEL: func.func @const_shared
// CHECK-NEXT: %[[C:.*]] = tx8be.Constant dense<2.000000e+00> : tensor<4x4x1x1xf32> loc("c")
// CHECK-NEXT: %[[H:.*]] = tx8be.Constant {layout_str = "HWIO"} dense<2.000000e+00> : tensor<4x4x1x1xf32> loc("c")
// CHECK-NEXT: tx8be.Conv %arg0, %[[H]] {layout_str = "NHWC"}
// CHECK-NEXT: tx8be.Add %arg1, %[[C]] {layout_str = "NCHW"}
// CHECK-NOT: ChannelNorm
func.func @const_shared(%x: tensor<1x4x4x4xf32> {tx8be.layout_str = "NHWC"}, %z: tensor<4x4x1x1xf32>) -> (tensor<1x4x4x4xf32>, tensor<4x4x1x1xf32>) {
  %c = tx8be.Constant dense<2.0> : tensor<4x4x1x1xf32> loc("c")
  %cn = tx8be.ChannelNorm %c {layout_str = "HWIO"} : (tensor<4x4x1x1xf32>) -> tensor<4x4x1x1xf32>
  %y = tx8be.Conv %x, %cn {layout_str = "NHWC"} : (tensor<1x4x4x4xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x4x4xf32>
  %s = tx8be.Add %z, %c {layout_str = "NCHW"} : (tensor<4x4x1x1xf32>, tensor<4x4x1x1xf32>) -> tensor<4x4x1x1xf32>
  return %y, %s : tensor<1x4x4x4xf32>, tensor<4x4x1x1xf32>
}

// -----

// Two ChannelNorms of one constant to the same order: the constant is not cloned, it takes the order and the
// second ChannelNorm has nothing left to do.
// CHECK-LABEL: func.func @const_two_norms
// CHECK-NEXT: %[[H:.*]] = tx8be.Constant {layout_str = "HWIO"} dense<3.000000e+00> : tensor<2x2x1x1xf32>
// CHECK-NEXT: tx8be.Conv %arg0, %[[H]]
// CHECK-NEXT: tx8be.Conv %arg0, %[[H]]
// CHECK-NOT: tx8be.Constant
// CHECK-NOT: ChannelNorm
func.func @const_two_norms(%x: tensor<1x2x4x4xf32> {tx8be.layout_str = "NHWC"}) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %c = tx8be.Constant dense<3.0> : tensor<2x2x1x1xf32>
  %n1 = tx8be.ChannelNorm %c {layout_str = "HWIO"} : (tensor<2x2x1x1xf32>) -> tensor<2x2x1x1xf32>
  %n2 = tx8be.ChannelNorm %c {layout_str = "HWIO"} : (tensor<2x2x1x1xf32>) -> tensor<2x2x1x1xf32>
  %y = tx8be.Conv %x, %n1 {layout_str = "NHWC"} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %z = tx8be.Conv %x, %n2 {layout_str = "NHWC"} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  return %y, %z : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// -----

// RedundantChannelNormErase: to the order the value has (NHWC -> NHWC), to an order that moves no byte
// (1x8x1x1: NHWC = NCHW), and a round trip NHWC -> NCHW -> NHWC all go. A real conversion stays.
// CHECK-LABEL: func.func @redundant
// CHECK-NEXT: %[[C:.*]] = tx8be.Conv
// CHECK-NEXT: %[[P:.*]] = tx8be.GlobalAvgPool %[[C]]
// CHECK-NEXT: tx8be.Relu %[[C]] {layout_str = "NHWC"}
// CHECK-NEXT: tx8be.Reshape %[[P]]
// CHECK-NEXT: tx8be.Relu %[[C]] {layout_str = "NHWC"}
// CHECK-NEXT: %[[N:.*]] = tx8be.ChannelNorm %[[C]] {layout_str = "NCHW"}
// CHECK-NEXT: tx8be.Softmax %[[N]]
// CHECK-NEXT: return
func.func @redundant(%x: tensor<1x8x4x4xf32> {tx8be.layout_str = "NHWC"}, %w: tensor<8x8x1x1xf32> {tx8be.layout_str = "HWIO"})
    -> (tensor<1x8x4x4xf32>, tensor<1x8xf32>, tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) {
  %c = tx8be.Conv %x, %w {layout_str = "NHWC"} : (tensor<1x8x4x4xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x4x4xf32>
  %p = tx8be.GlobalAvgPool %c {layout_str = "NHWC"} : (tensor<1x8x4x4xf32>) -> tensor<1x8x1x1xf32>
  %n0 = tx8be.ChannelNorm %c {layout_str = "NHWC"} : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %r0 = tx8be.Relu %n0 {layout_str = "NHWC"} : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %pn = tx8be.ChannelNorm %p {layout_str = "NCHW"} : (tensor<1x8x1x1xf32>) -> tensor<1x8x1x1xf32>
  %f = tx8be.Reshape %pn {layout_str = "Tensor"} : (tensor<1x8x1x1xf32>) -> tensor<1x8xf32>
  %a = tx8be.ChannelNorm %c {layout_str = "NCHW"} : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %b = tx8be.ChannelNorm %a {layout_str = "NHWC"} : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %r1 = tx8be.Relu %b {layout_str = "NHWC"} : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %n2 = tx8be.ChannelNorm %c {layout_str = "NCHW"} : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %s = tx8be.Softmax %n2 {axis = 1 : i64, layout_str = "NCHW"} : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %r0, %f, %r1, %s : tensor<1x8x4x4xf32>, tensor<1x8xf32>, tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>
}

// -----

// A ChannelNorm that changes the alignment (dev_info NCx) of a compact value is not redundant, even in the
// same order, and a constant is not given an alignment: both stay.
// CHECK-LABEL: func.func @alignment
// CHECK: tx8be.ChannelNorm %arg0
// CHECK: tx8be.ChannelNorm %{{.*}} {dev_info
func.func @alignment(%x: tensor<2x8x4x4xf32> {tx8be.layout_str = "NHWC"}) -> (tensor<2x8x4x4xf32>, tensor<2x8xf32>) {
  %n = tx8be.ChannelNorm %x {layout_str = "NHWC", dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = <NCx>, imm_addr = -1, mem_addr = []>} : (tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
  %c = tx8be.Constant dense<1.0> : tensor<2x8xf32>
  %cn = tx8be.ChannelNorm %c {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = <NCx>, imm_addr = -1, mem_addr = []>} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %n, %cn : tensor<2x8x4x4xf32>, tensor<2x8xf32>
}
