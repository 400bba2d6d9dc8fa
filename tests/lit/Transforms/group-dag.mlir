// RUN: tx8-opt %s --split-input-file --tx8be-group-dag | FileCheck %s

// A Group whose tiles must synchronise before the next reads its results gets a tx8be.Barrier before its
// Return (the seed's need_barrier).

// On one tile nothing needs a barrier, not even a Group whose result the next Group reads; a Barrier in the
// input (the second Group's) goes.
// CHECK-LABEL: func.func @one_tile
// CHECK-NOT: tx8be.Barrier
func.func @one_tile(%arg0: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<2x8xf32>) -> tensor<2x8xf32> {
  ^bb0(%arg1: tensor<2x8xf32>):
    %2 = tx8be.LoadVar %arg1 : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %3 = tx8be.Relu %2 : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %4 = tx8be.StoreVar %3 : (tensor<2x8xf32>) -> tensor<2x8xf32>
    tx8be.Return %4 : tensor<2x8xf32>
  }
  %1 = tx8be.Group(%0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<2x8xf32>) -> tensor<2x8xf32> {
  ^bb0(%arg1: tensor<2x8xf32>):
    %2 = tx8be.LoadVar %arg1 : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %3 = tx8be.Sigmoid %2 : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %4 = tx8be.StoreVar %3 : (tensor<2x8xf32>) -> tensor<2x8xf32>
    tx8be.Barrier
    tx8be.Return %4 : tensor<2x8xf32>
  }
  return %1 : tensor<2x8xf32>
}

// -----

// On a 2x1 mesh (every Group mapped to it) the producer needs a barrier: its consumer's tiles read slices
// the other tile wrote. The last Group feeds only the graph's output: no barrier.
// CHECK-LABEL: func.func @two_tiles
// CHECK: tx8be.Group(%arg0)
// CHECK: tx8be.StoreVar
// CHECK-NEXT: tx8be.Barrier
// CHECK-NEXT: tx8be.Return
// CHECK: tx8be.Group(%0)
// CHECK-NOT: tx8be.Barrier
// CHECK: return
module attributes {tx8be.tile_dx = 2} {
  func.func @two_tiles(%arg0: tensor<2x8xf32>) -> tensor<2x8xf32> {
    %0 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 2, y_dim = 1>, group_tag = 0 : i32} : (tensor<2x8xf32>) -> tensor<2x8xf32> {
    ^bb0(%arg1: tensor<2x8xf32>):
      %2 = tx8be.LoadVar %arg1 : (tensor<2x8xf32>) -> tensor<2x8xf32>
      %3 = tx8be.Relu %2 : (tensor<2x8xf32>) -> tensor<2x8xf32>
      %4 = tx8be.StoreVar %3 : (tensor<2x8xf32>) -> tensor<2x8xf32>
      tx8be.Return %4 : tensor<2x8xf32>
    }
    %1 = tx8be.Group(%0) {dev_region = #tx8be.region_attr<x_dim = 2, y_dim = 1>, group_tag = 0 : i32} : (tensor<2x8xf32>) -> tensor<2x8xf32> {
    ^bb0(%arg1: tensor<2x8xf32>):
      %2 = tx8be.LoadVar %arg1 : (tensor<2x8xf32>) -> tensor<2x8xf32>
      %3 = tx8be.Sigmoid %2 : (tensor<2x8xf32>) -> tensor<2x8xf32>
      %4 = tx8be.StoreVar %3 : (tensor<2x8xf32>) -> tensor<2x8xf32>
      tx8be.Return %4 : tensor<2x8xf32>
    }
    return %1 : tensor<2x8xf32>
  }
}

// -----

// A producer on one tile whose consumer runs on 2x1 needs the barrier too (the consumer is multi-tile). A
// Barrier where none is needed (the last Group feeds only the graph's output) goes.
// CHECK-LABEL: func.func @consumer_on_two
// CHECK: tx8be.Group(%arg0)
// CHECK: tx8be.Barrier
// CHECK-NEXT: tx8be.Return
// CHECK: tx8be.Group(%0)
// CHECK-NOT: tx8be.Barrier
// CHECK: return
func.func @consumer_on_two(%arg0: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<2x8xf32>) -> tensor<2x8xf32> {
  ^bb0(%arg1: tensor<2x8xf32>):
    %2 = tx8be.LoadVar %arg1 : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %3 = tx8be.Relu %2 : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %4 = tx8be.StoreVar %3 : (tensor<2x8xf32>) -> tensor<2x8xf32>
    tx8be.Return %4 : tensor<2x8xf32>
  }
  %1 = tx8be.Group(%0) {dev_region = #tx8be.region_attr<x_dim = 2, y_dim = 1>, group_tag = 0 : i32} : (tensor<2x8xf32>) -> tensor<2x8xf32> {
  ^bb0(%arg1: tensor<2x8xf32>):
    %2 = tx8be.LoadVar %arg1 : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %3 = tx8be.Sigmoid %2 : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %4 = tx8be.StoreVar %3 : (tensor<2x8xf32>) -> tensor<2x8xf32>
    tx8be.Barrier
    tx8be.Return %4 : tensor<2x8xf32>
  }
  return %1 : tensor<2x8xf32>
}
