//===- Reduce.cpp - Reductions --------------------------------------------===//

#include "Common.h"
#include "Dnnl.h"
#include "tx8/Reference/Kernels.h"

#include <cmath>
#include <limits>

namespace tx8::ref {

using namespace detail;

const char *reduceOpName(ReduceOp op) {
  switch (op) {
  case ReduceOp::Sum: return "ReduceSum";
  case ReduceOp::Mean: return "ReduceMean";
  case ReduceOp::Max: return "ReduceMax";
  case ReduceOp::Min: return "ReduceMin";
  case ReduceOp::Prod: return "ReduceProd";
  case ReduceOp::SumSquare: return "ReduceSumSquare";
  case ReduceOp::L1: return "ReduceL1";
  case ReduceOp::L2: return "ReduceL2";
  case ReduceOp::LogSum: return "ReduceLogSum";
  case ReduceOp::LogSumExp: return "ReduceLogSumExp";
  }
  return "?";
}

namespace {

// Result of reducing an empty set (ONNX / NumPy identities).
float emptyReduction(ReduceOp op) {
  const float inf = std::numeric_limits<float>::infinity();
  switch (op) {
  case ReduceOp::Mean: return std::numeric_limits<float>::quiet_NaN();
  case ReduceOp::Max: case ReduceOp::LogSum: case ReduceOp::LogSumExp: return -inf;
  case ReduceOp::Min: return inf;
  case ReduceOp::Prod: return 1.f;
  default: return 0.f;
  }
}

// Reducing a single element (every reduced dim has size 1).
float singleReduction(ReduceOp op, float v) {
  switch (op) {
  case ReduceOp::SumSquare: return v * v;
  case ReduceOp::L1: case ReduceOp::L2: return std::fabs(v);
  case ReduceOp::LogSum: return std::log(v);
  default: return v;
  }
}

} // namespace

Status reduce(ReduceOp op, const Tensor &x, const std::vector<int64_t> &axes, bool keepDims, Tensor &y,
              bool noopWithEmptyAxes) {
  const char *name = reduceOpName(op);
  std::vector<float> xv;
  Status s = floatInput(name, "data", x, xv);
  if (!s.ok())
    return s;
  const int64_t r = x.rank();
  if (axes.empty() && noopWithEmptyAxes) {
    y = x;
    return Status();
  }
  std::vector<bool> reduced(static_cast<size_t>(r), axes.empty());
  for (int64_t a : axes) {
    int64_t ax;
    s = normalizeAxis(name, a, r, ax);
    if (!s.ok())
      return s;
    if (reduced[static_cast<size_t>(ax)])
      return err(name, "axis " + std::to_string(a) + " is listed twice");
    reduced[static_cast<size_t>(ax)] = true;
  }
  std::vector<int64_t> keep = x.shape, outShape;
  for (size_t i = 0; i < keep.size(); ++i) {
    if (reduced[i])
      keep[i] = 1;
    if (!reduced[i] || keepDims)
      outShape.push_back(keep[i]);
  }
  const int64_t nOut = product(keep, 0, keep.size());
  std::vector<float> out(static_cast<size_t>(nOut));

  if (nOut == 0) {
    // nothing to compute
  } else if (xv.empty()) {
    std::fill(out.begin(), out.end(), emptyReduction(op));
  } else if (keep == x.shape) {
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = singleReduction(op, xv[i]);
  } else if (op == ReduceOp::LogSumExp) {
    // log(sum(exp(x - max))) + max: no overflow for large inputs (ONNX's formula without the shift
    // overflows in f32 already for x > 88).
    std::vector<int64_t> toOut = broadcastStrides(keep, x.shape);
    std::vector<double> mx(out.size(), -std::numeric_limits<double>::infinity()), sum(out.size(), 0.0);
    forEachStrided(x.shape, toOut, [&](int64_t i, int64_t o) {
      double &m = mx[static_cast<size_t>(o)];
      m = std::max(m, static_cast<double>(xv[static_cast<size_t>(i)]));
    });
    forEachStrided(x.shape, toOut, [&](int64_t i, int64_t o) {
      double m = mx[static_cast<size_t>(o)];
      if (std::isfinite(m))
        sum[static_cast<size_t>(o)] += std::exp(static_cast<double>(xv[static_cast<size_t>(i)]) - m);
    });
    for (size_t o = 0; o < out.size(); ++o)
      out[o] = static_cast<float>(std::isfinite(mx[o]) ? std::log(sum[o]) + mx[o] : mx[o]);
  } else {
    s = dnnlx::run(name, [&]() -> Status {
      using A = dnnl::algorithm;
      A alg = A::reduction_sum;
      float p = 0.f;
      switch (op) {
      case ReduceOp::Sum: case ReduceOp::LogSum: alg = A::reduction_sum; break;
      case ReduceOp::Mean: alg = A::reduction_mean; break;
      case ReduceOp::Max: alg = A::reduction_max; break;
      case ReduceOp::Min: alg = A::reduction_min; break;
      case ReduceOp::Prod: alg = A::reduction_mul; break;
      case ReduceOp::SumSquare: alg = A::reduction_norm_lp_power_p_sum; p = 2.f; break;
      case ReduceOp::L1: alg = A::reduction_norm_lp_sum; p = 1.f; break;
      case ReduceOp::L2: alg = A::reduction_norm_lp_sum; p = 2.f; break;
      case ReduceOp::LogSumExp: break; // handled above
      }
      auto xmd = dnnlx::plainDesc(dnnlx::toDims(x.shape));
      auto ymd = dnnlx::plainDesc(dnnlx::toDims(keep));
      dnnl::reduction::desc d(alg, xmd, ymd, p, 0.f);
      dnnl::reduction prim(dnnl::reduction::primitive_desc(d, dnnlx::cpuEngine()));
      dnnlx::execute(prim, {{DNNL_ARG_SRC, dnnlx::wrap(xmd, xv.data())}, {DNNL_ARG_DST, dnnlx::wrap(ymd, out.data())}});
      return Status();
    });
    if (!s.ok())
      return s;
    // Not oneDNN's eltwise_log post-op: its relative error near 1 is ~0.1 (see Eltwise.cpp).
    if (op == ReduceOp::LogSum)
      for (float &v : out)
        v = std::log(v);
  }
  // numpy: a NaN anywhere in a reduced slice makes it NaN (oneDNN's max / min skip it).
  if (nOut > 0 && keep != x.shape)
    forEachStrided(x.shape, broadcastStrides(keep, x.shape), [&](int64_t i, int64_t o) {
      if (std::isnan(xv[static_cast<size_t>(i)]))
        out[static_cast<size_t>(o)] = std::numeric_limits<float>::quiet_NaN();
    });
  y = fromFloatVector(out, outShape, x.dtype);
  return Status();
}

Status argReduce(bool isMax, const Tensor &x, int64_t axis, bool keepDims, bool selectLast, Tensor &y) {
  const char *op = isMax ? "ArgMax" : "ArgMin";
  Status s = checkTensor(op, "X", x);
  if (!s.ok())
    return s;
  if (!isFloatType(x.dtype))
    return err(op, std::string("takes a float tensor, not ") + dtypeName(x.dtype));
  int64_t rank = x.rank(), a = 0;
  s = normalizeAxis(op, axis, std::max<int64_t>(rank, 1), a);
  if (!s.ok())
    return s;
  std::vector<int64_t> shape = x.shape.empty() ? std::vector<int64_t>{1} : x.shape;
  const int64_t extent = shape[static_cast<size_t>(a)];
  if (extent == 0)
    return err(op, "the axis is empty");
  const int64_t outer = product(shape, 0, static_cast<size_t>(a)),
                inner = product(shape, static_cast<size_t>(a) + 1, shape.size());
  std::vector<int64_t> outShape = shape;
  outShape[static_cast<size_t>(a)] = 1;
  if (!keepDims)
    outShape.erase(outShape.begin() + a);
  Tensor out(DType::I64, outShape);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      int64_t best = 0;
      double bestValue = elementAsDouble(x, o * extent * inner + i);
      for (int64_t k = 1; k < extent; ++k) {
        double v = elementAsDouble(x, (o * extent + k) * inner + i);
        bool better = std::isnan(bestValue) ? selectLast && std::isnan(v)
                                            : std::isnan(v) || (isMax ? v > bestValue : v < bestValue) ||
                                                  (selectLast && v == bestValue);
        if (better) {
          best = k;
          bestValue = v;
        }
      }
      out.data<int64_t>()[o * inner + i] = best;
    }
  y = std::move(out);
  return Status();
}

} // namespace tx8::ref
