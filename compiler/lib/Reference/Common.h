//===- Common.h - Shared helpers of the reference kernels (internal) -*- C++ -*-===//
#ifndef TX8_LIB_REFERENCE_COMMON_H
#define TX8_LIB_REFERENCE_COMMON_H

#include "tx8/Reference/Convert.h"
#include "tx8/Reference/Status.h"
#include "tx8/Reference/Tensor.h"
#include "tx8/Reference/TensorIO.h" // shapeToString

#include <cstdint>
#include <string>
#include <vector>

namespace tx8::ref::detail {

inline Status err(const char *op, const std::string &message) {
  return Status::error(std::string(op) + ": " + message);
}

/// The byte count matches shape and dtype, and no dim is negative.
Status checkTensor(const char *op, const char *role, const Tensor &t);

/// `t` (f32, f16 or bf16) as f32 values; other dtypes are refused naming `role`.
Status floatInput(const char *op, const char *role, const Tensor &t, std::vector<float> &out);

/// Axis in [-rank, rank) -> [0, rank).
Status normalizeAxis(const char *op, int64_t axis, int64_t rank, int64_t &out);

/// A per-spatial-dim window parameter (strides, pads, ...): empty -> `def` repeated `nsp` times,
/// otherwise exactly `nsp` values, each >= minVal; errors name `what`.
Status spatialParam(const char *op, const char *what, const std::vector<int64_t> &v, size_t nsp, int64_t def,
                    int64_t minVal, std::vector<int64_t> &out);

/// Row-major element strides.
std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape);

/// Element strides that read a tensor of shape `in` as if broadcast to `out` (right-aligned; 0 on
/// broadcast dims). `in` must be broadcastable to `out`.
std::vector<int64_t> broadcastStrides(const std::vector<int64_t> &in, const std::vector<int64_t> &out);

/// Copy `src` broadcast to `outShape` (any dtype).
Tensor broadcastTo(const Tensor &src, const std::vector<int64_t> &outShape);

/// Product of dims [begin, end).
int64_t product(const std::vector<int64_t> &shape, size_t begin, size_t end);

/// Calls f(linearIndexOfOut, offsetInA) for every element of `out`, where offsets come from strides.
template <typename F>
void forEachStrided(const std::vector<int64_t> &out, const std::vector<int64_t> &strides, F f) {
  const size_t r = out.size();
  int64_t n = 1;
  for (int64_t d : out)
    n *= d;
  if (n == 0)
    return;
  std::vector<int64_t> idx(r, 0);
  int64_t off = 0;
  for (int64_t i = 0; i < n; ++i) {
    f(i, off);
    for (size_t d = r; d-- > 0;) {
      if (++idx[d] < out[d]) {
        off += strides[d];
        break;
      }
      off -= strides[d] * (out[d] - 1);
      idx[d] = 0;
    }
  }
}

} // namespace tx8::ref::detail

#endif // TX8_LIB_REFERENCE_COMMON_H
