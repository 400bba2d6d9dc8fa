
func.func @constant_sparse() {
  // expected-error @+1 {{'tx8be.Constant' op value must be a DenseElementsAttr or a DenseResourceElementsAttr}}
  %0 = tx8be.Constant sparse<[[0]], [1,0]> : tensor<2xf32>
  return
}

