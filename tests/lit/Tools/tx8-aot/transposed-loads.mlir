// tx8be-transposed-loads: an attention's head split (Reshape [8, 32] -> [8, 4, 8], Transpose to [4, 8, 8]) on 4
// tiles. The attention's Group loads one head's [1, 8, 8] box per tile, the same bytes as the [8, 1, 8] box of
// the tensor before the Transpose: its three LoadBoxes read that tensor (perm) and the three Transpose Groups go.
// The head merge after it (Transpose to [8, 4, 8], the function's result through a Reshape) goes too: the
// attention's StoreBox writes each head's box as the [8, 1, 8] box of the merged tensor (perm). The outputs are
// the same bits as with --transposed-loads=false, in fewer cycles.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tx8-aot compile %s --tiles 4 -o %t/on --dump-ir %t/on.mlir > /dev/null
// RUN: tx8-aot compile %s --tiles 4 --transposed-loads=false -o %t/off --dump-ir %t/off.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=IR < %t/on.mlir
// RUN: grep -c "tx8be.Transpose" %t/off.mlir | FileCheck %s --check-prefix=OFF
// RUN: FileCheck %s --check-prefix=MAIN < %t/on/main.c
// RUN: python3 %S/Inputs/npy.py write %t/q.npy 8x32 $(seq -128 127)
// RUN: python3 %S/Inputs/npy.py write %t/k.npy 8x32 $(seq 0 255 | awk '{print ($1 * 37) %% 101 - 50}')
// RUN: python3 %S/Inputs/npy.py write %t/v.npy 8x32 $(seq 0 255 | awk '{print ($1 * 53) %% 89 - 44}')
// RUN: tx8-aot run %t/on --input q=%t/q.npy --input k=%t/k.npy --input v=%t/v.npy --out %t/out-on > %t/on.txt
// RUN: tx8-aot run %t/off --input q=%t/q.npy --input k=%t/k.npy --input v=%t/v.npy --out %t/out-off > %t/off.txt
// RUN: cmp %t/out-on/y.npy %t/out-off/y.npy
// RUN: python3 -c "import re,sys; c=[int(re.search(r'(\d+) simulated cycles', open(f).read()).group(1)) for f in sys.argv[1:]]; sys.exit(0 if c[0] < c[1] else 'transposed loads: %%d cycles, without: %%d' %% tuple(c))" %t/on.txt %t/off.txt
// The printed IR parses back (the LoadBox's result type comes from its source and perm).
// RUN: tx8-opt %t/on.mlir > /dev/null
// On one tile all four heads fit in one step, but the search (which credits a plan with the Transpose groups it
// lets go) takes one head per step, and the Transposes go. Taking the first plan that fits (--opt-search 0), the
// attention loads all four heads in one [4, 8, 8] box: other bytes than the source's [8, 4, 8], so every
// Transpose Group stays.
// RUN: tx8-aot compile %s --tiles 1 -o %t/one --dump-ir %t/one.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=ONE < %t/one.mlir
// RUN: tx8-aot compile %s --tiles 1 --opt-search 0 -o %t/first --dump-ir %t/first.mlir > /dev/null
// RUN: grep -c "tx8be.Transpose" %t/first.mlir | FileCheck %s --check-prefix=OFF
// RUN: not grep -q "perm = array<i64: 1, 0, 2>} : tensor" %t/first.mlir
//
// IR-NOT: tx8be.Transpose
// The attention's Steps fill the merged [8, 4, 8] tensor.
// IR: tx8be.Steps tiles [1, 1, 1, 1] slice [1, 8, 8] -> tensor<8x4x8xf32>
// IR-NEXT: tx8be.LoadBox %{{.*}} {boxes = #tx8be.boxes<rank = 3, start = [0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0], size = [1, 8, 8, 1, 8, 8, 1, 8, 8, 1, 8, 8]{{.*}}perm = array<i64: 1, 0, 2>} : tensor<8x4x8xf32>
// IR-NEXT: tx8be.LoadBox {{.*}}perm = array<i64: 1, 0, 2>} : tensor<8x4x8xf32>
// IR-NEXT: tx8be.LoadBox {{.*}}perm = array<i64: 1, 0, 2>} : tensor<8x4x8xf32>
// IR: tx8be.Attention {{.*}} : (tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
// IR-NEXT: tx8be.StoreBox {{.*}}perm = array<i64: 1, 0, 2>} : tensor<4x8x8xf32>
// IR-NOT: tx8be.Transpose
// OFF: 4
// ONE-NOT: tx8be.Transpose
// ONE: tx8be.Steps tiles [4] slice [1, 8, 8] -> tensor<8x4x8xf32>
// ONE-NOT: tx8be.Transpose
// The DMA's boxes are the source's and the result's: [8, 1, 8] of [8, 4, 8].
// MAIN: static const int32_t t0_whole[3] = {8, 4, 8};
// MAIN-NEXT: static const tx8_box t0_box[4] = {{[{][{][{]}}0, 0, 0}, {8, 1, 8}}, {{[{][{]}}0, 1, 0}, {8, 1, 8}}, {{[{][{]}}0, 2, 0}, {8, 1, 8}}, {{[{][{]}}0, 3, 0}, {8, 1, 8}}};
// MAIN: static const int32_t y_whole[3] = {8, 4, 8};
// MAIN-NEXT: static const tx8_box y_box[4] = {{[{][{][{]}}0, 0, 0}, {8, 1, 8}}, {{[{][{]}}0, 1, 0}, {8, 1, 8}}, {{[{][{]}}0, 2, 0}, {8, 1, 8}}, {{[{][{]}}0, 3, 0}, {8, 1, 8}}};
func.func @main(%q: tensor<8x32xf32> {tx8be.name = "q"}, %k: tensor<8x32xf32> {tx8be.name = "k"}, %v: tensor<8x32xf32> {tx8be.name = "v"}) -> (tensor<8x32xf32> {tx8be.name = "y"}) {
  %q3 = tx8be.Reshape %q : (tensor<8x32xf32>) -> tensor<8x4x8xf32> loc("q_split")
  %k3 = tx8be.Reshape %k : (tensor<8x32xf32>) -> tensor<8x4x8xf32> loc("k_split")
  %v3 = tx8be.Reshape %v : (tensor<8x32xf32>) -> tensor<8x4x8xf32> loc("v_split")
  %qh = tx8be.Transpose %q3 {perm = array<i64: 1, 0, 2>} : (tensor<8x4x8xf32>) -> tensor<4x8x8xf32> loc("q_heads")
  %kh = tx8be.Transpose %k3 {perm = array<i64: 1, 0, 2>} : (tensor<8x4x8xf32>) -> tensor<4x8x8xf32> loc("k_heads")
  %vh = tx8be.Transpose %v3 {perm = array<i64: 1, 0, 2>} : (tensor<8x4x8xf32>) -> tensor<4x8x8xf32> loc("v_heads")
  %o = tx8be.Attention %qh, %kh, %vh {scale = 0.35355339 : f32} : (tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32> loc("attention")
  %om = tx8be.Transpose %o {perm = array<i64: 1, 0, 2>} : (tensor<4x8x8xf32>) -> tensor<8x4x8xf32> loc("merge")
  %y = tx8be.Reshape %om : (tensor<8x4x8xf32>) -> tensor<8x32xf32> loc("y")
  return %y : tensor<8x32xf32>
}
