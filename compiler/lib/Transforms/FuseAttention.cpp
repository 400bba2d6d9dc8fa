//===- FuseAttention.cpp - MatMul, Softmax, MatMul into one Attention (tx8be-fuse-attention) ===//
//
// Exporters write scaled dot-product attention as separate ops, and each moves the whole score matrix
// [..., Sq, Skv] through DDR: MatMul(q, k^T), a scale, a mask, Softmax, MatMul(p, v). tx8be.Attention
// (op_attention) keeps one block of the scores in SPM instead. The forms matched, from the final MatMul back:
//   Softmax(axis -1) of the scores, read by nothing else;
//   optionally Add(scores, mask) (BERT's additive mask, any operand order);
//   optionally Where(cond, scores, fill) or Where(cond, fill, scores) with fill a constant <= -1e4 (-inf, the
//     dtype's minimum): a constant cond that keeps exactly the keys j <= i + Skv - Sq is the causal flag (GPT);
//     another constant cond becomes an additive mask (0 kept, fill masked: exp gives 0 either way);
//   optionally Mul / Div of the scores by a constant scalar;
//   MatMul(q', k') with q' = q or Mul / Div(q, constant scalar) (torch's _scaled_dot_product_attention divides q
//     by sqrt(E): ViT), and k' = Transpose(k, the last two dims swapped) (a scale before or after it folds too),
//     or k' already [..., D, Skv] (a Transpose is added: op_attention reads k as [..., Skv, D]).
// Every intermediate must have no other user, the element types one float type, and the result the final
// MatMul's (no batch dims that only the mask brings). One head's K and V plus the kernel's scratch must fit
// the SPM of the module's hardware config, so a huge Skv stays unfused. The Attention keeps the final MatMul's
// location (its ONNX node name).
//
//===----------------------------------------------------------------------===//
#include "tx8/Dialect/Tx8be/IR/HwConfig.h"
#include "tx8/Dialect/Tx8be/IR/Tx8be.h"
#include "tx8/Interfaces/ComputeInterface.h"
#include "tx8/Interpreter/ReferenceRunner.h"
#include "tx8/Transforms/PassStatistics.h"
#include "tx8/Transforms/Passes.h"

#include "PatternDriver.h"

#include "mlir/IR/PatternMatch.h"

#include "tx8/ops.h"

#include <cmath>

namespace tx8be {
#define GEN_PASS_DEF_FUSEATTENTIONPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;
namespace ref = tx8::ref;

namespace {

/// The value of a constant float tensor holding one value (any shape of one element, or a splat), through
/// Expand and Reshape.
std::optional<double> scalarConstant(Value v) {
  // The importer broadcasts Where's operands explicitly: Expand(Reshape(scalar)).
  while (isa_and_nonnull<ExpandOp, ReshapeOp>(v.getDefiningOp()))
    v = v.getDefiningOp()->getOperand(0);
  auto constant = v.getDefiningOp<ConstantOp>();
  if (!constant)
    return std::nullopt;
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (!dense || !isa<FloatType>(dense.getElementType()) || !dense.isSplat())
    return std::nullopt;
  return dense.getSplatValue<APFloat>().convertToDouble();
}

bool oneUse(Value v) { return v.hasOneUse(); }

/// What the chain before the Softmax contributed.
struct Scores {
  Value q, k;        ///< q [..., Sq, D]; k [..., Skv, D] once Transposed by kPerm (empty: k is that already)
  SmallVector<int64_t> kPerm;
  double scale = 1.0;
  Value mask;        ///< additive, or null
  Value whereCond;   ///< a constant condition to turn into the causal flag or a mask
  double whereFill = 0;
  bool whereKeepsX = true; ///< Where(cond, scores, fill): cond true keeps the score
  SmallVector<Operation *> chain; ///< the ops replaced (final MatMul last)
};

/// Folds a Mul / Div by a constant scalar at `v` into `scale`; returns the other operand or `v`.
Value peelScale(Value v, double &scale, SmallVector<Operation *> &chain) {
  Operation *def = v.getDefiningOp();
  if (!def || !oneUse(v))
    return v;
  if (auto mul = dyn_cast<MulOp>(def)) {
    for (auto [x, c] : {std::pair{mul.getLhs(), mul.getRhs()}, {mul.getRhs(), mul.getLhs()}})
      if (auto s = scalarConstant(c); s && x.getType() == v.getType()) {
        scale *= *s;
        chain.push_back(def);
        return x;
      }
  } else if (auto div = dyn_cast<DivOp>(def)) {
    if (auto s = scalarConstant(div.getRhs()); s && *s != 0 && div.getLhs().getType() == v.getType()) {
      scale /= *s;
      chain.push_back(def);
      return div.getLhs();
    }
  }
  return v;
}

/// The MatMul(q', k') of the scores, with its scales.
LogicalResult matchScoresMatMul(Value s, Scores &m) {
  auto mm = s.getDefiningOp<MatMulOp>();
  if (!mm || !oneUse(s))
    return failure();
  m.chain.push_back(mm);
  m.q = peelScale(mm.getA(), m.scale, m.chain);
  Value kt = peelScale(mm.getB(), m.scale, m.chain);
  if (auto t = kt.getDefiningOp<TransposeOp>(); t && oneUse(kt)) {
    // k^T = Transpose(x, perm): k = Transpose(x, perm with its last two entries swapped), x itself when that
    // is the identity (k.transpose(-1, -2)); exporters merge a head split's permute into it ([0, 2, 3, 1]).
    m.chain.push_back(t);
    SmallVector<int64_t> perm(t.getPerm());
    std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
    m.kPerm = perm;
    m.k = t.getInput();
    if (llvm::all_of(llvm::enumerate(perm), [](auto p) { return p.value() == static_cast<int64_t>(p.index()); })) {
      m.kPerm.clear();
      m.k = peelScale(t.getInput(), m.scale, m.chain);
    }
  } else {
    m.k = kt;
    m.kPerm.clear();
    for (int64_t i = 0; i < cast<RankedTensorType>(kt.getType()).getRank(); ++i)
      m.kPerm.push_back(i);
    std::swap(m.kPerm[m.kPerm.size() - 1], m.kPerm[m.kPerm.size() - 2]);
  }
  return success();
}

/// The scores before the Softmax: [Add mask] [Where] [scale] MatMul.
LogicalResult matchScores(Value x, Scores &m) {
  if (auto add = x.getDefiningOp<AddOp>(); add && oneUse(x) && !m.mask && !m.whereCond) {
    for (auto [s, mask] : {std::pair{add.getLhs(), add.getRhs()}, {add.getRhs(), add.getLhs()}}) {
      Scores tryM = m;
      tryM.chain.push_back(add);
      tryM.mask = mask;
      if (s.getType() == x.getType() && succeeded(matchScores(s, tryM))) {
        m = std::move(tryM);
        return success();
      }
    }
    return failure();
  }
  if (auto where = x.getDefiningOp<WhereOp>(); where && oneUse(x) && !m.whereCond) {
    for (bool keepsX : {true, false}) {
      Value s = keepsX ? where.getX() : where.getY(), fill = keepsX ? where.getY() : where.getX();
      std::optional<double> f = scalarConstant(fill);
      if (!f || *f > -1e4 || s.getType() != x.getType())
        continue;
      Scores tryM = m;
      tryM.chain.push_back(where);
      tryM.whereCond = where.getCondition();
      tryM.whereFill = *f;
      tryM.whereKeepsX = keepsX;
      if (succeeded(matchScores(s, tryM))) {
        m = std::move(tryM);
        return success();
      }
    }
    return failure();
  }
  double scale = 1.0;
  SmallVector<Operation *> peeled;
  Value s = peelScale(x, scale, peeled);
  if (s != x) {
    Scores tryM = m;
    tryM.scale *= scale;
    tryM.chain.append(peeled);
    if (succeeded(matchScores(s, tryM))) {
      m = std::move(tryM);
      return success();
    }
    return failure();
  }
  return matchScoresMatMul(x, m);
}

/// The value of `v` if a few ops on constants make it (torch's tril of ones: Trilu, Not, Cast before the
/// constant folding runs), computed by the ops' reference kernels; nothing otherwise.
std::optional<ref::Tensor> constantValue(Value v, int depth = 6) {
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumResults() != 1)
    return std::nullopt;
  if (auto constant = dyn_cast<ConstantOp>(def)) {
    ref::Tensor t;
    std::string why;
    if (failed(tensorFromElementsAttr(cast<ElementsAttr>(constant.getValue()), t, why)))
      return std::nullopt;
    return t;
  }
  if (depth == 0 || !cast<ShapedType>(v.getType()).hasStaticShape())
    return std::nullopt;
  std::vector<ref::Tensor> inputs;
  for (Value operand : def->getOperands()) {
    std::optional<ref::Tensor> t = constantValue(operand, depth - 1);
    if (!t)
      return std::nullopt;
    inputs.push_back(std::move(*t));
  }
  std::string why;
  ComputeInterface compute = lookupComputeInterface(def, why);
  if (!compute)
    return std::nullopt;
  ComputeParam param;
  for (ref::Tensor &t : inputs)
    param.inputs.push_back(&t);
  if (failed(compute.compute(param)) || param.outputs.size() != 1)
    return std::nullopt;
  return std::move(param.outputs.front());
}

/// Whether `op` is a constant or computes from constants alone (a few ops deep).
bool fromConstants(Operation *op, int depth = 6) {
  if (isa<ConstantOp>(op))
    return true;
  if (depth == 0)
    return false;
  return llvm::all_of(op->getOperands(), [&](Value x) {
    Operation *def = x.getDefiningOp();
    return def && fromConstants(def, depth - 1);
  });
}

/// The condition's keep table (true: the score stays), row-major over the condition's shape, or nothing if the
/// condition is not a constant (or a few ops on constants).
std::optional<SmallVector<bool>> keepTable(const Scores &m, RankedTensorType &type) {
  std::optional<ref::Tensor> cond = constantValue(m.whereCond);
  if (!cond || cond->dtype != ref::DType::Bool)
    return std::nullopt;
  type = cast<RankedTensorType>(m.whereCond.getType());
  SmallVector<bool> keep;
  for (int64_t i = 0; i < cond->numElements(); ++i)
    keep.push_back((cond->data<uint8_t>()[i] != 0) == m.whereKeepsX);
  return keep;
}

/// Whether the table keeps exactly j <= i + Skv - Sq in every matrix of its leading dims.
bool isCausal(ArrayRef<bool> keep, RankedTensorType type, int64_t sq, int64_t skv) {
  ArrayRef<int64_t> shape = type.getShape();
  if (shape.size() < 2 || shape[shape.size() - 2] != sq || shape.back() != skv || sq > skv)
    return false;
  for (size_t idx = 0; idx < keep.size(); ++idx) {
    int64_t j = static_cast<int64_t>(idx) % skv, i = static_cast<int64_t>(idx) / skv % sq;
    if (keep[idx] != (j <= i + skv - sq))
      return false;
  }
  return true;
}

/// numpy's broadcast of two batch shapes (right-aligned), or nothing.
std::optional<SmallVector<int64_t>> broadcastBatch(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  size_t r = std::max(a.size(), b.size());
  SmallVector<int64_t> out(r);
  for (size_t i = 0; i < r; ++i) {
    int64_t x = i < r - a.size() ? 1 : a[i - (r - a.size())], y = i < r - b.size() ? 1 : b[i - (r - b.size())];
    if (x != y && x != 1 && y != 1)
      return std::nullopt;
    out[i] = x == 1 ? y : x;
  }
  return out;
}

/// MatMul(Softmax(scores), V) -> Attention(Q, K, V, mask) (file comment).
struct FuseScaledDotProductAttention : OpRewritePattern<MatMulOp> {
  FuseScaledDotProductAttention(MLIRContext *context, PassStatistic &numFused)
      : OpRewritePattern(context), numFused(numFused) {}

  LogicalResult matchAndRewrite(MatMulOp pv, PatternRewriter &rewriter) const override {
    auto softmax = pv.getA().getDefiningOp<SoftmaxOp>();
    if (!softmax || !oneUse(pv.getA()))
      return rewriter.notifyMatchFailure(pv, "A is not a Softmax only it reads");
    auto scoresType = cast<RankedTensorType>(softmax.getInput().getType());
    int64_t rank = scoresType.getRank();
    int64_t axis = static_cast<int64_t>(softmax.getAxis());
    if (axis != -1 && axis != rank - 1)
      return rewriter.notifyMatchFailure(pv, "the Softmax is not along the last dim");
    Scores m;
    if (failed(matchScores(softmax.getInput(), m)))
      return rewriter.notifyMatchFailure(pv, "the Softmax's input is not MatMul(q, k^T) [scaled] [masked]");
    auto qType = cast<RankedTensorType>(m.q.getType()), kType = cast<RankedTensorType>(m.k.getType());
    auto vType = cast<RankedTensorType>(pv.getB().getType()), outType = cast<RankedTensorType>(pv.getType());
    if (!qType.hasStaticShape() || !kType.hasStaticShape() || !vType.hasStaticShape() ||
        !outType.hasStaticShape() || !scoresType.hasStaticShape())
      return rewriter.notifyMatchFailure(pv, "a shape is dynamic");
    Type element = outType.getElementType();
    if (!isa<FloatType>(element) || qType.getElementType() != element || kType.getElementType() != element ||
        vType.getElementType() != element)
      return rewriter.notifyMatchFailure(pv, "Q, K, V and the result do not share a float type");
    if (qType.getRank() < 2 || kType.getRank() < 2 || vType.getRank() < 2)
      return rewriter.notifyMatchFailure(pv, "an operand has rank < 2");
    ArrayRef<int64_t> qs = qType.getShape(), ks = kType.getShape(), vs = vType.getShape();
    // k as [..., Skv, D]: through the Transpose the pass makes (kPerm), if any.
    SmallVector<int64_t> kShape;
    for (size_t i = 0; i < ks.size(); ++i)
      kShape.push_back(m.kPerm.empty() ? ks[i] : ks[m.kPerm[i]]);
    int64_t skv = kShape[kShape.size() - 2], d = kShape.back();
    int64_t sq = qs[qs.size() - 2], dv = vs.back();
    if (qs.back() != d || vs[vs.size() - 2] != skv)
      return rewriter.notifyMatchFailure(pv, "Q, K and V shapes do not chain");
    auto qk = broadcastBatch(qs.drop_back(2), ArrayRef<int64_t>(kShape).drop_back(2));
    auto batch = qk ? broadcastBatch(*qk, vs.drop_back(2)) : qk;
    if (!batch || ArrayRef<int64_t>(*batch) != outType.getShape().drop_back(2))
      return rewriter.notifyMatchFailure(pv, "the result's batch dims are not Q's, K's and V's");

    // The Where: the causal flag, or (another constant condition) a constant additive mask.
    bool causal = false;
    std::optional<SmallVector<bool>> keep;
    RankedTensorType condType;
    if (m.whereCond) {
      keep = keepTable(m, condType);
      if (!keep)
        return rewriter.notifyMatchFailure(pv, "the Where's condition is not a constant");
      causal = isCausal(*keep, condType, sq, skv);
    }
    bool whereAsMask = m.whereCond && !causal;
    if (whereAsMask && m.mask)
      return rewriter.notifyMatchFailure(pv, "both a Where and an additive mask");
    if (m.mask && cast<RankedTensorType>(m.mask.getType()).getElementType() != element)
      return rewriter.notifyMatchFailure(pv, "the mask's element type is not the scores'");
    bool hasMask = m.mask || whereAsMask;

    // One head's K and V and the kernel's scratch must fit one tile's SPM (fp32: before tx8be-ne-precision).
    tx8_hw_config hw = getHwConfig(pv);
    int64_t bq = std::min<int64_t>(sq, 128);
    const int32_t q2[2] = {static_cast<int32_t>(bq), static_cast<int32_t>(d)};
    const int32_t k2[2] = {static_cast<int32_t>(skv), static_cast<int32_t>(d)};
    const int32_t v2[2] = {static_cast<int32_t>(skv), static_cast<int32_t>(dv)};
    const int32_t o2[2] = {static_cast<int32_t>(bq), static_cast<int32_t>(dv)};
    L_SHAPE lq, lk, lv, lo;
    if (tx8_lshape_init(&lq, q2, 2) || tx8_lshape_init(&lk, k2, 2) || tx8_lshape_init(&lv, v2, 2) ||
        tx8_lshape_init(&lo, o2, 2))
      return rewriter.notifyMatchFailure(pv, "extents beyond OpLib's shapes");
    TSR tq{Fmt_FP32, 0, &lq}, tk{Fmt_FP32, 0, &lk}, tv{Fmt_FP32, 0, &lv}, to{Fmt_FP32, 0, &lo}, tm{Fmt_FP32, 0, &lk};
    ATTENTION_PARAM param{static_cast<float>(m.scale), causal ? 1u : 0u};
    uint64_t imm = op_attention_imm_size(&hw, &param, &tq, &tk, &tv, hasMask ? &tm : nullptr, &to);
    uint64_t need = imm + 4ull * static_cast<uint64_t>(skv * (d + dv) + bq * (d + dv) + (hasMask ? bq * skv : 0));
    if (imm == 0 || need > hw.spm_bytes)
      return rewriter.notifyMatchFailure(pv, "one head's K, V and the kernel's scratch exceed the SPM");

    Value mask = m.mask;
    if (whereAsMask) {
      auto maskType = RankedTensorType::get(condType.getShape(), element);
      APFloat fill(m.whereFill);
      bool lost;
      fill.convert(cast<FloatType>(element).getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      SmallVector<APFloat> values;
      for (bool kept : *keep)
        values.push_back(kept ? APFloat::getZero(fill.getSemantics()) : fill);
      mask = rewriter.create<ConstantOp>(m.whereCond.getLoc(), maskType, ValueRange{},
                                         rewriter.getNamedAttr("value", DenseElementsAttr::get(maskType, values)));
    }
    Value k = m.k;
    if (!m.kPerm.empty())
      k = rewriter.create<TransposeOp>(m.k.getLoc(), TypeRange{RankedTensorType::get(kShape, element)},
                                       ValueRange{m.k},
                                       rewriter.getNamedAttr("perm", rewriter.getDenseI64ArrayAttr(m.kPerm)));
    SmallVector<Value> operands{m.q, k, pv.getB()};
    if (hasMask)
      operands.push_back(mask);
    SmallVector<NamedAttribute> attrs{
        rewriter.getNamedAttr("scale", rewriter.getF32FloatAttr(static_cast<float>(m.scale))),
        rewriter.getNamedAttr("causal", rewriter.getBoolAttr(causal))};
    auto attention = rewriter.create<AttentionOp>(pv.getLoc(), TypeRange{outType}, operands, attrs);
    rewriter.replaceOp(pv, attention.getOutput());
    // The chain from the Softmax back (each read only by the next, users first), then whatever only it read
    // among the constants and their ops (the scale, the Where's condition and fill).
    SmallVector<Operation *> dead{softmax};
    dead.append(m.chain.begin(), m.chain.end());
    SmallVector<Operation *> feeds;
    llvm::DenseSet<Operation *> erased;
    auto eraseFeeding = [&](Operation *op) {
      for (Value x : op->getOperands())
        if (Operation *def = x.getDefiningOp())
          feeds.push_back(def);
      erased.insert(op);
      rewriter.eraseOp(op);
    };
    for (Operation *op : dead)
      if (op->use_empty())
        eraseFeeding(op);
    while (!feeds.empty()) {
      Operation *def = feeds.pop_back_val();
      if (erased.contains(def) || !def->use_empty() || !isPure(def))
        continue;
      if (fromConstants(def))
        eraseFeeding(def);
    }
    ++numFused;
    return success();
  }

  PassStatistic &numFused;
};

struct FuseAttentionPass : tx8be::impl::FuseAttentionPassBase<FuseAttentionPass> {
  PassStatistic numFused{this, "fused", "MatMul-Softmax-MatMul chains fused into one Attention"};

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseScaledDotProductAttention>(&getContext(), numFused);
    tx8be::detail::applyPatternsInProgramOrder(getOperation().getBody(), FrozenRewritePatternSet(std::move(patterns)));
  }
};

} // namespace
