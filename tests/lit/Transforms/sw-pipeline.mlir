// RUN: tx8-opt %s --split-input-file --tx8be-sw-pipeline | FileCheck %s
// RUN: tx8-opt %s --split-input-file --tx8be-sw-pipeline="enable=false" | FileCheck %s --check-prefix=OFF

// Two buffers: three stages (the loads of step i + 1 go before the compute of step i); the Wait after the
// StoreBox goes (codegen waits for a buffer's store before the compute writes it again); the load's Wait stays.
// CHECK-LABEL: func.func @double
// CHECK: tx8be.Steps tiles [4] slice [1, 512] -> tensor<4x512xf32> attributes {multi_buf = 2 : i64, sp_stage_num = 3 : i64} {
// CHECK: tx8be.LoadBox
// CHECK-NEXT: tx8be.Wait
// CHECK-NEXT: tx8be.Relu
// CHECK-NEXT: tx8be.StoreBox
// CHECK-NOT: tx8be.Wait
// CHECK: tx8be.Return
// Disabled: one stage, and one buffer (a second serves only an overlap); every Wait stays.
// OFF-LABEL: func.func @double
// OFF: tx8be.Steps tiles [4] slice [1, 512] -> tensor<4x512xf32> {
// OFF: tx8be.StoreBox
// OFF-NEXT: tx8be.Wait
func.func @double(%arg0: tensor<4x512xf32>) -> tensor<4x512xf32> {
  %0 = tx8be.Group(%arg0) {group_tag = 0 : i32} : (tensor<4x512xf32>) -> tensor<4x512xf32> {
  ^bb0(%arg1: tensor<4x512xf32>):
    %1 = tx8be.Steps tiles [4] slice [1, 512] -> tensor<4x512xf32> attributes {multi_buf = 2 : i64} {
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0, 2, 0, 3, 0], size = [1, 512, 1, 512, 1, 512, 1, 512], pad_low = [], pad_high = []>} : tensor<4x512xf32>
      tx8be.Wait %xt
      %y = tx8be.Relu %x : (tensor<4x512xf32>) -> tensor<4x512xf32>
      %yt = tx8be.StoreBox %y into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0, 2, 0, 3, 0], size = [1, 512, 1, 512, 1, 512, 1, 512], pad_low = [], pad_high = []>} : tensor<4x512xf32>
      tx8be.Wait %yt
    }
    tx8be.Return %1 : tensor<4x512xf32>
  }
  return %0 : tensor<4x512xf32>
}

// -----

// One buffer: two stages (only the stores overlap the next step).
// CHECK-LABEL: func.func @single
// CHECK: tx8be.Steps tiles [4] slice [1, 512] -> tensor<4x512xf32> attributes {sp_stage_num = 2 : i64} {
// CHECK: tx8be.StoreBox
// CHECK-NOT: tx8be.Wait
// CHECK: tx8be.Return
func.func @single(%arg0: tensor<4x512xf32>) -> tensor<4x512xf32> {
  %0 = tx8be.Group(%arg0) {group_tag = 0 : i32} : (tensor<4x512xf32>) -> tensor<4x512xf32> {
  ^bb0(%arg1: tensor<4x512xf32>):
    %1 = tx8be.Steps tiles [4] slice [1, 512] -> tensor<4x512xf32> {
      %x, %xt = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0, 2, 0, 3, 0], size = [1, 512, 1, 512, 1, 512, 1, 512], pad_low = [], pad_high = []>} : tensor<4x512xf32>
      tx8be.Wait %xt
      %y = tx8be.Relu %x : (tensor<4x512xf32>) -> tensor<4x512xf32>
      %yt = tx8be.StoreBox %y into 0 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 1, 0, 2, 0, 3, 0], size = [1, 512, 1, 512, 1, 512, 1, 512], pad_low = [], pad_high = []>} : tensor<4x512xf32>
      tx8be.Wait %yt
    }
    tx8be.Return %1 : tensor<4x512xf32>
  }
  return %0 : tensor<4x512xf32>
}
