// RUN: tx8-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tx8be-decompose,tx8be-infer-shapes,tx8be-layout-init,tx8be-layout-transmit,tx8be-layout-align-to-npu,tx8be-layout-align-opt),tx8be-move-constant,tx8be-const-norm,func.func(tx8be-group-optimization,tx8be-group-fuse,tx8be-group-ldst),tx8be-group-mapping,func.func(tx8be-group-cost))' | FileCheck %s

// A batched MatMul (issue 34) from decompose to group-cost: it stays one op in one group, row-major, and its
// batch dims are parallel dims like M and N: the search shards them across the tiles and the steps cut them, each
// step's box holding one or more whole matrices (op_gemm loops over them) and no Slice or Concat anywhere.

// Attention scores [2,12,16,8] x [2,12,8,16] on 16 tiles: sharded over the batch, the heads and M (2 x 4 x 2),
// one step per tile of 3 matrices of 8 x 16 (A boxes [1,3,8,8], B [1,3,8,16]: each tile's heads, all of K).
// CHECK-LABEL: func.func @attention_scores
// CHECK-NOT: tx8be.Slice
// CHECK: tx8be.Group(%arg0, %arg1) {dev_region = #tx8be.region_attr<x_dim = 4, y_dim = 4>, group_tag = 0 : i32}
// CHECK: tx8be.Steps tiles [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] slice [1, 3, 8, 16] -> tensor<2x12x16x16xf32> attributes {estimate = {{[0-9]+}} : i64, sharding = array<i64: 2, 4, 2, 1>}
// CHECK-NEXT: tx8be.LoadBox %arg2 {boxes = #tx8be.boxes<rank = 4, start = [0, 0, 0, 0, 0, 0, 8, 0, 0, 3, 0, 0, 0, 3, 8, 0, 0, 6, 0, 0,
// CHECK-SAME: size = [1, 3, 8, 8, 1, 3, 8, 8,
// CHECK-NEXT: tx8be.LoadBox %arg3 {boxes = #tx8be.boxes<rank = 4, start = [0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 6, 0, 0,
// CHECK-SAME: size = [1, 3, 8, 16, 1, 3, 8, 16,
// CHECK: tx8be.MatMul %{{.*}}, %{{.*}} {{{.*}}layout_str = "NCHW"} : (tensor<2x12x16x8xf32>, tensor<2x12x8x16xf32>) -> tensor<2x12x16x16xf32>
// CHECK-NOT: tx8be.Group(
// CHECK-NOT: tx8be.Concat
module attributes {tx8be.tile_dx = 4, tx8be.tile_dy = 4} {
  func.func @attention_scores(%a: tensor<2x12x16x8xf32>, %b: tensor<2x12x8x16xf32>) -> tensor<2x12x16x16xf32> {
    %y = tx8be.MatMul %a, %b : (tensor<2x12x16x8xf32>, tensor<2x12x8x16xf32>) -> tensor<2x12x16x16xf32>
    return %y : tensor<2x12x16x16xf32>
  }
}

// -----

// The same on one tile with a 4 KiB SPM: the whole (24 KiB of operands) does not fit, so the steps cut the heads:
// 12 steps of 2 matrices each, walking the batch dims outermost first.
// CHECK-LABEL: func.func @attention_scores_sliced
// CHECK: tx8be.Steps tiles [12] slice [1, 2, 16, 16] -> tensor<2x12x16x16xf32>
// CHECK-NEXT: tx8be.LoadBox %arg2 {boxes = #tx8be.boxes<rank = 4, start = [0, 0, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 6, 0, 0, 0, 8, 0, 0, 0, 10, 0, 0, 1, 0, 0, 0,
// CHECK-SAME: size = [1, 2, 16, 8, 1, 2, 16, 8,
// CHECK: tx8be.StoreBox %{{.*}} into 0 {boxes = #tx8be.boxes<rank = 4, start = [0, 0, 0, 0, 0, 2, 0, 0,
// CHECK-SAME: size = [1, 2, 16, 16, 1, 2, 16, 16,
module attributes {tx8be.hw_config = {spm_bytes = 4096 : i64}} {
  func.func @attention_scores_sliced(%a: tensor<2x12x16x8xf32>, %b: tensor<2x12x8x16xf32>) -> tensor<2x12x16x16xf32> {
    %y = tx8be.MatMul %a, %b : (tensor<2x12x16x8xf32>, tensor<2x12x8x16xf32>) -> tensor<2x12x16x16xf32>
    return %y : tensor<2x12x16x16xf32>
  }
}

// -----

// Broadcast batch dims, [1,3,4,8] x [2,1,8,4] -> [2,3,4,4] on 2 tiles: sharded by the output's batch dim, which A
// does not have (extent 1): A's box is its whole self on both tiles, read once (multicast); B's box follows the
// shard along dim 0 and keeps extent 1 along the heads it broadcasts over.
// CHECK-LABEL: func.func @broadcast_batch
// CHECK: tx8be.Steps tiles [1, 1] slice [1, 3, 4, 4] -> tensor<2x3x4x4xf32> attributes {estimate = {{[0-9]+}} : i64, sharding = array<i64: 2, 1, 1, 1>}
// CHECK-NEXT: tx8be.LoadBox %arg2 {boxes = #tx8be.boxes<rank = 4, start = [0, 0, 0, 0, 0, 0, 0, 0], size = [1, 3, 4, 8, 1, 3, 4, 8], pad_low = [], pad_high = []>, once}
// CHECK-NEXT: tx8be.LoadBox %arg3 {boxes = #tx8be.boxes<rank = 4, start = [0, 0, 0, 0, 1, 0, 0, 0], size = [1, 1, 8, 4, 1, 1, 8, 4], pad_low = [], pad_high = []>}
// CHECK: tx8be.MatMul {{.*}} : (tensor<1x3x4x8xf32>, tensor<2x1x8x4xf32>) -> tensor<2x3x4x4xf32>
module attributes {tx8be.tile_dx = 2, tx8be.tile_dy = 1} {
  func.func @broadcast_batch(%a: tensor<1x3x4x8xf32>, %b: tensor<2x1x8x4xf32>) -> tensor<2x3x4x4xf32> {
    %y = tx8be.MatMul %a, %b : (tensor<1x3x4x8xf32>, tensor<2x1x8x4xf32>) -> tensor<2x3x4x4xf32>
    return %y : tensor<2x3x4x4xf32>
  }
}
