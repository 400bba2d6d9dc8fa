//===- ShapeInferenceOpInterface.td - Result shape and layout inference ---===//
//
// Seed: "ShapeInferenceOpInterface defines inferShapes and inferLayout: infer the output's shape and layout
// from the inputs". computeResultTypes is the single place the compiler asks for an op's result types: the
// verifier checks the declared result types against it and inferShapes writes it into the IR. It is MLIR's
// InferTypeOpInterface::inferReturnTypes (the op's shape rule) unless the result type is a parameter of the op.
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
        operand or attribute has been emitted on the op. By default the op's InferTypeOpInterface
        (inferReturnTypes); an op whose result type is one of its parameters (Reshape's shape, Cast's element
        type, LoadConst's constant) implements it itself.}],
      "::mlir::LogicalResult", "computeResultTypes",
      (ins "::llvm::SmallVectorImpl<::mlir::Type> &":$types), [{}],
      [{ return ::tx8be::detail::inferResultTypes($_op.getOperation(), types); }]>,
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
