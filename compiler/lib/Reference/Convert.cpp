//===- Convert.cpp - Element type conversions -----------------------------===//

#include "tx8/Reference/Convert.h"

#include <cmath>
#include <limits>

namespace tx8::ref {

namespace {

// Round a finite, positive |a| to a binary float format with `mant` stored fraction bits and
// `expBits` exponent bits (IEEE layout, no sign). Round to nearest even via std::nearbyint (the
// default rounding mode); results too large become infinity. Working from a double is exact for
// f32 inputs and rounds f64 inputs exactly once.
uint32_t roundToFormat(double a, int mant, int expBits) {
  const int bias = (1 << (expBits - 1)) - 1;
  const int emin = 1 - bias;
  const uint32_t infExp = (1u << expBits) - 1;
  if (a == 0.0)
    return 0;
  int e2 = 0;
  std::frexp(a, &e2); // a = f * 2^e2, f in [0.5, 1)
  int e = e2 - 1;     // a = 1.x * 2^e
  if (e < emin) {
    // Subnormal range: count units of the smallest subnormal. A result of 2^mant lands exactly on
    // the encoding of the smallest normal, so no special case is needed.
    double units = std::nearbyint(std::ldexp(a, mant - emin));
    return static_cast<uint32_t>(units);
  }
  double m = std::nearbyint(std::ldexp(a, mant - e)); // in [2^mant, 2^(mant+1)]
  if (m == std::ldexp(1.0, mant + 1)) {
    m = std::ldexp(1.0, mant);
    ++e;
  }
  if (e + bias >= static_cast<int>(infExp))
    return infExp << mant;
  return (static_cast<uint32_t>(e + bias) << mant) | (static_cast<uint32_t>(m) - (1u << mant));
}

// Decode a finite or special value of the same formats (exact).
double decodeFormat(uint32_t bits, int mant, int expBits) {
  const int bias = (1 << (expBits - 1)) - 1;
  const uint32_t infExp = (1u << expBits) - 1;
  uint32_t sign = bits >> (mant + expBits);
  uint32_t ex = (bits >> mant) & infExp;
  uint32_t fr = bits & ((1u << mant) - 1);
  double v;
  if (ex == infExp)
    v = fr ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else if (ex == 0)
    v = std::ldexp(static_cast<double>(fr), 1 - bias - mant);
  else
    v = std::ldexp(static_cast<double>(fr | (1u << mant)), static_cast<int>(ex) - bias - mant);
  return sign ? -v : v;
}

uint16_t encode16(double v, int mant, int expBits, uint16_t quietNaN) {
  uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  if (std::isnan(v))
    return static_cast<uint16_t>(sign | quietNaN);
  double a = std::fabs(v);
  if (std::isinf(a))
    return static_cast<uint16_t>(sign | (((1u << expBits) - 1) << mant));
  return static_cast<uint16_t>(sign | roundToFormat(a, mant, expBits));
}

template <typename I> I saturatingFromDouble(double v) {
  if (std::isnan(v))
    return 0;
  v = std::trunc(v);
  if (v <= static_cast<double>(std::numeric_limits<I>::min()))
    return std::numeric_limits<I>::min();
  if (v >= static_cast<double>(std::numeric_limits<I>::max()))
    return std::numeric_limits<I>::max();
  return static_cast<I>(v);
}

} // namespace

float halfToFloat(uint16_t bits) { return static_cast<float>(decodeFormat(bits, 10, 5)); }
uint16_t floatToHalf(float value) { return encode16(value, 10, 5, 0x7e00); }
uint16_t doubleToHalf(double value) { return encode16(value, 10, 5, 0x7e00); }

float bf16ToFloat(uint16_t bits) {
  uint32_t u = static_cast<uint32_t>(bits) << 16; // bf16 is the top half of an f32: exact
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint16_t floatToBf16(float value) { return encode16(value, 7, 8, 0x7fc0); }
uint16_t doubleToBf16(double value) { return encode16(value, 7, 8, 0x7fc0); }

bool isFloatType(DType t) {
  return t == DType::F32 || t == DType::F16 || t == DType::BF16 || t == DType::F64;
}
bool isIntegerType(DType t) {
  return t == DType::I8 || t == DType::U8 || t == DType::I32 || t == DType::I64;
}

double elementAsDouble(const Tensor &t, int64_t i) {
  switch (t.dtype) {
  case DType::F32: return t.data<float>()[i];
  case DType::F16: return halfToFloat(t.data<uint16_t>()[i]);
  case DType::BF16: return bf16ToFloat(t.data<uint16_t>()[i]);
  case DType::F64: return t.data<double>()[i];
  case DType::I8: return t.data<int8_t>()[i];
  case DType::U8: return t.data<uint8_t>()[i];
  case DType::I32: return t.data<int32_t>()[i];
  case DType::I64: return static_cast<double>(t.data<int64_t>()[i]);
  case DType::Bool: return t.data<uint8_t>()[i] ? 1.0 : 0.0;
  }
  return 0.0;
}

int64_t elementAsInt64(const Tensor &t, int64_t i) {
  switch (t.dtype) {
  case DType::I8: return t.data<int8_t>()[i];
  case DType::U8: return t.data<uint8_t>()[i];
  case DType::I32: return t.data<int32_t>()[i];
  case DType::I64: return t.data<int64_t>()[i];
  case DType::Bool: return t.data<uint8_t>()[i] ? 1 : 0;
  default: return saturatingFromDouble<int64_t>(elementAsDouble(t, i));
  }
}

void setElementFromDouble(Tensor &t, int64_t i, double v) {
  switch (t.dtype) {
  case DType::F32: t.data<float>()[i] = static_cast<float>(v); break;
  case DType::F16: t.data<uint16_t>()[i] = doubleToHalf(v); break;
  case DType::BF16: t.data<uint16_t>()[i] = doubleToBf16(v); break;
  case DType::F64: t.data<double>()[i] = v; break;
  case DType::I8: t.data<int8_t>()[i] = saturatingFromDouble<int8_t>(v); break;
  case DType::U8: t.data<uint8_t>()[i] = saturatingFromDouble<uint8_t>(v); break;
  case DType::I32: t.data<int32_t>()[i] = saturatingFromDouble<int32_t>(v); break;
  case DType::I64: t.data<int64_t>()[i] = saturatingFromDouble<int64_t>(v); break;
  case DType::Bool: t.data<uint8_t>()[i] = (v != 0.0 || std::isnan(v)) ? 1 : 0; break;
  }
}

void setElementFromInt64(Tensor &t, int64_t i, int64_t v) {
  switch (t.dtype) {
  case DType::I8: t.data<int8_t>()[i] = static_cast<int8_t>(v); break;
  case DType::U8: t.data<uint8_t>()[i] = static_cast<uint8_t>(v); break;
  case DType::I32: t.data<int32_t>()[i] = static_cast<int32_t>(v); break;
  case DType::I64: t.data<int64_t>()[i] = v; break;
  case DType::Bool: t.data<uint8_t>()[i] = v != 0 ? 1 : 0; break;
  default: setElementFromDouble(t, i, static_cast<double>(v)); break;
  }
}

std::vector<float> toFloatVector(const Tensor &t) {
  std::vector<float> out(static_cast<size_t>(t.numElements()));
  if (t.dtype == DType::F32) {
    if (!out.empty())
      std::memcpy(out.data(), t.bytes.data(), out.size() * sizeof(float));
    return out;
  }
  for (int64_t i = 0; i < t.numElements(); ++i)
    out[static_cast<size_t>(i)] = static_cast<float>(elementAsDouble(t, i));
  return out;
}

Tensor fromFloatVector(const std::vector<float> &values, const std::vector<int64_t> &shape, DType dtype) {
  Tensor t(dtype, shape);
  if (dtype == DType::F32) {
    if (!values.empty())
      std::memcpy(t.bytes.data(), values.data(), values.size() * sizeof(float));
    return t;
  }
  for (int64_t i = 0; i < t.numElements(); ++i)
    setElementFromDouble(t, i, values[static_cast<size_t>(i)]);
  return t;
}

Status cast(const Tensor &x, DType to, Tensor &y) {
  if (x.bytes.size() != static_cast<size_t>(x.numElements()) * dtypeBytes(x.dtype))
    return Status::error("cast: input holds " + std::to_string(x.bytes.size()) + " bytes, shape needs " +
                         std::to_string(x.numElements() * static_cast<int64_t>(dtypeBytes(x.dtype))));
  Tensor out(to, x.shape);
  const int64_t n = x.numElements();
  // Integer sources go through int64 so that i64 values beyond 2^53 and int->int wrap-around are exact.
  const bool intPath = !isFloatType(x.dtype);
  for (int64_t i = 0; i < n; ++i) {
    if (intPath)
      setElementFromInt64(out, i, elementAsInt64(x, i));
    else
      setElementFromDouble(out, i, elementAsDouble(x, i));
  }
  y = std::move(out);
  return Status();
}

} // namespace tx8::ref
