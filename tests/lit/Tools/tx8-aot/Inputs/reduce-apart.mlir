// Axes 0 and 2 of a row-major [2, 3, 4]: dim 1 is kept between them in memory.
func.func @main(%x: tensor<2x3x4xf32> {tx8be.name = "x"}) -> (tensor<1x3x1xf32> {tx8be.name = "s"}) {
  %0 = tx8be.ReduceSum %x {axes = array<i64: 0, 2>} : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32> loc("sum")
  return %0 : tensor<1x3x1xf32>
}
