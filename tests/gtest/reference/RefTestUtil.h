//===- RefTestUtil.h - Helpers shared by the reference-library tests ------===//
#ifndef TX8_TESTS_REFERENCE_REFTESTUTIL_H
#define TX8_TESTS_REFERENCE_REFTESTUTIL_H

#include "tx8/Reference/Convert.h"
#include "tx8/Reference/Tensor.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace reftest {

using tx8::ref::DType;
using tx8::ref::Tensor;
using Shape = std::vector<int64_t>;

/// Uniform random values in [lo, hi), rounded to `dtype`.
Tensor randomTensor(DType dtype, const Shape &shape, std::mt19937 &rng, double lo = -1.0, double hi = 1.0);
/// All elements as doubles.
std::vector<double> values(const Tensor &t);
int64_t numel(const Shape &s);
std::string str(const Shape &s);

struct Tol {
  double rel;
  double abs;
};
/// f32 results of non-accumulating ops against a double reference.
constexpr Tol kTolF32{1e-5, 1e-6};
/// f32 results of accumulating ops (conv, gemm, pooling averages, normalizations).
constexpr Tol kTolAccum{1e-4, 1e-5};

/// Largest errors of the last allClose call in this thread (for reporting).
struct Worst {
  double abs = 0;
  double rel = 0;
};
Worst lastWorst();

/// Shape equal and |a - e| <= abs + rel * |e| everywhere (NaN matches NaN, inf matches equal inf).
::testing::AssertionResult allClose(const Tensor &actual, const Shape &expectedShape,
                                    const std::vector<double> &expected, Tol tol);
::testing::AssertionResult allClose(const Tensor &actual, const Tensor &expected, Tol tol);

/// Multi-index helpers for the naive references.
Shape unravel(int64_t linear, const Shape &shape);
int64_t ravel(const Shape &idx, const Shape &shape);

} // namespace reftest

#define ASSERT_OK(expr)                                                                                                \
  do {                                                                                                                 \
    ::tx8::ref::Status _s = (expr);                                                                                    \
    ASSERT_TRUE(_s.ok()) << _s.message();                                                                              \
  } while (0)

#endif // TX8_TESTS_REFERENCE_REFTESTUTIL_H
