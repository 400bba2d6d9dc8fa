// RUN: tx8-opt %s --tx8be-group-ldst | FileCheck %s

// Loads at the inputs the ops load (OpAttr.needLoad), stores at the outputs they store (needStore).
// CHECK-LABEL: func.func @compute
// CHECK: tx8be.Group(%arg0, %arg1) {group_tag = 0 : i32}
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<2x8xf32>, %[[B:.*]]: tensor<2x8xf32>):
// CHECK-NEXT: %[[LA:.*]] = tx8be.LoadVar %[[A]]
// CHECK-NEXT: %[[LB:.*]] = tx8be.LoadVar %[[B]]
// CHECK-NEXT: %[[SUM:.*]] = tx8be.Add %[[LA]], %[[LB]]
// CHECK-NEXT: %[[ST:.*]] = tx8be.StoreVar %[[SUM]]
// CHECK-NEXT: tx8be.Return %[[ST]]
func.func @compute(%a: tensor<2x8xf32>, %b: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = tx8be.Group(%a, %b) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32> {
  ^bb0(%x: tensor<2x8xf32>, %y: tensor<2x8xf32>):
    %s = tx8be.Add %x, %y : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
    tx8be.Return %s : tensor<2x8xf32>
  }
  return %0 : tensor<2x8xf32>
}

// One LoadVar per argument and op that reads it (each op of a fused chain reads its own box of it).
// CHECK-LABEL: func.func @shared_input
// CHECK: ^bb0(%[[X:.*]]: tensor<4xf32>):
// CHECK-NEXT: %[[L:.*]] = tx8be.LoadVar %[[X]]
// CHECK-NEXT: %[[L2:.*]] = tx8be.LoadVar %[[X]]
// CHECK-NEXT: tx8be.Relu %[[L]]
// CHECK-NEXT: tx8be.Sigmoid %[[L2]]
// CHECK-NOT: tx8be.LoadVar
func.func @shared_input(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = tx8be.Group(%a) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%x: tensor<4xf32>):
    %r = tx8be.Relu %x : (tensor<4xf32>) -> tensor<4xf32>
    %s = tx8be.Sigmoid %x : (tensor<4xf32>) -> tensor<4xf32>
    tx8be.Return %r, %s : tensor<4xf32>, tensor<4xf32>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// A Reshape is a DDR view: nothing loaded or stored, group_tag 2. Gather reads its table (operand 0) in
// place and loads only the indices.
// CHECK-LABEL: func.func @ddr_only
// CHECK: tx8be.Group(%arg0) {group_tag = 2 : i32}
// CHECK-NOT: tx8be.LoadVar
// CHECK: tx8be.Reshape
// CHECK-NOT: tx8be.StoreVar
// CHECK: tx8be.Return
// CHECK: tx8be.Group(%arg1, %arg2) {group_tag = 0 : i32}
// CHECK-NEXT: ^bb0(%[[T:.*]]: tensor<5x2xf32>, %[[I:.*]]: tensor<3xi64>):
// CHECK-NEXT: %[[LI:.*]] = tx8be.LoadVar %[[I]]
// CHECK-NEXT: %[[G:.*]] = tx8be.Gather %[[T]], %[[LI]]
// CHECK-NEXT: %[[SG:.*]] = tx8be.StoreVar %[[G]]
func.func @ddr_only(%a: tensor<2x8xf32>, %t: tensor<5x2xf32>, %i: tensor<3xi64>) -> (tensor<16xf32>, tensor<3x2xf32>) {
  %0 = tx8be.Group(%a) : (tensor<2x8xf32>) -> tensor<16xf32> {
  ^bb0(%x: tensor<2x8xf32>):
    %r = tx8be.Reshape %x : (tensor<2x8xf32>) -> tensor<16xf32>
    tx8be.Return %r : tensor<16xf32>
  }
  %1 = tx8be.Group(%t, %i) : (tensor<5x2xf32>, tensor<3xi64>) -> tensor<3x2xf32> {
  ^bb0(%x: tensor<5x2xf32>, %y: tensor<3xi64>):
    %g = tx8be.Gather %x, %y : (tensor<5x2xf32>, tensor<3xi64>) -> tensor<3x2xf32>
    tx8be.Return %g : tensor<3x2xf32>
  }
  return %0, %1 : tensor<16xf32>, tensor<3x2xf32>
}
