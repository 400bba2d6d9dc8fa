// RUN: tx8-opt %s --split-input-file --tx8be-group-dag --mlir-print-op-generic | FileCheck %s

// need_barrier defaults to true and the custom printer drops it then, so the checks read the generic form.

// On one tile nothing needs a barrier, not even a Group whose result the next Group reads.
// CHECK-LABEL: sym_name = "one_tile"
// CHECK: "tx8be.Group"(%arg0) {{.*}}need_barrier = false
// CHECK: "tx8be.Group"(%0) {{.*}}need_barrier = false
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
    tx8be.Return %4 : tensor<2x8xf32>
  }
  return %1 : tensor<2x8xf32>
}

// -----

// On a 2x1 mesh (every Group mapped to it) the producer needs a barrier: its consumer's tiles read slices
// the other tile wrote. The last Group feeds only the graph's output: no barrier.
// CHECK-LABEL: sym_name = "two_tiles"
// CHECK: "tx8be.Group"(%arg0) {{.*}}need_barrier = true
// CHECK: "tx8be.Group"(%0) {{.*}}need_barrier = false
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

// A producer on one tile whose consumer runs on 2x1 needs the barrier too (the consumer is multi-tile);
// the pass sets it even where the input says false.
// CHECK-LABEL: sym_name = "consumer_on_two"
// CHECK: "tx8be.Group"(%arg0) {{.*}}need_barrier = true
// CHECK: "tx8be.Group"(%0) {{.*}}need_barrier = false
func.func @consumer_on_two(%arg0: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32, need_barrier = false} : (tensor<2x8xf32>) -> tensor<2x8xf32> {
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
