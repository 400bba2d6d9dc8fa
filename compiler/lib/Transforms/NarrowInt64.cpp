//===- NarrowInt64.cpp - Compute int64 values in int32 (tx8be-narrow-int64) ===//
//
// The chip's CT computes int8 and int32; int64 is a storage format only its convert reads and writes
// (tx8/dtype.h). An op with int64 operands or results becomes the same op in int32 between Casts: the int64
// tensors cross DDR as they are, and each op computes on their saturated int32 values.
//
//===----------------------------------------------------------------------===//
#include "tx8/Dialect/Tx8be/IR/Tx8be.h"
#include "tx8/Transforms/Passes.h"

#include "PatternDriver.h"

#include "mlir/IR/PatternMatch.h"

namespace tx8be {
#define GEN_PASS_DEF_NARROWINT64PASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

bool isI64Tensor(Type type) { return getElementTypeOrSelf(type).isSignlessInteger(64); }

/// `type` with i64 elements replaced by i32.
Type narrowed(Type type) {
  if (!isI64Tensor(type))
    return type;
  return cast<RankedTensorType>(type).clone(IntegerType::get(type.getContext(), 32));
}

/// Any tx8be compute op but Cast, Reshape and Constant, with an i64 operand or result: the op on i32 between
/// Casts (i64 -> i32 saturating before, i32 -> i64 exact after).
struct NarrowInt64Op : RewritePattern {
  explicit NarrowInt64Op(MLIRContext *ctx) : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (!isa<Tx8beDialect>(op->getDialect()) || isa<CastOp, ReshapeOp, ConstantOp>(op) ||
        op->getNumRegions() != 0)
      return failure();
    if (llvm::none_of(op->getOperandTypes(), isI64Tensor) && llvm::none_of(op->getResultTypes(), isI64Tensor))
      return failure();
    Location loc = op->getLoc();
    SmallVector<Value> operands;
    for (Value v : op->getOperands())
      operands.push_back(isI64Tensor(v.getType())
                             ? rewriter.create<CastOp>(loc, TypeRange{narrowed(v.getType())}, ValueRange{v})
                                   .getResult()
                             : v);
    SmallVector<Type> types;
    for (Type t : op->getResultTypes())
      types.push_back(narrowed(t));
    OperationState state(loc, op->getName(), operands, types, op->getAttrs());
    Operation *narrow = rewriter.create(state);
    SmallVector<Value> results;
    for (auto [old, now] : llvm::zip(op->getResults(), narrow->getResults())) {
      Value v = now;
      if (isI64Tensor(old.getType()))
        v = rewriter.create<CastOp>(loc, TypeRange{old.getType()}, ValueRange{v}).getResult();
      results.push_back(v);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct NarrowInt64Pass : tx8be::impl::NarrowInt64PassBase<NarrowInt64Pass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<NarrowInt64Op>(&getContext());
    FrozenRewritePatternSet frozen(std::move(patterns));
    tx8be::detail::applyPatternsInProgramOrder(getOperation().getBody(), frozen);
  }
};

} // namespace
