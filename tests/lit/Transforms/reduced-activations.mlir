// RUN: tx8-opt %s --split-input-file --tx8be-ne-precision=precision=bf16 --tx8be-reduced-activations=precision=bf16 | FileCheck %s
// RUN: tx8-opt %s --split-input-file --tx8be-ne-precision=precision=fp16 --tx8be-reduced-activations=precision=fp16 --tx8be-fold-constants | FileCheck %s --check-prefix=FP16
// RUN: not tx8-opt %s --split-input-file --tx8be-reduced-activations=precision=tf32 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// A pre-norm transformer's MLP half: LayerNorm, Linear (MatMul + bias), Gelu, residual Add, then a Softmax read
// by the result and by a ReduceMean (no reduced kernel: it reads a Cast back to f32).
// The argument is cast once (LayerNorm and the residual Add read it); the LayerNorm computes in bf16 and the
// MatMul reads its result directly (tx8be-ne-precision's Cast is gone); bias Add and Gelu read only the
// MatMul's f32 tail and constants, so they stay f32; the residual Add reads the tail through one Cast and the
// argument's, and computes in bf16 with the Softmax after it; the function's result is cast back to f32.
// CHECK-LABEL: func.func @mlp_block
// CHECK: %[[XB:.*]] = tx8be.Cast %arg0 : (tensor<4x8xf32>) -> tensor<4x8xbf16>
// CHECK: %[[LN:.*]] = tx8be.LayerNorm %[[XB]], %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<4x8xbf16>, tensor<8xbf16>, tensor<8xbf16>) -> tensor<4x8xbf16>
// CHECK: %[[MM:.*]] = tx8be.MatMul %[[LN]], %{{.*}} {ne_in_fmt = "bf16"} : (tensor<4x8xbf16>, tensor<8x8xbf16>) -> tensor<4x8xf32>
// CHECK: %[[BIAS:.*]] = tx8be.Add %[[MM]], %{{.*}} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[G:.*]] = tx8be.Gelu %[[BIAS]] : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[GB:.*]] = tx8be.Cast %[[G]] : (tensor<4x8xf32>) -> tensor<4x8xbf16>
// CHECK-NEXT: %[[RES:.*]] = tx8be.Add %[[GB]], %[[XB]] : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
// CHECK-NEXT: %[[SM:.*]] = tx8be.Softmax %[[RES]] : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
// CHECK-NEXT: %[[SM32:.*]] = tx8be.Cast %[[SM]] : (tensor<4x8xbf16>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[MEAN:.*]] = tx8be.ReduceMean %[[SM32]] {{.*}} -> tensor<4x1xf32>
// CHECK-NEXT: return %[[SM32]], %[[MEAN]] : tensor<4x8xf32>, tensor<4x1xf32>
// fp16, constants folded: gamma and beta are f16 constants, the weight too; the bias stays f32.
// FP16-LABEL: func.func @mlp_block
// FP16: tx8be.LayerNorm {{.*}} : (tensor<4x8xf16>, tensor<8xf16>, tensor<8xf16>) -> tensor<4x8xf16>
// FP16-NOT: tx8be.Cast {{.*}}tensor<8xf32>) -> tensor<8xf16>
// FP16: tx8be.Add {{.*}} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// BAD: error: tx8be-reduced-activations: --precision tf32: expected bf16 or fp16
func.func @mlp_block(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x1xf32>) {
  %gamma = tx8be.Constant dense<1.5> : tensor<8xf32>
  %beta = tx8be.Constant dense<0.25> : tensor<8xf32>
  %ln = tx8be.LayerNorm %x, %gamma, %beta {axis = 1 : i64} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %w = tx8be.Constant dense<0.5> : tensor<8x8xf32>
  %mm = tx8be.MatMul %ln, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %b = tx8be.Constant dense<0.125> : tensor<8xf32>
  %bias = tx8be.Add %mm, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %g = tx8be.Gelu %bias : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %res = tx8be.Add %g, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %sm = tx8be.Softmax %res : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %mean = tx8be.ReduceMean %sm {axes = array<i64: -1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %sm, %mean : tensor<4x8xf32>, tensor<4x1xf32>
}

// -----

// Views and copies follow their input's format: the head split of an attention (Reshape, Transpose) after a
// projection reads the projection's tail through one Cast, and a Concat of a reduced value and a constant reads
// the constant's Cast. A Where (no reduced form here) reads a Cast back to f32.
// CHECK-LABEL: func.func @views
// CHECK: %[[P:.*]] = tx8be.MatMul {{.*}} -> tensor<6x8xf32>
// CHECK-NEXT: %[[PB:.*]] = tx8be.Cast %[[P]] : (tensor<6x8xf32>) -> tensor<6x8xbf16>
// CHECK-NEXT: %[[R:.*]] = tx8be.Reshape %[[PB]] : (tensor<6x8xbf16>) -> tensor<6x2x4xbf16>
// CHECK-NEXT: %[[T:.*]] = tx8be.Transpose %[[R]] {perm = array<i64: 1, 0, 2>} : (tensor<6x2x4xbf16>) -> tensor<2x6x4xbf16>
// CHECK: tx8be.Concat %[[T]], %{{.*}} {axis = 1 : i64} : (tensor<2x6x4xbf16>, tensor<2x1x4xbf16>) -> tensor<2x7x4xbf16>
// CHECK: tx8be.Cast %{{.*}} : (tensor<2x7x4xbf16>) -> tensor<2x7x4xf32>
// CHECK: tx8be.Where
func.func @views(%a: tensor<6x8xf32>, %c: tensor<2x7x4xi1>) -> tensor<2x7x4xf32> {
  %w = tx8be.Constant dense<0.5> : tensor<8x8xf32>
  %p = tx8be.MatMul %a, %w : (tensor<6x8xf32>, tensor<8x8xf32>) -> tensor<6x8xf32>
  %r = tx8be.Reshape %p : (tensor<6x8xf32>) -> tensor<6x2x4xf32>
  %t = tx8be.Transpose %r {perm = array<i64: 1, 0, 2>} : (tensor<6x2x4xf32>) -> tensor<2x6x4xf32>
  %cls = tx8be.Constant dense<1.0> : tensor<2x1x4xf32>
  %cat = tx8be.Concat %t, %cls {axis = 1 : i64} : (tensor<2x6x4xf32>, tensor<2x1x4xf32>) -> tensor<2x7x4xf32>
  %zero = tx8be.Constant dense<0.0> : tensor<2x7x4xf32>
  %y = tx8be.Where %c, %cat, %zero : (tensor<2x7x4xi1>, tensor<2x7x4xf32>, tensor<2x7x4xf32>) -> tensor<2x7x4xf32>
  return %y : tensor<2x7x4xf32>
}

// -----

// A language model's logits: the projection's f32 tail reshaped straight into the function's result (through
// two Reshapes) stays f32, with no Cast: reduced, the Reshape would have the MatMul store 2-byte values and a
// Cast read them back to write the f32 result (GPT's [128, 50257] logits twice through DDR). A Reshape also read
// by another op computes in bf16 as before.
// CHECK-LABEL: func.func @logits
// CHECK: %[[L:.*]] = tx8be.MatMul {{.*}} -> tensor<6x8xf32>
// CHECK-NEXT: %[[R:.*]] = tx8be.Reshape %[[L]] : (tensor<6x8xf32>) -> tensor<1x6x8xf32>
// CHECK-NEXT: %[[R2:.*]] = tx8be.Reshape %[[R]] : (tensor<1x6x8xf32>) -> tensor<1x1x6x8xf32>
// CHECK-NEXT: return %[[R2]] : tensor<1x1x6x8xf32>
// CHECK-LABEL: func.func @logits_also_read
// CHECK: tx8be.Reshape %{{.*}} : (tensor<6x8xbf16>) -> tensor<1x6x8xbf16>
func.func @logits(%h: tensor<6x8xf32>) -> tensor<1x1x6x8xf32> {
  %w = tx8be.Constant dense<0.5> : tensor<8x8xf32>
  %l = tx8be.MatMul %h, %w : (tensor<6x8xf32>, tensor<8x8xf32>) -> tensor<6x8xf32>
  %r = tx8be.Reshape %l : (tensor<6x8xf32>) -> tensor<1x6x8xf32>
  %r2 = tx8be.Reshape %r : (tensor<1x6x8xf32>) -> tensor<1x1x6x8xf32>
  return %r2 : tensor<1x1x6x8xf32>
}
func.func @logits_also_read(%h: tensor<6x8xf32>) -> (tensor<1x6x8xf32>, tensor<1x6x8xf32>) {
  %w = tx8be.Constant dense<0.5> : tensor<8x8xf32>
  %l = tx8be.MatMul %h, %w : (tensor<6x8xf32>, tensor<8x8xf32>) -> tensor<6x8xf32>
  %r = tx8be.Reshape %l : (tensor<6x8xf32>) -> tensor<1x6x8xf32>
  %s = tx8be.Softmax %r : (tensor<1x6x8xf32>) -> tensor<1x6x8xf32>
  return %r, %s : tensor<1x6x8xf32>, tensor<1x6x8xf32>
}

// -----

// An embedding (op_gather_rows: a Gather of a constant table's rows) computes in the format: its table is cast,
// and the Cast of the constant folds into a bf16 (fp16) table, half the DDR bytes; the rows come out in the
// format, the position Add and the LayerNorm after it too. A Gather whose table is a variable (no kernel:
// tx8be-decompose's compositions) keeps f32.
// CHECK-LABEL: func.func @embedding
// CHECK: %[[T:.*]] = tx8be.Constant dense<{{.*}}> : tensor<6x4xf32>
// CHECK-NEXT: %[[TB:.*]] = tx8be.Cast %[[T]] : (tensor<6x4xf32>) -> tensor<6x4xbf16>
// CHECK: %[[G:.*]] = tx8be.Gather %[[TB]], %arg0 : (tensor<6x4xbf16>, tensor<3xi32>) -> tensor<3x4xbf16>
// CHECK: tx8be.Add %[[G]], %{{.*}} : (tensor<3x4xbf16>, tensor<3x4xbf16>) -> tensor<3x4xbf16>
// CHECK: tx8be.LayerNorm {{.*}} -> tensor<3x4xbf16>
// CHECK-LABEL: func.func @gather_of_variable
// CHECK-NOT: bf16
// CHECK: tx8be.Gather %arg0, %arg1 : (tensor<6x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
// CHECK-NOT: bf16
// FP16-LABEL: func.func @embedding
// FP16: %[[T:.*]] = tx8be.Constant dense<{{.*}}> : tensor<6x4xf16>
// FP16-NOT: tx8be.Cast
// FP16: tx8be.Gather %[[T]], %arg0 : (tensor<6x4xf16>, tensor<3xi32>) -> tensor<3x4xf16>
// FP16-LABEL: func.func @gather_of_variable
// FP16: tx8be.Gather %arg0, %arg1 : (tensor<6x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
func.func @embedding(%i: tensor<3xi32>) -> tensor<3x4xf32> {
  %t = tx8be.Constant dense<[[0.5, 1.0, 1.5, 2.0], [2.5, 3.0, 3.5, 4.0], [4.5, 5.0, 5.5, 6.0], [6.5, 7.0, 7.5, 8.0], [8.5, 9.0, 9.5, 10.0], [10.5, 11.0, 11.5, 12.0]]> : tensor<6x4xf32>
  %pos = tx8be.Constant dense<0.25> : tensor<3x4xf32>
  %gamma = tx8be.Constant dense<1.5> : tensor<4xf32>
  %beta = tx8be.Constant dense<0.25> : tensor<4xf32>
  %0 = tx8be.Gather %t, %i {axis = 0 : i64} : (tensor<6x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  %1 = tx8be.Add %0, %pos : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %2 = tx8be.LayerNorm %1, %gamma, %beta {axis = 1 : i64} : (tensor<3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  return %2 : tensor<3x4xf32>
}
func.func @gather_of_variable(%t: tensor<6x4xf32>, %i: tensor<3xi32>) -> tensor<3x4xf32> {
  %0 = tx8be.Gather %t, %i {axis = 0 : i64} : (tensor<6x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
