//===- Recurrent.cpp - RNN, GRU and LSTM unrolled over the sequence -------===//
//
// ONNX's recurrent layers, imported with their time steps unrolled into tx8be ops. Per direction, one Gemm
// projects the input of every step at once (X · Wᵀ + Wb + Rb, [seq * batch, gates * hidden]); each step then
// takes its rows of that as the C operand of a Gemm of the hidden state with Rᵀ, slices the gates, applies the
// activations and updates the state. The equations are ONNX's (operator docs, gate order RNN: i; GRU: z r h;
// LSTM: i o f c, peepholes i o f). Sequence lengths computed at run time mask the steps past each batch entry's
// length: the state is kept and Y is 0 there.
//
//===----------------------------------------------------------------------===//
#include "Converters.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tx8be;
using namespace tx8be::onnx_import;

namespace {

ArrayRef<int64_t> shapeOf(Value v) { return cast<RankedTensorType>(v.getType()).getShape(); }

enum class Cell { Rnn, Gru, Lstm };

/// One of the `activations` with its alpha and beta.
struct Activation {
  enum Kind { Relu, Tanh, Sigmoid, Affine, LeakyRelu, ThresholdedRelu, ScaledTanh, HardSigmoid, Elu, Softsign,
              Softplus } kind;
  float alpha = 0, beta = 0;
};

/// What one recurrent node computes, read from its attributes and operand shapes.
struct Layer {
  Cell cell;
  int64_t gates, seq, batch, input, hidden, directions;
  bool batchFirst, reverse;       // layout = 1; direction "reverse" (with one direction)
  std::optional<float> clip;      // applied to every gate's input before its activation
  bool linearBeforeReset = false; // GRU
  SmallVector<Activation> activations; // activationsPerDirection() per direction
  Type element;

  int64_t activationsPerDirection() const { return cell == Cell::Rnn ? 1 : cell == Cell::Gru ? 2 : 3; }
};

/// The activations attribute (ONNX's defaults when absent; a list for one direction serves both) with the
/// alpha/beta each takes, read in order from activation_alpha / activation_beta as onnxruntime reads them
/// (ONNX's per-function defaults when a list runs out; Affine and ScaledTanh have none and must be given).
LogicalResult readActivations(NodeImporter &n, Layer &layer) {
  int64_t per = layer.activationsPerDirection();
  SmallVector<std::string> names;
  if (const auto *a = n.attr("activations")) {
    for (const std::string &s : a->strings())
      names.push_back(s);
  } else if (layer.cell == Cell::Rnn) {
    names = {"Tanh"};
  } else if (layer.cell == Cell::Gru) {
    names = {"Sigmoid", "Tanh"};
  } else {
    names = {"Sigmoid", "Tanh", "Tanh"};
  }
  if (static_cast<int64_t>(names.size()) == per && layer.directions == 2)
    names.append(SmallVector<std::string>(names));
  if (static_cast<int64_t>(names.size()) != per * layer.directions)
    return n.unsupported("activations has " + Twine(names.size()) + " entries; this layer needs " +
                         Twine(per * layer.directions));
  SmallVector<float> alphas, betas;
  if (const auto *a = n.attr("activation_alpha"))
    alphas.assign(a->floats().begin(), a->floats().end());
  if (const auto *a = n.attr("activation_beta"))
    betas.assign(a->floats().begin(), a->floats().end());
  size_t nextAlpha = 0, nextBeta = 0;
  auto take = [](SmallVector<float> &list, size_t &next, std::optional<float> dflt) -> std::optional<float> {
    if (next < list.size())
      return list[next++];
    return dflt;
  };
  for (const std::string &name : names) {
    using K = Activation::Kind;
    std::optional<K> kind = llvm::StringSwitch<std::optional<K>>(StringRef(name).lower())
                                .Case("relu", K::Relu)
                                .Case("tanh", K::Tanh)
                                .Case("sigmoid", K::Sigmoid)
                                .Case("affine", K::Affine)
                                .Case("leakyrelu", K::LeakyRelu)
                                .Case("thresholdedrelu", K::ThresholdedRelu)
                                .Case("scaledtanh", K::ScaledTanh)
                                .Case("hardsigmoid", K::HardSigmoid)
                                .Case("elu", K::Elu)
                                .Case("softsign", K::Softsign)
                                .Case("softplus", K::Softplus)
                                .Default(std::nullopt);
    if (!kind)
      return n.unsupported("activation '" + name + "' is not one ONNX's recurrent layers define");
    Activation act{*kind};
    std::optional<float> alpha, beta;
    switch (*kind) {
    case K::LeakyRelu:
      alpha = take(alphas, nextAlpha, 0.01f);
      break;
    case K::ThresholdedRelu:
    case K::Elu:
      alpha = take(alphas, nextAlpha, 1.0f);
      break;
    case K::HardSigmoid:
      alpha = take(alphas, nextAlpha, 0.2f);
      beta = take(betas, nextBeta, 0.5f);
      break;
    case K::Affine:
    case K::ScaledTanh:
      alpha = take(alphas, nextAlpha, std::nullopt);
      beta = take(betas, nextBeta, std::nullopt);
      if (!alpha || !beta)
        return n.unsupported("activation " + name + " needs its alpha and beta in activation_alpha/_beta");
      break;
    default:
      break;
    }
    act.alpha = alpha.value_or(0);
    act.beta = beta.value_or(0);
    layer.activations.push_back(act);
  }
  return success();
}

/// x[..., offset : offset + size, ...] along `axis`.
FailureOr<Value> sliceAlong(NodeImporter &n, FailureOr<Value> x, int64_t axis, int64_t offset, int64_t size) {
  if (failed(x))
    return failure();
  ArrayRef<int64_t> dims = shapeOf(*x);
  SmallVector<int64_t> offsets(dims.size(), 0), sizes(dims), strides(dims.size(), 1);
  offsets[axis] = offset;
  sizes[axis] = size;
  if (offset == 0 && size == dims[axis])
    return x;
  return n.create<SliceOp>(*x, {n.i64Array("offsets", offsets), n.i64Array("sizes", sizes),
                                n.i64Array("strides", strides)});
}

/// Direction d's part of a [directions, ...] operand, as `shape`.
FailureOr<Value> directionOf(NodeImporter &n, Value v, int64_t axis, int64_t d, ArrayRef<int64_t> shape) {
  auto part = sliceAlong(n, v, axis, d, 1);
  if (failed(part))
    return failure();
  return n.reshape(*part, shape);
}

FailureOr<Value> activate(NodeImporter &n, const Activation &act, FailureOr<Value> x) {
  if (failed(x))
    return failure();
  Type element = getElementTypeOrSelf(x->getType());
  auto scaled = [&](FailureOr<Value> v, float by) { return binaryOf<MulOp>(n, v, splatConstant(n, element, {}, by)); };
  using K = Activation::Kind;
  switch (act.kind) {
  case K::Relu:
    return n.create<ReluOp>(*x);
  case K::Tanh:
    return n.create<TanhOp>(*x);
  case K::Sigmoid:
    return n.create<SigmoidOp>(*x);
  case K::Affine: {
    auto ax = scaled(*x, act.alpha);
    return binaryOf<AddOp>(n, ax, splatConstant(n, element, {}, act.beta));
  }
  case K::LeakyRelu:
    return n.create<LeakyReluOp>(*x, {n.f32("alpha", act.alpha)});
  case K::ThresholdedRelu:
    return n.create<ThresholdedReluOp>(*x, {n.f32("alpha", act.alpha)});
  case K::ScaledTanh:
    return scaled(unaryOf<TanhOp>(n, scaled(*x, act.beta)), act.alpha);
  case K::HardSigmoid:
    return n.create<HardSigmoidOp>(*x, {n.f32("alpha", act.alpha), n.f32("beta", act.beta)});
  case K::Elu:
    return n.create<EluOp>(*x, {n.f32("alpha", act.alpha)});
  case K::Softsign:
    return n.create<SoftsignOp>(*x);
  case K::Softplus:
    return n.create<SoftplusOp>(*x);
  }
  return failure();
}

/// The operands of one direction, each already in the 2-D form a step uses.
struct DirectionOperands {
  Value projected;         ///< X · Wᵀ + the biases the input side takes, [seq * batch, gates * hidden]
  Value recurrence;        ///< R, [gates * hidden, hidden]
  Value gruRecurrenceZR, gruRecurrenceH; ///< GRU: R's z and r rows, [2 * hidden, hidden], and h's
  std::optional<Value> gruRecurrentHBias; ///< GRU with linear_before_reset: Rb of h, [1, hidden]
  Value h0, c0;            ///< [batch, hidden]
  std::optional<Value> peepI, peepO, peepF; ///< LSTM: [1, hidden]
};

/// The graph inputs (optional ones null) of a recurrent node.
struct Inputs {
  Value x, w, r;
  std::optional<Value> bias, lengths, initialH, initialC, peepholes;
};

FailureOr<DirectionOperands> directionOperands(NodeImporter &n, const Layer &l, const Inputs &in, int64_t d) {
  int64_t gh = l.gates * l.hidden, h = l.hidden;
  DirectionOperands ops;
  auto w = directionOf(n, in.w, 0, d, {gh, l.input});
  auto r = directionOf(n, in.r, 0, d, {gh, h});
  if (failed(w) || failed(r))
    return failure();
  ops.recurrence = *r;
  if (l.cell == Cell::Gru) {
    auto zr = sliceAlong(n, *r, 0, 0, 2 * h), rh = sliceAlong(n, *r, 0, 2 * h, h);
    if (failed(zr) || failed(rh))
      return failure();
    ops.gruRecurrenceZR = *zr;
    ops.gruRecurrenceH = *rh;
  }
  // The input side's bias: Wb + Rb, but for a GRU with linear_before_reset only Wb for the h gate (its Rb is
  // added to H · Rhᵀ before r multiplies it).
  std::optional<Value> inputBias;
  if (in.bias) {
    auto both = directionOf(n, *in.bias, 0, d, {1, 2 * gh});
    auto wb = sliceAlong(n, both, 1, 0, gh), rb = sliceAlong(n, both, 1, gh, gh);
    auto sum = binaryOf<AddOp>(n, wb, rb);
    if (l.cell == Cell::Gru && l.linearBeforeReset) {
      auto rbh = sliceAlong(n, rb, 1, 2 * h, h);
      auto zr = sliceAlong(n, sum, 1, 0, 2 * h), wbh = sliceAlong(n, wb, 1, 2 * h, h);
      if (failed(rbh) || failed(zr) || failed(wbh))
        return failure();
      ops.gruRecurrentHBias = *rbh;
      sum = n.create<ConcatOp>(ValueRange{*zr, *wbh}, {n.i64("axis", 1)});
    }
    if (failed(sum))
      return failure();
    inputBias = *sum;
  }
  FailureOr<Value> x = in.x;
  if (l.batchFirst)
    x = n.create<TransposeOp>(in.x, {n.i64Array("perm", {1, 0, 2})});
  if (succeeded(x))
    x = n.reshape(*x, {l.seq * l.batch, l.input});
  if (failed(x))
    return failure();
  SmallVector<Value> gemmOperands{*x, *w};
  if (inputBias)
    gemmOperands.push_back(*inputBias);
  auto projected = n.create<GemmOp>(gemmOperands, {n.boolean("transB", true)});
  if (failed(projected))
    return failure();
  ops.projected = *projected;
  // initial_h / initial_c: [directions, batch, hidden], or [batch, directions, hidden] with layout 1.
  auto initial = [&](std::optional<Value> given) -> FailureOr<Value> {
    if (!given)
      return splatConstant(n, l.element, {l.batch, h}, 0);
    return directionOf(n, *given, l.batchFirst ? 1 : 0, d, {l.batch, h});
  };
  auto h0 = initial(in.initialH);
  if (failed(h0))
    return failure();
  ops.h0 = *h0;
  if (l.cell == Cell::Lstm) {
    auto c0 = initial(in.initialC);
    if (failed(c0))
      return failure();
    ops.c0 = *c0;
    if (in.peepholes) {
      auto p = directionOf(n, *in.peepholes, 0, d, {1, 3 * h});
      auto pi = sliceAlong(n, p, 1, 0, h), po = sliceAlong(n, p, 1, h, h), pf = sliceAlong(n, p, 1, 2 * h, h);
      if (failed(pi) || failed(po) || failed(pf))
        return failure();
      ops.peepI = *pi;
      ops.peepO = *po;
      ops.peepF = *pf;
    }
  }
  return ops;
}

/// One direction's steps. `valid[t]` (when sequence lengths are given) is a [batch, hidden] mask of the entries
/// whose sequence is longer than t. Returns H of every time step (0 where masked) and the final H and C.
struct DirectionResult {
  SmallVector<Value> hs; // indexed by time step
  Value lastH, lastC;
};

FailureOr<DirectionResult> runDirection(NodeImporter &n, const Layer &l, const DirectionOperands &ops,
                                        ArrayRef<Activation> acts, bool reverse, ArrayRef<Value> valid) {
  int64_t h = l.hidden;
  auto clipped = [&](FailureOr<Value> v) -> FailureOr<Value> {
    if (failed(v) || !l.clip)
      return v;
    return n.create<ClipOp>(*v, {n.f32("min", -*l.clip), n.f32("max", *l.clip)});
  };
  auto gemm = [&](FailureOr<Value> a, Value b, FailureOr<Value> c) -> FailureOr<Value> {
    if (failed(a) || failed(c))
      return failure();
    return n.create<GemmOp>(ValueRange{*a, b, *c}, {n.boolean("transB", true)});
  };
  FailureOr<Value> zeros = failure(); // Y where a step is masked
  if (!valid.empty() && failed(zeros = splatConstant(n, l.element, {l.batch, h}, 0)))
    return failure();
  DirectionResult out;
  out.hs.resize(l.seq);
  Value hPrev = ops.h0, cPrev = ops.c0;
  for (int64_t s = 0; s < l.seq; ++s) {
    int64_t t = reverse ? l.seq - 1 - s : s;
    auto x = sliceAlong(n, ops.projected, 0, t * l.batch, l.batch);
    FailureOr<Value> hNew = failure(), cNew = failure();
    if (l.cell == Cell::Rnn) {
      // Ht = f(Xt·Wᵀ + Ht-1·Rᵀ + Wb + Rb)
      hNew = activate(n, acts[0], clipped(gemm(hPrev, ops.recurrence, x)));
    } else if (l.cell == Cell::Gru) {
      // zt, rt = f(Xt·Wᵀ + Ht-1·Rᵀ + Wb + Rb); ht = g(Xt·Whᵀ + (rt ⊙ Ht-1)·Rhᵀ + Rbh + Wbh), or with
      // linear_before_reset g(Xt·Whᵀ + rt ⊙ (Ht-1·Rhᵀ + Rbh) + Wbh); Ht = (1 - zt) ⊙ ht + zt ⊙ Ht-1.
      auto zr = gemm(hPrev, ops.gruRecurrenceZR, sliceAlong(n, x, 1, 0, 2 * h));
      auto z = activate(n, acts[0], clipped(sliceAlong(n, zr, 1, 0, h)));
      auto r = activate(n, acts[0], clipped(sliceAlong(n, zr, 1, h, h)));
      auto xh = sliceAlong(n, x, 1, 2 * h, h);
      FailureOr<Value> pre = failure();
      if (l.linearBeforeReset) {
        FailureOr<Value> bias = ops.gruRecurrentHBias ? FailureOr<Value>(*ops.gruRecurrentHBias)
                                                      : splatConstant(n, l.element, {1, h}, 0);
        pre = binaryOf<AddOp>(n, xh, binaryOf<MulOp>(n, r, gemm(hPrev, ops.gruRecurrenceH, bias)));
      } else {
        pre = gemm(binaryOf<MulOp>(n, r, hPrev), ops.gruRecurrenceH, xh);
      }
      auto hc = activate(n, acts[1], clipped(pre));
      auto kept = binaryOf<MulOp>(n, z, hPrev);
      auto updated = binaryOf<MulOp>(n, binaryOf<SubOp>(n, splatConstant(n, l.element, {}, 1), z), hc);
      hNew = binaryOf<AddOp>(n, updated, kept);
    } else {
      // it = f(Xt·Wiᵀ + Ht-1·Riᵀ + Pi ⊙ Ct-1 + Wbi + Rbi), ft likewise with Pf, ct = g(...), Ct = ft ⊙ Ct-1 +
      // it ⊙ ct, ot = f(... + Po ⊙ Ct), Ht = ot ⊙ h(Ct).
      auto all = gemm(hPrev, ops.recurrence, x);
      auto withPeephole = [&](FailureOr<Value> v, std::optional<Value> p, Value c) -> FailureOr<Value> {
        return p ? binaryOf<AddOp>(n, v, binaryOf<MulOp>(n, *p, c)) : v;
      };
      auto i = activate(n, acts[0], clipped(withPeephole(sliceAlong(n, all, 1, 0, h), ops.peepI, cPrev)));
      auto f = activate(n, acts[0], clipped(withPeephole(sliceAlong(n, all, 1, 2 * h, h), ops.peepF, cPrev)));
      auto c = activate(n, acts[1], clipped(sliceAlong(n, all, 1, 3 * h, h)));
      auto forgotten = binaryOf<MulOp>(n, f, cPrev);
      cNew = binaryOf<AddOp>(n, forgotten, binaryOf<MulOp>(n, i, c));
      if (failed(cNew))
        return failure();
      auto o = activate(n, acts[0], clipped(withPeephole(sliceAlong(n, all, 1, h, h), ops.peepO, *cNew)));
      hNew = binaryOf<MulOp>(n, o, activate(n, acts[2], *cNew));
    }
    if (failed(hNew))
      return failure();
    if (valid.empty()) {
      out.hs[t] = hPrev = *hNew;
      if (l.cell == Cell::Lstm)
        cPrev = *cNew;
      continue;
    }
    auto kept = n.create<WhereOp>(ValueRange{valid[t], *hNew, hPrev});
    auto y = n.create<WhereOp>(ValueRange{valid[t], *hNew, *zeros});
    if (failed(kept) || failed(y))
      return failure();
    hPrev = *kept;
    out.hs[t] = *y;
    if (l.cell == Cell::Lstm) {
      auto c = n.create<WhereOp>(ValueRange{valid[t], *cNew, cPrev});
      if (failed(c))
        return failure();
      cPrev = *c;
    }
  }
  out.lastH = hPrev;
  out.lastC = cPrev;
  return out;
}

/// For sequence_lens [batch] (int32): valid[t] = broadcast(t < lens) to [batch, hidden]. Empty when the
/// lengths are a constant equal to seq throughout (nothing to mask). Fails for the reverse direction with
/// lengths that may be shorter: its steps would start at each entry's own last element.
LogicalResult stepMasks(NodeImporter &n, const Layer &l, std::optional<Value> lengths, SmallVector<Value> &valid) {
  if (!lengths)
    return success();
  if (n.constantInput(4)) {
    auto v = n.constantInts(4, "sequence_lens");
    if (failed(v))
      return failure();
    if (llvm::all_of(*v, [&](int64_t len) { return len == l.seq; }))
      return success();
  }
  if (l.reverse || l.directions == 2)
    return n.unsupported("sequence_lens with the reverse direction is not supported (only forward masks steps)");
  auto lensType = cast<RankedTensorType>(lengths->getType());
  if (lensType.getShape() != ArrayRef<int64_t>{l.batch} || !lensType.getElementType().isInteger(32))
    return n.unsupported("sequence_lens must be int32 [batch]");
  auto lens = n.reshape(*lengths, {l.batch, 1});
  if (failed(lens))
    return failure();
  for (int64_t t = 0; t < l.seq; ++t) {
    auto step = splatConstant(n, lensType.getElementType(), {}, static_cast<double>(t));
    auto mask = binaryOf<LessOp>(n, step, *lens);
    auto full = succeeded(mask) ? n.broadcastTo(*mask, {l.batch, l.hidden}) : mask;
    if (failed(full))
      return failure();
    valid.push_back(*full);
  }
  return success();
}

/// Stacks per-direction [batch, hidden] values on a directions dim at `axis` of `shape` (each part's shape,
/// with 1 at `axis`).
FailureOr<Value> stack(NodeImporter &n, ArrayRef<Value> parts, ArrayRef<int64_t> shape, int64_t axis) {
  SmallVector<Value> reshaped;
  for (Value p : parts) {
    auto r = n.reshape(p, shape);
    if (failed(r))
      return failure();
    reshaped.push_back(*r);
  }
  if (reshaped.size() == 1)
    return reshaped.front();
  return n.create<ConcatOp>(reshaped, {n.i64("axis", axis)});
}

FailureOr<Value> checkedInput(NodeImporter &n, int i, StringRef what, ArrayRef<int64_t> shape) {
  auto v = n.input(i);
  if (failed(v))
    return failure();
  auto type = cast<RankedTensorType>(v->getType());
  if (type.getShape() != shape) {
    std::string want, got;
    llvm::raw_string_ostream ws(want), gs(got);
    llvm::interleave(shape, ws, "x");
    llvm::interleave(type.getShape(), gs, "x");
    return n.unsupported(what + " must be " + want + " (from X, W and hidden_size); it is " + got);
  }
  return v;
}

LogicalResult convertRecurrent(NodeImporter &n, Cell cell) {
  SmallVector<StringRef> known{"activation_alpha", "activation_beta", "activations", "clip", "direction",
                               "hidden_size", "layout"};
  if (cell == Cell::Gru)
    known.push_back("linear_before_reset");
  if (cell == Cell::Lstm)
    known.push_back("input_forget");
  if (failed(n.onlyAttrs(known)))
    return failure();
  if (n.attrInt("input_forget", 0) != 0)
    return n.unsupported("input_forget = 1 (coupled input and forget gates) is not supported");
  Layer l;
  l.cell = cell;
  l.gates = cell == Cell::Rnn ? 1 : cell == Cell::Gru ? 3 : 4;
  l.batchFirst = n.attrInt("layout", 0) != 0;
  l.linearBeforeReset = n.attrInt("linear_before_reset", 0) != 0;
  std::string direction = n.attrString("direction", "forward");
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional")
    return n.unsupported("direction '" + direction + "' is not forward, reverse or bidirectional");
  l.reverse = direction == "reverse";
  l.directions = direction == "bidirectional" ? 2 : 1;
  if (n.hasAttr("clip")) {
    l.clip = n.attrFloat("clip", 0);
    if (!(*l.clip > 0))
      return n.unsupported("clip must be positive");
  }
  auto x = staticInput(n);
  auto w = n.input(1);
  if (failed(x) || failed(w))
    return failure();
  l.element = getElementTypeOrSelf(x->getType());
  if (!isa<FloatType>(l.element))
    return n.unsupported("X must be a float tensor");
  ArrayRef<int64_t> xs = shapeOf(*x), ws = shapeOf(*w);
  if (xs.size() != 3 || ws.size() != 3)
    return n.unsupported("X and W must be 3-D");
  l.seq = l.batchFirst ? xs[1] : xs[0];
  l.batch = l.batchFirst ? xs[0] : xs[1];
  l.input = xs[2];
  if (ws[0] != l.directions || ws[2] != l.input || ws[1] % l.gates != 0)
    return n.unsupported("W must be [" + Twine(l.directions) + ", " + Twine(l.gates) + " * hidden_size, " +
                         Twine(l.input) + "]");
  l.hidden = ws[1] / l.gates;
  if (n.hasAttr("hidden_size") && n.attrInt("hidden_size", 0) != l.hidden)
    return n.unsupported("hidden_size " + Twine(n.attrInt("hidden_size", 0)) + " does not match W (" +
                         Twine(l.hidden) + ")");
  constexpr int64_t kMaxExtent = int64_t{1} << 24; // keeps every product of extents below 2^63
  if (l.seq < 1 || l.batch < 1 || l.hidden < 1 || l.input < 1)
    return n.unsupported("empty sequence, batch, input or hidden size");
  if (l.batch > kMaxExtent || l.hidden > kMaxExtent || l.input > kMaxExtent)
    return n.unsupported("batch, input and hidden sizes over 2^24 are not supported");
  if (l.seq > 4096)
    return n.unsupported("sequence length " + Twine(l.seq) + " is over the 4096 steps the unrolled form allows");
  if (failed(readActivations(n, l)))
    return failure();

  int64_t d = l.directions, b = l.batch, h = l.hidden, gh = l.gates * h;
  auto r = checkedInput(n, 2, "R", {d, gh, h});
  if (failed(r))
    return failure();
  Inputs in;
  in.x = *x;
  in.w = *w;
  in.r = *r;
  SmallVector<int64_t> stateShape = l.batchFirst ? SmallVector<int64_t>{b, d, h} : SmallVector<int64_t>{d, b, h};
  auto optional = [&](int i, StringRef what, ArrayRef<int64_t> shape, std::optional<Value> &into) -> LogicalResult {
    if (!n.hasInput(i))
      return success();
    auto v = what == "sequence_lens" ? n.input(i) : checkedInput(n, i, what, shape);
    if (failed(v))
      return failure();
    into = *v;
    return success();
  };
  if (failed(optional(3, "B", {d, 2 * gh}, in.bias)) || failed(optional(4, "sequence_lens", {b}, in.lengths)) ||
      failed(optional(5, "initial_h", stateShape, in.initialH)))
    return failure();
  if (cell == Cell::Lstm &&
      (failed(optional(6, "initial_c", stateShape, in.initialC)) || failed(optional(7, "P", {d, 3 * h}, in.peepholes))))
    return failure();

  SmallVector<Value> valid;
  if (failed(stepMasks(n, l, in.lengths, valid)))
    return failure();
  SmallVector<DirectionResult> results;
  int64_t per = l.activationsPerDirection();
  for (int64_t dir = 0; dir < d; ++dir) {
    auto ops = directionOperands(n, l, in, dir);
    if (failed(ops))
      return failure();
    ArrayRef<Activation> acts = ArrayRef<Activation>(l.activations).slice(dir * per, per);
    auto res = runDirection(n, l, *ops, acts, l.reverse || dir == 1, valid);
    if (failed(res))
      return failure();
    results.push_back(std::move(*res));
  }

  // Y: [seq, directions, batch, hidden], or [batch, seq, directions, hidden] with layout 1.
  if (n.outputUsed(0)) {
    SmallVector<Value> steps;
    for (int64_t t = 0; t < l.seq; ++t) {
      SmallVector<Value> dirs;
      for (const DirectionResult &res : results)
        dirs.push_back(res.hs[t]);
      auto step = l.batchFirst ? stack(n, dirs, {b, 1, 1, h}, 2) : stack(n, dirs, {1, 1, b, h}, 1);
      if (failed(step))
        return failure();
      steps.push_back(*step);
    }
    FailureOr<Value> y = steps.front();
    if (steps.size() > 1)
      y = n.create<ConcatOp>(steps, {n.i64("axis", l.batchFirst ? 1 : 0)});
    if (failed(y))
      return failure();
    n.setOutput(0, *y);
  }
  // Y_h, Y_c: [directions, batch, hidden], or [batch, directions, hidden] with layout 1.
  for (int out = 1; out <= (cell == Cell::Lstm ? 2 : 1); ++out) {
    if (!n.outputUsed(out))
      continue;
    SmallVector<Value> last;
    for (const DirectionResult &res : results)
      last.push_back(out == 1 ? res.lastH : res.lastC);
    auto v = l.batchFirst ? stack(n, last, {b, 1, h}, 1) : stack(n, last, {1, b, h}, 0);
    if (failed(v))
      return failure();
    n.setOutput(out, *v);
  }
  return success();
}

LogicalResult convertRNN(NodeImporter &n) { return convertRecurrent(n, Cell::Rnn); }
LogicalResult convertGRU(NodeImporter &n) { return convertRecurrent(n, Cell::Gru); }
LogicalResult convertLSTM(NodeImporter &n) { return convertRecurrent(n, Cell::Lstm); }

} // namespace

void tx8be::onnx_import::addRecurrentConverters(llvm::StringMap<NodeConverter> &converters) {
  converters["RNN"] = convertRNN;
  converters["GRU"] = convertGRU;
  converters["LSTM"] = convertLSTM;
}
