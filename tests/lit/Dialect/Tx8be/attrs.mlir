// Round trip of the tx8be attributes and enums (seed: dev_attr; MemScopeMode's "3DDRAM"; the schedule's box tables).
// RUN: tx8-opt %s | tx8-opt | FileCheck %s
// RUN: tx8-opt %s --mlir-print-op-generic | tx8-opt | FileCheck %s

// CHECK-LABEL: func.func @backend_attrs
func.func @backend_attrs(%x: tensor<2x64xf32>) -> tensor<2x64xf32> {
  // CHECK: tx8be.Relu %{{.*}} {
  // CHECK-SAME: dev_info = #tx8be.dev_attr<imm_size = 4096, mem_layout = <NCx>, imm_addr = 8192, mem_addr = [0, 512]>
  // CHECK-SAME: layout_str = "NTensor"
  %0 = tx8be.Relu %x {
    layout_str = "NTensor",
    // struct() takes the parameters in any order
    dev_info = #tx8be.dev_attr<mem_addr = [0, 512], imm_size = 4096, mem_layout = #tx8be.layout<NCx>,
                               imm_addr = 8192>
  } : (tensor<2x64xf32>) -> tensor<2x64xf32>
  return %0 : tensor<2x64xf32>
}

// Every enum value, standing alone in a discardable attribute.
// CHECK-LABEL: func.func @enums
// CHECK-SAME: boxes = #tx8be.boxes<rank = 2, start = [0, 0, 4, 0], size = [4, 64, 4, 64], pad_low = [0, 1, 0, 0], pad_high = [0, 0, 0, 1]>
// CHECK-SAME: layouts = [#tx8be.layout<Tensor>, #tx8be.layout<NTensor>, #tx8be.layout<Cx>, #tx8be.layout<NCx>]
// CHECK-SAME: pads = [#tx8be.pad_mode<constant>, #tx8be.pad_mode<reflect>, #tx8be.pad_mode<edge>]
// CHECK-SAME: region = #tx8be.region_attr<x_dim = 4, y_dim = 2>
// CHECK-SAME: scopes = [#tx8be.mem_scope<DDR>, #tx8be.mem_scope<SPM>, #tx8be.mem_scope<"3DDRAM">]
func.func @enums() attributes {
  layouts = [#tx8be.layout<Tensor>, #tx8be.layout<NTensor>, #tx8be.layout<Cx>, #tx8be.layout<NCx>],
  scopes = [#tx8be.mem_scope<DDR>, #tx8be.mem_scope<SPM>, #tx8be.mem_scope<"3DDRAM">],
  pads = [#tx8be.pad_mode<constant>, #tx8be.pad_mode<reflect>, #tx8be.pad_mode<edge>],
  region = #tx8be.region_attr<x_dim = 4, y_dim = 2>,
  boxes = #tx8be.boxes<rank = 2, start = [0, 0, 4, 0], size = [4, 64, 4, 64], pad_low = [0, 1, 0, 0],
                       pad_high = [0, 0, 0, 1]>
} {
  return
}
