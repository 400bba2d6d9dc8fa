// A Transpose is op_permute on the TDMA: perm[k] is where the input keeps the output's memory dim k.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tx8-aot compile %s -o %t/b > /dev/null
// RUN: FileCheck %s < %t/b/main.c

// CHECK: /* tx8be.Transpose "t2" */
// CHECK-NEXT: PERMUTE_PARAM op_param = {.perm = {1, 0}};
// CHECK-NEXT: op_permute(&op_param, &in0, &out)
// CHECK: /* tx8be.Transpose "t3" */
// CHECK-NEXT: PERMUTE_PARAM op_param = {.perm = {2, 0, 1}};

func.func @main(%x: tensor<4x8xf32> {tx8be.name = "x"}, %y: tensor<2x3x5xf32> {tx8be.name = "y"}) -> (tensor<8x4xf32> {tx8be.name = "a"}, tensor<5x2x3xf32> {tx8be.name = "b"}) {
  %0 = tx8be.Transpose %x {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32> loc("t2")
  %1 = tx8be.Transpose %y {perm = array<i64: 2, 0, 1>} : (tensor<2x3x5xf32>) -> tensor<5x2x3xf32> loc("t3")
  return %0, %1 : tensor<8x4xf32>, tensor<5x2x3xf32>
}
