// tx8be-decompose unrolls a batched MatMul into at most 256 2-D ones (op_gemm's form): 257 is refused by count.
func.func @main(%a: tensor<257x2x3xf32> {tx8be.name = "a"}, %b: tensor<257x3x2xf32> {tx8be.name = "b"}) -> (tensor<257x2x2xf32> {tx8be.name = "y"}) {
  %y = tx8be.MatMul %a, %b : (tensor<257x2x3xf32>, tensor<257x3x2xf32>) -> tensor<257x2x2xf32>
  return %y : tensor<257x2x2xf32>
}
