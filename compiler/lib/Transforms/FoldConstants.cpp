//===- FoldConstants.cpp - Compile-time evaluation of constant ops (tx8be-fold-constants) ===//
//
// Whatever depends on constants alone is computed once here, by the same reference kernels the golden model
// uses (ComputeInterface), instead of on the device at every run: e.g. the Transpose of a weight that
// PyTorch's exporter puts in front of a MatMul. op_gemm has no transpose, so a Gemm's constant B^T is
// pre-transposed as well; an op with empty results becomes empty Constants. The tx8be ops' ComputeInterface models are external (TX8ComputeModels): a tool that
// did not register them (registerComputeInterfaceExternalModels) gets an error on the first op this pass
// would evaluate, not IR that is silently left unfolded.
//
//===----------------------------------------------------------------------===//
#include "PatternDriver.h"

#include "tx8/Interpreter/ReferenceRunner.h"
#include "tx8/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace tx8be {
#define GEN_PASS_DEF_FOLDCONSTANTSPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;
namespace ref = tx8::ref;

namespace {


/// Runs `op`, whose operands are all tx8be.Constant, through its ComputeInterface: one attribute per result.
/// Fails (with the reason) when the op cannot be computed or a result type is not static.
FailureOr<SmallVector<Attribute>> evaluate(Operation *op, std::string &why) {
  ComputeInterface compute = lookupComputeInterface(op, why);
  if (!compute)
    return failure();
  std::vector<ref::Tensor> inputs(op->getNumOperands());
  ComputeParam param;
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    auto constant = operand.getDefiningOp<ConstantOp>();
    if (!constant || failed(tensorFromElementsAttr(cast<ElementsAttr>(constant.getValue()), inputs[i], why)))
      return failure();
    param.inputs.push_back(&inputs[i]);
  }
  if (failed(compute.compute(param))) {
    why = param.error;
    return failure();
  }
  SmallVector<Attribute> values;
  for (auto [result, t] : llvm::zip_equal(op->getResults(), param.outputs)) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type || !type.hasStaticShape()) {
      why = "result type is not static";
      return failure();
    }
    values.push_back(tx8be::elementsAttrFromTensor(t, type));
  }
  return values;
}

ConstantOp createConstant(OpBuilder &b, Location loc, Attribute value) {
  return b.create<ConstantOp>(loc, TypeRange{cast<TypedAttr>(value).getType()}, ValueRange{},
                              ArrayRef<NamedAttribute>{b.getNamedAttr("value", value)});
}

/// Erases the Constants among `values` that nothing reads any more.
void eraseDeadConstants(PatternRewriter &rewriter, ArrayRef<Value> values) {
  llvm::SmallPtrSet<Operation *, 4> seen;
  for (Value v : values)
    if (auto constant = v.getDefiningOp<ConstantOp>())
      if (seen.insert(constant).second && constant->use_empty())
        rewriter.eraseOp(constant);
}

/// Whether FoldComputeOp evaluates `op` (given that it has a ComputeInterface): all its operands are Constants.
/// ChannelNorm, LoadVar and StoreVar are about the device image, not the values, and stay.
bool isFoldable(Operation *op) {
  return !isa<ChannelNormOp, LoadVarOp, StoreVarOp, LoadConstOp>(op) && op->getNumOperands() != 0 &&
         llvm::all_of(op->getOperands(), [](Value v) { return v.getDefiningOp<ConstantOp>(); });
}

/// Whether GemmTransBToConstant transposes `op`'s B.
bool hasConstantTransB(GemmOp op) {
  return op.getTransB() && op.getB().getDefiningOp<ConstantOp>() &&
         cast<RankedTensorType>(op.getB().getType()).getRank() == 2;
}

/// Whether ops named `name` were promised a ComputeInterface (the tx8be compute ops) that no model keeps.
/// (OperationName::hasInterface does not trip MLIR's abort on an unkept promise, as isa<> would with
/// assertions on.)
bool lacksComputeModel(OperationName name) {
  std::optional<RegisteredOperationName> info = name.getRegisteredInfo();
  return info && !info->hasInterface<ComputeInterface>() && isComputeInterfacePromised(*info);
}

/// A compute op whose operands are all Constants becomes the Constant of its result.
struct FoldComputeOp : RewritePattern {
  explicit FoldComputeOp(MLIRContext *ctx) : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (!op->getName().hasInterface<ComputeInterface>() || !isFoldable(op))
      return failure();
    std::string why;
    auto values = evaluate(op, why);
    if (failed(values))
      return rewriter.notifyMatchFailure(op, why);
    SmallVector<Value> operands(op->getOperands());
    SmallVector<Value> results;
    for (Attribute value : *values)
      results.push_back(createConstant(rewriter, op->getLoc(), value));
    rewriter.replaceOp(op, results);
    eraseDeadConstants(rewriter, operands);
    return success();
  }
};

/// A compute op whose results all have no elements (an x[0:0] Slice, an elementwise op on one) needs no
/// computation: its results are empty Constants, whatever its operands.
struct EmptyResultToConstant : RewritePattern {
  explicit EmptyResultToConstant(MLIRContext *ctx) : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/3, ctx) {}

  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (isa<ConstantOp>(op) || !op->getName().hasInterface<ComputeInterface>() || op->getNumResults() == 0)
      return failure();
    SmallVector<Value> results;
    for (Value result : op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type || !type.hasStaticShape() || type.getNumElements() != 0)
        return failure();
      results.push_back(createConstant(rewriter, op->getLoc(), DenseElementsAttr::get(type, ArrayRef<Attribute>{})));
    }
    SmallVector<Value> operands(op->getOperands());
    rewriter.replaceOp(op, results);
    eraseDeadConstants(rewriter, operands);
    return success();
  }
};

/// Gemm(A, B^T) with a constant B: B is transposed at compile time and transB cleared.
struct GemmTransBToConstant : OpRewritePattern<GemmOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GemmOp op, PatternRewriter &rewriter) const override {
    if (!hasConstantTransB(op))
      return failure();
    auto b = op.getB().getDefiningOp<ConstantOp>();
    auto type = cast<RankedTensorType>(op.getB().getType());
    // Computed by a Transpose that never enters the IR.
    OpBuilder detached(op.getContext());
    auto transposedType = RankedTensorType::get({type.getDimSize(1), type.getDimSize(0)}, type.getElementType());
    Operation *transpose =
        detached.create<TransposeOp>(b.getLoc(), TypeRange{transposedType}, ValueRange{op.getB()},
                                     ArrayRef<NamedAttribute>{detached.getNamedAttr(
                                         "perm", detached.getDenseI64ArrayAttr({1, 0}))});
    std::string why;
    auto values = evaluate(transpose, why);
    transpose->erase();
    if (failed(values))
      return rewriter.notifyMatchFailure(op, why);
    Value transposed = createConstant(rewriter, b.getLoc(), values->front());
    rewriter.modifyOpInPlace(op, [&] {
      op.getBMutable().assign(transposed);
      op.setTransB(false);
    });
    eraseDeadConstants(rewriter, {b.getOutput()});
    return success();
  }
};

struct FoldConstantsPass : tx8be::impl::FoldConstantsPassBase<FoldConstantsPass> {
  void runOnOperation() override {
    // Every op the patterns would evaluate needs its model (a folding cascade starts from one of these).
    OperationName transpose(TransposeOp::getOperationName(), &getContext());
    WalkResult models = getOperation().walk([&](Operation *op) {
      auto gemm = dyn_cast<GemmOp>(op);
      std::optional<OperationName> needed;
      if (isFoldable(op) && lacksComputeModel(op->getName()))
        needed = op->getName();
      else if (gemm && hasConstantTransB(gemm) && lacksComputeModel(transpose))
        needed = transpose;
      if (!needed)
        return WalkResult::advance();
      op->emitOpError() << "cannot be evaluated at compile time: '" << needed->getStringRef()
                        << "' has no ComputeInterface model (the tool must call "
                           "tx8be::registerComputeInterfaceExternalModels)";
      return WalkResult::interrupt();
    });
    if (models.wasInterrupted())
      return signalPassFailure();

    RewritePatternSet patterns(&getContext());
    patterns.add<GemmTransBToConstant>(&getContext(), /*benefit=*/2);
    patterns.add<EmptyResultToConstant>(&getContext());
    patterns.add<FoldComputeOp>(&getContext());
    tx8be::detail::applyPatternsInProgramOrder(getOperation().getBody(), FrozenRewritePatternSet(std::move(patterns)));
  }
};

} // namespace
