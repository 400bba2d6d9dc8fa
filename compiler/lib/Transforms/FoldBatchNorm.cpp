//===- FoldBatchNorm.cpp - BatchNorm into the Conv before it (tx8be-fold-batchnorm) ===//
//
// An inference BatchNorm after a Conv with constant weights is an affine map per output channel, which the
// Conv can do itself: y = s * (conv(x, W) + b - mean) + offset with s = scale / sqrt(variance + epsilon) is
// conv(x, W * s) + (b - mean) * s + offset. The new weights and bias are computed once here (in double,
// rounded once to fp32), and the BatchNorm's pass over the feature map — a load, a store and a kernel per
// element, a fifth of ResNet-50's time on the device — is gone. The sum is the Conv's, so the result differs
// from the unfolded one by the rounding of W * s (an ulp or so of fp32), as in every inference compiler.
//
//===----------------------------------------------------------------------===//
#include "tx8/Dialect/Tx8be/IR/Tx8be.h"
#include "tx8/Interpreter/ReferenceRunner.h"
#include "tx8/Transforms/PassStatistics.h"
#include "tx8/Transforms/Passes.h"

#include "PatternDriver.h"

#include "mlir/IR/PatternMatch.h"

#include <cmath>

namespace tx8be {
#define GEN_PASS_DEF_FOLDBATCHNORMPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;
namespace ref = tx8::ref;

namespace {

/// The fp32 values of `v` if it is a tx8be.Constant of f32 with `count` elements.
std::optional<ref::Tensor> f32Constant(Value v, int64_t count) {
  auto constant = v.getDefiningOp<ConstantOp>();
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!constant || !type || !type.getElementType().isF32() || !type.hasStaticShape() ||
      type.getNumElements() != count)
    return std::nullopt;
  ref::Tensor t;
  std::string why;
  if (failed(tensorFromElementsAttr(cast<ElementsAttr>(constant.getValue()), t, why)) || t.dtype != ref::DType::F32)
    return std::nullopt;
  return t;
}

/// BatchNorm_Inference(Conv(x, W, b)) with W, b and the statistics constant (fp32), the Conv read by nothing
/// else: Conv(x, W * s, (b - mean) * s + offset).
struct FoldBatchNormIntoConv : OpRewritePattern<BatchNorm_InferenceOp> {
  FoldBatchNormIntoConv(MLIRContext *context, PassStatistic &numFolded)
      : OpRewritePattern(context), numFolded(numFolded) {}

  LogicalResult matchAndRewrite(BatchNorm_InferenceOp bn, PatternRewriter &rewriter) const override {
    auto conv = bn.getInput().getDefiningOp<ConvOp>();
    if (!conv || !conv->hasOneUse())
      return rewriter.notifyMatchFailure(bn, "its input is not a Conv only it reads");
    auto wType = cast<RankedTensorType>(conv.getWeight().getType());
    int64_t channels = wType.getDimSize(0);
    if (!wType.hasStaticShape() || channels <= 0 || !wType.getElementType().isF32())
      return rewriter.notifyMatchFailure(bn, "the Conv's weight is not a static fp32 tensor");
    std::optional<ref::Tensor> w = f32Constant(conv.getWeight(), wType.getNumElements());
    std::optional<ref::Tensor> scale = f32Constant(bn.getScale(), channels),
                               offset = f32Constant(bn.getOffset(), channels),
                               mean = f32Constant(bn.getMean(), channels),
                               variance = f32Constant(bn.getVariance(), channels);
    std::optional<ref::Tensor> bias;
    if (conv.getBias())
      bias = f32Constant(conv.getBias(), channels);
    if (!w || !scale || !offset || !mean || !variance || (conv.getBias() && !bias))
      return rewriter.notifyMatchFailure(bn, "the weights or the statistics are not fp32 constants of C values");

    double epsilon = bn.getEpsilon().convertToDouble();
    int64_t perChannel = wType.getNumElements() / channels;
    auto biasType = RankedTensorType::get({channels}, rewriter.getF32Type());
    std::vector<float> newW(static_cast<size_t>(wType.getNumElements())), newB(static_cast<size_t>(channels));
    for (int64_t o = 0; o < channels; ++o) {
      double s = scale->data<float>()[o] / std::sqrt(static_cast<double>(variance->data<float>()[o]) + epsilon);
      for (int64_t i = 0; i < perChannel; ++i)
        newW[o * perChannel + i] = static_cast<float>(w->data<float>()[o * perChannel + i] * s);
      double b = bias ? bias->data<float>()[o] : 0.0;
      newB[o] = static_cast<float>((b - mean->data<float>()[o]) * s + offset->data<float>()[o]);
    }
    auto weight = rewriter.create<ConstantOp>(conv.getWeight().getLoc(), wType, ValueRange{},
                                              rewriter.getNamedAttr("value", DenseElementsAttr::get(wType, ArrayRef<float>(newW))));
    auto newBias = rewriter.create<ConstantOp>(bn.getLoc(), biasType, ValueRange{},
                                               rewriter.getNamedAttr("value", DenseElementsAttr::get(biasType, ArrayRef<float>(newB))));
    auto folded = rewriter.create<ConvOp>(conv.getLoc(), TypeRange{bn.getOutput().getType()},
                                          ValueRange{conv.getInput(), weight.getOutput(), newBias.getOutput()},
                                          conv->getAttrs());
    SmallVector<Operation *> dead;
    for (Value v : {conv.getWeight(), conv.getBias(), bn.getScale(), bn.getOffset(), bn.getMean(), bn.getVariance()})
      if (Operation *def = v ? v.getDefiningOp() : nullptr; def && !llvm::is_contained(dead, def))
        dead.push_back(def);
    rewriter.replaceOp(bn, folded.getOutput());
    rewriter.eraseOp(conv);
    for (Operation *def : dead)
      if (def->use_empty())
        rewriter.eraseOp(def);
    ++numFolded;
    return success();
  }

  PassStatistic &numFolded;
};

struct FoldBatchNormPass : tx8be::impl::FoldBatchNormPassBase<FoldBatchNormPass> {
  PassStatistic numFolded{this, "folded", "BatchNorms folded into the Conv before them"};

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldBatchNormIntoConv>(&getContext(), numFolded);
    tx8be::detail::applyPatternsInProgramOrder(getOperation().getBody(), FrozenRewritePatternSet(std::move(patterns)));
  }
};

} // namespace
