// RUN: tx8-opt %s --split-input-file --tx8be-ne-precision=precision=tf32 | FileCheck %s --check-prefix=TF32
// RUN: tx8-opt %s --split-input-file --tx8be-ne-precision | FileCheck %s --check-prefix=FP32
// RUN: tx8-opt %s --split-input-file --tx8be-ne-precision=precision=bf16 | FileCheck %s --check-prefix=BF16
// RUN: tx8-opt %s --split-input-file --tx8be-ne-precision=precision=fp16 --tx8be-fold-constants | FileCheck %s --check-prefix=FP16
// RUN: not tx8-opt %s --split-input-file --tx8be-ne-precision=precision=fp8 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// bf16: A and B (input and weight) of each NE op go through one Cast per value (%a feeds Gemm and MatMul: one
// Cast); the bias and the result stay f32. Other ops are not touched.
// BF16-LABEL: func.func @ne_ops
// BF16-DAG: %[[XB:.*]] = tx8be.Cast %arg0 : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xbf16>
// BF16-DAG: %[[AB:.*]] = tx8be.Cast %arg2 : (tensor<2x16xf32>) -> tensor<2x16xbf16>
// BF16-DAG: %[[BB:.*]] = tx8be.Cast %arg3 : (tensor<16x5xf32>) -> tensor<16x5xbf16>
// BF16: %[[W:.*]] = tx8be.Constant dense<5.000000e-01> : tensor<4x3x3x3xf32>
// BF16-NEXT: %[[WB:.*]] = tx8be.Cast %[[W]] : (tensor<4x3x3x3xf32>) -> tensor<4x3x3x3xbf16>
// BF16-NEXT: tx8be.Conv %[[XB]], %[[WB]], %arg1 {ne_in_fmt = "bf16", pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xbf16>, tensor<4x3x3x3xbf16>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
// BF16-NEXT: tx8be.Relu %{{.*}} : (tensor<1x4x8x8xf32>)
// BF16-NEXT: tx8be.Gemm %[[AB]], %[[BB]], %arg4 {ne_in_fmt = "bf16"} : (tensor<2x16xbf16>, tensor<16x5xbf16>, tensor<5xf32>) -> tensor<2x5xf32>
// BF16-NEXT: tx8be.MatMul %[[AB]], %[[BB]] {ne_in_fmt = "bf16"} : (tensor<2x16xbf16>, tensor<16x5xbf16>) -> tensor<2x5xf32>
// BF16-NOT: tx8be.Cast
// BF16: return
// fp16 with the constant folding after it: the weight is an f16 constant (converted at compile time).
// FP16-LABEL: func.func @ne_ops
// FP16: tx8be.Constant dense<5.000000e-01> : tensor<4x3x3x3xf16>
// FP16-NOT: tx8be.Cast {{.*}}tensor<4x3x3x3xf32>
// FP16: tx8be.Conv {{.*}}ne_in_fmt = "fp16"{{.*}} : (tensor<1x3x8x8xf16>, tensor<4x3x3x3xf16>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
// BAD: error: --precision fp8: expected fp32, tf32, bf16 or fp16

// tf32: the NE ops (Conv, Gemm, MatMul) on fp32 operands read them as tf32 (ne_in_fmt; the NE rounds the
// fp32-stored values itself, so no Cast and no constant changes); the bias and the fp32 output stay; other ops
// are not touched. fp32 (the default) changes nothing.
// TF32-LABEL: func.func @ne_ops
// TF32: %[[W:.*]] = tx8be.Constant dense<5.000000e-01> : tensor<4x3x3x3xf32>
// TF32-NEXT: tx8be.Conv %arg0, %[[W]], %arg1 {ne_in_fmt = "tf32", pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
// TF32-NEXT: tx8be.Relu %{{.*}} : (tensor<1x4x8x8xf32>)
// TF32-NEXT: tx8be.Gemm %arg2, %arg3, %arg4 {ne_in_fmt = "tf32"} : (tensor<2x16xf32>, tensor<16x5xf32>, tensor<5xf32>) -> tensor<2x5xf32>
// TF32-NEXT: tx8be.MatMul %arg2, %arg3 {ne_in_fmt = "tf32"} : (tensor<2x16xf32>, tensor<16x5xf32>) -> tensor<2x5xf32>
// FP32-LABEL: func.func @ne_ops
// FP32-NOT: ne_in_fmt
// FP32: return
func.func @ne_ops(%x: tensor<1x3x8x8xf32>, %b: tensor<4xf32>, %a: tensor<2x16xf32>, %bm: tensor<16x5xf32>,
                  %c: tensor<5xf32>) -> (tensor<1x4x8x8xf32>, tensor<2x5xf32>, tensor<2x5xf32>) {
  %w = tx8be.Constant dense<0.5> : tensor<4x3x3x3xf32>
  %0 = tx8be.Conv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %1 = tx8be.Relu %0 : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %2 = tx8be.Gemm %a, %bm, %c : (tensor<2x16xf32>, tensor<16x5xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  %3 = tx8be.MatMul %a, %bm : (tensor<2x16xf32>, tensor<16x5xf32>) -> tensor<2x5xf32>
  return %1, %2, %3 : tensor<1x4x8x8xf32>, tensor<2x5xf32>, tensor<2x5xf32>
}

// -----

// A MatMul on fp16 operands is not an fp32 model's: left as it is.
// BF16-LABEL: func.func @not_fp32
// BF16-NOT: tx8be.Cast
// BF16-NOT: ne_in_fmt
// TF32-LABEL: func.func @not_fp32
// TF32-NOT: ne_in_fmt
// TF32: return
func.func @not_fp32(%a: tensor<2x16xf16>, %b: tensor<16x5xf16>) -> tensor<2x5xf16> {
  %0 = tx8be.MatMul %a, %b : (tensor<2x16xf16>, tensor<16x5xf16>) -> tensor<2x5xf16>
  return %0 : tensor<2x5xf16>
}

// -----

// bf16: a MatMul's A behind a Reshape (a linear layer on [1, S, D] after tx8be-decompose's fold): the Reshape's
// input is cast, right after the op that computed it (so group-fuse can put the Cast in its Group), and a
// Reshape of the cast feeds the MatMul (the fp32 Reshape, now unread, is gone).
// BF16-LABEL: func.func @cast_before_view
// BF16: %[[N:.*]] = tx8be.Relu %arg0 : (tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
// BF16-NEXT: %[[C:.*]] = tx8be.Cast %[[N]] : (tensor<1x4x8xf32>) -> tensor<1x4x8xbf16>
// BF16-NEXT: %[[RB:.*]] = tx8be.Reshape %[[C]] : (tensor<1x4x8xbf16>) -> tensor<4x8xbf16>
// BF16: tx8be.MatMul %[[RB]], %{{.*}} {ne_in_fmt = "bf16"} : (tensor<4x8xbf16>, tensor<8x16xbf16>) -> tensor<4x16xf32>
func.func @cast_before_view(%x: tensor<1x4x8xf32>) -> tensor<4x16xf32> {
  %n = tx8be.Relu %x : (tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  %r = tx8be.Reshape %n : (tensor<1x4x8xf32>) -> tensor<4x8xf32>
  %w = tx8be.Constant dense<0.5> : tensor<8x16xf32>
  %m = tx8be.MatMul %r, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}
