// `tx8-aot compile` shows its insides LLVM-style, through MLIR's pass manager. The model: a Conv whose
// BatchNorm folds into it, a Relu after it (fused into its group), then a second Conv + Relu of the same shapes
// and attributes (the same group key: its plan comes from the first one's search).
// RUN: rm -rf %t && mkdir -p %t
//
// Without these options, nothing on stderr.
// RUN: tx8-aot compile %s -o %t/b 2>&1 >/dev/null | count 0
//
// --mlir-pass-statistics: one BatchNorm folded, no op on splat constants, each Relu merged into its Conv's group,
// two groups planned, each by its own search: the second's weighs the first as the group its weights may be
// prefetched during (part of the group key; with --prefetch-weights=false the second comes from the cache).
// Without fusion: four groups, the second Relu from the cache (the group before it planned as the first's), nothing
// merged.
// RUN: tx8-aot compile %s -o %t/b --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: tx8-aot compile %s -o %t/b --mlir-pass-statistics --prefetch-weights=false 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=NOPREFETCH
// RUN: tx8-aot compile %s -o %t/b --mlir-pass-statistics --fuse=false 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=NOFUSE
//
// --mlir-timing: each step of the compile, the passes nested in the pipeline's.
// RUN: tx8-aot compile %s -o %t/b --mlir-timing 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMING
//
// --mlir-print-ir-after=tx8be-group-cost: that pass's module and no other: planned (a Steps) but not yet in
// SPM (spm_alloc_size comes with tx8be-spm-alloc, two passes later).
// RUN: tx8-aot compile %s -o %t/b --mlir-print-ir-after=tx8be-group-cost 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=AFTER --implicit-check-not="IR Dump" --implicit-check-not=spm_alloc_size
// Several passes, comma-separated or repeated, print in pipeline order.
// RUN: tx8-aot compile %s -o %t/b --mlir-print-ir-after=tx8be-ddr-alloc,tx8be-fold-batchnorm 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=TWO --implicit-check-not="IR Dump"
// RUN: tx8-aot compile %s -o %t/b --mlir-print-ir-after=tx8be-ddr-alloc --mlir-print-ir-after tx8be-fold-batchnorm \
// RUN:   2>&1 >/dev/null | FileCheck %s --check-prefix=TWO --implicit-check-not="IR Dump"
// A name that is no pass of the pipeline is a usage error (exit 2) naming it and listing the passes; nothing
// is compiled.
// RUN: tx8-aot compile %s -o %t/unknown --mlir-print-ir-after=tx8be-group-costs 2> %t/unknown.err; test $? -eq 2
// RUN: FileCheck %s --check-prefix=UNKNOWN < %t/unknown.err
// RUN: not test -e %t/unknown
//
// --dump-dir: one file per pass, numbered so that `ls` lists the pipeline (an earlier dump's files go, other
// files stay); --mlir-print-ir-after-all prints the same passes in the same order.
// RUN: mkdir %t/dump && touch %t/dump/99_tx8be-stale.mlir %t/dump/notes.txt
// RUN: tx8-aot compile %s -o %t/b --dump-dir %t/dump --mlir-print-ir-after-all 2> %t/all.err
// RUN: ls %t/dump | FileCheck %s --check-prefix=DUMP --match-full-lines --implicit-check-not=stale
// RUN: ls %t/dump | grep mlir | sed -e 's/^[0-9]*_//' -e 's/\.mlir$//' > %t/dump.passes
// RUN: grep "IR Dump After" %t/all.err | sed -e 's/.*(\(tx8be-[a-z0-9-]*\)).*/\1/' | diff - %t/dump.passes
// Each file parses: tx8-opt runs the next passes on the module after tx8be-group-cost.
// RUN: tx8-opt %t/dump/*_tx8be-group-cost.mlir --tx8be-sw-pipeline --tx8be-spm-alloc | FileCheck %s --check-prefix=REPARSE
// A pass that fails: its module is the last file, marked Failed (nothing fits a 1 KiB SPM: tx8be-group-cost).
// RUN: echo '{"spm_bytes": 1024}' > %t/small.json
// RUN: not tx8-aot compile %S/Inputs/big.mlir --hw %t/small.json -o %t/big --dump-dir %t/failed 2> /dev/null
// RUN: ls %t/failed | tail -n 1 | FileCheck %s --check-prefix=LAST
// RUN: head -n 1 %t/failed/*_tx8be-group-cost.mlir | FileCheck %s --check-prefix=FAILED
// A directory that cannot be made is an error naming it (exit 1), before anything is compiled.
// RUN: touch %t/file
// RUN: not tx8-aot compile %s -o %t/nodir --dump-dir %t/file/dump 2>&1 | FileCheck %s --check-prefix=NODIR
// RUN: not test -e %t/nodir

// STATS: ... Pass statistics report ...
// STATS: FoldBatchNormPass (tx8be-fold-batchnorm)
// STATS-NEXT: (S) 1 folded - BatchNorms folded into the Conv before them
// STATS-NEXT: FuseAttentionPass (tx8be-fuse-attention)
// STATS-NEXT: (S) 0 fused - MatMul-Softmax-MatMul chains fused into one Attention
// STATS-NEXT: FoldConstantsPass (tx8be-fold-constants)
// STATS-NEXT: (S) 0 splats - ops on splat constants evaluated as one value
// STATS-NEXT: GroupFusePass (tx8be-group-fuse)
// STATS-NEXT: (S) 2 merged - Groups merged into the Group of the elementwise op after them
// STATS-NEXT: GroupCostPass (tx8be-group-cost)
// STATS-NEXT: (S) 2 planned    - Groups given a schedule
// STATS-NEXT: (S) 0 cache-hits - Groups planned by an earlier search of the same group key

// NOPREFETCH: (S) 2 planned
// NOPREFETCH-NEXT: (S) 1 cache-hits

// NOFUSE: (S) 1 folded
// NOFUSE: (S) 0 merged
// NOFUSE: (S) 4 planned
// NOFUSE-NEXT: (S) 1 cache-hits

// TIMING: ... Execution time report ...
// TIMING: Import
// TIMING-NEXT: Pass pipeline
// TIMING-NEXT: 'func.func' Pipeline
// TIMING-NEXT: FuseNormsPass
// TIMING-NEXT: DecomposePass
// TIMING-NEXT: LinearEpiloguePass
// TIMING-NEXT: FoldBatchNormPass
// TIMING: GroupCostPass
// TIMING: GroupDAGPass
// TIMING-NEXT: Codegen
// TIMING-NEXT: Write bundle
// TIMING: Total

// AFTER: // -----// IR Dump After GroupCostPass (tx8be-group-cost) ('func.func' operation: @main) //----- //
// AFTER-NEXT: module attributes {
// AFTER: tx8be.Steps tiles [{{[0-9, ]+}}] slice [{{[0-9, ]+}}]
// AFTER: tx8be.Conv
// AFTER: tx8be.Relu

// TWO: // -----// IR Dump After FoldBatchNormPass (tx8be-fold-batchnorm) ('func.func' operation: @main) //----- //
// TWO-NOT: tx8be.BatchNorm_Inference
// TWO: // -----// IR Dump After DdrAllocPass (tx8be-ddr-alloc) ('builtin.module' operation) //----- //
// TWO: tx8be.const_bytes = 16384 : i64

// UNKNOWN: tx8-aot: error: --mlir-print-ir-after=tx8be-group-costs: no pass 'tx8be-group-costs' in the compile pipeline; its passes are tx8be-fuse-norms, tx8be-decompose, tx8be-linear-epilogue, tx8be-fold-batchnorm, {{.*}}, tx8be-group-cost, {{.*}}, tx8be-group-dag

// DUMP: 01_tx8be-fuse-norms.mlir
// DUMP-NEXT: 02_tx8be-decompose.mlir
// DUMP-NEXT: 03_tx8be-linear-epilogue.mlir
// DUMP-NEXT: 04_tx8be-fold-batchnorm.mlir
// DUMP: {{[0-9]+}}_tx8be-group-fuse.mlir
// DUMP-NEXT: {{[0-9]+}}_tx8be-group-ldst.mlir
// DUMP-NEXT: {{[0-9]+}}_tx8be-group-mapping.mlir
// DUMP-NEXT: {{[0-9]+}}_tx8be-group-cost.mlir
// DUMP: {{[0-9]+}}_tx8be-group-dag.mlir
// DUMP-NEXT: notes.txt

// REPARSE: tx8be.Group
// REPARSE-SAME: spm_alloc_size =

// LAST: {{[0-9]+}}_tx8be-group-cost.mlir
// FAILED: // -----// IR Dump After GroupCostPass Failed (tx8be-group-cost) ('func.func' operation: @main) //----- //

// NODIR: tx8-aot: error: --dump-dir {{.*}}file/dump: cannot create the directory: Not a directory

func.func @main(%x: tensor<1x2x4x4xf32> {tx8be.name = "x"}) -> (tensor<1x2x4x4xf32> {tx8be.name = "y"}) {
  %w = tx8be.Constant dense<[[[[1.0]], [[0.5]]], [[[2.0]], [[-1.0]]]]> : tensor<2x2x1x1xf32>
  %b = tx8be.Constant dense<[1.0, 0.0]> : tensor<2xf32>
  %c = tx8be.Conv %x, %w, %b {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %scale = tx8be.Constant dense<[2.0, 6.0]> : tensor<2xf32>
  %offset = tx8be.Constant dense<[0.5, 1.0]> : tensor<2xf32>
  %mean = tx8be.Constant dense<[1.0, 2.0]> : tensor<2xf32>
  %var = tx8be.Constant dense<[3.0, 8.0]> : tensor<2xf32>
  %n = tx8be.BatchNorm_Inference %c, %scale, %offset, %mean, %var {epsilon = 1.0 : f32} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %r = tx8be.Relu %n : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %w2 = tx8be.Constant dense<[[[[0.25]], [[1.0]]], [[[-2.0]], [[3.0]]]]> : tensor<2x2x1x1xf32>
  %b2 = tx8be.Constant dense<[0.0, 1.0]> : tensor<2xf32>
  %c2 = tx8be.Conv %r, %w2, %b2 {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %y = tx8be.Relu %c2 : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}
