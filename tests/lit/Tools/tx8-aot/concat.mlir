// A Concat is one op_concat call that takes every input as an array (a C99 compound literal) and the axis's
// position in the tensors' memory order.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tx8-aot compile %s -o %t/b > /dev/null
// RUN: FileCheck %s < %t/b/main.c

// CHECK: /* tx8be.Concat "cat" */
// CHECK-NEXT: CONCAT_PARAM op_param = {.axis = 1, .count = 3};
// CHECK-NEXT: op_concat(&op_param, (TSR *const[]){&in0, &in1, &in2}, &out)

func.func @main(%a: tensor<2x3xf32> {tx8be.name = "a"}, %b: tensor<2x1xf32> {tx8be.name = "b"}, %c: tensor<2x4xf32> {tx8be.name = "c"}) -> (tensor<2x8xf32> {tx8be.name = "y"}) {
  %0 = tx8be.Concat %a, %b, %c {axis = 1} : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x4xf32>) -> tensor<2x8xf32> loc("cat")
  return %0 : tensor<2x8xf32>
}
