func.func @main(%x: tensor<1x4194304xf32> {tx8be.name = "x"}) -> (tensor<1x4194304xf32> {tx8be.name = "y"}) {
  %y = tx8be.Relu %x : (tensor<1x4194304xf32>) -> tensor<1x4194304xf32>
  return %y : tensor<1x4194304xf32>
}
