// Reductions are op_reduce over an [A][R][B] view of the input (A: the kept dims before the reduced ones in
// memory, R: the reduced ones, B: the rest) into [A][1][B]; axes with a kept dim between them are refused at
// compile time.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tx8-aot compile %s -o %t/b > /dev/null
// RUN: FileCheck %s < %t/b/main.c
// RUN: not tx8-aot compile %S/Inputs/reduce-apart.mlir -o %t/apart 2>&1 | FileCheck %s --check-prefix=APART
// RUN: not test -e %t/apart

// CHECK: /* ---- group 0: tx8be.ReduceMean "mean"
// CHECK: static const int32_t in0_view[1][3] = {{[{][{]}}2, 3, 4}};
// CHECK: static const int32_t out_view[1][3] = {{[{][{]}}2, 1, 4}};
// CHECK: REDUCE_PARAM op_param = {.kind = REDUCE_MEAN, .rnd = RND_NEAREST_EVEN};
// CHECK-NEXT: op_reduce(&op_param, &in0, &out)
// CHECK: /* ---- group 1: tx8be.ReduceMax "max"
// CHECK: static const int32_t in0_view[1][3] = {{[{][{]}}1, 8, 1}};
// CHECK: static const int32_t out_view[1][3] = {{[{][{]}}1, 1, 1}};
// CHECK: REDUCE_PARAM op_param = {.kind = REDUCE_MAX, .rnd = RND_NEAREST_EVEN};

// APART: error: {{.*}}reduce-apart.mlir{{.*}}'tx8be.ReduceSum' op has no OpLib kernel: op_reduce reduces dims adjacent in memory

func.func @main(%x: tensor<2x3x4xf32> {tx8be.name = "x"}) -> (tensor<2x1x4xf32> {tx8be.name = "m"}, tensor<f32> {tx8be.name = "a"}) {
  %0 = tx8be.ReduceMean %x {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32> loc("mean")
  %1 = tx8be.ReduceMax %0 {keepdims = false} : (tensor<2x1x4xf32>) -> tensor<f32> loc("max")
  return %0, %1 : tensor<2x1x4xf32>, tensor<f32>
}
