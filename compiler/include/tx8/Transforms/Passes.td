//===- Passes.td - tx8be transformation passes ------------*- tablegen -*-===//
#ifndef TX8_TRANSFORMS_PASSES
#define TX8_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def Tx8beInferShapes : Pass<"tx8be-infer-shapes", "::mlir::func::FuncOp"> {
  let summary = "Refine result shapes with ShapeInferenceOpInterface";
  let description = [{
    Walks the function in order and lets every op implementing ShapeInferenceOpInterface recompute its
    result types from its operands (dynamic extents become static where the operands determine them). The
    function's result types are then updated to what it returns. Fails on the first op whose operands are
    inconsistent, with that op's diagnostic.
  }];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

#endif // TX8_TRANSFORMS_PASSES
