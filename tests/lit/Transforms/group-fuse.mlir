// RUN: tx8-opt %s --split-input-file --tx8be-group-optimization --tx8be-group-fuse | FileCheck %s
// RUN: tx8-opt %s --split-input-file --tx8be-group-optimization --tx8be-group-fuse=enable=false | FileCheck %s --check-prefix=OFF

// Conv -> Relu -> Add -> Mul: each result read only by the next op, elementwise at the same shape: one Group,
// the anchor (Conv) first. The Add's other operand and the Mul's broadcast scale (a Reshape's Group, which is
// not in SPM: a DDR view) are the Group's inputs; the merged Group stands where the Mul's did.
// CHECK-LABEL: func.func @chain
// CHECK: %[[S:.*]] = tx8be.Group() : () -> tensor<1x4x1x1xf32> {
// CHECK: tx8be.Reshape
// CHECK: %[[G:.*]] = tx8be.Group(%arg0, %arg1, %[[S]]) : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x8x8xf32> {
// CHECK-NEXT: ^bb0(%[[X:.*]]: tensor<1x4x8x8xf32>, %[[Y:.*]]: tensor<1x4x8x8xf32>, %[[SC:.*]]: tensor<1x4x1x1xf32>):
// CHECK-NEXT: tx8be.LoadConst {const_map_id = 0 : ui32}
// CHECK-NEXT: tx8be.LoadConst {const_map_id = 1 : ui32}
// CHECK-NEXT: %[[C:.*]] = tx8be.Conv %[[X]]
// CHECK-NEXT: %[[R:.*]] = tx8be.Relu %[[C]]
// CHECK-NEXT: %[[A:.*]] = tx8be.Add %[[R]], %[[Y]]
// CHECK-NEXT: %[[M:.*]] = tx8be.Mul %[[A]], %[[SC]]
// CHECK-NEXT: tx8be.Return %[[M]]
// CHECK: return %[[G]]
// OFF-LABEL: func.func @chain
// OFF-COUNT-5: tx8be.Group
func.func @chain(%x: tensor<1x4x8x8xf32>, %y: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %w = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<4x4x3x3xf32>
  %b = tx8be.LoadConst {const_map_id = 1 : ui32} : tensor<4xf32>
  %c = tx8be.Conv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %r = tx8be.Relu %c : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %a = tx8be.Add %r, %y : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %s = tx8be.Reshape %b : (tensor<4xf32>) -> tensor<1x4x1x1xf32>
  %m = tx8be.Mul %a, %s : (tensor<1x4x8x8xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  return %m : tensor<1x4x8x8xf32>
}

// -----

// Not merged: a result two ops read (the Relu's: it must reach DDR for the second reader), a consumer that is
// not elementwise (MaxPool), and a consumer whose result is larger than the chain value (the Add broadcasts
// it): the five Groups stay five.
// CHECK-LABEL: func.func @kept_apart
// CHECK-COUNT-5: tx8be.Group(
// CHECK-NOT: tx8be.Group(
func.func @kept_apart(%x: tensor<1x4x8x8xf32>, %y: tensor<1x4x8x8xf32>, %z: tensor<1x4x1x1xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x4x4x4xf32>, tensor<1x4x8x8xf32>) {
  %r = tx8be.Relu %x : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %a = tx8be.Add %r, %y : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %p = tx8be.MaxPool %r {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  %e = tx8be.Exp %z : (tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %b = tx8be.Add %e, %y : (tensor<1x4x1x1xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %a, %p, %b : tensor<1x4x8x8xf32>, tensor<1x4x4x4xf32>, tensor<1x4x8x8xf32>
}

// -----

// Not merged: a Softmax over its 256 elements cannot be cut; with the Relu after it, both double-buffered, the
// chain needs 8 KiB at its smallest slice, more than this 6 KiB SPM, though each op alone fits.
// CHECK-LABEL: func.func @too_big
// CHECK-COUNT-2: tx8be.Group(
module attributes {tx8be.hw_config = {spm_bytes = 6144 : i64}} {
  func.func @too_big(%x: tensor<1x256xf32>) -> tensor<1x256xf32> {
    %s = tx8be.Softmax %x {axis = 1 : i64} : (tensor<1x256xf32>) -> tensor<1x256xf32>
    %r = tx8be.Relu %s : (tensor<1x256xf32>) -> tensor<1x256xf32>
    return %r : tensor<1x256xf32>
  }
}

// -----

// The same chain fits a 16 KiB SPM: one Group.
// CHECK-LABEL: func.func @fits
// CHECK-COUNT-1: tx8be.Group(
// CHECK-NOT: tx8be.Group(
module attributes {tx8be.hw_config = {spm_bytes = 16384 : i64}} {
  func.func @fits(%x: tensor<1x256xf32>) -> tensor<1x256xf32> {
    %s = tx8be.Softmax %x {axis = 1 : i64} : (tensor<1x256xf32>) -> tensor<1x256xf32>
    %r = tx8be.Relu %s : (tensor<1x256xf32>) -> tensor<1x256xf32>
    return %r : tensor<1x256xf32>
  }
}
