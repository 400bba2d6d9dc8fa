//===- RefTestUtil.cpp - Helpers shared by the reference-library tests ----===//

#include "RefTestUtil.h"

#include <cmath>
#include <sstream>

namespace reftest {

namespace {
thread_local Worst gWorst;
}

Worst lastWorst() { return gWorst; }

int64_t numel(const Shape &s) {
  int64_t n = 1;
  for (int64_t d : s)
    n *= d;
  return n;
}

std::string str(const Shape &s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i)
    r += (i ? "," : "") + std::to_string(s[i]);
  return r + "]";
}

Tensor randomTensor(DType dtype, const Shape &shape, std::mt19937 &rng, double lo, double hi) {
  std::uniform_real_distribution<double> dist(lo, hi);
  Tensor t(dtype, shape);
  for (int64_t i = 0; i < t.numElements(); ++i)
    tx8::ref::setElementFromDouble(t, i, dist(rng));
  return t;
}

std::vector<double> values(const Tensor &t) {
  std::vector<double> v(static_cast<size_t>(t.numElements()));
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = tx8::ref::elementAsDouble(t, static_cast<int64_t>(i));
  return v;
}

::testing::AssertionResult allClose(const Tensor &actual, const Shape &expectedShape,
                                    const std::vector<double> &expected, Tol tol) {
  gWorst = Worst{};
  if (actual.shape != expectedShape)
    return ::testing::AssertionFailure() << "shape " << str(actual.shape) << ", expected " << str(expectedShape);
  if (static_cast<size_t>(actual.numElements()) != expected.size())
    return ::testing::AssertionFailure() << "expected " << expected.size() << " values for shape "
                                         << str(expectedShape);
  std::vector<double> a = values(actual);
  int64_t bad = 0, firstBad = -1;
  for (size_t i = 0; i < a.size(); ++i) {
    const double e = expected[i], v = a[i];
    bool ok;
    if (std::isnan(e) || std::isnan(v))
      ok = std::isnan(e) && std::isnan(v);
    else if (std::isinf(e) || std::isinf(v))
      ok = e == v;
    else {
      const double d = std::fabs(v - e);
      gWorst.abs = std::max(gWorst.abs, d);
      if (e != 0)
        gWorst.rel = std::max(gWorst.rel, d / std::fabs(e));
      ok = d <= tol.abs + tol.rel * std::fabs(e);
    }
    if (!ok && bad++ == 0)
      firstBad = static_cast<int64_t>(i);
  }
  if (bad) {
    std::ostringstream os;
    os.precision(9);
    os << bad << " of " << a.size() << " elements differ (tol rel " << tol.rel << " abs " << tol.abs
       << "); first at " << str(unravel(firstBad, expectedShape)) << ": got " << a[static_cast<size_t>(firstBad)]
       << ", expected " << expected[static_cast<size_t>(firstBad)] << "; worst abs error " << gWorst.abs;
    return ::testing::AssertionFailure() << os.str();
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult allClose(const Tensor &actual, const Tensor &expected, Tol tol) {
  return allClose(actual, expected.shape, values(expected), tol);
}

Shape unravel(int64_t linear, const Shape &shape) {
  Shape idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] ? linear % shape[d] : 0;
    linear = shape[d] ? linear / shape[d] : 0;
  }
  return idx;
}

int64_t ravel(const Shape &idx, const Shape &shape) {
  int64_t l = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    l = l * shape[d] + idx[d];
  return l;
}

} // namespace reftest
