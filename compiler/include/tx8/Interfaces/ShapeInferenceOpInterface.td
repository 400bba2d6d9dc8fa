//===- ShapeInferenceOpInterface.td - Result shape and layout inference ---===//
//
// Seed: "ShapeInferenceOpInterface defines inferShapes and inferLayout: infer the output's shape and layout
// from the inputs". computeResultTypes is the single place where an op's shape rule lives: the verifier
// checks the declared result types against it and inferShapes writes it into the IR.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_INTERFACES_SHAPEINFERENCEOPINTERFACE
#define TX8_INTERFACES_SHAPEINFERENCEOPINTERFACE

include "mlir/IR/OpBase.td"

def ShapeInferenceOpInterface : OpInterface<"ShapeInferenceOpInterface"> {
  let description = [{
    Computes an op's result types from its operands and attributes. Result types in the IR may be less
    precise than the computed ones (dynamic extents); inferShapes refines them in place.
  }];
  let cppNamespace = "::tx8be";
  let methods = [
    InterfaceMethod<
      [{Computes the result types from the operands and attributes. On failure an error naming the offending
        operand or attribute has been emitted on the op.}],
      "::mlir::LogicalResult", "computeResultTypes",
      (ins "::llvm::SmallVectorImpl<::mlir::Type> &":$types)>,
    InterfaceMethod<
      [{Sets the result types to the computed ones (seed: inferShapes). Fails (with an error) if the operands
        are inconsistent.}],
      "::mlir::LogicalResult", "inferShapes",
      (ins "::tx8be::DynamicShapeParam &":$shapeParam), [{}],
      [{ return ::tx8be::detail::inferShapes($_op.getOperation(), shapeParam); }]>,
    InterfaceMethod<
      [{Propagates layout_str (and dev_info's mem_layout) from the input to the output (seed: inferLayout).
        Fails for ops whose layout cannot be derived (e.g. Reshape): layout propagation stops there.}],
      "::mlir::LogicalResult", "inferLayout", (ins), [{}],
      [{ return ::tx8be::detail::inferLayout($_op.getOperation()); }]>
  ];
  let verify = [{ return ::tx8be::detail::verifyResultTypes($_op); }];
}

#endif // TX8_INTERFACES_SHAPEINFERENCEOPINTERFACE
