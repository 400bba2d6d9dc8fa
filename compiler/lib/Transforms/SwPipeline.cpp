//===- SwPipeline.cpp - Overlap copies with compute (tx8be-sw-pipeline) ----===//
//
// Seed TS_SwPipelinePass. The plan chose the buffers (multi_buf); this pass says how far the steps overlap
// (sp_stage_num, Tx8beScheduleOps.td) and drops the Wait after each StoreBox: a store is waited for where its
// buffer is next written, which codegen knows from sp_stage_num and multi_buf.
//
//===----------------------------------------------------------------------===//
#include "tx8/Transforms/GroupPlan.h"
#include "tx8/Transforms/Passes.h"

namespace tx8be {
#define GEN_PASS_DEF_SWPIPELINEPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

/// Removes the Waits whose tokens all come from StoreBox ops of `steps`.
void dropStoreWaits(StepsOp steps) {
  for (auto wait : llvm::make_early_inc_range(steps.getBody().front().getOps<WaitOp>()))
    if (llvm::all_of(wait.getTokens(), [](Value t) { return t.getDefiningOp<StoreBoxOp>(); }))
      wait.erase();
}

struct SwPipelinePass : tx8be::impl::SwPipelinePassBase<SwPipelinePass> {
  using SwPipelinePassBase::SwPipelinePassBase;

  void runOnOperation() override {
    getOperation().walk([&](StepsOp steps) {
      if (steps.getSpStageNum() > 1)
        return; // pipelined already
      if (!enable) {
        steps.setMultiBuf(1); // a second buffer serves only an overlap
        return;
      }
      steps.setSpStageNum(steps.getMultiBuf() >= 2 ? 3 : 2);
      dropStoreWaits(steps);
    });
  }
};

} // namespace
