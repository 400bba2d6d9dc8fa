// Compiling over an existing bundle (or an empty directory) replaces it: the old bundle is renamed aside, the
// new one renamed into place, then the old one removed. The result is the same as a fresh compile, nothing of
// the old bundle survives (not even the build-<target> directory `tx8-aot run` made), and no temporary
// sibling directory (.tmp-*, .old-*) is left behind. (A bundle holding files of the user's is not replaced:
// tests/bad-inputs.)
// RUN: rm -rf %t && mkdir -p %t
// RUN: tx8-aot compile %s -o %t/fresh
// RUN: tx8-aot compile %s -o %t/b
// RUN: mkdir %t/b/build-cmodel && touch %t/b/build-cmodel/stale.txt
// RUN: tx8-aot compile %s -o %t/b
// RUN: not test -e %t/b/build-cmodel
// RUN: diff -r %t/fresh %t/b
// RUN: mkdir %t/empty
// RUN: tx8-aot compile %s -o %t/empty
// RUN: diff -r %t/fresh %t/empty
// RUN: ls -A %t | FileCheck %s --match-full-lines --implicit-check-not={{.}}
// CHECK: b
// CHECK-NEXT: empty
// CHECK-NEXT: fresh
func.func @main(%x: tensor<2x4xf32> {tx8be.name = "x"}) -> (tensor<2x4xf32> {tx8be.name = "y"}) {
  %y = tx8be.Relu %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
