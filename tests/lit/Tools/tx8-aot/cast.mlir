// A Cast is op_cast (one CT convert; to a bool, a compare with 0: to_bool); one to uint8, which the chip does not
// compute with, is refused at compile time naming the types.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tx8-aot compile %s -o %t/b > /dev/null
// RUN: FileCheck %s < %t/b/main.c
// RUN: not tx8-aot compile %S/Inputs/cast-to-u8.mlir -o %t/u8 2>&1 | FileCheck %s --check-prefix=INT

// CHECK: /* tx8be.Cast "half" */
// CHECK-NEXT: CAST_PARAM op_param = {.layout = LAYOUT_NTENSOR, .to_bool = 0};
// CHECK-NEXT: op_cast(&op_param, &in0, &out)

// CHECK: /* tx8be.Cast "truth" */
// CHECK-NEXT: CAST_PARAM op_param = {.layout = LAYOUT_NTENSOR, .to_bool = 1};

// INT: 'tx8be.Cast' op has no OpLib kernel: op_cast converts between f32, f16, bf16, i8, i32, i64 and bool, not 'f32' to 'ui8'

func.func @main(%x: tensor<2x16xf32> {tx8be.name = "x"})
    -> (tensor<2x16xf16> {tx8be.name = "y"}, tensor<2x16xi1> {tx8be.name = "b"}) {
  %0 = tx8be.Cast %x : (tensor<2x16xf32>) -> tensor<2x16xf16> loc("half")
  %1 = tx8be.Cast %x : (tensor<2x16xf32>) -> tensor<2x16xi1> loc("truth")
  return %0, %1 : tensor<2x16xf16>, tensor<2x16xi1>
}
