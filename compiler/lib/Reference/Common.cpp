//===- Common.cpp - Shared helpers of the reference kernels ---------------===//

#include "Common.h"

#include <cstring>

namespace tx8::ref::detail {

Status checkTensor(const char *op, const char *role, const Tensor &t) {
  for (int64_t d : t.shape)
    if (d < 0)
      return err(op, std::string(role) + " has a negative dim in shape " + shapeToString(t.shape));
  const size_t want = static_cast<size_t>(t.numElements()) * dtypeBytes(t.dtype);
  if (t.bytes.size() != want)
    return err(op, std::string(role) + " holds " + std::to_string(t.bytes.size()) + " bytes but shape " +
                       shapeToString(t.shape) + " of " + dtypeName(t.dtype) + " needs " + std::to_string(want));
  return Status();
}

Status floatInput(const char *op, const char *role, const Tensor &t, std::vector<float> &out) {
  if (t.dtype != DType::F32 && t.dtype != DType::F16 && t.dtype != DType::BF16)
    return err(op, std::string(role) + " has dtype " + dtypeName(t.dtype) + "; the reference computes in f32 and "
                   "accepts f32, f16 and bf16");
  Status s = checkTensor(op, role, t);
  if (!s.ok())
    return s;
  out = toFloatVector(t);
  return Status();
}

Status normalizeAxis(const char *op, int64_t axis, int64_t rank, int64_t &out) {
  if (axis < -rank || axis >= rank)
    return err(op, "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  out = axis < 0 ? axis + rank : axis;
  return Status();
}

Status spatialParam(const char *op, const char *what, const std::vector<int64_t> &v, size_t nsp, int64_t def,
                    int64_t minVal, std::vector<int64_t> &out) {
  if (v.empty()) {
    out.assign(nsp, def);
    return Status();
  }
  if (v.size() != nsp)
    return err(op, std::string(what) + " has " + std::to_string(v.size()) + " values, expected " +
                       std::to_string(nsp) + " (one per spatial dim)");
  for (int64_t e : v)
    if (e < minVal)
      return err(op, std::string(what) + " value " + std::to_string(e) + " must be >= " + std::to_string(minVal));
  out = v;
  return Status();
}

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;)
    s[i - 1] = s[i] * shape[i];
  return s;
}

std::vector<int64_t> broadcastStrides(const std::vector<int64_t> &in, const std::vector<int64_t> &out) {
  std::vector<int64_t> inStrides = rowMajorStrides(in);
  std::vector<int64_t> s(out.size(), 0);
  const size_t shift = out.size() - in.size();
  for (size_t i = 0; i < in.size(); ++i)
    s[shift + i] = in[i] == 1 ? 0 : inStrides[i];
  return s;
}

Tensor broadcastTo(const Tensor &src, const std::vector<int64_t> &outShape) {
  Tensor out(src.dtype, outShape);
  const size_t eb = dtypeBytes(src.dtype);
  const uint8_t *in = src.bytes.data();
  uint8_t *o = out.bytes.data();
  forEachStrided(outShape, broadcastStrides(src.shape, outShape), [&](int64_t i, int64_t off) {
    std::memcpy(o + static_cast<size_t>(i) * eb, in + static_cast<size_t>(off) * eb, eb);
  });
  return out;
}

int64_t product(const std::vector<int64_t> &shape, size_t begin, size_t end) {
  int64_t p = 1;
  for (size_t i = begin; i < end && i < shape.size(); ++i)
    p *= shape[i];
  return p;
}

} // namespace tx8::ref::detail
