// A graph output with no elements is computed at compile time (an empty constant: nothing runs on the device);
// an op that reads an empty tensor into a non-empty result is refused by name, never a crash.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tx8-aot compile %s -o %t/b | FileCheck %s --check-prefix=OK
// OK: compiled {{.*}} (0 bytes of constants)
// RUN: sed -e 's/return %0, %x/return %0, %1/' %s > %t/concat.mlir
// RUN: not tx8-aot compile %t/concat.mlir -o %t/c 2>&1 | FileCheck %s --check-prefix=CONCAT
// CONCAT: node 'cat': 'tx8be.Concat' op has an empty operand ('tensor<0x4xf32>'): the device does not compute on tensors with no elements

func.func @main(%x: tensor<3x4xf32> {tx8be.name = "x"}) -> (tensor<0x4xf32> {tx8be.name = "e"}, tensor<3x4xf32> {tx8be.name = "y"}) {
  %0 = tx8be.Slice %x {offsets = array<i64: 0, 0>, sizes = array<i64: 0, 4>, strides = array<i64: 1, 1>} : (tensor<3x4xf32>) -> tensor<0x4xf32> loc("empty")
  %1 = tx8be.Concat %0, %x {axis = 0 : i64} : (tensor<0x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32> loc("cat")
  return %0, %x : tensor<0x4xf32>, tensor<3x4xf32>
}
