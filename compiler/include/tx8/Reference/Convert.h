//===- Convert.h - Element type conversions for host tensors ----*- C++ -*-===//
//
// Scalar f16 / bf16 <-> f32 / f64 conversions (round to nearest, ties to even, with IEEE handling of
// subnormals, infinities and NaN), whole-tensor conversion to and from f32, and the ONNX-style Cast.
//
// Conversion rules used throughout the library (and by Cast):
//   float -> f16 / bf16 : round to nearest even; overflow gives +-inf; NaN stays NaN (quiet).
//   f64 -> f16 / bf16   : rounded once from the double (no double rounding through f32).
//   float -> integer    : truncation toward zero, saturating at the integer range; NaN gives 0.
//   integer -> integer  : two's-complement wrap-around (numpy's astype).
//   anything -> bool    : nonzero (NaN included) gives 1.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_REFERENCE_CONVERT_H
#define TX8_REFERENCE_CONVERT_H

#include "tx8/Reference/Status.h"
#include "tx8/Reference/Tensor.h"

#include <cstdint>
#include <type_traits>
#include <vector>

namespace tx8::ref {

float halfToFloat(uint16_t bits);
uint16_t floatToHalf(float value);
uint16_t doubleToHalf(double value);

float bf16ToFloat(uint16_t bits);
uint16_t floatToBf16(float value);
uint16_t doubleToBf16(double value);

bool isFloatType(DType t);   // f32, f16, bf16, f64
bool isIntegerType(DType t); // i8, u8, i32, i64 (bool is neither)

/// Element `i` of `t` as a double (exact for every dtype except i64 beyond 2^53).
double elementAsDouble(const Tensor &t, int64_t i);
/// Element `i` of `t` as an int64 (floats converted with the float -> integer rule above).
int64_t elementAsInt64(const Tensor &t, int64_t i);

/// All elements of `t` converted to f32 (any dtype).
std::vector<float> toFloatVector(const Tensor &t);
/// A tensor of dtype `dtype` and shape `shape` holding `values` converted with the rules above.
/// values.size() must equal the element count of `shape`.
Tensor fromFloatVector(const std::vector<float> &values, const std::vector<int64_t> &shape, DType dtype);

/// Build a tensor from host values of any arithmetic type (mainly for tests and constants).
template <typename T>
Tensor makeTensor(DType dtype, const std::vector<int64_t> &shape, const std::vector<T> &values);

/// ONNX Cast: `y` gets dtype `to` and x's shape. `y` may alias `x`.
Status cast(const Tensor &x, DType to, Tensor &y);

// ---- implementation of the template ----
void setElementFromDouble(Tensor &t, int64_t i, double v);
void setElementFromInt64(Tensor &t, int64_t i, int64_t v);

template <typename T>
Tensor makeTensor(DType dtype, const std::vector<int64_t> &shape, const std::vector<T> &values) {
  Tensor t(dtype, shape);
  for (int64_t i = 0; i < t.numElements() && i < static_cast<int64_t>(values.size()); ++i) {
    if constexpr (std::is_integral_v<T>)
      setElementFromInt64(t, i, static_cast<int64_t>(values[static_cast<size_t>(i)]));
    else
      setElementFromDouble(t, i, static_cast<double>(values[static_cast<size_t>(i)]));
  }
  return t;
}

} // namespace tx8::ref

#endif // TX8_REFERENCE_CONVERT_H
