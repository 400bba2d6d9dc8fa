func.func @main(%x: tensor<200000x64xf32> {tx8be.name = "x"}) -> (tensor<200000x64xf32> {tx8be.name = "y"}) {
  %y = tx8be.Relu %x : (tensor<200000x64xf32>) -> tensor<200000x64xf32>
  return %y : tensor<200000x64xf32>
}
