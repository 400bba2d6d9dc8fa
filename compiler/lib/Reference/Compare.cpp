//===- Compare.cpp - Compare a result with an expected tensor -------------===//
#include "tx8/Reference/Compare.h"

#include "tx8/Reference/Convert.h"
#include "tx8/Reference/TensorIO.h"

#include <cmath>
#include <sstream>

using namespace tx8::ref;

Comparison tx8::ref::compare(const Tensor &actual, const Tensor &expected, const Tolerance &tol) {
  Comparison c;
  std::ostringstream os;
  if (actual.dtype != expected.dtype || actual.shape != expected.shape) {
    os << "got " << dtypeName(actual.dtype) << " " << shapeToString(actual.shape) << ", expected "
       << dtypeName(expected.dtype) << " " << shapeToString(expected.shape);
    c.message = os.str();
    return c;
  }
  bool exact = !isFloatType(expected.dtype);
  double worstExcess = -INFINITY; // |err| - allowed; > 0 is a mismatch
  for (int64_t i = 0; i < expected.numElements(); ++i) {
    double a = elementAsDouble(actual, i), e = elementAsDouble(expected, i);
    bool bad;
    double err;
    if (std::isnan(e) || std::isnan(a)) {
      bad = std::isnan(e) != std::isnan(a);
      err = bad ? INFINITY : 0;
    } else if (std::isinf(e) || std::isinf(a)) {
      bad = a != e;
      err = bad ? INFINITY : 0;
    } else {
      err = std::fabs(a - e);
      bad = exact ? a != e : err > tol.atol + tol.rtol * std::fabs(e);
    }
    double excess = err - (exact ? 0 : tol.atol + tol.rtol * std::fabs(e));
    c.maxAbsError = std::max(c.maxAbsError, err);
    c.mismatches += bad;
    if (excess > worstExcess) {
      worstExcess = excess;
      c.worstIndex = i;
      c.worstActual = a;
      c.worstExpected = e;
    }
  }
  c.ok = c.mismatches == 0;
  if (c.ok)
    os << "ok, max |err| " << c.maxAbsError;
  else
    os << c.mismatches << " of " << expected.numElements() << " elements differ; worst at flat index "
       << c.worstIndex << ": got " << c.worstActual << ", expected " << c.worstExpected << " (rtol " << tol.rtol
       << ", atol " << tol.atol << ")";
  c.message = os.str();
  return c;
}
