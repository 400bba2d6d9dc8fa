// The C that codegen prints for small groups from their schedule (tx8be.Steps): the group function, its
// per-step tables (the LoadBox / StoreBox box tables in device order, the OpLib views, the pads), and in the
// loop one statement group per op of the Steps, in order: each op's OpLib call from the OpCall genOpCode
// describes (designated initialisers; a conv takes this step's pads from the table).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tx8-aot compile %s --tiles 1 --sw-pipeline=false --fuse=false -o %t/whole > /dev/null
// RUN: tx8-aot compile %s --tiles 1 --sw-pipeline=false -o %t/fused > /dev/null
// RUN: FileCheck %s --check-prefix=FUSED < %t/fused/main.c
// RUN: FileCheck %s --check-prefix=WHOLE < %t/whole/main.c
// A 1 KiB SPM cuts the conv into two row slices: the first keeps the top padding, the second the bottom.
// RUN: echo '{"spm_bytes": 1024}' > %t/hw.json
// RUN: tx8-aot compile %s --hw %t/hw.json --tiles 1 --sw-pipeline=false --fuse=false -o %t/sliced > /dev/null
// RUN: FileCheck %s --check-prefix=SLICED < %t/sliced/main.c
// Pipelined (tx8-sw-pipeline, the default): the loads of step l are issued asynchronously into buffer lb, the
// compute of step s waits for its loads and for the last store of the output buffer it writes:
// RUN: tx8-aot compile %s --hw %t/hw.json --tiles 1 --fuse=false -o %t/piped > /dev/null
// RUN: FileCheck %s --check-prefix=PIPED < %t/piped/main.c
//
// What codegen refuses is an error at the op or group, and no bundle:
// RUN: not tx8-aot compile %S/Inputs/inf-epsilon.mlir -o %t/inf 2>&1 | FileCheck %s --check-prefix=INF
// RUN: not test -e %t/inf
// RUN: not tx8-aot compile %S/Inputs/relu-rows.mlir --tiles 5 -o %t/tiles5 2>&1 | FileCheck %s --check-prefix=TILES5
// RUN: not test -e %t/tiles5
//
// On two tiles each runs the group functions (tx8_hal_run_tiles) and its own rows of the tables; a barrier after
// the first group, whose result the second reads:
// RUN: tx8-aot compile %S/Inputs/relu-rows.mlir --tiles 2 --fuse=false -o %t/tiles2 > /dev/null
// RUN: FileCheck %s --check-prefix=TILES2 < %t/tiles2/main.c
// --profile: a barrier after every group, then tile 0 prints the group's cycles (tx8-aot run shows the lines).
// An operand whose box is the same for every tile is read from DDR once: tile 0 multicasts it (DTE). (The search
// prefers K in parts, x multicast per step; --opt-search 0 keeps the whole K.)
// RUN: tx8-aot compile %S/Inputs/shared-operand.mlir --tiles 2 --opt-search 0 -o %t/shared > /dev/null
// RUN: FileCheck %s --check-prefix=SHARED < %t/shared/main.c
// Boxes the tiles of a mesh row (column) share at each step are multicast by one of them (LoadBox multicast), the
// tiles in lockstep: the leader issues the DTE, waits for it, and a barrier comes before every tile's compute.
// RUN: tx8-aot compile %S/Inputs/multicast-gemm.mlir --tiles 16 -o %t/multicast > /dev/null
// RUN: FileCheck %s --check-prefix=MULTICAST < %t/multicast/main.c
// RUN: tx8-aot compile %S/Inputs/relu-rows.mlir --tiles 2 --fuse=false --profile -o %t/profile > /dev/null
// RUN: FileCheck %s --check-prefix=PROFILE < %t/profile/main.c
//
// Names from the model reach comments only made safe: a graph, node or output name that tries to close the
// comment and declare something declares nothing, and the bundle still builds.
// RUN: tx8-aot compile %S/Inputs/hostile-names.onnxtxt -o %t/hostile > /dev/null
// RUN: FileCheck %s --check-prefix=HOSTILE < %t/hostile/main.c
// RUN: FileCheck %s --check-prefix=HOSTILE-H < %t/hostile/model.h
// With the comments stripped (no includes expanded), nothing of the names is left in main.c:
// RUN: cc -fpreprocessed -dD -E %t/hostile/main.c | FileCheck %s --check-prefix=CODE --implicit-check-not=evil

// WHOLE:      /* ---- group 0: tx8be.Conv "conv"
// WHOLE-NEXT:  *      1 step on tile 0, output slice {1, 2, 8, 8} (logical dims)
// WHOLE:      static const int32_t pads[1][4] = {{[{][{]}}1, 1, 1, 1}};
// WHOLE:      for (int32_t s = 0; s < 1; ++s) {
// WHOLE:        /* tx8be.Conv "conv" */
// WHOLE-NEXT:   CONV_PARAM op_param = {.layout = LAYOUT_TENSOR, .stride_h = 1, .stride_w = 1, .dilation_h = 1, .dilation_w = 1, .pad_top = pads[s][0], .pad_left = pads[s][1], .pad_bottom = pads[s][2], .pad_right = pads[s][3], .group = 1, .accumulate = 0, .relu_en = 0};
// WHOLE-NEXT:   cycles = ADD_VALID_CYCLE(cycles, op_conv(&op_param, &in0, &in1, NULL, &out));
// WHOLE:      /* ---- group 1: tx8be.Relu "relu"
// WHOLE:        ELTWISE_PARAM op_param = {.layout = LAYOUT_TENSOR, .rnd = RND_NEAREST_EVEN};
// WHOLE-NEXT:   cycles = ADD_VALID_CYCLE(cycles, op_relu(&op_param, &in0, &out));

// Fused (tx8be-group-fuse): one group; the conv writes its slice to mid0 in SPM, the relu reads it there and
// writes the stored out; nothing of the conv's result goes to DDR.
// FUSED:      /* ---- group 0: tx8be.Conv "conv" -> tx8be.Relu "relu"
// FUSED:        TSR mid0 = {Fmt_FP32, [[MID:0x[0-9a-f]+]], &mid0_vs};
// FUSED:        TSR f1_in0 = {Fmt_FP32, [[MID]], &f1_in0_vs};
// FUSED:        cycles = ADD_VALID_CYCLE(cycles, op_conv(&op_param, &in0, &in1, NULL, &mid0));
// FUSED:        ELTWISE_PARAM f1_op_param = {.layout = LAYOUT_TENSOR, .rnd = RND_NEAREST_EVEN};
// FUSED-NEXT:   cycles = ADD_VALID_CYCLE(cycles, op_relu(&f1_op_param, &f1_in0, &out));
// FUSED-NEXT:   tx8_lshape_box(&y_ds, y_whole, 4, &y_box[s]);
// FUSED-NEXT:   cycles = ADD_VALID_CYCLE(cycles, op_dma_store(&y_st, &y_spm, &y_ddr));
// FUSED-NOT:  group_1

// SLICED:      /* ---- group 0: tx8be.Conv "conv"
// SLICED-NEXT:  *      2 steps on tile 0, output slice {1, 2, 4, 8} (logical dims)
// Rows 0..4 and 3..7 of the input (NHWC: H is device dim 1), the output's rows 0..3 and 4..7:
// SLICED:      static const tx8_box [[IN:t[0-9]+]]_box[2] = {{[{][{][{]}}0, 0, 0, 0}, {1, 5, 8, 2}}, {{[{][{]}}0, 3, 0, 0}, {1, 5, 8, 2}}};
// SLICED:      static const int32_t pads[2][4] = {{[{][{]}}1, 1, 0, 1}, {0, 1, 1, 1}};
// SLICED:      static const tx8_box y_box[2] = {{[{][{][{]}}0, 0, 0, 0}, {1, 4, 8, 2}}, {{[{][{]}}0, 4, 0, 0}, {1, 4, 8, 2}}};
// SLICED:      for (int32_t s = 0; s < 2; ++s) {
// SLICED-NEXT:   tx8_lshape_box(&[[IN]]_ds, [[IN]]_whole, 4, &[[IN]]_box[s]);
// SLICED-NEXT:   cycles = ADD_VALID_CYCLE(cycles, op_loadVar(&[[IN]]_ld, &[[IN]]_ddr, &[[IN]]_spm));
// SLICED:        cycles = ADD_VALID_CYCLE(cycles, op_conv(&op_param, &in0, &in1, NULL, &out));
// SLICED-NEXT:   tx8_lshape_box(&y_ds, y_whole, 4, &y_box[s]);
// SLICED-NEXT:   cycles = ADD_VALID_CYCLE(cycles, op_dma_store(&y_st, &y_spm, &y_ddr));
// SLICED-NEXT: }

// HOSTILE: main.c: generated by tx8-aot {{.*}} from "* / int evil_graph = 1; / *" (hostile-names.onnxtxt)
// HOSTILE: /* tx8be.Relu "* / int evil_node = 1; / * line" (onnx.Relu) */
// HOSTILE: return 1; /* "y * / int evil_output = 1; / *" */
// HOSTILE-H: model.h: generated by tx8-aot {{.*}} from "* / int evil_graph = 1; / *"
// CODE: int main(void) {

// INF: inf-epsilon.mlir:4:8: 'tx8be.BatchNorm_Inference' op has a non-finite epsilon (INF), which op_batchnorm_inference cannot take
// TILES5: --tiles 5: not a rectangle of the chip's 4x4 tile mesh

// TILES2:      /* ---- group 0: tx8be.Relu
// TILES2-NEXT:  *      2 steps on 2 of 2 tiles (sharding {2, 1}), output slice {2, 64} (logical dims)
// TILES2:      static const int32_t first_step[3] = {0, 1, 2};
// TILES2-NEXT: const uint32_t tile = tx8_hal_tile_id();
// TILES2:      static const tx8_box [[IN:t[0-9]+]]_box[2] = {{[{][{][{]}}0, 0}, {2, 64}}, {{[{][{]}}2, 0}, {2, 64}}};
// TILES2:      if (tile < 2 && first_step[tile] < first_step[tile + 1]) {
// TILES2:          const int32_t s0 = first_step[tile], s1 = first_step[tile + 1];
// TILES2:      tx8_hal_barrier(); /* every tile of the group has stored its part */
// TILES2:      /* ---- group 1: tx8be.Relu
// TILES2:      static void run_groups(void *arg) {
// TILES2:      if (tx8_hal_run_tiles(2, run_groups, NULL) != 0) return 3;

// SHARED:      /* ---- group 0: tx8be.MatMul "mm"
// SHARED-NEXT:  *      2 steps on 2 of 2 tiles (sharding {1, 2})
// SHARED:      static const tx8_box [[X:t[0-9]+]]_box[1] = {{[{][{][{]}}0, 0}, {1, 512}}};
// SHARED:      { /* [[X]]: the same box on every tile: one DDR read, multicast to each tile's SPM */
// SHARED:          tx8_lshape_box(&[[X]]_ds, [[X]]_whole, 2, &[[X]]_box[0]);
// SHARED-NEXT:     if (tile == 0) {
// SHARED-NEXT:         NOC_COPY_PARAM [[X]]_nc = {LAYOUT_TENSOR, 1, 0, 0, 1, 0};
// SHARED-NEXT:         cycles = ADD_VALID_CYCLE(cycles, op_noc_copy(&[[X]]_nc, &[[X]]_ddr, &[[X]]_spm));
// SHARED-NEXT:     }
// SHARED-NEXT: }
// SHARED-NEXT: tx8_hal_barrier(); /* the shared boxes are in every tile's SPM */
// SHARED-NEXT: if (tile < 2 && first_step[tile] < first_step[tile + 1]) {
// SHARED-NOT:  op_loadVar{{.*}}[[X]]_spm

// PROFILE:      uint64_t last = tx8_hal_cycles();
// PROFILE:      tx8_hal_barrier(); /* --profile: every tile done, so that tile 0's time is the chip's */
// PROFILE-NEXT: if (tx8_hal_tile_id() == 0) {
// PROFILE-NEXT:     const uint64_t now = tx8_hal_cycles();
// PROFILE-NEXT:     tx8_hal_printf("tx8: group %u cycles %llu\n", (unsigned)g, (unsigned long long)(now - last));

// PIPED:      /* ---- group 0: tx8be.Conv "conv"
// PIPED-NEXT:  *      2 steps on tile 0, output slice {1, 2, 4, 8} (logical dims), 2 pipeline stages, 1 buffer
// PIPED:      const int32_t s0 = 0, s1 = 2;
// PIPED-NEXT: tx8_token loaded[1][1] = {{[{][{]}}0}};
// PIPED-NEXT: tx8_token stored[1][1] = {{[{][{]}}0}};
// PIPED-NEXT: for (int32_t l = s0; l < s1 + 0; ++l) {
// PIPED-NEXT:     if (l < s1) {
// PIPED-NEXT:         const int32_t lb = (l - s0) % 1;
// PIPED-NEXT:         tx8_lshape_box(&[[IN:t[0-9]+]]_ds, [[IN]]_whole, 4, &[[IN]]_box[l]);
// PIPED-NEXT:         loaded[lb][0] = op_loadVar_async(&[[IN]]_ld, &[[IN]]_ddr, &[[IN]]_spm, NULL, 0);
// PIPED:          tx8_hal_wait(loaded[b][0]);
// PIPED-NEXT:     if ((s - s0) % 1 == 0) { /* the output buffer's last store is done */
// PIPED-NEXT:         if (stored[ob][0]) tx8_hal_wait(stored[ob][0]);
// PIPED:          cycles = ADD_VALID_CYCLE(cycles, op_conv(&op_param, &in0, &in1, NULL, &out));
// PIPED:          stored[ob][0] = op_dma_store_async(&y_st, &y_spm, &y_ddr, NULL, 0);
// PIPED:      tx8_hal_wait_all();

func.func @main(%x: tensor<1x2x8x8xf32> {tx8be.name = "x"}) -> (tensor<1x2x8x8xf32> {tx8be.name = "y"}) {
  %w = tx8be.Constant dense<0.25> : tensor<2x2x3x3xf32> loc("w")
  %c = tx8be.Conv %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x8x8xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x8x8xf32> loc("conv")
  %y = tx8be.Relu %c : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32> loc("relu")
  return %y : tensor<1x2x8x8xf32>
}

// MULTICAST:      /* ---- group 0: tx8be.MatMul "mm"
// MULTICAST-NEXT:  *      16 steps on 16 of 16 tiles (sharding {4, 4})
// The rows' leaders on the diagonal, the columns' off it: every tile leads at most one multicast.
// MULTICAST:      static const uint16_t [[A:t[0-9]+]]_lead[16] = {0, 0, 0, 0, 5, 5, 5, 5, 10, 10, 10, 10, 15, 15, 15, 15};
// MULTICAST-NEXT: static const uint32_t [[A]]_rect[16][4] = {{[{][{]}}0, 0, 3, 0}, {0, 0, 3, 0}, {0, 0, 3, 0}, {0, 0, 3, 0}, {0, 1, 3, 1},
// MULTICAST:      static const uint16_t [[B:t[0-9]+]]_lead[16] = {4, 9, 14, 3, 4, 9, 14, 3, 4, 9, 14, 3, 4, 9, 14, 3};
// MULTICAST-NEXT: static const uint32_t [[B]]_rect[16][4] = {{[{][{]}}0, 0, 0, 3}, {1, 0, 1, 3}, {2, 0, 2, 3}, {3, 0, 3, 3}, {0, 0, 0, 3},
// MULTICAST:      NOC_COPY_PARAM [[A]]_nc = {LAYOUT_NTENSOR, 1, [[A]]_rect[tile][0], [[A]]_rect[tile][1], [[A]]_rect[tile][2], [[A]]_rect[tile][3]};
// MULTICAST:      tx8_token mcast[2] = {0};
// MULTICAST-NEXT: for (int32_t l = s0; l < s1 + 0; ++l) {
// MULTICAST-NEXT:     tx8_hal_barrier(); /* every tile is done with the buffers the next multicast fills */
// MULTICAST:          if ([[A]]_lead[tile] == tile) { /* from DDR to every tile of its rectangle */
// MULTICAST-NEXT:         tx8_lshape_box(&[[A]]_ds, [[A]]_whole, 2, &[[A]]_box[l]);
// MULTICAST-NEXT:         mcast[0] = op_noc_copy_async(&[[A]]_nc, &[[A]]_ddr, &[[A]]_spm, NULL, 0);
// MULTICAST:          if ([[B]]_lead[tile] == tile) {
// MULTICAST:              mcast[1] = op_noc_copy_async(&[[B]]_nc, &[[B]]_ddr, &[[B]]_spm, NULL, 0);
// MULTICAST:          for (int32_t k = 0; k < 2; ++k) if (mcast[k]) tx8_hal_wait(mcast[k]), mcast[k] = 0;
// MULTICAST-NEXT:     tx8_hal_barrier(); /* the multicast boxes are in every tile's SPM */
// MULTICAST-NEXT:     const int32_t s = l - 0;
// MULTICAST-NOT:      op_loadVar
// MULTICAST:          op_gemm(
