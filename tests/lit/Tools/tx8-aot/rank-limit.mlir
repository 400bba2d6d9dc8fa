// OpLib's tensors have at most 6 dims: a rank-7 value a group loads is refused at compile time, naming its node
// (it used to compile into a bundle whose op_loadVar faulted: "ddr_src dim = 0").
// RUN: not tx8-aot compile %s -o %t 2>&1 | FileCheck %s
// CHECK: node 'r': 'tx8be.LoadBox' op has a result of rank 7; OpLib takes tensors of at most 6 dims
func.func @main(%x: tensor<2x1x2x1x2x1x2xf32> {tx8be.name = "x"}) -> (tensor<2x1x2x1x2x1x2xf32> {tx8be.name = "y"}) {
  %0 = tx8be.Relu %x : (tensor<2x1x2x1x2x1x2xf32>) -> tensor<2x1x2x1x2x1x2xf32> loc("r")
  return %0 : tensor<2x1x2x1x2x1x2xf32>
}
