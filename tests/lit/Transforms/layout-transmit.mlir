// RUN: tx8-opt %s --split-input-file --tx8be-layout-init --tx8be-layout-transmit | FileCheck %s

// Forward: the elementwise ops after a Conv stay channel-last, through the whole chain, and that wins over a
// user that wants the identity (the Softmax).
// CHECK-LABEL: func.func @forward
// CHECK: tx8be.Conv {{.*}}layout_str = "NHWC"
// CHECK: tx8be.Relu {{.*}}layout_str = "NHWC"
// CHECK: tx8be.Sigmoid {{.*}}layout_str = "NHWC"
// CHECK: tx8be.Softmax {{.*}}layout_str = "NCHW"
func.func @forward(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %0 = tx8be.Conv %x, %w : (tensor<1x3x4x4xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = tx8be.Relu %0 : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %2 = tx8be.Sigmoid %1 : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %3 = tx8be.Softmax %2 {axis = 1 : i64} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %3 : tensor<1x2x4x4xf32>
}

// -----

// Backward: a function argument decides nothing, so a chain in front of a Conv takes the order the Conv reads
// its input in, from the Conv back to the argument.
// CHECK-LABEL: func.func @backward
// CHECK: tx8be.Relu {{.*}}layout_str = "NHWC"
// CHECK: tx8be.Tanh {{.*}}layout_str = "NHWC"
// CHECK: tx8be.Conv {{.*}}layout_str = "NHWC"
func.func @backward(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %0 = tx8be.Relu %x : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %1 = tx8be.Tanh %0 : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %2 = tx8be.Conv %1, %w : (tensor<1x3x4x4xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32>
  return %2 : tensor<1x2x4x4xf32>
}

// -----

// A Constant decides nothing either: the Add takes the Conv's order from its second operand. The first user
// in program order decides backward (the Softmax, not the Conv after it).
// CHECK-LABEL: func.func @operands_and_users
// CHECK: tx8be.Add {{.*}}layout_str = "NHWC"
// CHECK: tx8be.Exp {{.*}}layout_str = "NCHW"
func.func @operands_and_users(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x1x1xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %c = tx8be.Constant dense<1.0> : tensor<1x2x4x4xf32>
  %0 = tx8be.Conv %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = tx8be.Add %c, %0 : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %2 = tx8be.Exp %x : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %3 = tx8be.Softmax %2 {axis = 1 : i64} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %4 = tx8be.Conv %2, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  return %1, %3, %4 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// -----

// Nobody decides (argument in, function result out): the identity order of the rank.
// CHECK-LABEL: func.func @undecided
// CHECK: tx8be.Relu {{.*}}layout_str = "NCHW"
// CHECK: tx8be.Neg {{.*}}layout_str = "NCW"
// CHECK: tx8be.Abs {{.*}}layout_str = "NCDHW"
func.func @undecided(%x: tensor<2x3x4x5xf32>, %y: tensor<2x3x4xf32>, %z: tensor<1x2x3x4x5xf32>) -> (tensor<2x3x4x5xf32>, tensor<2x3x4xf32>, tensor<1x2x3x4x5xf32>) {
  %0 = tx8be.Relu %x : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  %1 = tx8be.Neg %y : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %2 = tx8be.Abs %z : (tensor<1x2x3x4x5xf32>) -> tensor<1x2x3x4x5xf32>
  return %0, %1, %2 : tensor<2x3x4x5xf32>, tensor<2x3x4xf32>, tensor<1x2x3x4x5xf32>
}

// -----

// Forward first, to a fixpoint, then backward: the Mul joins a channel-last value (forward) with the
// argument chain, which then follows the Mul backward.
// CHECK-LABEL: func.func @fixpoint
// CHECK: tx8be.Sigmoid {{.*}}layout_str = "NHWC"
// CHECK: tx8be.MaxPool {{.*}}layout_str = "NHWC"
// CHECK: tx8be.Mul {{.*}}layout_str = "NHWC"
func.func @fixpoint(%x: tensor<1x2x4x4xf32>, %y: tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32> {
  %0 = tx8be.Sigmoid %x : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %1 = tx8be.MaxPool %y {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32>
  %2 = tx8be.Mul %0, %1 : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %2 : tensor<1x2x4x4xf32>
}
