// The C that codegen prints for small groups: the group function, its per-step tables, and each op's OpLib call
// from the OpCall genOpCode describes (designated initialisers; a conv takes this step's pads from the table).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tx8-aot compile %s -o %t/whole > /dev/null
// RUN: FileCheck %s --check-prefix=WHOLE < %t/whole/main.c
// A 1 KiB SPM cuts the conv into two row slices: the first keeps the top padding, the second the bottom.
// RUN: echo '{"spm_bytes": 1024}' > %t/hw.json
// RUN: tx8-aot compile %s --hw %t/hw.json -o %t/sliced > /dev/null
// RUN: FileCheck %s --check-prefix=SLICED < %t/sliced/main.c
//
// What codegen refuses is an error at the op or group, and no bundle:
// RUN: not tx8-aot compile %S/Inputs/inf-epsilon.mlir -o %t/inf 2>&1 | FileCheck %s --check-prefix=INF
// RUN: not test -e %t/inf
// RUN: not tx8-aot compile %S/Inputs/two-tiles.mlir -o %t/tiles 2>&1 | FileCheck %s --check-prefix=TILES
// RUN: not test -e %t/tiles

// WHOLE:      /* ---- group 0: tx8be.Conv "conv"
// WHOLE-NEXT:  *      1 step, output slice {1, 2, 8, 8} (logical dims)
// WHOLE:      static const int32_t pads[1][4] = {{[{][{]}}1, 1, 1, 1}};
// WHOLE:      for (int32_t s = 0; s < 1; ++s) {
// WHOLE:        /* tx8be.Conv "conv" */
// WHOLE-NEXT:   CONV_PARAM op_param = {.layout = LAYOUT_TENSOR, .stride_h = 1, .stride_w = 1, .dilation_h = 1, .dilation_w = 1, .pad_top = pads[s][0], .pad_left = pads[s][1], .pad_bottom = pads[s][2], .pad_right = pads[s][3], .group = 1, .accumulate = 0, .relu_en = 0};
// WHOLE-NEXT:   cycles = ADD_VALID_CYCLE(cycles, op_conv(&op_param, &in0, &in1, NULL, &out));
// WHOLE:      /* ---- group 1: tx8be.Relu "relu"
// WHOLE:        ELTWISE_PARAM op_param = {.layout = LAYOUT_TENSOR, .rnd = RND_NEAREST_EVEN};
// WHOLE-NEXT:   cycles = ADD_VALID_CYCLE(cycles, op_relu(&op_param, &in0, &out));

// SLICED:      /* ---- group 0: tx8be.Conv "conv"
// SLICED-NEXT:  *      2 steps, output slice {1, 2, 4, 8} (logical dims)
// SLICED:      static const int32_t pads[2][4] = {{[{][{]}}1, 1, 0, 1}, {0, 1, 1, 1}};
// SLICED:      for (int32_t s = 0; s < 2; ++s) {
// SLICED:        cycles = ADD_VALID_CYCLE(cycles, op_conv(&op_param, &in0, &in1, NULL, &out));

// INF: inf-epsilon.mlir":4:8): 'tx8be.BatchNorm_Inference' op has a non-finite epsilon (INF), which op_batchnorm_inference cannot take
// TILES: two-tiles.mlir":4:10): 'tx8be.Group' op is mapped to 2x1 tiles (dev_region); codegen runs a group on one tile until multi-tile schedules land

func.func @main(%x: tensor<1x2x8x8xf32> {tx8be.name = "x"}) -> (tensor<1x2x8x8xf32> {tx8be.name = "y"}) {
  %w = tx8be.Constant dense<0.25> : tensor<2x2x3x3xf32> loc("w")
  %c = tx8be.Conv %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x8x8xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x8x8xf32> loc("conv")
  %y = tx8be.Relu %c : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32> loc("relu")
  return %y : tensor<1x2x8x8xf32>
}
