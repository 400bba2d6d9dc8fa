func.func @main(%x: tensor<65536x65536x65536xf32> {tx8be.name = "x"}) -> (tensor<65536x65536x65536xf32> {tx8be.name = "y"}) {
  %y = tx8be.Relu %x : (tensor<65536x65536x65536xf32>) -> tensor<65536x65536x65536xf32>
  return %y : tensor<65536x65536x65536xf32>
}
