// An Expand is op_slice from index 0 with step 0 along the broadcast dims (the TDMA re-reads the element) and
// step 1 along the others; a rank or broadcast mismatch is a verifier error naming both shapes.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tx8-aot compile %s -o %t/b > /dev/null
// RUN: FileCheck %s < %t/b/main.c
// RUN: sed -e 's/3x5x4/3x5x2/g' %s > %t/bad.mlir
// RUN: not tx8-aot compile %t/bad.mlir -o %t/bad 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: node 'middle': 'tx8be.Expand' op input 3x1x4 does not broadcast to 3x5x2 (dim 2)

// CHECK: /* tx8be.Expand "rows" */
// CHECK-NEXT: SLICE_PARAM op_param = {.start = {0, 0}, .step = {0, 1}};
// CHECK-NEXT: op_slice(&op_param, &in0, &out)
// CHECK: /* tx8be.Expand "middle" */
// CHECK-NEXT: SLICE_PARAM op_param = {.start = {0, 0, 0}, .step = {1, 0, 1}};

func.func @main(%x: tensor<1x8xf32> {tx8be.name = "x"}, %y: tensor<3x1x4xf32> {tx8be.name = "y"}) -> (tensor<6x8xf32> {tx8be.name = "a"}, tensor<3x5x4xf32> {tx8be.name = "b"}) {
  %0 = tx8be.Expand %x : (tensor<1x8xf32>) -> tensor<6x8xf32> loc("rows")
  %1 = tx8be.Expand %y : (tensor<3x1x4xf32>) -> tensor<3x5x4xf32> loc("middle")
  return %0, %1 : tensor<6x8xf32>, tensor<3x5x4xf32>
}
