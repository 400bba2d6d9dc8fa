//===- NaiveRef.cpp - Naive double-precision references -------------------===//

#include "NaiveRef.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace naive {

using reftest::numel;
using reftest::ravel;
using reftest::unravel;
using tx8::ref::PadMode;
using tx8::ref::ReduceOp;
using tx8::ref::UnaryOp;

Arr arr(const tx8::ref::Tensor &t) { return {t.shape, reftest::values(t)}; }

static Arr zeros(const Shape &s) { return {s, std::vector<double>(static_cast<size_t>(numel(s)), 0.0)}; }

Arr conv(const Arr &x, const Arr &w, const Arr *b, const Shape &strides, const Shape &dil, const Shape &pb,
         const Shape &pe, int64_t group) {
  const size_t nsp = x.shape.size() - 2;
  const int64_t n = x.shape[0], m = w.shape[0], cg = w.shape[1], mg = m / group;
  Shape ys{n, m}, ks(w.shape.begin() + 2, w.shape.end());
  for (size_t d = 0; d < nsp; ++d)
    ys.push_back((x.shape[2 + d] + pb[d] + pe[d] - ((ks[d] - 1) * dil[d] + 1)) / strides[d] + 1);
  Arr y = zeros(ys);
  for (int64_t o = 0; o < numel(ys); ++o) {
    Shape oi = unravel(o, ys);
    const int64_t mm = oi[1], g = mm / mg;
    double acc = b ? b->v[static_cast<size_t>(mm)] : 0.0;
    for (int64_t c = 0; c < cg; ++c)
      for (int64_t kk = 0; kk < numel(ks); ++kk) {
        Shape ki = unravel(kk, ks), xi{oi[0], g * cg + c};
        bool inside = true;
        for (size_t d = 0; d < nsp; ++d) {
          int64_t p = oi[2 + d] * strides[d] - pb[d] + ki[d] * dil[d];
          inside = inside && p >= 0 && p < x.shape[2 + d];
          xi.push_back(p);
        }
        if (!inside)
          continue;
        Shape wi{mm, c};
        wi.insert(wi.end(), ki.begin(), ki.end());
        acc += x.v[static_cast<size_t>(ravel(xi, x.shape))] * w.v[static_cast<size_t>(ravel(wi, w.shape))];
      }
    y.v[static_cast<size_t>(o)] = acc;
  }
  return y;
}

// Scatter form (each input pixel spreads over the output), the adjoint view of a convolution.
Arr convTranspose(const Arr &x, const Arr &w, const Arr *b, const Shape &strides, const Shape &dil, const Shape &pb,
                  const Shape &pe, const Shape &outPad, int64_t group) {
  const size_t nsp = x.shape.size() - 2;
  const int64_t n = x.shape[0], c = x.shape[1], cg = c / group, mg = w.shape[1], m = mg * group;
  Shape ys{n, m}, ks(w.shape.begin() + 2, w.shape.end());
  for (size_t d = 0; d < nsp; ++d)
    ys.push_back(strides[d] * (x.shape[2 + d] - 1) + outPad[d] + (ks[d] - 1) * dil[d] + 1 - pb[d] - pe[d]);
  Arr y = zeros(ys);
  for (int64_t i = 0; i < numel(x.shape); ++i) {
    Shape xi = unravel(i, x.shape);
    const int64_t ci = xi[1], g = ci / cg;
    for (int64_t mo = 0; mo < mg; ++mo)
      for (int64_t kk = 0; kk < numel(ks); ++kk) {
        Shape ki = unravel(kk, ks), yi{xi[0], g * mg + mo};
        bool inside = true;
        for (size_t d = 0; d < nsp; ++d) {
          int64_t p = xi[2 + d] * strides[d] + ki[d] * dil[d] - pb[d];
          inside = inside && p >= 0 && p < ys[2 + d];
          yi.push_back(p);
        }
        if (!inside)
          continue;
        Shape wi{ci, mo};
        wi.insert(wi.end(), ki.begin(), ki.end());
        y.v[static_cast<size_t>(ravel(yi, ys))] +=
            x.v[static_cast<size_t>(i)] * w.v[static_cast<size_t>(ravel(wi, w.shape))];
      }
  }
  if (b)
    for (int64_t o = 0; o < numel(ys); ++o)
      y.v[static_cast<size_t>(o)] += b->v[static_cast<size_t>(unravel(o, ys)[1])];
  return y;
}

Arr pool(bool isMax, const Arr &x, const Shape &kernel, const Shape &strides, const Shape &dil, const Shape &pb,
         const Shape &pe, bool ceilMode, bool countIncludePad) {
  const size_t nsp = x.shape.size() - 2;
  Shape ys{x.shape[0], x.shape[1]};
  for (size_t d = 0; d < nsp; ++d) {
    const double span = static_cast<double>((kernel[d] - 1) * dil[d] + 1);
    const double q = (static_cast<double>(x.shape[2 + d] + pb[d] + pe[d]) - span) / static_cast<double>(strides[d]);
    int64_t o = static_cast<int64_t>(ceilMode ? std::ceil(q) : std::floor(q)) + 1;
    if (ceilMode && (o - 1) * strides[d] >= x.shape[2 + d] + pb[d])
      --o; // last window would start in the end padding
    ys.push_back(o);
  }
  Arr y = zeros(ys);
  for (int64_t o = 0; o < numel(ys); ++o) {
    Shape oi = unravel(o, ys);
    double best = -std::numeric_limits<double>::infinity(), sum = 0;
    int64_t valid = 0, inPadded = 0;
    for (int64_t kk = 0; kk < numel(kernel); ++kk) {
      Shape ki = unravel(kk, kernel), xi{oi[0], oi[1]};
      bool inside = true, inPad = true;
      for (size_t d = 0; d < nsp; ++d) {
        int64_t p = oi[2 + d] * strides[d] - pb[d] + ki[d] * dil[d];
        inside = inside && p >= 0 && p < x.shape[2 + d];
        inPad = inPad && p >= -pb[d] && p < x.shape[2 + d] + pe[d];
        xi.push_back(p);
      }
      inPadded += inPad;
      if (!inside)
        continue;
      double v = x.v[static_cast<size_t>(ravel(xi, x.shape))];
      best = std::max(best, v);
      sum += v;
      ++valid;
    }
    y.v[static_cast<size_t>(o)] =
        isMax ? best : sum / static_cast<double>(countIncludePad ? inPadded : valid);
  }
  return y;
}

Arr matmul(const Arr &a, const Arr &b) {
  Shape as = a.shape, bs = b.shape;
  if (as.size() == 1)
    as.insert(as.begin(), 1);
  if (bs.size() == 1)
    bs.push_back(1);
  const int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  const size_t r = std::max(as.size(), bs.size());
  while (as.size() < r)
    as.insert(as.begin(), 1);
  while (bs.size() < r)
    bs.insert(bs.begin(), 1);
  Shape ys;
  for (size_t d = 0; d + 2 < r; ++d)
    ys.push_back(std::max(as[d], bs[d]));
  ys.push_back(m);
  ys.push_back(n);
  Arr y = zeros(ys);
  for (int64_t o = 0; o < numel(ys); ++o) {
    Shape oi = unravel(o, ys), ai(r), bi(r);
    for (size_t d = 0; d + 2 < r; ++d) {
      ai[d] = as[d] == 1 ? 0 : oi[d];
      bi[d] = bs[d] == 1 ? 0 : oi[d];
    }
    double acc = 0;
    for (int64_t kk = 0; kk < k; ++kk) {
      ai[r - 2] = oi[r - 2];
      ai[r - 1] = kk;
      bi[r - 2] = kk;
      bi[r - 1] = oi[r - 1];
      acc += a.v[static_cast<size_t>(ravel(ai, as))] * b.v[static_cast<size_t>(ravel(bi, bs))];
    }
    y.v[static_cast<size_t>(o)] = acc;
  }
  Shape finalShape = ys;
  if (b.shape.size() == 1)
    finalShape.pop_back();
  if (a.shape.size() == 1)
    finalShape.erase(finalShape.end() - (b.shape.size() == 1 ? 1 : 2));
  y.shape = finalShape;
  return y;
}

Arr gemm(const Arr &a, const Arr &b, const Arr *c, double alpha, double beta, bool transA, bool transB) {
  const int64_t m = transA ? a.shape[1] : a.shape[0], k = transA ? a.shape[0] : a.shape[1];
  const int64_t n = transB ? b.shape[0] : b.shape[1];
  Arr y = zeros({m, n});
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t kk = 0; kk < k; ++kk)
        acc += a.v[static_cast<size_t>(transA ? kk * m + i : i * k + kk)] *
               b.v[static_cast<size_t>(transB ? j * k + kk : kk * n + j)];
      double cv = 0;
      if (c) {
        // C broadcast to (m, n), right-aligned.
        Shape cs = c->shape;
        int64_t ci = 0;
        if (cs.size() == 2)
          ci = (cs[0] == 1 ? 0 : i) * cs[1] + (cs[1] == 1 ? 0 : j);
        else if (cs.size() == 1)
          ci = cs[0] == 1 ? 0 : j;
        cv = c->v[static_cast<size_t>(ci)];
      }
      y.v[static_cast<size_t>(i * n + j)] = alpha * acc + beta * cv;
    }
  return y;
}

Arr softmax(const Arr &x, int64_t axis, bool log) {
  const int64_t r = static_cast<int64_t>(x.shape.size());
  if (axis < 0)
    axis += r;
  Arr y = zeros(x.shape);
  const int64_t len = x.shape[static_cast<size_t>(axis)];
  for (int64_t o = 0; o < numel(x.shape); ++o) {
    Shape oi = unravel(o, x.shape);
    double mx = -std::numeric_limits<double>::infinity(), sum = 0;
    Shape ii = oi;
    for (int64_t j = 0; j < len; ++j) {
      ii[static_cast<size_t>(axis)] = j;
      mx = std::max(mx, x.v[static_cast<size_t>(ravel(ii, x.shape))]);
    }
    for (int64_t j = 0; j < len; ++j) {
      ii[static_cast<size_t>(axis)] = j;
      sum += std::exp(x.v[static_cast<size_t>(ravel(ii, x.shape))] - mx);
    }
    const double xv = x.v[static_cast<size_t>(o)] - mx;
    y.v[static_cast<size_t>(o)] = log ? xv - std::log(sum) : std::exp(xv) / sum;
  }
  return y;
}

Arr batchNorm(const Arr &x, const Arr &scale, const Arr &bias, const Arr &mean, const Arr &var, double eps) {
  Arr y = zeros(x.shape);
  for (int64_t o = 0; o < numel(x.shape); ++o) {
    const size_t c = static_cast<size_t>(unravel(o, x.shape)[1]);
    y.v[static_cast<size_t>(o)] =
        scale.v[c] * (x.v[static_cast<size_t>(o)] - mean.v[c]) / std::sqrt(var.v[c] + eps) + bias.v[c];
  }
  return y;
}

Arr layerNorm(const Arr &x, const Arr &scale, const Arr *bias, int64_t axis, double eps) {
  const int64_t r = static_cast<int64_t>(x.shape.size());
  if (axis < 0)
    axis += r;
  Shape norm(x.shape.begin() + axis, x.shape.end());
  const int64_t inner = numel(norm), outer = numel(x.shape) / std::max<int64_t>(inner, 1);
  auto param = [&](const Arr &p, const Shape &ni) {
    // p broadcast (right-aligned) onto the normalized shape
    Shape pi(p.shape.size());
    for (size_t d = 0; d < p.shape.size(); ++d)
      pi[d] = p.shape[d] == 1 ? 0 : ni[ni.size() - p.shape.size() + d];
    return p.v[static_cast<size_t>(ravel(pi, p.shape))];
  };
  Arr y = zeros(x.shape);
  for (int64_t o = 0; o < outer; ++o) {
    double mean = 0, var = 0;
    for (int64_t i = 0; i < inner; ++i)
      mean += x.v[static_cast<size_t>(o * inner + i)];
    mean /= static_cast<double>(inner);
    for (int64_t i = 0; i < inner; ++i) {
      double d = x.v[static_cast<size_t>(o * inner + i)] - mean;
      var += d * d;
    }
    var /= static_cast<double>(inner);
    for (int64_t i = 0; i < inner; ++i) {
      Shape ni = unravel(i, norm);
      double v = (x.v[static_cast<size_t>(o * inner + i)] - mean) / std::sqrt(var + eps) * param(scale, ni);
      if (bias)
        v += param(*bias, ni);
      y.v[static_cast<size_t>(o * inner + i)] = v;
    }
  }
  return y;
}

Arr reduce(ReduceOp op, const Arr &x, const Shape &axes, bool keepDims) {
  const size_t r = x.shape.size();
  std::vector<bool> red(r, axes.empty());
  for (int64_t a : axes)
    red[static_cast<size_t>(a < 0 ? a + static_cast<int64_t>(r) : a)] = true;
  Shape keep = x.shape, out;
  for (size_t d = 0; d < r; ++d) {
    if (red[d])
      keep[d] = 1;
    if (!red[d] || keepDims)
      out.push_back(keep[d]);
  }
  const size_t no = static_cast<size_t>(numel(keep));
  std::vector<std::vector<double>> groups(no);
  for (int64_t i = 0; i < numel(x.shape); ++i) {
    Shape xi = unravel(i, x.shape);
    for (size_t d = 0; d < r; ++d)
      if (red[d])
        xi[d] = 0;
    groups[static_cast<size_t>(ravel(xi, keep))].push_back(x.v[static_cast<size_t>(i)]);
  }
  Arr y{out, std::vector<double>(no)};
  for (size_t o = 0; o < no; ++o) {
    const auto &g = groups[o];
    double acc;
    switch (op) {
    case ReduceOp::Sum: acc = 0; for (double v : g) acc += v; break;
    case ReduceOp::Mean: acc = 0; for (double v : g) acc += v; acc /= static_cast<double>(g.size()); break;
    case ReduceOp::Max: acc = *std::max_element(g.begin(), g.end()); break;
    case ReduceOp::Min: acc = *std::min_element(g.begin(), g.end()); break;
    case ReduceOp::Prod: acc = 1; for (double v : g) acc *= v; break;
    case ReduceOp::SumSquare: acc = 0; for (double v : g) acc += v * v; break;
    case ReduceOp::L1: acc = 0; for (double v : g) acc += std::fabs(v); break;
    case ReduceOp::L2: acc = 0; for (double v : g) acc += v * v; acc = std::sqrt(acc); break;
    case ReduceOp::LogSum: acc = 0; for (double v : g) acc += v; acc = std::log(acc); break;
    case ReduceOp::LogSumExp: acc = 0; for (double v : g) acc += std::exp(v); acc = std::log(acc); break;
    default: acc = 0;
    }
    y.v[o] = acc;
  }
  return y;
}

Arr binary(const std::function<double(double, double)> &f, const Arr &a, const Arr &b) {
  const size_t r = std::max(a.shape.size(), b.shape.size());
  Shape as(r - a.shape.size(), 1), bs(r - b.shape.size(), 1);
  as.insert(as.end(), a.shape.begin(), a.shape.end());
  bs.insert(bs.end(), b.shape.begin(), b.shape.end());
  Shape ys(r);
  for (size_t d = 0; d < r; ++d)
    ys[d] = as[d] == 1 ? bs[d] : as[d];
  Arr y = zeros(ys);
  for (int64_t o = 0; o < numel(ys); ++o) {
    Shape oi = unravel(o, ys), ai(r), bi(r);
    for (size_t d = 0; d < r; ++d) {
      ai[d] = oi[d] % as[d];
      bi[d] = oi[d] % bs[d];
    }
    y.v[static_cast<size_t>(o)] = f(a.v[static_cast<size_t>(ravel(ai, as))], b.v[static_cast<size_t>(ravel(bi, bs))]);
  }
  return y;
}

double unary(UnaryOp op, double x, double a, double b) {
  switch (op) {
  case UnaryOp::Relu: return x > 0 ? x : 0;
  case UnaryOp::LeakyRelu: return x >= 0 ? x : a * x;
  case UnaryOp::Elu: return x > 0 ? x : a * (std::exp(x) - 1);
  case UnaryOp::Selu: return b * (x > 0 ? x : a * (std::exp(x) - 1));
  case UnaryOp::Sigmoid: return 1 / (1 + std::exp(-x));
  case UnaryOp::Tanh: return std::tanh(x);
  case UnaryOp::Softplus: return std::log1p(std::exp(x));
  case UnaryOp::Exp: return std::exp(x);
  case UnaryOp::Log: return std::log(x);
  case UnaryOp::Abs: return std::fabs(x);
  case UnaryOp::Sqrt: return std::sqrt(x);
  case UnaryOp::Square: return x * x;
  // 1 + erf(t) = erfc(-t) and 1 + tanh(u) = e^u / cosh(u): the same functions without the
  // cancellation that would make a double reference itself inaccurate in the x << 0 tail.
  case UnaryOp::GeluErf: return 0.5 * x * std::erfc(-x / std::sqrt(2.0));
  case UnaryOp::GeluTanh: {
    const double u = std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x);
    return 0.5 * x * std::exp(u) / std::cosh(u);
  }
  case UnaryOp::HardSigmoid: return std::max(0.0, std::min(1.0, a * x + b));
  case UnaryOp::HardSwish: return x * std::max(0.0, std::min(1.0, x / 6 + 0.5));
  case UnaryOp::Swish: return x / (1 + std::exp(-a * x));
  case UnaryOp::Mish: return x * std::tanh(std::log1p(std::exp(x)));
  case UnaryOp::Clip: return std::min(std::max(x, a), b);
  case UnaryOp::Round: return std::nearbyint(x);
  case UnaryOp::Softsign: return x / (1 + std::fabs(x));
  case UnaryOp::Neg: return -x;
  case UnaryOp::Reciprocal: return 1 / x;
  case UnaryOp::ThresholdedRelu: return x > a ? x : 0;
  case UnaryOp::Celu: return std::max(0.0, x) + std::min(0.0, a * (std::exp(x / a) - 1));
  case UnaryOp::Shrink: return x < -b ? x + a : x > b ? x - a : 0;
  case UnaryOp::Sin: return std::sin(x);
  case UnaryOp::Cos: return std::cos(x);
  case UnaryOp::Tan: return std::tan(x);
  case UnaryOp::Asin: return std::asin(x);
  case UnaryOp::Acos: return std::acos(x);
  case UnaryOp::Atan: return std::atan(x);
  case UnaryOp::Sinh: return std::sinh(x);
  case UnaryOp::Cosh: return std::cosh(x);
  case UnaryOp::Asinh: return std::asinh(x);
  case UnaryOp::Acosh: return std::acosh(x);
  case UnaryOp::Atanh: return std::atanh(x);
  case UnaryOp::Floor: return std::floor(x);
  case UnaryOp::Ceil: return std::ceil(x);
  case UnaryOp::Sign: return x > 0 ? 1 : x < 0 ? -1 : x;
  }
  return 0;
}

Arr prelu(const Arr &x, const Arr &slope) {
  return binary([](double v, double s) { return v < 0 ? s * v : v; }, x, slope);
}

Arr transpose(const Arr &x, const Shape &perm) {
  Shape ys(perm.size());
  for (size_t i = 0; i < perm.size(); ++i)
    ys[i] = x.shape[static_cast<size_t>(perm[i])];
  Arr y = zeros(ys);
  for (int64_t o = 0; o < numel(ys); ++o) {
    Shape oi = unravel(o, ys), xi(perm.size());
    for (size_t i = 0; i < perm.size(); ++i)
      xi[static_cast<size_t>(perm[i])] = oi[i];
    y.v[static_cast<size_t>(o)] = x.v[static_cast<size_t>(ravel(xi, x.shape))];
  }
  return y;
}

// Python's slice(start, stop, step).indices(dim), with one ONNX difference: the ONNX spec clamps a
// backward (step < 0) start into [0, dim - 1], so a start before the beginning selects element 0
// where Python would select nothing.
static std::vector<int64_t> sliceIndices(int64_t dim, int64_t start, int64_t stop, int64_t step) {
  auto adjust = [&](int64_t v, bool isStart) {
    const int64_t lower = step > 0 || isStart ? 0 : -1, upper = step > 0 ? dim : dim - 1;
    if (v < 0) {
      v = v < std::numeric_limits<int64_t>::min() + dim ? lower : v + dim;
      if (v < lower)
        v = lower;
    } else if (v > upper) {
      v = upper;
    }
    return v;
  };
  std::vector<int64_t> r;
  if (dim == 0)
    return r;
  for (int64_t i = adjust(start, true), e = adjust(stop, false); step > 0 ? i < e : i > e; i += step)
    r.push_back(i);
  return r;
}

Arr slice(const Arr &x, const Shape &starts, const Shape &ends, const Shape &axes, const Shape &steps) {
  const int64_t r = static_cast<int64_t>(x.shape.size());
  std::vector<std::vector<int64_t>> idx(static_cast<size_t>(r));
  for (int64_t d = 0; d < r; ++d)
    for (int64_t i = 0; i < x.shape[static_cast<size_t>(d)]; ++i)
      idx[static_cast<size_t>(d)].push_back(i);
  for (size_t i = 0; i < starts.size(); ++i) {
    int64_t ax = axes.empty() ? static_cast<int64_t>(i) : axes[i];
    if (ax < 0)
      ax += r;
    idx[static_cast<size_t>(ax)] =
        sliceIndices(x.shape[static_cast<size_t>(ax)], starts[i], ends[i], steps.empty() ? 1 : steps[i]);
  }
  Shape ys;
  for (auto &v : idx)
    ys.push_back(static_cast<int64_t>(v.size()));
  Arr y = zeros(ys);
  for (int64_t o = 0; o < numel(ys); ++o) {
    Shape oi = unravel(o, ys), xi(static_cast<size_t>(r));
    for (size_t d = 0; d < static_cast<size_t>(r); ++d)
      xi[d] = idx[d][static_cast<size_t>(oi[d])];
    y.v[static_cast<size_t>(o)] = x.v[static_cast<size_t>(ravel(xi, x.shape))];
  }
  return y;
}

Arr gather(const Arr &data, const std::vector<int64_t> &indices, const Shape &indShape, int64_t axis) {
  const int64_t r = static_cast<int64_t>(data.shape.size());
  if (axis < 0)
    axis += r;
  Shape ys(data.shape.begin(), data.shape.begin() + axis);
  ys.insert(ys.end(), indShape.begin(), indShape.end());
  ys.insert(ys.end(), data.shape.begin() + axis + 1, data.shape.end());
  Arr y = zeros(ys);
  const size_t q = indShape.size();
  for (int64_t o = 0; o < numel(ys); ++o) {
    Shape oi = unravel(o, ys);
    Shape ii(oi.begin() + axis, oi.begin() + axis + static_cast<int64_t>(q));
    int64_t j = indices[static_cast<size_t>(ravel(ii, indShape))];
    if (j < 0)
      j += data.shape[static_cast<size_t>(axis)];
    Shape di(oi.begin(), oi.begin() + axis);
    di.push_back(j);
    di.insert(di.end(), oi.begin() + axis + static_cast<int64_t>(q), oi.end());
    y.v[static_cast<size_t>(o)] = data.v[static_cast<size_t>(ravel(di, data.shape))];
  }
  return y;
}

Arr pad(const Arr &x, const Shape &pads, PadMode mode, double value) {
  const size_t r = x.shape.size();
  Shape ys(r);
  for (size_t d = 0; d < r; ++d)
    ys[d] = x.shape[d] + pads[d] + pads[r + d];
  Arr y = zeros(ys);
  for (int64_t o = 0; o < numel(ys); ++o) {
    Shape oi = unravel(o, ys), xi(r);
    bool constant = false;
    for (size_t d = 0; d < r; ++d) {
      int64_t j = oi[d] - pads[d];
      const int64_t n = x.shape[d];
      if (j < 0 || j >= n) {
        if (mode == PadMode::Constant)
          constant = true;
        else if (mode == PadMode::Edge)
          j = j < 0 ? 0 : n - 1;
        else
          // Bounce between the walls until inside (NumPy 'reflect': the edge is not repeated).
          while (n > 1 && (j < 0 || j >= n))
            j = j < 0 ? -j : 2 * (n - 1) - j;
        if (n == 1)
          j = 0;
      }
      xi[d] = j;
    }
    y.v[static_cast<size_t>(o)] = constant ? value : x.v[static_cast<size_t>(ravel(xi, x.shape))];
  }
  return y;
}

} // namespace naive
