// A graph op with a reference kernel but no OpLib kernel: codegen must refuse it by name.
func.func @main(%x: tensor<4x4xf32>) -> tensor<4x2xf32> {
  %y = tx8be.Slice %x {offsets = array<i64: 0, 1>, sizes = array<i64: 4, 2>, strides = array<i64: 1, 1>} : (tensor<4x4xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
