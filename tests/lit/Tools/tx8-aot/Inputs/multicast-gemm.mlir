// A 512x256 by 256x128 MatMul on 16 tiles, sharded 4x4: a mesh row shares A's rows, a column B's columns.
module {
  func.func @main(%a: tensor<512x256xf32> {tx8be.name = "a"}) -> (tensor<512x128xf32> {tx8be.name = "y"}) {
    %b = tx8be.Constant dense<0.5> : tensor<256x128xf32> loc("b")
    %y = tx8be.MatMul %a, %b : (tensor<512x256xf32>, tensor<256x128xf32>) -> tensor<512x128xf32> loc("mm")
    return %y : tensor<512x128xf32>
  }
}
