// A BatchNorm whose epsilon is infinite: no C literal is printed for it, the op is refused.
func.func @main(%x: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %s = tx8be.Constant dense<1.0> : tensor<4xf32>
  %y = tx8be.BatchNorm_Inference %x, %s, %s, %s, %s {epsilon = 0x7F800000 : f32} : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return %y : tensor<1x4x2x2xf32>
}
