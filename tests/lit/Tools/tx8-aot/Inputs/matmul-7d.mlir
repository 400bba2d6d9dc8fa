// A batched MatMul of rank 7: op_gemm's tensors have at most 6 dims.
func.func @main(%a: tensor<1x2x1x2x1x2x3xf32> {tx8be.name = "a"}, %b: tensor<1x2x1x2x1x3x2xf32> {tx8be.name = "b"}) -> (tensor<1x2x1x2x1x2x2xf32> {tx8be.name = "y"}) {
  %y = tx8be.MatMul %a, %b : (tensor<1x2x1x2x1x2x3xf32>, tensor<1x2x1x2x1x3x2xf32>) -> tensor<1x2x1x2x1x2x2xf32>
  return %y : tensor<1x2x1x2x1x2x2xf32>
}
