//===- Converters.h - What the converter files share ---------------*- C++ -*-===//
//
// The converters are split by family: Converters.cpp (ops with a tx8be op of their own), and the ops written
// as compositions of tx8be ops: Compositions.cpp (math, normalisation, rearrangement), Indexing.cpp (Expand,
// Tile, GatherElements, OneHot), Losses.cpp (NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss), Resize.cpp
// (Resize, Upsample, CumSum), Recurrent.cpp (RNN, GRU, LSTM unrolled), Einsum.cpp (Einsum as Transpose /
// Reshape / MatMul / ReduceSum), Quantization.cpp (QuantizeLinear, DequantizeLinear). Each file adds its
// converters to the registry getNodeConverters() builds, and shares the small helpers below.
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

/// OpT(a, b) (numpy broadcasting), or failure when an operand failed: a chain of ops needs one check at its end.
template <typename OpT>
mlir::FailureOr<mlir::Value> binaryOf(NodeImporter &n, mlir::FailureOr<mlir::Value> a, mlir::FailureOr<mlir::Value> b) {
  if (mlir::failed(a) || mlir::failed(b))
    return mlir::failure();
  return n.create<OpT>(mlir::ValueRange{*a, *b});
}

/// OpT(x), or failure when x failed.
template <typename OpT> mlir::FailureOr<mlir::Value> unaryOf(NodeImporter &n, mlir::FailureOr<mlir::Value> x) {
  if (mlir::failed(x))
    return mlir::failure();
  return n.create<OpT>(*x);
}

int64_t product(llvm::ArrayRef<int64_t> dims);

/// A tx8be.Constant of `shape` and element type `element` whose element at each (row-major) index is
/// value(index), converted as Cast converts (tx8/Reference/Convert.h); fails for a type tx8be has no constant of.
mlir::FailureOr<mlir::Value> filledConstant(NodeImporter &n, mlir::Type element, llvm::ArrayRef<int64_t> shape,
                                            llvm::function_ref<double(llvm::ArrayRef<int64_t>)> value);
/// A tx8be.Constant of `shape` with every element `value`.
mlir::FailureOr<mlir::Value> splatConstant(NodeImporter &n, mlir::Type element, llvm::ArrayRef<int64_t> shape,
                                           double value);

/// v converted to element type `element` (a tx8be.Cast; v itself when it has that type already).
mlir::FailureOr<mlir::Value> castElements(NodeImporter &n, mlir::Value v, mlir::Type element);

/// x with the dims in `axes` (normalised; sorted here) moved last, the kept dims first in order, so that they
/// are one run of dims adjacent in memory: what OpLib's op_reduce reduces. x itself when they are one run already
/// (or repeat: the reduction's shape rule refuses those). `axes` become their positions in the result.
mlir::FailureOr<mlir::Value> reducedDimsLast(NodeImporter &n, mlir::Value x, llvm::SmallVectorImpl<int64_t> &axes);

/// x standardised over `axes` (kept as 1s) as ONNX's LayerNormalization function does it: mean = mean(x),
/// d = x - mean, stdDev = sqrt(mean(d * d) + epsilon), y = d / stdDev.
struct Standardized {
  mlir::Value y, mean, stdDev;
};
mlir::FailureOr<Standardized> standardize(NodeImporter &n, mlir::Value x, llvm::ArrayRef<int64_t> axes,
                                          float epsilon);

/// Where(oneHot, data, 0) summed over `axis` (kept or not): for each position the one element of `data` the
/// mask selects (0 when it selects none). data and oneHot have one shape. Exact: the sum adds zeros to that
/// element (only a selected -0 comes out as +0). (Indexing.cpp)
mlir::FailureOr<mlir::Value> selectAlong(NodeImporter &n, mlir::Value data, mlir::Value oneHot, int64_t axis,
                                         bool keepdims);
/// mask[..., k, ...] = (idx[...] == k), k along a new dim of `extent` inserted at `axis` of idx's shape
/// (Equal against an iota constant of idx's type). (Indexing.cpp)
mlir::FailureOr<mlir::Value> oneHotMask(NodeImporter &n, mlir::Value idx, int64_t axis, int64_t extent);

/// Indices (any integer type) with the negative ones counted from the end of an axis of `extent`:
/// Where(idx < 0, idx + extent, idx). (Indexing.cpp)
mlir::FailureOr<mlir::Value> wrapNegativeIndices(NodeImporter &n, mlir::Value idx, int64_t extent);

/// Slice / Pad whose starts, axes, steps / pads are computed at run time: gathers of computed indices along
/// every axis; the output shape is ONNX's static output type. (RuntimeWindows.cpp)
mlir::LogicalResult convertRuntimeSlice(NodeImporter &n);
mlir::LogicalResult convertRuntimePad(NodeImporter &n);

/// Gather's and GatherElements' operands: data, indices and the normalised `axis` attribute.
mlir::LogicalResult gatherOperands(NodeImporter &n, mlir::Value &data, mlir::Value &indices, int64_t &axis);

/// The one-hot gather of the indexing converters, on the 4-D view `view` = [outer, along, extent, inner] (4 dims:
/// OpLib's broadcasting view takes them without folding): data viewed as [outer, 1, extent, inner] and `mask`
/// viewed as `maskView` are broadcast to it, and selectAlong picks over the extent: [outer, along, inner].
/// (Indexing.cpp)
mlir::FailureOr<mlir::Value> selectCandidates(NodeImporter &n, mlir::Value data, mlir::Value mask,
                                              llvm::ArrayRef<int64_t> maskView, llvm::ArrayRef<int64_t> view);

/// A convolution's or pool's pads from auto_pad / pads ([begin..., end...]), after checking the window attributes
/// (kernel, strides, dilations per spatial dim); a refusal names what is wrong. (Converters.cpp)
mlir::FailureOr<llvm::SmallVector<int64_t>> convWindowPads(NodeImporter &n, llvm::ArrayRef<int64_t> inSpatial,
                                                           llvm::ArrayRef<int64_t> kernel,
                                                           llvm::ArrayRef<int64_t> strides,
                                                           llvm::ArrayRef<int64_t> dilations);

/// Input 0 as a value of static shape, or a refusal. (Compositions.cpp)
mlir::FailureOr<mlir::Value> staticInput(NodeImporter &n);

/// Add each file's converters (op_type -> converter) to `converters`.
void addCompositionConverters(llvm::StringMap<NodeConverter> &converters); // Compositions.cpp
void addIndexingConverters(llvm::StringMap<NodeConverter> &converters);    // Indexing.cpp
void addLossConverters(llvm::StringMap<NodeConverter> &converters);        // Losses.cpp
void addResizeConverters(llvm::StringMap<NodeConverter> &converters);      // Resize.cpp
void addRecurrentConverters(llvm::StringMap<NodeConverter> &converters);   // Recurrent.cpp
void addEinsumConverters(llvm::StringMap<NodeConverter> &converters);      // Einsum.cpp
void addQuantizationConverters(llvm::StringMap<NodeConverter> &converters); // Quantization.cpp

} // namespace tx8be::onnx_import

#endif // TX8_LIB_IMPORT_ONNX_CONVERTERS_H
