// Every elementwise op with an OpLib kernel prints its call (ELTWISE_PARAM, operands then the result).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tx8-aot compile %s -o %t/b > /dev/null
// RUN: FileCheck %s < %t/b/main.c

// CHECK: /* tx8be.Sub "sub" */
// CHECK: op_sub(&op_param, &in0, &in1, &out)
// CHECK: /* tx8be.Div "div" */
// CHECK: op_div(&op_param, &in0, &in1, &out)
// CHECK: /* tx8be.Max "max" */
// CHECK: op_max(&op_param, &in0, &in1, &out)
// CHECK: /* tx8be.Min "min" */
// CHECK: op_min(&op_param, &in0, &in1, &out)
// CHECK: /* tx8be.Abs "abs" */
// CHECK-NEXT: ELTWISE_PARAM op_param = {.layout = LAYOUT_NTENSOR, .rnd = RND_NEAREST_EVEN};
// CHECK-NEXT: op_abs(&op_param, &in0, &out)
// CHECK: /* tx8be.Neg "neg" */
// CHECK: op_neg(&op_param, &in0, &out)
// CHECK: /* tx8be.Exp "exp" */
// CHECK: op_exp(&op_param, &in0, &out)
// CHECK: /* tx8be.Sqrt "sqrt" */
// CHECK: op_sqrt(&op_param, &in0, &out)
// CHECK: /* tx8be.Reciprocal "reciprocal" */
// CHECK: op_reciprocal(&op_param, &in0, &out)

func.func @main(%a: tensor<2x16xf32> {tx8be.name = "a"}, %b: tensor<2x16xf32> {tx8be.name = "b"}) -> (tensor<2x16xf32> {tx8be.name = "y"}) {
  %0 = tx8be.Sub %a, %b : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32> loc("sub")
  %1 = tx8be.Div %0, %b : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32> loc("div")
  %2 = tx8be.Max %1, %a : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32> loc("max")
  %3 = tx8be.Min %2, %b : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32> loc("min")
  %4 = tx8be.Abs %3 : (tensor<2x16xf32>) -> tensor<2x16xf32> loc("abs")
  %5 = tx8be.Neg %4 : (tensor<2x16xf32>) -> tensor<2x16xf32> loc("neg")
  %6 = tx8be.Exp %5 : (tensor<2x16xf32>) -> tensor<2x16xf32> loc("exp")
  %7 = tx8be.Sqrt %6 : (tensor<2x16xf32>) -> tensor<2x16xf32> loc("sqrt")
  %8 = tx8be.Reciprocal %7 : (tensor<2x16xf32>) -> tensor<2x16xf32> loc("reciprocal")
  return %8 : tensor<2x16xf32>
}
