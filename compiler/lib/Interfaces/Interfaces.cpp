//===- Interfaces.cpp - The seed interfaces' generated definitions --------===//
//
// One translation unit for the four interfaces: their bodies are generated, and each MLIR TU costs seconds.
// The default method bodies are in the dialect library (tx8be::detail), which knows the ops.
//
//===----------------------------------------------------------------------===//
#include "tx8/Interfaces/ComputeInterface.h"
#include "tx8/Interfaces/OpLibInterface.h"
#include "tx8/Interfaces/ShapeInferenceOpInterface.h"
#include "tx8/Interfaces/ShardingInterface.h"

#include "tx8/Interfaces/ComputeInterface.cpp.inc"
#include "tx8/Interfaces/OpLibInterface.cpp.inc"
#include "tx8/Interfaces/ShapeInferenceOpInterface.cpp.inc"
#include "tx8/Interfaces/ShardingInterface.cpp.inc"

bool tx8be::OpCall::usesStepPads() const {
  return llvm::any_of(fields, [](const auto &f) { return f.second.kind == OpCallValue::Kind::StepPad; });
}
