//===- Pipelines.cpp - The backend's pass sequences -----------------------===//
#include "tx8/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"

using namespace mlir;

void tx8be::buildLayoutPipeline(OpPassManager &pm, llvm::StringRef precision) {
  OpPassManager &func = pm.nest<func::FuncOp>();
  // Exported norm chains as one op, compositions next (their parts may fold), int64 work in int32 (Casts of constants fold), then constant
  // subgraphs, so that no layout is chosen (nor ChannelNorm inserted) for what is folded.
  func.addPass(createFuseNormsPass());
  func.addPass(createDecomposePass());
  func.addPass(createLinearEpiloguePass());
  func.addPass(createFoldBatchNormPass());
  // One op for q k^T, scale, mask, softmax and p v (before the NE precision narrows its operands).
  func.addPass(createFuseAttentionPass());
  func.addPass(createNarrowInt64Pass());
  if (precision != "fp32") { // before the folding: a Cast of a constant weight folds into a bf16/f16 constant
    NePrecisionPassOptions options;
    options.precision = precision.str();
    func.addPass(createNePrecisionPass(options));
    if (precision == "bf16" || precision == "fp16") { // and the values between ops in that format too
      ReducedActivationsPassOptions reducedOptions;
      reducedOptions.precision = precision.str();
      func.addPass(createReducedActivationsPass(reducedOptions));
    }
  }
  func.addPass(createFoldConstantsPass());
  func.addPass(createTx8beInferShapes());
  func.addPass(createLayoutInitPass());
  func.addPass(createLayoutTransmitPass());
  func.addPass(createLayoutAlignToNpuPass());
  func.addPass(createLayoutAlignOptPass());
}
