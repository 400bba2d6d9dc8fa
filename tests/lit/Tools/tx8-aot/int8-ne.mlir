// int8 MatMul and Conv (issue 36: MatMulInteger, ConvInteger) are op_gemm / op_conv on the NE's int8 path: int8
// operand TSRs, an int32 result.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tx8-aot compile %s -o %t/b > /dev/null
// RUN: FileCheck %s < %t/b/main.c

// CHECK: TSR in0 = {Fmt_INT8,
// CHECK: TSR in1 = {Fmt_INT8,
// CHECK: TSR out = {Fmt_INT32,
// CHECK: /* tx8be.MatMul "mm" */
// CHECK: op_gemm(&op_param, &in0, &in1, NULL, &out)
// CHECK: TSR in0 = {Fmt_INT8,
// CHECK: TSR in1 = {Fmt_INT8,
// CHECK: TSR out = {Fmt_INT32,
// CHECK: /* tx8be.Conv "conv" */
// CHECK: op_conv(&op_param, &in0, &in1, NULL, &out)

func.func @main(%a: tensor<8x32xi8> {tx8be.name = "a"}, %b: tensor<32x16xi8> {tx8be.name = "b"},
                %x: tensor<1x4x6x6xi8> {tx8be.name = "x"}, %w: tensor<8x4x3x3xi8> {tx8be.name = "w"})
    -> (tensor<8x16xi32> {tx8be.name = "y"}, tensor<1x8x6x6xi32> {tx8be.name = "c"}) {
  %0 = tx8be.MatMul %a, %b : (tensor<8x32xi8>, tensor<32x16xi8>) -> tensor<8x16xi32> loc("mm")
  %1 = tx8be.Conv %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x6xi8>, tensor<8x4x3x3xi8>) -> tensor<1x8x6x6xi32> loc("conv")
  return %0, %1 : tensor<8x16xi32>, tensor<1x8x6x6xi32>
}
