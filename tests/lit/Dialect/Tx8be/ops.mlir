// Round trip of every tx8be op: custom form -> print -> parse -> print, and through the generic form.
// RUN: tx8-opt %s | tx8-opt | FileCheck %s
// RUN: tx8-opt %s --mlir-print-op-generic | tx8-opt | FileCheck %s

// CHECK-LABEL: func.func @constants
func.func @constants() -> (tensor<2xf32>, tensor<4xf32>, tensor<3xi64>) {
  // CHECK: tx8be.Constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %0 = tx8be.Constant dense<[1.0, 2.0]> : tensor<2xf32>
  // CHECK: tx8be.Constant dense_resource<weights> : tensor<4xf32>
  %1 = tx8be.Constant dense_resource<weights> : tensor<4xf32>
  // CHECK: tx8be.Constant {layout_str = "Tensor"} dense<[1, 2, 3]> : tensor<3xi64>
  %2 = tx8be.Constant {layout_str = "Tensor"} dense<[1, 2, 3]> : tensor<3xi64>
  return %0, %1, %2 : tensor<2xf32>, tensor<4xf32>, tensor<3xi64>
}

// CHECK-LABEL: func.func @data_movement
func.func @data_movement(%x: tensor<1x8xf16>) -> tensor<1x8xf16> {
  // CHECK: tx8be.LoadConst {const_map_id = 7 : ui32, mem_scope = #tx8be.mem_scope<DDR>} : tensor<1x8xf16>
  %c = tx8be.LoadConst {const_map_id = 7 : ui32, mem_scope = #tx8be.mem_scope<DDR>} : tensor<1x8xf16>
  // CHECK: tx8be.LoadVar %{{.*}} {mem_scope = #tx8be.mem_scope<SPM>} : (tensor<1x8xf16>) -> tensor<1x8xf16>
  %0 = tx8be.LoadVar %x {mem_scope = #tx8be.mem_scope<SPM>} : (tensor<1x8xf16>) -> tensor<1x8xf16>
  // CHECK: tx8be.ChannelNorm %{{.*}} : (tensor<1x8xf16>) -> tensor<1x8xf16>
  %1 = tx8be.ChannelNorm %0 : (tensor<1x8xf16>) -> tensor<1x8xf16>
  %2 = tx8be.Add %1, %c : (tensor<1x8xf16>, tensor<1x8xf16>) -> tensor<1x8xf16>
  // CHECK: tx8be.StoreVar %{{.*}} {mem_scope = #tx8be.mem_scope<"3DDRAM">} : (tensor<1x8xf16>) -> tensor<1x8xf16>
  %3 = tx8be.StoreVar %2 {mem_scope = #tx8be.mem_scope<"3DDRAM">} : (tensor<1x8xf16>) -> tensor<1x8xf16>
  return %3 : tensor<1x8xf16>
}

// CHECK-LABEL: func.func @group
func.func @group(%x: tensor<2x4xf32>, %y: tensor<4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  // CHECK: %[[G:.*]]:2 = tx8be.Group(%{{.*}}, %{{.*}}) {dev_region = #tx8be.region_attr<x_dim = 2, y_dim = 1>, group_tag = 0 : i32, spm_alloc_size = 4096 : ui32} : (tensor<2x4xf32>, tensor<4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  // CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<2x4xf32>, %[[B:.*]]: tensor<4xf32>):
  // CHECK-NEXT: %[[C:.*]] = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<4xf32>
  // CHECK-NEXT: %[[S:.*]] = tx8be.Add %[[A]], %[[B]]
  // CHECK-NEXT: %[[M:.*]] = tx8be.Mul %[[S]], %[[C]]
  // CHECK-NEXT: tx8be.Return %[[S]], %[[M]] : tensor<2x4xf32>, tensor<2x4xf32>
  // CHECK-NEXT: }
  %0:2 = tx8be.Group(%x, %y) {dev_region = #tx8be.region_attr<x_dim = 2, y_dim = 1>, spm_alloc_size = 4096 : ui32,
                              group_tag = 0 : i32} : (tensor<2x4xf32>, tensor<4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  ^bb0(%a: tensor<2x4xf32>, %b: tensor<4xf32>):
    %c = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<4xf32>
    %s = tx8be.Add %a, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    %m = tx8be.Mul %s, %c : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    tx8be.Return %s, %m : tensor<2x4xf32>, tensor<2x4xf32>
  }
  // CHECK: return %[[G]]#0, %[[G]]#1
  return %0#0, %0#1 : tensor<2x4xf32>, tensor<2x4xf32>
}

// CHECK-LABEL: func.func @empty_group
func.func @empty_group() {
  // CHECK: tx8be.Group() : () -> () {
  // CHECK-NEXT: tx8be.Return
  tx8be.Group() : () -> () {
    tx8be.Return
  }
  return
}

// CHECK-LABEL: func.func @normalization
func.func @normalization(%x: tensor<2x4x8x8xbf16>, %c: tensor<4xf32>, %l: tensor<2x5x6xf32>, %ls: tensor<6xf32>)
    -> (tensor<2x4x8x8xbf16>, tensor<2x5x6xf32>, tensor<2x5x6xf32>, tensor<2x5x6xf32>, tensor<2x5x6xf32>) {
  // CHECK: tx8be.BatchNorm_Inference %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {layout_str = "NCHW"} : (tensor<2x4x8x8xbf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x8x8xbf16>
  %0 = tx8be.BatchNorm_Inference %x, %c, %c, %c, %c {layout_str = "NCHW"}
      : (tensor<2x4x8x8xbf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x8x8xbf16>
  // CHECK: tx8be.LayerNorm %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-03 : f32} : (tensor<2x5x6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x5x6xf32>
  %1 = tx8be.LayerNorm %l, %ls, %ls {epsilon = 1.0e-3 : f32} : (tensor<2x5x6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x5x6xf32>
  // CHECK: tx8be.LayerNorm %{{.*}}, %{{.*}} {axis = 2 : i64} : (tensor<2x5x6xf32>, tensor<6xf32>) -> tensor<2x5x6xf32>
  %2 = tx8be.LayerNorm %l, %ls {axis = 2 : i64} : (tensor<2x5x6xf32>, tensor<6xf32>) -> tensor<2x5x6xf32>
  // CHECK: tx8be.Softmax %{{.*}} {axis = 1 : i64} : (tensor<2x5x6xf32>) -> tensor<2x5x6xf32>
  %3 = tx8be.Softmax %l {axis = 1 : i64} : (tensor<2x5x6xf32>) -> tensor<2x5x6xf32>
  // CHECK: tx8be.LogSoftmax %{{.*}} : (tensor<2x5x6xf32>) -> tensor<2x5x6xf32>
  %4 = tx8be.LogSoftmax %l : (tensor<2x5x6xf32>) -> tensor<2x5x6xf32>
  return %0, %1, %2, %3, %4 : tensor<2x4x8x8xbf16>, tensor<2x5x6xf32>, tensor<2x5x6xf32>, tensor<2x5x6xf32>, tensor<2x5x6xf32>
}

// CHECK-LABEL: func.func @matrix
func.func @matrix(%a: tensor<3x5xf32>, %b: tensor<4x5xf32>, %c: tensor<4xf32>, %ba: tensor<2x1x3x5xf32>, %bb: tensor<6x5x7xf32>)
    -> (tensor<3x4xf32>, tensor<2x6x3x7xf32>) {
  // CHECK: tx8be.Gemm %{{.*}}, %{{.*}}, %{{.*}} {alpha = 5.000000e-01 : f32, beta = 2.000000e+00 : f32, transB = true} : (tensor<3x5xf32>, tensor<4x5xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %0 = tx8be.Gemm %a, %b, %c {alpha = 0.5 : f32, beta = 2.0 : f32, transB = true} : (tensor<3x5xf32>, tensor<4x5xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  // CHECK: tx8be.MatMul %{{.*}}, %{{.*}} : (tensor<2x1x3x5xf32>, tensor<6x5x7xf32>) -> tensor<2x6x3x7xf32>
  %1 = tx8be.MatMul %ba, %bb : (tensor<2x1x3x5xf32>, tensor<6x5x7xf32>) -> tensor<2x6x3x7xf32>
  return %0, %1 : tensor<3x4xf32>, tensor<2x6x3x7xf32>
}

// CHECK-LABEL: func.func @convolution
func.func @convolution(%x: tensor<1x4x9x9xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>, %x1: tensor<2x3x10xf16>,
                       %w1: tensor<3x1x4xf16>, %x3: tensor<1x2x4x4x4xf32>, %w3: tensor<2x2x2x2x2xf32>,
                       %wt: tensor<4x3x3x3xf32>)
    -> (tensor<1x6x5x3xf32>, tensor<2x3x7xf16>, tensor<1x2x3x3x3xf32>, tensor<1x6x20x20xf32>) {
  // CHECK: tx8be.Conv %{{.*}}, %{{.*}}, %{{.*}} {dilations = array<i64: 1, 2>, group = 2 : i64, pads = array<i64: 1, 0, 1, 0>, strides = array<i64: 2, 2>} : (tensor<1x4x9x9xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x5x3xf32>
  %0 = tx8be.Conv %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 0, 1, 0>, dilations = array<i64: 1, 2>, group = 2 : i64}
      : (tensor<1x4x9x9xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x5x3xf32>
  // CHECK: tx8be.Conv %{{.*}}, %{{.*}} {group = 3 : i64} : (tensor<2x3x10xf16>, tensor<3x1x4xf16>) -> tensor<2x3x7xf16>
  %1 = tx8be.Conv %x1, %w1 {group = 3 : i64} : (tensor<2x3x10xf16>, tensor<3x1x4xf16>) -> tensor<2x3x7xf16>
  // CHECK: tx8be.Conv %{{.*}}, %{{.*}} : (tensor<1x2x4x4x4xf32>, tensor<2x2x2x2x2xf32>) -> tensor<1x2x3x3x3xf32>
  %2 = tx8be.Conv %x3, %w3 : (tensor<1x2x4x4x4xf32>, tensor<2x2x2x2x2xf32>) -> tensor<1x2x3x3x3xf32>
  // CHECK: tx8be.ConvTranspose %{{.*}}, %{{.*}}, %{{.*}} {group = 2 : i64, output_padding = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x4x9x9xf32>, tensor<4x3x3x3xf32>, tensor<6xf32>) -> tensor<1x6x20x20xf32>
  %3 = tx8be.ConvTranspose %x, %wt, %b {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, output_padding = array<i64: 1, 1>, group = 2 : i64}
      : (tensor<1x4x9x9xf32>, tensor<4x3x3x3xf32>, tensor<6xf32>) -> tensor<1x6x20x20xf32>
  return %0, %1, %2, %3 : tensor<1x6x5x3xf32>, tensor<2x3x7xf16>, tensor<1x2x3x3x3xf32>, tensor<1x6x20x20xf32>
}

// CHECK-LABEL: func.func @pooling
func.func @pooling(%x: tensor<1x3x8x8xf32>, %x1: tensor<2x3x9xf32>)
    -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>, tensor<2x3x4xf32>, tensor<1x3x1x1xf32>, tensor<2x3x1xf32>) {
  // CHECK: tx8be.MaxPool %{{.*}} {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  %0 = tx8be.MaxPool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  // CHECK: tx8be.AvgPool %{{.*}} {ceil_mode = true, count_include_pad = true, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  %1 = tx8be.AvgPool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode = true, count_include_pad = true} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  // CHECK: tx8be.MaxPool %{{.*}} {dilations = array<i64: 2>, kernel_shape = array<i64: 2>, strides = array<i64: 2>} : (tensor<2x3x9xf32>) -> tensor<2x3x4xf32>
  %2 = tx8be.MaxPool %x1 {kernel_shape = array<i64: 2>, strides = array<i64: 2>, dilations = array<i64: 2>} : (tensor<2x3x9xf32>) -> tensor<2x3x4xf32>
  // CHECK: tx8be.GlobalAvgPool %{{.*}} : (tensor<1x3x8x8xf32>) -> tensor<1x3x1x1xf32>
  %3 = tx8be.GlobalAvgPool %x : (tensor<1x3x8x8xf32>) -> tensor<1x3x1x1xf32>
  // CHECK: tx8be.GlobalMaxPool %{{.*}} : (tensor<2x3x9xf32>) -> tensor<2x3x1xf32>
  %4 = tx8be.GlobalMaxPool %x1 : (tensor<2x3x9xf32>) -> tensor<2x3x1xf32>
  return %0, %1, %2, %3, %4 : tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>, tensor<2x3x4xf32>, tensor<1x3x1x1xf32>, tensor<2x3x1xf32>
}

// CHECK-LABEL: func.func @binary
func.func @binary(%a: tensor<2x1x4xf32>, %b: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  // CHECK: tx8be.Add %{{.*}}, %{{.*}} : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  %0 = tx8be.Add %a, %b : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  // CHECK: tx8be.Sub %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  %1 = tx8be.Sub %0, %b : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  // CHECK: tx8be.Mul
  %2 = tx8be.Mul %1, %a : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: tx8be.Div
  %3 = tx8be.Div %2, %a : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: tx8be.Max
  %4 = tx8be.Max %3, %b : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  // CHECK: tx8be.Min
  %5 = tx8be.Min %4, %b : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  // CHECK: tx8be.Pow
  %6 = tx8be.Pow %5, %b : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  // CHECK: tx8be.PRelu %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  %7 = tx8be.PRelu %6, %b : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  return %7 : tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<2x3xf16>) -> tensor<2x3xf16> {
  // CHECK: tx8be.Relu %{{.*}} : (tensor<2x3xf16>) -> tensor<2x3xf16>
  %0 = tx8be.Relu %x : (tensor<2x3xf16>) -> tensor<2x3xf16>
  // CHECK: tx8be.LeakyRelu %{{.*}} {alpha = 2.000000e-01 : f32}
  %1 = tx8be.LeakyRelu %0 {alpha = 0.2 : f32} : (tensor<2x3xf16>) -> tensor<2x3xf16>
  // CHECK: tx8be.Elu %{{.*}} {alpha = 5.000000e-01 : f32}
  %2 = tx8be.Elu %1 {alpha = 0.5 : f32} : (tensor<2x3xf16>) -> tensor<2x3xf16>
  // CHECK: tx8be.Selu %{{.*}} : (tensor<2x3xf16>)
  %3 = tx8be.Selu %2 : (tensor<2x3xf16>) -> tensor<2x3xf16>
  // CHECK: tx8be.HardSigmoid %{{.*}} {alpha = 1.000000e-01 : f32, beta = 2.500000e-01 : f32}
  %4 = tx8be.HardSigmoid %3 {alpha = 0.1 : f32, beta = 0.25 : f32} : (tensor<2x3xf16>) -> tensor<2x3xf16>
  // CHECK: tx8be.Clip %{{.*}} {max = 6.000000e+00 : f32, min = 0.000000e+00 : f32}
  %5 = tx8be.Clip %4 {min = 0.0 : f32, max = 6.0 : f32} : (tensor<2x3xf16>) -> tensor<2x3xf16>
  // CHECK: tx8be.Gelu %{{.*}} {approximate = "tanh"}
  %6 = tx8be.Gelu %5 {approximate = "tanh"} : (tensor<2x3xf16>) -> tensor<2x3xf16>
  // CHECK: tx8be.Sigmoid
  %7 = tx8be.Sigmoid %6 : (tensor<2x3xf16>) -> tensor<2x3xf16>
  // CHECK: tx8be.Tanh
  %8 = tx8be.Tanh %7 : (tensor<2x3xf16>) -> tensor<2x3xf16>
  // CHECK: tx8be.Softplus
  %9 = tx8be.Softplus %8 : (tensor<2x3xf16>) -> tensor<2x3xf16>
  // CHECK: tx8be.Softsign
  %10 = tx8be.Softsign %9 : (tensor<2x3xf16>) -> tensor<2x3xf16>
  // CHECK: tx8be.Exp
  %11 = tx8be.Exp %10 : (tensor<2x3xf16>) -> tensor<2x3xf16>
  // CHECK: tx8be.Log
  %12 = tx8be.Log %11 : (tensor<2x3xf16>) -> tensor<2x3xf16>
  // CHECK: tx8be.Abs
  %13 = tx8be.Abs %12 : (tensor<2x3xf16>) -> tensor<2x3xf16>
  // CHECK: tx8be.Neg
  %14 = tx8be.Neg %13 : (tensor<2x3xf16>) -> tensor<2x3xf16>
  // CHECK: tx8be.Sqrt
  %15 = tx8be.Sqrt %14 : (tensor<2x3xf16>) -> tensor<2x3xf16>
  // CHECK: tx8be.Rsqrt
  %16 = tx8be.Rsqrt %15 : (tensor<2x3xf16>) -> tensor<2x3xf16>
  // CHECK: tx8be.Reciprocal
  %17 = tx8be.Reciprocal %16 : (tensor<2x3xf16>) -> tensor<2x3xf16>
  // CHECK: tx8be.Erf
  %18 = tx8be.Erf %17 : (tensor<2x3xf16>) -> tensor<2x3xf16>
  return %18 : tensor<2x3xf16>
}

// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: tensor<2x3x4xf32>) -> (tensor<2x1x1xf32>, tensor<2xf32>, tensor<1x1x1xf32>, tensor<3x4xf32>) {
  // CHECK: tx8be.ReduceSum %{{.*}} {axes = array<i64: 1, -1>} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  %0 = tx8be.ReduceSum %x {axes = array<i64: 1, -1>} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  // CHECK: tx8be.ReduceMean %{{.*}} {axes = array<i64: 1, 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2xf32>
  %1 = tx8be.ReduceMean %x {axes = array<i64: 1, 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2xf32>
  // CHECK: tx8be.ReduceMax %{{.*}} : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  %2 = tx8be.ReduceMax %x : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  // CHECK: tx8be.ReduceMin %{{.*}} {axes = array<i64: 0>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<3x4xf32>
  %3 = tx8be.ReduceMin %x {axes = array<i64: 0>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<3x4xf32>
  return %0, %1, %2, %3 : tensor<2x1x1xf32>, tensor<2xf32>, tensor<1x1x1xf32>, tensor<3x4xf32>
}

// CHECK-LABEL: func.func @shape_ops
func.func @shape_ops(%x: tensor<2x3x4xf32>, %y: tensor<2x5x4xf32>, %idx: tensor<2x2xi64>, %e: tensor<10x3xf32>)
    -> (tensor<6x4xf32>, tensor<4x2x3xf32>, tensor<2x8x4xf32>, tensor<2x2x2xf32>, tensor<2x2x3xf32>, tensor<2x5x8xf32>, tensor<2x3x4xf16>) {
  // CHECK: tx8be.Reshape %{{.*}} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %0 = tx8be.Reshape %x : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  // CHECK: tx8be.Transpose %{{.*}} {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %1 = tx8be.Transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  // CHECK: tx8be.Concat %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x8x4xf32>
  %2 = tx8be.Concat %x, %y {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x8x4xf32>
  // CHECK: tx8be.Slice %{{.*}} {offsets = array<i64: 0, 2, 3>, sizes = array<i64: 2, 2, 2>, strides = array<i64: 1, -1, -2>} : (tensor<2x3x4xf32>) -> tensor<2x2x2xf32>
  %3 = tx8be.Slice %x {offsets = array<i64: 0, 2, 3>, sizes = array<i64: 2, 2, 2>, strides = array<i64: 1, -1, -2>} : (tensor<2x3x4xf32>) -> tensor<2x2x2xf32>
  // CHECK: tx8be.Gather %{{.*}}, %{{.*}} : (tensor<10x3xf32>, tensor<2x2xi64>) -> tensor<2x2x3xf32>
  %4 = tx8be.Gather %e, %idx : (tensor<10x3xf32>, tensor<2x2xi64>) -> tensor<2x2x3xf32>
  // CHECK: tx8be.Pad %{{.*}} {mode = #tx8be.pad_mode<reflect>, pads = array<i64: 0, 1, 2, 0, 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x5x8xf32>
  %5 = tx8be.Pad %x {pads = array<i64: 0, 1, 2, 0, 1, 2>, mode = #tx8be.pad_mode<reflect>} : (tensor<2x3x4xf32>) -> tensor<2x5x8xf32>
  // CHECK: tx8be.Cast %{{.*}} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf16>
  %6 = tx8be.Cast %x : (tensor<2x3x4xf32>) -> tensor<2x3x4xf16>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<6x4xf32>, tensor<4x2x3xf32>, tensor<2x8x4xf32>, tensor<2x2x2xf32>, tensor<2x2x3xf32>, tensor<2x5x8xf32>, tensor<2x3x4xf16>
}

// CHECK-LABEL: func.func @pad_constant
func.func @pad_constant(%x: tensor<1x2xf32>) -> tensor<3x2xf32> {
  // CHECK: tx8be.Pad %{{.*}} {pads = array<i64: 1, 0, 1, 0>, value = 1.500000e+00 : f32} : (tensor<1x2xf32>) -> tensor<3x2xf32>
  %0 = tx8be.Pad %x {pads = array<i64: 1, 0, 1, 0>, mode = #tx8be.pad_mode<constant>, value = 1.5 : f32} : (tensor<1x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
