// RUN: tx8-opt %s --split-input-file --tx8be-group-mapping --verify-diagnostics | FileCheck %s

// Every Group gets the module's mesh (default 1 x 1).
// CHECK-LABEL: func.func @one_tile
// CHECK: tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>}
func.func @one_tile(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tx8be.Group(%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    %r = tx8be.Relu %x : (tensor<4xf32>) -> tensor<4xf32>
    tx8be.Return %r : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @mesh
// CHECK: tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 4, y_dim = 2>}
module attributes {tx8be.tile_dx = 4, tx8be.tile_dy = 2} {
  func.func @mesh(%a: tensor<4xf32>) -> tensor<4xf32> {
    %0 = tx8be.Group(%a) : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%x: tensor<4xf32>):
      %r = tx8be.Relu %x : (tensor<4xf32>) -> tensor<4xf32>
      tx8be.Return %r : tensor<4xf32>
    }
    return %0 : tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{tile mesh 8x1 (tx8be.tile_dx x tx8be.tile_dy) does not fit the chip's 4x4}}
module attributes {tx8be.tile_dx = 8} {
  func.func @too_wide(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}
