// RUN: tx8-opt %s --tx8be-linear-epilogue | FileCheck %s

// SinkEpilogue: the bias Add, Gelu and the residual Add of a [1, 4, 8] x [8, 16] linear layer run on the 2-D
// MatMul result, before the row Reshape (the residual read through a Reshape of it), one Reshape at the end.
// CHECK-LABEL: func.func @mlp
// CHECK: %[[M:.*]] = tx8be.MatMul %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[B:.*]] = tx8be.Add %[[M]], %{{.*}} : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[G:.*]] = tx8be.Gelu %[[B]] : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[R:.*]] = tx8be.Reshape %arg1 : (tensor<1x4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[S:.*]] = tx8be.Add %[[G]], %[[R]] : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[O:.*]] = tx8be.Reshape %[[S]] : (tensor<4x16xf32>) -> tensor<1x4x16xf32>
// CHECK-NEXT: return %[[O]]
func.func @mlp(%x: tensor<1x4x8xf32>, %res: tensor<1x4x16xf32>) -> tensor<1x4x16xf32> {
  %w = tx8be.Constant dense<0.5> : tensor<8x16xf32>
  %b = tx8be.Constant dense<1.0> : tensor<16xf32>
  %a = tx8be.Reshape %x : (tensor<1x4x8xf32>) -> tensor<4x8xf32>
  %m = tx8be.MatMul %a, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %m3 = tx8be.Reshape %m : (tensor<4x16xf32>) -> tensor<1x4x16xf32>
  %y = tx8be.Add %m3, %b : (tensor<1x4x16xf32>, tensor<16xf32>) -> tensor<1x4x16xf32>
  %g = tx8be.Gelu %y : (tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
  %o = tx8be.Add %g, %res : (tensor<1x4x16xf32>, tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
  return %o : tensor<1x4x16xf32>
}

// A bias given as [1, 1, N] (and first) sinks as a row of N.
// CHECK-LABEL: func.func @bias_first
// CHECK: %[[M:.*]] = tx8be.MatMul
// CHECK: %[[B:.*]] = tx8be.Reshape %{{.*}} : (tensor<1x1x16xf32>) -> tensor<16xf32>
// CHECK-NEXT: tx8be.Mul %[[B]], %[[M]] : (tensor<16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
func.func @bias_first(%x: tensor<4x8xf32>) -> tensor<1x4x16xf32> {
  %w = tx8be.Constant dense<0.5> : tensor<8x16xf32>
  %b = tx8be.Constant dense<2.0> : tensor<1x1x16xf32>
  %m = tx8be.MatMul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %m3 = tx8be.Reshape %m : (tensor<4x16xf32>) -> tensor<1x4x16xf32>
  %y = tx8be.Mul %b, %m3 : (tensor<1x1x16xf32>, tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
  return %y : tensor<1x4x16xf32>
}

// Not sunk: an operand that varies along the rows ([1, 4, 1]) is not a column vector; a Reshape that changes
// the last dim is not a row Reshape; an op behind a row Reshape of something that is not a MatMul chain.
// CHECK-LABEL: func.func @not_sunk
// CHECK: tx8be.Reshape %{{.*}} : (tensor<4x16xf32>) -> tensor<1x4x16xf32>
// CHECK-NEXT: tx8be.Add %{{.*}}, %arg1 : (tensor<1x4x16xf32>, tensor<1x4x1xf32>) -> tensor<1x4x16xf32>
// CHECK: tx8be.Reshape %{{.*}} : (tensor<4x16xf32>) -> tensor<1x8x8xf32>
// CHECK-NEXT: tx8be.Relu %{{.*}} : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
// CHECK: tx8be.Reshape %arg2 : (tensor<4x16xf32>) -> tensor<1x4x16xf32>
// CHECK-NEXT: tx8be.Relu %{{.*}} : (tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
func.func @not_sunk(%x: tensor<4x8xf32>, %rows: tensor<1x4x1xf32>, %plain: tensor<4x16xf32>)
    -> (tensor<1x4x16xf32>, tensor<1x8x8xf32>, tensor<1x4x16xf32>) {
  %w = tx8be.Constant dense<0.5> : tensor<8x16xf32>
  %m = tx8be.MatMul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %m3 = tx8be.Reshape %m : (tensor<4x16xf32>) -> tensor<1x4x16xf32>
  %y = tx8be.Add %m3, %rows : (tensor<1x4x16xf32>, tensor<1x4x1xf32>) -> tensor<1x4x16xf32>
  %n = tx8be.MatMul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %n3 = tx8be.Reshape %n : (tensor<4x16xf32>) -> tensor<1x8x8xf32>
  %z = tx8be.Relu %n3 : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
  %p3 = tx8be.Reshape %plain : (tensor<4x16xf32>) -> tensor<1x4x16xf32>
  %q = tx8be.Relu %p3 : (tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
  return %y, %z, %q : tensor<1x4x16xf32>, tensor<1x8x8xf32>, tensor<1x4x16xf32>
}

// SliceColumns: a packed QKV projection with its bias, chunked into q, k, v along the columns (through the row
// Reshape to [S, 1, 3D] that PyTorch's MultiheadAttention has): three projections of the cut weight and bias,
// the activation never copied.
// CHECK-LABEL: func.func @qkv
// CHECK-NOT: tensor<4x24xf32>
// CHECK: %[[W0:.*]] = tx8be.Slice %[[W:.*]] {offsets = array<i64: 0, 0>, sizes = array<i64: 8, 8>, strides = array<i64: 1, 1>} : (tensor<8x24xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[M0:.*]] = tx8be.MatMul %arg0, %[[W0]] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[B0:.*]] = tx8be.Slice %[[B:.*]] {offsets = array<i64: 0>, sizes = array<i64: 8>, strides = array<i64: 1>} : (tensor<24xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[A0:.*]] = tx8be.Add %[[M0]], %[[B0]] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[Q:.*]] = tx8be.Reshape %[[A0]] : (tensor<4x8xf32>) -> tensor<4x1x8xf32>
// CHECK: tx8be.Slice %[[W]] {offsets = array<i64: 0, 8>
// CHECK: tx8be.Slice %[[W]] {offsets = array<i64: 0, 16>
// CHECK-NOT: tensor<4x24xf32>
// CHECK: return %[[Q]]
func.func @qkv(%x: tensor<4x8xf32>) -> (tensor<4x1x8xf32>, tensor<4x1x8xf32>, tensor<4x1x8xf32>) {
  %w = tx8be.Constant dense<0.5> : tensor<8x24xf32>
  %b = tx8be.Constant dense<1.0> : tensor<24xf32>
  %m = tx8be.MatMul %x, %w : (tensor<4x8xf32>, tensor<8x24xf32>) -> tensor<4x24xf32>
  %mb = tx8be.Add %m, %b : (tensor<4x24xf32>, tensor<24xf32>) -> tensor<4x24xf32>
  %m3 = tx8be.Reshape %mb : (tensor<4x24xf32>) -> tensor<4x1x24xf32>
  %q = tx8be.Slice %m3 {offsets = array<i64: 0, 0, 0>, sizes = array<i64: 4, 1, 8>, strides = array<i64: 1, 1, 1>} : (tensor<4x1x24xf32>) -> tensor<4x1x8xf32>
  %k = tx8be.Slice %m3 {offsets = array<i64: 0, 0, 8>, sizes = array<i64: 4, 1, 8>, strides = array<i64: 1, 1, 1>} : (tensor<4x1x24xf32>) -> tensor<4x1x8xf32>
  %v = tx8be.Slice %m3 {offsets = array<i64: 0, 0, 16>, sizes = array<i64: 4, 1, 8>, strides = array<i64: 1, 1, 1>} : (tensor<4x1x24xf32>) -> tensor<4x1x8xf32>
  return %q, %k, %v : tensor<4x1x8xf32>, tensor<4x1x8xf32>, tensor<4x1x8xf32>
}

// Not cut: a Slice that also cuts rows; a weight that is not a constant; a wide result read by something else
// too (the wide layer would run as well); an epilogue operand that is not constant.
// CHECK-LABEL: func.func @not_cut
// CHECK-NOT: sizes = array<i64: 8, 8>
// CHECK: return
func.func @not_cut(%x: tensor<4x8xf32>, %wv: tensor<8x24xf32>, %bv: tensor<24xf32>)
    -> (tensor<2x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x24xf32>, tensor<4x8xf32>) {
  %w = tx8be.Constant dense<0.5> : tensor<8x24xf32>
  %m = tx8be.MatMul %x, %w : (tensor<4x8xf32>, tensor<8x24xf32>) -> tensor<4x24xf32>
  %rows = tx8be.Slice %m {offsets = array<i64: 0, 0>, sizes = array<i64: 2, 8>, strides = array<i64: 1, 1>} : (tensor<4x24xf32>) -> tensor<2x8xf32>
  %n = tx8be.MatMul %x, %wv : (tensor<4x8xf32>, tensor<8x24xf32>) -> tensor<4x24xf32>
  %c = tx8be.Slice %n {offsets = array<i64: 0, 0>, sizes = array<i64: 4, 8>, strides = array<i64: 1, 1>} : (tensor<4x24xf32>) -> tensor<4x8xf32>
  %o = tx8be.MatMul %x, %w : (tensor<4x8xf32>, tensor<8x24xf32>) -> tensor<4x24xf32>
  %d = tx8be.Slice %o {offsets = array<i64: 0, 0>, sizes = array<i64: 4, 8>, strides = array<i64: 1, 1>} : (tensor<4x24xf32>) -> tensor<4x8xf32>
  %p = tx8be.MatMul %x, %w : (tensor<4x8xf32>, tensor<8x24xf32>) -> tensor<4x24xf32>
  %pb = tx8be.Add %p, %bv : (tensor<4x24xf32>, tensor<24xf32>) -> tensor<4x24xf32>
  %e = tx8be.Slice %pb {offsets = array<i64: 0, 8>, sizes = array<i64: 4, 8>, strides = array<i64: 1, 1>} : (tensor<4x24xf32>) -> tensor<4x8xf32>
  return %rows, %c, %d, %o, %e : tensor<2x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x24xf32>, tensor<4x8xf32>
}

// torch's MultiheadAttention output: a Gemm on [S, D], a Reshape to [S, 1, D] and one to [1, S, D] (its batch
// transpose), then the residual Add: sunk through both Reshapes.
// CHECK-LABEL: func.func @through_two_reshapes
// CHECK: %[[G:.*]] = tx8be.Gemm
// CHECK-NEXT: %[[R:.*]] = tx8be.Reshape %arg1 : (tensor<1x4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[A:.*]] = tx8be.Add %[[R]], %[[G]] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: tx8be.Reshape %[[A]] : (tensor<4x8xf32>) -> tensor<1x4x8xf32>
// CHECK-NOT: tx8be.Reshape
func.func @through_two_reshapes(%x: tensor<4x8xf32>, %res: tensor<1x4x8xf32>) -> tensor<1x4x8xf32> {
  %w = tx8be.Constant dense<0.5> : tensor<8x8xf32>
  %b = tx8be.Constant dense<1.0> : tensor<8xf32>
  %g = tx8be.Gemm %x, %w, %b : (tensor<4x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %s1 = tx8be.Reshape %g : (tensor<4x8xf32>) -> tensor<4x1x8xf32>
  %s2 = tx8be.Reshape %s1 : (tensor<4x1x8xf32>) -> tensor<1x4x8xf32>
  %o = tx8be.Add %res, %s2 : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  return %o : tensor<1x4x8xf32>
}

// A column Slice of a column Slice of a projection (a chunk chunked again): the outer cut first, then the inner
// one on the narrower layer; one MatMul of the [8, 4] cut remains.
// CHECK-LABEL: func.func @slice_of_slice
// CHECK-NOT: tensor<4x24xf32>
// CHECK: tx8be.Slice %{{.*}} {offsets = array<i64: 0, 8>, sizes = array<i64: 8, 8>
// CHECK: tx8be.Slice %{{.*}} {offsets = array<i64: 0, 2>, sizes = array<i64: 8, 4>
// CHECK-NEXT: %[[M:.*]] = tx8be.MatMul %arg0, %{{.*}} : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
// CHECK: return %[[M]]
func.func @slice_of_slice(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %w = tx8be.Constant dense<0.5> : tensor<8x24xf32>
  %m = tx8be.MatMul %x, %w : (tensor<4x8xf32>, tensor<8x24xf32>) -> tensor<4x24xf32>
  %k = tx8be.Slice %m {offsets = array<i64: 0, 8>, sizes = array<i64: 4, 8>, strides = array<i64: 1, 1>} : (tensor<4x24xf32>) -> tensor<4x8xf32>
  %h = tx8be.Slice %k {offsets = array<i64: 0, 2>, sizes = array<i64: 4, 4>, strides = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<4x4xf32>
  return %h : tensor<4x4xf32>
}
