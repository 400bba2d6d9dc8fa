// A Cast is op_cast (one CT convert; to a bool, a compare with 0: to_bool; to uint8 too); one to int16, which the
// chip has no format for, is refused at compile time naming the types.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tx8-aot compile %s -o %t/b > /dev/null
// RUN: FileCheck %s < %t/b/main.c
// RUN: not tx8-aot compile %S/Inputs/cast-to-i16.mlir -o %t/i16 2>&1 | FileCheck %s --check-prefix=INT

// CHECK: /* tx8be.Cast "half" */
// CHECK-NEXT: CAST_PARAM op_param = {.layout = LAYOUT_NTENSOR, .to_bool = 0};
// CHECK-NEXT: op_cast(&op_param, &in0, &out)

// CHECK: /* tx8be.Cast "truth" */
// CHECK-NEXT: CAST_PARAM op_param = {.layout = LAYOUT_NTENSOR, .to_bool = 1};

// CHECK: /* tx8be.Cast "byte" */
// CHECK-NEXT: CAST_PARAM op_param = {.layout = LAYOUT_NTENSOR, .to_bool = 0};

// INT: 'tx8be.Cast' op has no OpLib kernel: op_cast converts between f32, f16, bf16, i8, ui8, i32, i64 and bool, not 'f32' to 'i16'

func.func @main(%x: tensor<2x16xf32> {tx8be.name = "x"})
    -> (tensor<2x16xf16> {tx8be.name = "y"}, tensor<2x16xi1> {tx8be.name = "b"}, tensor<2x16xui8> {tx8be.name = "u"}) {
  %0 = tx8be.Cast %x : (tensor<2x16xf32>) -> tensor<2x16xf16> loc("half")
  %1 = tx8be.Cast %x : (tensor<2x16xf32>) -> tensor<2x16xi1> loc("truth")
  %2 = tx8be.Cast %x : (tensor<2x16xf32>) -> tensor<2x16xui8> loc("byte")
  return %0, %1, %2 : tensor<2x16xf16>, tensor<2x16xi1>, tensor<2x16xui8>
}
