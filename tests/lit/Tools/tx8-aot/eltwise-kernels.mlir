// Every elementwise op with an OpLib kernel prints its call (ELTWISE_PARAM, operands then the result).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tx8-aot compile %s --fuse=false -o %t/b > /dev/null
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
// The activations with fp32 parameters; a Clip without an upper bound (+inf) has has_max 0 and no max.
// CHECK: /* tx8be.LeakyRelu "leaky" */
// CHECK-NEXT: LEAKY_RELU_PARAM op_param = {.layout = LAYOUT_NTENSOR, .rnd = RND_NEAREST_EVEN, .alpha = 0.125f};
// CHECK-NEXT: op_leaky_relu(&op_param, &in0, &out)
// CHECK: /* tx8be.Clip "clip" */
// CHECK-NEXT: CLIP_PARAM op_param = {.layout = LAYOUT_NTENSOR, .rnd = RND_NEAREST_EVEN, .has_min = 1, .has_max = 0, .min = -1.5f};
// CHECK-NEXT: op_clip(&op_param, &in0, &out)
// CHECK: /* tx8be.HardSigmoid "hard" */
// CHECK-NEXT: HARD_SIGMOID_PARAM op_param = {.layout = LAYOUT_NTENSOR, .rnd = RND_NEAREST_EVEN, .alpha = 0.25f, .beta = 0.5f};
// CHECK-NEXT: op_hard_sigmoid(&op_param, &in0, &out)

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
  %9 = tx8be.LeakyRelu %8 {alpha = 0.125 : f32} : (tensor<2x16xf32>) -> tensor<2x16xf32> loc("leaky")
  %10 = tx8be.Clip %9 {min = -1.5 : f32, max = 0x7F800000 : f32} : (tensor<2x16xf32>) -> tensor<2x16xf32> loc("clip")
  %11 = tx8be.HardSigmoid %10 {alpha = 0.25 : f32, beta = 0.5 : f32} : (tensor<2x16xf32>) -> tensor<2x16xf32> loc("hard")
  return %11 : tensor<2x16xf32>
}
