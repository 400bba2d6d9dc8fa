// A softmax row (4 KiB in, 4 KiB out) cannot be cut, and does not fit a 1 KiB SPM.
func.func @main(%x: tensor<4x1024xf32>) -> tensor<4x1024xf32> {
  %y = tx8be.Softmax %x : (tensor<4x1024xf32>) -> tensor<4x1024xf32>
  return %y : tensor<4x1024xf32>
}
