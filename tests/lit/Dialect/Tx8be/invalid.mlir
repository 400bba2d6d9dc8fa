// Every verifier message of the tx8be ops, one case each.
// RUN: tx8-opt %s -split-input-file -verify-diagnostics

func.func @broadcast(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'tx8be.Add' op operand shapes 2x3 and 4x3 are not broadcast-compatible (result dim 0)}}
  %0 = tx8be.Add %a, %b : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @result_type(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tx8be.Relu' op result #0 has type 'tensor<3x2xf32>', but the operands give 'tensor<2x3xf32>'}}
  %0 = tx8be.Relu %a : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @element_type(%a: tensor<2x3xi32>) {
  // expected-error @+1 {{'tx8be.Sigmoid' op operand #0 must be ranked tensor of 32-bit float or 16-bit float or bfloat16 type values}}
  %0 = tx8be.Sigmoid %a : (tensor<2x3xi32>) -> tensor<2x3xi32>
  return
}

// -----

func.func @cast_shape(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tx8be.Cast' op result #0 has type 'tensor<3x2xf16>', but the operands give 'tensor<2x3xf16>'}}
  %0 = tx8be.Cast %a : (tensor<2x3xf32>) -> tensor<3x2xf16>
  return
}

// -----

func.func @reduce_axis(%a: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'tx8be.ReduceSum' op axes[1] = 3 is out of range for rank 3}}
  %0 = tx8be.ReduceSum %a {axes = array<i64: 0, 3>} : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
  return
}

// -----

func.func @reduce_twice(%a: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'tx8be.ReduceMax' op axes names dim 1 twice}}
  %0 = tx8be.ReduceMax %a {axes = array<i64: 1, -2>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  return
}

// -----

func.func @softmax_axis(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tx8be.Softmax' op axis = 2 is out of range for rank 2 (expected -2..1)}}
  %0 = tx8be.Softmax %a {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @bn_elements(%x: tensor<1x4x8x8xf32>, %s: tensor<3xf32>, %c: tensor<4xf32>) {
  // expected-error @+1 {{'tx8be.BatchNorm_Inference' op scale has 3 elements, expected 4 (channel dim of input 1x4x8x8)}}
  %0 = tx8be.BatchNorm_Inference %x, %s, %c, %c, %c : (tensor<1x4x8x8xf32>, tensor<3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @bn_channel_last(%x: tensor<1x4x8x8xf32>, %c: tensor<8xf32>) {
  // layout_str is the device image's order, not the shape's: with NHWC the channel is still dim 1 (the 4), so
  // parameters sized for the last dim are wrong.
  // expected-error @+1 {{'tx8be.BatchNorm_Inference' op scale has 8 elements, expected 4 (channel dim of input 1x4x8x8)}}
  %0 = tx8be.BatchNorm_Inference %x, %c, %c, %c, %c {layout_str = "NHWC"} : (tensor<1x4x8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @bn_vector_shape(%x: tensor<1x4x8x8xf32>, %c: tensor<4xf32>, %m: tensor<2x2xf32>) {
  // expected-error @+1 {{'tx8be.BatchNorm_Inference' op mean has shape 2x2, expected [C] or rank 4 with all extents 1 but the channel dim 1}}
  %0 = tx8be.BatchNorm_Inference %x, %c, %c, %m, %c : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x2xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @bn_rank(%x: tensor<4xf32>, %c: tensor<4xf32>) {
  // expected-error @+1 {{'tx8be.BatchNorm_Inference' op input must have rank >= 2 (N, C, ...), got 4}}
  %0 = tx8be.BatchNorm_Inference %x, %c, %c, %c, %c : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @layernorm_scale(%x: tensor<2x3x4xf32>, %s: tensor<5xf32>) {
  // expected-error @+1 {{'tx8be.LayerNorm' op scale shape 5 does not broadcast to the normalised shape 3x4 (input dims 1..2)}}
  %0 = tx8be.LayerNorm %x, %s {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<5xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @gemm_rank(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'tx8be.Gemm' op A must be 2-D, got 2x3x4}}
  %0 = tx8be.Gemm %a, %b : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @gemm_b_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'tx8be.Gemm' op B must be 2-D, got 3}}
  %0 = tx8be.Gemm %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @gemm_inner(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'tx8be.Gemm' op inner dimensions differ: op(A) is 2x3, op(B) is 4x5 (transA = 0, transB = 0)}}
  %0 = tx8be.Gemm %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @gemm_c(%a: tensor<2x4xf32>, %b: tensor<4x5xf32>, %c: tensor<3xf32>) {
  // expected-error @+1 {{'tx8be.Gemm' op C shape 3 does not broadcast to the result 2x5}}
  %0 = tx8be.Gemm %a, %b, %c : (tensor<2x4xf32>, tensor<4x5xf32>, tensor<3xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @matmul_rank(%a: tensor<3xf32>, %b: tensor<3x5xf32>) {
  // expected-error @+1 {{'tx8be.MatMul' op operands must have rank >= 2, got A 3 and B 3x5}}
  %0 = tx8be.MatMul %a, %b : (tensor<3xf32>, tensor<3x5xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @matmul_inner(%a: tensor<2x3x4xf32>, %b: tensor<5x6xf32>) {
  // expected-error @+1 {{'tx8be.MatMul' op inner dimensions differ: A is 2x3x4, B is 5x6 (4 vs 5)}}
  %0 = tx8be.MatMul %a, %b : (tensor<2x3x4xf32>, tensor<5x6xf32>) -> tensor<2x3x6xf32>
  return
}

// -----

func.func @matmul_batch(%a: tensor<2x3x4xf32>, %b: tensor<3x4x6xf32>) {
  // expected-error @+1 {{'tx8be.MatMul' op batch dims of A 2x3x4 and B 3x4x6 are not broadcast-compatible}}
  %0 = tx8be.MatMul %a, %b : (tensor<2x3x4xf32>, tensor<3x4x6xf32>) -> tensor<2x3x6xf32>
  return
}

// -----

func.func @conv_input_rank(%x: tensor<4x8xf32>, %w: tensor<4x8xf32>) {
  // expected-error @+1 {{'tx8be.Conv' op input must have rank >= 3 (N, C, spatial...), got 4x8}}
  %0 = tx8be.Conv %x, %w : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @conv_weight_rank(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3xf32>) {
  // expected-error @+1 {{'tx8be.Conv' op weight has rank 3, expected 4 (same as input 1x4x8x8)}}
  %0 = tx8be.Conv %x, %w : (tensor<1x4x8x8xf32>, tensor<6x4x3xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @conv_group_zero(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error @+1 {{'tx8be.Conv' op group = 0, must be >= 1}}
  %0 = tx8be.Conv %x, %w {group = 0 : i64} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @conv_group_input(%x: tensor<1x6x8x8xf32>, %w: tensor<8x1x3x3xf32>) {
  // expected-error @+1 {{'tx8be.Conv' op input channels 6 are not divisible by group 4}}
  %0 = tx8be.Conv %x, %w {group = 4 : i64} : (tensor<1x6x8x8xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x6x6xf32>
  return
}

// -----

func.func @conv_group_weight(%x: tensor<1x4x8x8xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{'tx8be.Conv' op weight 8x3x3x3 has 3 input channels per group, expected 2 (input channels 4 / group 2)}}
  %0 = tx8be.Conv %x, %w {group = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
  return
}

// -----

func.func @conv_group_output(%x: tensor<1x4x8x8xf32>, %w: tensor<6x1x3x3xf32>) {
  // expected-error @+1 {{'tx8be.Conv' op weight has 6 output channels, not divisible by group 4}}
  %0 = tx8be.Conv %x, %w {group = 4 : i64} : (tensor<1x4x8x8xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @conv_bias(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+1 {{'tx8be.Conv' op bias has shape 5, expected [6] (weight output channels)}}
  %0 = tx8be.Conv %x, %w, %b : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>, tensor<5xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @conv_strides(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error @+1 {{'tx8be.Conv' op strides has 3 entries, expected 2 (one per spatial dim)}}
  %0 = tx8be.Conv %x, %w {strides = array<i64: 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @conv_dilation_zero(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error @+1 {{'tx8be.Conv' op dilations[1] = 0, must be >= 1}}
  %0 = tx8be.Conv %x, %w {dilations = array<i64: 1, 0>} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @conv_pads(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error @+1 {{'tx8be.Conv' op pads has 2 entries, expected 4 (begin and end per spatial dim)}}
  %0 = tx8be.Conv %x, %w {pads = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x8x8xf32>
  return
}

// -----

func.func @conv_window(%x: tensor<1x4x4x8xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error @+1 {{'tx8be.Conv' op window of 5 elements (kernel 3, dilation 2) is larger than the padded input extent 4 in spatial dim 0}}
  %0 = tx8be.Conv %x, %w {dilations = array<i64: 2, 1>} : (tensor<1x4x4x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x1x6xf32>
  return
}

// -----

func.func @convt_weight(%x: tensor<1x4x5x5xf32>, %w: tensor<6x3x3x3xf32>) {
  // expected-error @+1 {{'tx8be.ConvTranspose' op weight 6x3x3x3 has 6 input channels, expected 4 (input channels)}}
  %0 = tx8be.ConvTranspose %x, %w : (tensor<1x4x5x5xf32>, tensor<6x3x3x3xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @convt_bias(%x: tensor<1x4x5x5xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'tx8be.ConvTranspose' op bias has shape 4, expected [3] (output channels)}}
  %0 = tx8be.ConvTranspose %x, %w, %b : (tensor<1x4x5x5xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @convt_output_padding(%x: tensor<1x4x5x5xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'tx8be.ConvTranspose' op output_padding[0] = 2 must be smaller than the stride or the dilation}}
  %0 = tx8be.ConvTranspose %x, %w {strides = array<i64: 2, 2>, output_padding = array<i64: 2, 0>} : (tensor<1x4x5x5xf32>, tensor<4x3x3x3xf32>) -> tensor<1x3x13x11xf32>
  return
}

// -----

func.func @convt_output_padding_count(%x: tensor<1x4x5x5xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'tx8be.ConvTranspose' op output_padding has 1 entries, expected 2 (one per spatial dim)}}
  %0 = tx8be.ConvTranspose %x, %w {output_padding = array<i64: 0>} : (tensor<1x4x5x5xf32>, tensor<4x3x3x3xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @convt_empty(%x: tensor<1x4x1x1xf32>, %w: tensor<4x3x1x1xf32>) {
  // expected-error @+1 {{'tx8be.ConvTranspose' op output extent 0 in spatial dim 0 is not positive}}
  %0 = tx8be.ConvTranspose %x, %w {pads = array<i64: 1, 0, 0, 0>} : (tensor<1x4x1x1xf32>, tensor<4x3x1x1xf32>) -> tensor<1x3x1x1xf32>
  return
}

// -----

func.func @pool_rank(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'tx8be.MaxPool' op input must have rank >= 3 (N, C, spatial...), got 4x4}}
  %0 = tx8be.MaxPool %x {kernel_shape = array<i64: 2>} : (tensor<4x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @pool_kernel(%x: tensor<1x1x4x4xf32>) {
  // expected-error @+1 {{'tx8be.AvgPool' op kernel_shape has 1 entries, expected 2 (one per spatial dim of input 1x1x4x4)}}
  %0 = tx8be.AvgPool %x {kernel_shape = array<i64: 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32>
  return
}

// -----

func.func @pool_kernel_zero(%x: tensor<1x1x4x4xf32>) {
  // expected-error @+1 {{'tx8be.MaxPool' op kernel_shape[0] = 0, must be >= 1}}
  %0 = tx8be.MaxPool %x {kernel_shape = array<i64: 0, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32>
  return
}

// -----

func.func @pool_pads(%x: tensor<1x1x4x4xf32>) {
  // expected-error @+1 {{'tx8be.MaxPool' op pads[1] = -1, must be >= 0}}
  %0 = tx8be.MaxPool %x {kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, -1, 0, 0>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32>
  return
}

// -----

func.func @global_pool_rank(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'tx8be.GlobalAvgPool' op input must have rank >= 3 (N, C, spatial...), got 4x4}}
  %0 = tx8be.GlobalAvgPool %x : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @prelu(%x: tensor<1x4x5xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{'tx8be.PRelu' op slope shape 3 does not broadcast to input 1x4x5}}
  %0 = tx8be.PRelu %x, %s : (tensor<1x4x5xf32>, tensor<3xf32>) -> tensor<1x4x5xf32>
  return
}

// -----

func.func @reshape_count(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'tx8be.Reshape' op result 4x4 has 16 elements, input 2x3x4 has 24}}
  %0 = tx8be.Reshape %x : (tensor<2x3x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @reshape_infer(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'tx8be.Reshape' op cannot reshape 2x3x4 (24 elements) to 5x?}}
  %0 = tx8be.Reshape %x : (tensor<2x3x4xf32>) -> tensor<5x?xf32>
  return
}

// -----

func.func @transpose_size(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'tx8be.Transpose' op perm has 2 entries, expected 3 (input rank)}}
  %0 = tx8be.Transpose %x {perm = array<i64: 1, 0>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  return
}

// -----

func.func @transpose_perm(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'tx8be.Transpose' op perm [0, 2, 2] is not a permutation of 0..2}}
  %0 = tx8be.Transpose %x {perm = array<i64: 0, 2, 2>} : (tensor<2x3x4xf32>) -> tensor<2x4x4xf32>
  return
}

// -----

func.func @concat_none() {
  // (SameOperandsAndResultElementType rejects it before the shape rule would.)
  // expected-error @+1 {{'tx8be.Concat' op expected 1 or more operands, but found 0}}
  %0 = tx8be.Concat {axis = 0 : i64} : () -> tensor<2xf32>
  return
}

// -----

func.func @concat_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'tx8be.Concat' op axis = -3 is out of range for rank 2 (expected -2..1)}}
  %0 = tx8be.Concat %x, %x {axis = -3 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concat_rank(%x: tensor<2x3xf32>, %y: tensor<2x3x1xf32>) {
  // expected-error @+1 {{'tx8be.Concat' op input #1 has rank 3, input #0 has rank 2}}
  %0 = tx8be.Concat %x, %y {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3x1xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concat_dims(%x: tensor<2x3xf32>, %y: tensor<2x4xf32>) {
  // expected-error @+1 {{'tx8be.Concat' op input #1 2x4 differs from input #0 2x3 in dim 1 (only axis 0 may differ)}}
  %0 = tx8be.Concat %x, %y {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @slice_entries(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{'tx8be.Slice' op sizes has 1 entries, expected 2 (input rank)}}
  %0 = tx8be.Slice %x {offsets = array<i64: 0, 0>, sizes = array<i64: 2>, strides = array<i64: 1, 1>} : (tensor<2x4xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @slice_stride(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{'tx8be.Slice' op strides[1] is 0}}
  %0 = tx8be.Slice %x {offsets = array<i64: 0, 0>, sizes = array<i64: 2, 2>, strides = array<i64: 1, 0>} : (tensor<2x4xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @slice_size(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{'tx8be.Slice' op sizes[0] = -1 is negative}}
  %0 = tx8be.Slice %x {offsets = array<i64: 0, 0>, sizes = array<i64: -1, 2>, strides = array<i64: 1, 1>} : (tensor<2x4xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @slice_range(%x: tensor<2x5xf32>) {
  // expected-error @+1 {{'tx8be.Slice' op slice reads index 7 of input dim 1, outside its extent 5 (offset 1, size 4, stride 2)}}
  %0 = tx8be.Slice %x {offsets = array<i64: 0, 1>, sizes = array<i64: 2, 4>, strides = array<i64: 1, 2>} : (tensor<2x5xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @gather_axis(%x: tensor<2x5xf32>, %i: tensor<3xi64>) {
  // expected-error @+1 {{'tx8be.Gather' op axis = 2 is out of range for rank 2 (expected -2..1)}}
  %0 = tx8be.Gather %x, %i {axis = 2 : i64} : (tensor<2x5xf32>, tensor<3xi64>) -> tensor<2x3xf32>
  return
}

// -----

func.func @gather_indices(%x: tensor<2x5xf32>, %i: tensor<3xf32>) {
  // expected-error @+1 {{'tx8be.Gather' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = tx8be.Gather %x, %i : (tensor<2x5xf32>, tensor<3xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @pad_entries(%x: tensor<2x5xf32>) {
  // expected-error @+1 {{'tx8be.Pad' op pads has 2 entries, expected 4 (2 x rank 2)}}
  %0 = tx8be.Pad %x {pads = array<i64: 1, 1>} : (tensor<2x5xf32>) -> tensor<3x6xf32>
  return
}

// -----

func.func @pad_negative(%x: tensor<2x5xf32>) {
  // expected-error @+1 {{'tx8be.Pad' op pads[3] = -1 is negative}}
  %0 = tx8be.Pad %x {pads = array<i64: 0, 0, 0, -1>} : (tensor<2x5xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @pad_reflect(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{'tx8be.Pad' op reflect padding 4 in dim 1 must be smaller than the extent 4}}
  %0 = tx8be.Pad %x {pads = array<i64: 0, 4, 0, 0>, mode = #tx8be.pad_mode<reflect>} : (tensor<2x4xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @pad_edge_empty(%x: tensor<2x0xf32>) {
  // expected-error @+1 {{'tx8be.Pad' op cannot edge-pad the empty dim 1}}
  %0 = tx8be.Pad %x {pads = array<i64: 0, 1, 0, 0>, mode = #tx8be.pad_mode<edge>} : (tensor<2x0xf32>) -> tensor<2x1xf32>
  return
}

// -----

func.func @constant_sparse() {
  // expected-error @+1 {{'tx8be.Constant' op value must be a DenseElementsAttr or a DenseResourceElementsAttr}}
  %0 = tx8be.Constant sparse<[[0]], [1.0]> : tensor<2xf32>
  return
}

// -----

func.func @group_arguments(%x: tensor<2xf32>) {
  // expected-error @+1 {{'tx8be.Group' op body block has 0 arguments, expected 1 (one per operand)}}
  %0 = tx8be.Group(%x) : (tensor<2xf32>) -> tensor<2xf32> {
    %c = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<2xf32>
    tx8be.Return %c : tensor<2xf32>
  }
  return
}

// -----

func.func @group_argument_type(%x: tensor<2xf32>) {
  // expected-error @+1 {{'tx8be.Group' op body argument #0 has type 'tensor<2xf16>', but operand #0 has type 'tensor<2xf32>'}}
  %0 = tx8be.Group(%x) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf16>):
    %c = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<2xf32>
    tx8be.Return %c : tensor<2xf32>
  }
  return
}

// -----

func.func @group_return_count(%x: tensor<2xf32>) {
  %0 = tx8be.Group(%x) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    // expected-error @+1 {{'tx8be.Return' op returns 2 values, but the enclosing group has 1 results}}
    tx8be.Return %a, %a : tensor<2xf32>, tensor<2xf32>
  }
  return
}

// -----

func.func @group_return_type(%x: tensor<2xf32>) {
  %0 = tx8be.Group(%x) : (tensor<2xf32>) -> tensor<3xf32> {
  ^bb0(%a: tensor<2xf32>):
    // expected-error @+1 {{'tx8be.Return' op operand #0 has type 'tensor<2xf32>', but the group's result #0 has type 'tensor<3xf32>'}}
    tx8be.Return %a : tensor<2xf32>
  }
  return
}

// -----

func.func @group_isolated(%x: tensor<2xf32>) {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = tx8be.Group() : () -> tensor<2xf32> {
    // expected-error @+1 {{'tx8be.Relu' op using value defined outside the region}}
    %r = tx8be.Relu %x : (tensor<2xf32>) -> tensor<2xf32>
    tx8be.Return %r : tensor<2xf32>
  }
  return
}

// -----

func.func @return_outside_group() {
  // expected-error @+1 {{'tx8be.Return' op expects parent op 'tx8be.Group'}}
  tx8be.Return
}

// -----

func.func @mem_scope(%x: tensor<2xf32>) {
  // expected-error @+2 {{expected a memory scope: DDR, SPM or "3DDRAM", got 'HBM'}}
  // expected-error @+1 {{failed to parse Tx8be_MemScopeModeAttr parameter 'value'}}
  %0 = tx8be.LoadVar %x {mem_scope = #tx8be.mem_scope<HBM>} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @quantize_scale_shape(%x: tensor<2x3xf32>, %s: tensor<2xf32>, %z: tensor<2xi8>) {
  // expected-error @+1 {{'tx8be.QuantizeLinear' op scale's shape 2 does not broadcast to the input's 2x3}}
  %0 = tx8be.QuantizeLinear %x, %s, %z : (tensor<2x3xf32>, tensor<2xf32>, tensor<2xi8>) -> tensor<2x3xi8>
  return
}

// -----

func.func @quantize_zero_point_shape(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %z: tensor<1xi8>) {
  // expected-error @+1 {{'tx8be.QuantizeLinear' op zero_point's shape 1 is not scale's 3}}
  %0 = tx8be.QuantizeLinear %x, %s, %z : (tensor<2x3xf32>, tensor<3xf32>, tensor<1xi8>) -> tensor<2x3xi8>
  return
}

// -----

func.func @quantize_result_type(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %z: tensor<3xui8>) {
  // expected-error @+1 {{'tx8be.QuantizeLinear' op result #0 has type 'tensor<2x3xi8>', but the operands give 'tensor<2x3xui8>'}}
  %0 = tx8be.QuantizeLinear %x, %s, %z : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xui8>) -> tensor<2x3xi8>
  return
}

// -----

func.func @dequantize_zero_point_type(%x: tensor<2x3xui8>, %s: tensor<3xf32>, %z: tensor<3xi8>) {
  // expected-error @+1 {{'tx8be.DequantizeLinear' op zero_point's element type 'i8' is not the input's 'ui8'}}
  %0 = tx8be.DequantizeLinear %x, %s, %z : (tensor<2x3xui8>, tensor<3xf32>, tensor<3xi8>) -> tensor<2x3xf32>
  return
}

// -----

func.func @int8_matmul_result(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) {
  // expected-error @+1 {{'tx8be.MatMul' op result #0 has type 'tensor<2x4xf32>', but the operands give 'tensor<2x4xi32>'}}
  %0 = tx8be.MatMul %a, %b : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xf32>
  return
}
