//===- Indexing.cpp - Expand, Tile, GatherElements, OneHot ----------------===//
//
// Indexing ops written with tx8be.Expand (a broadcast copy), comparisons against an iota constant and Where.
// A shape operand (Expand's shape, Tile's repeats) is read when it is a constant; when it is computed at run
// time, the static output type ONNX shape inference gives determines it, since only the shape depends on it.
//
//===----------------------------------------------------------------------===//
#include "Converters.h"

#include "tx8/Reference/ExactEltwise.h"
#include "tx8/Reference/TensorIO.h"

using namespace mlir;
using namespace tx8be;
using namespace tx8be::onnx_import;

namespace {

/// The result shape of a node whose shape operand (input `i`, named `what`) is read only for the shape: the
/// constant's values, else ONNX shape inference's static output type.
FailureOr<SmallVector<int64_t>> shapeOperand(NodeImporter &n, int i, StringRef what,
                                            std::optional<SmallVector<int64_t>> &values) {
  if (n.constantInput(i)) {
    auto ints = n.constantInts(i, what);
    if (failed(ints))
      return failure();
    values = *ints;
  }
  if (auto type = n.onnxOutputType(0))
    return SmallVector<int64_t>(type->getShape());
  if (!values)
    return n.unsupported(Twine(what) + " (input #" + Twine(i) +
                         ") is computed at run time and ONNX shape inference gives no static output shape");
  return SmallVector<int64_t>();
}

/// Expand: x broadcast against `shape` in both directions (ONNX's rule, numpy's).
LogicalResult convertExpand(NodeImporter &n) {
  if (failed(n.onlyAttrs({})))
    return failure();
  auto x = n.input(0);
  auto xType = n.inputType(0);
  if (failed(x) || failed(xType))
    return failure();
  std::optional<SmallVector<int64_t>> spec;
  auto inferred = shapeOperand(n, 1, "shape", spec);
  if (failed(inferred))
    return failure();
  SmallVector<int64_t> outShape = *inferred;
  if (spec) {
    auto both = tx8::ref::numpyBroadcast(std::vector<int64_t>(xType->getShape().begin(), xType->getShape().end()),
                                         std::vector<int64_t>(spec->begin(), spec->end()));
    if (!both)
      return n.unsupported("input " + tx8::ref::shapeToString({xType->getShape().begin(), xType->getShape().end()}) +
                           " does not broadcast with shape " + tx8::ref::shapeToString({spec->begin(), spec->end()}));
    if (!outShape.empty() && outShape != SmallVector<int64_t>(both->begin(), both->end()))
      return n.unsupported("ONNX shape inference's output shape disagrees with the broadcast shape");
    outShape.assign(both->begin(), both->end());
  }
  return bindResult(n, n.broadcastTo(*x, outShape));
}

/// OpLib's TDMA copies (op_slice, which runs tx8be.Expand) take up to 6 dims.
constexpr size_t kMaxExpandRank = 6;

/// The views of one Tile step: x (shape `in`) viewed as `viewIn`, expanded to `viewOut`. A dim with repeats
/// r > 1 becomes a broadcast dim [1 -> r] in front of its data dim; extent-1 dims are dropped and a data dim
/// merges with the untiled dims after it (contiguous on both sides).
void tileViews(ArrayRef<int64_t> in, ArrayRef<int64_t> repeats, SmallVector<int64_t> &viewIn,
               SmallVector<int64_t> &viewOut) {
  viewIn.clear(), viewOut.clear();
  bool mergeable = false;
  for (auto [i, r] : llvm::zip(in, repeats)) {
    if (r > 1) {
      viewIn.push_back(1), viewOut.push_back(r);
      mergeable = false;
    }
    if (i == 1)
      continue;
    if (mergeable) {
      viewIn.back() *= i, viewOut.back() *= i;
      continue;
    }
    viewIn.push_back(i), viewOut.push_back(i);
    mergeable = true;
  }
  if (viewIn.empty())
    viewIn.push_back(1), viewOut.push_back(1);
}

/// Tile: out[i] = x[i mod x.shape], out extent = x extent * repeats: Reshape, Expand, Reshape. The tiled dims
/// go into as few Expands as keep each view within kMaxExpandRank dims (one for ranks up to 3).
LogicalResult convertTile(NodeImporter &n) {
  if (failed(n.onlyAttrs({})))
    return failure();
  auto x = n.input(0);
  auto xType = n.inputType(0);
  if (failed(x) || failed(xType))
    return failure();
  ArrayRef<int64_t> in = xType->getShape();
  std::optional<SmallVector<int64_t>> repeats;
  auto inferred = shapeOperand(n, 1, "repeats", repeats);
  if (failed(inferred))
    return failure();
  if (llvm::is_contained(in, 0))
    return n.unsupported("tiling an empty tensor is not supported");
  if (!repeats) { // from the static output shape
    if (inferred->size() != in.size())
      return n.unsupported("the output rank differs from the input's");
    repeats.emplace();
    for (auto [o, i] : llvm::zip(*inferred, in)) {
      if (o % i != 0)
        return n.unsupported("output extent " + Twine(o) + " is not a multiple of the input extent " + Twine(i));
      repeats->push_back(o / i);
    }
  }
  if (repeats->size() != in.size())
    return n.unsupported("repeats has " + Twine(repeats->size()) + " values for rank " + Twine(in.size()));
  SmallVector<int64_t> outShape;
  for (auto [i, r] : llvm::zip(in, *repeats)) {
    if (r < 1 || r > (int64_t{1} << 31))
      return n.unsupported("repeats value " + Twine(r) + " is not in [1, 2^31]");
    outShape.push_back(i * r);
  }
  if (!inferred->empty() && *inferred != outShape)
    return n.unsupported("ONNX shape inference's output shape disagrees with repeats");
  Value cur = *x;
  SmallVector<int64_t> curShape(in), left(*repeats), viewIn, viewOut;
  while (llvm::any_of(left, [](int64_t r) { return r > 1; })) {
    // this step: the tiled dims, from the left, while the view fits
    SmallVector<int64_t> step(left.size(), 1);
    for (size_t d = 0; d < left.size(); ++d) {
      if (left[d] == 1)
        continue;
      step[d] = left[d];
      tileViews(curShape, step, viewIn, viewOut);
      if (viewOut.size() > kMaxExpandRank && llvm::count_if(step, [](int64_t r) { return r > 1; }) > 1)
        step[d] = 1;
    }
    tileViews(curShape, step, viewIn, viewOut);
    auto view = n.reshape(cur, viewIn);
    auto tiled = succeeded(view) ? n.broadcastTo(*view, viewOut) : view;
    for (size_t d = 0; d < left.size(); ++d)
      curShape[d] *= step[d], left[d] /= step[d];
    auto next = succeeded(tiled) ? n.reshape(*tiled, curShape) : tiled;
    if (failed(next))
      return failure();
    cur = *next;
  }
  n.setOutput(0, cur);
  return success();
}

} // namespace

void tx8be::onnx_import::addIndexingConverters(llvm::StringMap<NodeConverter> &converters) {
  converters["Expand"] = convertExpand;
  converters["Tile"] = convertTile;
}
