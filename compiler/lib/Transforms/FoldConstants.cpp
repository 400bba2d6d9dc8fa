//===- FoldConstants.cpp - Compile-time evaluation of constant ops (tx8be-fold-constants) ===//
//
// Whatever depends on constants alone is computed once here, by the same reference kernels the golden model
// uses (ComputeInterface), instead of on the device at every run: e.g. the Transpose of a weight that
// PyTorch's exporter puts in front of a MatMul. op_gemm has no transpose, so a Gemm's constant B^T is
// pre-transposed as well; an op with empty results becomes empty Constants. An op whose operands are all splats
// (one value for every element: a large ConstantOfShape) and whose result then is one too (movement, elementwise,
// Cast) is evaluated once, on one element: its result stays a splat whatever its size, and only consts.bin
// holds its bytes. The tx8be ops' ComputeInterface models are external (TX8ComputeModels): a tool that
// did not register them (registerComputeInterfaceExternalModels) gets an error on the first op this pass
// would evaluate, not IR that is silently left unfolded.
//
//===----------------------------------------------------------------------===//
#include "PatternDriver.h"

#include "tx8/Interpreter/ReferenceRunner.h"
#include "tx8/Transforms/PassStatistics.h"
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

FailureOr<SmallVector<Attribute>> evaluate(Operation *op, std::string &why, PassStatistic *splats = nullptr);
ConstantOp createConstant(OpBuilder &b, Location loc, Attribute value);

/// The splat value of `v` when it is a non-empty tx8be.Constant that stores one value for all its elements.
DenseElementsAttr splatOf(Value v) {
  auto constant = v.getDefiningOp<ConstantOp>();
  auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue()) : DenseElementsAttr();
  return dense && dense.isSplat() && dense.getNumElements() > 0 ? dense : DenseElementsAttr();
}

/// Ops whose result is one value everywhere when each operand is: the elementwise ones.
bool isElementwise(Operation *op) {
  return op->hasTrait<OpTrait::tx8be::UnaryElementwise>() ||
         isa<AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, PowOp, ModOp, AndOp, OrOp, XorOp, EqualOp, LessOp,
             LessOrEqualOp, GreaterOp, GreaterOrEqualOp, WhereOp, PReluOp, CastOp>(op);
}

/// `op` evaluated on operands that are all splats, as a splat, without materialising any operand or result:
/// the movement ops (Reshape, Transpose, Expand, Slice; Concat of one value) keep the value; an elementwise op
/// computes it once, on a copy of itself whose operands and result have one element (same ranks). A large
/// constant built as a splat (ONNX ConstantOfShape, a Gemm's transposed B, its Cast to bf16) thus stays one value
/// until codegen writes its bytes to consts.bin. nullopt when that does not apply (the op is evaluated whole).
std::optional<FailureOr<SmallVector<Attribute>>> evaluateSplat(Operation *op, std::string &why) {
  SmallVector<DenseElementsAttr> splats;
  for (Value operand : op->getOperands())
    if (DenseElementsAttr s = splatOf(operand))
      splats.push_back(s);
    else
      return std::nullopt;
  if (splats.empty() || op->getNumResults() != 1)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape() || type.getNumElements() <= 1) // (one element: evaluated as it is)
    return std::nullopt;
  bool oneValue = llvm::all_of(splats, [&](DenseElementsAttr s) {
    return s.getElementType() == type.getElementType() &&
           s.getSplatValue<Attribute>() == splats.front().getSplatValue<Attribute>();
  });
  if (isa<ReshapeOp, TransposeOp, ExpandOp, SliceOp>(op) || (isa<ConcatOp>(op) && oneValue))
    return FailureOr<SmallVector<Attribute>>(SmallVector<Attribute>{splats.front().resizeSplat(type)});
  if (!isElementwise(op))
    return std::nullopt;
  auto ones = [](RankedTensorType t) { return t.clone(SmallVector<int64_t>(t.getRank(), 1)); };
  OpBuilder detached(op->getContext());
  SmallVector<Operation *> made;
  SmallVector<Value> operands;
  for (DenseElementsAttr s : splats) {
    auto t = ones(cast<RankedTensorType>(s.getType()));
    made.push_back(createConstant(detached, op->getLoc(), s.resizeSplat(t)));
    operands.push_back(made.back()->getResult(0));
  }
  OperationState state(op->getLoc(), op->getName());
  state.addOperands(operands);
  state.addAttributes(op->getAttrs());
  state.addTypes(ones(type));
  Operation *one = detached.create(state);
  FailureOr<SmallVector<Attribute>> values = evaluate(one, why);
  one->erase();
  for (Operation *c : made)
    c->erase();
  if (failed(values))
    return values;
  DenseElementsAttr value = cast<DenseElementsAttr>(values->front()).resizeSplat(type);
  return FailureOr<SmallVector<Attribute>>(SmallVector<Attribute>{value});
}

/// Runs `op`, whose operands are all tx8be.Constant, through its ComputeInterface: one attribute per result
/// (a splat without computing every element where evaluateSplat applies; counted in `splats`).
/// Fails (with the reason) when the op cannot be computed or a result type is not static.
FailureOr<SmallVector<Attribute>> evaluate(Operation *op, std::string &why, PassStatistic *splats) {
  if (auto splat = evaluateSplat(op, why)) {
    if (splats && succeeded(*splat))
      ++*splats;
    return *splat;
  }
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
  FoldComputeOp(MLIRContext *ctx, PassStatistic &numSplats)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx), numSplats(numSplats) {}

  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (!op->getName().hasInterface<ComputeInterface>() || !isFoldable(op))
      return failure();
    std::string why;
    auto values = evaluate(op, why, &numSplats);
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

  PassStatistic &numSplats;
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
  GemmTransBToConstant(MLIRContext *ctx, PassStatistic &numSplats)
      : OpRewritePattern(ctx, /*benefit=*/2), numSplats(numSplats) {}

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
    auto values = evaluate(transpose, why, &numSplats);
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

  PassStatistic &numSplats;
};

struct FoldConstantsPass : tx8be::impl::FoldConstantsPassBase<FoldConstantsPass> {
  PassStatistic numSplats{this, "splats", "ops on splat constants evaluated as one value"};

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
    patterns.add<GemmTransBToConstant>(&getContext(), numSplats);
    patterns.add<EmptyResultToConstant>(&getContext());
    patterns.add<FoldComputeOp>(&getContext(), numSplats);
    tx8be::detail::applyPatternsInProgramOrder(getOperation().getBody(), FrozenRewritePatternSet(std::move(patterns)));
  }
};

} // namespace
