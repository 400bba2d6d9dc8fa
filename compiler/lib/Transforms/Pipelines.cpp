//===- Pipelines.cpp - The backend's pass sequences -----------------------===//
#include "tx8/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"

using namespace mlir;

void tx8be::buildLayoutPipeline(OpPassManager &pm) {
  OpPassManager &func = pm.nest<func::FuncOp>();
  // Compositions first (their parts may fold), int64 work in int32 (Casts of constants fold), then constant
  // subgraphs, so that no layout is chosen (nor ChannelNorm inserted) for what is folded.
  func.addPass(createDecomposePass());
  func.addPass(createNarrowInt64Pass());
  func.addPass(createFoldConstantsPass());
  func.addPass(createTx8beInferShapes());
  func.addPass(createLayoutInitPass());
  func.addPass(createLayoutTransmitPass());
  func.addPass(createLayoutAlignToNpuPass());
  func.addPass(createLayoutAlignOptPass());
}
