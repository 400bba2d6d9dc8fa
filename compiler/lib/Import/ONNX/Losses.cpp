//===- Losses.cpp - NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (inference forms) ===//
//
// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (inference forms).
//
//===----------------------------------------------------------------------===//
#include "Converters.h"

using namespace mlir;
using namespace tx8be;
using namespace tx8be::onnx_import;

void tx8be::onnx_import::addLossConverters(llvm::StringMap<NodeConverter> &converters) {
  (void)converters;
}
