// An embedding (Gather of a constant 2-D table's rows, axis 0) is op_gather_rows: the table is read in place from
// DDR (a TSR at its constant's DDR address, never loaded to SPM), the indices (the i64 argument narrowed to i32 in
// a Cast group before) are loaded per step, and OpLib sees them as [count] and the rows as [count, width]. Under
// --precision bf16 the table is a bf16 constant. A Gather of an int table has no kernel: one error naming the op.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tx8-aot compile %s --tiles 1 --sw-pipeline=false --fuse=false -o %t/f32 > /dev/null
// RUN: FileCheck %s < %t/f32/main.c
// RUN: tx8-aot compile %s --tiles 1 --sw-pipeline=false --fuse=false --precision bf16 -o %t/bf16 > /dev/null
// RUN: FileCheck %s --check-prefix=BF16 < %t/bf16/main.c
// RUN: sed -e '/loc("table")/s/\.0//g; s/5x4xf32/5x4xi32/g; s/2x3x4xf32/2x3x4xi32/g' %s > %t/int.mlir
// RUN: not tx8-aot compile %t/int.mlir -o %t/int 2>&1 | FileCheck %s --check-prefix=INT
// INT: node 'embed': 'tx8be.Gather' op has no OpLib kernel: op_gather_rows takes a non-empty f32, f16 or bf16 table

// CHECK: /* tx8be.Cast "embed" */
// CHECK: static uint64_t group_1(void) {
// CHECK: static const int32_t in0_view[1][2] = {{[{][{]}}5, 4}};
// CHECK-NEXT: static const int32_t in1_view[1][1] = {{[{][{]}}6}};
// CHECK-NEXT: static const int32_t out_view[1][2] = {{[{][{]}}6, 4}};
// CHECK: TSR t0 = {Fmt_FP32, [[TABLE:0x[0-9a-f]+]], &t0_s}; /* DDR, in place */
// CHECK-NOT: op_loadConst
// CHECK: TSR in0 = {Fmt_FP32, [[TABLE]], &in0_vs};
// CHECK-NOT: op_loadConst
// CHECK: /* tx8be.Gather "embed" */
// CHECK-NEXT: GATHER_ROWS_PARAM op_param = {.layout = LAYOUT_NTENSOR};
// CHECK-NEXT: cycles = ADD_VALID_CYCLE(cycles, op_gather_rows(&op_param, &in0, &in1, &out));
// CHECK: static uint64_t group_2(void) {
// CHECK: TSR t0 = {Fmt_FP32, [[PTABLE:0x[0-9a-f]+]], &t0_s}; /* DDR, in place */
// CHECK: TSR in0 = {Fmt_FP32, [[PTABLE]], &in0_vs};
// CHECK: /* tx8be.Gather "pembed" */
// CHECK-NEXT: GATHER_ROWS_PARAM op_param = {.layout = LAYOUT_NTENSOR};
// CHECK-NEXT: op_gather_rows(&op_param, &in0, &in1, &out)

// BF16: TSR t0 = {Fmt_BF16, [[TABLE:0x[0-9a-f]+]], &t0_s}; /* DDR, in place */
// BF16: TSR in0 = {Fmt_BF16, [[TABLE]], &in0_vs};
// BF16: /* tx8be.Gather "embed" */
// BF16-NEXT: GATHER_ROWS_PARAM op_param = {.layout = LAYOUT_NTENSOR};
// BF16-NEXT: op_gather_rows(&op_param, &in0, &in1, &out)
// BF16: /* tx8be.Cast "embed" */

func.func @main(%i: tensor<2x3xi64> {tx8be.name = "ids"}, %p: tensor<3xi32> {tx8be.name = "pos"}) -> (tensor<2x3x4xf32> {tx8be.name = "rows"}, tensor<3x4xf32> {tx8be.name = "prow"}) {
  %t = tx8be.Constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0], [17.0, 18.0, 19.0, 20.0]]> : tensor<5x4xf32> loc("table")
  %u = tx8be.Constant dense<[[0.25, 1.0, 1.5, 2.0], [2.5, 3.0, 3.5, 4.0], [4.5, 5.0, 5.5, 6.0]]> : tensor<3x4xf32> loc("ptable")
  %0 = tx8be.Gather %t, %i {axis = 0 : i64} : (tensor<5x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32> loc("embed")
  %1 = tx8be.Gather %u, %p {axis = 0 : i64} : (tensor<3x4xf32>, tensor<3xi32>) -> tensor<3x4xf32> loc("pembed")
  return %0, %1 : tensor<2x3x4xf32>, tensor<3x4xf32>
}
