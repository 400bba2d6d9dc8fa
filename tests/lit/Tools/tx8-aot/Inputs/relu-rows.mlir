// A Relu whose rows tiles can share: the model for --tiles (each tile computes its shard of the rows).
module {
  func.func @main(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
    %y = tx8be.Relu %x : (tensor<4x64xf32>) -> tensor<4x64xf32>
    %z = tx8be.Relu %y : (tensor<4x64xf32>) -> tensor<4x64xf32>
    return %z : tensor<4x64xf32>
  }
}
