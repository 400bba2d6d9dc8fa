// OpLib's tensors have at most 6 dims: a rank-7 value a group loads is refused at compile time, naming its node
// (a rank-7 op used to compile into a bundle whose op_loadVar faulted: "ddr_src dim = 0"). A unary elementwise op
// of rank 7 runs on its 1-D view (tx8be-decompose) and compiles.
// RUN: not tx8-aot compile %s -o %t 2>&1 | FileCheck %s
// CHECK: node 's': 'tx8be.LoadBox' op has a result of rank 7; OpLib takes tensors of at most 6 dims
// RUN: sed -e 's/tx8be.Softmax %x {axis = 6 : i64}/tx8be.Relu %x/' %s > %t.relu.mlir
// RUN: tx8-aot compile %t.relu.mlir -o %t.relu | FileCheck %s --check-prefix=RELU
// RELU: compiled {{.*}}relu.mlir
func.func @main(%x: tensor<2x1x2x1x2x1x2xf32> {tx8be.name = "x"}) -> (tensor<2x1x2x1x2x1x2xf32> {tx8be.name = "y"}) {
  %0 = tx8be.Softmax %x {axis = 6 : i64} : (tensor<2x1x2x1x2x1x2xf32>) -> tensor<2x1x2x1x2x1x2xf32> loc("s")
  return %0 : tensor<2x1x2x1x2x1x2xf32>
}
