// Broadcasting binary ops: each operand's OpLib view is its extents in the result's memory order (1 where it
// broadcasts), so a per-channel bias of a channel-last map and a row vector reach op_add / op_mul as they are.
// A numerator that broadcasts where the denominator does not is refused at compile time, as op_div would.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tx8-aot compile %s --fuse=false --tiles 1 -o %t/b > /dev/null
// RUN: FileCheck %s < %t/b/main.c
// RUN: not tx8-aot compile %S/Inputs/div-broadcast-numerator.mlir -o %t/div 2>&1 | FileCheck %s --check-prefix=DIV
// RUN: not test -e %t/div

// CHECK: /* ---- group 0: tx8be.Add "row"
// CHECK: static const int32_t in1_view[1][2] = {{[{][{]}}1, 16}};
// CHECK: static const int32_t out_view[1][2] = {{[{][{]}}2, 16}};
// CHECK: op_add(&op_param, &in0, &in1, &out)
// CHECK: /* ---- group 1: tx8be.Mul "column"
// CHECK: static const int32_t in0_view[1][2] = {{[{][{]}}2, 1}};
// CHECK: op_mul(&op_param, &in0, &in1, &out)

// DIV: error: {{.*}}div-broadcast-numerator.mlir: node 'div': 'tx8be.Div' op has no OpLib kernel: op_div does not broadcast the numerator where the denominator is full

func.func @main(%a: tensor<2x16xf32> {tx8be.name = "a"}, %row: tensor<16xf32> {tx8be.name = "r"}, %col: tensor<2x1xf32> {tx8be.name = "c"}) -> (tensor<2x16xf32> {tx8be.name = "y"}) {
  %0 = tx8be.Add %a, %row : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32> loc("row")
  %1 = tx8be.Mul %col, %0 : (tensor<2x1xf32>, tensor<2x16xf32>) -> tensor<2x16xf32> loc("column")
  return %1 : tensor<2x16xf32>
}
