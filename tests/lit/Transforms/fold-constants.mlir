// RUN: tx8-opt %s --split-input-file --tx8be-fold-constants --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s

// PyTorch's Linear without bias: Constant -> Transpose -> MatMul. The Transpose is computed at compile time
// (the new constant is at the Transpose's location) and the weight it read is gone.
// CHECK-LABEL: func.func @linear_no_bias
// CHECK-NEXT: %[[W:.*]] = tx8be.Constant dense<{{\[\[}}1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32> loc("w_t")
// CHECK-NEXT: tx8be.MatMul %arg0, %[[W]]
// CHECK-NOT: tx8be.Transpose
// CHECK-NOT: tx8be.Constant
func.func @linear_no_bias(%x: tensor<4x3xf32>) -> tensor<4x2xf32> {
  %w = tx8be.Constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32> loc("w")
  %t = tx8be.Transpose %w {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32> loc("w_t")
  %y = tx8be.MatMul %x, %t : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// -----

// A chain of constant ops folds to one constant: relu(a + b) with a = [-3, 1], b = [1, 1].
// CHECK-LABEL: func.func @chain
// CHECK-NEXT: %[[C:.*]] = tx8be.Constant dense<[0.000000e+00, 2.000000e+00]> : tensor<2xf32> loc("relu")
// CHECK-NEXT: tx8be.Mul %arg0, %[[C]]
// CHECK-NEXT: return
func.func @chain(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = tx8be.Constant dense<[-3.0, 1.0]> : tensor<2xf32>
  %b = tx8be.Constant dense<1.0> : tensor<2xf32>
  %s = tx8be.Add %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> loc("add")
  %r = tx8be.Relu %s : (tensor<2xf32>) -> tensor<2xf32> loc("relu")
  %y = tx8be.Mul %x, %r : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

// A constant that is still read elsewhere stays; ops reading a non-constant, and ChannelNorm (a device-image
// conversion, not a value) are kept.
// CHECK-LABEL: func.func @partial
// CHECK: %[[A:.*]] = tx8be.Constant dense<2.000000e+00> : tensor<2xf32>
// CHECK: %[[N:.*]] = tx8be.Constant dense<-2.000000e+00> : tensor<2xf32> loc("neg")
// CHECK-NOT: tx8be.Neg
// CHECK: %[[S:.*]] = tx8be.Add %arg0, %[[A]]
// CHECK: %[[C:.*]] = tx8be.ChannelNorm %[[A]]
// CHECK: return %[[N]], %[[S]], %[[C]]
func.func @partial(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %a = tx8be.Constant dense<2.0> : tensor<2xf32>
  %n = tx8be.Neg %a : (tensor<2xf32>) -> tensor<2xf32> loc("neg")
  %s = tx8be.Add %x, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %c = tx8be.ChannelNorm %a {layout_str = "Tensor"} : (tensor<2xf32>) -> tensor<2xf32>
  return %n, %s, %c : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// Gemm with transB and a constant B: B is stored transposed and transB cleared (op_gemm has no transpose).
// CHECK-LABEL: func.func @gemm_trans_b
// CHECK: %[[B:.*]] = tx8be.Constant dense<{{\[\[}}1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xf32> loc("b")
// CHECK: tx8be.Gemm %arg0, %[[B]], %{{.*}} {alpha = 2.000000e+00 : f32} : (tensor<3x2xf32>, tensor<2x2xf32>, tensor<2xf32>)
// CHECK-NOT: transB
// CHECK: tx8be.Gemm %arg0, %arg1 {transB = true}
func.func @gemm_trans_b(%a: tensor<3x2xf32>, %b2: tensor<2x2xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>) {
  %b = tx8be.Constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32> loc("b")
  %c = tx8be.Constant dense<0.5> : tensor<2xf32>
  %y = tx8be.Gemm %a, %b, %c {transB = true, alpha = 2.0 : f32} : (tensor<3x2xf32>, tensor<2x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  %z = tx8be.Gemm %a, %b2 {transB = true} : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  return %y, %z : tensor<3x2xf32>, tensor<3x2xf32>
}

// -----

// A Gemm whose operands are all constant is folded whole (after B is transposed): A x B^T + C with
// A = [[1, 2]], B = [[1, 0], [0, 1], [1, 1]], C = 1 -> [[2, 3, 4]].
// CHECK-LABEL: func.func @gemm_all_constant
// CHECK-NEXT: %[[Y:.*]] = tx8be.Constant dense<{{\[\[}}2.000000e+00, 3.000000e+00, 4.000000e+00]]> : tensor<1x3xf32>
// CHECK-NEXT: return %[[Y]]
func.func @gemm_all_constant() -> tensor<1x3xf32> {
  %a = tx8be.Constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %b = tx8be.Constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>
  %c = tx8be.Constant dense<1.0> : tensor<3xf32>
  %y = tx8be.Gemm %a, %b, %c {transB = true} : (tensor<1x2xf32>, tensor<3x2xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  return %y : tensor<1x3xf32>
}

// -----

// An op with empty results is an empty Constant, whatever its operands (here a run-time input); an op with an
// empty operand but elements in its result (the Concat) stays.
// CHECK-LABEL: func.func @empty_results
// CHECK-NEXT: %[[E:.*]] = tx8be.Constant dense<> : tensor<0x4xf32>
// CHECK-NEXT: %[[C:.*]] = tx8be.Concat %[[E]], %arg0 {axis = 0 : i64} : (tensor<0x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: return %[[E]], %[[C]]
func.func @empty_results(%x: tensor<3x4xf32>) -> (tensor<0x4xf32>, tensor<3x4xf32>) {
  %0 = tx8be.Slice %x {offsets = array<i64: 0, 0>, sizes = array<i64: 0, 4>, strides = array<i64: 1, 1>} : (tensor<3x4xf32>) -> tensor<0x4xf32>
  %1 = tx8be.Relu %0 : (tensor<0x4xf32>) -> tensor<0x4xf32>
  %2 = tx8be.Concat %1, %x {axis = 0 : i64} : (tensor<0x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %1, %2 : tensor<0x4xf32>, tensor<3x4xf32>
}

// -----

// Ops on splat constants (one value for every element: a ConstantOfShape the importer kept) whose result is one
// value too are evaluated once, on one element, and stay splats: the movement ops keep the value (Transpose,
// Reshape, Expand, Slice, a Concat of one value), the elementwise ones compute it (Mul by a scalar, Cast to bf16,
// a Where of splats, a comparison). A Concat of two different values is not a splat: folded whole.
// CHECK-LABEL: func.func @splats
// CHECK-DAG: %[[T:.*]] = tx8be.Constant dense<5.000000e-01> : tensor<1100x4096xf32> loc("t")
// CHECK-DAG: %[[R:.*]] = tx8be.Constant dense<5.000000e-01> : tensor<64x70400xf32> loc("r")
// CHECK-DAG: %[[E:.*]] = tx8be.Constant dense<5.000000e-01> : tensor<2x4096x1100xf32> loc("e")
// CHECK-DAG: %[[S:.*]] = tx8be.Constant dense<5.000000e-01> : tensor<2048x1100xf32> loc("s")
// CHECK-DAG: %[[C:.*]] = tx8be.Constant dense<5.000000e-01> : tensor<8192x1100xf32> loc("c")
// CHECK-DAG: %[[M:.*]] = tx8be.Constant dense<0.00999999977> : tensor<4096x1100xf32> loc("m")
// CHECK-DAG: %[[B:.*]] = tx8be.Constant dense<1.000980e-02> : tensor<4096x1100xbf16> loc("bf")
// CHECK-DAG: %[[W:.*]] = tx8be.Constant dense<2.500000e-01> : tensor<4096x1100xf32> loc("w")
// CHECK-DAG: %[[G:.*]] = tx8be.Constant dense<true> : tensor<4096x1100xi1> loc("g")
// CHECK-DAG: %[[D:.*]] = tx8be.Constant dense<{{\[\[}}5.000000e-01, 5.000000e-01], [2.500000e-01, 2.500000e-01]]> : tensor<2x2xf32> loc("d")
// CHECK-NOT: tx8be.Constant
// CHECK: return %[[T]], %[[R]], %[[E]], %[[S]], %[[C]], %[[M]], %[[B]], %[[W]], %[[G]], %[[D]]
func.func @splats() -> (tensor<1100x4096xf32>, tensor<64x70400xf32>, tensor<2x4096x1100xf32>, tensor<2048x1100xf32>,
                        tensor<8192x1100xf32>, tensor<4096x1100xf32>, tensor<4096x1100xbf16>, tensor<4096x1100xf32>,
                        tensor<4096x1100xi1>, tensor<2x2xf32>) {
  %half = tx8be.Constant dense<0.5> : tensor<4096x1100xf32>
  %quarter = tx8be.Constant dense<0.25> : tensor<4096x1100xf32>
  %scale = tx8be.Constant dense<0.02> : tensor<f32>
  %no = tx8be.Constant dense<false> : tensor<1x1100xi1>
  %t = tx8be.Transpose %half {perm = array<i64: 1, 0>} : (tensor<4096x1100xf32>) -> tensor<1100x4096xf32> loc("t")
  %r = tx8be.Reshape %half : (tensor<4096x1100xf32>) -> tensor<64x70400xf32> loc("r")
  %h3 = tx8be.Reshape %half : (tensor<4096x1100xf32>) -> tensor<1x4096x1100xf32>
  %e = tx8be.Expand %h3 : (tensor<1x4096x1100xf32>) -> tensor<2x4096x1100xf32> loc("e")
  %s = tx8be.Slice %half {offsets = array<i64: 1, 0>, sizes = array<i64: 2048, 1100>, strides = array<i64: 2, 1>} : (tensor<4096x1100xf32>) -> tensor<2048x1100xf32> loc("s")
  %c = tx8be.Concat %half, %half {axis = 0 : i64} : (tensor<4096x1100xf32>, tensor<4096x1100xf32>) -> tensor<8192x1100xf32> loc("c")
  %m = tx8be.Mul %half, %scale : (tensor<4096x1100xf32>, tensor<f32>) -> tensor<4096x1100xf32> loc("m")
  %bf = tx8be.Cast %m : (tensor<4096x1100xf32>) -> tensor<4096x1100xbf16> loc("bf")
  %w = tx8be.Where %no, %half, %quarter : (tensor<1x1100xi1>, tensor<4096x1100xf32>, tensor<4096x1100xf32>) -> tensor<4096x1100xf32> loc("w")
  %g = tx8be.Greater %half, %quarter : (tensor<4096x1100xf32>, tensor<4096x1100xf32>) -> tensor<4096x1100xi1> loc("g")
  %a = tx8be.Constant dense<0.5> : tensor<1x2xf32>
  %b = tx8be.Constant dense<0.25> : tensor<1x2xf32>
  %d = tx8be.Concat %a, %b {axis = 0 : i64} : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32> loc("d")
  return %t, %r, %e, %s, %c, %m, %bf, %w, %g, %d : tensor<1100x4096xf32>, tensor<64x70400xf32>, tensor<2x4096x1100xf32>,
      tensor<2048x1100xf32>, tensor<8192x1100xf32>, tensor<4096x1100xf32>, tensor<4096x1100xbf16>, tensor<4096x1100xf32>,
      tensor<4096x1100xi1>, tensor<2x2xf32>
}
