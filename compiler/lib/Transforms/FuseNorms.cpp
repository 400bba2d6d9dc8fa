//===- FuseNorms.cpp - Exported LayerNorm / RMSNorm / GELU as one op (tx8be-fuse-norms) ===//
//
// Exporters write LayerNormalization below opset 17 (and RMSNorm and exact GELU at every opset) as chains of
// primitives: ReduceMean, Sub, Pow, Add, Sqrt, Div, Mul, Erf, Tanh. Run one by one, each is a pass over the activation
// through DDR; OpLib's op_layernorm and op_unary's GELU do the whole chain in one group. The patterns here
// recognise the chains as tx8be imports them (torch 1.13's forms and their operand orders) and replace them by
// tx8be.LayerNorm (rms for RMSNorm) and tx8be.Gelu. A match needs every intermediate value to have no user
// outside the chain and the constants to be exactly what the formula needs (2 for the square, 1 and 0.5 and
// sqrt(2) or sqrt(2/pi) and 0.044715 as fp32 for GELU, an epsilon >= 0): a near-miss stays as it is. The fused op takes the location (the
// ONNX node name) of the last op it replaces, so errors and traces still name a node of the model.
//
//===----------------------------------------------------------------------===//
#include "tx8/Dialect/Tx8be/IR/Tx8be.h"
#include "tx8/Transforms/PassStatistics.h"
#include "tx8/Transforms/Passes.h"

#include "PatternDriver.h"

#include "mlir/IR/PatternMatch.h"

#include <cmath>

namespace tx8be {
#define GEN_PASS_DEF_FUSENORMSPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

/// The value of a one-element float tensor.Constant (any rank), else nullopt.
std::optional<double> scalarConstant(Value v) {
  auto constant = v.getDefiningOp<ConstantOp>();
  if (!constant)
    return std::nullopt;
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (!dense || dense.getNumElements() != 1 || !isa<FloatType>(dense.getElementType()))
    return std::nullopt;
  return (*dense.getValues<APFloat>().begin()).convertToDouble();
}

/// Whether `v` is a one-element constant equal to `want` once both are rounded to fp32 (the value an fp32 model
/// holds; torch writes sqrt(2) as the double 1.4142135623730951 or the float 1.4142135).
bool isConstant(Value v, double want) {
  std::optional<double> c = scalarConstant(v);
  return c && static_cast<float>(*c) == static_cast<float>(want);
}

/// The single user of `v`, if it has exactly one (one use).
Operation *soleUser(Value v) { return v.hasOneUse() ? *v.getUsers().begin() : nullptr; }

/// For a commutative binary op `op` with `known` as one operand: the other one (null when neither is `known`).
template <typename OpT> Value otherOperand(OpT op, Value known) {
  if (op.getLhs() == known)
    return op.getRhs();
  if (op.getRhs() == known)
    return op.getLhs();
  return {};
}

/// `user` as OpT when it is one, reading `v` (as any operand).
template <typename OpT> OpT userOf(Operation *user, Value v) {
  auto op = dyn_cast_or_null<OpT>(user);
  return op && otherOperand(op, v) ? op : OpT();
}

/// The first normalised dim when `reduce` is a keepdims ReduceMean over the trailing dims [axis, rank) of its
/// input; nullopt otherwise.
std::optional<int64_t> trailingMeanAxis(ReduceMeanOp reduce) {
  auto type = dyn_cast<RankedTensorType>(reduce.getInput().getType());
  if (!type || !reduce.getKeepdims() || reduce.getAxes().empty())
    return std::nullopt;
  int64_t rank = type.getRank();
  SmallVector<int64_t> axes;
  for (int64_t a : reduce.getAxes())
    axes.push_back(normalizeAxis(a, rank));
  llvm::sort(axes);
  for (size_t i = 0; i < axes.size(); ++i)
    if (axes[i] != rank - static_cast<int64_t>(axes.size() - i))
      return std::nullopt;
  return axes.front();
}

/// Whether `v` holds one value per element of x's dims [axis, rank) (leading 1s allowed, no broadcasting inside):
/// what op_layernorm takes as scale and bias. Any value (a constant or not) of x's element type.
bool coversNormShape(Value v, Value x, int64_t axis) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  auto xType = cast<RankedTensorType>(x.getType());
  ArrayRef<int64_t> norm = xType.getShape().drop_front(axis);
  if (!type || !type.hasStaticShape() || llvm::any_of(norm, ShapedType::isDynamic) ||
      type.getElementType() != xType.getElementType())
    return false; // a symbolic batch is fine, a symbolic normalised dim is not
  ArrayRef<int64_t> shape = type.getShape();
  if (shape.size() > norm.size())
    return false;
  while (!norm.empty() && norm.front() == 1 && norm.size() > shape.size())
    norm = norm.drop_front();
  return shape == norm;
}

/// The tail the two norms share, from the normalised values on: y = d * q where q = 1 / sqrt(v + eps) is written
/// Div(d, Sqrt(a)), Mul(d, Reciprocal(Sqrt(a))), Mul(d, Div(1, Sqrt(a))) or Mul(d, Rsqrt(a)); then optionally
/// Mul(y, gamma) and Add(., beta), operands in either order.
struct NormTail {
  SmallVector<Operation *, 12> chain; ///< every op replaced, in program order
  Value gamma, beta;
  float epsilon = 0;
};

/// From `v` = mean(square) (the ReduceMean of the squares): Add(v, eps) -> Sqrt -> (Div(d, .) | Reciprocal /
/// Div(1, .) -> Mul(d, .)) | Rsqrt -> Mul(d, .), then the affine part. `d` is what the norm scales.
LogicalResult matchTail(Value v, Value d, Value x, int64_t axis, NormTail &tail) {
  auto add = userOf<AddOp>(soleUser(v), v);
  std::optional<double> eps = add ? scalarConstant(otherOperand(add, v)) : std::nullopt;
  if (!eps || !(*eps >= 0) || !std::isfinite(*eps) || add.getType() != v.getType())
    return failure();
  tail.epsilon = static_cast<float>(*eps);
  tail.chain.push_back(add);
  Value y;
  Operation *next = soleUser(add.getOutput());
  if (auto rsqrt = dyn_cast_or_null<RsqrtOp>(next)) {
    tail.chain.push_back(rsqrt);
    auto mul = userOf<MulOp>(soleUser(rsqrt.getOutput()), rsqrt.getOutput());
    if (!mul || otherOperand(mul, rsqrt.getOutput()) != d)
      return failure();
    tail.chain.push_back(mul);
    y = mul.getOutput();
  } else if (auto sqrt = dyn_cast_or_null<SqrtOp>(next)) {
    tail.chain.push_back(sqrt);
    Value s = sqrt.getOutput();
    Operation *user = soleUser(s);
    if (auto div = dyn_cast_or_null<DivOp>(user); div && div.getLhs() == d && div.getRhs() == s) {
      tail.chain.push_back(div);
      y = div.getOutput();
    } else {
      Value q;
      if (auto recip = dyn_cast_or_null<ReciprocalOp>(user)) {
        q = recip.getOutput();
      } else if (auto one = dyn_cast_or_null<DivOp>(user); one && one.getRhs() == s && isConstant(one.getLhs(), 1.0)) {
        q = one.getOutput();
      } else {
        return failure();
      }
      tail.chain.push_back(user);
      auto mul = userOf<MulOp>(soleUser(q), q);
      if (!mul || otherOperand(mul, q) != d)
        return failure();
      tail.chain.push_back(mul);
      y = mul.getOutput();
    }
  } else {
    return failure();
  }
  if (y.getType() != x.getType())
    return failure();
  // The affine part: Mul by gamma, then Add of beta; each only when its operand covers the normalised shape.
  if (auto mul = userOf<MulOp>(soleUser(y), y); mul && coversNormShape(otherOperand(mul, y), x, axis) &&
                                               mul.getType() == x.getType()) {
    tail.gamma = otherOperand(mul, y);
    tail.chain.push_back(mul);
    y = mul.getOutput();
  }
  if (auto add = userOf<AddOp>(soleUser(y), y); add && coversNormShape(otherOperand(add, y), x, axis) &&
                                               add.getType() == x.getType()) {
    tail.beta = otherOperand(add, y);
    tail.chain.push_back(add);
  }
  return success();
}

/// The squares of `d`: Pow(d, 2) or Mul(d, d), `op` being one of them.
bool isSquareOf(Operation *op, Value d) {
  if (auto pow = dyn_cast_or_null<PowOp>(op))
    return pow.getLhs() == d && isConstant(pow.getRhs(), 2.0) && pow.getType() == d.getType();
  if (auto mul = dyn_cast_or_null<MulOp>(op))
    return mul.getLhs() == d && mul.getRhs() == d;
  return false;
}

/// Replaces `chain` (its ops in program order; the last one's result is what the fused op computes) by `fused`'s
/// result and erases the chain, then the constants only it read (2, eps, 1, 0.5, sqrt 2).
void replaceChain(PatternRewriter &rewriter, ArrayRef<Operation *> chain, Value fused) {
  SmallVector<Operation *> constants;
  for (Operation *op : chain)
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp(); def && isa<ConstantOp>(def) && !llvm::is_contained(constants, def))
        constants.push_back(def);
  rewriter.replaceOp(chain.back(), fused);
  for (Operation *op : llvm::reverse(chain.drop_back()))
    rewriter.eraseOp(op);
  for (Operation *def : constants)
    if (def->use_empty())
      rewriter.eraseOp(def);
}

/// Replaces the chain (program order; its last op's result is the norm's) by LayerNorm(x, gamma or ones, beta),
/// created where the last op was, with its location.
LogicalResult replaceByLayerNorm(PatternRewriter &rewriter, ArrayRef<Operation *> chain, Value x, int64_t axis,
                                 const NormTail &tail, bool rms) {
  Operation *last = chain.back();
  rewriter.setInsertionPoint(last);
  auto xType = cast<RankedTensorType>(x.getType());
  Value gamma = tail.gamma;
  if (!gamma && llvm::any_of(xType.getShape().drop_front(axis), ShapedType::isDynamic))
    return failure(); // no scale of ones for a symbolic normalised extent
  if (!gamma) { // no Mul: a scale of ones
    auto type = RankedTensorType::get(xType.getShape().drop_front(axis), xType.getElementType());
    Attribute one = rewriter.getFloatAttr(xType.getElementType(), 1.0);
    gamma = rewriter.create<ConstantOp>(last->getLoc(), type, ValueRange{},
                                        rewriter.getNamedAttr("value", DenseElementsAttr::get(type, one)))
                .getOutput();
  }
  SmallVector<Value, 3> operands{x, gamma};
  if (tail.beta)
    operands.push_back(tail.beta);
  SmallVector<NamedAttribute, 3> attrs{rewriter.getNamedAttr("axis", rewriter.getI64IntegerAttr(axis)),
                                       rewriter.getNamedAttr("epsilon", rewriter.getF32FloatAttr(tail.epsilon))};
  if (rms)
    attrs.push_back(rewriter.getNamedAttr("rms", rewriter.getBoolAttr(true)));
  auto norm = rewriter.create<LayerNormOp>(last->getLoc(), TypeRange{x.getType()}, operands, attrs);
  replaceChain(rewriter, chain, norm.getOutput());
  return success();
}

/// LayerNorm as torch (opset < 17) and others export it, rooted at the mean:
///   m = ReduceMean(x, trailing axes, keepdims); d = Sub(x, m); v = ReduceMean(Pow(d, 2) | Mul(d, d), same axes);
///   y = d / sqrt(v + eps) (the forms of matchTail); y = y * gamma; y = y + beta.
struct FuseLayerNorm : OpRewritePattern<ReduceMeanOp> {
  FuseLayerNorm(MLIRContext *context, PassStatistic &count) : OpRewritePattern(context), count(count) {}

  LogicalResult matchAndRewrite(ReduceMeanOp mean, PatternRewriter &rewriter) const override {
    std::optional<int64_t> axis = trailingMeanAxis(mean);
    if (!axis)
      return rewriter.notifyMatchFailure(mean, "not a keepdims mean over trailing dims");
    Value x = mean.getInput();
    auto sub = dyn_cast_or_null<SubOp>(soleUser(mean.getOutput()));
    if (!sub || sub.getLhs() != x || sub.getRhs() != mean.getOutput() || sub.getType() != x.getType())
      return rewriter.notifyMatchFailure(mean, "the mean is not subtracted from its input alone");
    Value d = sub.getOutput();
    // d is read twice: by its square and by the final scaling (the Pow and the Div/Mul).
    SmallVector<Operation *, 3> users;
    for (Operation *user : d.getUsers())
      if (!llvm::is_contained(users, user))
        users.push_back(user);
    if (users.size() != 2)
      return rewriter.notifyMatchFailure(mean, "x - mean has users outside the norm");
    Operation *square = nullptr;
    for (Operation *user : users)
      if (isSquareOf(user, d))
        square = user;
    if (!square || !square->getResult(0).hasOneUse())
      return rewriter.notifyMatchFailure(mean, "x - mean is not squared");
    auto variance = dyn_cast<ReduceMeanOp>(*square->getResult(0).getUsers().begin());
    if (!variance || trailingMeanAxis(variance) != axis)
      return rewriter.notifyMatchFailure(mean, "the squares are not averaged over the same dims");
    NormTail tail;
    if (failed(matchTail(variance.getOutput(), d, x, *axis, tail)))
      return rewriter.notifyMatchFailure(mean, "the variance does not scale x - mean as a LayerNorm does");
    SmallVector<Operation *, 16> chain{mean, sub, square, variance};
    chain.append(tail.chain.begin(), tail.chain.end());
    if (failed(replaceByLayerNorm(rewriter, chain, x, *axis, tail, /*rms=*/false)))
      return rewriter.notifyMatchFailure(mean, "no gamma and a symbolic normalised extent");
    ++count;
    return success();
  }
  PassStatistic &count;
};

/// RMSNorm (LLaMA, T5), rooted at the square: v = ReduceMean(Pow(x, 2) | Mul(x, x), trailing axes, keepdims);
/// y = x / sqrt(v + eps) (the forms of matchTail); y = y * gamma (+ beta).
struct FuseRmsNorm : OpRewritePattern<ReduceMeanOp> {
  FuseRmsNorm(MLIRContext *context, PassStatistic &count) : OpRewritePattern(context), count(count) {}

  LogicalResult matchAndRewrite(ReduceMeanOp variance, PatternRewriter &rewriter) const override {
    std::optional<int64_t> axis = trailingMeanAxis(variance);
    Operation *square = variance.getInput().getDefiningOp();
    if (!axis || !square || square->getNumOperands() != 2 || !variance.getInput().hasOneUse())
      return rewriter.notifyMatchFailure(variance, "not the keepdims mean of squares over trailing dims");
    Value x = square->getOperand(0);
    if (!isSquareOf(square, x))
      return rewriter.notifyMatchFailure(variance, "not the mean of squares");
    // Not the variance of a LayerNorm (x = input - mean): that one is FuseLayerNorm's, with its mean.
    if (auto sub = x.getDefiningOp<SubOp>(); sub && sub.getRhs().getDefiningOp<ReduceMeanOp>())
      return rewriter.notifyMatchFailure(variance, "the squares are of x - mean (a LayerNorm)");
    NormTail tail;
    if (failed(matchTail(variance.getOutput(), x, x, *axis, tail)))
      return rewriter.notifyMatchFailure(variance, "the mean square does not scale x as an RMSNorm does");
    SmallVector<Operation *, 16> chain{square, variance};
    chain.append(tail.chain.begin(), tail.chain.end());
    if (failed(replaceByLayerNorm(rewriter, chain, x, *axis, tail, /*rms=*/true)))
      return rewriter.notifyMatchFailure(variance, "no gamma and a symbolic normalised extent");
    ++count;
    return success();
  }
  PassStatistic &count;
};

/// GELU's outer part, x * a * 0.5 with a = 1 + erf(...) or 1 + tanh(...): x, a and 0.5 multiplied by two Muls in
/// any grouping and operand order, (x * a) * 0.5, (x * 0.5) * a, x * (a * 0.5). Appends the Muls to `chain` (the
/// (x * 0.5) one first: it may come before the rest); the last is the GELU's result.
LogicalResult matchGeluProduct(Value a, Value x, SmallVectorImpl<Operation *> &chain) {
  auto inner = dyn_cast_or_null<MulOp>(soleUser(a));
  if (!inner || inner.getType() != x.getType())
    return failure();
  Value other = otherOperand(inner, a);
  auto half = other.getDefiningOp<MulOp>();
  if (half && other.hasOneUse() && otherOperand(half, x) && isConstant(otherOperand(half, x), 0.5)) {
    chain.insert(chain.begin(), half); // (x * 0.5) * a
    chain.push_back(inner);
    return success();
  }
  auto outer = dyn_cast_or_null<MulOp>(soleUser(inner.getOutput()));
  Value third = outer ? otherOperand(outer, inner.getOutput()) : Value();
  if (!outer || outer.getType() != x.getType() ||
      !((other == x && isConstant(third, 0.5)) || (isConstant(other, 0.5) && third == x)))
    return failure();
  chain.append({inner, outer}); // (x * a) * 0.5 or x * (a * 0.5)
  return success();
}

/// a = f + 1 (either order) when it is all `f` feeds.
AddOp plusOne(Value f) {
  auto add = userOf<AddOp>(soleUser(f), f);
  return add && isConstant(otherOperand(add, f), 1.0) && add.getType() == f.getType() ? add : AddOp();
}

/// Replaces the chain by tx8be.Gelu(x) {approximate} at its last op's place and location.
void replaceByGelu(PatternRewriter &rewriter, ArrayRef<Operation *> chain, Value x, StringRef approximate) {
  Operation *last = chain.back();
  rewriter.setInsertionPoint(last);
  SmallVector<NamedAttribute, 1> attrs;
  if (approximate != "none")
    attrs.push_back(rewriter.getNamedAttr("approximate", rewriter.getStringAttr(approximate)));
  auto gelu = rewriter.create<GeluOp>(last->getLoc(), TypeRange{x.getType()}, ValueRange{x}, attrs);
  replaceChain(rewriter, chain, gelu.getOutput());
}

/// Exact GELU, rooted at the Erf: e = Erf(Div(x, sqrt 2) | Mul(x, 1 / sqrt 2)); a = Add(e, 1); then
/// matchGeluProduct.
struct FuseGelu : OpRewritePattern<ErfOp> {
  FuseGelu(MLIRContext *context, PassStatistic &count) : OpRewritePattern(context), count(count) {}

  LogicalResult matchAndRewrite(ErfOp erf, PatternRewriter &rewriter) const override {
    Operation *scaled = erf.getInput().getDefiningOp();
    Value x;
    if (auto div = dyn_cast_or_null<DivOp>(scaled); div && isConstant(div.getRhs(), M_SQRT2))
      x = div.getLhs();
    else if (auto mul = dyn_cast_or_null<MulOp>(scaled)) {
      if (isConstant(mul.getRhs(), M_SQRT1_2))
        x = mul.getLhs();
      else if (isConstant(mul.getLhs(), M_SQRT1_2))
        x = mul.getRhs();
    }
    if (!x || !erf.getInput().hasOneUse() || x.getType() != erf.getType())
      return rewriter.notifyMatchFailure(erf, "the Erf does not read x / sqrt(2)");
    AddOp add = plusOne(erf.getOutput());
    if (!add)
      return rewriter.notifyMatchFailure(erf, "erf(x / sqrt(2)) + 1 is not all the Erf feeds");
    SmallVector<Operation *, 8> chain{scaled, erf, add};
    if (failed(matchGeluProduct(add.getOutput(), x, chain)))
      return rewriter.notifyMatchFailure(erf, "1 + erf is not multiplied by x and 0.5 alone");
    replaceByGelu(rewriter, chain, x, "none");
    ++count;
    return success();
  }
  PassStatistic &count;
};

/// GELU's tanh approximation (torch's GELU('tanh'), HF's gelu_new), rooted at the Tanh:
///   t = Tanh(Mul(sqrt(2 / pi), Add(x, Mul(0.044715, x^3)))), x^3 = Pow(x, 3), Mul(x, Mul(x, x)) or
///   Mul(Mul(x, x), x); a = Add(t, 1); then matchGeluProduct. Operands in either order.
struct FuseGeluTanh : OpRewritePattern<TanhOp> {
  FuseGeluTanh(MLIRContext *context, PassStatistic &count) : OpRewritePattern(context), count(count) {}

  /// The ops computing x^3 (`cube` and what only it reads) when `cube` is one of the forms; x in `x`.
  static bool matchCube(Value cube, Value &x, SmallVectorImpl<Operation *> &ops) {
    Operation *def = cube.getDefiningOp();
    if (auto pow = dyn_cast_or_null<PowOp>(def); pow && isConstant(pow.getRhs(), 3.0)) {
      x = pow.getLhs();
      ops.push_back(pow);
      return true;
    }
    auto mul = dyn_cast_or_null<MulOp>(def);
    if (!mul)
      return false;
    for (auto [sqV, xV] : {std::pair(mul.getLhs(), mul.getRhs()), std::pair(mul.getRhs(), mul.getLhs())}) {
      auto sq = sqV.getDefiningOp<MulOp>();
      if (sq && sqV.hasOneUse() && sq.getLhs() == xV && sq.getRhs() == xV) {
        x = xV;
        ops.append({sq, mul});
        return true;
      }
    }
    return false;
  }

  LogicalResult matchAndRewrite(TanhOp tanh, PatternRewriter &rewriter) const override {
    auto scaled = tanh.getInput().getDefiningOp<MulOp>();
    if (!scaled || !tanh.getInput().hasOneUse())
      return rewriter.notifyMatchFailure(tanh, "the Tanh does not read a product alone");
    Value arg = isConstant(scaled.getLhs(), std::sqrt(2.0 / M_PI))   ? scaled.getRhs()
                : isConstant(scaled.getRhs(), std::sqrt(2.0 / M_PI)) ? scaled.getLhs()
                                                                      : Value();
    auto sum = arg ? arg.getDefiningOp<AddOp>() : AddOp();
    if (!sum || !arg.hasOneUse())
      return rewriter.notifyMatchFailure(tanh, "the Tanh does not read sqrt(2 / pi) * (a sum)");
    SmallVector<Operation *, 16> chain;
    Value x;
    for (auto [xV, termV] : {std::pair(sum.getLhs(), sum.getRhs()), std::pair(sum.getRhs(), sum.getLhs())}) {
      auto term = termV.getDefiningOp<MulOp>();
      if (!term || !termV.hasOneUse())
        continue;
      Value cube = isConstant(term.getLhs(), 0.044715)   ? term.getRhs()
                   : isConstant(term.getRhs(), 0.044715) ? term.getLhs()
                                                         : Value();
      SmallVector<Operation *, 2> cubeOps;
      Value cubeX;
      if (cube && cube.hasOneUse() && matchCube(cube, cubeX, cubeOps) && cubeX == xV) {
        x = xV;
        chain.append(cubeOps.begin(), cubeOps.end());
        chain.push_back(term);
        break;
      }
    }
    if (!x || x.getType() != tanh.getType())
      return rewriter.notifyMatchFailure(tanh, "the sum is not x + 0.044715 * x^3");
    AddOp add = plusOne(tanh.getOutput());
    if (!add)
      return rewriter.notifyMatchFailure(tanh, "tanh(...) + 1 is not all the Tanh feeds");
    chain.append({sum, scaled, tanh, add});
    if (failed(matchGeluProduct(add.getOutput(), x, chain)))
      return rewriter.notifyMatchFailure(tanh, "1 + tanh is not multiplied by x and 0.5 alone");
    replaceByGelu(rewriter, chain, x, "tanh");
    ++count;
    return success();
  }
  PassStatistic &count;
};

struct FuseNormsPass : tx8be::impl::FuseNormsPassBase<FuseNormsPass> {
  PassStatistic numLayerNorms{this, "layernorms", "LayerNorm chains fused into tx8be.LayerNorm"};
  PassStatistic numRmsNorms{this, "rmsnorms", "RMSNorm chains fused into tx8be.LayerNorm {rms}"};
  PassStatistic numGelus{this, "gelus", "exact-GELU chains fused into tx8be.Gelu"};
  PassStatistic numGeluTanhs{this, "gelu-tanhs", "tanh-GELU chains fused into tx8be.Gelu {approximate = tanh}"};

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseLayerNorm>(&getContext(), numLayerNorms);
    patterns.add<FuseRmsNorm>(&getContext(), numRmsNorms);
    patterns.add<FuseGelu>(&getContext(), numGelus);
    patterns.add<FuseGeluTanh>(&getContext(), numGeluTanhs);
    tx8be::detail::applyPatternsInProgramOrder(getOperation().getBody(), FrozenRewritePatternSet(std::move(patterns)));
  }
};

} // namespace
