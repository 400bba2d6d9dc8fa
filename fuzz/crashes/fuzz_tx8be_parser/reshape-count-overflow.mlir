func.func @main(%x: tensor<1xf32>) -> tensor<4611686018427387904x4xf32> {
  %0 = tx8be.Reshape %x : (tensor<1xf32>) -> tensor<4611686018427387904x4xf32>
  return %0 : tensor<4611686018427387904x4xf32>
}
