// Round trip of the tx8be attributes and enums (seed: parallel_attr, dev_attr; MemScopeMode's "3DDRAM").
// RUN: tx8-opt %s | tx8-opt | FileCheck %s
// RUN: tx8-opt %s --mlir-print-op-generic | tx8-opt | FileCheck %s

// CHECK-LABEL: func.func @backend_attrs
func.func @backend_attrs(%x: tensor<2x64xf32>) -> tensor<2x64xf32> {
  // CHECK: tx8be.Relu %{{.*}} {
  // CHECK-SAME: chip_parallel = #tx8be.parallel_attr<parallel = <Hybrid>, is_dp_inner = true, dp_dim_x = 2, dp_dim_y = 1, dp_dim_z = 1, tp_dim_x = 1, tp_dim_y = 4, tp_dim_z = 1, sharding_is_given = true, shape_spatial_sharding = [2, 4]>
  // CHECK-SAME: dev_info = #tx8be.dev_attr<imm_size = 4096, mem_layout = <NCx>, multi_buf_en = true, multi_buf_num = 2, out_shape_buf_idx = [3], temporal_mem_slice = [1, 64], source_type = 1, imm_addr = 8192, mem_addr = [0, 512]>
  // CHECK-SAME: layout_str = "NTensor"
  // CHECK-SAME: tile_parallel = #tx8be.parallel_attr<parallel = <Single>, is_dp_inner = false, dp_dim_x = 1, dp_dim_y = 1, dp_dim_z = 1, tp_dim_x = 1, tp_dim_y = 1, tp_dim_z = 1, sharding_is_given = false, shape_spatial_sharding = []>
  %0 = tx8be.Relu %x {
    layout_str = "NTensor",
    chip_parallel = #tx8be.parallel_attr<parallel = #tx8be.parallel_mode<Hybrid>, is_dp_inner = true,
                                         dp_dim_x = 2, dp_dim_y = 1, dp_dim_z = 1, tp_dim_x = 1, tp_dim_y = 4,
                                         tp_dim_z = 1, sharding_is_given = true, shape_spatial_sharding = [2, 4]>,
    // struct() takes the parameters in any order
    tile_parallel = #tx8be.parallel_attr<shape_spatial_sharding = [], sharding_is_given = false,
                                         parallel = #tx8be.parallel_mode<Single>, is_dp_inner = false,
                                         dp_dim_x = 1, dp_dim_y = 1, dp_dim_z = 1, tp_dim_x = 1, tp_dim_y = 1, tp_dim_z = 1>,
    dev_info = #tx8be.dev_attr<imm_size = 4096, mem_layout = #tx8be.layout<NCx>, multi_buf_en = true,
                               multi_buf_num = 2, out_shape_buf_idx = [3], temporal_mem_slice = [1, 64],
                               source_type = 1, imm_addr = 8192, mem_addr = [0, 512]>
  } : (tensor<2x64xf32>) -> tensor<2x64xf32>
  return %0 : tensor<2x64xf32>
}

// Every enum value, standing alone in a discardable attribute.
// CHECK-LABEL: func.func @enums
// CHECK-SAME: layouts = [#tx8be.layout<Tensor>, #tx8be.layout<NTensor>, #tx8be.layout<Cx>, #tx8be.layout<NCx>]
// CHECK-SAME: modes = [#tx8be.parallel_mode<Single>, #tx8be.parallel_mode<DP>, #tx8be.parallel_mode<TP>, #tx8be.parallel_mode<Hybrid>]
// CHECK-SAME: pads = [#tx8be.pad_mode<constant>, #tx8be.pad_mode<reflect>, #tx8be.pad_mode<edge>]
// CHECK-SAME: region = #tx8be.region_attr<x_dim = 4, y_dim = 2>
// CHECK-SAME: scopes = [#tx8be.mem_scope<DDR>, #tx8be.mem_scope<SPM>, #tx8be.mem_scope<"3DDRAM">]
func.func @enums() attributes {
  layouts = [#tx8be.layout<Tensor>, #tx8be.layout<NTensor>, #tx8be.layout<Cx>, #tx8be.layout<NCx>],
  scopes = [#tx8be.mem_scope<DDR>, #tx8be.mem_scope<SPM>, #tx8be.mem_scope<"3DDRAM">],
  modes = [#tx8be.parallel_mode<Single>, #tx8be.parallel_mode<DP>, #tx8be.parallel_mode<TP>, #tx8be.parallel_mode<Hybrid>],
  pads = [#tx8be.pad_mode<constant>, #tx8be.pad_mode<reflect>, #tx8be.pad_mode<edge>],
  region = #tx8be.region_attr<x_dim = 4, y_dim = 2>
} {
  return
}
