func.func @main(%x: tensor<2xf32>) {
  return
}
