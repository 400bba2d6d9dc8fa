// RUN: tx8-opt %s --split-input-file --tx8be-spm-alloc --verify-diagnostics | FileCheck %s

// A 4096-byte SPM; buffer starts are multiples of 256 bytes (batch_align_bits / 8).

// The input is the schedule tx8be-group-cost writes (Steps with LoadBox / StoreBox box tables).

// BatchNorm 1x4x8x8 f32: in and out 1024 bytes, four 16-byte vectors, 256 bytes of scratch (4 lanes x 4,
// rounded up). All are live at the BatchNorm (the vectors, loaded before the Steps, through all of it), so
// none share. Largest first (ties: earlier first): LoadBox 0, BatchNorm 1024, scratch 2048, then the vectors
// in order at 2304, 2560, 2816, 3072; the group ends at 3072 + 16.
// CHECK-LABEL: func.func @batchnorm
// CHECK: tx8be.Group(%arg0) {{.*}}spm_alloc_size = 3088 : ui32
// CHECK: tx8be.LoadConst {const_map_id = 0 : ui32, dev_info = {{.*}}mem_addr = [2304]>
// CHECK: tx8be.LoadConst {const_map_id = 1 : ui32, dev_info = {{.*}}mem_addr = [2560]>
// CHECK: tx8be.LoadConst {const_map_id = 2 : ui32, dev_info = {{.*}}mem_addr = [2816]>
// CHECK: tx8be.LoadConst {const_map_id = 3 : ui32, dev_info = {{.*}}mem_addr = [3072]>
// CHECK: tx8be.LoadBox {{.*}}mem_addr = [0]>
// CHECK: tx8be.BatchNorm_Inference {{.*}}imm_size = 256, {{.*}}imm_addr = 2048, mem_addr = [1024]>
module attributes {tx8be.const_container = [dense<1.000000e+00> : tensor<4xf32>, dense<0.000000e+00> : tensor<4xf32>, dense<5.000000e-01> : tensor<4xf32>, dense<2.000000e+00> : tensor<4xf32>], tx8be.hw_config = {spm_bytes = 4096 : i64}} {
  func.func @batchnorm(%arg0: tensor<1x4x8x8xf32> {tx8be.layout_str = "NHWC", tx8be.mem_layout = #tx8be.layout<Tensor>}) -> (tensor<1x4x8x8xf32> {tx8be.layout_str = "NHWC", tx8be.mem_layout = #tx8be.layout<Tensor>}) {
    %0 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
    ^bb0(%arg1: tensor<1x4x8x8xf32>):
      %1 = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<4xf32>
      %2 = tx8be.LoadConst {const_map_id = 1 : ui32} : tensor<4xf32>
      %3 = tx8be.LoadConst {const_map_id = 2 : ui32} : tensor<4xf32>
      %4 = tx8be.LoadConst {const_map_id = 3 : ui32} : tensor<4xf32>
      %5 = tx8be.Steps tiles [1] slice [1, 4, 8, 8] -> tensor<1x4x8x8xf32> {
        %output, %token = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 4, start = [0, 0, 0, 0], size = [1, 4, 8, 8], pad_low = [], pad_high = []>} : tensor<1x4x8x8xf32>
        tx8be.Wait %token
        %6 = tx8be.BatchNorm_Inference %output, %1, %2, %3, %4 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = <Tensor>, imm_addr = -1, mem_addr = []>, layout_str = "NHWC"} : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
        %7 = tx8be.StoreBox %6 into 0 {boxes = #tx8be.boxes<rank = 4, start = [0, 0, 0, 0], size = [1, 4, 8, 8], pad_low = [], pad_high = []>} : tensor<1x4x8x8xf32>
        tx8be.Wait %7
      }
      tx8be.Return %5 : tensor<1x4x8x8xf32>
    }
    return %0 : tensor<1x4x8x8xf32>
  }
}

// -----

// Buffers are sized by the temporal slice, not the whole tensor: 4x512 f32 in slices of [1, 512] is
// 2048 bytes in and 2048 out. No scratch: imm_size 0, imm_addr -1.
// CHECK-LABEL: func.func @sliced
// CHECK: tx8be.Group(%arg0) {{.*}}spm_alloc_size = 4096 : ui32
// CHECK: tx8be.LoadBox {{.*}}mem_addr = [0]>
// CHECK: tx8be.Relu {{.*}}imm_size = 0, {{.*}}imm_addr = -1, mem_addr = [2048]>
module attributes {tx8be.hw_config = {spm_bytes = 4096 : i64}} {
  func.func @sliced(%arg0: tensor<4x512xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}) -> (tensor<4x512xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}) {
    %0 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<4x512xf32>) -> tensor<4x512xf32> {
    ^bb0(%arg1: tensor<4x512xf32>):
      %1 = tx8be.Steps tiles [4] slice [1, 512] -> tensor<4x512xf32> {
        %output, %token = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0, 2, 0, 3, 0], size = [1, 512, 1, 512, 1, 512, 1, 512], pad_low = [], pad_high = []>} : tensor<4x512xf32>
        tx8be.Wait %token
        %2 = tx8be.Relu %output {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = <NTensor>, imm_addr = -1, mem_addr = []>, layout_str = "Tensor"} : (tensor<4x512xf32>) -> tensor<4x512xf32>
        %3 = tx8be.StoreBox %2 into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0, 2, 0, 3, 0], size = [1, 512, 1, 512, 1, 512, 1, 512], pad_low = [], pad_high = []>} : tensor<4x512xf32>
        tx8be.Wait %3
      }
      tx8be.Return %1 : tensor<4x512xf32>
    }
    return %0 : tensor<4x512xf32>
  }
}

// -----

// Conv 3x3 sliced to 13 output rows (tx8be-group-cost's choice for a 4096-byte SPM): the input buffer
// holds 15 rows with the halo (1920 bytes) at 0, the output slice (1248) at 2048, the 576-byte weight after
// it at 3328; the group ends at 3904.
// CHECK-LABEL: func.func @conv_halo
// CHECK: tx8be.Group(%arg0) {{.*}}spm_alloc_size = 3904 : ui32
// CHECK: tx8be.LoadConst {{.*}}mem_addr = [3328]>
// CHECK: tx8be.LoadBox {{.*}}mem_addr = [0]>
// CHECK: tx8be.Conv {{.*}}mem_addr = [2048]>
module attributes {tx8be.const_container = [dense<1.000000e+00> : tensor<4x4x3x3xf32>], tx8be.hw_config = {spm_bytes = 4096 : i64}} {
  func.func @conv_halo(%arg0: tensor<1x4x18x8xf32> {tx8be.layout_str = "NHWC", tx8be.mem_layout = #tx8be.layout<Tensor>}) -> (tensor<1x4x16x6xf32> {tx8be.layout_str = "NHWC", tx8be.mem_layout = #tx8be.layout<Tensor>}) {
    %0 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<1x4x18x8xf32>) -> tensor<1x4x16x6xf32> {
    ^bb0(%arg1: tensor<1x4x18x8xf32>):
      %1 = tx8be.LoadConst {const_map_id = 0 : ui32, layout_str = "HWIO"} : tensor<4x4x3x3xf32>
      %2 = tx8be.Steps tiles [2] slice [1, 4, 13, 6] -> tensor<1x4x16x6xf32> {
        %output, %token = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 4, start = [0, 0, 0, 0, 0, 0, 13, 0], size = [1, 4, 15, 8, 1, 4, 5, 8], pad_low = [], pad_high = []>} : tensor<1x4x18x8xf32>
        tx8be.Wait %token
        %3 = tx8be.Conv %output, %1 {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = <Tensor>, imm_addr = -1, mem_addr = []>, dilations = array<i64: 1, 1>, layout_str = "NHWC", pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x18x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x16x6xf32>
        %4 = tx8be.StoreBox %3 into 0 {boxes = #tx8be.boxes<rank = 4, start = [0, 0, 0, 0, 0, 0, 13, 0], size = [1, 4, 13, 6, 1, 4, 3, 6], pad_low = [], pad_high = []>} : tensor<1x4x16x6xf32>
        tx8be.Wait %4
      }
      tx8be.Return %2 : tensor<1x4x16x6xf32>
    }
    return %0 : tensor<1x4x16x6xf32>
  }
}

// -----

// The same Relu unsliced (one step of [4, 512]) needs 8192 + 8192 bytes: more than the SPM, an error listing
// the buffers.
module attributes {tx8be.hw_config = {spm_bytes = 4096 : i64}} {
  func.func @too_big(%arg0: tensor<4x512xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}) -> (tensor<4x512xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}) {
    // expected-error @+1 {{needs 16384 bytes of SPM, the tile has 4096: tx8be.LoadBox 8192 tx8be.Relu 8192 scratch 0}}
    %0 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<4x512xf32>) -> tensor<4x512xf32> {
    ^bb0(%arg1: tensor<4x512xf32>):
      %1 = tx8be.Steps tiles [1] slice [4, 512] -> tensor<4x512xf32> {
        %output, %token = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0], size = [4, 512], pad_low = [], pad_high = []>} : tensor<4x512xf32>
        tx8be.Wait %token
        %2 = tx8be.Relu %output {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = <NTensor>, imm_addr = -1, mem_addr = []>, layout_str = "Tensor"} : (tensor<4x512xf32>) -> tensor<4x512xf32>
        %3 = tx8be.StoreBox %2 into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0], size = [4, 512], pad_low = [], pad_high = []>} : tensor<4x512xf32>
        tx8be.Wait %3
      }
      tx8be.Return %1 : tensor<4x512xf32>
    }
    return %0 : tensor<4x512xf32>
  }
}


// -----

// A Group without a schedule has nothing to allocate from: an error naming the pass that writes it.
module attributes {tx8be.hw_config = {spm_bytes = 4096 : i64}} {
  func.func @unplanned(%arg0: tensor<4x512xf32>) -> tensor<4x512xf32> {
    // expected-error @+1 {{has no schedule (tx8be.Steps); run tx8be-group-cost first}}
    %0 = tx8be.Group(%arg0) {group_tag = 0 : i32} : (tensor<4x512xf32>) -> tensor<4x512xf32> {
    ^bb0(%arg1: tensor<4x512xf32>):
      %1 = tx8be.LoadVar %arg1 : (tensor<4x512xf32>) -> tensor<4x512xf32>
      %2 = tx8be.Relu %1 : (tensor<4x512xf32>) -> tensor<4x512xf32>
      %3 = tx8be.StoreVar %2 : (tensor<4x512xf32>) -> tensor<4x512xf32>
      tx8be.Return %3 : tensor<4x512xf32>
    }
    return %0 : tensor<4x512xf32>
  }
}

// -----

// Double buffers (multi_buf 2): each value a step loads or computes has two buffers, both live through the
// whole Steps (step i + 1 fills one while step i reads the other): 4 x 2048 bytes, two addresses each.
// CHECK-LABEL: func.func @double_buffered
// CHECK: tx8be.Group(%arg0) {{.*}}spm_alloc_size = 8192 : ui32
// CHECK: tx8be.LoadBox {{.*}}mem_addr = [{{[0-9]+}}, {{[0-9]+}}]>
// CHECK: tx8be.Relu {{.*}}mem_addr = [{{[0-9]+}}, {{[0-9]+}}]>
module attributes {tx8be.hw_config = {spm_bytes = 8192 : i64}} {
  func.func @double_buffered(%arg0: tensor<4x512xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}) -> (tensor<4x512xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<NTensor>}) {
    %0 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>, group_tag = 0 : i32} : (tensor<4x512xf32>) -> tensor<4x512xf32> {
    ^bb0(%arg1: tensor<4x512xf32>):
      %1 = tx8be.Steps tiles [4] slice [1, 512] -> tensor<4x512xf32> attributes {multi_buf = 2 : i64, sp_stage_num = 3 : i64} {
        %output, %token = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0, 2, 0, 3, 0], size = [1, 512, 1, 512, 1, 512, 1, 512], pad_low = [], pad_high = []>} : tensor<4x512xf32>
        tx8be.Wait %token
        %2 = tx8be.Relu %output {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = <NTensor>, imm_addr = -1, mem_addr = []>, layout_str = "Tensor"} : (tensor<4x512xf32>) -> tensor<4x512xf32>
        %3 = tx8be.StoreBox %2 into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0, 2, 0, 3, 0], size = [1, 512, 1, 512, 1, 512, 1, 512], pad_low = [], pad_high = []>} : tensor<4x512xf32>
      }
      tx8be.Return %1 : tensor<4x512xf32>
    }
    return %0 : tensor<4x512xf32>
  }
}
