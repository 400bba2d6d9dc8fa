// RUN: tx8-opt %s --split-input-file --tx8be-group-cost --verify-diagnostics | FileCheck %s

// The pass chooses each Group's slice and writes the Group's schedule: tx8be.Steps with the box every load
// and store moves at each step (Tx8beScheduleOps.td).

// Every case plans for a 4096-byte SPM; buffers are rounded up to 256 bytes (batch_align_bits / 8).

// Fits whole: 2x3x4x5 f32 in and out, 480 -> 512 bytes each: the slice is the full shape.
// CHECK-LABEL: func.func @fits_whole
// The whole schedule: the LoadVar becomes a LoadBox and the StoreVar a StoreBox, each with one box per step
// and a Wait on its token; the compute op moves into the Steps, whose result the Group returns.
// CHECK: %[[STEPS:.*]] = tx8be.Steps tiles [1] slice [2, 3, 4, 5] -> tensor<2x3x4x5xf32> attributes {estimate = {{[0-9]+}} : i64} {
// CHECK-NEXT: %[[X:.*]], %[[XT:.*]] = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 4, start = [0, 0, 0, 0], size = [2, 3, 4, 5], pad_low = [], pad_high = []>} : tensor<2x3x4x5xf32>
// CHECK-NEXT: tx8be.Wait %[[XT]]
// CHECK-NEXT: %[[Y:.*]] = tx8be.Relu %[[X]]
// CHECK-NEXT: %[[YT:.*]] = tx8be.StoreBox %[[Y]] into 0 {boxes = #tx8be.boxes<rank = 4, start = [0, 0, 0, 0], size = [2, 3, 4, 5], pad_low = [], pad_high = []>} : tensor<2x3x4x5xf32>
// CHECK-NEXT: tx8be.Wait %[[YT]]
// CHECK-NEXT: }
// CHECK-NEXT: tx8be.Return %[[STEPS]] : tensor<2x3x4x5xf32>
module attributes {tx8be.hw_config = {spm_bytes = 4096 : i64}} {
  func.func @fits_whole(%arg0: tensor<2x3x4x5xf32> {tx8be.layout_str = "NCHW", tx8be.mem_layout = #tx8be.layout<NTensor>}) -> (tensor<2x3x4x5xf32> {tx8be.layout_str = "NCHW", tx8be.mem_layout = #tx8be.layout<NTensor>}) {
    %0 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32> {
    ^bb0(%arg1: tensor<2x3x4x5xf32>):
      %1 = tx8be.LoadVar %arg1 : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
      %2 = tx8be.Relu %1 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = <NTensor>, imm_addr = -1, mem_addr = []>, layout_str = "NCHW"} : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
      %3 = tx8be.StoreVar %2 : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
      tx8be.Return %3 : tensor<2x3x4x5xf32>
    }
    return %0 : tensor<2x3x4x5xf32>
  }
}

// -----

// Elementwise 8x64 f32: 3 x 2048 bytes do not fit. Rows along dim 0: 3 x align(256 k) <= 4096 -> k = 5
// (3840 bytes; 6 rows need 4608). The last step takes the remaining 3 rows.
// CHECK-LABEL: func.func @cut_outer
// CHECK: tx8be.Steps tiles [2] slice [5, 64]
// CHECK-NEXT: tx8be.LoadBox %arg2 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 5, 0], size = [5, 64, 3, 64], pad_low = [], pad_high = []>}
// CHECK-NEXT: tx8be.LoadBox %arg3 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 5, 0], size = [5, 64, 3, 64], pad_low = [], pad_high = []>}
// CHECK-NEXT: tx8be.Wait %{{.*}}, %{{.*}}
// CHECK-NEXT: tx8be.Add
// CHECK-NEXT: tx8be.StoreBox %{{.*}} into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 5, 0], size = [5, 64, 3, 64], pad_low = [], pad_high = []>}
module attributes {tx8be.hw_config = {spm_bytes = 4096 : i64}} {
  func.func @cut_outer(%arg0: tensor<8x64xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}, %arg1: tensor<8x64xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}) -> (tensor<8x64xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}) {
    %0 = tx8be.Group(%arg0, %arg1) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32> {
    ^bb0(%arg2: tensor<8x64xf32>, %arg3: tensor<8x64xf32>):
      %1 = tx8be.LoadVar %arg2 : (tensor<8x64xf32>) -> tensor<8x64xf32>
      %2 = tx8be.LoadVar %arg3 : (tensor<8x64xf32>) -> tensor<8x64xf32>
      %3 = tx8be.Add %1, %2 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = <NTensor>, imm_addr = -1, mem_addr = []>, layout_str = "Tensor"} : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
      %4 = tx8be.StoreVar %3 : (tensor<8x64xf32>) -> tensor<8x64xf32>
      tx8be.Return %4 : tensor<8x64xf32>
    }
    return %0 : tensor<8x64xf32>
  }
}

// -----

// One row of 2x1024 f32 is already 3 x 4096 bytes. Cutting dim 0 first (to 1, then dim 1 to 320: 3 x
// align(4 k) <= 4096) takes 8 steps; cutting dim 1 alone takes 7 of [2, 160] (two 256-byte aligned rows of
// 640 bytes per buffer) and moves as many bytes: the search keeps the one the DMA cost model prefers.
// CHECK-LABEL: func.func @cut_second
// CHECK: tx8be.Steps tiles [7] slice [2, 160]
// CHECK-NEXT: tx8be.LoadBox %arg2 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 0, 160, 0, 320, 0, 480, 0, 640, 0, 800, 0, 960], size = [2, 160, 2, 160, 2, 160, 2, 160, 2, 160, 2, 160, 2, 64], pad_low = [], pad_high = []>}
module attributes {tx8be.hw_config = {spm_bytes = 4096 : i64}} {
  func.func @cut_second(%arg0: tensor<2x1024xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}, %arg1: tensor<2x1024xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}) -> (tensor<2x1024xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}) {
    %0 = tx8be.Group(%arg0, %arg1) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<2x1024xf32>, tensor<2x1024xf32>) -> tensor<2x1024xf32> {
    ^bb0(%arg2: tensor<2x1024xf32>, %arg3: tensor<2x1024xf32>):
      %1 = tx8be.LoadVar %arg2 : (tensor<2x1024xf32>) -> tensor<2x1024xf32>
      %2 = tx8be.LoadVar %arg3 : (tensor<2x1024xf32>) -> tensor<2x1024xf32>
      %3 = tx8be.Add %1, %2 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = <NTensor>, imm_addr = -1, mem_addr = []>, layout_str = "Tensor"} : (tensor<2x1024xf32>, tensor<2x1024xf32>) -> tensor<2x1024xf32>
      %4 = tx8be.StoreVar %3 : (tensor<2x1024xf32>) -> tensor<2x1024xf32>
      tx8be.Return %4 : tensor<2x1024xf32>
    }
    return %0 : tensor<2x1024xf32>
  }
}

// -----

// Conv 3x3, stride 1, no pad, NCHW logical in NHWC: N is 1, so H is cut. h output rows read h + 2 input rows
// (the halo): align(128 (h + 2)) + align(96 h) + 768 (weight, 576) <= 4096 -> h = 13 (2048 + 1280 + 768 =
// 4096). Without the halo h would be 14.
// CHECK-LABEL: func.func @conv_halo
// The constant stays outside the Steps (loaded once); step 1 reads rows 13..17 for output rows 13..15.
// CHECK: tx8be.LoadConst {const_map_id = 0 : ui32, layout_str = "HWIO"}
// CHECK-NEXT: tx8be.Steps tiles [2] slice [1, 4, 13, 6]
// CHECK-NEXT: tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 4, start = [0, 0, 0, 0, 0, 0, 13, 0], size = [1, 4, 15, 8, 1, 4, 5, 8], pad_low = [], pad_high = []>}
// CHECK: tx8be.Conv
// CHECK-NEXT: tx8be.StoreBox %{{.*}} into 0 {boxes = #tx8be.boxes<rank = 4, start = [0, 0, 0, 0, 0, 0, 13, 0], size = [1, 4, 13, 6, 1, 4, 3, 6], pad_low = [], pad_high = []>}
module attributes {tx8be.hw_config = {spm_bytes = 4096 : i64}, tx8be.const_container = [dense<1.000000e+00> : tensor<4x4x3x3xf32>]} {
  func.func @conv_halo(%arg0: tensor<1x4x18x8xf32> {tx8be.layout_str = "NHWC", tx8be.mem_layout = #tx8be.layout<Tensor>}) -> (tensor<1x4x16x6xf32> {tx8be.layout_str = "NHWC", tx8be.mem_layout = #tx8be.layout<Tensor>}) {
    %0 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<1x4x18x8xf32>) -> tensor<1x4x16x6xf32> {
    ^bb0(%arg1: tensor<1x4x18x8xf32>):
      %1 = tx8be.LoadVar %arg1 : (tensor<1x4x18x8xf32>) -> tensor<1x4x18x8xf32>
      %2 = tx8be.LoadConst {const_map_id = 0 : ui32, layout_str = "HWIO"} : tensor<4x4x3x3xf32>
      %3 = tx8be.Conv %1, %2 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = <Tensor>, imm_addr = -1, mem_addr = []>, dilations = array<i64: 1, 1>, layout_str = "NHWC", pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x18x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x16x6xf32>
      %4 = tx8be.StoreVar %3 : (tensor<1x4x16x6xf32>) -> tensor<1x4x16x6xf32>
      tx8be.Return %4 : tensor<1x4x16x6xf32>
    }
    return %0 : tensor<1x4x16x6xf32>
  }
}

// -----

// BatchNorm 1x4x16x8 in NHWC: four per-channel vectors (16 -> 256 bytes each) and a 256-byte scratch stay
// whole; H is cut: 2 x align(128 h) + 1280 <= 4096 -> h = 10. C keeps all 4 channels.
// CHECK-LABEL: func.func @batchnorm
// CHECK-COUNT-4: tx8be.LoadConst
// CHECK-NEXT: tx8be.Steps tiles [2] slice [1, 4, 10, 8]
module attributes {tx8be.hw_config = {spm_bytes = 4096 : i64}, tx8be.const_container = [dense<1.000000e+00> : tensor<4xf32>, dense<0.000000e+00> : tensor<4xf32>, dense<5.000000e-01> : tensor<4xf32>, dense<2.000000e+00> : tensor<4xf32>]} {
  func.func @batchnorm(%arg0: tensor<1x4x16x8xf32> {tx8be.layout_str = "NHWC", tx8be.mem_layout = #tx8be.layout<Tensor>}) -> (tensor<1x4x16x8xf32> {tx8be.layout_str = "NHWC", tx8be.mem_layout = #tx8be.layout<Tensor>}) {
    %0 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<1x4x16x8xf32>) -> tensor<1x4x16x8xf32> {
    ^bb0(%arg1: tensor<1x4x16x8xf32>):
      %1 = tx8be.LoadVar %arg1 : (tensor<1x4x16x8xf32>) -> tensor<1x4x16x8xf32>
      %2 = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<4xf32>
      %3 = tx8be.LoadConst {const_map_id = 1 : ui32} : tensor<4xf32>
      %4 = tx8be.LoadConst {const_map_id = 2 : ui32} : tensor<4xf32>
      %5 = tx8be.LoadConst {const_map_id = 3 : ui32} : tensor<4xf32>
      %6 = tx8be.BatchNorm_Inference %1, %2, %3, %4, %5 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = <Tensor>, imm_addr = -1, mem_addr = []>, layout_str = "NHWC"} : (tensor<1x4x16x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x16x8xf32>
      %7 = tx8be.StoreVar %6 : (tensor<1x4x16x8xf32>) -> tensor<1x4x16x8xf32>
      tx8be.Return %7 : tensor<1x4x16x8xf32>
    }
    return %0 : tensor<1x4x16x8xf32>
  }
}

// -----

// BatchNorm 1x256x2x2: the smallest slice [1, 256, 1, 1] needs 7 x 1024 bytes (in, 4 vectors, out, scratch
// for 256 lanes). Cutting C would fit, but C is never cut: an error with the sizes.
module attributes {tx8be.hw_config = {spm_bytes = 4096 : i64}, tx8be.const_container = [dense<1.000000e+00> : tensor<256xf32>, dense<0.000000e+00> : tensor<256xf32>, dense<5.000000e-01> : tensor<256xf32>, dense<2.000000e+00> : tensor<256xf32>]} {
  func.func @too_big(%arg0: tensor<1x256x2x2xf32> {tx8be.layout_str = "NHWC", tx8be.mem_layout = #tx8be.layout<Tensor>}) -> (tensor<1x256x2x2xf32> {tx8be.layout_str = "NHWC", tx8be.mem_layout = #tx8be.layout<Tensor>}) {
    %0 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<1x256x2x2xf32>) -> tensor<1x256x2x2xf32> {
    ^bb0(%arg1: tensor<1x256x2x2xf32>):
      %1 = tx8be.LoadVar %arg1 : (tensor<1x256x2x2xf32>) -> tensor<1x256x2x2xf32>
      %2 = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<256xf32>
      %3 = tx8be.LoadConst {const_map_id = 1 : ui32} : tensor<256xf32>
      %4 = tx8be.LoadConst {const_map_id = 2 : ui32} : tensor<256xf32>
      %5 = tx8be.LoadConst {const_map_id = 3 : ui32} : tensor<256xf32>
      // expected-error @+1 {{does not fit in SPM even in its smallest slice: needs 7168 bytes (operand 0 1024, operand 1 1024, operand 2 1024, operand 3 1024, operand 4 1024, result 1024, scratch 1024), the SPM has 4096}}
      %6 = tx8be.BatchNorm_Inference %1, %2, %3, %4, %5 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = <Tensor>, imm_addr = -1, mem_addr = []>, layout_str = "NHWC"} : (tensor<1x256x2x2xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<1x256x2x2xf32>
      %7 = tx8be.StoreVar %6 : (tensor<1x256x2x2xf32>) -> tensor<1x256x2x2xf32>
      tx8be.Return %7 : tensor<1x256x2x2xf32>
    }
    return %0 : tensor<1x256x2x2xf32>
  }
}

// -----

// A group_tag 2 Group (Reshape, a DDR view) is not split: it gets no Steps.
// CHECK-LABEL: func.func @view
// CHECK-NOT: tx8be.Steps
// CHECK: tx8be.Reshape
module attributes {tx8be.hw_config = {spm_bytes = 4096 : i64}} {
  func.func @view(%arg0: tensor<2x8xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}) -> (tensor<16xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}) {
    %0 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 2 : i32} : (tensor<2x8xf32>) -> tensor<16xf32> {
    ^bb0(%arg1: tensor<2x8xf32>):
      %1 = tx8be.Reshape %arg1 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = <NTensor>, imm_addr = -1, mem_addr = []>, layout_str = "Tensor"} : (tensor<2x8xf32>) -> tensor<16xf32>
      tx8be.Return %1 : tensor<16xf32>
    }
    return %0 : tensor<16xf32>
  }
}

// -----

// An operand read twice is one SPM buffer: Add %x, %x over 4x512 f32 needs align(4 k) in + align(4 k) out per
// step, so a whole row (k = 512, 2 x 2048 bytes) fits.
// CHECK-LABEL: func.func @same_operand_twice
// CHECK: tx8be.Steps tiles [4] slice [1, 512]
// CHECK-NEXT: %[[X:.*]], %{{.*}} = tx8be.LoadBox %arg1
// CHECK-NEXT: tx8be.Wait
// CHECK-NEXT: tx8be.Add %[[X]], %[[X]]
module attributes {tx8be.hw_config = {spm_bytes = 4096 : i64}} {
  func.func @same_operand_twice(%arg0: tensor<4x512xf32>) -> tensor<4x512xf32> {
    %0 = tx8be.Group(%arg0) {group_tag = 0 : i32} : (tensor<4x512xf32>) -> tensor<4x512xf32> {
    ^bb0(%arg1: tensor<4x512xf32>):
      %1 = tx8be.LoadVar %arg1 : (tensor<4x512xf32>) -> tensor<4x512xf32>
      %2 = tx8be.Add %1, %1 {layout_str = "Tensor"} : (tensor<4x512xf32>, tensor<4x512xf32>) -> tensor<4x512xf32>
      %3 = tx8be.StoreVar %2 : (tensor<4x512xf32>) -> tensor<4x512xf32>
      tx8be.Return %3 : tensor<4x512xf32>
    }
    return %0 : tensor<4x512xf32>
  }
}

// -----

// Conv 3x3 with pads 1 on 1x4x16x8: h output rows read h + 1 input rows at a border (the other halo row is
// padding): align(128 (h + 1)) + align(128 h) + 768 <= 4096 -> h = 12 (1792 + 1536 + 768). Step 0 reads rows
// 0..12 with a padded row above (pad_low in H) and step 1 rows 11..15 with one below (pad_high); both have W's
// padding on either side.
// CHECK-LABEL: func.func @conv_pads
// CHECK: tx8be.Steps tiles [2] slice [1, 4, 12, 8]
// CHECK-NEXT: tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 4, start = [0, 0, 0, 0, 0, 0, 11, 0], size = [1, 4, 13, 8, 1, 4, 5, 8], pad_low = [0, 0, 1, 1, 0, 0, 0, 1], pad_high = [0, 0, 0, 1, 0, 0, 1, 1]>}
// CHECK: tx8be.StoreBox %{{.*}} into 0 {boxes = #tx8be.boxes<rank = 4, start = [0, 0, 0, 0, 0, 0, 12, 0], size = [1, 4, 12, 8, 1, 4, 4, 8], pad_low = [], pad_high = []>}
module attributes {tx8be.hw_config = {spm_bytes = 4096 : i64}, tx8be.const_container = [dense<1.000000e+00> : tensor<4x4x3x3xf32>]} {
  func.func @conv_pads(%arg0: tensor<1x4x16x8xf32> {tx8be.layout_str = "NHWC", tx8be.mem_layout = #tx8be.layout<Tensor>}) -> (tensor<1x4x16x8xf32> {tx8be.layout_str = "NHWC", tx8be.mem_layout = #tx8be.layout<Tensor>}) {
    %0 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<1x4x16x8xf32>) -> tensor<1x4x16x8xf32> {
    ^bb0(%arg1: tensor<1x4x16x8xf32>):
      %1 = tx8be.LoadVar %arg1 : (tensor<1x4x16x8xf32>) -> tensor<1x4x16x8xf32>
      %2 = tx8be.LoadConst {const_map_id = 0 : ui32, layout_str = "HWIO"} : tensor<4x4x3x3xf32>
      %3 = tx8be.Conv %1, %2 {dilations = array<i64: 1, 1>, layout_str = "NHWC", pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x4x16x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x16x8xf32>
      %4 = tx8be.StoreVar %3 : (tensor<1x4x16x8xf32>) -> tensor<1x4x16x8xf32>
      tx8be.Return %4 : tensor<1x4x16x8xf32>
    }
    return %0 : tensor<1x4x16x8xf32>
  }
}

// -----

// Add of an 8x64 input and an 8x64 constant: whole it needs 3 x 2048 bytes, so the slice cuts the constant
// too: it stays in DDR (LoadConst read in place) and each step loads its rows with a LoadBox, as the input's.
// CHECK-LABEL: func.func @const_cut
// CHECK: %[[C:.*]] = tx8be.LoadConst {bypasscodegen = true, const_map_id = 0 : ui32} : tensor<8x64xf32>
// CHECK-NEXT: tx8be.Steps tiles [2] slice [5, 64]
// CHECK-NEXT: %[[X:.*]], %[[XT:.*]] = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 5, 0], size = [5, 64, 3, 64]
// CHECK-NEXT: %[[K:.*]], %[[KT:.*]] = tx8be.LoadBox %[[C]] {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 5, 0], size = [5, 64, 3, 64]
// CHECK-NEXT: tx8be.Wait %[[XT]], %[[KT]]
// CHECK-NEXT: tx8be.Add %[[X]], %[[K]]
module attributes {tx8be.hw_config = {spm_bytes = 4096 : i64}, tx8be.const_container = [dense<1.000000e+00> : tensor<8x64xf32>]} {
  func.func @const_cut(%arg0: tensor<8x64xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}) -> (tensor<8x64xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}) {
    %0 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<8x64xf32>) -> tensor<8x64xf32> {
    ^bb0(%arg2: tensor<8x64xf32>):
      %1 = tx8be.LoadVar %arg2 : (tensor<8x64xf32>) -> tensor<8x64xf32>
      %2 = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<8x64xf32>
      %3 = tx8be.Add %1, %2 {layout_str = "Tensor"} : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
      %4 = tx8be.StoreVar %3 : (tensor<8x64xf32>) -> tensor<8x64xf32>
      tx8be.Return %4 : tensor<8x64xf32>
    }
    return %0 : tensor<8x64xf32>
  }
}

// -----

// Any op of the elementwise family splits along any dim (OpLib's anyDimOrder, no central list of ops): Neg on
// 8x64 f32 with a 2 KiB SPM runs in two steps of four rows.
// CHECK-LABEL: func.func @elementwise_family
// CHECK: tx8be.Steps tiles [2] slice [4, 64]
module attributes {tx8be.hw_config = {spm_bytes = 2048 : i64}} {
  func.func @elementwise_family(%arg0: tensor<8x64xf32>) -> tensor<8x64xf32> {
    %0 = tx8be.Group(%arg0) {group_tag = 0 : i32} : (tensor<8x64xf32>) -> tensor<8x64xf32> {
    ^bb0(%arg1: tensor<8x64xf32>):
      %1 = tx8be.LoadVar %arg1 : (tensor<8x64xf32>) -> tensor<8x64xf32>
      %2 = tx8be.Neg %1 : (tensor<8x64xf32>) -> tensor<8x64xf32>
      %3 = tx8be.StoreVar %2 : (tensor<8x64xf32>) -> tensor<8x64xf32>
      tx8be.Return %3 : tensor<8x64xf32>
    }
    return %0 : tensor<8x64xf32>
  }
}

// -----

// A Gemm whose one output row already needs more than the SPM: x [2, 1024] x w [1024, 64] + b, 8 KiB SPM. No
// output slice fits with K whole (one row of x is 4 KiB, one column of w 1024 x 256-byte rows), so K is cut,
// into the fewest parts with which a slice fits. Each run of reduce_steps steps computes one output slice; x
// and w are cut along K (x's dim 1, w's dim 0), the bias is not (the last part adds it).
// CHECK-LABEL: func.func @gemm_split_k
// CHECK: %[[W:.*]] = tx8be.LoadConst {bypasscodegen = true, const_map_id = 0 : ui32} : tensor<1024x64xf32>
// Two parts of 512 let slices of [1, 2] fit (x's box 1 x 512, w's 512 x 2): 64 slices x 2 parts.
// CHECK: tx8be.Steps tiles [128] slice [1, 2] -> tensor<2x64xf32> attributes {estimate = {{[0-9]+}} : i64, reduce_steps = 2 : i64}
// CHECK-NEXT: tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 0, 512, 0, 0, 0, 512,
// CHECK-SAME: size = [1, 512, 1, 512,
// CHECK-NEXT: tx8be.LoadBox %[[W]] {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 512, 0, 0, 2, 512, 2,
// CHECK-SAME: size = [512, 2, 512, 2,
// CHECK-NEXT: tx8be.LoadBox %{{.*}} {boxes = #tx8be.boxes<rank = 1, start = [0, 0, 2, 2,
// The two parts of a run store one box.
// CHECK: tx8be.StoreBox %{{.*}} into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 0, 0, 0, 2, 0, 2,
module attributes {tx8be.hw_config = {spm_bytes = 8192 : i64}, tx8be.const_container = [dense<1.000000e+00> : tensor<1024x64xf32>, dense<2.000000e+00> : tensor<64xf32>]} {
  func.func @gemm_split_k(%arg0: tensor<2x1024xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}) -> (tensor<2x64xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}) {
    %0 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<2x1024xf32>) -> tensor<2x64xf32> {
    ^bb0(%arg1: tensor<2x1024xf32>):
      %1 = tx8be.LoadVar %arg1 : (tensor<2x1024xf32>) -> tensor<2x1024xf32>
      %2 = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<1024x64xf32>
      %3 = tx8be.LoadConst {const_map_id = 1 : ui32} : tensor<64xf32>
      %4 = tx8be.Gemm %1, %2, %3 {layout_str = "Tensor"} : (tensor<2x1024xf32>, tensor<1024x64xf32>, tensor<64xf32>) -> tensor<2x64xf32>
      %5 = tx8be.StoreVar %4 : (tensor<2x64xf32>) -> tensor<2x64xf32>
      tx8be.Return %5 : tensor<2x64xf32>
    }
    return %0 : tensor<2x64xf32>
  }
}

// -----

// Sixteen tiles (dev_region 4x4): a 64x1024 Relu is sharded 16 ways along its rows (the outer dim: each
// tile's shard is one contiguous run), 4 rows per tile, one step each; double buffering gains nothing with
// one step, so one buffer.
// CHECK-LABEL: func.func @shard_rows
// CHECK: tx8be.Steps tiles [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] slice [4, 1024] -> tensor<64x1024xf32> attributes {estimate = {{[0-9]+}} : i64, sharding = array<i64: 16, 1>} {
// CHECK-NEXT: tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 4, 0, 8, 0, 12, 0, 16, 0, 20, 0, 24, 0, 28, 0, 32, 0, 36, 0, 40, 0, 44, 0, 48, 0, 52, 0, 56, 0, 60, 0]
// With opt-search 0 the first sharding of the best level is taken the same way:
// RUN: tx8-opt %s --split-input-file --tx8be-group-cost="opt-search=0" --verify-diagnostics | FileCheck %s --check-prefix=FIRST
// FIRST-LABEL: func.func @shard_rows
// FIRST: tx8be.Steps tiles [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] slice [4, 1024]
module attributes {tx8be.hw_config = {spm_bytes = 65536 : i64}} {
  func.func @shard_rows(%arg0: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
    %0 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 4, y_dim = 4>, group_tag = 0 : i32} : (tensor<64x1024xf32>) -> tensor<64x1024xf32> {
    ^bb0(%arg1: tensor<64x1024xf32>):
      %1 = tx8be.LoadVar %arg1 : (tensor<64x1024xf32>) -> tensor<64x1024xf32>
      %2 = tx8be.Relu %1 : (tensor<64x1024xf32>) -> tensor<64x1024xf32>
      %3 = tx8be.StoreVar %2 : (tensor<64x1024xf32>) -> tensor<64x1024xf32>
      tx8be.Return %3 : tensor<64x1024xf32>
    }
    return %0 : tensor<64x1024xf32>
  }
}

// -----

// One tile, a 256x256x256 f32 MatMul with a 1 MiB SPM: A, B and the output (256 KiB each) fit once, not
// twice. Whole, one step: nothing overlaps. The cheapest plan keeps the whole output (one store) and cuts K in
// 4 parts of 64 (the same sum in the same order), double-buffered: 2 x (64 + 64 + 256) KiB; the loads of part
// i + 1 run while the NE computes part i.
// CHECK-LABEL: func.func @gemm_tiles
// CHECK: tx8be.Steps tiles [4] slice [256, 256] -> tensor<256x256xf32> attributes {estimate = {{[0-9]+}} : i64, multi_buf = 2 : i64, reduce_steps = 4 : i64} {
// CHECK-NEXT: tx8be.LoadBox %arg2 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 0, 64, 0, 128, 0, 192], size = [256, 64, 256, 64, 256, 64, 256, 64]
module attributes {tx8be.hw_config = {spm_bytes = 1048576 : i64}} {
  func.func @gemm_tiles(%arg0: tensor<256x256xf32>, %arg1: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %0 = tx8be.Group(%arg0, %arg1) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32> {
    ^bb0(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>):
      %1 = tx8be.LoadVar %a : (tensor<256x256xf32>) -> tensor<256x256xf32>
      %2 = tx8be.LoadVar %b : (tensor<256x256xf32>) -> tensor<256x256xf32>
      %3 = tx8be.MatMul %1, %2 : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
      %4 = tx8be.StoreVar %3 : (tensor<256x256xf32>) -> tensor<256x256xf32>
      tx8be.Return %4 : tensor<256x256xf32>
    }
    return %0 : tensor<256x256xf32>
  }
}

// -----

// ViT-B/16's attention on sixteen tiles (12 heads of 197 queries and keys, head dim 64, bf16 in, fp32 out): one
// head per tile on 12 tiles, not 13 queries of every head per tile. op_attention pays every instruction's start-up
// per block of queries, and 13-query blocks of 12 heads cost more than twice a tile's whole head
// (getSliceClockCycle prices a slice's own blocks; its share of the whole op's estimate did not). One step per
// tile: two buffers would cost the same, so one.
// CHECK-LABEL: func.func @attention_heads
// CHECK: tx8be.Steps tiles [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0] slice [1, 197, 64] -> tensor<12x197x64xf32> attributes {estimate = {{[0-9]+}} : i64, sharding = array<i64: 12, 1, 1>} {
module {
  func.func @attention_heads(%q: tensor<12x197x64xbf16>, %k: tensor<12x197x64xbf16>, %v: tensor<12x197x64xbf16>) -> tensor<12x197x64xf32> {
    %0 = tx8be.Group(%q, %k, %v) {dev_region = #tx8be.region_attr<x_dim = 4, y_dim = 4>, group_tag = 0 : i32} : (tensor<12x197x64xbf16>, tensor<12x197x64xbf16>, tensor<12x197x64xbf16>) -> tensor<12x197x64xf32> {
    ^bb0(%a: tensor<12x197x64xbf16>, %b: tensor<12x197x64xbf16>, %c: tensor<12x197x64xbf16>):
      %1 = tx8be.LoadVar %a : (tensor<12x197x64xbf16>) -> tensor<12x197x64xbf16>
      %2 = tx8be.LoadVar %b : (tensor<12x197x64xbf16>) -> tensor<12x197x64xbf16>
      %3 = tx8be.LoadVar %c : (tensor<12x197x64xbf16>) -> tensor<12x197x64xbf16>
      %4 = tx8be.Attention %1, %2, %3 {scale = 1.250000e-01 : f32, ne_in_fmt = "bf16"} : (tensor<12x197x64xbf16>, tensor<12x197x64xbf16>, tensor<12x197x64xbf16>) -> tensor<12x197x64xf32>
      %5 = tx8be.StoreVar %4 : (tensor<12x197x64xf32>) -> tensor<12x197x64xf32>
      tx8be.Return %5 : tensor<12x197x64xf32>
    }
    return %0 : tensor<12x197x64xf32>
  }
}

// -----

// GPT-2's lm_head on sixteen tiles (128 tokens, a [768, 50257] bf16 weight, f32 logits): 5 column slices per tile
// ([1, 16]), double buffered, not 52 row slices of every column multicast in lockstep ([16, 1]). A double-buffered
// tile's steps fill the pipeline with the first step's loads and drain with the last step's compute and store;
// priced as one more whole step, five steps lost to 52 (estimated 653k), which ran 775,640 cycles in GPT-2-small
// against the five steps' 530,992.
// CHECK-LABEL: func.func @lm_head
// CHECK: tx8be.Steps tiles [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5] slice [128, 672] -> tensor<128x50257xf32> attributes {estimate = {{[0-9]+}} : i64, multi_buf = 2 : i64, sharding = array<i64: 1, 16>}
module {
  func.func @lm_head(%x: tensor<128x768xbf16>) -> tensor<128x50257xf32> {
    %0 = tx8be.Group(%x) {dev_region = #tx8be.region_attr<x_dim = 4, y_dim = 4>, group_tag = 0 : i32} : (tensor<128x768xbf16>) -> tensor<128x50257xf32> {
    ^bb0(%a: tensor<128x768xbf16>):
      %1 = tx8be.LoadVar %a : (tensor<128x768xbf16>) -> tensor<128x768xbf16>
      %2 = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<768x50257xbf16>
      %3 = tx8be.MatMul %1, %2 {ne_in_fmt = "bf16"} : (tensor<128x768xbf16>, tensor<768x50257xbf16>) -> tensor<128x50257xf32>
      %4 = tx8be.StoreVar %3 : (tensor<128x50257xf32>) -> tensor<128x50257xf32>
      tx8be.Return %4 : tensor<128x50257xf32>
    }
    return %0 : tensor<128x50257xf32>
  }
}

// -----

// ViT-B/16's second MLP layer on sixteen tiles ([197, 3072] x [3072, 768] bf16, then bias, cast and residual):
// 48 columns a tile, in one step. Each tile's [3072, 48] weight box is 3072 runs of 96 bytes in the row-major
// image, two 64-byte bursts each; with block-weights (tx8be-block-weights runs later and stores the weight as
// [16][3072][48]) it is one run, priced as such: 46,967 cycles estimated instead of 55,159 (the Group ran 45,935
// in ViT-B/16).
// RUN: tx8-opt %s --split-input-file --tx8be-group-cost="block-weights=true" --verify-diagnostics | FileCheck %s --check-prefix=BLOCK
// CHECK-LABEL: func.func @mlp_out
// CHECK: tx8be.Steps tiles [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] slice [197, 48] -> tensor<197x768xbf16> attributes {estimate = 55159 : i64
// BLOCK-LABEL: func.func @mlp_out
// BLOCK: tx8be.Steps tiles [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] slice [197, 48] -> tensor<197x768xbf16> attributes {estimate = 46967 : i64
module {
  func.func @mlp_out(%x: tensor<197x3072xbf16>, %res: tensor<197x768xbf16>) -> tensor<197x768xbf16> {
    %0 = tx8be.Group(%x, %res) {dev_region = #tx8be.region_attr<x_dim = 4, y_dim = 4>, group_tag = 0 : i32} : (tensor<197x3072xbf16>, tensor<197x768xbf16>) -> tensor<197x768xbf16> {
    ^bb0(%a: tensor<197x3072xbf16>, %r: tensor<197x768xbf16>):
      %1 = tx8be.LoadVar %a : (tensor<197x3072xbf16>) -> tensor<197x3072xbf16>
      %2 = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<3072x768xbf16>
      %3 = tx8be.LoadConst {const_map_id = 1 : ui32} : tensor<768xf32>
      %4 = tx8be.LoadVar %r : (tensor<197x768xbf16>) -> tensor<197x768xbf16>
      %5 = tx8be.MatMul %1, %2 {ne_in_fmt = "bf16"} : (tensor<197x3072xbf16>, tensor<3072x768xbf16>) -> tensor<197x768xf32>
      %6 = tx8be.Add %3, %5 : (tensor<768xf32>, tensor<197x768xf32>) -> tensor<197x768xf32>
      %7 = tx8be.Cast %6 : (tensor<197x768xf32>) -> tensor<197x768xbf16>
      %8 = tx8be.Add %4, %7 : (tensor<197x768xbf16>, tensor<197x768xbf16>) -> tensor<197x768xbf16>
      %9 = tx8be.StoreVar %8 : (tensor<197x768xbf16>) -> tensor<197x768xbf16>
      tx8be.Return %9 : tensor<197x768xbf16>
    }
    return %0 : tensor<197x768xbf16>
  }
}

// -----

// ViT-B/16's first MLP layer after a group of CT work (here an Exp; in ViT the LayerNorm). Alone, its cheapest
// plan cuts the reduction in 8 parts, multicasting each part of the input in lockstep (44,493 cycles). With
// prefetch-weights (tx8be-prefetch-weights runs later), one step per tile (44,778) is credited with its weight
// box's loads up to the Exp group's time with DDR not busy: the weights are copied during that group. In
// ViT-B/16 that chain (the LayerNorm copying the first MLP layer's weights, that layer the second's) took the
// model from 2,017,489 to 1,922,377 cycles.
// RUN: tx8-opt %s --split-input-file --tx8be-group-cost="prefetch-weights=true" --verify-diagnostics | FileCheck %s --check-prefix=PREFETCH
// CHECK-LABEL: func.func @mlp_in
// CHECK: slice [99, 96] -> tensor<197x768xbf16>
// CHECK: tx8be.Steps tiles [8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8] slice [197, 192] -> tensor<197x3072xbf16> attributes {estimate = 44493 : i64, multi_buf = 2 : i64, reduce_steps = 8 : i64
// PREFETCH-LABEL: func.func @mlp_in
// PREFETCH: slice [99, 96] -> tensor<197x768xbf16>
// PREFETCH: tx8be.Steps tiles [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] slice [197, 192] -> tensor<197x3072xbf16> attributes {estimate = 44778 : i64, sharding = array<i64: 1, 16>}
module {
  func.func @mlp_in(%x: tensor<197x768xbf16>) -> tensor<197x3072xbf16> {
    %0 = tx8be.Group(%x) {dev_region = #tx8be.region_attr<x_dim = 4, y_dim = 4>, group_tag = 0 : i32} : (tensor<197x768xbf16>) -> tensor<197x768xbf16> {
    ^bb0(%a: tensor<197x768xbf16>):
      %1 = tx8be.LoadVar %a : (tensor<197x768xbf16>) -> tensor<197x768xbf16>
      %2 = tx8be.Exp %1 : (tensor<197x768xbf16>) -> tensor<197x768xbf16>
      %3 = tx8be.StoreVar %2 : (tensor<197x768xbf16>) -> tensor<197x768xbf16>
      tx8be.Return %3 : tensor<197x768xbf16>
    }
    %4 = tx8be.Group(%0) {dev_region = #tx8be.region_attr<x_dim = 4, y_dim = 4>, group_tag = 0 : i32} : (tensor<197x768xbf16>) -> tensor<197x3072xbf16> {
    ^bb0(%a: tensor<197x768xbf16>):
      %1 = tx8be.LoadVar %a : (tensor<197x768xbf16>) -> tensor<197x768xbf16>
      %2 = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<768x3072xbf16>
      %b = tx8be.LoadConst {const_map_id = 1 : ui32} : tensor<3072xf32>
      %3 = tx8be.MatMul %1, %2 {ne_in_fmt = "bf16"} : (tensor<197x768xbf16>, tensor<768x3072xbf16>) -> tensor<197x3072xf32>
      %6 = tx8be.Add %b, %3 : (tensor<3072xf32>, tensor<197x3072xf32>) -> tensor<197x3072xf32>
      %7 = tx8be.Gelu %6 : (tensor<197x3072xf32>) -> tensor<197x3072xf32>
      %8 = tx8be.Cast %7 : (tensor<197x3072xf32>) -> tensor<197x3072xbf16>
      %5 = tx8be.StoreVar %8 : (tensor<197x3072xbf16>) -> tensor<197x3072xbf16>
      tx8be.Return %5 : tensor<197x3072xbf16>
    }
    return %4 : tensor<197x3072xbf16>
  }
}

// -----

// The same lm_head over 256 tokens: one buffer fits 3 column slices of 1075 per tile (estimated 670,698), but each
// slice's f32 logits (1.1 MB) are stored while the next slice's weights load, through the same share of DDR, which
// the single-buffered estimate did not count: it ran 804,008 cycles in GPT-2-small. Priced, two buffers of 460
// columns win (estimated 733,405; ran 670,215).
// CHECK-LABEL: func.func @lm_head_256
// CHECK: tx8be.Steps tiles [7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7] slice [256, 460] -> tensor<256x50257xf32> attributes {estimate = 733405 : i64, multi_buf = 2 : i64, sharding = array<i64: 1, 16>}
module {
  func.func @lm_head_256(%x: tensor<256x768xbf16>) -> tensor<256x50257xf32> {
    %0 = tx8be.Group(%x) {dev_region = #tx8be.region_attr<x_dim = 4, y_dim = 4>, group_tag = 0 : i32} : (tensor<256x768xbf16>) -> tensor<256x50257xf32> {
    ^bb0(%a: tensor<256x768xbf16>):
      %1 = tx8be.LoadVar %a : (tensor<256x768xbf16>) -> tensor<256x768xbf16>
      %2 = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<768x50257xbf16>
      %3 = tx8be.MatMul %1, %2 {ne_in_fmt = "bf16"} : (tensor<256x768xbf16>, tensor<768x50257xbf16>) -> tensor<256x50257xf32>
      %4 = tx8be.StoreVar %3 : (tensor<256x50257xf32>) -> tensor<256x50257xf32>
      tx8be.Return %4 : tensor<256x50257xf32>
    }
    return %0 : tensor<256x50257xf32>
  }
}
