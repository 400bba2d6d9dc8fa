// Progress lines: a step of `tx8-aot compile` that takes over a second says so on stderr when stderr is a
// terminal, never with --quiet. A test's stderr is a pipe: TX8_PROGRESS=SECONDS forces the lines on for the
// steps that take at least SECONDS (0: every step).
// RUN: rm -rf %t && mkdir -p %t
// RUN: env TX8_PROGRESS=0 tx8-aot compile %s -o %t/b 2>&1 >/dev/null | FileCheck %s --match-full-lines
// Steps shorter than the limit (these take milliseconds), or stderr not a terminal: no lines.
// RUN: env TX8_PROGRESS=1000 tx8-aot compile %s -o %t/b 2>&1 >/dev/null | count 0
// RUN: env -u TX8_PROGRESS tx8-aot compile %s -o %t/b 2>&1 >/dev/null | count 0
// --quiet: no progress and no "compiled" line: nothing at all. Without it, that line as before.
// RUN: env TX8_PROGRESS=0 tx8-aot compile %s -o %t/b --quiet 2>&1 | count 0
// RUN: env TX8_PROGRESS=0 tx8-aot compile %s -o %t/b 2>/dev/null | FileCheck %s --check-prefix=COMPILED
// Warnings are not silenced by --quiet (a model with a symbolic batch extent, compiled for a batch of 1).
// RUN: sed -e 's/dim_param: "seq"/dim_value: 5/g' %S/../../Import/ONNX/input-shape.onnxtxt > %t/batch.onnxtxt
// RUN: tx8-aot compile %t/batch.onnxtxt -o %t/w --quiet 2>&1 | FileCheck %s --check-prefix=WARN

// CHECK:      tx8-aot: importing the model... {{[0-9]+\.[0-9]}} s
// CHECK-NEXT: tx8-aot: running the passes... {{[0-9]+\.[0-9]}} s
// CHECK-NEXT: tx8-aot: generating code... {{[0-9]+\.[0-9]}} s
// CHECK-NEXT: tx8-aot: writing the bundle... {{[0-9]+\.[0-9]}} s
// CHECK-NOT:  {{.}}

// COMPILED: compiled {{.*}}progress.mlir -> {{.*}}b (0 bytes of constants) in {{[0-9.]+}} s

// WARN: tx8-aot: warning: {{.*}}batch.onnxtxt: graph inputs 'ids' (dim 0, 'batch') and 'mask' (dim 0, 'batch') have symbolic batch extents: compiled for a batch of 1{{.*}}
// WARN-NOT: {{.}}

func.func @main(%x: tensor<2x4xf32> {tx8be.name = "x"}) -> (tensor<2x4xf32> {tx8be.name = "y"}) {
  %y = tx8be.Relu %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
