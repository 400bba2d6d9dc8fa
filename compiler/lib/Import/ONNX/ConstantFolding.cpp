//===- ConstantFolding.cpp - ONNX nodes evaluated at import time ----------===//
//
// Exporters compute shapes with small subgraphs (Shape -> Size / Slice / Sub / ConstantOfShape / Concat -> Reshape)
// and build constants with ConstantOfShape, Range and EyeLike. With static shapes all of that is known at
// compile time: a node whose inputs are all constants, of an op below, is evaluated here and its outputs become
// constants, so nothing of it reaches the device. Integer values are computed in int64, floats in double and
// rounded once to the node's type (for + - * / of f32 operands exactly the f32 result). Movement ops (Reshape,
// Concat, Slice, Gather, ...) copy bytes, so they take every dtype.
//
//===----------------------------------------------------------------------===//
#include "ConstantFolding.h"

#include "tx8/Interfaces/ComputeInterface.h"
#include "tx8/Reference/Convert.h"
#include "tx8/Reference/ExactEltwise.h"
#include "tx8/Reference/TensorIO.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>

using namespace mlir;
using namespace tx8be::onnx_import;
using tx8::ref::DType;
using tx8::ref::Tensor;
using tx8::ref::broadcastIndex;
using tx8::ref::numpyBroadcast;

namespace {

/// Constants larger than this are not folded (the model computes them on the device instead).
constexpr int64_t kMaxFoldedElements = int64_t{1} << 22;

bool isInteger(DType t) { return t == DType::I8 || t == DType::U8 || t == DType::I32 || t == DType::I64; }
bool isFloat(DType t) { return t == DType::F32 || t == DType::F64; }
bool isArithmetic(DType t) { return isInteger(t) || isFloat(t) || t == DType::Bool; }

/// Element i as an integer: floats truncated and saturated (NaN gives 0), as Cast converts them.
int64_t getInt(const Tensor &t, int64_t i) { return tx8::ref::elementAsInt64(t, i); }

double getDouble(const Tensor &t, int64_t i) {
  switch (t.dtype) {
  case DType::F32: return t.data<float>()[i];
  case DType::F64: return t.data<double>()[i];
  default: return static_cast<double>(getInt(t, i));
  }
}

/// Stores x (computed in double or int64, as `t`'s dtype says) as t's element i; integers wrap as C casts do.
void setValue(Tensor &t, int64_t i, double d, int64_t v) {
  switch (t.dtype) {
  case DType::I8: t.data<int8_t>()[i] = static_cast<int8_t>(v); break;
  case DType::U8: t.data<uint8_t>()[i] = static_cast<uint8_t>(v); break;
  case DType::I32: t.data<int32_t>()[i] = static_cast<int32_t>(v); break;
  case DType::I64: t.data<int64_t>()[i] = v; break;
  case DType::Bool: t.data<uint8_t>()[i] = v != 0; break;
  case DType::F32: t.data<float>()[i] = static_cast<float>(d); break;
  case DType::F64: t.data<double>()[i] = d; break;
  default: break;
  }
}

std::vector<int64_t> stridesOf(const std::vector<int64_t> &shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t k = shape.size(); k-- > 1;)
    s[k - 1] = s[k] * shape[k];
  return s;
}

int64_t product(const std::vector<int64_t> &shape) {
  return std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<int64_t>());
}

/// Whether a tensor of `shape` has more than kMaxFoldedElements elements (or a negative extent); overflow-safe.
bool tooLarge(const std::vector<int64_t> &shape) {
  int64_t count = 1;
  for (int64_t d : shape) {
    if (d < 0 || (d != 0 && count > kMaxFoldedElements / d))
      return true;
    count *= d;
  }
  return false;
}

std::vector<int64_t> intsOf(const Tensor &t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.numElements(); ++i)
    v.push_back(getInt(t, i));
  return v;
}

/// The node, its constant inputs and its attributes: what every folder reads.
class Folder {
public:
  explicit Folder(NodeImporter &n) : n(n) {
    for (int i = 0; i < n.numInputs(); ++i)
      inputs.push_back(n.constantInput(i));
  }

  /// Evaluates the node into `outs`; failure (with a reason) when the values are invalid, nullopt when the op or
  /// its dtypes are not folded here.
  std::optional<LogicalResult> run(std::vector<Tensor> &outs);
  /// Set when the one output is a splat too large to fold: outs[0] holds its one value.
  std::optional<std::vector<int64_t>> splatShape;

private:
  const Tensor &in(int i) const { return *inputs[i]; }
  std::vector<int64_t> attrVector(StringRef name) const {
    SmallVector<int64_t> v = n.attrInts(name);
    return {v.begin(), v.end()};
  }
  bool has(int i) const { return i < static_cast<int>(inputs.size()) && inputs[i]; }
  LogicalResult fail(const Twine &why) { return n.unsupported(why); }

  std::optional<LogicalResult> elementwise(StringRef op, std::vector<Tensor> &outs);
  LogicalResult where(std::vector<Tensor> &outs);
  /// The dtype a Cast converts to, when it is one folded here.
  std::optional<DType> castTarget() const {
    switch (n.attrInt("to", 0)) {
    case 1: return DType::F32;
    case 2: return DType::U8;
    case 3: return DType::I8;
    case 6: return DType::I32;
    case 7: return DType::I64;
    case 9: return DType::Bool;
    case 11: return DType::F64;
    default: return std::nullopt;
    }
  }
  LogicalResult cast(std::vector<Tensor> &outs);
  LogicalResult reshapeTo(std::vector<int64_t> shape, std::vector<Tensor> &outs);
  LogicalResult reshape(std::vector<Tensor> &outs);
  LogicalResult squeeze(bool unsqueeze, std::vector<Tensor> &outs);
  LogicalResult concat(std::vector<Tensor> &outs);
  LogicalResult slice(std::vector<Tensor> &outs);
  LogicalResult gather(std::vector<Tensor> &outs);
  LogicalResult expand(std::vector<Tensor> &outs);
  LogicalResult transpose(std::vector<Tensor> &outs);
  LogicalResult reduce(StringRef op, std::vector<Tensor> &outs);

  NodeImporter &n;
  std::vector<const Tensor *> inputs;
};

std::optional<LogicalResult> Folder::run(std::vector<Tensor> &outs) {
  StringRef op = n.getNode().op_type();
  for (const Tensor *t : inputs)
    if (t && t->numElements() > kMaxFoldedElements)
      return std::nullopt;
  if (op == "Identity" || op == "Reshape" || op == "Flatten" || op == "Squeeze" || op == "Unsqueeze" ||
      op == "Concat" || op == "Slice" || op == "Gather" || op == "Expand" || op == "Transpose") {
    if (op == "Identity") {
      outs.push_back(in(0));
      return success();
    }
    if (op == "Reshape")
      return reshape(outs);
    if (op == "Flatten") {
      int64_t rank = in(0).rank();
      auto axis = checkedAxis(n.attrInt("axis", 1), rank + 1);
      if (!axis)
        return fail("axis is out of range");
      std::vector<int64_t> lead(in(0).shape.begin(), in(0).shape.begin() + *axis);
      return reshapeTo({product(lead), in(0).numElements() / std::max<int64_t>(product(lead), 1)}, outs);
    }
    if (op == "Squeeze" || op == "Unsqueeze")
      return squeeze(op == "Unsqueeze", outs);
    if (op == "Concat")
      return concat(outs);
    if (op == "Slice")
      return slice(outs);
    if (op == "Gather")
      return gather(outs);
    if (op == "Expand")
      return expand(outs);
    return transpose(outs);
  }
  if (!llvm::all_of(inputs, [](const Tensor *t) { return !t || isArithmetic(t->dtype); }))
    return std::nullopt;
  if (op == "Where")
    return where(outs);
  if (op == "Cast")
    return castTarget() ? std::optional<LogicalResult>(cast(outs)) : std::nullopt;
  if (op == "ReduceSum" || op == "ReduceProd" || op == "ReduceMax" || op == "ReduceMin")
    return reduce(op, outs);
  return elementwise(op, outs);
}

std::optional<LogicalResult> Folder::elementwise(StringRef op, std::vector<Tensor> &outs) {
  std::optional<tx8::ref::ExactOp> exact = tx8::ref::exactOpNamed(op.str());
  if (!exact || op == "Pow") // float Pow: the reference's f32 pow, not folded here
    return std::nullopt;
  if (op == "Mod" && n.attrInt("fmod", 0))
    exact = tx8::ref::ExactOp::FMod;
  int arity = tx8::ref::isExactUnary(*exact) ? 1 : 2;
  if ((op == "Max" || op == "Min") && n.numInputs() != 2)
    return std::nullopt;
  if (n.numInputs() != arity)
    return fail(op + " takes " + Twine(arity) + " inputs");
  const Tensor &a = in(0), &b = in(arity - 1);
  if (a.dtype != b.dtype)
    return fail("operand dtypes differ");
  if (auto shape = numpyBroadcast(a.shape, b.shape); shape && tooLarge(*shape))
    return std::nullopt;
  // A constant integer division by zero is a broken model, not numpy's 0.
  if (op == "Div" && !isFloat(b.dtype))
    for (int64_t i = 0; i < b.numElements(); ++i)
      if (getInt(b, i) == 0)
        return fail("integer division by zero");
  Tensor y;
  tx8::ref::Status s = tx8::ref::exactElementwise(*exact, a, arity == 2 ? &b : nullptr, y);
  if (!s.ok())
    return fail(s.message());
  outs.push_back(std::move(y));
  return success();
}

LogicalResult Folder::where(std::vector<Tensor> &outs) {
  if (n.numInputs() != 3 || in(0).dtype != DType::Bool || in(1).dtype != in(2).dtype)
    return fail("Where takes a bool condition and two values of one dtype");
  auto s1 = numpyBroadcast(in(0).shape, in(1).shape);
  auto shape = s1 ? numpyBroadcast(*s1, in(2).shape) : std::nullopt;
  if (!shape)
    return fail("operand shapes do not broadcast");
  if (tooLarge(*shape))
    return fail("the result would have more than " + Twine(kMaxFoldedElements) + " elements");
  Tensor y(in(1).dtype, *shape);
  size_t eb = tx8::ref::dtypeBytes(y.dtype);
  for (int64_t i = 0; i < y.numElements(); ++i) {
    bool c = getInt(in(0), broadcastIndex(*shape, in(0).shape, i)) != 0;
    const Tensor &src = c ? in(1) : in(2);
    std::memcpy(&y.bytes[i * eb], &src.bytes[broadcastIndex(*shape, src.shape, i) * eb], eb);
  }
  outs.push_back(std::move(y));
  return success();
}

LogicalResult Folder::cast(std::vector<Tensor> &outs) {
  Tensor y(*castTarget(), in(0).shape);
  DType to = y.dtype;
  for (int64_t i = 0; i < y.numElements(); ++i) {
    double d = getDouble(in(0), i);
    int64_t v = isFloat(in(0).dtype) && to == DType::Bool ? d != 0 : getInt(in(0), i);
    setValue(y, i, d, v);
  }
  outs.push_back(std::move(y));
  return success();
}

LogicalResult Folder::reshapeTo(std::vector<int64_t> shape, std::vector<Tensor> &outs) {
  if (tooLarge(shape) || product(shape) != in(0).numElements())
    return fail("the new shape has a different element count");
  Tensor y = in(0);
  y.shape = std::move(shape);
  outs.push_back(std::move(y));
  return success();
}

LogicalResult Folder::reshape(std::vector<Tensor> &outs) {
  if (!has(1))
    return fail("Reshape's shape is missing");
  std::vector<int64_t> shape = intsOf(in(1));
  int64_t known = 1, infer = -1;
  for (size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] == 0 && n.attrInt("allowzero", 0) == 0) {
      if (k >= in(0).shape.size())
        return fail("shape has a 0 past the input's rank");
      shape[k] = in(0).shape[k];
    }
    if (shape[k] == -1) {
      if (infer >= 0)
        return fail("shape has two -1");
      infer = static_cast<int64_t>(k);
    } else if (shape[k] < 0) {
      return fail("shape has a negative extent");
    } else {
      if (shape[k] != 0 && known > kMaxFoldedElements / shape[k])
        return fail("the new shape has more than " + Twine(kMaxFoldedElements) + " elements");
      known *= shape[k];
    }
  }
  if (infer >= 0) {
    if (known == 0 || in(0).numElements() % known)
      return fail("the -1 extent cannot be inferred");
    shape[infer] = in(0).numElements() / known;
  }
  return reshapeTo(shape, outs);
}

LogicalResult Folder::squeeze(bool unsqueeze, std::vector<Tensor> &outs) {
  std::vector<int64_t> axes = has(1) ? intsOf(in(1)) : attrVector("axes");
  std::vector<int64_t> shape = in(0).shape;
  int64_t rank = static_cast<int64_t>(shape.size()) + (unsqueeze ? static_cast<int64_t>(axes.size()) : 0);
  std::vector<bool> marked(rank, false);
  for (int64_t a : axes) {
    auto axis = checkedAxis(a, rank);
    if (!axis || marked[*axis])
      return fail("axes are out of range or repeated");
    marked[*axis] = true;
  }
  std::vector<int64_t> out;
  if (unsqueeze) {
    for (int64_t k = 0, src = 0; k < rank; ++k)
      out.push_back(marked[k] ? 1 : shape[src++]);
  } else {
    for (int64_t k = 0; k < rank; ++k)
      if (axes.empty() ? shape[k] != 1 : !marked[k])
        out.push_back(shape[k]);
      else if (shape[k] != 1)
        return fail("Squeeze of a dim whose extent is not 1");
  }
  return reshapeTo(out, outs);
}

LogicalResult Folder::concat(std::vector<Tensor> &outs) {
  const Tensor &first = in(0);
  auto axis = checkedAxis(n.attrInt("axis", 0), first.rank());
  if (!axis)
    return fail("axis is out of range");
  std::vector<int64_t> shape = first.shape;
  shape[*axis] = 0;
  for (const Tensor *t : inputs) {
    if (t->dtype != first.dtype || t->rank() != first.rank())
      return fail("inputs differ in dtype or rank");
    for (int64_t k = 0; k < first.rank(); ++k)
      if (k != *axis && t->shape[k] != first.shape[k])
        return fail("inputs differ in a dim other than the axis");
    shape[*axis] += t->shape[*axis];
  }
  Tensor y(first.dtype, shape);
  size_t eb = tx8::ref::dtypeBytes(y.dtype);
  int64_t outer = product(std::vector<int64_t>(shape.begin(), shape.begin() + *axis));
  size_t offset = 0, row = static_cast<size_t>(y.numElements() / std::max<int64_t>(outer, 1)) * eb;
  for (const Tensor *t : inputs) {
    size_t chunk = static_cast<size_t>(t->numElements() / std::max<int64_t>(outer, 1)) * eb;
    for (int64_t o = 0; chunk != 0 && o < outer; ++o) // (an empty input contributes no bytes)
      std::memcpy(y.bytes.data() + o * row + offset, t->bytes.data() + o * chunk, chunk);
    offset += chunk;
  }
  outs.push_back(std::move(y));
  return success();
}

/// Copies the box of `src` starting at `start` with `step` per dim into a new tensor of `shape`.
Tensor strided(const Tensor &src, const std::vector<int64_t> &start, const std::vector<int64_t> &step,
               const std::vector<int64_t> &shape) {
  Tensor y(src.dtype, shape);
  size_t eb = tx8::ref::dtypeBytes(src.dtype);
  std::vector<int64_t> inStrides = stridesOf(src.shape);
  for (int64_t i = 0; i < y.numElements(); ++i) {
    int64_t rem = i, offset = 0;
    for (size_t k = shape.size(); k-- > 0;) {
      offset += (start[k] + (rem % shape[k]) * step[k]) * inStrides[k];
      rem /= shape[k];
    }
    std::memcpy(&y.bytes[i * eb], &src.bytes[offset * eb], eb);
  }
  return y;
}

LogicalResult Folder::slice(std::vector<Tensor> &outs) {
  const Tensor &x = in(0);
  int64_t rank = x.rank();
  std::vector<int64_t> starts, ends, axes, steps;
  if (n.getOpset() < 10) {
    auto s = n.attrInts("starts"), e = n.attrInts("ends"), a = n.attrInts("axes");
    starts.assign(s.begin(), s.end());
    ends.assign(e.begin(), e.end());
    axes.assign(a.begin(), a.end());
  } else {
    if (!has(1) || !has(2))
      return fail("Slice needs starts and ends");
    starts = intsOf(in(1));
    ends = intsOf(in(2));
    if (has(3))
      axes = intsOf(in(3));
    if (has(4))
      steps = intsOf(in(4));
  }
  if (axes.empty())
    for (size_t k = 0; k < starts.size(); ++k)
      axes.push_back(static_cast<int64_t>(k));
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    return fail("starts, ends, axes and steps differ in length");
  std::vector<int64_t> start(rank, 0), step(rank, 1), shape = x.shape;
  for (size_t k = 0; k < starts.size(); ++k) {
    auto axis = checkedAxis(axes[k], rank);
    if (!axis || steps[k] == 0)
      return fail("an axis is out of range or a step is 0");
    int64_t dim = x.shape[*axis], s = starts[k], e = ends[k];
    s = s < 0 ? s + dim : s;
    e = e < 0 ? e + dim : e;
    if (steps[k] > 0) {
      s = std::clamp<int64_t>(s, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
      shape[*axis] = e > s ? 1 + (e - s - 1) / steps[k] : 0;
    } else {
      s = std::clamp<int64_t>(s, 0, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
      uint64_t magnitude = 0 - static_cast<uint64_t>(steps[k]); // INT64_MIN included
      shape[*axis] = s > e ? 1 + static_cast<int64_t>(static_cast<uint64_t>(s - e - 1) / magnitude) : 0;
    }
    start[*axis] = s;
    step[*axis] = steps[k];
  }
  outs.push_back(strided(x, start, step, shape));
  return success();
}

LogicalResult Folder::gather(std::vector<Tensor> &outs) {
  const Tensor &x = in(0), &idx = in(1);
  auto axis = checkedAxis(n.attrInt("axis", 0), x.rank());
  if (!axis || !isInteger(idx.dtype))
    return fail("axis is out of range or the indices are not integers");
  std::vector<int64_t> shape(x.shape.begin(), x.shape.begin() + *axis);
  shape.insert(shape.end(), idx.shape.begin(), idx.shape.end());
  shape.insert(shape.end(), x.shape.begin() + *axis + 1, x.shape.end());
  if (tooLarge(shape))
    return fail("the result would have more than " + Twine(kMaxFoldedElements) + " elements");
  Tensor y(x.dtype, shape);
  int64_t outer = product(std::vector<int64_t>(x.shape.begin(), x.shape.begin() + *axis));
  int64_t inner = product(std::vector<int64_t>(x.shape.begin() + *axis + 1, x.shape.end()));
  int64_t dim = x.shape[*axis], count = idx.numElements();
  size_t eb = tx8::ref::dtypeBytes(x.dtype), run = static_cast<size_t>(inner) * eb;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < count; ++j) {
      int64_t i = getInt(idx, j);
      i = i < 0 ? i + dim : i;
      if (i < 0 || i >= dim)
        return fail("index " + Twine(getInt(idx, j)) + " is out of range for a dim of " + Twine(dim));
      if (run != 0) // (rows of an empty inner extent have no bytes)
        std::memcpy(y.bytes.data() + (o * count + j) * run, x.bytes.data() + (o * dim + i) * run, run);
    }
  outs.push_back(std::move(y));
  return success();
}

LogicalResult Folder::expand(std::vector<Tensor> &outs) {
  if (!has(1))
    return fail("Expand's shape is missing");
  auto shape = numpyBroadcast(in(0).shape, intsOf(in(1)));
  if (!shape)
    return fail("the shape does not broadcast with the input's");
  if (tooLarge(*shape)) {
    if (in(0).numElements() != 1)
      return fail("the result would have more than " + Twine(kMaxFoldedElements) + " elements");
    splatShape = *shape; // one value everywhere: kept a splat (bindSplat)
    outs.push_back(in(0));
    return success();
  }
  Tensor y(in(0).dtype, *shape);
  size_t eb = tx8::ref::dtypeBytes(y.dtype);
  for (int64_t i = 0; i < y.numElements(); ++i)
    std::memcpy(&y.bytes[i * eb], &in(0).bytes[broadcastIndex(*shape, in(0).shape, i) * eb], eb);
  outs.push_back(std::move(y));
  return success();
}

LogicalResult Folder::transpose(std::vector<Tensor> &outs) {
  const Tensor &x = in(0);
  std::vector<int64_t> perm = attrVector("perm");
  if (perm.empty())
    for (int64_t k = x.rank(); k-- > 0;)
      perm.push_back(k);
  if (static_cast<int64_t>(perm.size()) != x.rank())
    return fail("perm has the wrong length");
  std::vector<int64_t> shape, inStrides = stridesOf(x.shape), step;
  for (int64_t p : perm) {
    if (p < 0 || p >= x.rank())
      return fail("perm is out of range");
    shape.push_back(x.shape[p]);
    step.push_back(inStrides[p]);
  }
  Tensor y(x.dtype, shape);
  size_t eb = tx8::ref::dtypeBytes(x.dtype);
  for (int64_t i = 0; i < y.numElements(); ++i) {
    int64_t rem = i, offset = 0;
    for (size_t k = shape.size(); k-- > 0;) {
      offset += (rem % shape[k]) * step[k];
      rem /= shape[k];
    }
    std::memcpy(&y.bytes[i * eb], &x.bytes[offset * eb], eb);
  }
  outs.push_back(std::move(y));
  return success();
}

LogicalResult Folder::reduce(StringRef op, std::vector<Tensor> &outs) {
  const Tensor &x = in(0);
  std::vector<int64_t> axes = has(1) ? intsOf(in(1)) : attrVector("axes");
  bool keep = n.attrInt("keepdims", 1) != 0;
  std::vector<bool> reduced(x.rank(), axes.empty() && n.attrInt("noop_with_empty_axes", 0) == 0);
  for (int64_t a : axes) {
    auto axis = checkedAxis(a, x.rank());
    if (!axis)
      return fail("axes are out of range");
    reduced[*axis] = true;
  }
  std::vector<int64_t> keptShape;
  for (int64_t k = 0; k < x.rank(); ++k)
    keptShape.push_back(reduced[k] ? 1 : x.shape[k]);
  Tensor y(x.dtype, keptShape);
  std::vector<double> accD(y.numElements());
  std::vector<int64_t> accI(y.numElements());
  std::vector<bool> first(y.numElements(), true);
  bool fp = isFloat(x.dtype);
  for (int64_t i = 0; i < x.numElements(); ++i) {
    int64_t rem = i, o = 0, stride = 1;
    for (int64_t k = x.rank(); k-- > 0;) {
      int64_t c = rem % x.shape[k];
      rem /= x.shape[k];
      if (!reduced[k])
        o += c * stride;
      stride *= keptShape[k];
    }
    double d = getDouble(x, i);
    int64_t v = getInt(x, i);
    if (first[o]) {
      accD[o] = d;
      accI[o] = v;
      first[o] = false;
    } else if (op == "ReduceSum") {
      accD[o] += d;
      accI[o] = static_cast<int64_t>(static_cast<uint64_t>(accI[o]) + static_cast<uint64_t>(v));
    } else if (op == "ReduceProd") {
      accD[o] *= d;
      accI[o] = static_cast<int64_t>(static_cast<uint64_t>(accI[o]) * static_cast<uint64_t>(v));
    } else if (op == "ReduceMax") {
      accD[o] = fp && (d != d || d > accD[o]) ? d : accD[o];
      accI[o] = std::max(accI[o], v);
    } else {
      accD[o] = fp && (d != d || d < accD[o]) ? d : accD[o];
      accI[o] = std::min(accI[o], v);
    }
  }
  if (x.numElements() == 0)
    return fail("reduction of an empty tensor is not folded");
  for (int64_t o = 0; o < y.numElements(); ++o)
    setValue(y, o, accD[o], accI[o]);
  if (!keep) {
    std::vector<int64_t> shape;
    for (int64_t k = 0; k < x.rank(); ++k)
      if (!reduced[k])
        shape.push_back(x.shape[k]);
    y.shape = shape;
  }
  outs.push_back(std::move(y));
  return success();
}

/// Binds output `i` to a constant of `shape` whose every element is `value`'s one element. Up to
/// kMaxFoldedElements elements that is a compile-time tensor like any other (what later nodes fold on); a larger
/// one (a ConstantOfShape that builds a 25088x4096 weight) is kept a splat: a tx8be.Constant whose
/// DenseElementsAttr stores the one value whatever the size. The import folds nothing on it (a node that needs
/// its elements here sees a run-time value: a movement or elementwise op on it becomes a tx8be op, which
/// tx8be-fold-constants evaluates as a splat again); its bytes are written once, in consts.bin.
LogicalResult bindSplat(NodeImporter &n, int i, const Tensor &value, const std::vector<int64_t> &shape) {
  if (!tooLarge(shape)) {
    Tensor y(value.dtype, shape);
    size_t eb = tx8::ref::dtypeBytes(value.dtype);
    for (int64_t k = 0; k < y.numElements(); ++k)
      std::memcpy(&y.bytes[k * eb], value.bytes.data(), eb);
    n.setConstantOutput(i, std::move(y));
    return success();
  }
  // The byte size must be a 64-bit number for whatever lays it out (ConstContainer, tx8be-ddr-alloc).
  uint64_t bytes = tx8::ref::dtypeBytes(value.dtype);
  for (int64_t d : shape)
    if (__builtin_mul_overflow(bytes, static_cast<uint64_t>(d), &bytes) || bytes > uint64_t{INT64_MAX})
      return n.unsupported("the constant's byte size does not fit in 64 bits");
  auto splat = n.splat(value, shape);
  if (failed(splat))
    return failure();
  n.setOutput(i, *splat);
  return success();
}

} // namespace

FailureOr<bool> tx8be::onnx_import::foldConstantNode(NodeImporter &n) {
  if (n.numInputs() == 0)
    return false;
  for (int i = 0; i < n.numInputs(); ++i)
    if (n.hasInput(i) && !n.constantInput(i))
      return false;
  std::vector<Tensor> outs;
  Folder folder(n);
  std::optional<LogicalResult> folded = folder.run(outs);
  if (!folded)
    return false;
  if (failed(*folded))
    return failure();
  if (folder.splatShape) {
    if (failed(bindSplat(n, 0, outs.front(), *folder.splatShape)))
      return failure();
    return true;
  }
  for (size_t i = 0; i < outs.size() && static_cast<int>(i) < n.numOutputs(); ++i)
    n.setConstantOutput(static_cast<int>(i), std::move(outs[i]));
  return true;
}

LogicalResult tx8be::onnx_import::convertSize(NodeImporter &n) {
  auto type = n.inputType(0);
  if (failed(type))
    return failure();
  if (!type->hasStaticShape())
    return n.unsupported("the input's shape is not static");
  n.setConstantOutput(0, tx8::ref::makeTensor<int64_t>(DType::I64, {}, {type->getNumElements()}));
  return success();
}

LogicalResult tx8be::onnx_import::convertConstantOfShape(NodeImporter &n) {
  // The values depend on the input only through the output's shape: a shape computed at run time is fine
  // when ONNX inferred (or the model declares) the output's static shape.
  std::vector<int64_t> shape;
  if (const Tensor *shapeT = n.constantInput(0))
    shape = intsOf(*shapeT);
  else if (auto out = n.onnxOutputType(0); out && out->hasStaticShape())
    shape.assign(out->getShape().begin(), out->getShape().end());
  else
    return n.unsupported("shape (input #0) must be a constant, or the output's shape static");
  if (llvm::any_of(shape, [](int64_t d) { return d < 0; }))
    return n.unsupported("shape has a negative extent");
  Tensor value(DType::F32, {1}); // ONNX's default: one float 0
  if (const onnx::AttributeProto *a = n.attr("value")) {
    std::string bytes = a->t().SerializeAsString();
    tx8::ref::Status s = tx8::ref::parseTensorProto(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size(),
                                                    "ConstantOfShape value", value);
    if (!s.ok())
      return n.unsupported(s.message());
    if (value.numElements() != 1)
      return n.unsupported("value must have one element");
  }
  return bindSplat(n, 0, value, shape);
}

LogicalResult tx8be::onnx_import::convertRange(NodeImporter &n) {
  const Tensor *start = n.constantInput(0), *limit = n.constantInput(1), *delta = n.constantInput(2);
  if (!start || !limit || !delta)
    return n.unsupported("start, limit and delta must be constants");
  if (start->numElements() != 1 || limit->numElements() != 1 || delta->numElements() != 1 ||
      start->dtype != limit->dtype || start->dtype != delta->dtype || !isArithmetic(start->dtype))
    return n.unsupported("start, limit and delta must be numeric scalars of one dtype");
  double s = getDouble(*start, 0), l = getDouble(*limit, 0), d = getDouble(*delta, 0);
  if (d == 0)
    return n.unsupported("delta is 0");
  double count = std::ceil((l - s) / d);
  if (!(count < static_cast<double>(kMaxFoldedElements)))
    return n.unsupported("the range has too many elements");
  int64_t elems = std::max<int64_t>(0, static_cast<int64_t>(count));
  Tensor y(start->dtype, {elems});
  int64_t si = getInt(*start, 0), di = getInt(*delta, 0);
  for (int64_t i = 0; i < elems; ++i) // ONNX: start + i * delta, in the input type
    setValue(y, i, s + static_cast<double>(i) * d,
             static_cast<int64_t>(static_cast<uint64_t>(si) + static_cast<uint64_t>(i) * static_cast<uint64_t>(di)));
  n.setConstantOutput(0, std::move(y));
  return success();
}

LogicalResult tx8be::onnx_import::convertEyeLike(NodeImporter &n) {
  auto type = n.inputType(0);
  if (failed(type))
    return failure();
  if (type->getRank() != 2 || !type->hasStaticShape())
    return n.unsupported("EyeLike takes a static 2-D input");
  // ONNX: the element type is `dtype`'s, else the input's (so it is known whatever shape inference recorded).
  auto element = n.hasAttr("dtype") ? n.attrElementType("dtype") : FailureOr<Type>(type->getElementType());
  if (failed(element))
    return failure();
  auto refDType = tx8be::detail::refDTypeOf(*element);
  if (!refDType)
    return n.unsupported("the output's element type is not supported");
  DType dtype = *refDType;
  if (!isArithmetic(dtype))
    return n.unsupported("EyeLike of this dtype is not supported");
  Tensor y(dtype, {type->getDimSize(0), type->getDimSize(1)});
  int64_t k = n.attrInt("k", 0);
  for (int64_t r = 0; r < y.shape[0]; ++r)
    if (r + k >= 0 && r + k < y.shape[1])
      setValue(y, r * y.shape[1] + r + k, 1.0, 1);
  n.setConstantOutput(0, std::move(y));
  return success();
}
