// A Linear whose weight is a splat (one value for every element, as the importer keeps a ConstantOfShape of more
// than 2^22 elements): tx8be-fold-constants evaluates the Mul by a scalar and the Gemm's transposed B as splats
// (two counted), and consts.bin holds every element of the weight, written in place (1100 x 4096 floats of 0.01,
// 0x3c23d70a: `od` shows one line and a '*' for the identical lines that follow), then the bias (a splat of 1.0
// too). tx8be-decompose has made the Gemm a MatMul and an Add.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tx8-aot compile %s -o %t/b --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: od -A d -t x4 %t/b/consts.bin | FileCheck %s --check-prefix=BYTES
// RUN: tx8-aot compile %s -o %t/b --mlir-print-ir-after=tx8be-fold-constants 2>&1 >/dev/null | FileCheck %s
//
// STATS: FoldConstantsPass (tx8be-fold-constants)
// STATS-NEXT: (S) 2 splats - ops on splat constants evaluated as one value
//
// BYTES: 0000000 3c23d70a 3c23d70a 3c23d70a 3c23d70a
// BYTES-NEXT: *
// BYTES-NEXT: 18022400 3f800000 3f800000 3f800000 3f800000
//
// CHECK: %[[W:.*]] = tx8be.Constant dense<0.00999999977> : tensor<1100x4096xf32>
// CHECK: tx8be.MatMul %arg0, %[[W]] : (tensor<2x1100xf32>, tensor<1100x4096xf32>) -> tensor<2x4096xf32>
func.func @main(%x: tensor<2x1100xf32>) -> tensor<2x4096xf32> {
  %half = tx8be.Constant dense<0.5> : tensor<4096x1100xf32>
  %scale = tx8be.Constant dense<0.02> : tensor<f32>
  %w = tx8be.Mul %half, %scale : (tensor<4096x1100xf32>, tensor<f32>) -> tensor<4096x1100xf32>
  %bias = tx8be.Constant dense<1.0> : tensor<4096xf32>
  %y = tx8be.Gemm %x, %w, %bias {transB = true} : (tensor<2x1100xf32>, tensor<4096x1100xf32>, tensor<4096xf32>) -> tensor<2x4096xf32>
  return %y : tensor<2x4096xf32>
}
