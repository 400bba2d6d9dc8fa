// `tx8-aot reference` runs a model on the golden model: inputs by name (.npy) or from a directory, outputs
// as <name>.npy; wrong inputs are one-line errors naming the input.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py write %t/a.npy 2x3 1 -2 3 -4 5 -6
// RUN: python3 %S/Inputs/npy.py write %t/b.npy 3 0.5 0.5 0.5
// RUN: tx8-aot reference %s --input lhs=%t/a.npy --input rhs=%t/b.npy --out %t/out | FileCheck %s --check-prefix=PRINTS
// RUN: python3 %S/Inputs/npy.py read %t/out/sum.npy | FileCheck %s --check-prefix=VALUES
// RUN: mkdir -p %t/in && cp %t/a.npy %t/in/lhs.npy && cp %t/b.npy %t/in/rhs.npy
// RUN: tx8-aot reference %s --inputs-dir %t/in --out %t/out2
// RUN: cmp %t/out/sum.npy %t/out2/sum.npy
// RUN: not tx8-aot reference %s --input lhs=%t/b.npy --input rhs=%t/b.npy --out %t/bad 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not tx8-aot reference %s --input lhs=%t/a.npy --input x=%t/b.npy --out %t/bad 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not tx8-aot reference %s --input lhs=%t/a.npy --out %t/bad 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not tx8-aot reference %s --input lhs=%t/a.npy --input rhs=%t/nothing.npy --out %t/bad 2>&1 | FileCheck %s --check-prefix=NOFILE

// PRINTS: output 'sum' f32 (2, 3) -> {{.*}}out/sum.npy
// PRINTS: output 'relu' f32 (2, 3) -> {{.*}}out/relu.npy
// VALUES: f32 (2, 3): 1.5 -1.5 3.5 -3.5 5.5 -5.5
// SHAPE: tx8-aot: error: {{.*}}b.npy: input 'lhs' is a f32 tensor of shape (3,), the model expects tensor<2x3xf32>
// NAME: tx8-aot: error: --input x={{.*}}: the model has no input 'x' (inputs: 'lhs', 'rhs')
// MISSING: tx8-aot: error: no value given for input 'rhs' (--input rhs=FILE)
// NOFILE: tx8-aot: error: {{.*}}nothing.npy{{.*}}
func.func @main(%lhs: tensor<2x3xf32> {tx8be.name = "lhs"}, %rhs: tensor<3xf32> {tx8be.name = "rhs"})
    -> (tensor<2x3xf32> {tx8be.name = "sum"}, tensor<2x3xf32> {tx8be.name = "relu"}) {
  %0 = tx8be.Add %lhs, %rhs : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = tx8be.Relu %0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}
