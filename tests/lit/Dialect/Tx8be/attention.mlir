// RUN: tx8-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// tx8be.Attention: the shape rule (result [batch, Sq, Dv], batch dims broadcast) and what it refuses.
// CHECK-LABEL: func.func @ok
// CHECK: tx8be.Attention %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {causal = true, scale = 1.250000e-01 : f32} : (tensor<2x3x5x8xf32>, tensor<1x3x6x8xf32>, tensor<3x6x4xf32>, tensor<2x1x1x6xf32>) -> tensor<2x3x5x4xf32>
// CHECK: tx8be.Attention %{{.*}}, %{{.*}}, %{{.*}} : (tensor<5x8xbf16>, tensor<6x8xbf16>, tensor<6x4xbf16>) -> tensor<5x4xf32>
func.func @ok(%q: tensor<2x3x5x8xf32>, %k: tensor<1x3x6x8xf32>, %v: tensor<3x6x4xf32>, %m: tensor<2x1x1x6xf32>,
              %qb: tensor<5x8xbf16>, %kb: tensor<6x8xbf16>, %vb: tensor<6x4xbf16>) {
  %0 = tx8be.Attention %q, %k, %v, %m {scale = 0.125 : f32, causal = true} : (tensor<2x3x5x8xf32>, tensor<1x3x6x8xf32>, tensor<3x6x4xf32>, tensor<2x1x1x6xf32>) -> tensor<2x3x5x4xf32>
  %1 = tx8be.Attention %qb, %kb, %vb {ne_in_fmt = "bf16"} : (tensor<5x8xbf16>, tensor<6x8xbf16>, tensor<6x4xbf16>) -> tensor<5x4xf32>
  return
}

// -----

func.func @head_dims(%q: tensor<5x8xf32>, %k: tensor<6x7xf32>, %v: tensor<6x4xf32>) {
  // expected-error @+1 {{'tx8be.Attention' op shapes Q 5x8, K 6x7, V 6x4 do not match ([..., Sq, D], [..., Skv, D], [..., Skv, Dv])}}
  %0 = tx8be.Attention %q, %k, %v : (tensor<5x8xf32>, tensor<6x7xf32>, tensor<6x4xf32>) -> tensor<5x4xf32>
  return
}

// -----

func.func @keys(%q: tensor<5x8xf32>, %k: tensor<6x8xf32>, %v: tensor<7x4xf32>) {
  // expected-error @+1 {{'tx8be.Attention' op shapes Q 5x8, K 6x8, V 7x4 do not match}}
  %0 = tx8be.Attention %q, %k, %v : (tensor<5x8xf32>, tensor<6x8xf32>, tensor<7x4xf32>) -> tensor<5x4xf32>
  return
}

// -----

func.func @batch(%q: tensor<2x5x8xf32>, %k: tensor<3x6x8xf32>, %v: tensor<6x4xf32>) {
  // expected-error @+1 {{'tx8be.Attention' op batch dims of Q 2x5x8, K 3x6x8 and V 6x4 are not broadcast-compatible}}
  %0 = tx8be.Attention %q, %k, %v : (tensor<2x5x8xf32>, tensor<3x6x8xf32>, tensor<6x4xf32>) -> tensor<2x5x4xf32>
  return
}

// -----

func.func @mask(%q: tensor<5x8xf32>, %k: tensor<6x8xf32>, %v: tensor<6x4xf32>, %m: tensor<5x5xf32>) {
  // expected-error @+1 {{'tx8be.Attention' op mask shape 5x5 does not broadcast to the scores 5x6}}
  %0 = tx8be.Attention %q, %k, %v, %m : (tensor<5x8xf32>, tensor<6x8xf32>, tensor<6x4xf32>, tensor<5x5xf32>) -> tensor<5x4xf32>
  return
}

// -----

func.func @causal(%q: tensor<7x8xf32>, %k: tensor<6x8xf32>, %v: tensor<6x4xf32>) {
  // expected-error @+1 {{'tx8be.Attention' op causal with Sq = 7 > Skv = 6: the first queries see no key}}
  %0 = tx8be.Attention %q, %k, %v {causal = true} : (tensor<7x8xf32>, tensor<6x8xf32>, tensor<6x4xf32>) -> tensor<7x4xf32>
  return
}

// -----

func.func @types(%q: tensor<5x8xf32>, %k: tensor<6x8xbf16>, %v: tensor<6x4xf32>) {
  // expected-error @+1 {{'tx8be.Attention' op Q, K and V must share an element type}}
  %0 = tx8be.Attention %q, %k, %v : (tensor<5x8xf32>, tensor<6x8xbf16>, tensor<6x4xf32>) -> tensor<5x4xf32>
  return
}
