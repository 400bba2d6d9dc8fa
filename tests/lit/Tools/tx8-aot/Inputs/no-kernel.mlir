// A graph op with a reference kernel but no OpLib kernel for these operands: codegen must refuse it by name
// (op_layernorm takes a scale of every normalised element, not one that broadcasts).
func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %s = tx8be.Constant dense<1.0> : tensor<1xf32>
  %y = tx8be.LayerNorm %x, %s : (tensor<2x4xf32>, tensor<1xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
