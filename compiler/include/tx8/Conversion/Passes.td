//===- Passes.td - Conversions into tx8be -----------------*- tablegen -*-===//
#ifndef TX8_CONVERSION_PASSES
#define TX8_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def ConvertTosaToTx8be : Pass<"convert-tosa-to-tx8be", "::mlir::func::FuncOp"> {
  let summary = "Import TOSA ops as tx8be ops";
  let description = [{
    Rewrites every TOSA op of a function into tx8be. TOSA's NHWC feature maps and OHWI weights are
    transposed to tx8be's NCHW / OIHW around Conv and the pools (the layout passes remove redundant
    transposes later). An op without a lowering (or an unsupported variant, e.g. integer types or a
    clamp with integer bounds) fails the pass with an error at the op naming it.
  }];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

#endif // TX8_CONVERSION_PASSES
