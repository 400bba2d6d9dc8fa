//===- Conv.cpp - Convolution and transposed convolution ------------------===//

#include "Common.h"
#include "Dnnl.h"
#include "tx8/Reference/Kernels.h"

#include <algorithm>

namespace tx8::ref {

using namespace detail;
using dnnl::memory;

namespace {

memory::dims minusOne(const std::vector<int64_t> &dil) {
  memory::dims d;
  for (int64_t e : dil)
    d.push_back(e - 1); // oneDNN counts the gaps: 0 = dense
  return d;
}

Status checkBias(const char *op, const Tensor *bias, int64_t m, std::vector<float> &bv) {
  if (!bias)
    return Status();
  Status s = floatInput(op, "B", *bias, bv);
  if (!s.ok())
    return s;
  if (bias->rank() != 1 || bias->shape[0] != m)
    return err(op, "bias has shape " + shapeToString(bias->shape) + ", expected (" + std::to_string(m) + ",)");
  return Status();
}

} // namespace

Status splitOnnxPads(const std::vector<int64_t> &pads, std::vector<int64_t> &begin, std::vector<int64_t> &end) {
  if (pads.size() % 2)
    return Status::error("pads has an odd number of values (" + std::to_string(pads.size()) + ")");
  const size_t h = pads.size() / 2;
  begin.assign(pads.begin(), pads.begin() + static_cast<std::ptrdiff_t>(h));
  end.assign(pads.begin() + static_cast<std::ptrdiff_t>(h), pads.end());
  return Status();
}

Status resolveAutoPad(AutoPad mode, const std::vector<int64_t> &inSpatial, const std::vector<int64_t> &kernel,
                      const std::vector<int64_t> &strides, const std::vector<int64_t> &dilations,
                      std::vector<int64_t> &padsBegin, std::vector<int64_t> &padsEnd) {
  const char *op = "auto_pad";
  if (mode == AutoPad::NotSet)
    return Status();
  const size_t nsp = inSpatial.size();
  std::vector<int64_t> st, dl;
  if (kernel.size() != nsp)
    return err(op, "kernel has " + std::to_string(kernel.size()) + " dims, input has " + std::to_string(nsp));
  Status s = spatialParam(op, "strides", strides, nsp, 1, 1, st);
  if (s.ok())
    s = spatialParam(op, "dilations", dilations, nsp, 1, 1, dl);
  if (!s.ok())
    return s;
  padsBegin.assign(nsp, 0);
  padsEnd.assign(nsp, 0);
  if (mode == AutoPad::Valid)
    return Status();
  for (size_t i = 0; i < nsp; ++i) {
    const int64_t out = (inSpatial[i] + st[i] - 1) / st[i];
    const int64_t total = std::max<int64_t>(0, (out - 1) * st[i] + (kernel[i] - 1) * dl[i] + 1 - inSpatial[i]);
    const int64_t small = total / 2;
    padsBegin[i] = mode == AutoPad::SameUpper ? small : total - small;
    padsEnd[i] = total - padsBegin[i];
  }
  return Status();
}

// X and W of Conv and ConvTranspose as floats, with their common rank checks (N x C x 1 to 3 spatial dims).
static Status convInputs(const char *op, const Tensor &x, const Tensor &w, std::vector<float> &xv,
                         std::vector<float> &wv) {
  Status s = floatInput(op, "X", x, xv);
  if (s.ok())
    s = floatInput(op, "W", w, wv);
  if (!s.ok())
    return s;
  if (x.rank() < 3 || x.rank() > 5)
    return err(op, "X must be N x C x D1 [x D2 [x D3]] (rank 3 to 5), got " + shapeToString(x.shape));
  if (w.rank() != x.rank())
    return err(op, "W rank " + std::to_string(w.rank()) + " differs from X rank " + std::to_string(x.rank()));
  return Status();
}

namespace {

/// A Conv's strides, dilations and pads per spatial dim (defaults filled in), and its output shape [N, M, spatial...]
/// (X [N, C, spatial...], W [M, C / group, kernel...]); an error when a padded input is smaller than its kernel.
Status convGeometry(const char *op, const Tensor &x, const Tensor &w, const ConvParams &p, std::vector<int64_t> &st,
                    std::vector<int64_t> &dl, std::vector<int64_t> &pb, std::vector<int64_t> &pe,
                    std::vector<int64_t> &ys) {
  const size_t nsp = static_cast<size_t>(x.rank() - 2);
  Status s = spatialParam(op, "strides", p.strides, nsp, 1, 1, st);
  if (s.ok()) s = spatialParam(op, "dilations", p.dilations, nsp, 1, 1, dl);
  if (s.ok()) s = spatialParam(op, "pads (begin)", p.padsBegin, nsp, 0, 0, pb);
  if (s.ok()) s = spatialParam(op, "pads (end)", p.padsEnd, nsp, 0, 0, pe);
  if (!s.ok())
    return s;
  ys = {x.shape[0], w.shape[0]};
  for (size_t i = 0; i < nsp; ++i) {
    const int64_t in = x.shape[2 + i], k = w.shape[2 + i], span = (k - 1) * dl[i] + 1;
    if (k < 1 || in + pb[i] + pe[i] < span)
      return err(op, "spatial dim " + std::to_string(i) + ": padded input " + std::to_string(in + pb[i] + pe[i]) +
                         " is smaller than the dilated kernel " + std::to_string(span));
    ys.push_back((in + pb[i] + pe[i] - span) / st[i] + 1);
  }
  return Status();
}

/// int8 x int8 -> int32 (the NE's int8 path), zero padding, an int32 bias: the exact sums in int64, wrapped to 32
/// bits. Plain C++ over any number of spatial dims.
Status convInt8(const char *op, const Tensor &x, const Tensor &w, const Tensor *bias, const ConvParams &p,
                Tensor &y) {
  if (w.dtype != DType::I8)
    return err(op, std::string("X is i8 but W is ") + dtypeName(w.dtype));
  if (x.rank() < 3 || w.rank() != x.rank())
    return err(op, "X and W must have one rank >= 3, got " + shapeToString(x.shape) + " and " + shapeToString(w.shape));
  const size_t nsp = static_cast<size_t>(x.rank() - 2);
  const int64_t n = x.shape[0], c = x.shape[1], m = w.shape[0], cg = w.shape[1], g = p.group;
  if (g < 1 || c % g != 0 || m % g != 0 || cg * g != c)
    return err(op, "group " + std::to_string(g) + " does not fit X channels " + std::to_string(c) + ", W shape " +
                       shapeToString(w.shape));
  if (bias && (bias->dtype != DType::I32 || bias->numElements() != m))
    return err(op, "an int8 conv's bias must be i32 of " + std::to_string(m) + " elements");
  std::vector<int64_t> st, dl, pb, pe, ys;
  Status s = convGeometry(op, x, w, p, st, dl, pb, pe, ys);
  if (!s.ok())
    return s;
  Tensor res(DType::I32, ys);
  const std::vector<int64_t> xs = rowMajorStrides(x.shape), wst = rowMajorStrides(w.shape);
  const std::vector<int64_t> outSpatial(ys.begin() + 2, ys.end()), kernel(w.shape.begin() + 2, w.shape.end());
  const int64_t outPixels = product(outSpatial, 0, nsp), taps = product(kernel, 0, nsp);
  const int8_t *xv = x.data<int8_t>(), *wv = w.data<int8_t>();
  int32_t *yv = res.data<int32_t>();
  std::vector<int64_t> o(nsp), t(nsp);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t oc = 0; oc < m; ++oc) {
      const int64_t grp = oc / (m / g);
      for (int64_t pix = 0; pix < outPixels; ++pix) {
        for (int64_t d = static_cast<int64_t>(nsp) - 1, rest = pix; d >= 0; --d)
          o[d] = rest % outSpatial[d], rest /= outSpatial[d];
        int64_t acc = bias ? bias->data<int32_t>()[oc] : 0;
        for (int64_t ic = 0; ic < cg; ++ic)
          for (int64_t tap = 0; tap < taps; ++tap) {
            for (int64_t d = static_cast<int64_t>(nsp) - 1, rest = tap; d >= 0; --d)
              t[d] = rest % kernel[d], rest /= kernel[d];
            int64_t xo = b * xs[0] + (grp * cg + ic) * xs[1], wo = oc * wst[0] + ic * wst[1];
            bool inside = true;
            for (size_t d = 0; d < nsp && inside; ++d) {
              const int64_t pos = o[d] * st[d] - pb[d] + t[d] * dl[d];
              inside = pos >= 0 && pos < x.shape[2 + d];
              xo += pos * xs[2 + d];
              wo += t[d] * wst[2 + d];
            }
            if (inside)
              acc += static_cast<int64_t>(xv[xo]) * wv[wo];
          }
        yv[(b * m + oc) * outPixels + pix] = static_cast<int32_t>(static_cast<uint32_t>(acc));
      }
    }
  y = std::move(res);
  return Status();
}

} // namespace

Status conv(const Tensor &x, const Tensor &w, const Tensor *bias, const ConvParams &p, Tensor &y) {
  const char *op = "Conv";
  if (x.dtype == DType::I8)
    return convInt8(op, x, w, bias, p, y);
  std::vector<float> xv, wv, bv;
  Status s = convInputs(op, x, w, xv, wv);
  if (!s.ok())
    return s;
  const int64_t c = x.shape[1], m = w.shape[0], cg = w.shape[1], g = p.group;
  if (g < 1 || c % g != 0 || m % g != 0 || cg * g != c)
    return err(op, "group " + std::to_string(g) + " does not fit X channels " + std::to_string(c) + ", W shape " +
                       shapeToString(w.shape));
  s = checkBias(op, bias, m, bv);
  if (!s.ok())
    return s;
  std::vector<int64_t> st, dl, pb, pe, ys;
  s = convGeometry(op, x, w, p, st, dl, pb, pe, ys);
  if (!s.ok())
    return s;
  std::vector<float> out(static_cast<size_t>(product(ys, 0, ys.size())));
  if (!out.empty()) {
    s = dnnlx::run(op, [&]() -> Status {
      auto xmd = dnnlx::plainDesc(dnnlx::toDims(x.shape));
      // Grouped weights: ONNX's M x C/g x k... is the same memory as oneDNN's g x M/g x C/g x k...
      memory::dims wd;
      if (g > 1)
        wd = {g, m / g, cg};
      else
        wd = {m, cg};
      wd.insert(wd.end(), w.shape.begin() + 2, w.shape.end());
      auto wmd = dnnlx::plainDesc(wd);
      auto ymd = dnnlx::plainDesc(dnnlx::toDims(ys));
      auto bmd = bias ? dnnlx::plainDesc({m}) : memory::desc();
      dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, xmd,
                                        wmd, bmd, ymd, st, minusOne(dl), pb, pe);
      dnnl::convolution_forward prim(dnnl::convolution_forward::primitive_desc(d, dnnlx::cpuEngine()));
      dnnlx::Args args{{DNNL_ARG_SRC, dnnlx::wrap(xmd, xv.data())},
                       {DNNL_ARG_WEIGHTS, dnnlx::wrap(wmd, wv.data())},
                       {DNNL_ARG_DST, dnnlx::wrap(ymd, out.data())}};
      if (bias)
        args.emplace(DNNL_ARG_BIAS, dnnlx::wrap(bmd, bv.data()));
      dnnlx::execute(prim, args);
      return Status();
    });
    if (!s.ok())
      return s;
  }
  y = fromFloatVector(out, ys, x.dtype);
  return Status();
}

Status convTranspose(const Tensor &x, const Tensor &w, const Tensor *bias, const ConvTransposeParams &p, Tensor &y) {
  const char *op = "ConvTranspose";
  std::vector<float> xv, wv, bv;
  Status s = convInputs(op, x, w, xv, wv);
  if (!s.ok())
    return s;
  const size_t nsp = static_cast<size_t>(x.rank() - 2);
  const int64_t n = x.shape[0], c = x.shape[1], g = p.group;
  if (g < 1 || w.shape[0] != c || c % g != 0)
    return err(op, "group " + std::to_string(g) + " does not fit X channels " + std::to_string(c) + ", W shape " +
                       shapeToString(w.shape) + " (W is C x M/group x k...)");
  const int64_t mg = w.shape[1], m = mg * g, cg = c / g;
  s = checkBias(op, bias, m, bv);
  if (!s.ok())
    return s;
  std::vector<int64_t> st, dl, pb, pe, opad;
  s = spatialParam(op, "strides", p.strides, nsp, 1, 1, st);
  if (s.ok()) s = spatialParam(op, "dilations", p.dilations, nsp, 1, 1, dl);
  if (s.ok()) s = spatialParam(op, "pads (begin)", p.padsBegin, nsp, 0, 0, pb);
  if (s.ok()) s = spatialParam(op, "pads (end)", p.padsEnd, nsp, 0, 0, pe);
  if (s.ok()) s = spatialParam(op, "output_padding", p.outputPadding, nsp, 0, 0, opad);
  if (!s.ok())
    return s;

  // Output padding beyond the end pad would be a negative padding_r for oneDNN. Those trailing rows
  // receive no contribution from any input, only the bias, so compute the "core" without them and
  // fill the rest with the bias.
  std::vector<int64_t> ys{n, m}, core{n, m}, padR;
  for (size_t i = 0; i < nsp; ++i) {
    const int64_t in = x.shape[2 + i], k = w.shape[2 + i], span = (k - 1) * dl[i] + 1;
    const int64_t o = st[i] * (in - 1) + opad[i] + span - pb[i] - pe[i];
    if (k < 1 || in < 1 || o < 1)
      return err(op, "spatial dim " + std::to_string(i) + ": output size " + std::to_string(o) + " is not positive");
    const int64_t r = pe[i] - opad[i];
    ys.push_back(o);
    core.push_back(r >= 0 ? o : o + r);
    padR.push_back(std::max<int64_t>(r, 0));
  }
  std::vector<float> out(static_cast<size_t>(product(ys, 0, ys.size())), 0.f);
  if (!out.empty() && n > 0) {
    std::vector<float> coreOut(static_cast<size_t>(product(core, 0, core.size())));
    s = dnnlx::run(op, [&]() -> Status {
      auto xmd = dnnlx::plainDesc(dnnlx::toDims(x.shape));
      // oneDNN's logical weights are [g,] OC/g x IC/g x k...; ONNX stores [g,] IC/g x OC/g x k...
      const int64_t ksz = product(w.shape, 2, w.shape.size());
      std::vector<int64_t> ks(w.shape.begin() + 2, w.shape.end());
      std::vector<int64_t> kstr = rowMajorStrides(ks);
      memory::dims wd, ws;
      if (g > 1) {
        wd = {g, mg, cg};
        ws = {cg * mg * ksz, ksz, mg * ksz};
      } else {
        wd = {m, c};
        ws = {ksz, m * ksz};
      }
      wd.insert(wd.end(), ks.begin(), ks.end());
      ws.insert(ws.end(), kstr.begin(), kstr.end());
      auto wmd = dnnlx::stridedDesc(wd, ws);
      auto ymd = dnnlx::plainDesc(dnnlx::toDims(core));
      auto bmd = bias ? dnnlx::plainDesc({m}) : memory::desc();
      dnnl::deconvolution_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::deconvolution_direct,
                                          xmd, wmd, bmd, ymd, st, minusOne(dl), pb, padR);
      dnnl::deconvolution_forward prim(dnnl::deconvolution_forward::primitive_desc(d, dnnlx::cpuEngine()));
      dnnlx::Args args{{DNNL_ARG_SRC, dnnlx::wrap(xmd, xv.data())},
                       {DNNL_ARG_WEIGHTS, dnnlx::wrap(wmd, wv.data())},
                       {DNNL_ARG_DST, dnnlx::wrap(ymd, coreOut.data())}};
      if (bias)
        args.emplace(DNNL_ARG_BIAS, dnnlx::wrap(bmd, bv.data()));
      dnnlx::execute(prim, args);
      return Status();
    });
    if (!s.ok())
      return s;
    if (core == ys) {
      out = std::move(coreOut);
    } else {
      // Bias everywhere, then the core over the leading corner of each N x M plane.
      const int64_t plane = product(ys, 2, ys.size());
      for (int64_t i = 0; i < n * m; ++i)
        std::fill(out.begin() + i * plane, out.begin() + (i + 1) * plane, bias ? bv[static_cast<size_t>(i % m)] : 0.f);
      std::vector<int64_t> ostr = rowMajorStrides(ys);
      forEachStrided(core, ostr, [&](int64_t ci, int64_t off) {
        out[static_cast<size_t>(off)] = coreOut[static_cast<size_t>(ci)];
      });
    }
  }
  y = fromFloatVector(out, ys, x.dtype);
  return Status();
}

Status convTransposeResolvePads(AutoPad mode, const std::vector<int64_t> &inSpatial,
                                const std::vector<int64_t> &kernel, const std::vector<int64_t> &outputShape,
                                ConvTransposeParams &p) {
  const char *op = "ConvTranspose";
  const size_t nsp = inSpatial.size();
  std::vector<int64_t> st, dl, opad;
  if (kernel.size() != nsp)
    return err(op, "kernel has " + std::to_string(kernel.size()) + " dims, input has " + std::to_string(nsp));
  if (!outputShape.empty() && outputShape.size() != nsp)
    return err(op, "output_shape has " + std::to_string(outputShape.size()) + " values, expected " +
                       std::to_string(nsp) + " spatial sizes");
  Status s = spatialParam(op, "strides", p.strides, nsp, 1, 1, st);
  if (s.ok()) s = spatialParam(op, "dilations", p.dilations, nsp, 1, 1, dl);
  if (s.ok()) s = spatialParam(op, "output_padding", p.outputPadding, nsp, 0, 0, opad);
  if (!s.ok())
    return s;
  if (outputShape.empty() && mode != AutoPad::SameUpper && mode != AutoPad::SameLower) {
    if (mode == AutoPad::Valid) {
      p.padsBegin.assign(nsp, 0);
      p.padsEnd.assign(nsp, 0);
    }
    return Status();
  }
  p.padsBegin.assign(nsp, 0);
  p.padsEnd.assign(nsp, 0);
  p.outputPadding = opad;
  for (size_t i = 0; i < nsp; ++i) {
    const int64_t out = outputShape.empty() ? inSpatial[i] * st[i] : outputShape[i];
    const int64_t total = st[i] * (inSpatial[i] - 1) + opad[i] + (kernel[i] - 1) * dl[i] + 1 - out;
    if (total < 0) {
      p.outputPadding[i] += -total;
      continue;
    }
    const int64_t half = total / 2;
    p.padsBegin[i] = mode == AutoPad::SameUpper ? half : total - half;
    p.padsEnd[i] = total - p.padsBegin[i];
  }
  return Status();
}

} // namespace tx8::ref
