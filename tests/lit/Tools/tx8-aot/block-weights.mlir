// tx8be-block-weights on three linear layers in bf16 over 4 tiles (Inputs/make_mlp.py 32 96 48 32, 2 rows): every
// weight is cut into column blocks whose rows are not whole 64-byte DDR bursts (48, 24 and 16 bf16), so each gets
// column_block and consts.bin stores it block by block: fc1's weight (prefetched during the Cast's group), fc2's
// (loaded per step) and proj's. Each box becomes one box of the [N / w, K, w] image. The outputs are the same bits
// as with the row-major images (every weight column differs: a box from the wrong bytes changes them), in fewer
// cycles. The biases (rank 1) and the activations stay as they are; --block-weights=false changes nothing.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/make_mlp.py 32 96 48 32 | sed 's/tensor<8x/tensor<2x/g' > %t/mlp.mlir
// RUN: tx8-aot compile %t/mlp.mlir --tiles 4 --precision bf16 -o %t/on --dump-ir %t/on.mlir > /dev/null
// RUN: tx8-aot compile %t/mlp.mlir --tiles 4 --precision bf16 --block-weights=false -o %t/off --dump-ir %t/off.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=IR < %t/on.mlir
// RUN: tx8-opt %t/off.mlir --tx8be-block-weights | FileCheck %s --check-prefix=IR
// RUN: not grep -q column_block %t/off.mlir
// RUN: FileCheck %s --check-prefix=MAIN < %t/on/main.c
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/on/manifest.json
// RUN: python3 %S/Inputs/npy.py write %t/x.npy 2x32 $(seq -32 31)
// RUN: tx8-aot run %t/on --input x=%t/x.npy --out %t/out-on > %t/on.txt
// RUN: tx8-aot run %t/off --input x=%t/x.npy --out %t/out-off > %t/off.txt
// RUN: cmp %t/out-on/y.npy %t/out-off/y.npy
// RUN: python3 -c "import re,sys; c=[int(re.search(r'(\d+) simulated cycles', open(f).read()).group(1)) for f in sys.argv[1:]]; sys.exit(0 if c[0] < c[1] else 'blocked: %%d cycles, row-major: %%d' %% tuple(c))" %t/on.txt %t/off.txt
//
// IR: tx8be.LoadConst {bypasscodegen = true, column_block = 48 : i64, const_map_id = 0 : ui32} : tensor<32x96xbf16>
// IR-NOT: column_block{{.*}}tensor<96xf32>
// IR: tx8be.LoadConst {bypasscodegen = true, column_block = 24 : i64, const_map_id = 2 : ui32} : tensor<96x48xbf16>
// IR: tx8be.LoadConst {bypasscodegen = true, column_block = 16 : i64, const_map_id = 4 : ui32} : tensor<48x32xbf16>
//
// MAIN-LABEL: ---- group 0: tx8be.Cast
// MAIN: static const int32_t p0_whole[3] = {2, 32, 48};
// MAIN-NEXT: static const tx8_box p0_box[4] = {{[{][{][{]}}0, 0, 0}, {1, 32, 48}}, {{[{][{]}}1, 0, 0}, {1, 32, 48}}, {{[{][{]}}0, 0, 0}, {1, 32, 48}}, {{[{][{]}}1, 0, 0}, {1, 32, 48}}};
// MAIN: tx8_lshape_box(&p0_ds, p0_whole, 3, &p0_box[pt]);
// MAIN-LABEL: ---- group 2: tx8be.MatMul "fc2"
// MAIN: static const int32_t t3_whole[3] = {2, 96, 24};
// MAIN-NEXT: static const tx8_box t3_box[4] = {{[{][{][{]}}0, 0, 0}, {1, 96, 24}}, {{[{][{]}}1, 0, 0}, {1, 96, 24}}, {{[{][{]}}0, 0, 0}, {1, 96, 24}}, {{[{][{]}}1, 0, 0}, {1, 96, 24}}};
// MAIN: tx8_lshape_box(&t3_ds, t3_whole, 3, &t3_box[l]);
// MAIN-LABEL: ---- group 3: tx8be.MatMul "proj"
// MAIN: static const int32_t t2_whole[3] = {2, 48, 16};
//
// MANIFEST: "id": 0,
// MANIFEST-NEXT: "layout": "column blocks of 48",
// MANIFEST: "id": 2,
// MANIFEST-NEXT: "layout": "column blocks of 24",
// MANIFEST: "id": 4,
// MANIFEST-NEXT: "layout": "column blocks of 16",
