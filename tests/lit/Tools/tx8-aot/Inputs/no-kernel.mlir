// A graph op with a reference kernel but no OpLib kernel: codegen must refuse it by name.
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = tx8be.Erf %x : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
