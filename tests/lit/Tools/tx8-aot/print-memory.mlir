// `tx8-aot compile --print-memory` and `tx8-aot memory DIR`: a bundle's memory from its manifest. The plan is
// pinned so that the numbers can be worked out by hand: 2 tiles, no fusion, the first sharding that fits
// (--opt-search 0), one buffer per value (--sw-pipeline=false), a 4 KiB SPM.
// RUN: rm -rf %t && mkdir -p %t
// RUN: echo '{"spm_bytes": 4096}' > %t/hw.json
// RUN: tx8-aot compile %s -o %t/b --hw %t/hw.json --tiles 2 --fuse=false --opt-search 0 --sw-pipeline=false \
// RUN:   --print-memory > %t/out.txt
// RUN: FileCheck %s --match-full-lines --strict-whitespace < %t/out.txt
// The manifest says what the summary reads.
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/b/manifest.json
// `tx8-aot memory` prints the same page for the bundle on disk; --quiet drops only the "compiled" line.
// RUN: tx8-aot memory %t/b > %t/memory.txt
// RUN: tail -n +2 %t/out.txt | diff - %t/memory.txt
// RUN: tx8-aot compile %s -o %t/b --hw %t/hw.json --tiles 2 --fuse=false --opt-search 0 --sw-pipeline=false \
// RUN:   --print-memory --quiet | diff - %t/memory.txt
// The files' sizes are theirs on disk.
// RUN: cd %t/b && python3 -c "import os; fs = sorted(['CMakeLists.txt', 'consts.bin', 'main.c', 'manifest.json', 'model.h']); print('files: %%d bytes' %% sum(os.path.getsize(f) for f in fs)); [print('  %%-16s %%12d bytes' %% (f, os.path.getsize(f))) for f in fs]" > %t/files.txt
// RUN: sed -n '/^files:/,$p' %t/memory.txt | diff - %t/files.txt
// Not a bundle, or one whose manifest was edited: the error loadBundle gives (exit 1).
// RUN: not tx8-aot memory %t/none 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: cp -r %t/b %t/edited && sed -i 's/"spm_bytes": 1028/"spm_bytes": 1/' %t/edited/manifest.json
// RUN: not tx8-aot memory %t/edited 2>&1 | FileCheck %s --check-prefix=EDITED
//
// By hand. Group 0, Relu 4x64 f32 (1024 bytes), its rows cut across both tiles (the first sharding: outer dims
// first): each tile loads 2x64 (512 bytes) and writes 512, at SPM 0 and 512 (a buffer starts at a multiple of
// batch_align_bits / 8 = 256): 1024 bytes. Group 1, ReduceSum to 1x1: its output cannot be cut, so tile 0 alone
// loads all 1024 bytes and writes 4: 1028. Group 2, Add of that and a 1x1 constant, on tile 0: three 4-byte
// buffers at 0, 256, 512: 516. Tile 0's peak is group 1's 1028 (25.1 % of 4096), tile 1's group 0's 1024 (25.0 %).
// DDR: the constant (4 bytes) takes a 4096-byte bank; the tensors are x (1024 bytes, live over group 0), r
// (1024, groups 0-1), s (4, groups 1-2) and y (4, group 2 to the end), each at a bank multiple: x and r overlap
// in time (0 and 4096), s reuses x's bytes (0) and y r's (4096): 4096 + 4 = 5120 bytes past the constants,
// 9216 in all. Inputs: x, 1024; outputs: y, 4; intermediates: r and s, 1028.

// CHECK:memory of bundle {{.*}}b (model print-memory, 2 tiles)
// CHECK-NEXT:SPM peak per tile (the largest group on it; the SPM has 4096 bytes):
// CHECK-NEXT:  tile 0                   1028 bytes  25.1 %  group 1 (ReduceSum)
// CHECK-NEXT:  tile 1                   1024 bytes  25.0 %  group 0 (Relu)
// CHECK-NEXT:DDR: 9216 bytes (the chip has 68719476736)
// CHECK-NEXT:  constants                4096 bytes  consts.bin: 1 entry, bank-aligned
// CHECK-NEXT:  activations              5120 bytes  the tensors below, bank-aligned, sharing bytes by lifetime
// CHECK-NEXT:    inputs                 1024 bytes  1 tensor
// CHECK-NEXT:    outputs                   4 bytes  1 tensor
// CHECK-NEXT:    intermediates          1028 bytes  2 tensors, each counted once
// CHECK-NEXT:files: {{[0-9]+}} bytes
// CHECK-NEXT:  CMakeLists.txt   {{ *[0-9]+}} bytes
// CHECK-NEXT:  consts.bin               4096 bytes
// CHECK-NEXT:  main.c           {{ *[0-9]+}} bytes
// CHECK-NEXT:  manifest.json    {{ *[0-9]+}} bytes
// CHECK-NEXT:  model.h          {{ *[0-9]+}} bytes
// CHECK-NOT:{{.}}

// MANIFEST: "bytes": 9216,
// MANIFEST-NEXT: "const_bytes": 4096,
// MANIFEST-NEXT: "intermediate_bytes": 1028,
// MANIFEST-NEXT: "intermediates": 2
// MANIFEST: "op": "Relu",
// MANIFEST: "spm_bytes": 1024,
// MANIFEST-NEXT: "steps": [
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 1
// MANIFEST: "op": "ReduceSum",
// MANIFEST: "spm_bytes": 1028,
// MANIFEST-NEXT: "steps": [
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 0
// MANIFEST: "op": "Add",
// MANIFEST: "spm_bytes": 516,

// NONE: tx8-aot: error: {{.*}}none: not a bundle directory
// EDITED: tx8-aot: error: {{.*}}edited/manifest.json: edited after compile

func.func @main(%x: tensor<4x64xf32> {tx8be.name = "x"}) -> (tensor<1x1xf32> {tx8be.name = "y"}) {
  %c = tx8be.Constant dense<1.0> : tensor<1x1xf32>
  %r = tx8be.Relu %x : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %s = tx8be.ReduceSum %r : (tensor<4x64xf32>) -> tensor<1x1xf32>
  %y = tx8be.Add %s, %c : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
  return %y : tensor<1x1xf32>
}
