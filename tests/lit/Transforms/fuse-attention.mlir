// RUN: tx8-opt %s --split-input-file --tx8be-fuse-attention --mlir-print-local-scope --mlir-print-debuginfo | FileCheck %s

// ViT (torch's _scaled_dot_product_attention): q / sqrt(E), q k^T with k transposed, Softmax, p v. One op at
// the final MatMul's location, scale 1/8; the Div, the Transpose, the Softmax and both MatMuls are gone.
// CHECK-LABEL: func.func @vit
// CHECK: %[[A:.*]] = tx8be.Attention %arg0, %arg1, %arg2 {scale = 1.250000e-01 : f32} : (tensor<1x2x5x64xf32>, tensor<1x2x5x64xf32>, tensor<1x2x5x64xf32>) -> tensor<1x2x5x64xf32> loc("pv")
// CHECK-NOT: tx8be.MatMul
// CHECK-NOT: tx8be.Softmax
// CHECK-NOT: tx8be.Transpose
// CHECK-NOT: tx8be.Div
// CHECK: return %[[A]]
func.func @vit(%q: tensor<1x2x5x64xf32>, %k: tensor<1x2x5x64xf32>, %v: tensor<1x2x5x64xf32>) -> tensor<1x2x5x64xf32> {
  %c = tx8be.Constant dense<8.0> : tensor<f32>
  %qs = tx8be.Div %q, %c : (tensor<1x2x5x64xf32>, tensor<f32>) -> tensor<1x2x5x64xf32>
  %kt = tx8be.Transpose %k {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x5x64xf32>) -> tensor<1x2x64x5xf32>
  %s = tx8be.MatMul %qs, %kt : (tensor<1x2x5x64xf32>, tensor<1x2x64x5xf32>) -> tensor<1x2x5x5xf32>
  %p = tx8be.Softmax %s {axis = -1 : i64} : (tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  %o = tx8be.MatMul %p, %v : (tensor<1x2x5x5xf32>, tensor<1x2x5x64xf32>) -> tensor<1x2x5x64xf32> loc("pv")
  return %o : tensor<1x2x5x64xf32>
}

// -----

// BERT: scores / sqrt(d) + the additive mask [B,1,1,S] (either Add operand order), 3-D heads.
// CHECK-LABEL: func.func @bert
// CHECK: tx8be.Attention %arg0, %arg1, %arg2, %arg3 {scale = 5.000000e-01 : f32} : (tensor<2x3x7x4xf32>, tensor<2x3x7x4xf32>, tensor<2x3x7x4xf32>, tensor<2x1x1x7xf32>) -> tensor<2x3x7x4xf32>
// CHECK-NOT: tx8be.Softmax
func.func @bert(%q: tensor<2x3x7x4xf32>, %k: tensor<2x3x7x4xf32>, %v: tensor<2x3x7x4xf32>, %m: tensor<2x1x1x7xf32>) -> tensor<2x3x7x4xf32> {
  %kt = tx8be.Transpose %k {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x3x7x4xf32>) -> tensor<2x3x4x7xf32>
  %s = tx8be.MatMul %q, %kt : (tensor<2x3x7x4xf32>, tensor<2x3x4x7xf32>) -> tensor<2x3x7x7xf32>
  %c = tx8be.Constant dense<2.0> : tensor<f32>
  %d = tx8be.Div %s, %c : (tensor<2x3x7x7xf32>, tensor<f32>) -> tensor<2x3x7x7xf32>
  %a = tx8be.Add %m, %d : (tensor<2x1x1x7xf32>, tensor<2x3x7x7xf32>) -> tensor<2x3x7x7xf32>
  %p = tx8be.Softmax %a {axis = 3 : i64} : (tensor<2x3x7x7xf32>) -> tensor<2x3x7x7xf32>
  %o = tx8be.MatMul %p, %v : (tensor<2x3x7x7xf32>, tensor<2x3x7x4xf32>) -> tensor<2x3x7x4xf32>
  return %o : tensor<2x3x7x4xf32>
}

// -----

// GPT: scores * 0.25, Where(lower triangle, scores, -inf): the causal flag, no mask operand.
// CHECK-LABEL: func.func @gpt_causal
// CHECK: tx8be.Attention %arg0, %arg1, %arg2 {causal = true, scale = 2.500000e-01 : f32} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NOT: tx8be.Where
func.func @gpt_causal(%q: tensor<2x3x4xf32>, %k: tensor<2x3x4xf32>, %v: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %kt = tx8be.Transpose %k {perm = array<i64: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  %s = tx8be.MatMul %q, %kt : (tensor<2x3x4xf32>, tensor<2x4x3xf32>) -> tensor<2x3x3xf32>
  %c = tx8be.Constant dense<0.25> : tensor<1xf32>
  %d = tx8be.Mul %s, %c : (tensor<2x3x3xf32>, tensor<1xf32>) -> tensor<2x3x3xf32>
  %tri = tx8be.Constant dense<[[[true, false, false], [true, true, false], [true, true, true]]]> : tensor<1x3x3xi1>
  %ninf = tx8be.Constant dense<0xFF800000> : tensor<f32>
  %w = tx8be.Where %tri, %d, %ninf : (tensor<1x3x3xi1>, tensor<2x3x3xf32>, tensor<f32>) -> tensor<2x3x3xf32>
  %p = tx8be.Softmax %w {axis = -1 : i64} : (tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  %o = tx8be.MatMul %p, %v : (tensor<2x3x3xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %o : tensor<2x3x4xf32>
}

// -----

// masked_fill(upper, finfo.min) (the condition marks the masked keys) with Skv > Sq: still causal.
// CHECK-LABEL: func.func @causal_inverted
// CHECK: tx8be.Attention %arg0, %arg1, %arg2 {causal = true} : (tensor<2x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
func.func @causal_inverted(%q: tensor<2x4xf32>, %k: tensor<3x4xf32>, %v: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %kt = tx8be.Transpose %k {perm = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %s = tx8be.MatMul %q, %kt : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %up = tx8be.Constant dense<[[false, false, true], [false, false, false]]> : tensor<2x3xi1>
  %min = tx8be.Constant dense<-3.40282347E+38> : tensor<f32>
  %w = tx8be.Where %up, %min, %s : (tensor<2x3xi1>, tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %p = tx8be.Softmax %w {axis = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %o = tx8be.MatMul %p, %v : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %o : tensor<2x4xf32>
}

// -----

// A constant condition that is not the causal triangle: an additive mask constant (0 kept, the fill masked).
// CHECK-LABEL: func.func @where_mask
// CHECK: %[[M:.*]] = tx8be.Constant dense<{{\[\[}}0.000000e+00, -1.000000e+04], [-1.000000e+04, 0.000000e+00]]> : tensor<2x2xf32>
// CHECK: tx8be.Attention %arg0, %arg1, %arg2, %[[M]] : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x2xf32>) -> tensor<2x4xf32>
func.func @where_mask(%q: tensor<2x4xf32>, %k: tensor<2x4xf32>, %v: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %kt = tx8be.Transpose %k {perm = array<i64: 1, 0>} : (tensor<2x4xf32>) -> tensor<4x2xf32>
  %s = tx8be.MatMul %q, %kt : (tensor<2x4xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>
  %keep = tx8be.Constant dense<[[true, false], [false, true]]> : tensor<2x2xi1>
  %fill = tx8be.Constant dense<-1.0e4> : tensor<f32>
  %w = tx8be.Where %keep, %s, %fill : (tensor<2x2xi1>, tensor<2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  %p = tx8be.Softmax %w {axis = -1 : i64} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %o = tx8be.MatMul %p, %v : (tensor<2x2xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %o : tensor<2x4xf32>
}

// -----

// k^T given as a value (no Transpose to read through): the pass adds one; scales on q and on k^T multiply.
// CHECK-LABEL: func.func @kt_value
// CHECK: %[[K:.*]] = tx8be.Transpose %arg1 {perm = array<i64: 1, 0>} : (tensor<4x3xf32>) -> tensor<3x4xf32>
// CHECK: tx8be.Attention %arg0, %[[K]], %arg2 {scale = 1.250000e-01 : f32}
func.func @kt_value(%q: tensor<2x4xf32>, %kt: tensor<4x3xf32>, %v: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %c = tx8be.Constant dense<0.5> : tensor<f32>
  %c2 = tx8be.Constant dense<4.0> : tensor<f32>
  %qs = tx8be.Mul %c, %q : (tensor<f32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %ks = tx8be.Div %kt, %c2 : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  %s = tx8be.MatMul %qs, %ks : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %p = tx8be.Softmax %s {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %o = tx8be.MatMul %p, %v : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %o : tensor<2x4xf32>
}

// -----

// Refused: the scores are read by something else too.
// CHECK-LABEL: func.func @scores_escape
// CHECK-NOT: tx8be.Attention
// CHECK: tx8be.Softmax
func.func @scores_escape(%q: tensor<2x4xf32>, %kt: tensor<4x3xf32>, %v: tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2x3xf32>) {
  %s = tx8be.MatMul %q, %kt : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %p = tx8be.Softmax %s {axis = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %o = tx8be.MatMul %p, %v : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %o, %s : tensor<2x4xf32>, tensor<2x3xf32>
}

// -----

// Refused: the probabilities are returned too.
// CHECK-LABEL: func.func @probs_escape
// CHECK-NOT: tx8be.Attention
func.func @probs_escape(%q: tensor<2x4xf32>, %kt: tensor<4x3xf32>, %v: tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2x3xf32>) {
  %s = tx8be.MatMul %q, %kt : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %p = tx8be.Softmax %s {axis = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %o = tx8be.MatMul %p, %v : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %o, %p : tensor<2x4xf32>, tensor<2x3xf32>
}

// -----

// Refused: a softmax over the queries (axis 0), a scale that is not a constant, a non-constant condition, a
// fill that is not a large negative.
// CHECK-LABEL: func.func @refusals
// CHECK-NOT: tx8be.Attention
func.func @refusals(%q: tensor<2x4xf32>, %kt: tensor<4x3xf32>, %v: tensor<3x4xf32>, %v2: tensor<2x4xf32>,
                    %x: tensor<2x3xf32>, %cond: tensor<2x3xi1>)
    -> (tensor<3x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %s0 = tx8be.MatMul %q, %kt : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %p0 = tx8be.Softmax %s0 {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %t0 = tx8be.Transpose %p0 {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %o0 = tx8be.MatMul %t0, %v2 : (tensor<3x2xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  %s1 = tx8be.MatMul %q, %kt : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %d1 = tx8be.Mul %s1, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %p1 = tx8be.Softmax %d1 {axis = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %o1 = tx8be.MatMul %p1, %v : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %s2 = tx8be.MatMul %q, %kt : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %ninf = tx8be.Constant dense<0xFF800000> : tensor<f32>
  %w2 = tx8be.Where %cond, %s2, %ninf : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %p2 = tx8be.Softmax %w2 {axis = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %o2 = tx8be.MatMul %p2, %v : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %s3 = tx8be.MatMul %q, %kt : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %keep = tx8be.Constant dense<true> : tensor<2x3xi1>
  %zero = tx8be.Constant dense<-1.0> : tensor<f32>
  %w3 = tx8be.Where %keep, %s3, %zero : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %p3 = tx8be.Softmax %w3 {axis = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %o3 = tx8be.MatMul %p3, %v : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %o0, %o1, %o2, %o3 : tensor<3x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// Refused: one head's K and V (2 x 512 x 64 fp32 = 256 KiB) and the scratch exceed a 64 KiB SPM.
// CHECK-LABEL: func.func @too_big
// CHECK-NOT: tx8be.Attention
// CHECK: tx8be.Softmax
module attributes {tx8be.hw_config = {spm_bytes = 65536 : i64}} {
func.func @too_big(%q: tensor<4x64xf32>, %kt: tensor<64x512xf32>, %v: tensor<512x64xf32>) -> tensor<4x64xf32> {
  %s = tx8be.MatMul %q, %kt : (tensor<4x64xf32>, tensor<64x512xf32>) -> tensor<4x512xf32>
  %p = tx8be.Softmax %s {axis = -1 : i64} : (tensor<4x512xf32>) -> tensor<4x512xf32>
  %o = tx8be.MatMul %p, %v : (tensor<4x512xf32>, tensor<512x64xf32>) -> tensor<4x64xf32>
  return %o : tensor<4x64xf32>
}
}
