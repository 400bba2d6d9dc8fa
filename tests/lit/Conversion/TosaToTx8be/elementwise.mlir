// TOSA elementwise ops -> tx8be.
// RUN: tx8-opt %s -convert-tosa-to-tx8be | FileCheck %s

// CHECK-LABEL: func.func @binary
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<1x3xf32>)
func.func @binary(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[ADD:.*]] = tx8be.Add %[[A]], %[[B]] : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[SUB:.*]] = tx8be.Sub %[[ADD]], %[[B]]
  %1 = tosa.sub %0, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[MUL:.*]] = tx8be.Mul %[[SUB]], %[[A]]
  %2 = tosa.mul %1, %a {shift = 0 : i8} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[MAX:.*]] = tx8be.Max %[[MUL]], %[[B]]
  %3 = tosa.maximum %2, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[MIN:.*]] = tx8be.Min %[[MAX]], %[[A]]
  %4 = tosa.minimum %3, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[POW:.*]] = tx8be.Pow %[[MIN]], %[[B]]
  %5 = tosa.pow %4, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  // CHECK: return %[[POW]]
  return %5 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<4xf16>) -> tensor<4xf16> {
  // CHECK: %[[S:.*]] = tx8be.Sigmoid %{{.*}} : (tensor<4xf16>) -> tensor<4xf16>
  %0 = tosa.sigmoid %x : (tensor<4xf16>) -> tensor<4xf16>
  // CHECK: %[[T:.*]] = tx8be.Tanh %[[S]]
  %1 = tosa.tanh %0 : (tensor<4xf16>) -> tensor<4xf16>
  // CHECK: %[[E:.*]] = tx8be.Exp %[[T]]
  %2 = tosa.exp %1 : (tensor<4xf16>) -> tensor<4xf16>
  // (exp then log would fold away: abs in between)
  // CHECK: %[[AB:.*]] = tx8be.Abs %[[E]]
  %3 = tosa.abs %2 : (tensor<4xf16>) -> tensor<4xf16>
  // CHECK: %[[L:.*]] = tx8be.Log %[[AB]]
  %4 = tosa.log %3 : (tensor<4xf16>) -> tensor<4xf16>
  // CHECK: %[[N:.*]] = tx8be.Neg %[[L]]
  %5 = tosa.negate %4 : (tensor<4xf16>) -> tensor<4xf16>
  // CHECK: %[[R:.*]] = tx8be.Reciprocal %[[N]]
  %6 = tosa.reciprocal %5 : (tensor<4xf16>) -> tensor<4xf16>
  // CHECK: %[[Q:.*]] = tx8be.Rsqrt %[[R]]
  %7 = tosa.rsqrt %6 : (tensor<4xf16>) -> tensor<4xf16>
  // CHECK: %[[ERF:.*]] = tx8be.Erf %[[Q]]
  %8 = tosa.erf %7 : (tensor<4xf16>) -> tensor<4xf16>
  // CHECK: return %[[ERF]]
  return %8 : tensor<4xf16>
}

// CHECK-LABEL: func.func @clamp
func.func @clamp(%x: tensor<4xf32>, %h: tensor<4xbf16>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xbf16>) {
  // [0, +inf) and [0, FLT_MAX] are a Relu; anything else a Clip.
  // CHECK: tx8be.Relu %{{.*}} : (tensor<4xf32>) -> tensor<4xf32>
  %0 = tosa.clamp %x {min_fp = 0.0 : f32, max_fp = 0x7F800000 : f32, min_int = 0 : i64, max_int = 9223372036854775807 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: tx8be.Relu %{{.*}} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = tosa.clamp %x {min_fp = 0.0 : f32, max_fp = 3.40282347E+38 : f32, min_int = 0 : i64, max_int = 9223372036854775807 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: tx8be.Clip %{{.*}} {max = 6.000000e+00 : f32, min = 0.000000e+00 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %2 = tosa.clamp %x {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  // bf16 bounds are read in their own semantics.
  // CHECK: tx8be.Clip %{{.*}} {max = 1.000000e+00 : f32, min = -1.000000e+00 : f32} : (tensor<4xbf16>) -> tensor<4xbf16>
  %3 = tosa.clamp %h {min_fp = -1.0 : bf16, max_fp = 1.0 : bf16, min_int = -1 : i64, max_int = 1 : i64} : (tensor<4xbf16>) -> tensor<4xbf16>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xbf16>
}

// CHECK-LABEL: func.func @cast
func.func @cast(%x: tensor<4xf32>) -> tensor<4xf16> {
  // CHECK: tx8be.Cast %{{.*}} : (tensor<4xf32>) -> tensor<4xf16>
  %0 = tosa.cast %x : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
