//===- PatternDriver.h - Apply rewrite patterns in program order -*- C++ -*-===//
//
// Private to the transforms library. The greedy driver also folds, deduplicates and hoists every
// tx8be.Constant to the top of the function (merging their locations); the constant and layout passes want
// the graph to keep its order and its ONNX-named constants, so they apply their named patterns with this
// one instead: every op present at the start, in program order, until no pattern matches it. Ops a pattern
// creates are not revisited (the patterns here only create ops nothing else matches, or the op that a later
// op in program order reads).
//
//===----------------------------------------------------------------------===//
#ifndef TX8_LIB_TRANSFORMS_PATTERNDRIVER_H
#define TX8_LIB_TRANSFORMS_PATTERNDRIVER_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Rewrite/PatternApplicator.h"
#include "llvm/ADT/DenseSet.h"

namespace tx8be::detail {

/// Returns whether any pattern applied.
inline bool applyPatternsInProgramOrder(mlir::Region &region, const mlir::FrozenRewritePatternSet &patterns) {
  mlir::PatternApplicator applicator(patterns);
  applicator.applyDefaultCostModel();
  struct Rewriter : mlir::PatternRewriter, mlir::RewriterBase::Listener {
    explicit Rewriter(mlir::MLIRContext *ctx) : mlir::PatternRewriter(ctx) { setListener(this); }
    void notifyOperationErased(mlir::Operation *op) override { erased.insert(op); }
    llvm::DenseSet<mlir::Operation *> erased;
  } rewriter(region.getContext());
  llvm::SmallVector<mlir::Operation *> ops;
  region.walk([&](mlir::Operation *op) { ops.push_back(op); });
  bool changed = false;
  for (mlir::Operation *op : ops)
    while (!rewriter.erased.contains(op)) {
      rewriter.setInsertionPoint(op);
      if (mlir::failed(applicator.matchAndRewrite(op, rewriter)))
        break;
      changed = true;
    }
  return changed;
}

} // namespace tx8be::detail

#endif // TX8_LIB_TRANSFORMS_PATTERNDRIVER_H
