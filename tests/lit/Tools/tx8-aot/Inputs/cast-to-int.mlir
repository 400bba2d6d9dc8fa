// A Cast to int32: no OpLib kernel yet.
func.func @main(%x: tensor<2x16xf32> {tx8be.name = "x"}) -> (tensor<2x16xi32> {tx8be.name = "y"}) {
  %0 = tx8be.Cast %x : (tensor<2x16xf32>) -> tensor<2x16xi32> loc("int")
  return %0 : tensor<2x16xi32>
}
