//===- Pool.cpp - Max and average pooling ---------------------------------===//

#include "Common.h"
#include "Dnnl.h"
#include "tx8/Reference/Kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tx8::ref {

using namespace detail;
using dnnl::memory;

Status pool(PoolKind kind, const Tensor &x, const PoolParams &p, Tensor &y) {
  const char *op = kind == PoolKind::Max ? "MaxPool" : "AveragePool";
  std::vector<float> xv;
  Status s = floatInput(op, "X", x, xv);
  if (!s.ok())
    return s;
  if (x.rank() < 3 || x.rank() > 5)
    return err(op, "X must be N x C x D1 [x D2 [x D3]] (rank 3 to 5), got " + shapeToString(x.shape));
  const size_t nsp = static_cast<size_t>(x.rank() - 2);
  if (p.kernel.size() != nsp)
    return err(op, "kernel_shape has " + std::to_string(p.kernel.size()) + " values, expected " + std::to_string(nsp));
  std::vector<int64_t> ks, st, dl, pb, pe;
  s = spatialParam(op, "kernel_shape", p.kernel, nsp, 1, 1, ks);
  if (s.ok()) s = spatialParam(op, "strides", p.strides, nsp, 1, 1, st);
  if (s.ok()) s = spatialParam(op, "dilations", p.dilations, nsp, 1, 1, dl);
  if (s.ok()) s = spatialParam(op, "pads (begin)", p.padsBegin, nsp, 0, 0, pb);
  if (s.ok()) s = spatialParam(op, "pads (end)", p.padsEnd, nsp, 0, 0, pe);
  if (!s.ok())
    return s;

  // ceil_mode may need windows that run past the end padding: oneDNN sees that overhang as extra
  // padding_r (it sizes dst with the floor formula).
  std::vector<int64_t> ys{x.shape[0], x.shape[1]}, overhang;
  for (size_t i = 0; i < nsp; ++i) {
    const int64_t in = x.shape[2 + i], span = (ks[i] - 1) * dl[i] + 1, padded = in + pb[i] + pe[i];
    if (padded < span)
      return err(op, "spatial dim " + std::to_string(i) + ": padded input " + std::to_string(padded) +
                         " is smaller than the (dilated) kernel " + std::to_string(span));
    int64_t o = p.ceilMode ? (padded - span + st[i] - 1) / st[i] + 1 : (padded - span) / st[i] + 1;
    // A window starting inside the end padding would see no input: drop it (ONNX / PyTorch rule).
    if (p.ceilMode && (o - 1) * st[i] >= in + pb[i])
      --o;
    ys.push_back(o);
    overhang.push_back(std::max<int64_t>(0, (o - 1) * st[i] + span - padded));
  }

  std::vector<int64_t> padR(nsp);
  for (size_t i = 0; i < nsp; ++i)
    padR[i] = pe[i] + overhang[i];

  std::vector<float> out(static_cast<size_t>(product(ys, 0, ys.size())));
  auto runPool = [&](dnnl::algorithm alg, std::vector<float> &src, std::vector<float> &dst) {
    return dnnlx::run(op, [&]() -> Status {
      auto xmd = dnnlx::plainDesc(dnnlx::toDims(x.shape));
      auto ymd = dnnlx::plainDesc(dnnlx::toDims(ys));
      memory::dims dil;
      for (size_t i = 0; i < nsp; ++i)
        dil.push_back(ks[i] == 1 ? 0 : dl[i] - 1); // oneDNN counts the gaps: 0 = dense
      dnnl::pooling_v2_forward::desc d(dnnl::prop_kind::forward_inference, alg, xmd, ymd, st, ks, dil, pb, padR);
      dnnl::pooling_v2_forward prim(dnnl::pooling_v2_forward::primitive_desc(d, dnnlx::cpuEngine()));
      dnnlx::execute(prim, {{DNNL_ARG_SRC, dnnlx::wrap(xmd, src.data())}, {DNNL_ARG_DST, dnnlx::wrap(ymd, dst.data())}});
      return Status();
    });
  };
  if (!out.empty()) {
    // Averages use include_padding, i.e. window sum / kernel size, and are rescaled below: oneDNN's
    // exclude_padding refuses windows that may lie entirely in padding or dilation gaps >= the input,
    // and its include_padding divisor would count the ceil_mode overhang.
    s = runPool(kind == PoolKind::Max ? dnnl::algorithm::pooling_max : dnnl::algorithm::pooling_avg_include_padding,
                xv, out);
    if (!s.ok())
      return s;
    // IEEE / ONNX (numpy's max): a window holding a NaN gives NaN; oneDNN's max skips it. Pool an indicator
    // of the NaNs the same way to find those windows (averages propagate NaN by themselves).
    if (kind == PoolKind::Max && std::any_of(xv.begin(), xv.end(), [](float v) { return std::isnan(v); })) {
      std::vector<float> isNaN(xv.size()), hit(out.size());
      for (size_t i = 0; i < xv.size(); ++i)
        isNaN[i] = std::isnan(xv[i]) ? 1.f : 0.f;
      s = runPool(dnnl::algorithm::pooling_max, isNaN, hit);
      if (!s.ok())
        return s;
      for (size_t i = 0; i < out.size(); ++i)
        if (hit[i] > 0)
          out[i] = std::numeric_limits<float>::quiet_NaN();
    }
  }

  if (kind == PoolKind::Avg && !out.empty()) {
    // Divisor per output element: the product over spatial dims of the number of window taps inside
    // the input (exclude) or inside the explicitly padded input (count_include_pad; never the ceil
    // overhang).
    std::vector<std::vector<int64_t>> taps(nsp);
    for (size_t i = 0; i < nsp; ++i) {
      const int64_t in = x.shape[2 + i];
      const int64_t lo = p.countIncludePad ? -pb[i] : 0, hi = p.countIncludePad ? in + pe[i] : in;
      for (int64_t o = 0; o < ys[2 + i]; ++o) {
        int64_t n = 0;
        for (int64_t j = 0; j < ks[i]; ++j) {
          const int64_t pos = o * st[i] - pb[i] + j * dl[i];
          n += pos >= lo && pos < hi;
        }
        taps[i].push_back(n);
      }
    }
    const int64_t kernelSize = product(ks, 0, ks.size());
    const int64_t plane = product(ys, 2, ys.size());
    std::vector<int64_t> spatial(ys.begin() + 2, ys.end());
    for (int64_t j = 0; j < plane; ++j) {
      int64_t count = 1, rest = j;
      for (size_t i = nsp; i-- > 0;) {
        count *= taps[i][static_cast<size_t>(rest % spatial[i])];
        rest /= spatial[i];
      }
      const float scale = static_cast<float>(kernelSize) / static_cast<float>(count); // count 0: inf, as 0/0
      for (int64_t nc = 0; nc < ys[0] * ys[1]; ++nc)
        out[static_cast<size_t>(nc * plane + j)] *= scale;
    }
  }
  y = fromFloatVector(out, ys, x.dtype);
  return Status();
}

Status globalPool(PoolKind kind, const Tensor &x, Tensor &y) {
  if (x.rank() < 3)
    return Status::error(std::string(kind == PoolKind::Max ? "GlobalMaxPool" : "GlobalAveragePool") +
                         ": X must be N x C x D1 ..., got " + shapeToString(x.shape));
  PoolParams p;
  p.kernel.assign(x.shape.begin() + 2, x.shape.end());
  return pool(kind, x, p, y);
}

} // namespace tx8::ref
