// RUN: tx8-opt %s --split-input-file --tx8be-group-dag | FileCheck %s

// A Group after which the tiles must synchronise gets a tx8be.Barrier before its Return (the seed's need_barrier).

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

// -----

// On a 2x1 mesh, two planned Groups whose steps all run on tile 0 need no barrier between them (a tile runs
// its groups in order); before the third, which runs on both tiles, the second needs one, although the third
// does not read its result: the DDR of a dead tensor may be given to a later one.
// CHECK-LABEL: func.func @sole_tile
// CHECK: tx8be.Steps tiles [1, 0]
// CHECK-NOT: tx8be.Barrier
// CHECK: tx8be.Steps tiles [1, 0]
// CHECK: tx8be.Barrier
// CHECK-NEXT: tx8be.Return
// CHECK: tx8be.Steps tiles [1, 1]
// CHECK-NOT: tx8be.Barrier
// CHECK: return
func.func @sole_tile(%arg0: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>) {
  %0 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 2, y_dim = 1>, group_tag = 0 : i32} : (tensor<2x8xf32>) -> tensor<2x8xf32> {
  ^bb0(%a: tensor<2x8xf32>):
    %s = tx8be.Steps tiles [1, 0] slice [2, 8] -> tensor<2x8xf32> {
      %x, %xt = tx8be.LoadBox %a {boxes = #tx8be.boxes<rank = 2, start = [0, 0], size = [2, 8], pad_low = [], pad_high = []>} : tensor<2x8xf32>
      tx8be.Wait %xt
      %y = tx8be.Relu %x : (tensor<2x8xf32>) -> tensor<2x8xf32>
      %yt = tx8be.StoreBox %y into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0], size = [2, 8], pad_low = [], pad_high = []>} : tensor<2x8xf32>
      tx8be.Wait %yt
    }
    tx8be.Return %s : tensor<2x8xf32>
  }
  %1 = tx8be.Group(%0) {dev_region = #tx8be.region_attr<x_dim = 2, y_dim = 1>, group_tag = 0 : i32} : (tensor<2x8xf32>) -> tensor<2x8xf32> {
  ^bb0(%a: tensor<2x8xf32>):
    %s = tx8be.Steps tiles [1, 0] slice [2, 8] -> tensor<2x8xf32> {
      %x, %xt = tx8be.LoadBox %a {boxes = #tx8be.boxes<rank = 2, start = [0, 0], size = [2, 8], pad_low = [], pad_high = []>} : tensor<2x8xf32>
      tx8be.Wait %xt
      %y = tx8be.Relu %x : (tensor<2x8xf32>) -> tensor<2x8xf32>
      %yt = tx8be.StoreBox %y into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0], size = [2, 8], pad_low = [], pad_high = []>} : tensor<2x8xf32>
      tx8be.Wait %yt
    }
    tx8be.Return %s : tensor<2x8xf32>
  }
  %2 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 2, y_dim = 1>, group_tag = 0 : i32} : (tensor<2x8xf32>) -> tensor<2x8xf32> {
  ^bb0(%a: tensor<2x8xf32>):
    %s = tx8be.Steps tiles [1, 1] slice [1, 8] -> tensor<2x8xf32> {
      %x, %xt = tx8be.LoadBox %a {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0], size = [1, 8, 1, 8], pad_low = [], pad_high = []>} : tensor<2x8xf32>
      tx8be.Wait %xt
      %y = tx8be.Relu %x : (tensor<2x8xf32>) -> tensor<2x8xf32>
      %yt = tx8be.StoreBox %y into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0], size = [1, 8, 1, 8], pad_low = [], pad_high = []>} : tensor<2x8xf32>
      tx8be.Wait %yt
    }
    tx8be.Return %s : tensor<2x8xf32>
  }
  return %1, %2 : tensor<2x8xf32>, tensor<2x8xf32>
}
