//===- DataMovement.cpp - Layout and indexing kernels (plain C++, any dtype) ---===//

#include "Common.h"
#include "tx8/Reference/Kernels.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace tx8::ref {

using namespace detail;

Status transpose(const Tensor &x, const std::vector<int64_t> &perm, Tensor &y) {
  const char *op = "Transpose";
  Status s = checkTensor(op, "input", x);
  if (!s.ok())
    return s;
  const size_t r = x.shape.size();
  std::vector<int64_t> pm = perm;
  if (pm.empty())
    for (size_t i = 0; i < r; ++i)
      pm.push_back(static_cast<int64_t>(r - 1 - i));
  std::vector<bool> seen(r, false);
  bool ok = pm.size() == r;
  for (size_t i = 0; ok && i < r; ++i) {
    ok = pm[i] >= 0 && pm[i] < static_cast<int64_t>(r) && !seen[static_cast<size_t>(pm[i])];
    if (ok)
      seen[static_cast<size_t>(pm[i])] = true;
  }
  if (!ok)
    return err(op, "perm " + shapeToString(perm) + " is not a permutation of the " + std::to_string(r) + " dims");
  std::vector<int64_t> inStrides = rowMajorStrides(x.shape), outShape(r), strides(r);
  for (size_t i = 0; i < r; ++i) {
    outShape[i] = x.shape[static_cast<size_t>(pm[i])];
    strides[i] = inStrides[static_cast<size_t>(pm[i])];
  }
  Tensor out(x.dtype, outShape);
  const size_t eb = dtypeBytes(x.dtype);
  forEachStrided(outShape, strides, [&](int64_t i, int64_t off) {
    std::memcpy(out.bytes.data() + static_cast<size_t>(i) * eb, x.bytes.data() + static_cast<size_t>(off) * eb, eb);
  });
  y = std::move(out);
  return Status();
}

Status reshape(const Tensor &x, const std::vector<int64_t> &shape, Tensor &y) {
  const char *op = "Reshape";
  Status s = checkTensor(op, "input", x);
  if (!s.ok())
    return s;
  for (int64_t d : shape)
    if (d < 0)
      return err(op, "target shape " + shapeToString(shape) + " has a negative dim (resolve it with resolveReshape)");
  if (product(shape, 0, shape.size()) != x.numElements())
    return err(op, "cannot reshape " + shapeToString(x.shape) + " (" + std::to_string(x.numElements()) +
                       " elements) to " + shapeToString(shape));
  Tensor out;
  out.dtype = x.dtype;
  out.shape = shape;
  out.bytes = x.bytes;
  y = std::move(out);
  return Status();
}

Status resolveReshape(const std::vector<int64_t> &inShape, const std::vector<int64_t> &spec, bool allowZero,
                      std::vector<int64_t> &out) {
  const char *op = "Reshape";
  std::vector<int64_t> res(spec.size());
  int64_t inferAt = -1, known = 1, total = product(inShape, 0, inShape.size());
  for (size_t i = 0; i < spec.size(); ++i) {
    int64_t d = spec[i];
    if (d == -1) {
      if (inferAt >= 0)
        return err(op, "shape " + shapeToString(spec) + " has more than one -1");
      inferAt = static_cast<int64_t>(i);
      continue;
    }
    if (d == 0 && !allowZero) {
      if (i >= inShape.size())
        return err(op, "shape " + shapeToString(spec) + ": 0 at index " + std::to_string(i) +
                           " has no input dim to copy (input " + shapeToString(inShape) + ")");
      d = inShape[i];
    }
    if (d < 0)
      return err(op, "shape " + shapeToString(spec) + " has invalid dim " + std::to_string(d));
    res[i] = d;
    known *= d;
  }
  if (inferAt >= 0) {
    if (known == 0 || total % known != 0)
      return err(op, "cannot infer the -1 of " + shapeToString(spec) + " for " + std::to_string(total) + " elements");
    res[static_cast<size_t>(inferAt)] = total / known;
  } else if (known != total) {
    return err(op, "shape " + shapeToString(spec) + " has " + std::to_string(known) + " elements, input " +
                       shapeToString(inShape) + " has " + std::to_string(total));
  }
  out = std::move(res);
  return Status();
}

Status concat(const std::vector<const Tensor *> &inputs, int64_t axis, Tensor &y) {
  const char *op = "Concat";
  if (inputs.empty())
    return err(op, "no inputs");
  const Tensor &first = *inputs[0];
  if (first.rank() == 0)
    return err(op, "inputs must have rank >= 1");
  int64_t ax;
  Status s = normalizeAxis(op, axis, first.rank(), ax);
  if (!s.ok())
    return s;
  std::vector<int64_t> outShape = first.shape;
  outShape[static_cast<size_t>(ax)] = 0;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const Tensor &t = *inputs[k];
    const std::string role = "input " + std::to_string(k);
    s = checkTensor(op, role.c_str(), t);
    if (!s.ok())
      return s;
    if (t.dtype != first.dtype)
      return err(op, role + " has dtype " + dtypeName(t.dtype) + ", input 0 has " + dtypeName(first.dtype));
    bool ok = t.rank() == first.rank();
    for (int64_t d = 0; ok && d < t.rank(); ++d)
      ok = d == ax || t.shape[static_cast<size_t>(d)] == first.shape[static_cast<size_t>(d)];
    if (!ok)
      return err(op, role + " shape " + shapeToString(t.shape) + " does not match input 0 shape " +
                         shapeToString(first.shape) + " outside axis " + std::to_string(ax));
    outShape[static_cast<size_t>(ax)] += t.shape[static_cast<size_t>(ax)];
  }
  Tensor out(first.dtype, outShape);
  const int64_t outer = product(outShape, 0, static_cast<size_t>(ax));
  const size_t eb = dtypeBytes(first.dtype);
  uint8_t *dst = out.bytes.data();
  for (int64_t o = 0; o < outer; ++o)
    for (const Tensor *t : inputs) {
      const size_t chunk = static_cast<size_t>(product(t->shape, static_cast<size_t>(ax), t->shape.size())) * eb;
      if (chunk) {
        std::memcpy(dst, t->bytes.data() + static_cast<size_t>(o) * chunk, chunk);
        dst += chunk;
      }
    }
  y = std::move(out);
  return Status();
}

Status slice(const Tensor &x, const std::vector<int64_t> &starts, const std::vector<int64_t> &ends,
             const std::vector<int64_t> &axes, const std::vector<int64_t> &steps, Tensor &y) {
  const char *op = "Slice";
  Status s = checkTensor(op, "input", x);
  if (!s.ok())
    return s;
  const int64_t r = x.rank();
  const size_t n = starts.size();
  if (ends.size() != n || (!axes.empty() && axes.size() != n) || (!steps.empty() && steps.size() != n))
    return err(op, "starts, ends, axes and steps must have the same length");
  std::vector<int64_t> begin(static_cast<size_t>(r), 0), step(static_cast<size_t>(r), 1), outShape = x.shape;
  std::vector<bool> seen(static_cast<size_t>(r), false);
  for (size_t i = 0; i < n; ++i) {
    int64_t ax = static_cast<int64_t>(i);
    if (!axes.empty()) {
      s = normalizeAxis(op, axes[i], r, ax);
      if (!s.ok())
        return s;
    } else if (ax >= r) {
      return err(op, std::to_string(n) + " starts for rank " + std::to_string(r));
    }
    if (seen[static_cast<size_t>(ax)])
      return err(op, "axis " + std::to_string(ax) + " is sliced twice");
    seen[static_cast<size_t>(ax)] = true;
    const int64_t st = steps.empty() ? 1 : steps[i];
    if (st == 0)
      return err(op, "step 0 on axis " + std::to_string(ax));
    const int64_t dim = x.shape[static_cast<size_t>(ax)];
    int64_t b = starts[i] < 0 ? starts[i] + dim : starts[i];
    int64_t e = ends[i] < 0 ? ends[i] + dim : ends[i];
    int64_t len;
    if (dim == 0) {
      b = 0;
      len = 0;
    } else if (st > 0) {
      b = std::clamp<int64_t>(b, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
      len = e > b ? (e - b + st - 1) / st : 0;
    } else {
      b = std::clamp<int64_t>(b, 0, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
      len = b > e ? (b - e - st - 1) / -st : 0;
    }
    begin[static_cast<size_t>(ax)] = b;
    step[static_cast<size_t>(ax)] = st;
    outShape[static_cast<size_t>(ax)] = len;
  }
  Tensor out(x.dtype, outShape);
  if (out.numElements() > 0) {
    std::vector<int64_t> inStrides = rowMajorStrides(x.shape), strides(static_cast<size_t>(r));
    int64_t base = 0;
    for (size_t d = 0; d < static_cast<size_t>(r); ++d) {
      strides[d] = inStrides[d] * step[d];
      base += begin[d] * inStrides[d];
    }
    const size_t eb = dtypeBytes(x.dtype);
    forEachStrided(outShape, strides, [&](int64_t i, int64_t off) {
      std::memcpy(out.bytes.data() + static_cast<size_t>(i) * eb, x.bytes.data() + static_cast<size_t>(base + off) * eb,
                  eb);
    });
  }
  y = std::move(out);
  return Status();
}

Status gather(const Tensor &data, const Tensor &indices, int64_t axis, Tensor &y) {
  const char *op = "Gather";
  Status s = checkTensor(op, "data", data);
  if (s.ok())
    s = checkTensor(op, "indices", indices);
  if (!s.ok())
    return s;
  if (indices.dtype != DType::I32 && indices.dtype != DType::I64)
    return err(op, std::string("indices have dtype ") + dtypeName(indices.dtype) + ", expected i32 or i64");
  if (data.rank() == 0)
    return err(op, "data must have rank >= 1");
  int64_t ax;
  s = normalizeAxis(op, axis, data.rank(), ax);
  if (!s.ok())
    return s;
  const int64_t dim = data.shape[static_cast<size_t>(ax)];
  std::vector<int64_t> idx(static_cast<size_t>(indices.numElements()));
  for (size_t i = 0; i < idx.size(); ++i) {
    int64_t v = elementAsInt64(indices, static_cast<int64_t>(i));
    if (v < -dim || v >= dim)
      return err(op, "index " + std::to_string(v) + " is out of range for axis " + std::to_string(ax) + " of size " +
                         std::to_string(dim));
    idx[i] = v < 0 ? v + dim : v;
  }
  std::vector<int64_t> outShape(data.shape.begin(), data.shape.begin() + ax);
  outShape.insert(outShape.end(), indices.shape.begin(), indices.shape.end());
  outShape.insert(outShape.end(), data.shape.begin() + ax + 1, data.shape.end());
  Tensor out(data.dtype, outShape);
  const int64_t outer = product(data.shape, 0, static_cast<size_t>(ax));
  const size_t inner = static_cast<size_t>(product(data.shape, static_cast<size_t>(ax) + 1, data.shape.size())) *
                       dtypeBytes(data.dtype);
  uint8_t *dst = out.bytes.data();
  if (inner)
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t j : idx) {
        std::memcpy(dst, data.bytes.data() + (static_cast<size_t>(o * dim + j)) * inner, inner);
        dst += inner;
      }
  y = std::move(out);
  return Status();
}

Status pad(const Tensor &x, const std::vector<int64_t> &pads, PadMode mode, double value, Tensor &y) {
  const char *op = "Pad";
  Status s = checkTensor(op, "input", x);
  if (!s.ok())
    return s;
  const size_t r = x.shape.size();
  if (pads.size() != 2 * r)
    return err(op, "pads has " + std::to_string(pads.size()) + " values, expected " + std::to_string(2 * r) +
                       " for rank " + std::to_string(r));
  // Per dim, the source index of every output index (-1: the constant).
  std::vector<std::vector<int64_t>> src(r);
  std::vector<int64_t> outShape(r);
  for (size_t d = 0; d < r; ++d) {
    const int64_t in = x.shape[d], b = pads[d], e = pads[r + d], o = in + b + e;
    if (o < 0)
      return err(op, "pads " + std::to_string(b) + ", " + std::to_string(e) + " crop more than dim " +
                         std::to_string(d) + " of size " + std::to_string(in));
    if (in == 0 && o > 0 && mode != PadMode::Constant)
      return err(op, std::string(mode == PadMode::Reflect ? "reflect" : "edge") + " padding of the empty dim " +
                         std::to_string(d));
    outShape[d] = o;
    src[d].resize(static_cast<size_t>(o));
    for (int64_t i = 0; i < o; ++i) {
      int64_t j = i - b;
      if (j < 0 || j >= in) {
        if (mode == PadMode::Constant) {
          j = -1;
        } else if (mode == PadMode::Edge) {
          j = std::clamp<int64_t>(j, 0, in - 1);
        } else if (in == 1) {
          j = 0;
        } else {
          const int64_t period = 2 * (in - 1); // NumPy 'reflect' is periodic with this period
          j = ((j % period) + period) % period;
          if (j >= in)
            j = period - j;
        }
      }
      src[d][static_cast<size_t>(i)] = j;
    }
  }
  Tensor fill(x.dtype, {});
  setElementFromDouble(fill, 0, value);
  Tensor out(x.dtype, outShape);
  const size_t eb = dtypeBytes(x.dtype);
  const std::vector<int64_t> inStrides = rowMajorStrides(x.shape);
  std::vector<int64_t> idx(r, 0);
  for (int64_t i = 0; i < out.numElements(); ++i) {
    int64_t off = 0;
    bool constant = false;
    for (size_t d = 0; d < r && !constant; ++d) {
      int64_t j = src[d][static_cast<size_t>(idx[d])];
      constant = j < 0;
      off += j * inStrides[d];
    }
    std::memcpy(out.bytes.data() + static_cast<size_t>(i) * eb,
                constant ? fill.bytes.data() : x.bytes.data() + static_cast<size_t>(off) * eb, eb);
    for (size_t d = r; d-- > 0;) {
      if (++idx[d] < outShape[d])
        break;
      idx[d] = 0;
    }
  }
  y = std::move(out);
  return Status();
}

Status expand(const Tensor &x, const std::vector<int64_t> &shape, Tensor &y) {
  const char *op = "Expand";
  Status s = checkTensor(op, "input", x);
  if (!s.ok())
    return s;
  std::vector<int64_t> outShape;
  s = broadcastShapes(x.shape, shape, outShape);
  if (!s.ok())
    return err(op, s.message());
  y = broadcastTo(x, outShape);
  return Status();
}

} // namespace tx8::ref
