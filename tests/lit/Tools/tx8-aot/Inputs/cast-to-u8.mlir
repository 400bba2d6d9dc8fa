// A Cast to uint8: the chip has no uint8 format.
func.func @main(%x: tensor<2x16xf32> {tx8be.name = "x"}) -> (tensor<2x16xui8> {tx8be.name = "y"}) {
  %0 = tx8be.Cast %x : (tensor<2x16xf32>) -> tensor<2x16xui8> loc("u8")
  return %0 : tensor<2x16xui8>
}
