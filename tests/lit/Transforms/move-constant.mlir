// RUN: tx8-opt %s --split-input-file --tx8be-move-constant | FileCheck %s

// Every use gets its own LoadConst; equal constants share one container entry; ids in first-use order.
// CHECK-LABEL: module attributes {tx8be.const_container = [dense<1.000000e+00> : tensor<4xf32>, dense<0.000000e+00> : tensor<4xf32>]}
// CHECK-NOT: tx8be.Constant
// CHECK-DAG: %[[S0:.*]] = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<4xf32>
// CHECK-DAG: %[[S1:.*]] = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<4xf32>
// CHECK-DAG: %[[B0:.*]] = tx8be.LoadConst {const_map_id = 1 : ui32} : tensor<4xf32>
// CHECK-DAG: %[[B1:.*]] = tx8be.LoadConst {const_map_id = 1 : ui32} : tensor<4xf32>
// CHECK: tx8be.BatchNorm_Inference %arg0, %[[S1]], %[[B1]], %[[B0]], %[[S0]]
func.func @main(%x: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %s = tx8be.Constant dense<1.0> : tensor<4xf32>
  %b = tx8be.Constant dense<0.0> : tensor<4xf32>
  %y = tx8be.BatchNorm_Inference %x, %s, %b, %b, %s : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return %y : tensor<1x4x2x2xf32>
}

// -----

// updateConstContainer: a constant above DDR_BANK_SIZE (4096 B x 1 tile) is renumbered before the small one
// that was seen first.
// CHECK-LABEL: module attributes {tx8be.const_container = [dense<2.000000e+00> : tensor<1025xf32>, dense<1.000000e+00> : tensor<1025xf16>]}
// CHECK: tx8be.LoadConst {const_map_id = 1 : ui32} : tensor<1025xf16>
// CHECK: tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<1025xf32>
func.func @main(%x: tensor<1025xf16>, %y: tensor<1025xf32>) -> (tensor<1025xf16>, tensor<1025xf32>) {
  %small = tx8be.Constant dense<1.0> : tensor<1025xf16>
  %large = tx8be.Constant dense<2.0> : tensor<1025xf32>
  %a = tx8be.Add %x, %small : (tensor<1025xf16>, tensor<1025xf16>) -> tensor<1025xf16>
  %b = tx8be.Add %y, %large : (tensor<1025xf32>, tensor<1025xf32>) -> tensor<1025xf32>
  return %a, %b : tensor<1025xf16>, tensor<1025xf32>
}

// -----

// With 4 tiles (tx8be.tile_dx = 2, tile_dy = 2) the threshold is 16 KiB and the order stays first-use.
// CHECK-LABEL: module attributes {tx8be.const_container = [dense<1.000000e+00> : tensor<1025xf16>, dense<2.000000e+00> : tensor<1025xf32>], tx8be.tile_dx = 2 : i64, tx8be.tile_dy = 2 : i64}
module attributes {tx8be.tile_dx = 2, tx8be.tile_dy = 2} {
  func.func @main(%x: tensor<1025xf16>, %y: tensor<1025xf32>) -> (tensor<1025xf16>, tensor<1025xf32>) {
    %small = tx8be.Constant dense<1.0> : tensor<1025xf16>
    %large = tx8be.Constant dense<2.0> : tensor<1025xf32>
    %a = tx8be.Add %x, %small : (tensor<1025xf16>, tensor<1025xf16>) -> tensor<1025xf16>
    %b = tx8be.Add %y, %large : (tensor<1025xf32>, tensor<1025xf32>) -> tensor<1025xf32>
    return %a, %b : tensor<1025xf16>, tensor<1025xf32>
  }
}

// -----

// A table no user loads (Gather reads operand 0 in place: needLoad bit 0 clear) is marked bypasscodegen;
// the constant indices are loaded.
// CHECK-LABEL: func.func @main
// CHECK: tx8be.LoadConst {bypasscodegen = true, const_map_id = 0 : ui32} : tensor<5x2xf32>
// CHECK: %[[I:.*]] = tx8be.LoadConst {const_map_id = 1 : ui32} : tensor<3xi64>
// CHECK-NOT: bypasscodegen
// CHECK: tx8be.Gather
func.func @main() -> tensor<3x2xf32> {
  %table = tx8be.Constant dense<1.0> : tensor<5x2xf32>
  %idx = tx8be.Constant dense<[4, 0, 2]> : tensor<3xi64>
  %g = tx8be.Gather %table, %idx : (tensor<5x2xf32>, tensor<3xi64>) -> tensor<3x2xf32>
  return %g : tensor<3x2xf32>
}

// -----

// Decided per use: a table the Gather reads in place and a MatMul loads (an output projection tied to the
// embedding) gets one LoadConst of each kind, both of the one container entry.
// CHECK-LABEL: func.func @tied
// CHECK: %[[T:.*]] = tx8be.LoadConst {bypasscodegen = true, const_map_id = 0 : ui32} : tensor<5x2xf32>
// CHECK-NEXT: %[[G:.*]] = tx8be.Gather %[[T]], %arg0
// CHECK-NEXT: %[[W:.*]] = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<5x2xf32>
// CHECK-NEXT: tx8be.MatMul %arg1, %[[W]]
func.func @tied(%i: tensor<3xi32>, %h: tensor<3x5xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>) {
  %table = tx8be.Constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]> : tensor<5x2xf32>
  %0 = tx8be.Gather %table, %i {axis = 0 : i64} : (tensor<5x2xf32>, tensor<3xi32>) -> tensor<3x2xf32>
  %1 = tx8be.MatMul %h, %table : (tensor<3x5xf32>, tensor<5x2xf32>) -> tensor<3x2xf32>
  return %0, %1 : tensor<3x2xf32>, tensor<3x2xf32>
}

// -----

// Equal constants in two layouts (a conv's weight that is also a graph output: tx8be-layout-align-opt made the
// HWIO copy) share one container entry, and each LoadConst keeps its constant's layout (tx8be-const-norm then
// gives the HWIO image an entry of its own).
// CHECK-LABEL: module attributes {tx8be.const_container = [dense<1.000000e+00> : tensor<2x1x1x1xf32>]}
// CHECK: %[[W:.*]] = tx8be.LoadConst {const_map_id = 0 : ui32, layout_str = "HWIO"} : tensor<2x1x1x1xf32>
// CHECK: tx8be.Conv %arg0, %[[W]]
// CHECK: %[[OUT:.*]] = tx8be.LoadConst {bypasscodegen = true, const_map_id = 0 : ui32} : tensor<2x1x1x1xf32>
// CHECK: return %[[OUT]]
func.func @main(%x: tensor<1x1x2x2xf32>) -> (tensor<2x1x1x1xf32>, tensor<1x2x2x2xf32>) {
  %w = tx8be.Constant dense<1.0> : tensor<2x1x1x1xf32>
  %hwio = tx8be.Constant {layout_str = "HWIO"} dense<1.0> : tensor<2x1x1x1xf32>
  %y = tx8be.Conv %x, %hwio : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  return %w, %y : tensor<2x1x1x1xf32>, tensor<1x2x2x2xf32>
}
