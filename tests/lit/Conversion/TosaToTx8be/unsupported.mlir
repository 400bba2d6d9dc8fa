// TOSA ops (and variants) without a tx8be lowering fail the pass with an error at the op, naming it.
// RUN: tx8-opt %s -split-input-file -convert-tosa-to-tx8be -verify-diagnostics

func.func @no_lowering(%x: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{failed to legalize operation 'tosa.tile' that was explicitly marked illegal}}
  %0 = tosa.tile %x {multiples = array<i64: 2, 1>} : (tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @integer_add(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{failed to legalize operation 'tosa.add' that was explicitly marked illegal}}
  %0 = tosa.add %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @dynamic_perms(%x: tensor<2x3xf32>, %p: tensor<2xi32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{failed to legalize operation 'tosa.transpose' that was explicitly marked illegal}}
  %0 = tosa.transpose %x, %p : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @negative_pad(%x: tensor<4xf32>) -> tensor<3xf32> {
  %p = "tosa.const"() <{value = dense<[[-1, 0]]> : tensor<1x2xi32>}> : () -> tensor<1x2xi32>
  // expected-error @+1 {{failed to legalize operation 'tosa.pad' that was explicitly marked illegal}}
  %0 = tosa.pad %x, %p : (tensor<4xf32>, tensor<1x2xi32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @reduce_prod(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{failed to legalize operation 'tosa.reduce_prod' that was explicitly marked illegal}}
  %0 = tosa.reduce_prod %a {axis = 0 : i32} : (tensor<4xf32>) -> tensor<1xf32>
  %1 = tosa.add %0, %b : (tensor<1xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
