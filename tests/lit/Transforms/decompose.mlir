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

// -----

// Gemm with transA, alpha and a scalar C: MatMul of the transposed A, times alpha, plus beta * C. A Gemm
// op_gemm takes (a row-vector C, beta 1) is left alone.
// CHECK-LABEL: func.func @gemm
// CHECK-NEXT: %[[K:.*]] = tx8be.Gemm %arg0, %arg1, %arg3 : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[T:.*]] = tx8be.Transpose %arg2 {perm = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[P:.*]] = tx8be.MatMul %[[T]], %arg1 : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[A:.*]] = tx8be.Constant dense<5.000000e-01> : tensor<1xf32>
// CHECK-NEXT: %[[PA:.*]] = tx8be.Mul %[[P]], %[[A]]
// CHECK-NEXT: %[[B:.*]] = tx8be.Constant dense<2.000000e+00> : tensor<1xf32>
// CHECK-NEXT: %[[CB:.*]] = tx8be.Mul %arg4, %[[B]] : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT: %[[Y:.*]] = tx8be.Add %[[PA]], %[[CB]] : (tensor<2x4xf32>, tensor<1xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: return %[[K]], %[[Y]]
func.func @gemm(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %at: tensor<3x2xf32>, %row: tensor<4xf32>,
                %s: tensor<1xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %k = tx8be.Gemm %a, %b, %row : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %y = tx8be.Gemm %at, %b, %s {alpha = 0.5 : f32, beta = 2.0 : f32, transA = true}
       : (tensor<3x2xf32>, tensor<3x4xf32>, tensor<1xf32>) -> tensor<2x4xf32>
  return %k, %y : tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// Batched MatMul: with a B that is one matrix (2-D, or batch dims all 1), A's batch folds into rows: one 2-D
// MatMul. Otherwise it stays one op (op_gemm loops over the matrices of a step), however many matrices it has,
// with batch dims that broadcast too. A bf16 one whose B folds multiplies in fp32 (ne_in_fmt), then a Cast.
// CHECK-LABEL: func.func @batched_matmul
// CHECK-NEXT: %[[R:.*]] = tx8be.Reshape %arg0 : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: %[[M:.*]] = tx8be.MatMul %[[R]], %arg1 : (tensor<6x4xf32>, tensor<4x5xf32>) -> tensor<6x5xf32>
// CHECK-NEXT: %[[Y0:.*]] = tx8be.Reshape %[[M]] : (tensor<6x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT: %[[R1:.*]] = tx8be.Reshape %arg0 : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: %[[B1:.*]] = tx8be.Reshape %arg2 : (tensor<1x4x5xf32>) -> tensor<4x5xf32>
// CHECK-NEXT: %[[M1:.*]] = tx8be.MatMul %[[R1]], %[[B1]] : (tensor<6x4xf32>, tensor<4x5xf32>) -> tensor<6x5xf32>
// CHECK-NEXT: %[[Y1:.*]] = tx8be.Reshape %[[M1]] : (tensor<6x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT: %[[Y2:.*]] = tx8be.MatMul %arg3, %arg4 : (tensor<2x12x16x8xf32>, tensor<2x12x8x16xf32>) -> tensor<2x12x16x16xf32>
// CHECK-NEXT: %[[Y3:.*]] = tx8be.MatMul %arg5, %arg6 : (tensor<1x12x7x5xf32>, tensor<4x1x5x7xf32>) -> tensor<4x12x7x7xf32>
// CHECK-NEXT: %[[RB:.*]] = tx8be.Reshape %arg7 : (tensor<2x3x4xbf16>) -> tensor<6x4xbf16>
// CHECK-NEXT: %[[MB:.*]] = tx8be.MatMul %[[RB]], %arg8 {ne_in_fmt = "bf16"} : (tensor<6x4xbf16>, tensor<4x5xbf16>) -> tensor<6x5xf32>
// CHECK-NEXT: %[[CB:.*]] = tx8be.Cast %[[MB]] : (tensor<6x5xf32>) -> tensor<6x5xbf16>
// CHECK-NEXT: %[[Y4:.*]] = tx8be.Reshape %[[CB]] : (tensor<6x5xbf16>) -> tensor<2x3x5xbf16>
// CHECK-NEXT: return %[[Y0]], %[[Y1]], %[[Y2]], %[[Y3]], %[[Y4]]
func.func @batched_matmul(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>, %b1: tensor<1x4x5xf32>,
                          %q: tensor<2x12x16x8xf32>, %k: tensor<2x12x8x16xf32>,
                          %x: tensor<1x12x7x5xf32>, %w: tensor<4x1x5x7xf32>,
                          %ah: tensor<2x3x4xbf16>, %bh: tensor<4x5xbf16>)
    -> (tensor<2x3x5xf32>, tensor<2x3x5xf32>, tensor<2x12x16x16xf32>, tensor<4x12x7x7xf32>, tensor<2x3x5xbf16>) {
  %y0 = tx8be.MatMul %a, %b : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  %y1 = tx8be.MatMul %a, %b1 : (tensor<2x3x4xf32>, tensor<1x4x5xf32>) -> tensor<2x3x5xf32>
  %y2 = tx8be.MatMul %q, %k : (tensor<2x12x16x8xf32>, tensor<2x12x8x16xf32>) -> tensor<2x12x16x16xf32>
  %y3 = tx8be.MatMul %x, %w : (tensor<1x12x7x5xf32>, tensor<4x1x5x7xf32>) -> tensor<4x12x7x7xf32>
  %y4 = tx8be.MatMul %ah, %bh : (tensor<2x3x4xbf16>, tensor<4x5xbf16>) -> tensor<2x3x5xbf16>
  return %y0, %y1, %y2, %y3, %y4 : tensor<2x3x5xf32>, tensor<2x3x5xf32>, tensor<2x12x16x16xf32>, tensor<4x12x7x7xf32>, tensor<2x3x5xbf16>
}

// -----

// Window attention multiplies many small matrices (MaxViT-T: 128 per MatMul at 224 x 224, Swin-T 192): one op
// whatever the count (no Slices, no Concat).
// CHECK-LABEL: func.func @many_matrices
// CHECK-NEXT: %[[Y:.*]] = tx8be.MatMul %arg0, %arg1 : (tensor<1x64x3x2x3xf32>, tensor<1x64x3x3x2xf32>) -> tensor<1x64x3x2x2xf32>
// CHECK-NEXT: %[[Z:.*]] = tx8be.MatMul %arg2, %arg3 : (tensor<257x2x3xf32>, tensor<257x3x2xf32>) -> tensor<257x2x2xf32>
// CHECK-NEXT: return %[[Y]], %[[Z]]
func.func @many_matrices(%a: tensor<1x64x3x2x3xf32>, %b: tensor<1x64x3x3x2xf32>, %c: tensor<257x2x3xf32>,
                         %d: tensor<257x3x2xf32>) -> (tensor<1x64x3x2x2xf32>, tensor<257x2x2xf32>) {
  %y = tx8be.MatMul %a, %b : (tensor<1x64x3x2x3xf32>, tensor<1x64x3x3x2xf32>) -> tensor<1x64x3x2x2xf32>
  %z = tx8be.MatMul %c, %d : (tensor<257x2x3xf32>, tensor<257x3x2xf32>) -> tensor<257x2x2xf32>
  return %y, %z : tensor<1x64x3x2x2xf32>, tensor<257x2x2xf32>
}

// -----

// A bf16 (fp16) MatMul, batched too: op_gemm writes fp32, so the MatMul gives fp32 (ne_in_fmt: the NE reads bf16)
// and a Cast rounds it once; an fp32 one stays.
// CHECK-LABEL: func.func @narrow_matmul
// CHECK-NEXT: %[[W:.*]] = tx8be.MatMul %arg0, %arg1 {ne_in_fmt = "bf16"} : (tensor<4x8xbf16>, tensor<8x2xbf16>) -> tensor<4x2xf32>
// CHECK-NEXT: %[[Y:.*]] = tx8be.Cast %[[W]] : (tensor<4x2xf32>) -> tensor<4x2xbf16>
// CHECK-NEXT: %[[H:.*]] = tx8be.MatMul %arg2, %arg3 {ne_in_fmt = "fp16"} : (tensor<4x8xf16>, tensor<8x2xf16>) -> tensor<4x2xf32>
// CHECK-NEXT: %[[Z:.*]] = tx8be.Cast %[[H]] : (tensor<4x2xf32>) -> tensor<4x2xf16>
// CHECK-NEXT: %[[F:.*]] = tx8be.MatMul %arg4, %arg5 : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: %[[BW:.*]] = tx8be.MatMul %arg6, %arg7 {ne_in_fmt = "bf16"} : (tensor<2x3x4x8xbf16>, tensor<2x3x8x2xbf16>) -> tensor<2x3x4x2xf32>
// CHECK-NEXT: %[[BY:.*]] = tx8be.Cast %[[BW]] : (tensor<2x3x4x2xf32>) -> tensor<2x3x4x2xbf16>
// CHECK-NEXT: return %[[Y]], %[[Z]], %[[F]], %[[BY]]
func.func @narrow_matmul(%a: tensor<4x8xbf16>, %b: tensor<8x2xbf16>, %c: tensor<4x8xf16>, %d: tensor<8x2xf16>,
                         %e: tensor<4x8xf32>, %f: tensor<8x2xf32>, %ba: tensor<2x3x4x8xbf16>, %bb: tensor<2x3x8x2xbf16>)
    -> (tensor<4x2xbf16>, tensor<4x2xf16>, tensor<4x2xf32>, tensor<2x3x4x2xbf16>) {
  %y = tx8be.MatMul %a, %b : (tensor<4x8xbf16>, tensor<8x2xbf16>) -> tensor<4x2xbf16>
  %z = tx8be.MatMul %c, %d : (tensor<4x8xf16>, tensor<8x2xf16>) -> tensor<4x2xf16>
  %g = tx8be.MatMul %e, %f : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  %h = tx8be.MatMul %ba, %bb : (tensor<2x3x4x8xbf16>, tensor<2x3x8x2xbf16>) -> tensor<2x3x4x2xbf16>
  return %y, %z, %g, %h : tensor<4x2xbf16>, tensor<4x2xf16>, tensor<4x2xf32>, tensor<2x3x4x2xbf16>
}

// -----

// ArgMax (first index): hit = (x == max) or isnan(x); min(iota + K * not(hit)) along the axis in f32, cast to
// i64, the axis dropped (keepdims false).
// CHECK-LABEL: func.func @argmax
// CHECK-NEXT: %[[M:.*]] = tx8be.ReduceMax %arg0 {axes = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: %[[SELF:.*]] = tx8be.Equal %arg0, %arg0
// CHECK-NEXT: %[[NAN:.*]] = tx8be.Not %[[SELF]]
// CHECK-NEXT: %[[EQ:.*]] = tx8be.Equal %arg0, %[[M]] : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xi1>
// CHECK-NEXT: %[[HIT:.*]] = tx8be.Or %[[EQ]], %[[NAN]]
// CHECK-NEXT: %[[IOTA:.*]] = tx8be.Constant dense<[{{\[}}0.000000e+00, 1.000000e+00, 2.000000e+00]]> : tensor<1x3xf32>
// CHECK-NEXT: %[[MISS:.*]] = tx8be.Not %[[HIT]]
// CHECK-NEXT: %[[MISSF:.*]] = tx8be.Cast %[[MISS]] : (tensor<2x3xi1>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[K:.*]] = tx8be.Constant dense<3.000000e+00> : tensor<1xf32>
// CHECK-NEXT: %[[P:.*]] = tx8be.Mul %[[MISSF]], %[[K]]
// CHECK-NEXT: %[[C:.*]] = tx8be.Add %[[P]], %[[IOTA]]
// CHECK-NEXT: %[[I:.*]] = tx8be.ReduceMin %[[C]] {axes = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: %[[L:.*]] = tx8be.Cast %[[I]] : (tensor<2x1xf32>) -> tensor<2x1xi64>
// CHECK-NEXT: %[[R:.*]] = tx8be.Reshape %[[L]] : (tensor<2x1xi64>) -> tensor<2xi64>
// CHECK-NEXT: return %[[R]]
func.func @argmax(%x: tensor<2x3xf32>) -> tensor<2xi64> {
  %0 = tx8be.ArgMax %x {axis = 1 : i64, keepdims = false} : (tensor<2x3xf32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// ArgMin, the last index: max(hit * (iota + 1)) - 1 along the axis; keepdims keeps it.
// CHECK-LABEL: func.func @argmin_last
// CHECK-NEXT: %[[M:.*]] = tx8be.ReduceMin %arg0 {axes = array<i64: 0>}
// CHECK: %[[IOTA:.*]] = tx8be.Constant dense<[{{\[}}1.000000e+00], [2.000000e+00]]> : tensor<2x1xf32>
// CHECK-NEXT: %[[HITF:.*]] = tx8be.Cast
// CHECK-NEXT: %[[MARK:.*]] = tx8be.Mul %[[HITF]], %[[IOTA]]
// CHECK-NEXT: %[[MAX:.*]] = tx8be.ReduceMax %[[MARK]] {axes = array<i64: 0>}
// CHECK-NEXT: %[[ONE:.*]] = tx8be.Constant dense<1.000000e+00> : tensor<1xf32>
// CHECK-NEXT: %[[I:.*]] = tx8be.Sub %[[MAX]], %[[ONE]]
// CHECK-NEXT: %[[L:.*]] = tx8be.Cast %[[I]] : (tensor<1x3xf32>) -> tensor<1x3xi64>
// CHECK-NEXT: return %[[L]]
func.func @argmin_last(%x: tensor<2x3xf32>) -> tensor<1x3xi64> {
  %0 = tx8be.ArgMin %x {axis = 0 : i64, select_last_index = true} : (tensor<2x3xf32>) -> tensor<1x3xi64>
  return %0 : tensor<1x3xi64>
}

// -----

// Gather of float data on axis 1 of [2, 5, 3] with [2, 2] indices: the view [outer 2, index 4, candidate 5,
// inner 3]; negative indices wrapped; the mask (index == iota) and the data broadcast to it; Where with 0 and a
// ReduceSum over the candidates, reshaped to [2, 2, 2, 3]. Integer data keeps its Gather.
// CHECK-LABEL: func.func @gather
// CHECK: %[[I:.*]] = tx8be.Reshape %arg1 : (tensor<2x2xi32>) -> tensor<1x4x1x1xi32>
// CHECK: %[[NEG:.*]] = tx8be.Less %[[I]], %{{.*}} : (tensor<1x4x1x1xi32>, tensor<1xi32>) -> tensor<1x4x1x1xi1>
// CHECK: %[[UP:.*]] = tx8be.Add %[[I]], %{{.*}} : (tensor<1x4x1x1xi32>, tensor<1xi32>) -> tensor<1x4x1x1xi32>
// CHECK: %[[W:.*]] = tx8be.Where %[[NEG]], %[[UP]], %[[I]]
// CHECK: %[[IOTA:.*]] = tx8be.Constant dense<{{\[\[\[\[0\], \[1\], \[2\], \[3\], \[4\]\]\]\]}}> : tensor<1x1x5x1xi32>
// CHECK: %[[EQ:.*]] = tx8be.Equal %[[W]], %[[IOTA]] : (tensor<1x4x1x1xi32>, tensor<1x1x5x1xi32>) -> tensor<1x4x5x1xi1>
// CHECK: %[[M:.*]] = tx8be.Expand %[[EQ]] : (tensor<1x4x5x1xi1>) -> tensor<2x4x5x3xi1>
// CHECK: %[[D:.*]] = tx8be.Reshape %arg0 : (tensor<2x5x3xf32>) -> tensor<2x1x5x3xf32>
// CHECK: %[[C:.*]] = tx8be.Expand %[[D]] : (tensor<2x1x5x3xf32>) -> tensor<2x4x5x3xf32>
// CHECK: %[[Z:.*]] = tx8be.Expand %{{.*}} : (tensor<1x1x1x1xf32>) -> tensor<2x4x5x3xf32>
// CHECK: %[[P:.*]] = tx8be.Where %[[M]], %[[C]], %[[Z]]
// CHECK: %[[S:.*]] = tx8be.ReduceSum %[[P]] {axes = array<i64: 2>, keepdims = false} : (tensor<2x4x5x3xf32>) -> tensor<2x4x3xf32>
// CHECK: %[[Y:.*]] = tx8be.Reshape %[[S]] : (tensor<2x4x3xf32>) -> tensor<2x2x2x3xf32>
// CHECK: return %[[Y]]
// CHECK-LABEL: func.func @gather_int
// CHECK-NEXT: tx8be.Gather
func.func @gather(%x: tensor<2x5x3xf32>, %i: tensor<2x2xi32>) -> tensor<2x2x2x3xf32> {
  %0 = tx8be.Gather %x, %i {axis = 1 : i64} : (tensor<2x5x3xf32>, tensor<2x2xi32>) -> tensor<2x2x2x3xf32>
  return %0 : tensor<2x2x2x3xf32>
}
func.func @gather_int(%x: tensor<2x5xi32>, %i: tensor<2xi64>) -> tensor<2x2xi32> {
  %0 = tx8be.Gather %x, %i {axis = 1 : i64} : (tensor<2x5xi32>, tensor<2xi64>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

// A rank-5 broadcasting Mul on the view that merges neighbours broadcast alike: [2, 3, 4, 5, 6] * [3, 1, 1, 1]
// is [2, 3, 120] * [1, 3, 1] between Reshapes (OpLib's view folds ranks above 4 and cannot fold a full dim
// with a broadcast one). Rank 4 and below are left as they are.
// CHECK-LABEL: func.func @collapse_broadcast
// CHECK-NEXT: %[[X:.*]] = tx8be.Reshape %arg0 : (tensor<2x3x4x5x6xf32>) -> tensor<2x3x120xf32>
// CHECK-NEXT: %[[S:.*]] = tx8be.Reshape %arg1 : (tensor<3x1x1x1xf32>) -> tensor<1x3x1xf32>
// CHECK-NEXT: %[[M:.*]] = tx8be.Mul %[[X]], %[[S]] : (tensor<2x3x120xf32>, tensor<1x3x1xf32>) -> tensor<2x3x120xf32>
// CHECK-NEXT: %[[Y:.*]] = tx8be.Reshape %[[M]] : (tensor<2x3x120xf32>) -> tensor<2x3x4x5x6xf32>
// CHECK-NEXT: %[[R4:.*]] = tx8be.Mul %arg2, %arg3 : (tensor<2x3x4x5xf32>, tensor<3x1x1xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NEXT: return %[[Y]], %[[R4]]
func.func @collapse_broadcast(%x: tensor<2x3x4x5x6xf32>, %s: tensor<3x1x1x1xf32>, %x4: tensor<2x3x4x5xf32>, %s4: tensor<3x1x1xf32>) -> (tensor<2x3x4x5x6xf32>, tensor<2x3x4x5xf32>) {
  %0 = tx8be.Mul %x, %s : (tensor<2x3x4x5x6xf32>, tensor<3x1x1x1xf32>) -> tensor<2x3x4x5x6xf32>
  %1 = tx8be.Mul %x4, %s4 : (tensor<2x3x4x5xf32>, tensor<3x1x1xf32>) -> tensor<2x3x4x5xf32>
  return %0, %1 : tensor<2x3x4x5x6xf32>, tensor<2x3x4x5xf32>
}

// -----

// A Slice of the whole input in order is the input; any other Slice stays.
// CHECK-LABEL: func.func @whole_slice
// CHECK-NEXT: %[[S:.*]] = tx8be.Slice %arg0 {offsets = array<i64: 1, 0>
// CHECK-NEXT: return %arg0, %[[S]]
func.func @whole_slice(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<1x3xf32>) {
  %0 = tx8be.Slice %x {offsets = array<i64: 0, 0>, sizes = array<i64: 2, 3>, strides = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = tx8be.Slice %x {offsets = array<i64: 1, 0>, sizes = array<i64: 1, 3>, strides = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<1x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<1x3xf32>
}

// -----

// A unary elementwise op of rank > 6 on its 1-D view (OpLib's tensors hold 6 dims); rank 6 stays.
// CHECK-LABEL: func.func @flatten_rank7
// CHECK-NEXT: %[[F:.*]] = tx8be.Reshape %arg0 : (tensor<2x1x2x1x2x1x2xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[L:.*]] = tx8be.LeakyRelu %[[F]] {alpha = 2.000000e-01 : f32} : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[Y:.*]] = tx8be.Reshape %[[L]] : (tensor<16xf32>) -> tensor<2x1x2x1x2x1x2xf32>
// CHECK-NEXT: %[[S:.*]] = tx8be.Relu %arg1 : (tensor<2x1x2x1x2x1xf32>) -> tensor<2x1x2x1x2x1xf32>
// CHECK-NEXT: return %[[Y]], %[[S]]
func.func @flatten_rank7(%x: tensor<2x1x2x1x2x1x2xf32>, %y: tensor<2x1x2x1x2x1xf32>) -> (tensor<2x1x2x1x2x1x2xf32>, tensor<2x1x2x1x2x1xf32>) {
  %0 = tx8be.LeakyRelu %x {alpha = 0.2 : f32} : (tensor<2x1x2x1x2x1x2xf32>) -> tensor<2x1x2x1x2x1x2xf32>
  %1 = tx8be.Relu %y : (tensor<2x1x2x1x2x1xf32>) -> tensor<2x1x2x1x2x1xf32>
  return %0, %1 : tensor<2x1x2x1x2x1x2xf32>, tensor<2x1x2x1x2x1xf32>
}

// -----

// An embedding, rows of a constant 2-D table, stays a Gather: op_gather_rows copies the rows from DDR (no one-hot
// MatMul over the whole table). So does one of a table with an Inf (the rows are copied bit for bit).
// CHECK-LABEL: func.func @embedding
// CHECK-NEXT: tx8be.Constant
// CHECK-NEXT: %[[G:.*]] = tx8be.Gather %{{.*}}, %arg0 : (tensor<4x2xf32>, tensor<3xi64>) -> tensor<3x2xf32>
// CHECK-NEXT: return %[[G]]
// CHECK-LABEL: func.func @embedding_nonfinite
// CHECK-NEXT: tx8be.Constant
// CHECK-NEXT: tx8be.Gather
// CHECK-NEXT: return
func.func @embedding(%i: tensor<3xi64>) -> tensor<3x2xf32> {
  %t = tx8be.Constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %0 = tx8be.Gather %t, %i {axis = 0 : i64} : (tensor<4x2xf32>, tensor<3xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
func.func @embedding_nonfinite(%i: tensor<3xi64>) -> tensor<3x2xf32> {
  %t = tx8be.Constant dense<"0x0000803F0000807F000040400000804000000A4100000C4100000E4100001041"> : tensor<4x2xf32>
  %0 = tx8be.Gather %t, %i {axis = 0 : i64} : (tensor<4x2xf32>, tensor<3xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// Rows of a constant f32 table of rank 3 (op_gather_rows takes 2-D tables) as a MatMul: the wrapped indices [3, 1]
// expanded to [3, 4], compared with the iota of the rows, cast to the one-hot f32 [3, 4], times the table viewed as
// [4, 2].
// CHECK-LABEL: func.func @rows_rank3
// CHECK: %[[E:.*]] = tx8be.Expand %{{.*}} : (tensor<3x1xi64>) -> tensor<3x4xi64>
// CHECK-NEXT: %[[H:.*]] = tx8be.Equal %[[E]], %{{.*}} : (tensor<3x4xi64>, tensor<1x4xi64>) -> tensor<3x4xi1>
// CHECK-NEXT: %[[F:.*]] = tx8be.Cast %[[H]] : (tensor<3x4xi1>) -> tensor<3x4xf32>
// CHECK: tx8be.MatMul %[[F]], %{{.*}} : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
// CHECK-NOT: tx8be.Gather
func.func @rows_rank3(%i: tensor<3xi64>) -> tensor<3x2x1xf32> {
  %t = tx8be.Constant dense<[[[1.0], [2.0]], [[3.0], [4.0]], [[5.0], [6.0]], [[7.0], [8.0]]]> : tensor<4x2x1xf32>
  %0 = tx8be.Gather %t, %i {axis = 0 : i64} : (tensor<4x2x1xf32>, tensor<3xi64>) -> tensor<3x2x1xf32>
  return %0 : tensor<3x2x1xf32>
}

// -----

// A table that is not a constant, or a constant table gathered along axis 1, has no kernel: the one-hot selection.
// CHECK-LABEL: func.func @rows_of_variable
// CHECK-NOT: tx8be.Gather
// CHECK: tx8be.Where
// CHECK: tx8be.ReduceSum
// CHECK-NOT: tx8be.Gather
// CHECK-LABEL: func.func @columns_of_constant
// CHECK-NOT: tx8be.Gather
// CHECK: tx8be.Where
// CHECK: tx8be.ReduceSum
// CHECK-NOT: tx8be.Gather
func.func @rows_of_variable(%t: tensor<4x2xf32>, %i: tensor<3xi64>) -> tensor<3x2xf32> {
  %0 = tx8be.Gather %t, %i {axis = 0 : i64} : (tensor<4x2xf32>, tensor<3xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
func.func @columns_of_constant(%i: tensor<3xi64>) -> tensor<4x3xf32> {
  %t = tx8be.Constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %0 = tx8be.Gather %t, %i {axis = 1 : i64} : (tensor<4x2xf32>, tensor<3xi64>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
