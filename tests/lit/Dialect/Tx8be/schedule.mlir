// The schedule ops (Tx8beScheduleOps.td): a planned Group round-trips, and every verifier message, one case
// each.
// RUN: tx8-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @planned
// CHECK: tx8be.Steps tiles [2] slice [1, 64] -> tensor<2x64xf32> {
// CHECK-NEXT: %[[X:.*]], %[[XT:.*]] = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
// CHECK-NEXT: tx8be.Wait %[[XT]]
// CHECK-NEXT: %[[Y:.*]] = tx8be.Relu %[[X]]
// CHECK-NEXT: %[[YT:.*]] = tx8be.StoreBox %[[Y]] into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
// CHECK-NEXT: tx8be.Wait %[[YT]]
// CHECK-NEXT: }
// CHECK-NEXT: tx8be.Barrier
// CHECK-NEXT: tx8be.Return
func.func @planned(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) {group_tag = 0 : i32} : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    %1 = tx8be.Steps tiles [2] slice [1, 64] -> tensor<2x64xf32> {
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
      tx8be.Wait %xt
      %y = tx8be.Relu %x : (tensor<2x64xf32>) -> tensor<2x64xf32>
      %yt = tx8be.StoreBox %y into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
      tx8be.Wait %yt
    }
    tx8be.Barrier
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

func.func @rows_per_step(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    %1 = tx8be.Steps tiles [2] slice [1, 64] -> tensor<2x64xf32> {
      // expected-error @+1 {{'tx8be.LoadBox' op box table has 1 rows, the enclosing Steps 2 steps}}
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0], size = [1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
      %yt = tx8be.StoreBox %x into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
    }
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

func.func @once_differs(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    %1 = tx8be.Steps tiles [2] slice [1, 64] -> tensor<2x64xf32> {
      // expected-error @+1 {{'tx8be.LoadBox' op is loaded once, but step 1's box differs from step 0's}}
      %x, %xt = tx8be.LoadBox %arg1 {once, boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
      %yt = tx8be.StoreBox %x into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
    }
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

// Tiles 0, 1 (row 0 of the 4x4 mesh) read row 0 of the tensor, tiles 2, 3 its row 1: tiles 0 and 3 bring them.
// CHECK-LABEL: func.func @multicast
// CHECK: tx8be.LoadBox %arg1 {boxes = {{.*}}, multicast = array<i64: 0, 0, 3, 3>}
func.func @multicast(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    %1 = tx8be.Steps tiles [1, 1, 1, 1] slice [1, 64] -> tensor<2x64xf32> {
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 0, 0, 1, 0, 1, 0], size = [1, 64, 1, 64, 1, 64, 1, 64], pad_low = [], pad_high = []>, multicast = array<i64: 0, 0, 3, 3>} : tensor<2x64xf32>
      %yt = tx8be.StoreBox %x into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 0, 0, 1, 0, 1, 0], size = [1, 64, 1, 64, 1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
    }
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

func.func @multicast_not_leader(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    %1 = tx8be.Steps tiles [1, 1] slice [1, 64] -> tensor<2x64xf32> {
      // expected-error @+1 {{'tx8be.LoadBox' op multicast: tile 0 names tile 1, which is not a leader}}
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 0, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>, multicast = array<i64: 1, 0>} : tensor<2x64xf32>
      %yt = tx8be.StoreBox %x into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 0, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
    }
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

func.func @multicast_box_differs(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    %1 = tx8be.Steps tiles [1, 1] slice [1, 64] -> tensor<2x64xf32> {
      // expected-error @+1 {{'tx8be.LoadBox' op multicast: tile 1's box at its step 0 differs from its leader 0's}}
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>, multicast = array<i64: 0, 0>} : tensor<2x64xf32>
      %yt = tx8be.StoreBox %x into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
    }
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

// Tiles 0 and 2 of row 0 leave tile 1 out: no DTE rectangle.
func.func @multicast_hole(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    %1 = tx8be.Steps tiles [1, 1, 1] slice [1, 64] -> tensor<2x64xf32> {
      // expected-error @+1 {{'tx8be.LoadBox' op multicast: the tiles led by tile 0 do not fill a rectangle of the 4x4 mesh}}
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0, 0, 0], size = [1, 64, 1, 64, 1, 64], pad_low = [], pad_high = []>, multicast = array<i64: 0, 1, 0>} : tensor<2x64xf32>
      %yt = tx8be.StoreBox %x into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0, 0, 0], size = [1, 64, 1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
    }
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

func.func @multicast_lockstep(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    %1 = tx8be.Steps tiles [2, 0] slice [1, 64] -> tensor<2x64xf32> {
      // expected-error @+1 {{'tx8be.LoadBox' op is multicast, but the tiles do not all run the same number of steps (lockstep)}}
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>, multicast = array<i64: 0, 0>} : tensor<2x64xf32>
      %yt = tx8be.StoreBox %x into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
    }
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

func.func @multicast_once(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    %1 = tx8be.Steps tiles [1, 1] slice [1, 64] -> tensor<2x64xf32> {
      // expected-error @+1 {{'tx8be.LoadBox' op is both loaded once and multicast per step}}
      %x, %xt = tx8be.LoadBox %arg1 {once, boxes = #tx8be.boxes<rank = 2, start = [0, 0, 0, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>, multicast = array<i64: 0, 0>} : tensor<2x64xf32>
      %yt = tx8be.StoreBox %x into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 0, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
    }
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

func.func @multicast_entries(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    %1 = tx8be.Steps tiles [1, 1] slice [1, 64] -> tensor<2x64xf32> {
      // expected-error @+1 {{'tx8be.LoadBox' op multicast has 1 entries for 2 tiles}}
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 0, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>, multicast = array<i64: 0>} : tensor<2x64xf32>
      %yt = tx8be.StoreBox %x into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 0, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
    }
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

func.func @outside(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    %1 = tx8be.Steps tiles [1] slice [2, 64] -> tensor<2x64xf32> {
      // expected-error @+1 {{'tx8be.LoadBox' op step 0's box [1, 3) of dim 0 is outside the tensor's 2}}
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [1, 0], size = [2, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
      %yt = tx8be.StoreBox %x into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0], size = [2, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
    }
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

func.func @rank(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    %1 = tx8be.Steps tiles [1] slice [2, 64] -> tensor<2x64xf32> {
      // expected-error @+1 {{'tx8be.LoadBox' op box table has rank 1, the tensor 2}}
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 1, start = [0], size = [2], pad_low = [], pad_high = []>} : tensor<2x64xf32>
      %yt = tx8be.StoreBox %x into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0], size = [2, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
    }
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

func.func @not_stored(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    // expected-error @+1 {{'tx8be.Steps' op result 0 is filled by 0 StoreBox ops, expected one}}
    %1 = tx8be.Steps tiles [1] slice [2, 64] -> tensor<2x64xf32> {
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0], size = [2, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
    }
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

func.func @store_index(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    %1 = tx8be.Steps tiles [1] slice [2, 64] -> tensor<2x64xf32> {
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0], size = [2, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
      // expected-error @+1 {{'tx8be.StoreBox' op stores into result 1 of a Steps with 1}}
      %yt = tx8be.StoreBox %x into 1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0], size = [2, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
    }
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

func.func @store_pads(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    %1 = tx8be.Steps tiles [1] slice [2, 64] -> tensor<2x64xf32> {
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0], size = [2, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
      // expected-error @+1 {{'tx8be.StoreBox' op box table has pads; a stored slice has none}}
      %yt = tx8be.StoreBox %x into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0], size = [2, 64], pad_low = [1, 0], pad_high = [0, 0]>} : tensor<2x64xf32>
    }
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

func.func @load_inside(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    %1 = tx8be.Steps tiles [1] slice [2, 64] -> tensor<2x64xf32> {
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0], size = [2, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
      // expected-error @+1 {{'tx8be.LoadBox' op loads a value defined inside its Steps; the source must be in DDR}}
      %z, %zt = tx8be.LoadBox %x {boxes = #tx8be.boxes<rank = 2, start = [0, 0], size = [2, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
      %yt = tx8be.StoreBox %z into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0], size = [2, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
    }
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

func.func @load_const_not_in_place(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    %c = tx8be.LoadConst {const_map_id = 0 : ui32} : tensor<2x64xf32>
    %1 = tx8be.Steps tiles [1] slice [2, 64] -> tensor<2x64xf32> {
      // expected-error @+1 {{'tx8be.LoadBox' op loads a LoadConst that is not read in place (bypasscodegen); the source must be in DDR}}
      %z, %zt = tx8be.LoadBox %c {boxes = #tx8be.boxes<rank = 2, start = [0, 0], size = [2, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
      %yt = tx8be.StoreBox %z into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0], size = [2, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
    }
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

// tx8be-block-weights: a constant stored in column blocks is read only by LoadBoxes of whole blocks.
func.func @column_block_partial_box(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    %c = tx8be.LoadConst {bypasscodegen = true, column_block = 16 : i64, const_map_id = 0 : ui32} : tensor<2x64xf32>
    %1 = tx8be.Steps tiles [2] slice [2, 32] -> tensor<2x64xf32> {
      // expected-error @+1 {{'tx8be.LoadBox' op loads a constant stored in blocks of 16 columns, but step 1's box is not one whole block}}
      %z, %zt = tx8be.LoadBox %c {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 0, 16], size = [2, 16, 2, 32], pad_low = [], pad_high = []>} : tensor<2x64xf32>
      %yt = tx8be.StoreBox %z into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 0, 32], size = [2, 32, 2, 32], pad_low = [], pad_high = []>} : tensor<2x64xf32>
    }
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

func.func @column_block_not_dividing() -> tensor<2x64xf32> {
  // expected-error @+1 {{'tx8be.LoadConst' op column_block 24 must divide the last dim of a tensor of rank 2 or more, not 'tensor<2x64xf32>'}}
  %c = tx8be.LoadConst {bypasscodegen = true, column_block = 24 : i64, const_map_id = 0 : ui32} : tensor<2x64xf32>
  return %c : tensor<2x64xf32>
}

// -----

func.func @column_block_read_whole() -> tensor<2x64xf32> {
  // expected-error @+1 {{'tx8be.LoadConst' op has column_block 16, but func.return reads it (only LoadBoxes of whole blocks may)}}
  %c = tx8be.LoadConst {bypasscodegen = true, column_block = 16 : i64, const_map_id = 0 : ui32} : tensor<2x64xf32>
  return %c : tensor<2x64xf32>
}

// -----

func.func @slice(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    // expected-error @+1 {{'tx8be.Steps' op slice extents must be positive}}
    %1 = tx8be.Steps tiles [1] slice [0, 64] -> tensor<2x64xf32> {
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0], size = [2, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
      %yt = tx8be.StoreBox %x into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0], size = [2, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
    }
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

// expected-error @+1 {{box table of rank 2 has 3 values, not a whole number of rows}}
func.func @ragged() attributes {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1], size = [1, 2, 3], pad_low = [], pad_high = []>} {
  return
}

// -----

// expected-error @+1 {{box table row 0 has start 0 and size 0 in dim 1 (start >= 0, size >= 1)}}
func.func @empty_box() attributes {boxes = #tx8be.boxes<rank = 2, start = [0, 0], size = [1, 0], pad_low = [], pad_high = []>} {
  return
}

// -----

func.func @outside_steps(%t: !tx8be.token) {
  // expected-error @+1 {{'tx8be.Wait' op expects parent op 'tx8be.Steps'}}
  tx8be.Wait %t
  return
}

// -----

func.func @no_steps(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    // expected-error @+1 {{'tx8be.Steps' op tiles must give a step count in [0, 16777216] for each of at most 1024 tiles, at least one step in all}}
    tx8be.Steps tiles [0, 0] slice [1, 64] {
    }
    tx8be.Return %arg1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

func.func @more_tiles_than_region(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) {dev_region = #tx8be.region_attr<x_dim = 1, y_dim = 1>} : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    // expected-error @+1 {{'tx8be.Steps' op has steps for 2 tiles, its Group's dev_region has 1}}
    %1 = tx8be.Steps tiles [1, 1] slice [1, 64] -> tensor<2x64xf32> {
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
      %yt = tx8be.StoreBox %x into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
    }
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

func.func @sharding_product(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    // expected-error @+1 {{'tx8be.Steps' op sharding must have one part count >= 1 per output dim, their product at most the 2 tiles}}
    %1 = tx8be.Steps tiles [1, 1] slice [1, 64] -> tensor<2x64xf32> attributes {sharding = array<i64: 2, 2>} {
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
      %yt = tx8be.StoreBox %x into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
    }
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

func.func @three_buffers(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    // expected-error @+1 {{'tx8be.Steps' op multi_buf 3: one or two buffers per value}}
    %1 = tx8be.Steps tiles [2] slice [1, 64] -> tensor<2x64xf32> attributes {multi_buf = 3 : i64} {
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
      %yt = tx8be.StoreBox %x into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
    }
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

func.func @lookahead_one_buffer(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    // expected-error @+1 {{'tx8be.Steps' op sp_stage_num 3: 1, 2, or 3 with multi_buf 2 (a load ahead needs a second buffer)}}
    %1 = tx8be.Steps tiles [2] slice [1, 64] -> tensor<2x64xf32> attributes {sp_stage_num = 3 : i64} {
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
      %yt = tx8be.StoreBox %x into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
    }
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

func.func @uneven_runs(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x64xf32>) -> tensor<2x64xf32> {
  ^bb0(%arg1: tensor<2x64xf32>):
    // expected-error @+1 {{'tx8be.Steps' op tile 0 runs 1 steps, not a multiple of reduce_steps 2}}
    %1 = tx8be.Steps tiles [1, 1] slice [1, 64] -> tensor<2x64xf32> attributes {reduce_steps = 2 : i64} {
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
      %yt = tx8be.StoreBox %x into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0], size = [1, 64, 1, 64], pad_low = [], pad_high = []>} : tensor<2x64xf32>
    }
    tx8be.Return %1 : tensor<2x64xf32>
  }
  return %0 : tensor<2x64xf32>
}

// -----

// tx8be-transposed-loads: a LoadBox reads a head's [1, 4, 8] box of the [2, 4, 8] transposed tensor as the
// [4, 1, 8] box of its [4, 2, 8] source; its result is the transposed type.
// CHECK-LABEL: func.func @transposed_load
// CHECK: tx8be.LoadBox %arg1 {{.*}}perm = array<i64: 1, 0, 2>} : tensor<4x2x8xf32>
// CHECK-NEXT: tx8be.Wait %{{.*}}
// CHECK-NEXT: tx8be.Relu %{{.*}} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
func.func @transposed_load(%arg0: tensor<4x2x8xf32>) -> tensor<2x4x8xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<4x2x8xf32>) -> tensor<2x4x8xf32> {
  ^bb0(%arg1: tensor<4x2x8xf32>):
    %1 = tx8be.Steps tiles [2] slice [1, 4, 8] -> tensor<2x4x8xf32> {
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 3, start = [0, 0, 0, 1, 0, 0], size = [1, 4, 8, 1, 4, 8], pad_low = [], pad_high = []>, perm = array<i64: 1, 0, 2>} : tensor<4x2x8xf32>
      tx8be.Wait %xt
      %y = tx8be.Relu %x : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
      %yt = tx8be.StoreBox %y into 0 {boxes = #tx8be.boxes<rank = 3, start = [0, 0, 0, 1, 0, 0], size = [1, 4, 8, 1, 4, 8], pad_low = [], pad_high = []>} : tensor<2x4x8xf32>
    }
    tx8be.Return %1 : tensor<2x4x8xf32>
  }
  return %0 : tensor<2x4x8xf32>
}

// -----

// A box whose dims longer than 1 change order through perm is other bytes in the source (a [2, 4, 8] box).
func.func @transposed_load_reordered(%arg0: tensor<4x2x8xf32>) -> tensor<2x4x8xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<4x2x8xf32>) -> tensor<2x4x8xf32> {
  ^bb0(%arg1: tensor<4x2x8xf32>):
    %1 = tx8be.Steps tiles [1] slice [2, 4, 8] -> tensor<2x4x8xf32> {
      // expected-error @+1 {{'tx8be.LoadBox' op reads its source transposed (perm), but step 0's box is not the same bytes in the source's order}}
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 3, start = [0, 0, 0], size = [2, 4, 8], pad_low = [], pad_high = []>, perm = array<i64: 1, 0, 2>} : tensor<4x2x8xf32>
      tx8be.Wait %xt
      %yt = tx8be.StoreBox %x into 0 {boxes = #tx8be.boxes<rank = 3, start = [0, 0, 0], size = [2, 4, 8], pad_low = [], pad_high = []>} : tensor<2x4x8xf32>
    }
    tx8be.Return %1 : tensor<2x4x8xf32>
  }
  return %0 : tensor<2x4x8xf32>
}

// -----

func.func @transposed_load_not_a_permutation(%arg0: tensor<4x2x8xf32>) -> tensor<2x4x8xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<4x2x8xf32>) -> tensor<2x4x8xf32> {
  ^bb0(%arg1: tensor<4x2x8xf32>):
    %1 = tx8be.Steps tiles [1] slice [2, 4, 8] -> tensor<2x4x8xf32> {
      // expected-error @+1 {{tx8be.LoadBox: perm is not a permutation of the source's 3 dims}}
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 3, start = [0, 0, 0], size = [2, 4, 8], pad_low = [], pad_high = []>, perm = array<i64: 1, 1, 2>} : tensor<4x2x8xf32>
      tx8be.Wait %xt
    }
    tx8be.Return %1 : tensor<2x4x8xf32>
  }
  return %0 : tensor<2x4x8xf32>
}

// -----

// Only a Group input: a constant read in place is loaded as it is stored.
func.func @transposed_load_of_constant(%arg0: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  ^bb0(%arg1: tensor<2x4x8xf32>):
    %c = tx8be.LoadConst {bypasscodegen = true, const_map_id = 0 : ui32} : tensor<4x2x8xf32>
    %1 = tx8be.Steps tiles [2] slice [1, 4, 8] -> tensor<2x4x8xf32> {
      // expected-error @+1 {{'tx8be.LoadBox' op reads its source transposed (perm), but is not a Group input}}
      %x, %xt = tx8be.LoadBox %c {boxes = #tx8be.boxes<rank = 3, start = [0, 0, 0, 1, 0, 0], size = [1, 4, 8, 1, 4, 8], pad_low = [], pad_high = []>, perm = array<i64: 1, 0, 2>} : tensor<4x2x8xf32>
      tx8be.Wait %xt
      %yt = tx8be.StoreBox %x into 0 {boxes = #tx8be.boxes<rank = 3, start = [0, 0, 0, 1, 0, 0], size = [1, 4, 8, 1, 4, 8], pad_low = [], pad_high = []>} : tensor<2x4x8xf32>
    }
    tx8be.Return %1 : tensor<2x4x8xf32>
  }
  return %0 : tensor<2x4x8xf32>
}

// -----

// A StoreBox writes each [1, 4, 8] box of its [2, 4, 8] input as the [4, 1, 8] box of the Steps' [4, 2, 8]
// result (perm): the Steps result is the input transposed.
// CHECK-LABEL: func.func @transposed_store
// CHECK: tx8be.StoreBox %{{.*}} into 0 {{.*}}perm = array<i64: 1, 0, 2>} : tensor<2x4x8xf32>
func.func @transposed_store(%arg0: tensor<2x4x8xf32>) -> tensor<4x2x8xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x4x8xf32>) -> tensor<4x2x8xf32> {
  ^bb0(%arg1: tensor<2x4x8xf32>):
    %1 = tx8be.Steps tiles [2] slice [1, 4, 8] -> tensor<4x2x8xf32> {
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 3, start = [0, 0, 0, 1, 0, 0], size = [1, 4, 8, 1, 4, 8], pad_low = [], pad_high = []>} : tensor<2x4x8xf32>
      tx8be.Wait %xt
      %y = tx8be.Relu %x : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
      %yt = tx8be.StoreBox %y into 0 {boxes = #tx8be.boxes<rank = 3, start = [0, 0, 0, 1, 0, 0], size = [1, 4, 8, 1, 4, 8], pad_low = [], pad_high = []>, perm = array<i64: 1, 0, 2>} : tensor<2x4x8xf32>
    }
    tx8be.Return %1 : tensor<4x2x8xf32>
  }
  return %0 : tensor<4x2x8xf32>
}

// -----

func.func @transposed_store_reordered(%arg0: tensor<2x4x8xf32>) -> tensor<4x2x8xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x4x8xf32>) -> tensor<4x2x8xf32> {
  ^bb0(%arg1: tensor<2x4x8xf32>):
    %1 = tx8be.Steps tiles [1] slice [2, 4, 8] -> tensor<4x2x8xf32> {
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 3, start = [0, 0, 0], size = [2, 4, 8], pad_low = [], pad_high = []>} : tensor<2x4x8xf32>
      tx8be.Wait %xt
      // expected-error @+1 {{'tx8be.StoreBox' op writes its result transposed (perm), but step 0's box is not the same bytes in the result's order}}
      %yt = tx8be.StoreBox %x into 0 {boxes = #tx8be.boxes<rank = 3, start = [0, 0, 0], size = [2, 4, 8], pad_low = [], pad_high = []>, perm = array<i64: 1, 0, 2>} : tensor<2x4x8xf32>
    }
    tx8be.Return %1 : tensor<4x2x8xf32>
  }
  return %0 : tensor<4x2x8xf32>
}

// -----

// Without perm the result has the input's type.
func.func @store_type_mismatch(%arg0: tensor<2x4x8xf32>) -> tensor<4x2x8xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x4x8xf32>) -> tensor<4x2x8xf32> {
  ^bb0(%arg1: tensor<2x4x8xf32>):
    %1 = tx8be.Steps tiles [2] slice [1, 4, 8] -> tensor<4x2x8xf32> {
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 3, start = [0, 0, 0, 1, 0, 0], size = [1, 4, 8, 1, 4, 8], pad_low = [], pad_high = []>} : tensor<2x4x8xf32>
      tx8be.Wait %xt
      // expected-error @+1 {{'tx8be.StoreBox' op stores a 'tensor<2x4x8xf32>' into result 0 of type 'tensor<4x2x8xf32>'}}
      %yt = tx8be.StoreBox %x into 0 {boxes = #tx8be.boxes<rank = 3, start = [0, 0, 0, 1, 0, 0], size = [1, 4, 8, 1, 4, 8], pad_low = [], pad_high = []>} : tensor<2x4x8xf32>
    }
    tx8be.Return %1 : tensor<4x2x8xf32>
  }
  return %0 : tensor<4x2x8xf32>
}

// -----

// A perm with fewer entries than the source has dims is refused, not read as a rank-0 result.
func.func @transposed_load_short_perm(%arg0: tensor<4x2x8xf32>) -> tensor<2x4x8xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<4x2x8xf32>) -> tensor<2x4x8xf32> {
  ^bb0(%arg1: tensor<4x2x8xf32>):
    %1 = tx8be.Steps tiles [1] slice [2, 4, 8] -> tensor<2x4x8xf32> {
      // expected-error @+1 {{tx8be.LoadBox: perm is not a permutation of the source's 3 dims}}
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 3, start = [0, 0, 0], size = [2, 4, 8], pad_low = [], pad_high = []>, perm = array<i64>} : tensor<4x2x8xf32>
      tx8be.Wait %xt
    }
    tx8be.Return %1 : tensor<2x4x8xf32>
  }
  return %0 : tensor<2x4x8xf32>
}

// -----

func.func @transposed_store_short_perm(%arg0: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %0 = tx8be.Group(%arg0) : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  ^bb0(%arg1: tensor<2x4x8xf32>):
    %1 = tx8be.Steps tiles [1] slice [2, 4, 8] -> tensor<2x4x8xf32> {
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 3, start = [0, 0, 0], size = [2, 4, 8], pad_low = [], pad_high = []>} : tensor<2x4x8xf32>
      tx8be.Wait %xt
      // expected-error @+1 {{'tx8be.StoreBox' op perm is not a permutation of the input's 3 dims}}
      %yt = tx8be.StoreBox %x into 0 {boxes = #tx8be.boxes<rank = 3, start = [0, 0, 0], size = [2, 4, 8], pad_low = [], pad_high = []>, perm = array<i64: 0, 1>} : tensor<2x4x8xf32>
    }
    tx8be.Return %1 : tensor<2x4x8xf32>
  }
  return %0 : tensor<2x4x8xf32>
}
