//===- Normalization.cpp - Softmax, batch and layer normalization ---------===//

#include "Common.h"
#include "Dnnl.h"
#include "tx8/Reference/Kernels.h"

#include <cmath>
#include <limits>

namespace tx8::ref {

using namespace detail;

namespace {

/// IEEE / ONNX semantics (the numpy reference: x - max, exp, sum): a slice along `axis` whose maximum is not
/// finite (it holds a NaN or +inf, or every element is -inf) comes out NaN throughout. oneDNN leaves the
/// slice's other elements 0 there; the chip computes the IEEE result.
void propagateNonFinite(const std::vector<float> &in, const std::vector<int64_t> &shape, int64_t axis,
                        std::vector<float> &out) {
  int64_t outer = 1, inner = 1, n = shape[static_cast<size_t>(axis)];
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[static_cast<size_t>(d)];
  for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d)
    inner *= shape[d];
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      auto at = [&](int64_t k) { return static_cast<size_t>((o * n + k) * inner + i); };
      float max = -std::numeric_limits<float>::infinity();
      bool nan = false;
      for (int64_t k = 0; k < n; ++k) {
        nan |= std::isnan(in[at(k)]);
        max = std::max(max, in[at(k)]);
      }
      if (nan || !std::isfinite(max))
        for (int64_t k = 0; k < n; ++k)
          out[at(k)] = std::numeric_limits<float>::quiet_NaN();
    }
}

Status softmaxImpl(const char *op, dnnl::algorithm alg, const Tensor &x, int64_t axis, Tensor &y) {
  std::vector<float> v;
  Status s = floatInput(op, "input", x, v);
  if (!s.ok())
    return s;
  if (x.rank() == 0)
    return err(op, "input must have rank >= 1");
  int64_t ax;
  s = normalizeAxis(op, axis, x.rank(), ax);
  if (!s.ok())
    return s;
  std::vector<float> out(v.size());
  if (!v.empty()) {
    s = dnnlx::run(op, [&]() -> Status {
      auto md = dnnlx::plainDesc(dnnlx::toDims(x.shape));
      dnnl::softmax_v2_forward::desc d(dnnl::prop_kind::forward_inference, alg, md, md, static_cast<int>(ax));
      dnnl::softmax_v2_forward prim(dnnl::softmax_v2_forward::primitive_desc(d, dnnlx::cpuEngine()));
      dnnlx::execute(prim, {{DNNL_ARG_SRC, dnnlx::wrap(md, v.data())}, {DNNL_ARG_DST, dnnlx::wrap(md, out.data())}});
      return Status();
    });
    if (!s.ok())
      return s;
    propagateNonFinite(v, x.shape, ax, out);
  }
  y = fromFloatVector(out, x.shape, x.dtype);
  return Status();
}

} // namespace

Status softmax(const Tensor &x, int64_t axis, Tensor &y) {
  return softmaxImpl("Softmax", dnnl::algorithm::softmax_accurate, x, axis, y);
}

Status logSoftmax(const Tensor &x, int64_t axis, Tensor &y) {
  return softmaxImpl("LogSoftmax", dnnl::algorithm::softmax_log, x, axis, y);
}

Status batchNormInference(const Tensor &x, const Tensor &scale, const Tensor &bias, const Tensor &mean,
                          const Tensor &var, float epsilon, Tensor &y) {
  const char *op = "BatchNormalization";
  std::vector<float> xv, sc, sh, mv, vv;
  Status s = floatInput(op, "X", x, xv);
  if (s.ok()) s = floatInput(op, "scale", scale, sc);
  if (s.ok()) s = floatInput(op, "B", bias, sh);
  if (s.ok()) s = floatInput(op, "input_mean", mean, mv);
  if (s.ok()) s = floatInput(op, "input_var", var, vv);
  if (!s.ok())
    return s;
  if (x.rank() < 2)
    return err(op, "X must have rank >= 2 (N x C x ...), got shape " + shapeToString(x.shape));
  const int64_t c = x.shape[1];
  for (auto [t, role] : {std::pair<const Tensor *, const char *>{&scale, "scale"}, {&bias, "B"},
                         {&mean, "input_mean"}, {&var, "input_var"}})
    if (t->numElements() != c || t->rank() != 1)
      return err(op, std::string(role) + " has shape " + shapeToString(t->shape) + ", expected (" +
                         std::to_string(c) + ",)");
  std::vector<float> out(xv.size());
  if (!xv.empty()) {
    s = dnnlx::run(op, [&]() -> Status {
      // N x C x (all spatial dims flattened): one layout for every rank.
      auto md = dnnlx::plainDesc({x.shape[0], c, product(x.shape, 2, x.shape.size())});
      auto cmd = dnnlx::plainDesc({c});
      auto flags = dnnl::normalization_flags::use_global_stats | dnnl::normalization_flags::use_scale |
                   dnnl::normalization_flags::use_shift;
      dnnl::batch_normalization_forward::desc d(dnnl::prop_kind::forward_inference, md, epsilon, flags);
      dnnl::batch_normalization_forward prim(
          dnnl::batch_normalization_forward::primitive_desc(d, dnnlx::cpuEngine()));
      dnnlx::execute(prim, {{DNNL_ARG_SRC, dnnlx::wrap(md, xv.data())},
                            {DNNL_ARG_MEAN, dnnlx::wrap(cmd, mv.data())},
                            {DNNL_ARG_VARIANCE, dnnlx::wrap(cmd, vv.data())},
                            {DNNL_ARG_SCALE, dnnlx::wrap(cmd, sc.data())},
                            {DNNL_ARG_SHIFT, dnnlx::wrap(cmd, sh.data())},
                            {DNNL_ARG_DST, dnnlx::wrap(md, out.data())}});
      return Status();
    });
    if (!s.ok())
      return s;
  }
  y = fromFloatVector(out, x.shape, x.dtype);
  return Status();
}

Status layerNorm(const Tensor &x, const Tensor &scale, const Tensor *bias, int64_t axis, float epsilon, Tensor &y,
                 bool rms) {
  const char *op = "LayerNormalization";
  std::vector<float> xv, sc, sh;
  Status s = floatInput(op, "X", x, xv);
  if (s.ok()) s = floatInput(op, "Scale", scale, sc);
  if (s.ok() && bias) s = floatInput(op, "B", *bias, sh);
  if (!s.ok())
    return s;
  if (x.rank() == 0)
    return err(op, "X must have rank >= 1");
  int64_t ax;
  s = normalizeAxis(op, axis, x.rank(), ax);
  if (!s.ok())
    return s;
  const std::vector<int64_t> normShape(x.shape.begin() + ax, x.shape.end());
  const int64_t outer = product(x.shape, 0, static_cast<size_t>(ax));
  const int64_t inner = product(x.shape, static_cast<size_t>(ax), x.shape.size());
  // Scale and B broadcast (unidirectionally) to the normalized shape; oneDNN wants one value per
  // element of the normalized [inner] row.
  auto expandParam = [&](const Tensor &t, std::vector<float> &vals, const char *role) -> Status {
    std::vector<int64_t> b;
    Status bs = broadcastShapes(t.shape, normShape, b);
    if (!bs.ok() || b != normShape)
      return err(op, std::string(role) + " shape " + shapeToString(t.shape) + " does not broadcast to " +
                         shapeToString(normShape));
    vals = toFloatVector(broadcastTo(fromFloatVector(vals, t.shape, DType::F32), normShape));
    return Status();
  };
  s = expandParam(scale, sc, "Scale");
  if (s.ok() && bias)
    s = expandParam(*bias, sh, "B");
  if (!s.ok())
    return s;
  std::vector<float> out(xv.size());
  if (rms) {
    for (int64_t r = 0; r < outer; ++r) {
      const float *xr = xv.data() + r * inner;
      double ms = 0;
      for (int64_t i = 0; i < inner; ++i)
        ms += static_cast<double>(xr[i]) * xr[i];
      double q = 1.0 / std::sqrt(ms / static_cast<double>(inner) + static_cast<double>(epsilon));
      for (int64_t i = 0; i < inner; ++i)
        out[r * inner + i] = static_cast<float>(xr[i] * q * sc[i] + (bias ? sh[i] : 0.0));
    }
  } else if (!xv.empty()) {
    s = dnnlx::run(op, [&]() -> Status {
      auto md = dnnlx::plainDesc({outer, inner});
      auto pmd = dnnlx::plainDesc({inner});
      auto flags = dnnl::normalization_flags::use_scale;
      if (bias)
        flags = flags | dnnl::normalization_flags::use_shift;
      dnnl::layer_normalization_forward::desc d(dnnl::prop_kind::forward_inference, md, epsilon, flags);
      dnnl::layer_normalization_forward prim(
          dnnl::layer_normalization_forward::primitive_desc(d, dnnlx::cpuEngine()));
      dnnlx::Args args{{DNNL_ARG_SRC, dnnlx::wrap(md, xv.data())},
                       {DNNL_ARG_SCALE, dnnlx::wrap(pmd, sc.data())},
                       {DNNL_ARG_DST, dnnlx::wrap(md, out.data())}};
      if (bias)
        args.emplace(DNNL_ARG_SHIFT, dnnlx::wrap(pmd, sh.data()));
      dnnlx::execute(prim, args);
      return Status();
    });
    if (!s.ok())
      return s;
  }
  y = fromFloatVector(out, x.shape, x.dtype);
  return Status();
}

} // namespace tx8::ref
