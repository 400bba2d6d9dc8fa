//===- Gemm.cpp - MatMul and Gemm -----------------------------------------===//

#include "Common.h"
#include "Dnnl.h"
#include "tx8/Reference/Kernels.h"

#include <algorithm>
#include <cmath>

namespace tx8::ref {

using namespace detail;

namespace {

/// int8 x int8 -> int32 (the NE's int8 path): the exact sums in int64, wrapped to 32 bits. Batch dims broadcast
/// as numpy's; a and b at least 2-D.
Status matmulInt8(const char *op, const Tensor &a, const Tensor &b, Tensor &y) {
  if (a.rank() < 2 || b.rank() < 2)
    return err(op, "int8 operands must have rank >= 2");
  const int64_t m = a.shape[a.shape.size() - 2], k = a.shape.back(), n = b.shape.back();
  if (b.shape[b.shape.size() - 2] != k)
    return err(op, "inner dims differ: A " + shapeToString(a.shape) + ", B " + shapeToString(b.shape));
  std::vector<int64_t> batch;
  Status s = broadcastShapes(std::vector<int64_t>(a.shape.begin(), a.shape.end() - 2),
                             std::vector<int64_t>(b.shape.begin(), b.shape.end() - 2), batch);
  if (!s.ok())
    return err(op, "batch dims: " + s.message());
  std::vector<int64_t> ys = batch;
  ys.push_back(m);
  ys.push_back(n);
  Tensor res(DType::I32, ys);
  const std::vector<int64_t> as(a.shape.begin(), a.shape.end() - 2), bs(b.shape.begin(), b.shape.end() - 2);
  const std::vector<int64_t> sa = broadcastStrides(as, batch), sb = broadcastStrides(bs, batch);
  const int8_t *av = a.data<int8_t>(), *bv = b.data<int8_t>();
  int32_t *yv = res.data<int32_t>();
  const int64_t matrices = product(batch, 0, batch.size());
  for (int64_t t = 0; t < matrices; ++t) {
    int64_t rest = t, oa = 0, ob = 0;
    for (size_t d = batch.size(); d-- > 0;) {
      const int64_t i = rest % batch[d];
      rest /= batch[d];
      oa += i * sa[d], ob += i * sb[d];
    }
    const int8_t *am = av + oa * m * k, *bm = bv + ob * k * n;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        int64_t acc = 0;
        for (int64_t p = 0; p < k; ++p)
          acc += static_cast<int64_t>(am[i * k + p]) * bm[p * n + j];
        yv[(t * m + i) * n + j] = static_cast<int32_t>(static_cast<uint32_t>(acc));
      }
  }
  y = std::move(res);
  return Status();
}

} // namespace

Status matmul(const Tensor &a, const Tensor &b, Tensor &y) {
  const char *op = "MatMul";
  if (a.dtype != b.dtype)
    return err(op, std::string("operand dtypes differ (") + dtypeName(a.dtype) + " and " + dtypeName(b.dtype) + ")");
  if (a.dtype == DType::I8)
    return matmulInt8(op, a, b, y);
  std::vector<float> av, bv;
  Status s = floatInput(op, "A", a, av);
  if (s.ok())
    s = floatInput(op, "B", b, bv);
  if (!s.ok())
    return s;
  if (a.rank() < 1 || b.rank() < 1)
    return err(op, "operands must have rank >= 1");
  // NumPy promotion of 1-D operands: A [K] -> [1, K], B [K] -> [K, 1]; the added dim is dropped after.
  std::vector<int64_t> as = a.shape, bs = b.shape;
  const bool dropM = as.size() == 1, dropN = bs.size() == 1;
  if (dropM)
    as.insert(as.begin(), 1);
  if (dropN)
    bs.push_back(1);
  const int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  if (bs[bs.size() - 2] != k)
    return err(op, "inner dims differ: A " + shapeToString(a.shape) + ", B " + shapeToString(b.shape));
  std::vector<int64_t> batch;
  s = broadcastShapes(std::vector<int64_t>(as.begin(), as.end() - 2), std::vector<int64_t>(bs.begin(), bs.end() - 2),
                      batch);
  if (!s.ok())
    return err(op, "batch dims: " + s.message());
  const size_t r = batch.size() + 2;
  as.insert(as.begin(), r - as.size(), 1);
  bs.insert(bs.begin(), r - bs.size(), 1);
  std::vector<int64_t> ds = batch;
  ds.push_back(m);
  ds.push_back(n);

  std::vector<float> out(static_cast<size_t>(product(ds, 0, ds.size())), 0.f);
  if (!out.empty() && k > 0) {
    s = dnnlx::run(op, [&]() -> Status {
      // oneDNN matmul broadcasts batch dims of size 1 in either source.
      auto amd = dnnlx::plainDesc(dnnlx::toDims(as));
      auto bmd = dnnlx::plainDesc(dnnlx::toDims(bs));
      auto dmd = dnnlx::plainDesc(dnnlx::toDims(ds));
      dnnl::matmul::desc d(amd, bmd, dmd);
      dnnl::matmul prim(dnnl::matmul::primitive_desc(d, dnnlx::cpuEngine()));
      dnnlx::execute(prim, {{DNNL_ARG_SRC, dnnlx::wrap(amd, av.data())},
                            {DNNL_ARG_WEIGHTS, dnnlx::wrap(bmd, bv.data())},
                            {DNNL_ARG_DST, dnnlx::wrap(dmd, out.data())}});
      return Status();
    });
    if (!s.ok())
      return s;
  }
  if (dropN)
    ds.pop_back();
  if (dropM)
    ds.erase(ds.end() - (dropN ? 1 : 2));
  y = fromFloatVector(out, ds, a.dtype);
  return Status();
}

Status gemm(const Tensor &a, const Tensor &b, const Tensor *c, const GemmParams &p, Tensor &y) {
  const char *op = "Gemm";
  if (a.dtype != b.dtype || (c && c->dtype != a.dtype))
    return err(op, "A, B and C must share one dtype");
  std::vector<float> av, bv, cv;
  Status s = floatInput(op, "A", a, av);
  if (s.ok()) s = floatInput(op, "B", b, bv);
  if (s.ok() && c) s = floatInput(op, "C", *c, cv);
  if (!s.ok())
    return s;
  if (a.rank() != 2 || b.rank() != 2)
    return err(op, "A and B must be 2-D, got " + shapeToString(a.shape) + " and " + shapeToString(b.shape));
  const int64_t m = p.transA ? a.shape[1] : a.shape[0], k = p.transA ? a.shape[0] : a.shape[1];
  const int64_t kb = p.transB ? b.shape[1] : b.shape[0], n = p.transB ? b.shape[0] : b.shape[1];
  if (k != kb)
    return err(op, "inner dims differ: A' is " + std::to_string(m) + " x " + std::to_string(k) + ", B' is " +
                       std::to_string(kb) + " x " + std::to_string(n));
  const std::vector<int64_t> ys{m, n};
  std::vector<float> out(static_cast<size_t>(m * n), 0.f);
  const bool useC = c && p.beta != 0.f;
  if (useC) {
    std::vector<int64_t> bshape;
    Status bs = broadcastShapes(c->shape, ys, bshape);
    if (!bs.ok() || bshape != ys)
      return err(op, "C shape " + shapeToString(c->shape) + " does not broadcast to " + shapeToString(ys));
    out = toFloatVector(broadcastTo(fromFloatVector(cv, c->shape, DType::F32), ys));
  }
  if (out.empty()) {
    // nothing to compute
  } else if (k == 0) {
    for (float &e : out)
      e *= p.beta; // A' B' is all zeros
    if (!useC)
      std::fill(out.begin(), out.end(), 0.f);
  } else {
    s = dnnlx::run(op, [&]() -> Status {
      // Transposition through strides: A stored K x M read as M x K, B stored N x K read as K x N.
      auto amd = p.transA ? dnnlx::stridedDesc({m, k}, {1, m}) : dnnlx::plainDesc({m, k});
      auto bmd = p.transB ? dnnlx::stridedDesc({k, n}, {1, k}) : dnnlx::plainDesc({k, n});
      auto dmd = dnnlx::plainDesc({m, n});
      dnnl::primitive_attr attr;
      if (p.alpha != 1.f)
        attr.set_output_scales(0, {p.alpha}); // applied to A'B' before the sum post-op
      if (useC) {
        dnnl::post_ops po;
        po.append_sum(p.beta); // dst = alpha A'B' + beta * (C already in dst)
        attr.set_post_ops(po);
      }
      dnnl::matmul::desc d(amd, bmd, dmd);
      dnnl::matmul prim(dnnl::matmul::primitive_desc(d, attr, dnnlx::cpuEngine()));
      dnnlx::execute(prim, {{DNNL_ARG_SRC, dnnlx::wrap(amd, av.data())},
                            {DNNL_ARG_WEIGHTS, dnnlx::wrap(bmd, bv.data())},
                            {DNNL_ARG_DST, dnnlx::wrap(dmd, out.data())}});
      return Status();
    });
    if (!s.ok())
      return s;
  }
  y = fromFloatVector(out, ys, a.dtype);
  return Status();
}

Status attention(const Tensor &q, const Tensor &k, const Tensor &v, const Tensor *mask, float scale, bool causal,
                 DType outType, Tensor &y) {
  const char *op = "Attention";
  std::vector<float> qv, kv, vv, mv;
  Status s = floatInput(op, "Q", q, qv);
  if (s.ok())
    s = floatInput(op, "K", k, kv);
  if (s.ok())
    s = floatInput(op, "V", v, vv);
  if (s.ok() && mask)
    s = floatInput(op, "mask", *mask, mv);
  if (!s.ok())
    return s;
  if (q.rank() < 2 || k.rank() < 2 || v.rank() < 2)
    return err(op, "Q, K and V must have rank >= 2");
  const int64_t sq = q.shape[q.rank() - 2], d = q.shape.back(), skv = k.shape[k.rank() - 2], dv = v.shape.back();
  if (k.shape.back() != d || v.shape[v.rank() - 2] != skv)
    return err(op, "shapes Q " + shapeToString(q.shape) + ", K " + shapeToString(k.shape) + ", V " +
                       shapeToString(v.shape) + " do not match");
  std::vector<int64_t> batch;
  s = broadcastShapes(std::vector<int64_t>(q.shape.begin(), q.shape.end() - 2),
                      std::vector<int64_t>(k.shape.begin(), k.shape.end() - 2), batch);
  if (s.ok())
    s = broadcastShapes(batch, std::vector<int64_t>(v.shape.begin(), v.shape.end() - 2), batch);
  if (!s.ok())
    return err(op, "batch dims: " + s.message());
  std::vector<int64_t> ys = batch, scores = batch;
  ys.push_back(sq), ys.push_back(dv);
  scores.push_back(sq), scores.push_back(skv);
  std::vector<int64_t> qFull = batch, kFull = batch, vFull = batch;
  qFull.push_back(sq), qFull.push_back(d), kFull.push_back(skv), kFull.push_back(d);
  vFull.push_back(skv), vFull.push_back(dv);
  if (mask) {
    std::vector<int64_t> joint;
    if (!broadcastShapes(mask->shape, scores, joint).ok() || joint != scores)
      return err(op, "mask " + shapeToString(mask->shape) + " does not broadcast to the scores " +
                         shapeToString(scores));
  }
  std::vector<int64_t> qst = broadcastStrides(q.shape, qFull), kst = broadcastStrides(k.shape, kFull);
  std::vector<int64_t> vst = broadcastStrides(v.shape, vFull);
  std::vector<int64_t> mst = mask ? broadcastStrides(mask->shape, scores) : std::vector<int64_t>();
  const size_t nb = batch.size();
  int64_t matrices = 1;
  for (int64_t e : batch)
    matrices *= e;
  std::vector<float> out(static_cast<size_t>(matrices * sq * dv));
  std::vector<double> row(static_cast<size_t>(skv));
  for (int64_t o = 0; o < matrices; ++o) {
    int64_t qo = 0, ko = 0, vo = 0, mo = 0, rest = o;
    for (size_t i = nb; i-- > 0;) {
      int64_t at = rest % batch[i];
      rest /= batch[i];
      qo += at * qst[i], ko += at * kst[i], vo += at * vst[i];
      if (mask)
        mo += at * mst[i];
    }
    for (int64_t i = 0; i < sq; ++i) {
      double mx = -INFINITY, sum = 0;
      for (int64_t j = 0; j < skv; ++j) {
        double acc = 0;
        for (int64_t t = 0; t < d; ++t)
          acc += static_cast<double>(qv[qo + i * qst[nb] + t * qst[nb + 1]]) * kv[ko + j * kst[nb] + t * kst[nb + 1]];
        double x = scale * acc;
        if (mask)
          x += mv[mo + i * mst[nb] + j * mst[nb + 1]];
        if (causal && j > i + (skv - sq))
          x = -INFINITY;
        row[j] = x;
        mx = std::max(mx, x);
      }
      for (int64_t j = 0; j < skv; ++j)
        sum += row[j] = std::exp(row[j] - mx);
      for (int64_t e = 0; e < dv; ++e) {
        double acc = 0;
        for (int64_t j = 0; j < skv; ++j)
          acc += row[j] * vv[vo + j * vst[nb] + e * vst[nb + 1]];
        out[(o * sq + i) * dv + e] = static_cast<float>(acc / sum);
      }
    }
  }
  y = fromFloatVector(out, ys, outType);
  return Status();
}

} // namespace tx8::ref
