//===- Decompose.cpp - Ops without an OpLib kernel as ops with one (tx8be-decompose) ===//
//
// Some tx8be ops are compositions of others that OpLib runs: a LogSoftmax is a max, a subtraction, an exp, a
// sum and a log; a PRelu is a max, a min, a multiply and an add. Each pattern below writes one such op as its
// composition, in the formula the op's summary and ONNX give, so that the device computes what the reference
// computes (each step rounded to the element type, as the ONNX functions do). Ops whose kernels exist are left
// alone.
//
//===----------------------------------------------------------------------===//
#include "tx8/Dialect/Tx8be/IR/Tx8be.h"
#include "tx8/Transforms/Passes.h"

#include "DecomposeConvPool.h"
#include "PatternDriver.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"

namespace tx8be {
#define GEN_PASS_DEF_DECOMPOSEPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

/// A one-element constant of `like`'s element type.
Value scalarConstant(PatternRewriter &rewriter, Location loc, Value like, double value) {
  Type element = getElementTypeOrSelf(like.getType());
  auto type = RankedTensorType::get({1}, element);
  return rewriter.create<ConstantOp>(loc, type, DenseElementsAttr::get(type, rewriter.getFloatAttr(element, value)));
}

template <typename OpT> Value binary(PatternRewriter &rewriter, Location loc, Value a, Value b) {
  return rewriter.create<OpT>(loc, ValueRange{a, b}).getResult();
}

template <typename OpT> Value reduce(PatternRewriter &rewriter, Location loc, Value x, ArrayRef<int64_t> axes) {
  return rewriter
      .create<OpT>(loc, x, rewriter.getDenseI64ArrayAttr(axes), rewriter.getBoolAttr(true), StringAttr(), DevAttr())
      .getResult();
}

int64_t normalizedAxis(int64_t axis, Value x) {
  int64_t rank = cast<ShapedType>(x.getType()).getRank();
  return axis < 0 ? axis + rank : axis;
}

/// x - max(x) along `axis` (kept): what Softmax and LogSoftmax exponentiate.
Value shiftedByMax(PatternRewriter &rewriter, Location loc, Value x, int64_t axis) {
  return binary<SubOp>(rewriter, loc, x, reduce<ReduceMaxOp>(rewriter, loc, x, {axis}));
}

/// LogSoftmax(x) = (x - m) - log(sum(exp(x - m))), m = max(x) along the axis (ONNX's LogSoftmax function).
struct LogSoftmaxToReductions : OpRewritePattern<LogSoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LogSoftmaxOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getInput();
    int64_t axis = normalizedAxis(op.getAxis(), x);
    Value shifted = shiftedByMax(rewriter, loc, x, axis);
    Value sum = reduce<ReduceSumOp>(rewriter, loc, rewriter.create<ExpOp>(loc, shifted).getResult(), {axis});
    rewriter.replaceOp(op, binary<SubOp>(rewriter, loc, shifted, rewriter.create<LogOp>(loc, sum).getResult()));
    return success();
  }
};

/// Softmax along an axis that is not the last: e = exp(x - max(x)), e / sum(e) (op_softmax normalises the
/// innermost dim only).
struct SoftmaxOuterAxisToReductions : OpRewritePattern<SoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SoftmaxOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getInput();
    int64_t axis = normalizedAxis(op.getAxis(), x);
    if (axis == cast<ShapedType>(x.getType()).getRank() - 1)
      return failure();
    Value shifted = shiftedByMax(rewriter, loc, x, axis);
    Value e = rewriter.create<ExpOp>(loc, shifted).getResult();
    rewriter.replaceOp(op, binary<DivOp>(rewriter, loc, e, reduce<ReduceSumOp>(rewriter, loc, e, {axis})));
    return success();
  }
};

/// PRelu(x, slope) = max(x, 0) + slope * min(x, 0): one of the two terms is 0, so the sum is exact and the
/// result is ONNX's x < 0 ? slope * x : x (a NaN stays NaN).
struct PReluToMaxMin : OpRewritePattern<PReluOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PReluOp op, PatternRewriter &rewriter) const override {
    auto xShape = cast<ShapedType>(op.getInput().getType()).getShape();
    auto slopeShape = cast<ShapedType>(op.getSlope().getType()).getShape();
    if (slopeShape.size() > xShape.size())
      return rewriter.notifyMatchFailure(op, "the slope has a higher rank than the input");
    for (size_t i = 0; i < slopeShape.size(); ++i) // unidirectional: the slope never widens the result
      if (slopeShape[i] != 1 && slopeShape[i] != xShape[xShape.size() - slopeShape.size() + i])
        return rewriter.notifyMatchFailure(op, "the slope does not broadcast to the input");
    Location loc = op.getLoc();
    Value x = op.getInput(), zero = scalarConstant(rewriter, loc, x, 0.0);
    Value positive = binary<MaxOp>(rewriter, loc, x, zero);
    Value negative = binary<MulOp>(rewriter, loc, binary<MinOp>(rewriter, loc, x, zero), op.getSlope());
    rewriter.replaceOp(op, binary<AddOp>(rewriter, loc, positive, negative));
    return success();
  }
};

/// GlobalMaxPool = ReduceMax over the spatial dims (2..), kept.
struct GlobalMaxPoolToReduceMax : OpRewritePattern<GlobalMaxPoolOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GlobalMaxPoolOp op, PatternRewriter &rewriter) const override {
    int64_t rank = cast<ShapedType>(op.getInput().getType()).getRank();
    SmallVector<int64_t> axes;
    for (int64_t d = 2; d < rank; ++d)
      axes.push_back(d);
    rewriter.replaceOp(op, reduce<ReduceMaxOp>(rewriter, op.getLoc(), op.getInput(), axes));
    return success();
  }
};

/// A MatMul of `a` and `b` (attributes `attrs`) as op_gemm computes it: op_gemm accumulates and writes fp32, so
/// bf16 / fp16 operands give an fp32 result (ne_in_fmt, as tx8be-ne-precision's MatMuls) that a Cast rounds once
/// to their type (tx8be-group-fuse then runs the Cast on the MatMul's slice in SPM). Every pattern here that
/// creates a MatMul uses it: the driver does not revisit the ops a pattern creates.
Value gemmMatMul(PatternRewriter &rewriter, Location loc, Value a, Value b, ArrayRef<NamedAttribute> attrs = {}) {
  Type element = getElementTypeOrSelf(a.getType());
  SmallVector<NamedAttribute> all(attrs);
  bool narrow = (element.isBF16() || element.isF16()) &&
                llvm::none_of(attrs, [](NamedAttribute attr) { return attr.getName() == "ne_in_fmt"; });
  if (narrow)
    all.push_back(rewriter.getNamedAttr("ne_in_fmt", rewriter.getStringAttr(element.isBF16() ? "bf16" : "fp16")));
  Value y = rewriter.create<MatMulOp>(loc, ValueRange{a, b}, all).getResult();
  if (!narrow)
    return y;
  return rewriter.create<CastOp>(loc, TypeRange{cast<RankedTensorType>(y.getType()).clone(element)}, ValueRange{y})
      .getResult();
}

/// Gemm in a form op_gemm does not take (a transpose, alpha != 1, a C that is not a row vector of the N columns
/// or beta != 1) as ONNX defines it: alpha * (A' x B') + beta * C with A' = A^T when transA (B' likewise), each
/// product and sum rounded as numpy does in f32. Transposes of a constant fold later (tx8be-fold-constants).
struct GemmToMatMul : OpRewritePattern<GemmOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GemmOp op, PatternRewriter &rewriter) const override {
    if (gemmFormProblem(op).empty())
      return failure();
    Location loc = op.getLoc();
    auto transposed = [&](Value v, bool trans) -> Value {
      if (!trans)
        return v;
      return rewriter.create<TransposeOp>(loc, v, rewriter.getDenseI64ArrayAttr({1, 0}), StringAttr(), DevAttr())
          .getResult();
    };
    Value a = transposed(op.getA(), op.getTransA());
    Value b = transposed(op.getB(), op.getTransB());
    Value y = gemmMatMul(rewriter, loc, a, b);
    if (float alpha = op.getAlpha().convertToFloat(); alpha != 1.0f)
      y = binary<MulOp>(rewriter, loc, y, scalarConstant(rewriter, loc, y, alpha));
    if (Value c = op.getC()) {
      if (float beta = op.getBeta().convertToFloat(); beta != 1.0f)
        c = binary<MulOp>(rewriter, loc, c, scalarConstant(rewriter, loc, c, beta));
      y = binary<AddOp>(rewriter, loc, y, c);
    }
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// A MatMul with a bf16 or fp16 result (a bf16 ONNX model): the MatMul gives fp32 and a Cast rounds it once to
/// the result type (gemmMatMul).
struct NarrowMatMulToCast : OpRewritePattern<MatMulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatMulOp op, PatternRewriter &rewriter) const override {
    Type element = op.getOutput().getType().getElementType();
    if (!element.isBF16() && !element.isF16())
      return failure();
    rewriter.replaceOp(op, gemmMatMul(rewriter, op.getLoc(), op.getA(), op.getB(), op->getAttrs()));
    return success();
  }
};

Value reshaped(PatternRewriter &rewriter, Location loc, Value v, ArrayRef<int64_t> shape) {
  auto type = RankedTensorType::get(shape, getElementTypeOrSelf(v.getType()));
  if (type == v.getType())
    return v;
  return rewriter.create<ReshapeOp>(loc, type, v, StringAttr(), DevAttr()).getResult();
}

/// A batched MatMul whose B is one matrix (2-D, or every batch dim of extent 1): A's batch dims fold into its rows,
/// one bigger 2-D MatMul. Other batched MatMuls stay one op: op_gemm multiplies the matrices of each step's box.
struct BatchedMatMulFoldRows : OpRewritePattern<MatMulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatMulOp op, PatternRewriter &rewriter) const override {
    auto aType = cast<RankedTensorType>(op.getA().getType()), bType = cast<RankedTensorType>(op.getB().getType());
    int64_t ra = aType.getRank(), rb = bType.getRank();
    if ((ra == 2 && rb == 2) || !aType.hasStaticShape() || !bType.hasStaticShape() ||
        llvm::any_of(bType.getShape().drop_back(2), [](int64_t d) { return d != 1; }))
      return failure();
    int64_t k = aType.getDimSize(ra - 1);
    if (k == 0)
      return failure();
    Location loc = op.getLoc();
    Value a = reshaped(rewriter, loc, op.getA(), {aType.getNumElements() / k, k});
    Value b = reshaped(rewriter, loc, op.getB(), bType.getShape().take_back(2));
    // The attributes go along: an ne_in_fmt (NarrowMatMulToCast's) decides the result type.
    Value y = gemmMatMul(rewriter, loc, a, b, op->getAttrs());
    rewriter.replaceOp(op, reshaped(rewriter, loc, y, cast<RankedTensorType>(op.getType()).getShape()));
    return success();
  }
};

/// ArgMax / ArgMin as reductions: e = (x == m) or x is NaN, m = max(x) (min(x)) along the axis, kept; the first
/// index is min(iota + K * not(e)), the last max(e * (iota + 1)) - 1, in f32 (exact: K < 2^24), cast to i64.
/// A NaN makes m NaN, so e marks exactly the NaNs: the first (last) NaN, as numpy's argmax.
template <typename OpT, typename ExtremeOp>
struct ArgReduceToReductions : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getInput();
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t rank = xType.getRank();
    if (rank == 0 || !xType.hasStaticShape())
      return failure();
    int64_t axis = normalizedAxis(op.getAxis(), x), extent = xType.getDimSize(axis);
    if (extent >= (int64_t{1} << 24))
      return failure();
    Type f32 = rewriter.getF32Type();
    auto castTo = [&](Value v, Type element) {
      auto type = cast<RankedTensorType>(v.getType()).clone(element);
      return rewriter.create<CastOp>(loc, TypeRange{type}, ValueRange{v}).getResult();
    };
    Value extreme = reduce<ExtremeOp>(rewriter, loc, x, {axis});
    Value isNaN = rewriter.create<NotOp>(loc, binary<EqualOp>(rewriter, loc, x, x)).getResult();
    Value hit = binary<OrOp>(rewriter, loc, binary<EqualOp>(rewriter, loc, x, extreme), isNaN);
    bool last = op.getSelectLastIndex();
    SmallVector<int64_t> iotaShape(rank, 1);
    iotaShape[axis] = extent;
    auto iotaType = RankedTensorType::get(iotaShape, f32);
    SmallVector<float> iotaValues;
    for (int64_t k = 0; k < extent; ++k)
      iotaValues.push_back(static_cast<float>(last ? k + 1 : k));
    Value iota = rewriter.create<ConstantOp>(loc, iotaType, DenseElementsAttr::get(iotaType, ArrayRef(iotaValues)));
    Value index;
    if (last) {
      Value marked = binary<MulOp>(rewriter, loc, castTo(hit, f32), iota);
      // One op per statement: the order of the created ops must not depend on argument evaluation order.
      Value highest = reduce<ReduceMaxOp>(rewriter, loc, marked, {axis});
      index = binary<SubOp>(rewriter, loc, highest, scalarConstant(rewriter, loc, marked, 1.0));
    } else {
      Value missed = castTo(rewriter.create<NotOp>(loc, hit).getResult(), f32);
      Value penalty = binary<MulOp>(rewriter, loc, missed, scalarConstant(rewriter, loc, missed, extent));
      index = reduce<ReduceMinOp>(rewriter, loc, binary<AddOp>(rewriter, loc, penalty, iota), {axis});
    }
    Value result = castTo(index, rewriter.getI64Type());
    if (!op.getKeepdims())
      result = reshaped(rewriter, loc, result, cast<ShapedType>(op.getType()).getShape());
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Gather of float data as a one-hot selection (OpLib's op_gather_rows takes only the rows of a constant 2-D
/// table: gatherRowsProblem; those stay Gathers): in the view [outer, index,
/// candidate, inner], data broadcast over the indices, a mask (wrapped index == iota of the candidates)
/// broadcast over outer and inner, Where(mask, data, 0), ReduceSum over the candidates. Exact (the sum adds
/// zeros to the selected element; a selected -0 comes out +0); an out-of-range index (an ONNX error) gives 0.
/// Costs index count x axis extent work: fine for the small tables of tests and heads, not for embeddings.
struct GatherToOneHotSelect : OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherOp op, PatternRewriter &rewriter) const override {
    if (gatherRowsProblem(op).empty())
      return failure();
    Location loc = op.getLoc();
    auto dataType = cast<RankedTensorType>(op.getData().getType());
    auto idxType = cast<RankedTensorType>(op.getIndices().getType());
    Type element = dataType.getElementType(), idxElement = idxType.getElementType();
    if (!isa<FloatType>(element) || !dataType.hasStaticShape() || !idxType.hasStaticShape() ||
        dataType.getRank() == 0)
      return failure();
    int64_t axis = normalizedAxis(op.getAxis(), op.getData());
    ArrayRef<int64_t> shape = dataType.getShape();
    int64_t outer = ShapedType::getNumElements(shape.take_front(axis)), extent = shape[axis],
            inner = ShapedType::getNumElements(shape.drop_front(axis + 1));
    int64_t count = idxType.getNumElements();
    SmallVector<int64_t> full{outer, count, extent, inner};
    auto constant = [&](ArrayRef<int64_t> dims, Type type, function_ref<Attribute(int64_t)> value) {
      auto t = RankedTensorType::get(dims, type);
      SmallVector<Attribute> values;
      for (int64_t i = 0, e = ShapedType::getNumElements(dims); i < e; ++i)
        values.push_back(value(i));
      return rewriter.create<ConstantOp>(loc, t, DenseElementsAttr::get(t, values)).getResult();
    };
    auto intAttr = [&](int64_t v) -> Attribute { return rewriter.getIntegerAttr(idxElement, v); };
    auto expand = [&](Value v) {
      return rewriter.create<ExpandOp>(loc, RankedTensorType::get(full, getElementTypeOrSelf(v.getType())), v)
          .getResult();
    };
    // the indices, negative ones counted from the end of the axis
    Value idx = reshaped(rewriter, loc, op.getIndices(), {1, count, 1, 1});
    Value zero = constant({1}, idxElement, [&](int64_t) { return intAttr(0); });
    Value size = constant({1}, idxElement, [&](int64_t) { return intAttr(extent); });
    Value negative = binary<LessOp>(rewriter, loc, idx, zero);
    Value wrappedUp = binary<AddOp>(rewriter, loc, idx, size);
    Value wrapped = rewriter.create<WhereOp>(loc, ValueRange{negative, wrappedUp, idx}).getResult();
    Value iota = constant({1, 1, extent, 1}, idxElement, intAttr);
    Value mask = expand(binary<EqualOp>(rewriter, loc, wrapped, iota));
    Value candidates = expand(reshaped(rewriter, loc, op.getData(), {outer, 1, extent, inner}));
    Value zeros = expand(constant({1, 1, 1, 1}, element, [&](int64_t) { return rewriter.getFloatAttr(element, 0); }));
    Value picked = rewriter.create<WhereOp>(loc, ValueRange{mask, candidates, zeros}).getResult();
    Value sum = rewriter
                    .create<ReduceSumOp>(loc, picked, rewriter.getDenseI64ArrayAttr({2}), rewriter.getBoolAttr(false),
                                         StringAttr(), DevAttr())
                    .getResult();
    rewriter.replaceOp(op, reshaped(rewriter, loc, sum, op.getType().getShape()));
    return success();
  }
};

/// Gather of rows of a constant f32 table (axis 0) that op_gather_rows does not take (a table of rank > 2) as a
/// MatMul of the one-hot rows [count, extent] by the table [extent, inner]: the NE does count x extent x inner
/// MACs, and nothing the size of count x extent x inner is ever built (GatherToOneHotSelect's broadcast of the
/// table over the indices is 3 GB for BERT's). An embedding (a 2-D table) stays a Gather: op_gather_rows reads
/// its rows from DDR (gatherRowsProblem). Exact when every table entry is finite (each output adds exact zeros to
/// the selected entry), which is checked: a table with an Inf or NaN is left to GatherToOneHotSelect. An
/// out-of-range index gives a row of zeros.
struct GatherRowsToMatMul : OpRewritePattern<GatherOp> {
  GatherRowsToMatMul(MLIRContext *ctx) : OpRewritePattern<GatherOp>(ctx, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(GatherOp op, PatternRewriter &rewriter) const override {
    if (gatherRowsProblem(op).empty())
      return failure();
    Location loc = op.getLoc();
    auto dataType = cast<RankedTensorType>(op.getData().getType());
    auto idxType = cast<RankedTensorType>(op.getIndices().getType());
    auto table = op.getData().getDefiningOp<ConstantOp>();
    if (!table || !dataType.getElementType().isF32() || !dataType.hasStaticShape() || !idxType.hasStaticShape() ||
        dataType.getRank() < 1 || normalizedAxis(op.getAxis(), op.getData()) != 0 || idxType.getNumElements() == 0)
      return failure();
    auto values = dyn_cast<DenseElementsAttr>(table.getValue());
    if (!values || llvm::any_of(values.getValues<APFloat>(), [](const APFloat &v) { return !v.isFinite(); }))
      return failure();
    Type idxElement = idxType.getElementType(), f32 = dataType.getElementType();
    int64_t extent = dataType.getDimSize(0), count = idxType.getNumElements();
    int64_t inner = ShapedType::getNumElements(dataType.getShape().drop_front());
    auto constant = [&](ArrayRef<int64_t> dims, function_ref<int64_t(int64_t)> value) {
      auto t = RankedTensorType::get(dims, idxElement);
      SmallVector<Attribute> attrs;
      for (int64_t i = 0, e = ShapedType::getNumElements(dims); i < e; ++i)
        attrs.push_back(rewriter.getIntegerAttr(idxElement, value(i)));
      return rewriter.create<ConstantOp>(loc, t, DenseElementsAttr::get(t, attrs)).getResult();
    };
    // the indices as a column, negative ones counted from the end of the table
    Value idx = reshaped(rewriter, loc, op.getIndices(), {count, 1});
    Value zero = constant({1}, [](int64_t) { return 0; });
    Value size = constant({1}, [&](int64_t) { return extent; });
    Value negative = binary<LessOp>(rewriter, loc, idx, zero);
    Value wrappedUp = binary<AddOp>(rewriter, loc, idx, size);
    Value wrapped = rewriter.create<WhereOp>(loc, ValueRange{negative, wrappedUp, idx}).getResult();
    Value iota = constant({1, extent}, [](int64_t i) { return i; });
    // The int comparison broadcasts only its second operand: give it the indices expanded to [count, extent].
    Value rows = rewriter.create<ExpandOp>(loc, RankedTensorType::get({count, extent}, idxElement), wrapped).getResult();
    Value hit = binary<EqualOp>(rewriter, loc, rows, iota);
    Value oneHot = rewriter.create<CastOp>(loc, TypeRange{RankedTensorType::get({count, extent}, f32)}, ValueRange{hit})
                       .getResult();
    Value matrix = reshaped(rewriter, loc, op.getData(), {extent, inner});
    Value picked = rewriter.create<MatMulOp>(loc, ValueRange{oneHot, matrix}).getResult();
    rewriter.replaceOp(op, reshaped(rewriter, loc, picked, op.getType().getShape()));
    return success();
  }
};

/// A Slice that reads its whole input in order (an ONNX function's x[:, 0:C] on an x of C) is its input: no copy,
/// and no 6-dim limit of op_slice to meet.
struct WholeSliceToInput : OpRewritePattern<SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SliceOp op, PatternRewriter &rewriter) const override {
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    if (inType != op.getType() || llvm::any_of(op.getOffsets(), [](int64_t o) { return o != 0; }) ||
        llvm::any_of(op.getStrides(), [](int64_t s) { return s != 1; }))
      return failure();
    rewriter.replaceOp(op, op.getInput());
    return success();
  }
};

/// A Transpose that moves only dims of extent 1 (PyTorch's batch_first swaps on a batch of 1, [1, S, D] to
/// [S, 1, D]) keeps every element where it was: a Reshape, a view in DDR instead of a TDMA copy.
struct UnitDimTransposeToReshape : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op, PatternRewriter &rewriter) const override {
    auto inType = dyn_cast<RankedTensorType>(op.getInput().getType());
    if (!inType || !inType.hasStaticShape())
      return failure();
    int64_t previous = -1;
    for (int64_t from : op.getPerm()) {
      if (inType.getDimSize(from) == 1)
        continue;
      if (from < previous)
        return failure();
      previous = from;
    }
    rewriter.replaceOp(op, reshaped(rewriter, op.getLoc(), op.getInput(), op.getType().getShape()));
    return success();
  }
};

/// A unary elementwise op on a tensor of rank > 6 (more dims than OpLib's tensors hold) on its 1-D view: same
/// elements, same order, Reshapes around it.
struct FlattenHighRankUnary : RewritePattern {
  explicit FlattenHighRankUnary(MLIRContext *ctx) : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (!op->hasTrait<OpTrait::tx8be::UnaryElementwise>() || op->getNumOperands() != 1 || op->getNumResults() != 1)
      return failure();
    auto inType = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    auto outType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!inType || !outType || !inType.hasStaticShape() || inType.getRank() <= 6 ||
        inType.getShape() != outType.getShape())
      return failure();
    Location loc = op->getLoc();
    int64_t count = inType.getNumElements();
    Value flat = reshaped(rewriter, loc, op->getOperand(0), {count});
    OperationState state(loc, op->getName());
    state.addOperands(flat);
    state.addTypes(RankedTensorType::get({count}, outType.getElementType()));
    state.addAttributes(op->getAttrs());
    Operation *flatOp = rewriter.create(state);
    rewriter.replaceOp(op, reshaped(rewriter, loc, flatOp->getResult(0), outType.getShape()));
    return success();
  }
};

/// A broadcasting binary op of rank > 4 on the view that merges neighbouring dims broadcast alike in both
/// operands ([2, 3, 4, 5, 6] * [3, 1, 1, 1] is [2, 3, 120] * [1, 3, 1]): OpLib's view folds ranks above 4
/// and cannot fold a full dim with a broadcast one. Same elements, same order: only Reshapes around it.
template <typename OpT>
struct CollapseBroadcastDims : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op, PatternRewriter &rewriter) const override {
    auto outType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!outType || !outType.hasStaticShape() || outType.getRank() <= 4 || op->getNumOperands() != 2)
      return failure();
    ArrayRef<int64_t> out = outType.getShape();
    int64_t rank = outType.getRank();
    SmallVector<SmallVector<int64_t>> aligned;
    for (Value v : op->getOperands()) {
      auto type = cast<RankedTensorType>(v.getType());
      if (!type.hasStaticShape())
        return failure();
      SmallVector<int64_t> shape(rank - type.getRank(), 1);
      llvm::append_range(shape, type.getShape());
      aligned.push_back(shape);
    }
    // merged dims: (full in operand 0, full in operand 1) decides which neighbours merge
    SmallVector<int64_t> newOut, newA, newB;
    std::pair<bool, bool> last{false, false};
    for (int64_t d = 0; d < rank; ++d) {
      if (out[d] == 1)
        continue;
      std::pair<bool, bool> status{aligned[0][d] != 1, aligned[1][d] != 1};
      if (!newOut.empty() && status == last) {
        newOut.back() *= out[d], newA.back() *= aligned[0][d], newB.back() *= aligned[1][d];
        continue;
      }
      newOut.push_back(out[d]), newA.push_back(aligned[0][d]), newB.push_back(aligned[1][d]);
      last = status;
    }
    if (newOut.size() > 4 || newOut.empty())
      return failure();
    Location loc = op.getLoc();
    Value a = reshaped(rewriter, loc, op->getOperand(0), newA);
    Value b = reshaped(rewriter, loc, op->getOperand(1), newB);
    auto newType = RankedTensorType::get(newOut, outType.getElementType());
    Value y = rewriter.create<OpT>(loc, TypeRange{newType}, ValueRange{a, b}, op->getAttrs()).getResult();
    rewriter.replaceOp(op, reshaped(rewriter, loc, y, out));
    return success();
  }
};

struct DecomposePass : tx8be::impl::DecomposePassBase<DecomposePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<LogSoftmaxToReductions, SoftmaxOuterAxisToReductions, PReluToMaxMin, GlobalMaxPoolToReduceMax,
                 GemmToMatMul, BatchedMatMulFoldRows, NarrowMatMulToCast, ArgReduceToReductions<ArgMaxOp, ReduceMaxOp>,
                 ArgReduceToReductions<ArgMinOp, ReduceMinOp>, GatherRowsToMatMul, GatherToOneHotSelect,
               WholeSliceToInput, UnitDimTransposeToReshape>(&getContext());
    populateConvPoolDecompositions(patterns);
    FrozenRewritePatternSet frozen(std::move(patterns));
    tx8be::detail::applyPatternsInProgramOrder(getOperation().getBody(), frozen);
    // then the broadcasting ops, the compositions' included, on views OpLib takes
    RewritePatternSet views(&getContext());
    views.add<CollapseBroadcastDims<AddOp>, CollapseBroadcastDims<SubOp>, CollapseBroadcastDims<MulOp>,
              CollapseBroadcastDims<DivOp>, CollapseBroadcastDims<MaxOp>, CollapseBroadcastDims<MinOp>,
              CollapseBroadcastDims<PowOp>, CollapseBroadcastDims<ModOp>, CollapseBroadcastDims<EqualOp>,
              CollapseBroadcastDims<LessOp>, CollapseBroadcastDims<LessOrEqualOp>, CollapseBroadcastDims<GreaterOp>,
              CollapseBroadcastDims<GreaterOrEqualOp>, CollapseBroadcastDims<AndOp>, CollapseBroadcastDims<OrOp>,
              CollapseBroadcastDims<XorOp>, FlattenHighRankUnary>(&getContext());
    tx8be::detail::applyPatternsInProgramOrder(getOperation().getBody(), FrozenRewritePatternSet(std::move(views)));
  }
};

} // namespace
