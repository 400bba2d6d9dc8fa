//===- Quantize.cpp - ONNX QuantizeLinear / DequantizeLinear --------------===//
//
// Plain C++ in binary32, as ONNX's reference computes them (numpy on float32 arrays):
//   QuantizeLinear    y = saturate(round_half_even(x / scale) + zero_point)
//   DequantizeLinear  y = (float(x) - float(zero_point)) * scale
// scale and zero_point broadcast to x (numpy); the importer reshapes a per-axis scale so that they do.
//
//===----------------------------------------------------------------------===//
#include "Common.h"

#include "tx8/Reference/Kernels.h"

#include <cmath>
#include <cstdint>
#include <limits>

namespace tx8::ref {

using detail::err;

namespace {

bool isQuantized(DType t) { return t == DType::I8 || t == DType::U8; }

int64_t intAt(const Tensor &t, int64_t i) {
  switch (t.dtype) {
  case DType::I8: return t.data<int8_t>()[i];
  case DType::U8: return t.data<uint8_t>()[i];
  case DType::I32: return t.data<int32_t>()[i];
  default: return 0;
  }
}

/// The integer nearest v, ties to even; NaN -> 0; saturating to int32 (every 8-bit result saturates long before).
int64_t roundHalfEven(float v) {
  if (std::isnan(v))
    return 0;
  if (v >= 2147483648.0f)
    return std::numeric_limits<int32_t>::max();
  if (v <= -2147483648.0f)
    return std::numeric_limits<int32_t>::min();
  const double f = std::floor(static_cast<double>(v));
  int64_t i = static_cast<int64_t>(f);
  const double d = static_cast<double>(v) - f;
  if (d > 0.5 || (d == 0.5 && (i & 1)))
    ++i;
  return i;
}

/// The checks both ops share: dtypes, scale broadcasting to x, zero_point of scale's shape.
Status checkOperands(const char *op, const Tensor &x, const Tensor &scale, const Tensor &zeroPoint) {
  for (auto [t, role] : {std::pair<const Tensor *, const char *>{&x, "x"}, {&scale, "scale"},
                         {&zeroPoint, "zero_point"}}) {
    Status s = detail::checkTensor(op, role, *t);
    if (!s.ok())
      return s;
  }
  if (scale.dtype != DType::F32)
    return err(op, std::string("scale has dtype ") + dtypeName(scale.dtype) + ", expected f32");
  if (zeroPoint.shape != scale.shape)
    return err(op, "zero_point's shape " + shapeToString(zeroPoint.shape) + " is not scale's " +
                       shapeToString(scale.shape));
  std::vector<int64_t> shape;
  Status s = broadcastShapes(x.shape, scale.shape, shape);
  if (!s.ok() || shape != x.shape)
    return err(op, "scale's shape " + shapeToString(scale.shape) + " does not broadcast to x's " +
                       shapeToString(x.shape));
  return Status();
}

} // namespace

Status quantizeLinear(const Tensor &x, const Tensor &scale, const Tensor &zeroPoint, Tensor &out) {
  const char *op = "QuantizeLinear";
  if (Status s = checkOperands(op, x, scale, zeroPoint); !s.ok())
    return s;
  if (x.dtype != DType::F32)
    return err(op, std::string("x has dtype ") + dtypeName(x.dtype) + ", expected f32");
  if (!isQuantized(zeroPoint.dtype))
    return err(op, std::string("zero_point has dtype ") + dtypeName(zeroPoint.dtype) + ", expected i8 or u8");
  const int64_t lo = zeroPoint.dtype == DType::U8 ? 0 : -128, hi = zeroPoint.dtype == DType::U8 ? 255 : 127;
  const std::vector<int64_t> strides = detail::broadcastStrides(scale.shape, x.shape);
  Tensor res(zeroPoint.dtype, x.shape);
  const float *xs = x.data<float>(), *ss = scale.data<float>();
  detail::forEachStrided(x.shape, strides, [&](int64_t i, int64_t at) {
    const float q = xs[i] / ss[at]; // binary32, nearest even
    int64_t v = roundHalfEven(q) + intAt(zeroPoint, at);
    v = v < lo ? lo : v > hi ? hi : v;
    if (res.dtype == DType::U8)
      res.data<uint8_t>()[i] = static_cast<uint8_t>(v);
    else
      res.data<int8_t>()[i] = static_cast<int8_t>(v);
  });
  out = std::move(res);
  return Status();
}

Status dequantizeLinear(const Tensor &x, const Tensor &scale, const Tensor &zeroPoint, Tensor &out) {
  const char *op = "DequantizeLinear";
  if (Status s = checkOperands(op, x, scale, zeroPoint); !s.ok())
    return s;
  if (!isQuantized(x.dtype) && x.dtype != DType::I32)
    return err(op, std::string("x has dtype ") + dtypeName(x.dtype) + ", expected i8, u8 or i32");
  if (zeroPoint.dtype != x.dtype)
    return err(op, std::string("zero_point has dtype ") + dtypeName(zeroPoint.dtype) + ", x " + dtypeName(x.dtype));
  const std::vector<int64_t> strides = detail::broadcastStrides(scale.shape, x.shape);
  Tensor res(DType::F32, x.shape);
  const float *ss = scale.data<float>();
  float *ys = res.data<float>();
  detail::forEachStrided(x.shape, strides, [&](int64_t i, int64_t at) {
    const float d = static_cast<float>(intAt(x, i)) - static_cast<float>(intAt(zeroPoint, at));
    ys[i] = d * ss[at];
  });
  out = std::move(res);
  return Status();
}

} // namespace tx8::ref
