// A MatMul of one row by a constant: sharded by output columns, every tile reads the whole row (LoadBox once).
module {
  func.func @main(%x: tensor<1x512xf32> {tx8be.name = "x"}) -> (tensor<1x1024xf32> {tx8be.name = "y"}) {
    %w = tx8be.Constant dense<0.5> : tensor<512x1024xf32> loc("w")
    %y = tx8be.MatMul %x, %w : (tensor<1x512xf32>, tensor<512x1024xf32>) -> tensor<1x1024xf32> loc("mm")
    return %y : tensor<1x1024xf32>
  }
}
