// `tx8-aot run` builds a bundle without a build tree of its own in a configured tree it shares with other
// bundles of the same SDK and target (<tmp>/tx8-aot-<uid>/builds): one slot serves Relu, then Neg, then Relu
// again, each run giving its own model's values (the sources copied in are the bundle's, ninja rebuilds what
// changed). The bundle keeps only the program. TX8_BUILD_CACHE=0, or a cache directory that is not the user's
// own (here a symlink), builds in <bundle>/build-cmodel as before.
// RUN: rm -rf %t && mkdir -p %t/tmp %t/unsafe %t/elsewhere
// RUN: sed 's/tx8be.Relu/tx8be.Neg/' %s > %t/neg.mlir
// RUN: tx8-aot compile %s -o %t/relu
// RUN: tx8-aot compile %t/neg.mlir -o %t/neg
// RUN: python3 %S/Inputs/npy.py write %t/x.npy 2x4 1 -2 3 -4 5 -6 7 -8
// RUN: env TMPDIR=%t/tmp tx8-aot run %t/relu --input x=%t/x.npy --out %t/out1
// RUN: python3 %S/Inputs/npy.py read %t/out1/y.npy | FileCheck %s --check-prefix=RELU
// RUN: env TMPDIR=%t/tmp tx8-aot run %t/neg --input x=%t/x.npy --out %t/out2
// RUN: python3 %S/Inputs/npy.py read %t/out2/y.npy | FileCheck %s --check-prefix=NEG
// RUN: env TMPDIR=%t/tmp tx8-aot run %t/relu --input x=%t/x.npy --out %t/out3
// RUN: python3 %S/Inputs/npy.py read %t/out3/y.npy | FileCheck %s --check-prefix=RELU
// RUN: ls %t/tmp/tx8-aot-*/builds | FileCheck %s --check-prefix=SLOTS --implicit-check-not={{.}}
// RUN: ls %t/relu/build-cmodel | FileCheck %s --check-prefix=PROGRAM --match-full-lines --implicit-check-not={{.}}
//
// RUN: cp -r %t/neg %t/own && env TMPDIR=%t/tmp TX8_BUILD_CACHE=0 tx8-aot run %t/own --input x=%t/x.npy --out %t/out4
// RUN: test -f %t/own/build-cmodel/CMakeCache.txt
// RUN: python3 %S/Inputs/npy.py read %t/out4/y.npy | FileCheck %s --check-prefix=NEG
// RUN: ln -s %t/elsewhere %t/unsafe/tx8-aot-$(id -u)
// RUN: cp -r %t/relu %t/relu2 && rm -r %t/relu2/build-cmodel
// RUN: env TMPDIR=%t/unsafe tx8-aot run %t/relu2 --input x=%t/x.npy --out %t/out5
// RUN: python3 %S/Inputs/npy.py read %t/out5/y.npy | FileCheck %s --check-prefix=RELU
// RUN: test -f %t/relu2/build-cmodel/CMakeCache.txt
// RUN: test -z "$(ls -A %t/elsewhere)"
// RELU: 1 0 3 0 5 0 7 0
// NEG: -1 2 -3 4 -5 6 -7 8
// SLOTS: {{[0-9a-f]+}}-0
// SLOTS-NEXT: {{[0-9a-f]+}}-0.lock
// PROGRAM: model
func.func @main(%x: tensor<2x4xf32> {tx8be.name = "x"}) -> (tensor<2x4xf32> {tx8be.name = "y"}) {
  %y = tx8be.Relu %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
