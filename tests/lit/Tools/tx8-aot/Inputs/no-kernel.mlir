// A graph op with a reference kernel but no OpLib kernel: codegen must refuse it by name.
func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %s = tx8be.Constant dense<1.0> : tensor<4xf32>
  %y = tx8be.LayerNorm %x, %s : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
