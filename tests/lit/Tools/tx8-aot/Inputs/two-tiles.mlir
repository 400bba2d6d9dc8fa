// A model for a 2x1 tile mesh: every group is mapped to two tiles, which codegen does not run yet.
module attributes {tx8be.tile_dx = 2 : i32, tx8be.tile_dy = 1 : i32} {
  func.func @main(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
    %y = tx8be.Relu %x : (tensor<4x64xf32>) -> tensor<4x64xf32>
    return %y : tensor<4x64xf32>
  }
}
