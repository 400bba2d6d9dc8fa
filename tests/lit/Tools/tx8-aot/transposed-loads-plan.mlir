// tx8be-group-cost with tx8be-transposed-loads: GPT-2-small's causal attention (12 heads, 128 tokens, head dim 64,
// bf16) on 16 tiles. Alone its cheapest plan is 3 heads x 32 queries per tile ([4, 4, 1], one step), whose boxes
// of Q, K and V hold three heads: other bytes than the tensors before the head split, so the four Transpose
// groups stay. The search credits a plan with the Transpose groups tx8be-transposed-loads can drop for it, and
// with credits also tries one head per step: the same sharding in 3 steps of [1, 32, 64] costs the attention
// more but lets every Transpose go. Q is read per step through perm; K and V, the same box for the 4 tiles of a
// query block's row of the mesh, are multicast through perm. The same output bits, in fewer cycles.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tx8-aot compile %s -o %t/on --dump-ir %t/on.mlir > /dev/null
// RUN: tx8-aot compile %s --transposed-loads=false -o %t/off --dump-ir %t/off.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=ON < %t/on.mlir
// RUN: FileCheck %s --check-prefix=OFF < %t/off.mlir
// RUN: python3 -c "import sys; sys.path.insert(0, '%S/Inputs'); import npy; [npy.write('%t/' + n + '.npy', '128x768', [((i * m) %% 101 - 50) / 25 for i in range(98304)]) for n, m in (('q', 37), ('k', 53), ('v', 71))]; npy.write('%t/mask.npy', '1x128x128', [0.0 if i %% 128 <= i // 128 else -1e9 for i in range(16384)])"
// RUN: tx8-aot run %t/on --input q=%t/q.npy --input k=%t/k.npy --input v=%t/v.npy --input mask=%t/mask.npy --out %t/out-on > %t/on.txt
// RUN: tx8-aot run %t/off --input q=%t/q.npy --input k=%t/k.npy --input v=%t/v.npy --input mask=%t/mask.npy --out %t/out-off > %t/off.txt
// RUN: cmp %t/out-on/y.npy %t/out-off/y.npy
// RUN: python3 -c "import re,sys; c=[int(re.search(r'(\d+) simulated cycles', open(f).read()).group(1)) for f in sys.argv[1:]]; sys.exit(0 if c[0] < c[1] else 'one head per tile: %%d cycles, without: %%d' %% tuple(c))" %t/on.txt %t/off.txt
//
// ON-NOT: tx8be.Transpose
// ON: tx8be.Steps tiles [3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3] slice [1, 32, 64] -> tensor<128x12x64xbf16> attributes {estimate = {{[0-9]+}} : i64, multi_buf = 2 : i64, sharding = array<i64: 4, 4, 1>
// ON-NEXT: tx8be.LoadBox {{.*}}perm = array<i64: 1, 0, 2>} : tensor<128x12x64xbf16>
// ON-NEXT: tx8be.LoadBox {{.*}}multicast = array<i64: 0, 0, 0, 0, 5, 5, 5, 5, 10, 10, 10, 10, 15, 15, 15, 15>, perm = array<i64: 1, 0, 2>} : tensor<128x12x64xbf16>
// ON-NEXT: tx8be.LoadBox {{.*}}multicast = {{.*}}perm = array<i64: 1, 0, 2>} : tensor<128x12x64xbf16>
// ON-NOT: tx8be.Transpose
// OFF-COUNT-3: tx8be.Transpose {{.*}} : (tensor<128x12x64xbf16>) -> tensor<12x128x64xbf16>
// OFF: slice [3, 32, 64] -> tensor<12x128x64xbf16> attributes {estimate = {{[0-9]+}} : i64, sharding = array<i64: 4, 4, 1>
// OFF-NEXT: tx8be.LoadBox
// OFF-NOT: perm = array
// OFF: tx8be.Transpose {{.*}} : (tensor<12x128x64xbf16>) -> tensor<128x12x64xbf16>
func.func @main(%q: tensor<128x768xf32> {tx8be.name = "q"}, %k: tensor<128x768xf32> {tx8be.name = "k"}, %v: tensor<128x768xf32> {tx8be.name = "v"}, %mask: tensor<1x128x128xf32> {tx8be.name = "mask"}) -> (tensor<128x768xf32> {tx8be.name = "y"}) {
  %qb = tx8be.Cast %q : (tensor<128x768xf32>) -> tensor<128x768xbf16> loc("q_bf16")
  %kb = tx8be.Cast %k : (tensor<128x768xf32>) -> tensor<128x768xbf16> loc("k_bf16")
  %vb = tx8be.Cast %v : (tensor<128x768xf32>) -> tensor<128x768xbf16> loc("v_bf16")
  %q3 = tx8be.Reshape %qb : (tensor<128x768xbf16>) -> tensor<128x12x64xbf16> loc("q_split")
  %k3 = tx8be.Reshape %kb : (tensor<128x768xbf16>) -> tensor<128x12x64xbf16> loc("k_split")
  %v3 = tx8be.Reshape %vb : (tensor<128x768xbf16>) -> tensor<128x12x64xbf16> loc("v_split")
  %qh = tx8be.Transpose %q3 {perm = array<i64: 1, 0, 2>} : (tensor<128x12x64xbf16>) -> tensor<12x128x64xbf16> loc("q_heads")
  %kh = tx8be.Transpose %k3 {perm = array<i64: 1, 0, 2>} : (tensor<128x12x64xbf16>) -> tensor<12x128x64xbf16> loc("k_heads")
  %vh = tx8be.Transpose %v3 {perm = array<i64: 1, 0, 2>} : (tensor<128x12x64xbf16>) -> tensor<12x128x64xbf16> loc("v_heads")
  %o = tx8be.Attention %qh, %kh, %vh, %mask {scale = 0.125 : f32, ne_in_fmt = "bf16"} : (tensor<12x128x64xbf16>, tensor<12x128x64xbf16>, tensor<12x128x64xbf16>, tensor<1x128x128xf32>) -> tensor<12x128x64xf32> loc("attention")
  %ob = tx8be.Cast %o : (tensor<12x128x64xf32>) -> tensor<12x128x64xbf16> loc("heads_bf16")
  %om = tx8be.Transpose %ob {perm = array<i64: 1, 0, 2>} : (tensor<12x128x64xbf16>) -> tensor<128x12x64xbf16> loc("merge")
  %y3 = tx8be.Reshape %om : (tensor<128x12x64xbf16>) -> tensor<128x768xbf16> loc("merged")
  %y = tx8be.Cast %y3 : (tensor<128x768xbf16>) -> tensor<128x768xf32> loc("y")
  return %y : tensor<128x768xf32>
}
