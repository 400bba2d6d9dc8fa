//===- DecomposeConvPool.h - Conv / pool decompositions of tx8be-decompose -*- C++ -*-===//
//
// Private to the transforms library: the patterns of DecomposeConvPool.cpp, which tx8be-decompose adds to its
// own (1-D and 3-D pooling as 2-D pools, 3-D Conv as one 2-D Conv, ConvTranspose as a Conv).
//
//===----------------------------------------------------------------------===//
#ifndef TX8_LIB_TRANSFORMS_DECOMPOSECONVPOOL_H
#define TX8_LIB_TRANSFORMS_DECOMPOSECONVPOOL_H

#include "mlir/IR/PatternMatch.h"

namespace tx8be {

/// Adds the convolution and pooling decompositions (DecomposeConvPool.cpp) to `patterns`.
void populateConvPoolDecompositions(mlir::RewritePatternSet &patterns);

} // namespace tx8be

#endif // TX8_LIB_TRANSFORMS_DECOMPOSECONVPOOL_H
