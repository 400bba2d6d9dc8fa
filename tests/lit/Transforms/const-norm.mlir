// RUN: tx8-opt %s --split-input-file --tx8be-const-norm --verify-diagnostics | FileCheck %s

// constChannelNormErase: the LoadConst takes the ChannelNorm's order and alignment and the ChannelNorm goes.
// One image per entry: no duplicate.
// CHECK-LABEL: module attributes {tx8be.const_container = [dense<1.000000e+00> : tensor<4x3x1x1xf32>]}
// CHECK: %[[W:.*]] = tx8be.LoadConst {const_map_id = 0 : ui32, dev_info = #tx8be.dev_attr<{{.*}}mem_layout = <Tensor>{{.*}}>, layout_str = "HWIO"} : tensor<4x3x1x1xf32>
// CHECK-NEXT: tx8be.Conv %arg0, %[[W]]
// CHECK-NOT: ChannelNorm
module attributes {tx8be.const_container = [dense<1.0> : tensor<4x3x1x1xf32>]} {
  func.func @main(%x: tensor<1x3x4x4xf32>) -> tensor<1x4x4x4xf32> {
    %w = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<4x3x1x1xf32>
    %wn = tx8be.ChannelNorm %w {layout_str = "HWIO", dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = <Tensor>, imm_addr = -1, mem_addr = []>} : (tensor<4x3x1x1xf32>) -> tensor<4x3x1x1xf32>
    %y = tx8be.Conv %x, %wn {layout_str = "NHWC"} : (tensor<1x3x4x4xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x4x4xf32>
    return %y : tensor<1x4x4x4xf32>
  }
}

// -----

// processMultiUse: entry 0 is read HWIO by the Conv and row-major by the Add, so the HWIO reader gets a
// duplicate entry (2). Entry 1 is read twice in one image ("Unknown" and "NCHW" are both the
// identity): no duplicate. A LoadConst read by two users is cloned for its ChannelNorm.
// CHECK-LABEL: module attributes {tx8be.const_container = [dense<2.000000e+00> : tensor<2x2x1x1xf32>, dense<3.000000e+00> : tensor<2x2x1x1xf32>, dense<2.000000e+00> : tensor<2x2x1x1xf32>]}
// CHECK: %[[A:.*]] = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<2x2x1x1xf32>
// CHECK-NEXT: %[[H:.*]] = tx8be.LoadConst {const_map_id = 2 : ui32, layout_str = "HWIO"} : tensor<2x2x1x1xf32>
// CHECK-NEXT: tx8be.Conv %arg0, %[[H]]
// CHECK-NEXT: tx8be.Add %arg1, %[[A]]
// CHECK-NEXT: %[[B1:.*]] = tx8be.LoadConst {const_map_id = 1 : ui32} : tensor<2x2x1x1xf32>
// CHECK-NEXT: %[[B2:.*]] = tx8be.LoadConst {const_map_id = 1 : ui32, layout_str = "NCHW"} : tensor<2x2x1x1xf32>
module attributes {tx8be.const_container = [dense<2.0> : tensor<2x2x1x1xf32>, dense<3.0> : tensor<2x2x1x1xf32>]} {
  func.func @main(%x: tensor<1x2x4x4xf32>, %z: tensor<2x2x1x1xf32>) -> (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>, tensor<2x2x1x1xf32>) {
    %a = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<2x2x1x1xf32>
    %an = tx8be.ChannelNorm %a {layout_str = "HWIO"} : (tensor<2x2x1x1xf32>) -> tensor<2x2x1x1xf32>
    %y = tx8be.Conv %x, %an {layout_str = "NHWC"} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
    %s = tx8be.Add %z, %a : (tensor<2x2x1x1xf32>, tensor<2x2x1x1xf32>) -> tensor<2x2x1x1xf32>
    %b1 = tx8be.LoadConst {const_map_id = 1 : ui32} : tensor<2x2x1x1xf32>
    %b2 = tx8be.LoadConst {const_map_id = 1 : ui32, layout_str = "NCHW"} : tensor<2x2x1x1xf32>
    %t = tx8be.Add %b1, %b2 : (tensor<2x2x1x1xf32>, tensor<2x2x1x1xf32>) -> tensor<2x2x1x1xf32>
    return %y, %s, %t : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>, tensor<2x2x1x1xf32>
  }
}

// -----

// The ids keep tx8be-move-constant's order: entries above DDR_BANK_SIZE (4096 B x 1 tile) first, so the
// duplicate of the large entry 0 is numbered 1 and the small entry moves to 2.
// CHECK-LABEL: module attributes {tx8be.const_container = [dense<1.000000e+00> : tensor<1x1025xf32>, dense<1.000000e+00> : tensor<1x1025xf32>, dense<5.000000e-01> : tensor<2xf32>]}
// CHECK: tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<1x1025xf32>
// CHECK: tx8be.LoadConst {const_map_id = 1 : ui32, dev_info = {{.*}}mem_layout = <NCx>{{.*}}} : tensor<1x1025xf32>
// CHECK: tx8be.LoadConst {const_map_id = 2 : ui32} : tensor<2xf32>
module attributes {tx8be.const_container = [dense<1.0> : tensor<1x1025xf32>, dense<0.5> : tensor<2xf32>]} {
  func.func @main() -> (tensor<1x1025xf32>, tensor<1x1025xf32>, tensor<2xf32>) {
    %a = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<1x1025xf32>
    %b = tx8be.LoadConst {const_map_id = 0 : ui32, dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = <NCx>, imm_addr = -1, mem_addr = []>} : tensor<1x1025xf32>
    %c = tx8be.LoadConst {const_map_id = 1 : ui32} : tensor<2xf32>
    return %a, %b, %c : tensor<1x1025xf32>, tensor<1x1025xf32>, tensor<2xf32>
  }
}

// -----

module attributes {tx8be.const_container = [dense<1.0> : tensor<2xf32>]} {
  func.func @main() -> tensor<2xf32> {
    // expected-error @+1 {{'tx8be.LoadConst' op const_map_id 3 is not in the constant container (1 entries)}}
    %a = tx8be.LoadConst {const_map_id = 3 : ui32} : tensor<2xf32>
    return %a : tensor<2xf32>
  }
}
