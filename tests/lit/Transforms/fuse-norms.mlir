// RUN: tx8-opt %s --split-input-file --tx8be-fuse-norms --mlir-print-local-scope --mlir-print-debuginfo | FileCheck %s

// torch 1.13's LayerNorm at opset 14 (nn.LayerNorm(4)): mean, x - mean, Pow 2, mean, + eps, Sqrt, Div, * gamma,
// + beta. One LayerNorm at the last node's location; the constants 2 and eps go.
// CHECK-LABEL: func.func @layernorm_torch
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x4xf32>
// CHECK-DAG: %[[G:.*]] = tx8be.Constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// CHECK-DAG: %[[B:.*]] = tx8be.Constant dense<5.000000e-01> : tensor<4xf32>
// CHECK: %[[Y:.*]] = tx8be.LayerNorm %[[X]], %[[G]], %[[B]] {axis = 2 : i64} : (tensor<1x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x3x4xf32> loc("ln.add_1")
// CHECK-NOT: tx8be.ReduceMean
// CHECK-NOT: tx8be.Pow
// CHECK-NOT: dense<2.0
// CHECK: return %[[Y]]
func.func @layernorm_torch(%x: tensor<1x3x4xf32>) -> tensor<1x3x4xf32> {
  %m = tx8be.ReduceMean %x {axes = array<i64: -1>} : (tensor<1x3x4xf32>) -> tensor<1x3x1xf32> loc("ln.mean")
  %d = tx8be.Sub %x, %m : (tensor<1x3x4xf32>, tensor<1x3x1xf32>) -> tensor<1x3x4xf32> loc("ln.sub")
  %two = tx8be.Constant dense<2.0> : tensor<f32>
  %p = tx8be.Pow %d, %two : (tensor<1x3x4xf32>, tensor<f32>) -> tensor<1x3x4xf32> loc("ln.pow")
  %v = tx8be.ReduceMean %p {axes = array<i64: -1>} : (tensor<1x3x4xf32>) -> tensor<1x3x1xf32> loc("ln.mean_1")
  %eps = tx8be.Constant dense<1.0e-5> : tensor<f32>
  %a = tx8be.Add %v, %eps : (tensor<1x3x1xf32>, tensor<f32>) -> tensor<1x3x1xf32> loc("ln.add")
  %s = tx8be.Sqrt %a : (tensor<1x3x1xf32>) -> tensor<1x3x1xf32> loc("ln.sqrt")
  %y = tx8be.Div %d, %s : (tensor<1x3x4xf32>, tensor<1x3x1xf32>) -> tensor<1x3x4xf32> loc("ln.div")
  %g = tx8be.Constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %yg = tx8be.Mul %y, %g : (tensor<1x3x4xf32>, tensor<4xf32>) -> tensor<1x3x4xf32> loc("ln.mul")
  %b = tx8be.Constant dense<0.5> : tensor<4xf32>
  %yb = tx8be.Add %yg, %b : (tensor<1x3x4xf32>, tensor<4xf32>) -> tensor<1x3x4xf32> loc("ln.add_1")
  return %yb : tensor<1x3x4xf32>
}

// -----

// Two normalised trailing dims (axes 1, 2 in any order), gamma and beta [3, 4]; operands swapped (gamma * y,
// beta + y), the square as d * d and the scaling as d * Reciprocal(Sqrt).
// CHECK-LABEL: func.func @layernorm_two_axes_swapped
// CHECK: tx8be.LayerNorm %arg0, %{{.*}}, %{{.*}} {axis = 1 : i64, epsilon = 1.000000e-03 : f32} : (tensor<2x3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NOT: tx8be.Mul
// CHECK-NOT: tx8be.Reciprocal
func.func @layernorm_two_axes_swapped(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %m = tx8be.ReduceMean %x {axes = array<i64: 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  %d = tx8be.Sub %x, %m : (tensor<2x3x4xf32>, tensor<2x1x1xf32>) -> tensor<2x3x4xf32>
  %p = tx8be.Mul %d, %d : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %v = tx8be.ReduceMean %p {axes = array<i64: 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  %eps = tx8be.Constant dense<1.0e-3> : tensor<1xf32>
  %a = tx8be.Add %eps, %v : (tensor<1xf32>, tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
  %s = tx8be.Sqrt %a : (tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
  %r = tx8be.Reciprocal %s : (tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
  %y = tx8be.Mul %r, %d : (tensor<2x1x1xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %g = tx8be.Constant dense<2.0> : tensor<3x4xf32>
  %yg = tx8be.Mul %g, %y : (tensor<3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %b = tx8be.Constant dense<1.0> : tensor<3x4xf32>
  %yb = tx8be.Add %b, %yg : (tensor<3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %yb : tensor<2x3x4xf32>
}

// -----

// Neither gamma nor beta (elementwise_affine=False): a scale of ones, no bias.
// CHECK-LABEL: func.func @layernorm_no_affine
// CHECK: %[[ONES:.*]] = tx8be.Constant dense<1.000000e+00> : tensor<4xf32>
// CHECK: %[[Y:.*]] = tx8be.LayerNorm %arg0, %[[ONES]] {axis = 1 : i64, epsilon = 0.000000e+00 : f32} : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: return %[[Y]]
func.func @layernorm_no_affine(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %m = tx8be.ReduceMean %x {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %d = tx8be.Sub %x, %m : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %two = tx8be.Constant dense<2.0> : tensor<f32>
  %p = tx8be.Pow %d, %two : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %v = tx8be.ReduceMean %p {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %eps = tx8be.Constant dense<0.0> : tensor<f32>
  %a = tx8be.Add %v, %eps : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  %s = tx8be.Sqrt %a : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %y = tx8be.Div %d, %s : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// -----

// A gamma that broadcasts inside the normalised shape ([1] over 4) is not op_layernorm's scale: the norm fuses,
// the Mul stays after it.
// CHECK-LABEL: func.func @layernorm_broadcast_gamma
// CHECK: %[[N:.*]] = tx8be.LayerNorm %arg0, %{{.*}} {axis = 1 : i64
// CHECK: tx8be.Mul %[[N]], %{{.*}} : (tensor<3x4xf32>, tensor<1xf32>)
func.func @layernorm_broadcast_gamma(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %m = tx8be.ReduceMean %x {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %d = tx8be.Sub %x, %m : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %two = tx8be.Constant dense<2.0> : tensor<f32>
  %p = tx8be.Pow %d, %two : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %v = tx8be.ReduceMean %p {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %eps = tx8be.Constant dense<1.0e-5> : tensor<f32>
  %a = tx8be.Add %v, %eps : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  %s = tx8be.Sqrt %a : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %y = tx8be.Div %d, %s : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %g = tx8be.Constant dense<3.0> : tensor<1xf32>
  %yg = tx8be.Mul %y, %g : (tensor<3x4xf32>, tensor<1xf32>) -> tensor<3x4xf32>
  return %yg : tensor<3x4xf32>
}

// -----

// A symbolic batch (a dynamic dim before the axis) fuses; the normalised dims are static.
// CHECK-LABEL: func.func @layernorm_symbolic_batch
// CHECK: tx8be.LayerNorm %arg0, %{{.*}}, %{{.*}} {axis = 2 : i64} : (tensor<?x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x3x4xf32>
func.func @layernorm_symbolic_batch(%x: tensor<?x3x4xf32>) -> tensor<?x3x4xf32> {
  %m = tx8be.ReduceMean %x {axes = array<i64: 2>} : (tensor<?x3x4xf32>) -> tensor<?x3x1xf32>
  %d = tx8be.Sub %x, %m : (tensor<?x3x4xf32>, tensor<?x3x1xf32>) -> tensor<?x3x4xf32>
  %two = tx8be.Constant dense<2.0> : tensor<f32>
  %p = tx8be.Pow %d, %two : (tensor<?x3x4xf32>, tensor<f32>) -> tensor<?x3x4xf32>
  %v = tx8be.ReduceMean %p {axes = array<i64: 2>} : (tensor<?x3x4xf32>) -> tensor<?x3x1xf32>
  %eps = tx8be.Constant dense<1.0e-5> : tensor<f32>
  %a = tx8be.Add %v, %eps : (tensor<?x3x1xf32>, tensor<f32>) -> tensor<?x3x1xf32>
  %s = tx8be.Sqrt %a : (tensor<?x3x1xf32>) -> tensor<?x3x1xf32>
  %y = tx8be.Div %d, %s : (tensor<?x3x4xf32>, tensor<?x3x1xf32>) -> tensor<?x3x4xf32>
  %g = tx8be.Constant dense<2.0> : tensor<4xf32>
  %yg = tx8be.Mul %y, %g : (tensor<?x3x4xf32>, tensor<4xf32>) -> tensor<?x3x4xf32>
  %b = tx8be.Constant dense<1.0> : tensor<4xf32>
  %yb = tx8be.Add %yg, %b : (tensor<?x3x4xf32>, tensor<4xf32>) -> tensor<?x3x4xf32>
  return %yb : tensor<?x3x4xf32>
}

// -----

// Refusals: Pow 3 is not a variance; a variance over another dim; x - mean read outside the chain; the mean
// without keepdims. Nothing changes.
// CHECK-LABEL: func.func @refuse_pow3
// CHECK-NOT: tx8be.LayerNorm
// CHECK: tx8be.Pow
func.func @refuse_pow3(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %m = tx8be.ReduceMean %x {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %d = tx8be.Sub %x, %m : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %three = tx8be.Constant dense<3.0> : tensor<f32>
  %p = tx8be.Pow %d, %three : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %v = tx8be.ReduceMean %p {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %eps = tx8be.Constant dense<1.0e-5> : tensor<f32>
  %a = tx8be.Add %v, %eps : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  %s = tx8be.Sqrt %a : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %y = tx8be.Div %d, %s : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @refuse_other_axis
// CHECK-NOT: tx8be.LayerNorm
// CHECK: tx8be.Sqrt
func.func @refuse_other_axis(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %m = tx8be.ReduceMean %x {axes = array<i64: 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  %d = tx8be.Sub %x, %m : (tensor<2x3x4xf32>, tensor<2x3x1xf32>) -> tensor<2x3x4xf32>
  %two = tx8be.Constant dense<2.0> : tensor<f32>
  %p = tx8be.Pow %d, %two : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
  %v = tx8be.ReduceMean %p {axes = array<i64: 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  %eps = tx8be.Constant dense<1.0e-5> : tensor<f32>
  %a = tx8be.Add %v, %eps : (tensor<2x1x1xf32>, tensor<f32>) -> tensor<2x1x1xf32>
  %s = tx8be.Sqrt %a : (tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
  %y = tx8be.Div %d, %s : (tensor<2x3x4xf32>, tensor<2x1x1xf32>) -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @refuse_shared_centred
// CHECK-NOT: tx8be.LayerNorm
// CHECK: tx8be.Div
func.func @refuse_shared_centred(%x: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %m = tx8be.ReduceMean %x {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %d = tx8be.Sub %x, %m : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %two = tx8be.Constant dense<2.0> : tensor<f32>
  %p = tx8be.Pow %d, %two : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %v = tx8be.ReduceMean %p {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %eps = tx8be.Constant dense<1.0e-5> : tensor<f32>
  %a = tx8be.Add %v, %eps : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  %s = tx8be.Sqrt %a : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %y = tx8be.Div %d, %s : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  return %y, %d : tensor<3x4xf32>, tensor<3x4xf32>
}

// CHECK-LABEL: func.func @refuse_negative_eps
// CHECK-NOT: tx8be.LayerNorm
// CHECK: tx8be.Sqrt
func.func @refuse_negative_eps(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %m = tx8be.ReduceMean %x {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %d = tx8be.Sub %x, %m : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %two = tx8be.Constant dense<2.0> : tensor<f32>
  %p = tx8be.Pow %d, %two : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %v = tx8be.ReduceMean %p {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %eps = tx8be.Constant dense<-1.0e-5> : tensor<f32>
  %a = tx8be.Add %v, %eps : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  %s = tx8be.Sqrt %a : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %y = tx8be.Div %d, %s : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// -----

// RMSNorm as LLaMA writes it: x * rsqrt(mean(x^2) + eps) (torch exports rsqrt as Div(1, Sqrt)), weight * that.
// CHECK-LABEL: func.func @rmsnorm_llama
// CHECK: %[[Y:.*]] = tx8be.LayerNorm %arg0, %{{.*}} {axis = 2 : i64, epsilon = 9.99999997E-7 : f32, rms = true} : (tensor<1x5x8xf32>, tensor<8xf32>) -> tensor<1x5x8xf32> loc("rms.mul_1")
// CHECK-NOT: tx8be.Div
// CHECK: return %[[Y]]
func.func @rmsnorm_llama(%x: tensor<1x5x8xf32>) -> tensor<1x5x8xf32> {
  %two = tx8be.Constant dense<2.0> : tensor<f32>
  %p = tx8be.Pow %x, %two : (tensor<1x5x8xf32>, tensor<f32>) -> tensor<1x5x8xf32>
  %v = tx8be.ReduceMean %p {axes = array<i64: -1>} : (tensor<1x5x8xf32>) -> tensor<1x5x1xf32>
  %eps = tx8be.Constant dense<1.0e-6> : tensor<f32>
  %a = tx8be.Add %v, %eps : (tensor<1x5x1xf32>, tensor<f32>) -> tensor<1x5x1xf32>
  %s = tx8be.Sqrt %a : (tensor<1x5x1xf32>) -> tensor<1x5x1xf32>
  %one = tx8be.Constant dense<1.0> : tensor<f32>
  %r = tx8be.Div %one, %s : (tensor<f32>, tensor<1x5x1xf32>) -> tensor<1x5x1xf32>
  %y = tx8be.Mul %x, %r : (tensor<1x5x8xf32>, tensor<1x5x1xf32>) -> tensor<1x5x8xf32> loc("rms.mul")
  %g = tx8be.Constant dense<0.5> : tensor<8xf32>
  %yg = tx8be.Mul %g, %y : (tensor<8xf32>, tensor<1x5x8xf32>) -> tensor<1x5x8xf32> loc("rms.mul_1")
  return %yg : tensor<1x5x8xf32>
}

// -----

// RMSNorm with x / sqrt(...) and with Rsqrt; a Pow 2 of x whose mean is scaled into another tensor is refused.
// CHECK-LABEL: func.func @rmsnorm_div
// CHECK: tx8be.LayerNorm %arg0, %{{.*}} {axis = 1 : i64, rms = true}
// CHECK-LABEL: func.func @rmsnorm_rsqrt
// CHECK: tx8be.LayerNorm %arg0, %{{.*}} {axis = 1 : i64, rms = true}
// CHECK-LABEL: func.func @refuse_rms_other_tensor
// CHECK-NOT: tx8be.LayerNorm
// CHECK: tx8be.Div %arg1
func.func @rmsnorm_div(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %two = tx8be.Constant dense<2.0> : tensor<f32>
  %p = tx8be.Pow %x, %two : (tensor<3x8xf32>, tensor<f32>) -> tensor<3x8xf32>
  %v = tx8be.ReduceMean %p {axes = array<i64: 1>} : (tensor<3x8xf32>) -> tensor<3x1xf32>
  %eps = tx8be.Constant dense<1.0e-5> : tensor<f32>
  %a = tx8be.Add %v, %eps : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  %s = tx8be.Sqrt %a : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %y = tx8be.Div %x, %s : (tensor<3x8xf32>, tensor<3x1xf32>) -> tensor<3x8xf32>
  %g = tx8be.Constant dense<0.5> : tensor<8xf32>
  %yg = tx8be.Mul %y, %g : (tensor<3x8xf32>, tensor<8xf32>) -> tensor<3x8xf32>
  return %yg : tensor<3x8xf32>
}
func.func @rmsnorm_rsqrt(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %p = tx8be.Mul %x, %x : (tensor<3x8xf32>, tensor<3x8xf32>) -> tensor<3x8xf32>
  %v = tx8be.ReduceMean %p {axes = array<i64: 1>} : (tensor<3x8xf32>) -> tensor<3x1xf32>
  %eps = tx8be.Constant dense<1.0e-5> : tensor<f32>
  %a = tx8be.Add %v, %eps : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  %r = tx8be.Rsqrt %a : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %y = tx8be.Mul %r, %x : (tensor<3x1xf32>, tensor<3x8xf32>) -> tensor<3x8xf32>
  return %y : tensor<3x8xf32>
}
func.func @refuse_rms_other_tensor(%x: tensor<3x8xf32>, %z: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %two = tx8be.Constant dense<2.0> : tensor<f32>
  %p = tx8be.Pow %x, %two : (tensor<3x8xf32>, tensor<f32>) -> tensor<3x8xf32>
  %v = tx8be.ReduceMean %p {axes = array<i64: 1>} : (tensor<3x8xf32>) -> tensor<3x1xf32>
  %eps = tx8be.Constant dense<1.0e-5> : tensor<f32>
  %a = tx8be.Add %v, %eps : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  %s = tx8be.Sqrt %a : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %y = tx8be.Div %z, %s : (tensor<3x8xf32>, tensor<3x1xf32>) -> tensor<3x8xf32>
  return %y : tensor<3x8xf32>
}

// -----

// GELU as torch 1.13 exports nn.GELU(): (x * (Erf(x / 1.4142135) + 1)) * 0.5, at the last Mul's location.
// CHECK-LABEL: func.func @gelu_torch
// CHECK-NEXT: %[[Y:.*]] = tx8be.Gelu %arg0 : (tensor<2x8xf32>) -> tensor<2x8xf32> loc("gelu.mul_1")
// CHECK-NEXT: return %[[Y]]
func.func @gelu_torch(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %c = tx8be.Constant dense<1.41421354> : tensor<f32>
  %t = tx8be.Div %x, %c : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %e = tx8be.Erf %t : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %one = tx8be.Constant dense<1.0> : tensor<f32>
  %a = tx8be.Add %e, %one : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %m = tx8be.Mul %x, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32> loc("gelu.mul")
  %half = tx8be.Constant dense<0.5> : tensor<f32>
  %y = tx8be.Mul %m, %half : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32> loc("gelu.mul_1")
  return %y : tensor<2x8xf32>
}

// -----

// HF BERT's gelu: x * 0.5 * (1 + erf(x * 0.70710678)), and 0.5 * ((1 + erf) * x) grouped as x * ((1 + erf) * 0.5).
// CHECK-LABEL: func.func @gelu_half_first
// CHECK-NEXT: tx8be.Gelu %arg0
// CHECK-NEXT: return
// CHECK-LABEL: func.func @gelu_half_inner
// CHECK-NEXT: tx8be.Gelu %arg0
// CHECK-NEXT: return
func.func @gelu_half_first(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %half = tx8be.Constant dense<0.5> : tensor<f32>
  %h = tx8be.Mul %x, %half : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %c = tx8be.Constant dense<0.707106769> : tensor<f32>
  %t = tx8be.Mul %c, %x : (tensor<f32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %e = tx8be.Erf %t : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %one = tx8be.Constant dense<1.0> : tensor<f32>
  %a = tx8be.Add %one, %e : (tensor<f32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %y = tx8be.Mul %h, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}
func.func @gelu_half_inner(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %c = tx8be.Constant dense<1.41421354> : tensor<f32>
  %t = tx8be.Div %x, %c : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %e = tx8be.Erf %t : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %one = tx8be.Constant dense<1.0> : tensor<f32>
  %a = tx8be.Add %e, %one : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %half = tx8be.Constant dense<0.5> : tensor<f32>
  %m = tx8be.Mul %a, %half : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %y = tx8be.Mul %x, %m : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// -----

// GELU near-misses stay: a divisor that is not sqrt(2), a 0.6 for the half, an Erf read twice.
// CHECK-LABEL: func.func @refuse_gelu_divisor
// CHECK-NOT: tx8be.Gelu
// CHECK: tx8be.Erf
// CHECK-LABEL: func.func @refuse_gelu_not_half
// CHECK-NOT: tx8be.Gelu
// CHECK: tx8be.Erf
// CHECK-LABEL: func.func @refuse_gelu_erf_shared
// CHECK-NOT: tx8be.Gelu
// CHECK: tx8be.Erf
func.func @refuse_gelu_divisor(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %c = tx8be.Constant dense<1.5> : tensor<f32>
  %t = tx8be.Div %x, %c : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %e = tx8be.Erf %t : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %one = tx8be.Constant dense<1.0> : tensor<f32>
  %a = tx8be.Add %e, %one : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %m = tx8be.Mul %x, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %half = tx8be.Constant dense<0.5> : tensor<f32>
  %y = tx8be.Mul %m, %half : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}
func.func @refuse_gelu_not_half(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %c = tx8be.Constant dense<1.41421354> : tensor<f32>
  %t = tx8be.Div %x, %c : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %e = tx8be.Erf %t : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %one = tx8be.Constant dense<1.0> : tensor<f32>
  %a = tx8be.Add %e, %one : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %m = tx8be.Mul %x, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %half = tx8be.Constant dense<0.6> : tensor<f32>
  %y = tx8be.Mul %m, %half : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}
func.func @refuse_gelu_erf_shared(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>) {
  %c = tx8be.Constant dense<1.41421354> : tensor<f32>
  %t = tx8be.Div %x, %c : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %e = tx8be.Erf %t : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %one = tx8be.Constant dense<1.0> : tensor<f32>
  %a = tx8be.Add %e, %one : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %m = tx8be.Mul %x, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %half = tx8be.Constant dense<0.5> : tensor<f32>
  %y = tx8be.Mul %m, %half : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  return %y, %e : tensor<2x8xf32>, tensor<2x8xf32>
}

// -----

// GELU's tanh approximation as torch 1.13 exports nn.GELU('tanh') (x^3 as x * (x * x)) and as HF's gelu_new
// writes it (Pow(x, 3), 0.5 * x first); near-misses (0.04 for 0.044715, x^2 for x^3) stay.
// CHECK-LABEL: func.func @gelu_tanh_torch
// CHECK-NEXT: %[[Y:.*]] = tx8be.Gelu %arg0 {approximate = "tanh"} : (tensor<2x8xf32>) -> tensor<2x8xf32> loc("gelu.mul_5")
// CHECK-NEXT: return %[[Y]]
// CHECK-LABEL: func.func @gelu_tanh_pow
// CHECK-NEXT: tx8be.Gelu %arg0 {approximate = "tanh"}
// CHECK-NEXT: return
// CHECK-LABEL: func.func @refuse_gelu_tanh_coefficient
// CHECK-NOT: tx8be.Gelu
// CHECK: tx8be.Tanh
// CHECK-LABEL: func.func @refuse_gelu_tanh_square
// CHECK-NOT: tx8be.Gelu
// CHECK: tx8be.Tanh
func.func @gelu_tanh_torch(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %sq = tx8be.Mul %x, %x : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %x3 = tx8be.Mul %x, %sq : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %k = tx8be.Constant dense<0.044715> : tensor<f32>
  %kx3 = tx8be.Mul %k, %x3 : (tensor<f32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %in = tx8be.Add %x, %kx3 : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %s = tx8be.Constant dense<0.797884583> : tensor<f32>
  %u = tx8be.Mul %s, %in : (tensor<f32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %th = tx8be.Tanh %u : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %one = tx8be.Constant dense<1.0> : tensor<f32>
  %a = tx8be.Add %one, %th : (tensor<f32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %m = tx8be.Mul %x, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %half = tx8be.Constant dense<0.5> : tensor<f32>
  %y = tx8be.Mul %half, %m : (tensor<f32>, tensor<2x8xf32>) -> tensor<2x8xf32> loc("gelu.mul_5")
  return %y : tensor<2x8xf32>
}
func.func @gelu_tanh_pow(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %half = tx8be.Constant dense<0.5> : tensor<f32>
  %h = tx8be.Mul %half, %x : (tensor<f32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %three = tx8be.Constant dense<3.0> : tensor<f32>
  %x3 = tx8be.Pow %x, %three : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %k = tx8be.Constant dense<0.044715> : tensor<f32>
  %kx3 = tx8be.Mul %x3, %k : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %in = tx8be.Add %kx3, %x : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %s = tx8be.Constant dense<0.797884583> : tensor<f32>
  %u = tx8be.Mul %in, %s : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %th = tx8be.Tanh %u : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %one = tx8be.Constant dense<1.0> : tensor<f32>
  %a = tx8be.Add %th, %one : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %y = tx8be.Mul %h, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}
func.func @refuse_gelu_tanh_coefficient(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %three = tx8be.Constant dense<3.0> : tensor<f32>
  %x3 = tx8be.Pow %x, %three : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %k = tx8be.Constant dense<0.04> : tensor<f32>
  %kx3 = tx8be.Mul %x3, %k : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %in = tx8be.Add %x, %kx3 : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %s = tx8be.Constant dense<0.797884583> : tensor<f32>
  %u = tx8be.Mul %in, %s : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %th = tx8be.Tanh %u : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %one = tx8be.Constant dense<1.0> : tensor<f32>
  %a = tx8be.Add %th, %one : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %m = tx8be.Mul %x, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %half = tx8be.Constant dense<0.5> : tensor<f32>
  %y = tx8be.Mul %m, %half : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}
func.func @refuse_gelu_tanh_square(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %x2 = tx8be.Mul %x, %x : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %k = tx8be.Constant dense<0.044715> : tensor<f32>
  %kx3 = tx8be.Mul %x2, %k : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %in = tx8be.Add %x, %kx3 : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %s = tx8be.Constant dense<0.797884583> : tensor<f32>
  %u = tx8be.Mul %in, %s : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %th = tx8be.Tanh %u : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %one = tx8be.Constant dense<1.0> : tensor<f32>
  %a = tx8be.Add %th, %one : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %m = tx8be.Mul %x, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %half = tx8be.Constant dense<0.5> : tensor<f32>
  %y = tx8be.Mul %m, %half : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}
