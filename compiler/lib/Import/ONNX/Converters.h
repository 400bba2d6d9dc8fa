//===- Converters.h - What the converter files share ---------------*- C++ -*-===//
//
// The converters are split by family: Converters.cpp (ops with a tx8be op of their own), and the ops written
// as compositions of tx8be ops: Compositions.cpp (math, normalisation, rearrangement), Indexing.cpp (Expand,
// Tile, GatherElements, OneHot), Losses.cpp (NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss). Each file adds its converters to the
// registry getNodeConverters() builds, and shares the small helpers below.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_LIB_IMPORT_ONNX_CONVERTERS_H
#define TX8_LIB_IMPORT_ONNX_CONVERTERS_H

#include "NodeImporter.h"

namespace tx8be::onnx_import {

/// Binds output 0 to `v`, or fails as `v` did.
inline mlir::LogicalResult bindResult(NodeImporter &n, mlir::FailureOr<mlir::Value> v) {
  if (mlir::failed(v))
    return mlir::failure();
  n.setOutput(0, *v);
  return mlir::success();
}

/// Outputs from `first` on exist only in training mode (BatchNorm's running stats, MaxPool's indices, ...).
mlir::LogicalResult noExtraOutputsUsed(NodeImporter &n, int first, llvm::StringRef what);

/// Add each file's converters (op_type -> converter) to `converters`.
void addCompositionConverters(llvm::StringMap<NodeConverter> &converters); // Compositions.cpp
void addIndexingConverters(llvm::StringMap<NodeConverter> &converters);    // Indexing.cpp
void addLossConverters(llvm::StringMap<NodeConverter> &converters);        // Losses.cpp

} // namespace tx8be::onnx_import

#endif // TX8_LIB_IMPORT_ONNX_CONVERTERS_H
