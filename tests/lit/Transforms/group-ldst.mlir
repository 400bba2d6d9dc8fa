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

// A Concat of more operands than OpAttr.needLoad has bits (66 windows): those past bit 63 share its last bit,
// so all 66 are loaded (shifting the mask by 64 was undefined behaviour; the sanitizer stage runs this).
// CHECK-LABEL: func.func @many_operands
// CHECK-COUNT-66: tx8be.LoadVar
// CHECK-NEXT: tx8be.Concat
// CHECK-NEXT: tx8be.StoreVar
func.func @many_operands(%a0: tensor<1x4xf32>, %a1: tensor<1x4xf32>, %a2: tensor<1x4xf32>, %a3: tensor<1x4xf32>, %a4: tensor<1x4xf32>, %a5: tensor<1x4xf32>, %a6: tensor<1x4xf32>, %a7: tensor<1x4xf32>, %a8: tensor<1x4xf32>, %a9: tensor<1x4xf32>, %a10: tensor<1x4xf32>, %a11: tensor<1x4xf32>, %a12: tensor<1x4xf32>, %a13: tensor<1x4xf32>, %a14: tensor<1x4xf32>, %a15: tensor<1x4xf32>, %a16: tensor<1x4xf32>, %a17: tensor<1x4xf32>, %a18: tensor<1x4xf32>, %a19: tensor<1x4xf32>, %a20: tensor<1x4xf32>, %a21: tensor<1x4xf32>, %a22: tensor<1x4xf32>, %a23: tensor<1x4xf32>, %a24: tensor<1x4xf32>, %a25: tensor<1x4xf32>, %a26: tensor<1x4xf32>, %a27: tensor<1x4xf32>, %a28: tensor<1x4xf32>, %a29: tensor<1x4xf32>, %a30: tensor<1x4xf32>, %a31: tensor<1x4xf32>, %a32: tensor<1x4xf32>, %a33: tensor<1x4xf32>, %a34: tensor<1x4xf32>, %a35: tensor<1x4xf32>, %a36: tensor<1x4xf32>, %a37: tensor<1x4xf32>, %a38: tensor<1x4xf32>, %a39: tensor<1x4xf32>, %a40: tensor<1x4xf32>, %a41: tensor<1x4xf32>, %a42: tensor<1x4xf32>, %a43: tensor<1x4xf32>, %a44: tensor<1x4xf32>, %a45: tensor<1x4xf32>, %a46: tensor<1x4xf32>, %a47: tensor<1x4xf32>, %a48: tensor<1x4xf32>, %a49: tensor<1x4xf32>, %a50: tensor<1x4xf32>, %a51: tensor<1x4xf32>, %a52: tensor<1x4xf32>, %a53: tensor<1x4xf32>, %a54: tensor<1x4xf32>, %a55: tensor<1x4xf32>, %a56: tensor<1x4xf32>, %a57: tensor<1x4xf32>, %a58: tensor<1x4xf32>, %a59: tensor<1x4xf32>, %a60: tensor<1x4xf32>, %a61: tensor<1x4xf32>, %a62: tensor<1x4xf32>, %a63: tensor<1x4xf32>, %a64: tensor<1x4xf32>, %a65: tensor<1x4xf32>) -> tensor<66x4xf32> {
  %0 = tx8be.Group(%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8, %a9, %a10, %a11, %a12, %a13, %a14, %a15, %a16, %a17, %a18, %a19, %a20, %a21, %a22, %a23, %a24, %a25, %a26, %a27, %a28, %a29, %a30, %a31, %a32, %a33, %a34, %a35, %a36, %a37, %a38, %a39, %a40, %a41, %a42, %a43, %a44, %a45, %a46, %a47, %a48, %a49, %a50, %a51, %a52, %a53, %a54, %a55, %a56, %a57, %a58, %a59, %a60, %a61, %a62, %a63, %a64, %a65) : (tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<66x4xf32> {
  ^bb0(%x0: tensor<1x4xf32>, %x1: tensor<1x4xf32>, %x2: tensor<1x4xf32>, %x3: tensor<1x4xf32>, %x4: tensor<1x4xf32>, %x5: tensor<1x4xf32>, %x6: tensor<1x4xf32>, %x7: tensor<1x4xf32>, %x8: tensor<1x4xf32>, %x9: tensor<1x4xf32>, %x10: tensor<1x4xf32>, %x11: tensor<1x4xf32>, %x12: tensor<1x4xf32>, %x13: tensor<1x4xf32>, %x14: tensor<1x4xf32>, %x15: tensor<1x4xf32>, %x16: tensor<1x4xf32>, %x17: tensor<1x4xf32>, %x18: tensor<1x4xf32>, %x19: tensor<1x4xf32>, %x20: tensor<1x4xf32>, %x21: tensor<1x4xf32>, %x22: tensor<1x4xf32>, %x23: tensor<1x4xf32>, %x24: tensor<1x4xf32>, %x25: tensor<1x4xf32>, %x26: tensor<1x4xf32>, %x27: tensor<1x4xf32>, %x28: tensor<1x4xf32>, %x29: tensor<1x4xf32>, %x30: tensor<1x4xf32>, %x31: tensor<1x4xf32>, %x32: tensor<1x4xf32>, %x33: tensor<1x4xf32>, %x34: tensor<1x4xf32>, %x35: tensor<1x4xf32>, %x36: tensor<1x4xf32>, %x37: tensor<1x4xf32>, %x38: tensor<1x4xf32>, %x39: tensor<1x4xf32>, %x40: tensor<1x4xf32>, %x41: tensor<1x4xf32>, %x42: tensor<1x4xf32>, %x43: tensor<1x4xf32>, %x44: tensor<1x4xf32>, %x45: tensor<1x4xf32>, %x46: tensor<1x4xf32>, %x47: tensor<1x4xf32>, %x48: tensor<1x4xf32>, %x49: tensor<1x4xf32>, %x50: tensor<1x4xf32>, %x51: tensor<1x4xf32>, %x52: tensor<1x4xf32>, %x53: tensor<1x4xf32>, %x54: tensor<1x4xf32>, %x55: tensor<1x4xf32>, %x56: tensor<1x4xf32>, %x57: tensor<1x4xf32>, %x58: tensor<1x4xf32>, %x59: tensor<1x4xf32>, %x60: tensor<1x4xf32>, %x61: tensor<1x4xf32>, %x62: tensor<1x4xf32>, %x63: tensor<1x4xf32>, %x64: tensor<1x4xf32>, %x65: tensor<1x4xf32>):
    %c = tx8be.Concat %x0, %x1, %x2, %x3, %x4, %x5, %x6, %x7, %x8, %x9, %x10, %x11, %x12, %x13, %x14, %x15, %x16, %x17, %x18, %x19, %x20, %x21, %x22, %x23, %x24, %x25, %x26, %x27, %x28, %x29, %x30, %x31, %x32, %x33, %x34, %x35, %x36, %x37, %x38, %x39, %x40, %x41, %x42, %x43, %x44, %x45, %x46, %x47, %x48, %x49, %x50, %x51, %x52, %x53, %x54, %x55, %x56, %x57, %x58, %x59, %x60, %x61, %x62, %x63, %x64, %x65 {axis = 0 : i64} : (tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<66x4xf32>
    tx8be.Return %c : tensor<66x4xf32>
  }
  return %0 : tensor<66x4xf32>
}
