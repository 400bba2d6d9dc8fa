func.func @main(%a: tensor<2x4xf32> {tx8be.name = "a"}) -> (tensor<2x3xf32> {tx8be.name = "y"}) {
  %b = tx8be.Constant dense<1.0> : tensor<4x3xf32>
  %c = tx8be.Constant dense<2.0> : tensor<1xf32>
  %y = tx8be.Gemm %a, %b, %c : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
