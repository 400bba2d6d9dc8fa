// op_gemm writes fp32 only: an f16 Gemm is refused at compile time (it would fault on the chip).
func.func @main(%a: tensor<2x4xf16> {tx8be.name = "a"}) -> (tensor<2x3xf16> {tx8be.name = "y"}) {
  %b = tx8be.Constant dense<1.0> : tensor<4x3xf16>
  %y = tx8be.Gemm %a, %b : (tensor<2x4xf16>, tensor<4x3xf16>) -> tensor<2x3xf16>
  return %y : tensor<2x3xf16>
}
