func.func @main(%x: tensor<2147483648x2147483648x4xf32> {tx8be.name = "x"}) -> (tensor<2147483648x2147483648x4xf32> {tx8be.name = "y"}) {
  %y = tx8be.Relu %x : (tensor<2147483648x2147483648x4xf32>) -> tensor<2147483648x2147483648x4xf32>
  return %y : tensor<2147483648x2147483648x4xf32>
}
