// A Cast to int16: the chip has no int16 format.
func.func @main(%x: tensor<2x16xf32> {tx8be.name = "x"}) -> (tensor<2x16xi16> {tx8be.name = "y"}) {
  %0 = tx8be.Cast %x : (tensor<2x16xf32>) -> tensor<2x16xi16> loc("i16")
  return %0 : tensor<2x16xi16>
}
