//===- ShapeInferenceOpInterface.h - Result shape and layout inference -*- C++ -*-===//
#ifndef TX8_INTERFACES_SHAPEINFERENCEOPINTERFACE_H
#define TX8_INTERFACES_SHAPEINFERENCEOPINTERFACE_H

#include "mlir/IR/OpDefinition.h"

namespace tx8be {

/// Run-time shape information for inferShapes (seed: DynamicShapeParam). Empty while the compiler handles
/// static shapes only: dynamic-shape support (dev_info.out_shape_buf_idx) will carry its extents here.
struct DynamicShapeParam {};

namespace detail {
/// The default computeResultTypes: the op's InferTypeOpInterface::inferReturnTypes at its location.
mlir::LogicalResult inferResultTypes(mlir::Operation *op, llvm::SmallVectorImpl<mlir::Type> &types);
mlir::LogicalResult inferShapes(mlir::Operation *op, DynamicShapeParam &shapeParam);
mlir::LogicalResult inferLayout(mlir::Operation *op);
/// The verifier of every ShapeInferenceOpInterface op: the result types must agree with the computed ones
/// (a dynamic extent in the IR agrees with any computed extent).
mlir::LogicalResult verifyResultTypes(mlir::Operation *op);
} // namespace detail
} // namespace tx8be

#include "tx8/Interfaces/ShapeInferenceOpInterface.h.inc"

#endif // TX8_INTERFACES_SHAPEINFERENCEOPINTERFACE_H
