// x / y with x [1, 16] broadcast over y's 2 rows: op_div broadcasts only the denominator.
func.func @main(%x: tensor<1x16xf32> {tx8be.name = "x"}, %y: tensor<2x16xf32> {tx8be.name = "y"}) -> (tensor<2x16xf32> {tx8be.name = "z"}) {
  %0 = tx8be.Div %x, %y : (tensor<1x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32> loc("div")
  return %0 : tensor<2x16xf32>
}
