// 4 x 64 fp32 (1 KiB in, 1 KiB out) through a 768-byte SPM: one 256-byte row in and out per step.
func.func @main(%x: tensor<4x64xf32> {tx8be.name = "x"}) -> (tensor<4x64xf32> {tx8be.name = "y"}) {
  %y = tx8be.Relu %x : (tensor<4x64xf32>) -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}
