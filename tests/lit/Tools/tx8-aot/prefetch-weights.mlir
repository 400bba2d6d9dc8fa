// tx8be-prefetch-weights on three linear layers over 4 tiles (Inputs/make_mlp.py, 2 rows): fc2's weight and bias
// columns (each tile one box at its one step) are copied during fc1's group by each tile's DTE, into the top of the
// SPM (the 3 MiB default): the bias 256 bytes (aligned) at the very top, the weight's [256, 32] f32 box below it.
// fc2's group waits for them and loads nothing itself; proj's weight stays loaded by its own group, whose host
// (fc2's group) runs in lockstep. The outputs are the same bits as without the pass, in fewer cycles. The pass
// alone on the plan made without it moves the same boxes to the same addresses.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/make_mlp.py | sed 's/tensor<8x/tensor<2x/g' > %t/mlp.mlir
// RUN: tx8-aot compile %t/mlp.mlir --tiles 4 -o %t/on --dump-ir %t/on.mlir > /dev/null
// RUN: tx8-aot compile %t/mlp.mlir --tiles 4 --prefetch-weights=false -o %t/off --dump-ir %t/off.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=IR < %t/on.mlir
// RUN: tx8-opt %t/off.mlir --tx8be-prefetch-weights | FileCheck %s --check-prefix=IR
// RUN: not grep -q prefetched %t/off.mlir
// RUN: FileCheck %s --check-prefix=MAIN < %t/on/main.c
// RUN: python3 %S/Inputs/npy.py write %t/x.npy 2x64 $(seq -64 63)
// RUN: tx8-aot run %t/on --input x=%t/x.npy --out %t/out-on > %t/on.txt
// RUN: tx8-aot run %t/off --input x=%t/x.npy --out %t/out-off > %t/off.txt
// RUN: cmp %t/out-on/y.npy %t/out-off/y.npy
// RUN: python3 -c "import re,sys; c=[int(re.search(r'(\d+) simulated cycles', open(f).read()).group(1)) for f in sys.argv[1:]]; sys.exit(0 if c[0] < c[1] else 'prefetch: %%d cycles, without: %%d' %% tuple(c))" %t/on.txt %t/off.txt
//
// The host runs in lockstep at 8 rows (A's row blocks multicast per step): nothing moves.
// RUN: python3 %S/Inputs/make_mlp.py > %t/mlp8.mlir
// RUN: tx8-aot compile %t/mlp8.mlir --tiles 4 -o %t/lockstep --dump-ir %t/lockstep.mlir > /dev/null
// RUN: not grep -q prefetched %t/lockstep.mlir
//
// fc2 both waits for the boxes fc1 copied and copies proj's (widths 64 256 256 64): the barrier after its shared
// boxes has waited for the former, and nothing waits for the latter before fc2's steps, which they run beside
// (4,037 cycles; 4,505 when a wait for everything followed the copies; 5,160 without the pass).
// RUN: python3 %S/Inputs/make_mlp.py 64 256 256 64 | sed 's/tensor<8x/tensor<2x/g' > %t/mlp-both.mlir
// RUN: tx8-aot compile %t/mlp-both.mlir --tiles 4 -o %t/both > /dev/null
// RUN: tx8-aot compile %t/mlp-both.mlir --tiles 4 --prefetch-weights=false -o %t/both-off > /dev/null
// RUN: FileCheck %s --check-prefix=BOTH < %t/both/main.c
// RUN: tx8-aot run %t/both --input x=%t/x.npy --out %t/out-both > %t/both.txt
// RUN: tx8-aot run %t/both-off --input x=%t/x.npy --out %t/out-both-off > %t/both-off.txt
// RUN: cmp %t/out-both/y.npy %t/out-both-off/y.npy
// RUN: python3 -c "import re,sys; c=[int(re.search(r'(\d+) simulated cycles', open(f).read()).group(1)) for f in sys.argv[1:]]; sys.exit(0 if c[0] <= 4037 < c[1] else 'prefetch: %%d cycles, without: %%d' %% tuple(c))" %t/both.txt %t/both-off.txt
//
// IR-LABEL: tx8be.Group(%0)
// IR-SAME: spm_alloc_size = 3145728
// IR: tx8be.LoadBox {{.*}}mem_addr = [3112704]>, prefetched} : tensor<256x64xf32>
// IR-NEXT: tx8be.LoadBox {{.*}}mem_addr = [3145472]>, prefetched} : tensor<64xf32>
// IR-LABEL: tx8be.Group(%1)
// IR-NOT: prefetched
// IR: return
//
// MAIN-LABEL: ---- group 0: tx8be.MatMul "fc1"
// MAIN: { /* p0: group 1's box of constant 1, copied by each tile's DTE from DDR into SPM this group leaves free
// MAIN: static const tx8_box p0_box[4] = {{[{][{][{]}}0, 0}, {256, 32}}, {{[{][{]}}0, 32}, {256, 32}}, {{[{][{]}}0, 0}, {256, 32}}, {{[{][{]}}0, 32}, {256, 32}}};
// MAIN: TSR p0_spm = {Fmt_FP32, 0x2f7f00, NULL};
// MAIN: NOC_COPY_PARAM p0_nc = {LAYOUT_NTENSOR, 1, (pt % 4), (pt / 4), (pt % 4), (pt / 4)};
// MAIN-NEXT: if (!op_noc_copy_async(&p0_nc, &p0_ddr, &p0_spm, NULL, 0)) return TX8_CYCLES_INVALID;
// MAIN: TSR p1_spm = {Fmt_FP32, 0x2fff00, NULL};
// MAIN: if (tile < 4 && first_step[tile] < first_step[tile + 1]) {
// MAIN-LABEL: ---- group 1: tx8be.MatMul "fc2"
// MAIN-NOT: op_noc_copy_async(&p
// MAIN: tx8_hal_wait_all(); /* the boxes the group before prefetched */
// MAIN: /* t3: each tile's box of constant 0x10000, prefetched by the group before */
// MAIN-NOT: op_loadVar_async(&t3_ld
// MAIN-LABEL: ---- group 2: tx8be.MatMul "proj"
// MAIN: op_loadVar_async(
//
// BOTH-LABEL: ---- group 1: tx8be.MatMul "fc2"
// BOTH: tx8_hal_barrier(); /* the shared boxes are in every tile's SPM */
// BOTH-NOT: tx8_hal_wait_all
// BOTH: op_noc_copy_async(&p0_nc, &p0_ddr, &p0_spm, NULL, 0)
// BOTH-NOT: the boxes the group before prefetched
// BOTH: ---- group 2: tx8be.MatMul "proj"
// BOTH: /* t{{[0-9]+}}: each tile's box of constant {{.*}}, prefetched by the group before */
