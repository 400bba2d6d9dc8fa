//===- Compare.h - Compare a result with an expected tensor -------*- C++ -*-===//
//
// The pass/fail rule of `tx8-aot test-onnx` and of the reference-vs-ONNX checks: numpy's assert_allclose
// (|actual - expected| <= atol + rtol * |expected|, NaN matches NaN, infinities must be equal), with the
// ONNX backend tests' default tolerances. Integer and bool tensors must be equal.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_REFERENCE_COMPARE_H
#define TX8_REFERENCE_COMPARE_H

#include "tx8/Reference/Tensor.h"

#include <cstdint>
#include <string>

namespace tx8::ref {

struct Tolerance {
  double rtol = 1e-3; // onnx.backend.test default
  double atol = 1e-7;
};

struct Comparison {
  bool ok = false;
  int64_t mismatches = 0;  ///< elements outside the tolerance
  double maxAbsError = 0;  ///< over all elements
  int64_t worstIndex = -1; ///< flat index of the element furthest outside (or nearest to) the tolerance
  double worstActual = 0, worstExpected = 0;
  std::string message; ///< one line: "ok, max |err| 3e-07" or what differs
};

/// `actual` against `expected`: dtype and shape must be equal, then the elements within `tol`.
Comparison compare(const Tensor &actual, const Tensor &expected, const Tolerance &tol = {});

} // namespace tx8::ref

#endif // TX8_REFERENCE_COMPARE_H
