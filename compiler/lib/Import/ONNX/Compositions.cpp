//===- Compositions.cpp - ONNX ops written as compositions of tx8be ops ---===//
//
// Ops with no tx8be op of their own, imported as a few tx8be ops whose composition has the ONNX semantics
// exactly (or to the rounding of the ops named in each converter's comment).
//
//===----------------------------------------------------------------------===//
#include "Converters.h"

using namespace mlir;
using namespace tx8be;
using namespace tx8be::onnx_import;

void tx8be::onnx_import::addCompositionConverters(llvm::StringMap<NodeConverter> &converters) {
  (void)converters;
}
