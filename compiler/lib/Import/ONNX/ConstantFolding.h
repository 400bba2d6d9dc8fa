//===- ConstantFolding.h - ONNX nodes evaluated at import time ----*- C++ -*-===//
#ifndef TX8_LIB_IMPORT_ONNX_CONSTANTFOLDING_H
#define TX8_LIB_IMPORT_ONNX_CONSTANTFOLDING_H

#include "NodeImporter.h"

namespace tx8be::onnx_import {

/// Evaluates `n` when all its inputs are compile-time constants and its op is one that shape arithmetic and
/// constant construction use (elementwise arithmetic, comparisons and logic, Where, Cast, the Reduce ops and the
/// movement ops Reshape/Flatten/Squeeze/Unsqueeze/Concat/Slice/Gather/Expand/Transpose/Identity), binding its
/// outputs as constants. Returns true when it did, false when it does not apply (the converter runs as usual),
/// failure (with the node's reason set) when the values are invalid for the op.
mlir::FailureOr<bool> foldConstantNode(NodeImporter &n);

/// Converters whose result is always a compile-time constant (static shapes).
mlir::LogicalResult convertSize(NodeImporter &n);
mlir::LogicalResult convertConstantOfShape(NodeImporter &n);
mlir::LogicalResult convertRange(NodeImporter &n);
mlir::LogicalResult convertEyeLike(NodeImporter &n);

} // namespace tx8be::onnx_import

#endif // TX8_LIB_IMPORT_ONNX_CONSTANTFOLDING_H
