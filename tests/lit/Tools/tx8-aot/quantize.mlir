// QuantizeLinear and DequantizeLinear (issue 36) are op_quantize_linear / op_dequantize_linear with an imm TSR;
// the per-axis scale and zero point are operands like a broadcasting kernel's.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tx8-aot compile %s -o %t/b > /dev/null
// RUN: FileCheck %s < %t/b/main.c

// CHECK: /* tx8be.QuantizeLinear "quant" */
// CHECK-NEXT: QUANTIZE_PARAM op_param = {.layout = LAYOUT_NTENSOR};
// CHECK-NEXT: op_quantize_linear(&op_param, &in0, &in1, &in2, &imm, &out)
// CHECK: /* tx8be.DequantizeLinear "dequant" */
// CHECK-NEXT: QUANTIZE_PARAM op_param = {.layout = LAYOUT_NTENSOR};
// CHECK-NEXT: op_dequantize_linear(&op_param, &in0, &in1, &in2, &imm, &out)

func.func @main(%x: tensor<2x3x8xf32> {tx8be.name = "x"}, %s: tensor<3x1xf32> {tx8be.name = "s"},
                %z: tensor<3x1xi8> {tx8be.name = "z"})
    -> (tensor<2x3x8xi8> {tx8be.name = "q"}, tensor<2x3x8xf32> {tx8be.name = "d"}) {
  %0 = tx8be.QuantizeLinear %x, %s, %z : (tensor<2x3x8xf32>, tensor<3x1xf32>, tensor<3x1xi8>) -> tensor<2x3x8xi8> loc("quant")
  %1 = tx8be.DequantizeLinear %0, %s, %z : (tensor<2x3x8xi8>, tensor<3x1xf32>, tensor<3x1xi8>) -> tensor<2x3x8xf32> loc("dequant")
  return %0, %1 : tensor<2x3x8xi8>, tensor<2x3x8xf32>
}
