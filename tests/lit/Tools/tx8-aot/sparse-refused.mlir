// A sparse elements attribute is refused before parsing, with its line and column (MLIR 19's verifier of
// malformed ones reads out of bounds; tx8be has no use for them).
// RUN: not tx8-aot compile %s -o %t 2>&1 | FileCheck %s
// CHECK: sparse-refused.mlir:9:23: sparse elements attributes are not supported
// A name that merely contains the word is fine: %not_sparse below is never reached.

func.func @main(%x: tensor<2xf32> {tx8be.name = "x"}) -> (tensor<2xf32> {tx8be.name = "y"}) {
  %not_sparse = tx8be.Relu %x : (tensor<2xf32>) -> tensor<2xf32>
  %0 = tx8be.Constant sparse<[[0]], [1.0, 0.0]> : tensor<2xf32>
  return %not_sparse : tensor<2xf32>
}
