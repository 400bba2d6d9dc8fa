//===- Gemm.cpp - MatMul and Gemm -----------------------------------------===//

#include "Common.h"
#include "Dnnl.h"
#include "tx8/Reference/Kernels.h"

namespace tx8::ref {

using namespace detail;

Status matmul(const Tensor &a, const Tensor &b, Tensor &y) {
  const char *op = "MatMul";
  if (a.dtype != b.dtype)
    return err(op, std::string("operand dtypes differ (") + dtypeName(a.dtype) + " and " + dtypeName(b.dtype) + ")");
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

} // namespace tx8::ref
