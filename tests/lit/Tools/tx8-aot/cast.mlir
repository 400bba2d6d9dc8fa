// A Cast between float formats is op_cast (one CT convert); one to an integer type has no kernel yet and is
// refused at compile time naming the types.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tx8-aot compile %s -o %t/b > /dev/null
// RUN: FileCheck %s < %t/b/main.c
// RUN: not tx8-aot compile %S/Inputs/cast-to-int.mlir -o %t/int 2>&1 | FileCheck %s --check-prefix=INT

// CHECK: /* tx8be.Cast "half" */
// CHECK-NEXT: ELTWISE_PARAM op_param = {.layout = LAYOUT_NTENSOR, .rnd = RND_NEAREST_EVEN};
// CHECK-NEXT: op_cast(&op_param, &in0, &out)

// INT: 'tx8be.Cast' op has no OpLib kernel: op_cast converts between f32, f16 and bf16, not 'f32' to 'i32'

func.func @main(%x: tensor<2x16xf32> {tx8be.name = "x"}) -> (tensor<2x16xf16> {tx8be.name = "y"}) {
  %0 = tx8be.Cast %x : (tensor<2x16xf32>) -> tensor<2x16xf16> loc("half")
  return %0 : tensor<2x16xf16>
}
