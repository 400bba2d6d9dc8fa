//===- LayoutAlignOpt.cpp - Drop the ChannelNorms that are free to avoid (tx8be-layout-align-opt) ===//
//
// Seed LayoutAlignOptPass. tx8be-layout-align-to-npu converts every mismatch on the device; two kinds cost
// nothing to avoid: a constant can simply be written in the order its reader wants (codegen lays the
// constant out from its layout_str), and a conversion to the image a value already has, or of a conversion,
// is redundant.
//
//===----------------------------------------------------------------------===//
#include "PatternDriver.h"

#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"
#include "tx8/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace tx8be {
#define GEN_PASS_DEF_LAYOUTALIGNOPTPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

/// Whether the image of a `shape` tensor in layout `a` is byte for byte the one in layout `b`.
bool sameImage(ArrayRef<int64_t> shape, const DeviceLayout &a, const DeviceLayout &b) {
  return a.mode == b.mode && sameMemoryOrder(shape, a.order, b.order);
}

/// Whether `use` of a constant still reads what it needs once the constant is in `layout`.
bool acceptsLayout(OpOperand &use, const DeviceLayout &layout) {
  auto shape = cast<ShapedType>(use.get().getType()).getShape();
  Operation *user = use.getOwner();
  if (auto cn = dyn_cast<ChannelNormOp>(user)) // it then has nothing left to do (RedundantChannelNormErase)
    return sameImage(shape, getDeviceLayout(cn.getOutput()), layout);
  auto required = requiredOperandOrder(user, use.getOperandNumber());
  return required && sameMemoryOrder(shape, *required, layout.order);
}

/// ChannelNorm(Constant): the constant is stored in the ChannelNorm's order instead. A constant that other
/// users read in another order is cloned for this one.
struct ConstChannelNormErase : OpRewritePattern<ChannelNormOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ChannelNormOp op, PatternRewriter &rewriter) const override {
    auto constant = op.getInput().getDefiningOp<ConstantOp>();
    if (!constant)
      return failure();
    DeviceLayout target = getDeviceLayout(op.getOutput());
    if (target.mode != getDeviceLayout(constant.getOutput()).mode)
      return rewriter.notifyMatchFailure(op, "the constant's alignment is not the ChannelNorm's (no Cx constants)");
    bool shared = llvm::any_of(constant.getOutput().getUses(), [&](OpOperand &use) {
      return use.getOwner() != op && !acceptsLayout(use, target);
    });
    if (shared) {
      rewriter.setInsertionPoint(op);
      constant = cast<ConstantOp>(rewriter.clone(*constant));
    }
    rewriter.modifyOpInPlace(constant, [&] { tx8be::setLayoutStr(constant, op.getLayoutStr()); });
    rewriter.replaceOp(op, constant.getOutput());
    return success();
  }
};

/// ChannelNorm(x) with x already in the target image goes; ChannelNorm(ChannelNorm(x)) reads x.
struct RedundantChannelNormErase : OpRewritePattern<ChannelNormOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ChannelNormOp op, PatternRewriter &rewriter) const override {
    auto shape = op.getOutput().getType().getShape();
    if (sameImage(shape, getDeviceLayout(op.getInput()), getDeviceLayout(op.getOutput()))) {
      rewriter.replaceOp(op, op.getInput());
      return success();
    }
    auto inner = op.getInput().getDefiningOp<ChannelNormOp>();
    if (!inner)
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op.getInputMutable().assign(inner.getInput()); });
    if (inner->use_empty())
      rewriter.eraseOp(inner);
    return success();
  }
};

struct LayoutAlignOptPass : tx8be::impl::LayoutAlignOptPassBase<LayoutAlignOptPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<RedundantChannelNormErase>(&getContext(), /*benefit=*/2);
    patterns.add<ConstChannelNormErase>(&getContext());
    tx8be::detail::applyPatternsInProgramOrder(getOperation().getBody(), FrozenRewritePatternSet(std::move(patterns)));
  }
};

} // namespace
