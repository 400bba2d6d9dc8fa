//===- LayoutInit.cpp - The dim order each kernel needs (tx8be-layout-init) ===//
//
// Seed layoutInitPass. layout_str is the dim order of an op's result in device memory (DeviceLayout.h); here
// every op that has only one way to read and write its tensors says which: OpLib's convolution, pooling and
// batchnorm kernels take channel-last feature maps, GEMM, softmax and the data movers row-major ones. The
// elementwise ops that work in any order are left "Unknown" for tx8be-layout-transmit to choose.
//
//===----------------------------------------------------------------------===//
#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"
#include "tx8/Transforms/Passes.h"

namespace tx8be {
#define GEN_PASS_DEF_LAYOUTINITPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

/// The ops whose OpLib kernels read and write [N][(D)(H)W][C].
bool needsChannelLast(Operation *op) {
  return isa<ConvOp, MaxPoolOp, AvgPoolOp, GlobalAvgPoolOp, GlobalMaxPoolOp, BatchNorm_InferenceOp>(op);
}

/// The layout_str `op` starts with; "Unknown" = chosen later by tx8be-layout-transmit.
std::string initialLayout(Operation *op) {
  auto type = dyn_cast<ShapedType>(op->getResult(0).getType());
  int64_t rank = type && type.hasRank() ? type.getRank() : 0;
  if (rank < 3 || rank > 5) // not a feature map: always row-major
    return "Tensor";
  if (needsChannelLast(op))
    return featureMapLayoutName(rank, /*channelLast=*/true);
  if (isLayoutAgnostic(op))
    return "Unknown";
  return featureMapLayoutName(rank, /*channelLast=*/false);
}

struct LayoutInitPass : tx8be::impl::LayoutInitPassBase<LayoutInitPass> {
  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      // Compute ops only: constants, loads, stores and ChannelNorm carry the layout of what they hold.
      if (!isa<OpLibInterface>(op) || isa<LoadConstOp, LoadVarOp, StoreVarOp, ChannelNormOp>(op) ||
          op->getNumResults() != 1)
        return;
      std::string layout = initialLayout(op);
      if (layout == "Unknown")
        op->removeAttr("layout_str"); // the attribute's default
      else
        setLayoutStr(op, layout);
    });
  }
};

} // namespace
