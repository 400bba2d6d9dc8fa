// RUN: tx8-opt %s --split-input-file --tx8be-decompose | FileCheck %s

// 1-D pools: the 2-D pool of an N x C x 1 x W view, window 1 x k, pads [0, begin, 0, end]. An average with
// count_include_pad whose ceil_mode window runs past the end padding (op_avgpool would count the overhang) pads
// explicitly to the windows' extent (2 + 11 + 3 = 16), counts every tap (sum / 4) and is scaled by 4 / count
// (the last window has 2 taps in the padded input, 2 in the overhang).
// CHECK-LABEL: func.func @pool_1d
// CHECK-NEXT: %[[V:.*]] = tx8be.Reshape %arg0 : (tensor<2x3x11xf32>) -> tensor<2x3x1x11xf32>
// CHECK-NEXT: %[[M:.*]] = tx8be.MaxPool %[[V]] {ceil_mode = true, dilations = array<i64: 1, 2>,
// CHECK-SAME: kernel_shape = array<i64: 1, 3>, pads = array<i64: 0, 2, 0, 2>, strides = array<i64: 1, 2>}
// CHECK-SAME: : (tensor<2x3x1x11xf32>) -> tensor<2x3x1x6xf32>
// CHECK-NEXT: %[[A:.*]] = tx8be.Reshape %[[M]] : (tensor<2x3x1x6xf32>) -> tensor<2x3x6xf32>
// CHECK-NEXT: %[[V2:.*]] = tx8be.Reshape %arg0 : (tensor<2x3x11xf32>) -> tensor<2x3x1x11xf32>
// CHECK-NEXT: %[[P:.*]] = tx8be.AvgPool %[[V2]] {count_include_pad = true, dilations = array<i64: 1, 1>,
// CHECK-SAME: kernel_shape = array<i64: 1, 4>, pads = array<i64: 0, 2, 0, 1>, strides = array<i64: 1, 3>}
// CHECK-SAME: : (tensor<2x3x1x11xf32>) -> tensor<2x3x1x4xf32>
// CHECK-NEXT: %[[B:.*]] = tx8be.Reshape %[[P]] : (tensor<2x3x1x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: %[[XP:.*]] = tx8be.Pad %arg0 {pads = array<i64: 0, 0, 2, 0, 0, 3>} : {{.*}} -> tensor<2x3x16xf32>
// CHECK-NEXT: %[[XV:.*]] = tx8be.Reshape %[[XP]] : (tensor<2x3x16xf32>) -> tensor<2x3x1x16xf32>
// CHECK-NEXT: %[[S:.*]] = tx8be.AvgPool %[[XV]] {count_include_pad = true, dilations = array<i64: 1, 1>,
// CHECK-SAME: kernel_shape = array<i64: 1, 4>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 3>}
// CHECK-SAME: -> tensor<2x3x1x5xf32>
// CHECK-NEXT: %[[SV:.*]] = tx8be.Reshape %[[S]] : (tensor<2x3x1x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT: %[[F:.*]] = tx8be.Constant dense<[1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 2.000000e+00]>
// CHECK-NEXT: %[[C:.*]] = tx8be.Mul %[[SV]], %[[F]] : (tensor<2x3x5xf32>, tensor<5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT: return %[[A]], %[[B]], %[[C]]
func.func @pool_1d(%x: tensor<2x3x11xf32>) -> (tensor<2x3x6xf32>, tensor<2x3x4xf32>, tensor<2x3x5xf32>) {
  %a = tx8be.MaxPool %x {kernel_shape = array<i64: 3>, strides = array<i64: 2>, pads = array<i64: 2, 2>,
                         dilations = array<i64: 2>, ceil_mode = true} : (tensor<2x3x11xf32>) -> tensor<2x3x6xf32>
  %b = tx8be.AvgPool %x {kernel_shape = array<i64: 4>, strides = array<i64: 3>, pads = array<i64: 2, 1>,
                         count_include_pad = true} : (tensor<2x3x11xf32>) -> tensor<2x3x4xf32>
  %c = tx8be.AvgPool %x {kernel_shape = array<i64: 4>, strides = array<i64: 3>, pads = array<i64: 2, 1>,
                         ceil_mode = true, count_include_pad = true} : (tensor<2x3x11xf32>) -> tensor<2x3x5xf32>
  return %a, %b, %c : tensor<2x3x6xf32>, tensor<2x3x4xf32>, tensor<2x3x5xf32>
}

// -----

// A 1-D row longer than the CT pool instruction takes (65535): B rows of overlapping chunks of the explicitly
// padded input (a max pads with the lowest float), one 2-D pool over them, cut to the output's extent. Max: 2
// rows of M = 3411 outputs, L = 3410*10 + 1991 = 36091 = M*s + a halo of 1981 (the next row's head). Average:
// no halo (L = 34004 < M*s = 35000) and the rows need 2 elements less than the padded input (cut); it counts
// every tap (count_include_pad, sum / 4), then is scaled by 4 / count (2 for the first output: 2 taps inside).
// CHECK-LABEL: func.func @pool_1d_long
// CHECK-NEXT: %[[P:.*]] = tx8be.Pad %arg0 {pads = array<i64: 0, 0, 100, 0, 0, 32230>, value = -3.40282347E+38 : f32}
// CHECK-SAME: -> tensor<1x2x102330xf32>
// CHECK-NEXT: %[[G:.*]] = tx8be.Reshape %[[P]] : (tensor<1x2x102330xf32>) -> tensor<1x2x3x34110xf32>
// CHECK-NEXT: %[[B:.*]] = tx8be.Slice %[[G]] {offsets = array<i64: 0, 0, 0, 0>, sizes = array<i64: 1, 2, 2, 34110>
// CHECK-NEXT: %[[H:.*]] = tx8be.Slice %[[G]] {offsets = array<i64: 0, 0, 1, 0>, sizes = array<i64: 1, 2, 2, 1981>
// CHECK-NEXT: %[[R:.*]] = tx8be.Concat %[[B]], %[[H]] {axis = 3 : i64} : {{.*}} -> tensor<1x2x2x36091xf32>
// CHECK-NEXT: %[[M:.*]] = tx8be.MaxPool %[[R]] {dilations = array<i64: 1, 10>, kernel_shape = array<i64: 1, 200>,
// CHECK-SAME: pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 10>} : {{.*}} -> tensor<1x2x2x3411xf32>
// CHECK-NEXT: %[[MV:.*]] = tx8be.Reshape %[[M]] : (tensor<1x2x2x3411xf32>) -> tensor<1x2x6822xf32>
// CHECK-NEXT: %[[Y:.*]] = tx8be.Slice %[[MV]] {offsets = array<i64: 0, 0, 0>, sizes = array<i64: 1, 2, 6821>
// CHECK-NEXT: %[[C2:.*]] = tx8be.Slice %arg0 {offsets = array<i64: 0, 0, 0>, sizes = array<i64: 1, 2, 69998>
// CHECK-NEXT: %[[P2:.*]] = tx8be.Pad %[[C2]] {pads = array<i64: 0, 0, 2, 0, 0, 0>} : {{.*}} -> tensor<1x2x70000xf32>
// CHECK-NEXT: %[[G2:.*]] = tx8be.Reshape %[[P2]] : (tensor<1x2x70000xf32>) -> tensor<1x2x2x35000xf32>
// CHECK-NEXT: %[[R2:.*]] = tx8be.Slice %[[G2]] {offsets = array<i64: 0, 0, 0, 0>, sizes = array<i64: 1, 2, 2, 34004>
// CHECK-NEXT: %[[A:.*]] = tx8be.AvgPool %[[R2]] {count_include_pad = true, dilations = array<i64: 1, 1>,
// CHECK-SAME: kernel_shape = array<i64: 1, 4>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1000>}
// CHECK-SAME: -> tensor<1x2x2x35xf32>
// CHECK-NEXT: %[[AV:.*]] = tx8be.Reshape %[[A]] : (tensor<1x2x2x35xf32>) -> tensor<1x2x70xf32>
// CHECK-NEXT: %[[S:.*]] = tx8be.Constant dense<[2.000000e+00, 1.000000e+00, {{.*}}]> : tensor<70xf32>
// CHECK-NEXT: %[[Z:.*]] = tx8be.Mul %[[AV]], %[[S]] : (tensor<1x2x70xf32>, tensor<70xf32>) -> tensor<1x2x70xf32>
// CHECK-NEXT: return %[[Y]], %[[Z]]
func.func @pool_1d_long(%x: tensor<1x2x70000xf32>) -> (tensor<1x2x6821xf32>, tensor<1x2x70xf32>) {
  %y = tx8be.MaxPool %x {kernel_shape = array<i64: 200>, strides = array<i64: 10>, pads = array<i64: 100, 100>,
                         dilations = array<i64: 10>} : (tensor<1x2x70000xf32>) -> tensor<1x2x6821xf32>
  %a = tx8be.AvgPool %x {kernel_shape = array<i64: 4>, strides = array<i64: 1000>, pads = array<i64: 2, 1>}
       : (tensor<1x2x70000xf32>) -> tensor<1x2x70xf32>
  return %y, %a : tensor<1x2x6821xf32>, tensor<1x2x70xf32>
}

// -----

// 3-D pools: a 2-D pool over (H, W) of N x (C*D) x H x W, then one over D of N x C x D x (OH*OW) with the
// window kd x 1 (pads and dilations of D only); ceil_mode and count_include_pad go to both. A stage whose
// window is 1 with stride 1 and no pads is left out.
// CHECK-LABEL: func.func @pool_3d
// CHECK-NEXT: %[[V:.*]] = tx8be.Reshape %arg0 : (tensor<2x3x5x6x7xf32>) -> tensor<2x15x6x7xf32>
// CHECK-NEXT: %[[HW:.*]] = tx8be.MaxPool %[[V]] {ceil_mode = true, dilations = array<i64: 2, 1>,
// CHECK-SAME: kernel_shape = array<i64: 2, 3>, pads = array<i64: 0, 1, 1, 0>, strides = array<i64: 1, 2>}
// CHECK-SAME: : (tensor<2x15x6x7xf32>) -> tensor<2x15x5x4xf32>
// CHECK-NEXT: %[[DV:.*]] = tx8be.Reshape %[[HW]] : (tensor<2x15x5x4xf32>) -> tensor<2x3x5x20xf32>
// CHECK-NEXT: %[[D:.*]] = tx8be.MaxPool %[[DV]] {ceil_mode = true, dilations = array<i64: 1, 1>,
// CHECK-SAME: kernel_shape = array<i64: 3, 1>, pads = array<i64: 1, 0, 1, 0>, strides = array<i64: 2, 1>}
// CHECK-SAME: : (tensor<2x3x5x20xf32>) -> tensor<2x3x3x20xf32>
// CHECK-NEXT: %[[A:.*]] = tx8be.Reshape %[[D]] : (tensor<2x3x3x20xf32>) -> tensor<2x3x3x5x4xf32>
// CHECK-NEXT: %[[V2:.*]] = tx8be.Reshape %arg0 : (tensor<2x3x5x6x7xf32>) -> tensor<2x15x6x7xf32>
// CHECK-NEXT: %[[HW2:.*]] = tx8be.AvgPool %[[V2]] {ceil_mode = true, dilations = array<i64: 2, 1>,
// CHECK-SAME: kernel_shape = array<i64: 2, 3>, pads = array<i64: 0, 1, 1, 0>, strides = array<i64: 1, 2>}
// CHECK-NEXT: %[[DV2:.*]] = tx8be.Reshape %[[HW2]] : (tensor<2x15x5x4xf32>) -> tensor<2x3x5x20xf32>
// CHECK-NEXT: %[[D2:.*]] = tx8be.AvgPool %[[DV2]] {ceil_mode = true, dilations = array<i64: 1, 1>,
// CHECK-SAME: kernel_shape = array<i64: 3, 1>, pads = array<i64: 1, 0, 1, 0>, strides = array<i64: 2, 1>}
// CHECK-NEXT: %[[B:.*]] = tx8be.Reshape %[[D2]] : (tensor<2x3x3x20xf32>) -> tensor<2x3x3x5x4xf32>
// CHECK-NEXT: %[[DV3:.*]] = tx8be.Reshape %arg0 : (tensor<2x3x5x6x7xf32>) -> tensor<2x3x5x42xf32>
// CHECK-NEXT: %[[D3:.*]] = tx8be.AvgPool %[[DV3]] {count_include_pad = true, dilations = array<i64: 1, 1>,
// CHECK-SAME: kernel_shape = array<i64: 2, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 1>}
// CHECK-SAME: : (tensor<2x3x5x42xf32>) -> tensor<2x3x2x42xf32>
// CHECK-NEXT: %[[C:.*]] = tx8be.Reshape %[[D3]] : (tensor<2x3x2x42xf32>) -> tensor<2x3x2x6x7xf32>
// CHECK-NEXT: return %[[A]], %[[B]], %[[C]]
func.func @pool_3d(%x: tensor<2x3x5x6x7xf32>)
    -> (tensor<2x3x3x5x4xf32>, tensor<2x3x3x5x4xf32>, tensor<2x3x2x6x7xf32>) {
  %a = tx8be.MaxPool %x {kernel_shape = array<i64: 3, 2, 3>, strides = array<i64: 2, 1, 2>,
                         pads = array<i64: 1, 0, 1, 1, 1, 0>, dilations = array<i64: 1, 2, 1>, ceil_mode = true}
       : (tensor<2x3x5x6x7xf32>) -> tensor<2x3x3x5x4xf32>
  %b = tx8be.AvgPool %x {kernel_shape = array<i64: 3, 2, 3>, strides = array<i64: 2, 1, 2>,
                         pads = array<i64: 1, 0, 1, 1, 1, 0>, dilations = array<i64: 1, 2, 1>, ceil_mode = true}
       : (tensor<2x3x5x6x7xf32>) -> tensor<2x3x3x5x4xf32>
  %c = tx8be.AvgPool %x {kernel_shape = array<i64: 2, 1, 1>, strides = array<i64: 2, 1, 1>, count_include_pad = true}
       : (tensor<2x3x5x6x7xf32>) -> tensor<2x3x2x6x7xf32>
  return %a, %b, %c : tensor<2x3x3x5x4xf32>, tensor<2x3x3x5x4xf32>, tensor<2x3x2x6x7xf32>
}

// -----

// Left alone: a 3-D average with count_include_pad and a ceil_mode overhang, a 3-D pool whose D stage would see
// rows of 300*300 > 65535, 2-D pools (they have a kernel) and pools of dynamic shapes.
// CHECK-LABEL: func.func @pool_left_alone
// CHECK-NEXT: tx8be.AvgPool %arg0 {ceil_mode = true, count_include_pad = true
// CHECK-SAME: (tensor<2x3x5x6x7xf32>) -> tensor<2x3x3x5x4xf32>
// CHECK-NEXT: tx8be.MaxPool %arg3 {kernel_shape = array<i64: 2, 1, 1>} : (tensor<1x1x2x300x300xf32>)
// CHECK-NEXT: tx8be.MaxPool %arg1 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>}
// CHECK-NEXT: tx8be.MaxPool %arg2 {kernel_shape = array<i64: 2>} : (tensor<?x3x8xf32>) -> tensor<?x3x7xf32>
// CHECK-NEXT: return
func.func @pool_left_alone(%x: tensor<2x3x5x6x7xf32>, %y: tensor<1x2x6x6xf32>, %z: tensor<?x3x8xf32>,
                           %big: tensor<1x1x2x300x300xf32>)
    -> (tensor<2x3x3x5x4xf32>, tensor<1x1x1x300x300xf32>, tensor<1x2x3x3xf32>, tensor<?x3x7xf32>) {
  %a = tx8be.AvgPool %x {kernel_shape = array<i64: 3, 2, 3>, strides = array<i64: 2, 1, 2>,
                         pads = array<i64: 1, 0, 1, 1, 1, 0>, dilations = array<i64: 1, 2, 1>, ceil_mode = true,
                         count_include_pad = true} : (tensor<2x3x5x6x7xf32>) -> tensor<2x3x3x5x4xf32>
  %d = tx8be.MaxPool %big {kernel_shape = array<i64: 2, 1, 1>}
       : (tensor<1x1x2x300x300xf32>) -> tensor<1x1x1x300x300xf32>
  %b = tx8be.MaxPool %y {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>}
       : (tensor<1x2x6x6xf32>) -> tensor<1x2x3x3xf32>
  %c = tx8be.MaxPool %z {kernel_shape = array<i64: 2>} : (tensor<?x3x8xf32>) -> tensor<?x3x7xf32>
  return %a, %d, %b, %c : tensor<2x3x3x5x4xf32>, tensor<1x1x1x300x300xf32>, tensor<1x2x3x3xf32>, tensor<?x3x7xf32>
}

// -----

// 3-D Conv as one 2-D Conv: x as N x C x D x HW, transposed to N x D x C x HW, padded on D; the KD depth taps
// (offset k * dilation_d, stride stride_d) as (N*OD) x C x 1 x HW slices concatenated on axis 2 (channel
// c*KD + k), the weight O x (C/g*KD) x KH x KW a reshape; the result (N*OD) x O x OH x OW back to N x O x OD
// x OH x OW.
// CHECK-LABEL: func.func @conv_3d
// CHECK-NEXT: %[[X:.*]] = tx8be.Reshape %arg0 : (tensor<2x4x5x6x7xf32>) -> tensor<2x4x5x42xf32>
// CHECK-NEXT: %[[T:.*]] = tx8be.Transpose %[[X]] {perm = array<i64: 0, 2, 1, 3>}
// CHECK-SAME: : (tensor<2x4x5x42xf32>) -> tensor<2x5x4x42xf32>
// CHECK-NEXT: %[[P:.*]] = tx8be.Pad %[[T]] {pads = array<i64: 0, 1, 0, 0, 0, 1, 0, 0>}
// CHECK-SAME: : (tensor<2x5x4x42xf32>) -> tensor<2x7x4x42xf32>
// CHECK-NEXT: %[[S0:.*]] = tx8be.Slice %[[P]] {offsets = array<i64: 0, 0, 0, 0>, sizes = array<i64: 2, 2, 4, 42>,
// CHECK-SAME: strides = array<i64: 1, 2, 1, 1>}
// CHECK-NEXT: %[[R0:.*]] = tx8be.Reshape %[[S0]] : (tensor<2x2x4x42xf32>) -> tensor<4x4x1x42xf32>
// CHECK-NEXT: %[[S1:.*]] = tx8be.Slice %[[P]] {offsets = array<i64: 0, 2, 0, 0>, sizes = array<i64: 2, 2, 4, 42>,
// CHECK-SAME: strides = array<i64: 1, 2, 1, 1>}
// CHECK-NEXT: %[[R1:.*]] = tx8be.Reshape %[[S1]]
// CHECK-NEXT: %[[S2:.*]] = tx8be.Slice %[[P]] {offsets = array<i64: 0, 4, 0, 0>, sizes = array<i64: 2, 2, 4, 42>,
// CHECK-SAME: strides = array<i64: 1, 2, 1, 1>}
// CHECK-NEXT: %[[R2:.*]] = tx8be.Reshape %[[S2]]
// CHECK-NEXT: %[[CC:.*]] = tx8be.Concat %[[R0]], %[[R1]], %[[R2]] {axis = 2 : i64} : {{.*}} -> tensor<4x4x3x42xf32>
// CHECK-NEXT: %[[COL:.*]] = tx8be.Reshape %[[CC]] : (tensor<4x4x3x42xf32>) -> tensor<4x12x6x7xf32>
// CHECK-NEXT: %[[W:.*]] = tx8be.Reshape %arg1 : (tensor<6x2x3x2x3xf32>) -> tensor<6x6x2x3xf32>
// CHECK-NEXT: %[[Y:.*]] = tx8be.Conv %[[COL]], %[[W]], %arg2 {dilations = array<i64: 1, 1>, group = 2 : i64,
// CHECK-SAME: pads = array<i64: 0, 2, 1, 0>, strides = array<i64: 1, 2>}
// CHECK-SAME: : (tensor<4x12x6x7xf32>, tensor<6x6x2x3xf32>, tensor<6xf32>) -> tensor<4x6x6x4xf32>
// CHECK-NEXT: %[[YV:.*]] = tx8be.Reshape %[[Y]] : (tensor<4x6x6x4xf32>) -> tensor<2x2x6x24xf32>
// CHECK-NEXT: %[[YT:.*]] = tx8be.Transpose %[[YV]] {perm = array<i64: 0, 2, 1, 3>}
// CHECK-SAME: : (tensor<2x2x6x24xf32>) -> tensor<2x6x2x24xf32>
// CHECK-NEXT: %[[R:.*]] = tx8be.Reshape %[[YT]] : (tensor<2x6x2x24xf32>) -> tensor<2x6x2x6x4xf32>
// CHECK-NEXT: return %[[R]]
func.func @conv_3d(%x: tensor<2x4x5x6x7xf32>, %w: tensor<6x2x3x2x3xf32>, %b: tensor<6xf32>)
    -> tensor<2x6x2x6x4xf32> {
  %y = tx8be.Conv %x, %w, %b {strides = array<i64: 2, 1, 2>, pads = array<i64: 1, 0, 2, 1, 1, 0>,
                              dilations = array<i64: 2, 1, 1>, group = 2 : i64}
       : (tensor<2x4x5x6x7xf32>, tensor<6x2x3x2x3xf32>, tensor<6xf32>) -> tensor<2x6x2x6x4xf32>
  return %y : tensor<2x6x2x6x4xf32>
}

// -----

// One depth tap, no depth padding: no Pad, Slice or Concat. 1-D and 2-D Convs are left alone.
// CHECK-LABEL: func.func @conv_3d_one_tap
// CHECK-NEXT: %[[X:.*]] = tx8be.Reshape %arg0 : (tensor<1x3x4x5x6xf32>) -> tensor<1x3x4x30xf32>
// CHECK-NEXT: %[[T:.*]] = tx8be.Transpose %[[X]] {perm = array<i64: 0, 2, 1, 3>}
// CHECK-NEXT: %[[COL:.*]] = tx8be.Reshape %[[T]] : (tensor<1x4x3x30xf32>) -> tensor<4x3x5x6xf32>
// CHECK-NEXT: %[[W:.*]] = tx8be.Reshape %arg1 : (tensor<2x3x1x3x3xf32>) -> tensor<2x3x3x3xf32>
// CHECK-NEXT: %[[Y:.*]] = tx8be.Conv %[[COL]], %[[W]] {{.*}} -> tensor<4x2x3x4xf32>
// CHECK-NEXT: %[[YV:.*]] = tx8be.Reshape %[[Y]] : (tensor<4x2x3x4xf32>) -> tensor<1x4x2x12xf32>
// CHECK-NEXT: %[[YT:.*]] = tx8be.Transpose %[[YV]] {perm = array<i64: 0, 2, 1, 3>}
// CHECK-NEXT: %[[R:.*]] = tx8be.Reshape %[[YT]] : (tensor<1x2x4x12xf32>) -> tensor<1x2x4x3x4xf32>
// CHECK-NEXT: %[[Z:.*]] = tx8be.Conv %arg2, %arg3 : (tensor<1x3x5x5xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x3x3xf32>
// CHECK-NEXT: %[[Z1:.*]] = tx8be.Conv %arg4, %arg5 : (tensor<1x3x5xf32>, tensor<2x3x3xf32>) -> tensor<1x2x3xf32>
// CHECK-NEXT: return %[[R]], %[[Z]], %[[Z1]]
func.func @conv_3d_one_tap(%x: tensor<1x3x4x5x6xf32>, %w: tensor<2x3x1x3x3xf32>, %x2: tensor<1x3x5x5xf32>,
                           %w2: tensor<2x3x3x3xf32>, %x1: tensor<1x3x5xf32>, %w1: tensor<2x3x3xf32>)
    -> (tensor<1x2x4x3x4xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3xf32>) {
  %y = tx8be.Conv %x, %w : (tensor<1x3x4x5x6xf32>, tensor<2x3x1x3x3xf32>) -> tensor<1x2x4x3x4xf32>
  %z = tx8be.Conv %x2, %w2 : (tensor<1x3x5x5xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x3x3xf32>
  %z1 = tx8be.Conv %x1, %w1 : (tensor<1x3x5xf32>, tensor<2x3x3xf32>) -> tensor<1x2x3xf32>
  return %y, %z, %z1 : tensor<1x2x4x3x4xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3xf32>
}

// -----

// ConvTranspose 2-D as a Conv: stride - 1 zeros after each input element (a [N*C, H, 1, W, 1] view padded at
// the end of the unit dims), the Conv padded by dilation*(k-1) - pad at the begin and dilation*(k-1) - pad_end
// + output_padding - (stride-1) at the end (H: 1, 2; W: 4, 5), the weight per group transposed
// ([g][C/g][O/g] -> [g][O/g][C/g]) and spatially reversed (a Slice with steps -1).
// CHECK-LABEL: func.func @conv_transpose_2d
// CHECK-NEXT: %[[V:.*]] = tx8be.Reshape %arg0 : (tensor<2x4x5x6xf32>) -> tensor<8x5x1x6x1xf32>
// CHECK-NEXT: %[[Z:.*]] = tx8be.Pad %[[V]] {pads = array<i64: 0, 0, 0, 0, 0, 0, 0, 1, 0, 2>}
// CHECK-SAME: : (tensor<8x5x1x6x1xf32>) -> tensor<8x5x2x6x3xf32>
// CHECK-NEXT: %[[U:.*]] = tx8be.Reshape %[[Z]] : (tensor<8x5x2x6x3xf32>) -> tensor<2x4x10x18xf32>
// CHECK-NEXT: %[[WG:.*]] = tx8be.Reshape %arg1 : (tensor<4x3x3x4xf32>) -> tensor<2x2x3x3x4xf32>
// CHECK-NEXT: %[[WT:.*]] = tx8be.Transpose %[[WG]] {perm = array<i64: 0, 2, 1, 3, 4>}
// CHECK-SAME: : (tensor<2x2x3x3x4xf32>) -> tensor<2x3x2x3x4xf32>
// CHECK-NEXT: %[[WO:.*]] = tx8be.Reshape %[[WT]] : (tensor<2x3x2x3x4xf32>) -> tensor<6x2x3x4xf32>
// CHECK-NEXT: %[[WF:.*]] = tx8be.Slice %[[WO]] {offsets = array<i64: 0, 0, 2, 3>, sizes = array<i64: 6, 2, 3, 4>,
// CHECK-SAME: strides = array<i64: 1, 1, -1, -1>}
// CHECK-NEXT: %[[Y:.*]] = tx8be.Conv %[[U]], %[[WF]], %arg2 {dilations = array<i64: 1, 2>, group = 2 : i64,
// CHECK-SAME: pads = array<i64: 1, 4, 2, 5>, strides = array<i64: 1, 1>}
// CHECK-SAME: : (tensor<2x4x10x18xf32>, tensor<6x2x3x4xf32>, tensor<6xf32>) -> tensor<2x6x11x21xf32>
// CHECK-NEXT: return %[[Y]]
func.func @conv_transpose_2d(%x: tensor<2x4x5x6xf32>, %w: tensor<4x3x3x4xf32>, %b: tensor<6xf32>)
    -> tensor<2x6x11x21xf32> {
  %y = tx8be.ConvTranspose %x, %w, %b {strides = array<i64: 2, 3>, pads = array<i64: 1, 2, 0, 1>,
                                       dilations = array<i64: 1, 2>, output_padding = array<i64: 1, 2>,
                                       group = 2 : i64}
       : (tensor<2x4x5x6xf32>, tensor<4x3x3x4xf32>, tensor<6xf32>) -> tensor<2x6x11x21xf32>
  return %y : tensor<2x6x11x21xf32>
}

// -----

// A pad larger than dilation*(k-1) crops the zero-inserted input (H: begin 2 - 3 = -1; W: end 2 - 3 + 1 - 1 =
// -1) with a Slice. Zeros go in along W only (stride 1 on H); with one group the weight transpose is [1, 0].
// CHECK-LABEL: func.func @conv_transpose_crop
// CHECK-NEXT: %[[V:.*]] = tx8be.Reshape %arg0 : (tensor<1x2x5x6xf32>) -> tensor<2x5x6x1xf32>
// CHECK-NEXT: %[[Z:.*]] = tx8be.Pad %[[V]] {pads = array<i64: 0, 0, 0, 0, 0, 0, 0, 1>}
// CHECK-NEXT: %[[U:.*]] = tx8be.Reshape %[[Z]] : (tensor<2x5x6x2xf32>) -> tensor<1x2x5x12xf32>
// CHECK-NEXT: %[[C:.*]] = tx8be.Slice %[[U]] {offsets = array<i64: 0, 0, 1, 0>, sizes = array<i64: 1, 2, 4, 11>,
// CHECK-SAME: strides = array<i64: 1, 1, 1, 1>}
// CHECK-NEXT: %[[WG:.*]] = tx8be.Reshape %arg1 : (tensor<2x3x3x3xf32>) -> tensor<1x2x3x3x3xf32>
// CHECK-NEXT: %[[WT:.*]] = tx8be.Transpose %[[WG]] {perm = array<i64: 0, 2, 1, 3, 4>}
// CHECK-NEXT: %[[WO:.*]] = tx8be.Reshape %[[WT]] : (tensor<1x3x2x3x3xf32>) -> tensor<3x2x3x3xf32>
// CHECK-NEXT: %[[WF:.*]] = tx8be.Slice %[[WO]] {offsets = array<i64: 0, 0, 2, 2>
// CHECK-NEXT: %[[Y:.*]] = tx8be.Conv %[[C]], %[[WF]] {dilations = array<i64: 1, 1>, pads = array<i64: 0, 2, 2, 0>,
// CHECK-SAME: -> tensor<1x3x4x11xf32>
// CHECK-NEXT: return %[[Y]]
func.func @conv_transpose_crop(%x: tensor<1x2x5x6xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x3x4x11xf32> {
  %y = tx8be.ConvTranspose %x, %w {strides = array<i64: 1, 2>, pads = array<i64: 3, 0, 0, 3>,
                                   output_padding = array<i64: 0, 1>}
       : (tensor<1x2x5x6xf32>, tensor<2x3x3x3xf32>) -> tensor<1x3x4x11xf32>
  return %y : tensor<1x3x4x11xf32>
}

// -----

// ConvTranspose 1-D: a 1-D Conv.
// CHECK-LABEL: func.func @conv_transpose_1d
// CHECK-NEXT: %[[V:.*]] = tx8be.Reshape %arg0 : (tensor<1x3x7xf32>) -> tensor<3x7x1xf32>
// CHECK-NEXT: %[[Z:.*]] = tx8be.Pad %[[V]] {pads = array<i64: 0, 0, 0, 0, 0, 2>}
// CHECK-NEXT: %[[U:.*]] = tx8be.Reshape %[[Z]] : (tensor<3x7x3xf32>) -> tensor<1x3x21xf32>
// CHECK: %[[WF:.*]] = tx8be.Slice %{{.*}} {offsets = array<i64: 0, 0, 3>, sizes = array<i64: 2, 3, 4>,
// CHECK-SAME: strides = array<i64: 1, 1, -1>}
// CHECK-NEXT: %[[Y:.*]] = tx8be.Conv %[[U]], %[[WF]], %arg2 {dilations = array<i64: 1>, pads = array<i64: 1, 1>,
// CHECK-SAME: strides = array<i64: 1>} : (tensor<1x3x21xf32>, tensor<2x3x4xf32>, tensor<2xf32>) -> tensor<1x2x20xf32>
// CHECK-NEXT: return %[[Y]]
func.func @conv_transpose_1d(%x: tensor<1x3x7xf32>, %w: tensor<3x2x4xf32>, %b: tensor<2xf32>) -> tensor<1x2x20xf32> {
  %y = tx8be.ConvTranspose %x, %w, %b {strides = array<i64: 3>, pads = array<i64: 2, 1>,
                                       output_padding = array<i64: 1>}
       : (tensor<1x3x7xf32>, tensor<3x2x4xf32>, tensor<2xf32>) -> tensor<1x2x20xf32>
  return %y : tensor<1x2x20xf32>
}

// -----

// ConvTranspose 3-D: zeros along D (a [N*C, D, 1, H, W] view) and W, then the 3-D Conv as one 2-D Conv.
// CHECK-LABEL: func.func @conv_transpose_3d
// CHECK-NEXT: %[[V:.*]] = tx8be.Reshape %arg0 : (tensor<1x4x3x4x5xf32>) -> tensor<4x3x1x4x5xf32>
// CHECK-NEXT: %[[Z:.*]] = tx8be.Pad %[[V]] {pads = array<i64: 0, 0, 0, 0, 0, 0, 0, 1, 0, 0>}
// CHECK-NEXT: %[[V2:.*]] = tx8be.Reshape %[[Z]] : (tensor<4x3x2x4x5xf32>) -> tensor<96x5x1xf32>
// CHECK-NEXT: %[[Z2:.*]] = tx8be.Pad %[[V2]] {pads = array<i64: 0, 0, 0, 0, 0, 1>}
// CHECK: %[[WF:.*]] = tx8be.Slice %{{.*}} {offsets = array<i64: 0, 0, 1, 2, 1>, sizes = array<i64: 4, 2, 2, 3, 2>,
// CHECK-SAME: strides = array<i64: 1, 1, -1, -1, -1>}
// CHECK-NEXT: %[[U:.*]] = tx8be.Reshape %[[Z2]] : (tensor<96x5x2xf32>) -> tensor<1x4x6x40xf32>
// CHECK-NEXT: %[[T:.*]] = tx8be.Transpose %[[U]] {perm = array<i64: 0, 2, 1, 3>}
// CHECK-NEXT: %[[P:.*]] = tx8be.Pad %[[T]] {pads = array<i64: 0, 1, 0, 0, 0, 0, 0, 0>}
// CHECK: tx8be.Concat
// CHECK: %[[W:.*]] = tx8be.Reshape %[[WF]] : (tensor<4x2x2x3x2xf32>) -> tensor<4x4x3x2xf32>
// CHECK-NEXT: %[[Y:.*]] = tx8be.Conv %{{.*}}, %[[W]], %arg2 {dilations = array<i64: 2, 1>, group = 2 : i64,
// CHECK-SAME: pads = array<i64: 3, 0, 4, 1>, strides = array<i64: 1, 1>} : {{.*}} -> tensor<6x4x7x10xf32>
// CHECK: %[[R:.*]] = tx8be.Reshape %{{.*}} : (tensor<1x4x6x70xf32>) -> tensor<1x4x6x7x10xf32>
// CHECK-NEXT: return %[[R]]
func.func @conv_transpose_3d(%x: tensor<1x4x3x4x5xf32>, %w: tensor<4x2x2x3x2xf32>, %b: tensor<4xf32>)
    -> tensor<1x4x6x7x10xf32> {
  %y = tx8be.ConvTranspose %x, %w, %b {strides = array<i64: 2, 1, 2>, pads = array<i64: 0, 1, 1, 1, 0, 0>,
                                       dilations = array<i64: 1, 2, 1>, output_padding = array<i64: 1, 0, 1>,
                                       group = 2 : i64}
       : (tensor<1x4x3x4x5xf32>, tensor<4x2x2x3x2xf32>, tensor<4xf32>) -> tensor<1x4x6x7x10xf32>
  return %y : tensor<1x4x6x7x10xf32>
}
