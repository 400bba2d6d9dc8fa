// RUN: tx8-opt %s --split-input-file --tx8be-ddr-alloc --verify-diagnostics | FileCheck %s

// DDR bank: 4096 bytes. Positions: @main's arguments live from 0, the n-th op of @main is at n (from 1),
// outputs live past the return.

// Constants first, each at a bank multiple in id order: two 2x520 f32 entries (4160 bytes = 2 banks) at 0 and
// 8192, so tensors start at 16384. A chain of 3 Groups over 2x520 f32 (4160 bytes, 8192 per range): the input
// [0, 1] at 16384, t0 [1, 2] at 24576; t1 [2, 3] takes the input's dead range and t2 [3, end] the dead t0's.
// CHECK-LABEL: module attributes {tx8be.const_addrs = array<i64: 0, 8192>, tx8be.const_bytes = 16384 : i64,
// CHECK-SAME: tx8be.ddr_bytes = 28736 : i64}
// CHECK: func.func @main(%arg0: tensor<2x520xf32> {tx8be.ddr_addr = 16384 : i64
// CHECK-SAME: -> (tensor<2x520xf32> {tx8be.ddr_addr = 24576 : i64
// CHECK: tx8be.Group(%arg0) {{.*}}tx8be.ddr_addrs = array<i64: 24576>}
// CHECK: tx8be.Group(%0) {{.*}}tx8be.ddr_addrs = array<i64: 16384>}
// CHECK: tx8be.Group(%1) {{.*}}tx8be.ddr_addrs = array<i64: 24576>}
module attributes {tx8be.const_container = [dense<1.000000e+00> : tensor<2x520xf32>, dense<2.000000e+00> : tensor<2x520xf32>]} {
  func.func @main(%arg0: tensor<2x520xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}) -> (tensor<2x520xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}) {
    %0 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<2x520xf32>) -> tensor<2x520xf32> {
    ^bb0(%arg1: tensor<2x520xf32>):
      %3 = tx8be.LoadVar %arg1 : (tensor<2x520xf32>) -> tensor<2x520xf32>
      %4 = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<2x520xf32>
      %5 = tx8be.Add %3, %4 {layout_str = "Tensor"} : (tensor<2x520xf32>, tensor<2x520xf32>) -> tensor<2x520xf32>
      %6 = tx8be.StoreVar %5 : (tensor<2x520xf32>) -> tensor<2x520xf32>
      tx8be.Return %6 : tensor<2x520xf32>
    }
    %1 = tx8be.Group(%0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<2x520xf32>) -> tensor<2x520xf32> {
    ^bb0(%arg1: tensor<2x520xf32>):
      %3 = tx8be.LoadVar %arg1 : (tensor<2x520xf32>) -> tensor<2x520xf32>
      %4 = tx8be.LoadConst {const_map_id = 1 : ui32} : tensor<2x520xf32>
      %5 = tx8be.Mul %3, %4 {layout_str = "Tensor"} : (tensor<2x520xf32>, tensor<2x520xf32>) -> tensor<2x520xf32>
      %6 = tx8be.StoreVar %5 : (tensor<2x520xf32>) -> tensor<2x520xf32>
      tx8be.Return %6 : tensor<2x520xf32>
    }
    %2 = tx8be.Group(%1) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<2x520xf32>) -> tensor<2x520xf32> {
    ^bb0(%arg1: tensor<2x520xf32>):
      %3 = tx8be.LoadVar %arg1 : (tensor<2x520xf32>) -> tensor<2x520xf32>
      %4 = tx8be.Relu %3 {layout_str = "Tensor"} : (tensor<2x520xf32>) -> tensor<2x520xf32>
      %5 = tx8be.StoreVar %4 : (tensor<2x520xf32>) -> tensor<2x520xf32>
      tx8be.Return %5 : tensor<2x520xf32>
    }
    return %2 : tensor<2x520xf32>
  }
}

// -----

// A group_tag 2 Group (Reshape) is a view: its result has t0's address, and its readers keep t0 alive.
// Tensors of 64 bytes, no constants: input [0, 1] at 0, t0 [1, 4] (read through the view by Groups 3 and 4)
// at 4096, u [3, 4] at 0 (the input is dead), w [4, end] at 8192: t0 is still live, so w does not get 4096.
// CHECK-LABEL: module attributes {tx8be.const_addrs = array<i64>, tx8be.const_bytes = 0 : i64,
// CHECK-SAME: tx8be.ddr_bytes = 8256 : i64}
// CHECK: func.func @main(%arg0: tensor<2x8xf32> {tx8be.ddr_addr = 0 : i64
// CHECK-SAME: -> (tensor<16xf32> {tx8be.ddr_addr = 8192 : i64
// CHECK: tx8be.Group(%arg0) {{.*}}tx8be.ddr_addrs = array<i64: 4096>}
// CHECK: tx8be.Group(%0) {{.*}}group_tag = 2 : i32, tx8be.ddr_addrs = array<i64: 4096>}
// CHECK: tx8be.Group(%1) {{.*}}tx8be.ddr_addrs = array<i64: 0>}
// CHECK: tx8be.Group(%1, %2) {{.*}}tx8be.ddr_addrs = array<i64: 8192>}
module attributes {tx8be.const_container = []} {
  func.func @main(%arg0: tensor<2x8xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}) -> (tensor<16xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}) {
    %0 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<2x8xf32>) -> tensor<2x8xf32> {
    ^bb0(%arg1: tensor<2x8xf32>):
      %4 = tx8be.LoadVar %arg1 : (tensor<2x8xf32>) -> tensor<2x8xf32>
      %5 = tx8be.Relu %4 {layout_str = "Tensor"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
      %6 = tx8be.StoreVar %5 : (tensor<2x8xf32>) -> tensor<2x8xf32>
      tx8be.Return %6 : tensor<2x8xf32>
    }
    %1 = tx8be.Group(%0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 2 : i32} : (tensor<2x8xf32>) -> tensor<16xf32> {
    ^bb0(%arg1: tensor<2x8xf32>):
      %4 = tx8be.Reshape %arg1 {layout_str = "Tensor"} : (tensor<2x8xf32>) -> tensor<16xf32>
      tx8be.Return %4 : tensor<16xf32>
    }
    %2 = tx8be.Group(%1) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<16xf32>) -> tensor<16xf32> {
    ^bb0(%arg1: tensor<16xf32>):
      %4 = tx8be.LoadVar %arg1 : (tensor<16xf32>) -> tensor<16xf32>
      %5 = tx8be.Relu %4 {layout_str = "Tensor"} : (tensor<16xf32>) -> tensor<16xf32>
      %6 = tx8be.StoreVar %5 : (tensor<16xf32>) -> tensor<16xf32>
      tx8be.Return %6 : tensor<16xf32>
    }
    %3 = tx8be.Group(%1, %2) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32> {
    ^bb0(%arg1: tensor<16xf32>, %arg2: tensor<16xf32>):
      %4 = tx8be.LoadVar %arg1 : (tensor<16xf32>) -> tensor<16xf32>
      %5 = tx8be.LoadVar %arg2 : (tensor<16xf32>) -> tensor<16xf32>
      %6 = tx8be.Add %4, %5 {layout_str = "Tensor"} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
      %7 = tx8be.StoreVar %6 : (tensor<16xf32>) -> tensor<16xf32>
      tx8be.Return %7 : tensor<16xf32>
    }
    return %3 : tensor<16xf32>
  }
}

// -----

// An output that is a graph input is read back from the input's bytes, which live to the end (the Group's
// result may not take them); one that is a constant, from the constant region.
// CHECK-LABEL: module attributes {tx8be.const_addrs = array<i64: 0>, tx8be.const_bytes = 4096 : i64
// CHECK: func.func @main(%arg0: tensor<2x8xf32> {tx8be.ddr_addr = 4096 : i64
// CHECK-SAME: -> (tensor<2x8xf32> {tx8be.ddr_addr = 8192 : i64
// CHECK-SAME: tensor<2x8xf32> {tx8be.ddr_addr = 4096 : i64
// CHECK-SAME: tensor<2x8xf32> {tx8be.ddr_addr = 0 : i64
// CHECK: tx8be.Group(%arg0) {{.*}}tx8be.ddr_addrs = array<i64: 8192>}
module attributes {tx8be.const_container = [dense<1.000000e+00> : tensor<2x8xf32>]} {
  func.func @main(%arg0: tensor<2x8xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}) -> (tensor<2x8xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}, tensor<2x8xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}, tensor<2x8xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}) {
    %c = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<2x8xf32>
    %0 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<2x8xf32>) -> tensor<2x8xf32> {
    ^bb0(%arg1: tensor<2x8xf32>):
      %1 = tx8be.LoadVar %arg1 : (tensor<2x8xf32>) -> tensor<2x8xf32>
      %2 = tx8be.Relu %1 {layout_str = "Tensor"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
      %3 = tx8be.StoreVar %2 : (tensor<2x8xf32>) -> tensor<2x8xf32>
      tx8be.Return %3 : tensor<2x8xf32>
    }
    return %0, %arg0, %c : tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>
  }
}
