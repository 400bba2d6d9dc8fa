//===- Binary.cpp - Broadcasting binary kernels and Where -----------------===//

#include "Common.h"
#include "Dnnl.h"
#include "tx8/Reference/ExactEltwise.h"
#include "tx8/Reference/Kernels.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

namespace tx8::ref {

using namespace detail;

const char *binaryOpName(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add: return "Add";
  case BinaryOp::Sub: return "Sub";
  case BinaryOp::Mul: return "Mul";
  case BinaryOp::Div: return "Div";
  case BinaryOp::Max: return "Max";
  case BinaryOp::Min: return "Min";
  case BinaryOp::Pow: return "Pow";
  }
  return "?";
}

Status broadcastShapes(const std::vector<int64_t> &a, const std::vector<int64_t> &b, std::vector<int64_t> &out) {
  const size_t r = std::max(a.size(), b.size());
  std::vector<int64_t> res(r);
  for (size_t i = 0; i < r; ++i) {
    int64_t da = i < r - a.size() ? 1 : a[i - (r - a.size())];
    int64_t db = i < r - b.size() ? 1 : b[i - (r - b.size())];
    if (da != db && da != 1 && db != 1)
      return Status::error("shapes " + shapeToString(a) + " and " + shapeToString(b) + " do not broadcast");
    res[i] = da == 1 ? db : da;
  }
  out = std::move(res);
  return Status();
}

namespace {

// `shape` left-padded with ones to `rank`.
std::vector<int64_t> padRank(const std::vector<int64_t> &shape, size_t rank) {
  std::vector<int64_t> r(rank - shape.size(), 1);
  r.insert(r.end(), shape.begin(), shape.end());
  return r;
}

dnnl::algorithm binaryAlg(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add: return dnnl::algorithm::binary_add;
  case BinaryOp::Sub: return dnnl::algorithm::binary_sub;
  case BinaryOp::Mul: return dnnl::algorithm::binary_mul;
  case BinaryOp::Div: return dnnl::algorithm::binary_div;
  case BinaryOp::Max: return dnnl::algorithm::binary_max;
  case BinaryOp::Min: return dnnl::algorithm::binary_min;
  default: return dnnl::algorithm::undef;
  }
}

} // namespace

Status binary(BinaryOp op, const Tensor &a, const Tensor &b, Tensor &y) {
  const char *name = binaryOpName(op);
  if (a.dtype != b.dtype)
    return err(name, std::string("operand dtypes differ (") + dtypeName(a.dtype) + " and " + dtypeName(b.dtype) + ")");
  if (isIntegerType(a.dtype)) // exact, wrapping (ExactEltwise.h)
    return exactElementwise(*exactOpNamed(name), a, &b, y);
  std::vector<float> av, bv;
  Status s = floatInput(name, "A", a, av);
  if (s.ok())
    s = floatInput(name, "B", b, bv);
  if (!s.ok())
    return s;
  std::vector<int64_t> outShape;
  s = broadcastShapes(a.shape, b.shape, outShape);
  if (!s.ok())
    return err(name, s.message());
  const int64_t n = product(outShape, 0, outShape.size());
  std::vector<float> out(static_cast<size_t>(n));

  if (op == BinaryOp::Pow) {
    std::vector<int64_t> sa = broadcastStrides(a.shape, outShape), sb = broadcastStrides(b.shape, outShape);
    std::vector<int64_t> offB(static_cast<size_t>(n));
    forEachStrided(outShape, sb, [&](int64_t i, int64_t off) { offB[static_cast<size_t>(i)] = off; });
    forEachStrided(outShape, sa, [&](int64_t i, int64_t off) {
      out[static_cast<size_t>(i)] = std::pow(av[static_cast<size_t>(off)], bv[offB[static_cast<size_t>(i)]]);
    });
  } else if (n > 0) {
    const size_t r = std::max<size_t>(outShape.size(), 1);
    std::vector<int64_t> full = padRank(outShape, r);
    std::vector<int64_t> sa = padRank(a.shape, r), sb = padRank(b.shape, r);
    // oneDNN broadcasts only its second source: src0 must have the full output shape. Swap the
    // operands of commutative ops when that suffices; otherwise materialize the broadcast of A.
    const bool commutative = op == BinaryOp::Add || op == BinaryOp::Mul || op == BinaryOp::Max || op == BinaryOp::Min;
    if (sa != full && sb == full && commutative) {
      std::swap(av, bv);
      std::swap(sa, sb);
    }
    if (sa != full) {
      av = toFloatVector(broadcastTo(fromFloatVector(av, sa, DType::F32), full));
      sa = full;
    }
    s = dnnlx::run(name, [&]() -> Status {
      auto md0 = dnnlx::plainDesc(dnnlx::toDims(sa));
      auto md1 = dnnlx::plainDesc(dnnlx::toDims(sb));
      dnnl::binary::desc d(binaryAlg(op), md0, md1, md0);
      dnnl::binary prim(dnnl::binary::primitive_desc(d, dnnlx::cpuEngine()));
      dnnlx::execute(prim, {{DNNL_ARG_SRC_0, dnnlx::wrap(md0, av.data())},
                            {DNNL_ARG_SRC_1, dnnlx::wrap(md1, bv.data())},
                            {DNNL_ARG_DST, dnnlx::wrap(md0, out.data())}});
      return Status();
    });
    if (!s.ok())
      return s;
    // numpy's maximum / minimum propagate a NaN of either operand; oneDNN's return the other one.
    if (op == BinaryOp::Max || op == BinaryOp::Min)
      forEachStrided(full, broadcastStrides(sb, full), [&](int64_t i, int64_t off) {
        if (std::isnan(av[static_cast<size_t>(i)]) || std::isnan(bv[static_cast<size_t>(off)]))
          out[static_cast<size_t>(i)] = std::numeric_limits<float>::quiet_NaN();
      });
  }
  y = fromFloatVector(out, outShape, a.dtype);
  return Status();
}

Status where(const Tensor &cond, const Tensor &x, const Tensor &y, Tensor &out) {
  const char *op = "Where";
  if (cond.dtype != DType::Bool)
    return err(op, std::string("condition has dtype ") + dtypeName(cond.dtype) + ", expected bool");
  if (x.dtype != y.dtype)
    return err(op, std::string("X and Y dtypes differ (") + dtypeName(x.dtype) + " and " + dtypeName(y.dtype) + ")");
  for (auto [t, role] : {std::pair<const Tensor *, const char *>{&cond, "condition"}, {&x, "X"}, {&y, "Y"}}) {
    Status s = checkTensor(op, role, *t);
    if (!s.ok())
      return s;
  }
  std::vector<int64_t> shape;
  Status s = broadcastShapes(cond.shape, x.shape, shape);
  if (s.ok())
    s = broadcastShapes(shape, y.shape, shape);
  if (!s.ok())
    return err(op, s.message());
  Tensor c = broadcastTo(cond, shape), xs = broadcastTo(x, shape), ys = broadcastTo(y, shape);
  Tensor res(x.dtype, shape);
  const size_t eb = dtypeBytes(x.dtype);
  for (int64_t i = 0; i < res.numElements(); ++i) {
    const Tensor &src = c.bytes[static_cast<size_t>(i)] ? xs : ys;
    std::memcpy(res.bytes.data() + static_cast<size_t>(i) * eb, src.bytes.data() + static_cast<size_t>(i) * eb, eb);
  }
  out = std::move(res);
  return Status();
}

} // namespace tx8::ref
