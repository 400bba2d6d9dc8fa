//===- Indexing.cpp - Expand, Tile, gathers, scatters, OneHot, TopK -------===//
//
// Indexing ops written with tx8be.Expand (a broadcast copy), comparisons against an iota constant and Where.
// A shape operand (Expand's shape, Tile's repeats) is read when it is a constant; when it is computed at run
// time, the static output type ONNX shape inference gives determines it, since only the shape depends on it.
//
//===----------------------------------------------------------------------===//
#include "Converters.h"

#include "tx8/Reference/ExactEltwise.h"
#include "tx8/Reference/TensorIO.h"

#include <limits>

using namespace mlir;
using namespace tx8be;
using namespace tx8be::onnx_import;

namespace {
/// selectAlong for float data.
FailureOr<Value> selectFloatAlong(NodeImporter &n, FailureOr<Value> data, Value oneHot, int64_t axis, bool keepdims) {
  if (failed(data))
    return failure();
  auto type = cast<RankedTensorType>(data->getType());
  auto zero = splatConstant(n, type.getElementType(), SmallVector<int64_t>(type.getRank(), 1), 0);
  auto zeros = succeeded(zero) ? n.broadcastTo(*zero, type.getShape()) : zero;
  if (failed(zeros))
    return failure();
  auto picked = n.create<WhereOp>(ValueRange{oneHot, *data, *zeros});
  if (failed(picked))
    return failure();
  return n.create<ReduceSumOp>(*picked, {n.i64Array("axes", {axis}), n.boolean("keepdims", keepdims)});
}
} // namespace

FailureOr<Value> tx8be::onnx_import::selectAlong(NodeImporter &n, Value data, Value oneHot, int64_t axis, bool keepdims) {
  Type element = getElementTypeOrSelf(data.getType());
  if (isa<FloatType>(element))
    return selectFloatAlong(n, data, oneHot, axis, keepdims);
  Type f32 = n.builder().getF32Type();
  if (element.isInteger(1) || element.isInteger(8)) { // every value is a float exactly
    auto picked = selectFloatAlong(n, castElements(n, data, f32), oneHot, axis, keepdims);
    return succeeded(picked) ? castElements(n, *picked, element) : picked;
  }
  if (!element.isInteger(32))
    return n.unsupported("a one-hot selection takes float, bool, int8 or int32 data");
  // int32 in two halves that floats hold exactly: lo = x mod 2^16 in [0, 2^16), hi = x - lo (a multiple of 2^16
  // in [-2^31, 2^31 - 2^16]: 15 significant bits); each selected as a float, then added back as integers.
  auto base = splatConstant(n, element, {}, 65536);
  if (failed(base))
    return failure();
  auto lo = n.create<ModOp>(ValueRange{data, *base}, {n.boolean("fmod", false)});
  auto hi = binaryOf<SubOp>(n, data, lo);
  if (failed(lo) || failed(hi))
    return failure();
  auto loPicked = selectFloatAlong(n, castElements(n, *lo, f32), oneHot, axis, keepdims);
  auto hiPicked = selectFloatAlong(n, castElements(n, *hi, f32), oneHot, axis, keepdims);
  if (failed(loPicked) || failed(hiPicked))
    return failure();
  auto loInt = castElements(n, *loPicked, element);
  auto hiInt = castElements(n, *hiPicked, element);
  if (failed(loInt) || failed(hiInt))
    return failure();
  return n.create<AddOp>(ValueRange{*hiInt, *loInt});
}

FailureOr<Value> tx8be::onnx_import::selectCandidates(NodeImporter &n, Value data, Value mask,
                                                      ArrayRef<int64_t> maskView, ArrayRef<int64_t> view) {
  auto fullMask = n.reshape(mask, maskView);
  fullMask = succeeded(fullMask) ? n.broadcastTo(*fullMask, view) : fullMask;
  auto candidates = n.reshape(data, {view[0], 1, view[2], view[3]});
  candidates = succeeded(candidates) ? n.broadcastTo(*candidates, view) : candidates;
  if (failed(fullMask) || failed(candidates))
    return failure();
  return selectAlong(n, *candidates, *fullMask, 2, /*keepdims=*/false);
}

FailureOr<Value> tx8be::onnx_import::oneHotMask(NodeImporter &n, Value idx, int64_t axis, int64_t extent) {
  // the iota is a constant of `extent` elements, and float indices are exact below 2^24
  if (extent > (int64_t{1} << 24))
    return n.unsupported("a one-hot selection among " + Twine(extent) + " candidates (over 2^24) is not supported");
  auto type = cast<RankedTensorType>(idx.getType());
  SmallVector<int64_t> idxShape(type.getShape()), iotaShape(type.getRank() + 1, 1);
  idxShape.insert(idxShape.begin() + axis, 1);
  iotaShape[axis] = extent;
  auto iota = filledConstant(n, type.getElementType(), iotaShape,
                             [&](ArrayRef<int64_t> i) { return static_cast<double>(i[axis]); });
  return binaryOf<EqualOp>(n, n.reshape(idx, idxShape), iota);
}

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

FailureOr<Value> tx8be::onnx_import::wrapNegativeIndices(NodeImporter &n, Value idx, int64_t extent) {
  Type element = cast<RankedTensorType>(idx.getType()).getElementType();
  auto zero = splatConstant(n, element, {}, 0), size = splatConstant(n, element, {}, static_cast<double>(extent));
  auto negative = binaryOf<LessOp>(n, idx, zero);
  auto wrapped = binaryOf<AddOp>(n, idx, size);
  if (failed(negative) || failed(wrapped))
    return failure();
  return n.create<WhereOp>(ValueRange{*negative, *wrapped, idx});
}

namespace {

/// GatherElements: out[i] = data[i with i[axis] replaced by indices[i]]. In a 4-D view [outer, axis, candidate,
/// inner] (4 dims: OpLib's broadcasting view takes them without folding): a one-hot mask of the indices against
/// an iota of the candidates, data broadcast over the indices' axis, Where, ReduceSum over the candidates.
/// Out-of-range indices (an ONNX error) give 0.
FailureOr<Value> gatherElements(NodeImporter &n, Value data, Value indices, int64_t axis) {
  auto dataType = cast<RankedTensorType>(data.getType()), idxType = cast<RankedTensorType>(indices.getType());
  int64_t rank = dataType.getRank();
  if (idxType.getRank() != rank || rank == 0)
    return n.unsupported("data and indices must have the same rank >= 1");
  if (!idxType.getElementType().isInteger(32) && !idxType.getElementType().isInteger(64))
    return n.unsupported("indices must be int32 or int64");
  ArrayRef<int64_t> dataShape = dataType.getShape(), idxShape = idxType.getShape();
  int64_t extent = dataShape[axis];
  // data restricted to the indices' extents off the axis
  SmallVector<int64_t> window(idxShape);
  window[axis] = extent;
  for (int64_t d = 0; d < rank; ++d)
    if (window[d] > dataShape[d])
      return n.unsupported("indices extent " + Twine(idxShape[d]) + " exceeds data's " + Twine(dataShape[d]) +
                           " in dim " + Twine(d));
  FailureOr<Value> part = data;
  if (window != SmallVector<int64_t>(dataShape))
    part = n.create<SliceOp>(data, {n.i64Array("offsets", SmallVector<int64_t>(rank, 0)),
                                    n.i64Array("sizes", window), n.i64Array("strides", SmallVector<int64_t>(rank, 1))});
  int64_t outer = product(idxShape.take_front(axis)), inner = product(idxShape.drop_front(axis + 1));
  int64_t along = idxShape[axis];
  SmallVector<int64_t> view{outer, along, extent, inner};
  auto idx = n.reshape(indices, {outer, along, inner});
  auto wrapped = succeeded(idx) ? wrapNegativeIndices(n, *idx, extent) : idx;
  auto mask = succeeded(wrapped) ? oneHotMask(n, *wrapped, 2, extent) : wrapped;
  auto picked = succeeded(mask) && succeeded(part) ? selectCandidates(n, *part, *mask, view, view) : mask;
  if (failed(picked) || failed(part))
    return failure();
  return n.reshape(*picked, idxShape);
}

LogicalResult convertGatherElements(NodeImporter &n) {
  Value data, indices;
  int64_t axis;
  if (failed(gatherOperands(n, data, indices, axis)))
    return failure();
  return bindResult(n, gatherElements(n, data, indices, axis));
}

/// ReverseSequence: out[b, t] = x[b, len[b] - 1 - t] for t < len[b], else x[b, t] (batch_axis and time_axis
/// are 0 and 1 in either order): a GatherElements along the time axis with those indices, computed on the
/// device from the run-time lengths and broadcast over the trailing dims.
LogicalResult convertReverseSequence(NodeImporter &n) {
  if (failed(n.onlyAttrs({"batch_axis", "time_axis"})))
    return failure();
  auto x = staticInput(n);
  auto lens = n.input(1);
  if (failed(x) || failed(lens))
    return failure();
  ArrayRef<int64_t> shape = cast<RankedTensorType>(x->getType()).getShape();
  int64_t batchAxis = n.attrInt("batch_axis", 1), timeAxis = n.attrInt("time_axis", 0);
  if (shape.size() < 2 || !((batchAxis == 0 && timeAxis == 1) || (batchAxis == 1 && timeAxis == 0)))
    return n.unsupported("batch_axis and time_axis must be 0 and 1 (in either order) of a rank >= 2 input");
  int64_t batch = shape[batchAxis], steps = shape[timeAxis];
  auto lensType = cast<RankedTensorType>(lens->getType());
  if (lensType.getShape() != ArrayRef<int64_t>{batch} || !lensType.getElementType().isInteger(64))
    return n.unsupported("sequence_lens must be int64 [" + Twine(batch) + "]");
  Type i32 = n.builder().getI32Type();
  // lengths above the time extent are an ONNX error; clamped, they reverse the whole sequence
  auto len = castElements(n, *lens, i32);
  auto lenCol = succeeded(len) ? n.reshape(*len, {batch, 1}) : len;
  auto clampedLen = binaryOf<MinOp>(n, lenCol, splatConstant(n, i32, {}, static_cast<double>(steps)));
  auto iota = filledConstant(n, i32, {1, steps}, [](ArrayRef<int64_t> i) { return static_cast<double>(i[1]); });
  auto within = binaryOf<LessOp>(n, iota, clampedLen);
  auto last = binaryOf<SubOp>(n, clampedLen, splatConstant(n, i32, {}, 1));
  // integer kernels broadcast the second operand only: both made [batch, time]
  auto lastFull = succeeded(last) ? n.broadcastTo(*last, {batch, steps}) : last;
  auto iotaFull = succeeded(iota) ? n.broadcastTo(*iota, {batch, steps}) : iota;
  auto reversed = binaryOf<SubOp>(n, lastFull, iotaFull);
  if (failed(within) || failed(reversed))
    return failure();
  FailureOr<Value> idx = n.create<WhereOp>(ValueRange{*within, *reversed, *iotaFull}); // [batch, time]
  if (succeeded(idx) && batchAxis == 1)
    idx = n.create<TransposeOp>(*idx, {n.i64Array("perm", {1, 0})});
  SmallVector<int64_t> view(shape.size(), 1);
  view[0] = shape[0];
  view[1] = shape[1];
  idx = succeeded(idx) ? n.reshape(*idx, view) : idx;
  idx = succeeded(idx) ? n.broadcastTo(*idx, shape) : idx;
  if (failed(idx))
    return failure();
  return bindResult(n, gatherElements(n, *x, *idx, timeAxis));
}

/// The linear index, in the row-major order of `dims`, of each index tuple in the last dim of `indices`
/// ([N, k], k = dims.size()), negative entries counted from the end of their dim: [N] int32.
FailureOr<Value> linearIndex(NodeImporter &n, Value indices, ArrayRef<int64_t> dims) {
  auto type = cast<RankedTensorType>(indices.getType());
  int64_t count = type.getDimSize(0), k = type.getDimSize(1);
  if (product(dims) >= (int64_t{1} << 31))
    return n.unsupported("the indexed part of data has 2^31 or more positions");
  Type i32 = n.builder().getI32Type();
  auto idx = castElements(n, indices, i32);
  FailureOr<Value> linear = failure();
  int64_t stride = product(dims);
  for (int64_t j = 0; j < k; ++j) {
    stride /= dims[j];
    auto column = failed(idx) || k == 1
                      ? idx
                      : n.create<SliceOp>(*idx, {n.i64Array("offsets", {0, j}), n.i64Array("sizes", {count, 1}),
                                                 n.i64Array("strides", {1, 1})});
    auto wrapped = succeeded(column) ? wrapNegativeIndices(n, *column, dims[j]) : column;
    auto scaled = stride == 1 ? wrapped : binaryOf<MulOp>(n, wrapped, splatConstant(n, i32, {}, static_cast<double>(stride)));
    linear = j == 0 ? scaled : binaryOf<AddOp>(n, linear, scaled);
    if (failed(linear))
      return failure();
  }
  return n.reshape(*linear, {count});
}

/// GatherND: out[b..., i...] = data[b..., indices[b..., i..., :], ...] with batch_dims leading dims b shared.
/// In the view data [B, M, S] (M: the positions the k index dims address, S: the slice each selects) and
/// indices [B, N, k]: the index tuples made linear, a one-hot mask against an iota of M, the slices selected
/// (selectAlong) as [B, N, S].
LogicalResult convertGatherND(NodeImporter &n) {
  if (failed(n.onlyAttrs({"batch_dims"})))
    return failure();
  auto data = staticInput(n);
  auto indices = n.input(1);
  if (failed(data) || failed(indices))
    return failure();
  auto idxType = cast<RankedTensorType>(indices->getType());
  ArrayRef<int64_t> dataShape = cast<RankedTensorType>(data->getType()).getShape(), idxShape = idxType.getShape();
  int64_t b = n.attrInt("batch_dims", 0), r = dataShape.size(), q = idxShape.size();
  if (!idxType.getElementType().isInteger(64) || q < 1 || !idxType.hasStaticShape())
    return n.unsupported("indices must be a static int64 tensor of rank >= 1");
  int64_t k = idxShape.back();
  if (b < 0 || b >= std::min(r, q) || k < 1 || b + k > r ||
      ArrayRef<int64_t>(dataShape).take_front(b) != ArrayRef<int64_t>(idxShape).take_front(b))
    return n.unsupported("batch_dims " + Twine(b) + " and index depth " + Twine(k) +
                         " do not fit data and indices (ONNX's GatherND rules)");
  int64_t batch = product(dataShape.take_front(b)), count = product(idxShape.slice(b, q - 1 - b));
  ArrayRef<int64_t> addressed = ArrayRef<int64_t>(dataShape).slice(b, k);
  int64_t positions = product(addressed), slice = product(dataShape.drop_front(b + k));
  auto tuples = n.reshape(*indices, {batch * count, k});
  auto linear = succeeded(tuples) ? linearIndex(n, *tuples, addressed) : tuples;
  linear = succeeded(linear) ? n.reshape(*linear, {batch, count}) : linear;
  auto mask = succeeded(linear) ? oneHotMask(n, *linear, 2, positions) : linear; // [B, N, M]
  auto picked = succeeded(mask) ? selectCandidates(n, *data, *mask, {batch, count, positions, 1},
                                                   {batch, count, positions, slice})
                                : mask;
  if (failed(picked))
    return failure();
  SmallVector<int64_t> outShape(idxShape.drop_back());
  outShape.append(dataShape.begin() + b + k, dataShape.end());
  return bindResult(n, n.reshape(*picked, outShape));
}

/// ScatterND: data with the slices data[indices[i, :], ...] replaced by updates[i, ...] (reduction none), or
/// combined with them: add, mul, max, min (opset 16/18). In the view data [M, S], indices [N, k], updates
/// [N, S]: a one-hot mask [N, M] of the linear indices. add / max / min / none combine the updates aimed at a
/// position with ReduceSum / ReduceMax / ReduceMin over N (none: the one update; duplicate indices, undefined in
/// ONNX, give their sum); mul multiplies them into data one update at a time, in index order (numpy's order),
/// for up to 64 updates. Positions no update hits keep their value.
LogicalResult convertScatterND(NodeImporter &n) {
  if (failed(n.onlyAttrs({"reduction"})))
    return failure();
  auto data = staticInput(n);
  auto indices = n.input(1), updates = n.input(2);
  if (failed(data) || failed(indices) || failed(updates))
    return failure();
  auto dataType = cast<RankedTensorType>(data->getType()), idxType = cast<RankedTensorType>(indices->getType());
  ArrayRef<int64_t> dataShape = dataType.getShape(), idxShape = idxType.getShape();
  Type element = dataType.getElementType();
  std::string reduction = n.attrString("reduction", "none");
  if (reduction != "none" && reduction != "add" && reduction != "mul" && reduction != "max" && reduction != "min")
    return n.unsupported("reduction '" + reduction + "' is not none, add, mul, max or min");
  if (!isa<FloatType>(element))
    return n.unsupported("data must be a float tensor");
  if (!idxType.getElementType().isInteger(64) || idxShape.empty() || !idxType.hasStaticShape())
    return n.unsupported("indices must be a static int64 tensor of rank >= 1");
  int64_t k = idxShape.back(), r = dataShape.size();
  SmallVector<int64_t> updShape(idxShape.drop_back());
  if (k >= 1 && k <= r)
    updShape.append(dataShape.begin() + k, dataShape.end());
  if (k < 1 || k > r || cast<RankedTensorType>(updates->getType()).getShape() != ArrayRef<int64_t>(updShape))
    return n.unsupported("indices' last dim must be in [1, rank of data] and updates of shape indices.shape[:-1] + "
                         "data.shape[k:]");
  ArrayRef<int64_t> addressed = dataShape.take_front(k);
  int64_t count = product(idxShape.drop_back()), positions = product(addressed), slice = product(dataShape.drop_front(k));
  SmallVector<int64_t> full{count, positions, slice};
  auto tuples = n.reshape(*indices, {count, k});
  auto linear = succeeded(tuples) ? linearIndex(n, *tuples, addressed) : tuples;
  auto mask = succeeded(linear) ? oneHotMask(n, *linear, 1, positions) : linear; // [N, M]
  auto maskFull = succeeded(mask) ? n.reshape(*mask, {count, positions, 1}) : mask;
  maskFull = succeeded(maskFull) ? n.broadcastTo(*maskFull, full) : maskFull;
  auto upd = n.reshape(*updates, {count, 1, slice});
  upd = succeeded(upd) ? n.broadcastTo(*upd, full) : upd;
  auto region = n.reshape(*data, {positions, slice});
  if (failed(maskFull) || failed(upd) || failed(region))
    return failure();
  FailureOr<Value> result = failure();
  if (reduction == "mul") {
    if (count > 64)
      return n.unsupported("a mul ScatterND takes up to 64 updates (" + Twine(count) + " given)");
    auto ones = splatConstant(n, element, {1, 1, 1}, 1.0);
    ones = succeeded(ones) ? n.broadcastTo(*ones, full) : ones;
    auto factors = succeeded(ones) ? n.create<WhereOp>(ValueRange{*maskFull, *upd, *ones}) : ones;
    result = region;
    for (int64_t i = 0; i < count && succeeded(result) && succeeded(factors); ++i) {
      auto factor = n.create<SliceOp>(*factors, {n.i64Array("offsets", {i, 0, 0}), n.i64Array("sizes", {1, positions, slice}),
                                                 n.i64Array("strides", {1, 1, 1})});
      factor = succeeded(factor) ? n.reshape(*factor, {positions, slice}) : factor;
      result = binaryOf<MulOp>(n, result, factor);
    }
    if (failed(factors))
      return failure();
  } else {
    double neutral = reduction == "max"   ? -std::numeric_limits<double>::infinity()
                     : reduction == "min" ? std::numeric_limits<double>::infinity()
                                          : 0.0;
    auto fill = splatConstant(n, element, {1, 1, 1}, neutral);
    auto fills = succeeded(fill) ? n.broadcastTo(*fill, full) : fill;
    auto aimed = succeeded(fills) ? n.create<WhereOp>(ValueRange{*maskFull, *upd, *fills}) : fills;
    auto overUpdates = [&](auto tag, FailureOr<Value> v) -> FailureOr<Value> {
      if (failed(v))
        return failure();
      return n.create<decltype(tag)>(*v, {n.i64Array("axes", {0}), n.boolean("keepdims", false)});
    };
    FailureOr<Value> combined = reduction == "max"   ? overUpdates(ReduceMaxOp(), aimed)
                                : reduction == "min" ? overUpdates(ReduceMinOp(), aimed)
                                                     : overUpdates(ReduceSumOp(), aimed);
    auto hits = overUpdates(ReduceMaxOp(), castElements(n, *mask, element)); // [M]
    auto hit = binaryOf<GreaterOp>(n, hits, splatConstant(n, element, {}, 0));
    hit = succeeded(hit) ? n.reshape(*hit, {positions, 1}) : hit;
    hit = succeeded(hit) ? n.broadcastTo(*hit, {positions, slice}) : hit;
    if (failed(combined) || failed(hit))
      return failure();
    FailureOr<Value> merged = *combined;
    if (reduction == "add")
      merged = binaryOf<AddOp>(n, *region, combined);
    else if (reduction == "max")
      merged = binaryOf<MaxOp>(n, *region, combined);
    else if (reduction == "min")
      merged = binaryOf<MinOp>(n, *region, combined);
    result = succeeded(merged) ? n.create<WhereOp>(ValueRange{*hit, *merged, *region}) : merged;
  }
  if (failed(result))
    return failure();
  return bindResult(n, n.reshape(*result, dataShape));
}

/// Compress: the slices of x along `axis` (x flattened without one) whose condition is true, in order. The
/// output extent (the number of trues) comes from the static output type. Each kept slice's output position is
/// the count of trues before it: a prefix sum of the condition as a MatMul with a triangular constant (exact:
/// sums of 0/1 below 2^24), then a one-hot selection. Condition entries past its length count as false.
LogicalResult convertCompress(NodeImporter &n) {
  if (failed(n.onlyAttrs({"axis"})))
    return failure();
  auto x = staticInput(n);
  auto cond = n.input(1);
  auto outType = n.onnxOutputType(0);
  if (failed(x) || failed(cond))
    return failure();
  if (!outType)
    return n.unsupported("ONNX shape inference gives no static output shape (the condition decides it)");
  ArrayRef<int64_t> shape = cast<RankedTensorType>(x->getType()).getShape();
  auto condType = cast<RankedTensorType>(cond->getType());
  if (condType.getRank() != 1 || !condType.getElementType().isInteger(1))
    return n.unsupported("condition must be a 1-D bool tensor");
  FailureOr<Value> v = *x;
  int64_t outer = 1, extent = product(shape), inner = 1;
  if (n.hasAttr("axis")) {
    auto axis = checkedAxis(n.attrInt("axis", 0), shape.size());
    if (!axis)
      return n.unsupported("axis " + Twine(n.attrInt("axis", 0)) + " is out of range for rank " + Twine(shape.size()));
    outer = product(shape.take_front(*axis));
    extent = shape[*axis];
    inner = product(shape.drop_front(*axis + 1));
  }
  int64_t length = condType.getDimSize(0), kept = outType->getNumElements() / std::max<int64_t>(outer * inner, 1);
  if (length > extent)
    return n.unsupported("condition has " + Twine(length) + " entries for an axis of " + Twine(extent));
  if (length < 1 || length > 1024)
    return n.unsupported("condition length " + Twine(length) + " is not in [1, 1024] (the prefix-sum constant)");
  if (kept < 1 || kept > length)
    return n.unsupported("the output keeps " + Twine(kept) + " of " + Twine(length) + " slices");
  v = n.reshape(*x, {outer, extent, inner});
  if (succeeded(v) && length < extent)
    v = n.create<SliceOp>(*v, {n.i64Array("offsets", {0, 0, 0}), n.i64Array("sizes", {outer, length, inner}),
                              n.i64Array("strides", {1, 1, 1})});
  Type f32 = n.builder().getF32Type();
  auto flags = castElements(n, *cond, f32);
  flags = succeeded(flags) ? n.reshape(*flags, {1, length}) : flags;
  auto upper = filledConstant(n, f32, {length, length}, [](ArrayRef<int64_t> i) { return i[0] <= i[1] ? 1.0 : 0.0; });
  auto counts = binaryOf<MatMulOp>(n, flags, upper); // trues up to and including each entry
  auto position = binaryOf<SubOp>(n, counts, splatConstant(n, f32, {}, 1));
  position = succeeded(position) ? n.reshape(*position, {length}) : position;
  auto none = splatConstant(n, f32, {length}, -1);
  auto target = succeeded(position) && succeeded(none) ? n.create<WhereOp>(ValueRange{*cond, *position, *none}) : none;
  auto mask = succeeded(target) ? oneHotMask(n, *target, 0, kept) : target; // [kept, length]
  auto picked = succeeded(mask) && succeeded(v)
                    ? selectCandidates(n, *v, *mask, {1, kept, length, 1}, {outer, kept, length, inner})
                    : mask;
  if (failed(picked) || failed(v))
    return failure();
  return bindResult(n, n.reshape(*picked, outType->getShape()));
}

/// OneHot: out = Where(mask, on, off) with the mask of the (wrapped, truncated to integers) indices against an
/// iota of `depth` along `axis`; [off, on] = values. depth is read off the static output type when it is
/// computed at run time. Indices outside [-depth, depth) select nothing (all off), as ONNX says.
LogicalResult convertOneHot(NodeImporter &n) {
  if (failed(n.onlyAttrs({"axis"})))
    return failure();
  auto indices = n.input(0), values = n.input(2);
  auto idxType = n.inputType(0), valuesType = n.inputType(2);
  auto outType = n.onnxOutputType(0);
  if (failed(indices) || failed(values) || failed(idxType) || failed(valuesType))
    return failure();
  if (!outType)
    return n.unsupported("ONNX shape inference gives no static output shape (depth decides it)");
  int64_t rank = idxType->getRank() + 1;
  auto axis = checkedAxis(n.attrInt("axis", -1), rank);
  if (!axis)
    return n.unsupported("axis " + Twine(n.attrInt("axis", -1)) + " is out of range for rank " + Twine(rank));
  ArrayRef<int64_t> out = outType->getShape();
  if (valuesType->getNumElements() != 2 || static_cast<int64_t>(out.size()) != rank)
    return n.unsupported("values must hold [off, on] and the output have the indices' rank + 1");
  int64_t depth = out[*axis];
  FailureOr<Value> idx = *indices;
  if (!idxType->getElementType().isInteger(32) && !idxType->getElementType().isInteger(64))
    idx = castElements(n, *indices, n.builder().getI32Type());
  auto wrapped = succeeded(idx) ? wrapNegativeIndices(n, *idx, depth) : idx;
  auto mask = succeeded(wrapped) ? oneHotMask(n, *wrapped, *axis, depth) : wrapped;
  auto pick = [&](int64_t at) -> FailureOr<Value> {
    auto one = n.create<SliceOp>(*values, {n.i64Array("offsets", {at}), n.i64Array("sizes", {1}),
                                           n.i64Array("strides", {1})});
    auto view = succeeded(one) ? n.reshape(*one, SmallVector<int64_t>(rank, 1)) : one;
    return succeeded(view) ? n.broadcastTo(*view, out) : view;
  };
  auto off = pick(0), on = pick(1);
  if (failed(mask) || failed(off) || failed(on))
    return failure();
  return bindResult(n, n.create<WhereOp>(ValueRange{*mask, *on, *off}));
}

/// ScatterElements (and the older Scatter): data with data[i with i[axis] = indices[j]] = updates[j] (reduction
/// none), += (add), max= / min= (max, min). In the 4-D view [outer, along, candidate, inner] of the indices: the
/// one-hot mask selects, per data position, the updates aimed at it; a position no update hits keeps its
/// value. Sums and extremes over zeros / infinities the mask puts elsewhere are exact. Indices must span the
/// data off the axis (a smaller window would need the untouched rest written around it).
LogicalResult convertScatterElements(NodeImporter &n) {
  if (failed(n.onlyAttrs({"axis", "reduction"})))
    return failure();
  auto data = n.input(0), indices = n.input(1), updates = n.input(2);
  auto dataType = n.inputType(0), idxType = n.inputType(1);
  if (failed(data) || failed(indices) || failed(updates) || failed(dataType) || failed(idxType))
    return failure();
  std::string reduction = n.attrString("reduction", "none");
  if (reduction != "none" && reduction != "add" && reduction != "max" && reduction != "min")
    return n.unsupported("reduction '" + reduction + "' is not supported (none, add, max, min are)");
  Type element = dataType->getElementType();
  if (!isa<FloatType>(element))
    return n.unsupported("data must be a float tensor");
  int64_t rank = dataType->getRank();
  auto axis = checkedAxis(n.attrInt("axis", 0), rank);
  if (!axis)
    return n.unsupported("axis " + Twine(n.attrInt("axis", 0)) + " is out of range for rank " + Twine(rank));
  ArrayRef<int64_t> dataShape = dataType->getShape(), idxShape = idxType->getShape();
  if (idxType->getRank() != rank || cast<RankedTensorType>(updates->getType()).getShape() != idxShape)
    return n.unsupported("indices and updates must have one shape, of data's rank");
  if (!idxType->getElementType().isInteger(32) && !idxType->getElementType().isInteger(64))
    return n.unsupported("indices must be int32 or int64");
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis && idxShape[d] != dataShape[d])
      return n.unsupported("indices must span data in every dim but the axis (dim " + Twine(d) + ": " +
                           Twine(idxShape[d]) + " of " + Twine(dataShape[d]) + ")");
  int64_t outer = product(idxShape.take_front(*axis)), inner = product(idxShape.drop_front(*axis + 1));
  int64_t along = idxShape[*axis], extent = dataShape[*axis];
  SmallVector<int64_t> full{outer, along, extent, inner};
  auto idx = n.reshape(*indices, {outer, along, inner});
  auto wrapped = succeeded(idx) ? wrapNegativeIndices(n, *idx, extent) : idx;
  auto mask = succeeded(wrapped) ? oneHotMask(n, *wrapped, 2, extent) : wrapped;
  auto upd = n.reshape(*updates, {outer, along, 1, inner});
  upd = succeeded(upd) ? n.broadcastTo(*upd, full) : upd;
  auto region = n.reshape(*data, {outer, extent, inner});
  if (failed(mask) || failed(upd) || failed(region))
    return failure();
  // the updates aimed at each position, combined: a sum (none: the one update; add), or an extreme
  double neutral = reduction == "max"   ? -std::numeric_limits<double>::infinity()
                   : reduction == "min" ? std::numeric_limits<double>::infinity()
                                        : 0.0;
  auto fill = splatConstant(n, element, {1, 1, 1, 1}, neutral);
  auto fills = succeeded(fill) ? n.broadcastTo(*fill, full) : fill;
  auto aimed = succeeded(fills) ? n.create<WhereOp>(ValueRange{*mask, *upd, *fills}) : fills;
  auto along1 = [&](auto tag, FailureOr<Value> v) -> FailureOr<Value> {
    using OpT = decltype(tag);
    if (failed(v))
      return failure();
    return n.create<OpT>(*v, {n.i64Array("axes", {1}), n.boolean("keepdims", false)});
  };
  FailureOr<Value> combined = reduction == "max"   ? along1(ReduceMaxOp(), aimed)
                              : reduction == "min" ? along1(ReduceMinOp(), aimed)
                                                   : along1(ReduceSumOp(), aimed);
  auto hits = along1(ReduceMaxOp(), castElements(n, *mask, element));
  auto hit = binaryOf<GreaterOp>(n, hits, splatConstant(n, element, {}, 0));
  if (failed(combined) || failed(hit))
    return failure();
  FailureOr<Value> merged = *combined;
  if (reduction == "add")
    merged = binaryOf<AddOp>(n, region, combined);
  else if (reduction == "max")
    merged = binaryOf<MaxOp>(n, region, combined);
  else if (reduction == "min")
    merged = binaryOf<MinOp>(n, region, combined);
  if (failed(merged))
    return failure();
  auto result = n.create<WhereOp>(ValueRange{*hit, *merged, *region});
  return bindResult(n, succeeded(result) ? n.reshape(*result, dataShape) : result);
}

/// TopK: k rounds of "the extreme of the values not taken yet, and the first index holding it" along the axis
/// (sorted, ties to the lower index, as ONNX); k is read off the static output type when it is an input.
/// A round: m = ReduceMax(Where(taken, -inf, x)), index = ReduceMin(Where(x == m and not taken, iota, extent)),
/// taken |= (iota == index). (A NaN compares unequal to everything: inputs with NaN are not ordered.)
LogicalResult convertTopK(NodeImporter &n) {
  if (failed(n.onlyAttrs({"axis", "largest", "sorted", "k"})))
    return failure();
  auto x = n.input(0);
  auto xType = n.inputType(0);
  auto outType = n.onnxOutputType(0);
  if (failed(x) || failed(xType))
    return failure();
  if (!outType)
    return n.unsupported("ONNX shape inference gives no static output shape (k decides it)");
  int64_t rank = xType->getRank();
  auto axis = checkedAxis(n.attrInt("axis", -1), rank);
  if (!axis)
    return n.unsupported("axis " + Twine(n.attrInt("axis", -1)) + " is out of range for rank " + Twine(rank));
  Type element = xType->getElementType();
  int64_t extent = xType->getDimSize(*axis), k = outType->getDimSize(*axis);
  if (!isa<FloatType>(element) || extent >= (int64_t{1} << 24) || k < 1 || k > extent)
    return n.unsupported("TopK takes float inputs with k in [1, axis extent < 2^24]");
  bool largest = n.attrInt("largest", 1) != 0;
  ArrayRef<int64_t> shape = xType->getShape();
  Type f32 = n.builder().getF32Type();
  SmallVector<int64_t> iotaShape(rank, 1);
  iotaShape[*axis] = extent;
  auto iota = filledConstant(n, f32, iotaShape, [&](ArrayRef<int64_t> i) { return static_cast<double>(i[*axis]); });
  auto past = splatConstant(n, f32, SmallVector<int64_t>(rank, 1), static_cast<double>(extent));
  auto worst = splatConstant(n, element, SmallVector<int64_t>(rank, 1),
                             largest ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity());
  auto pastFull = succeeded(past) ? n.broadcastTo(*past, shape) : past;
  auto worstFull = succeeded(worst) ? n.broadcastTo(*worst, shape) : worst;
  auto iotaFull = succeeded(iota) ? n.broadcastTo(*iota, shape) : iota;
  auto taken = filledConstant(n, n.builder().getI1Type(), shape, [](ArrayRef<int64_t>) { return 0.0; });
  if (failed(pastFull) || failed(worstFull) || failed(iotaFull) || failed(taken))
    return failure();
  auto keep = [&](auto tag, Value v) -> FailureOr<Value> {
    return n.create<decltype(tag)>(v, {n.i64Array("axes", {*axis}), n.boolean("keepdims", true)});
  };
  SmallVector<Value> values, indices;
  for (int64_t round = 0; round < k; ++round) {
    auto left = n.create<WhereOp>(ValueRange{*taken, *worstFull, *x});
    auto m = failed(left) ? left : largest ? keep(ReduceMaxOp(), *left) : keep(ReduceMinOp(), *left);
    auto hitAt = binaryOf<EqualOp>(n, *x, m);
    auto free = n.create<NotOp>(*taken);
    auto candidate = binaryOf<AndOp>(n, hitAt, free);
    auto at = succeeded(candidate) ? n.create<WhereOp>(ValueRange{*candidate, *iotaFull, *pastFull}) : candidate;
    auto index = succeeded(at) ? keep(ReduceMinOp(), *at) : at;
    if (failed(index))
      return failure();
    values.push_back(*m);
    auto asInt = castElements(n, *index, n.builder().getI64Type());
    if (failed(asInt))
      return failure();
    indices.push_back(*asInt);
    if (round + 1 < k) {
      auto chosen = binaryOf<EqualOp>(n, *iotaFull, index);
      taken = binaryOf<OrOp>(n, *taken, chosen);
      if (failed(taken))
        return failure();
    }
  }
  auto concat = [&](ArrayRef<Value> parts) -> FailureOr<Value> {
    if (parts.size() == 1)
      return parts.front();
    return n.create<ConcatOp>(parts, {n.i64("axis", *axis)});
  };
  auto valuesOut = concat(values), indicesOut = concat(indices);
  if (failed(valuesOut) || failed(indicesOut))
    return failure();
  n.setOutput(0, *valuesOut);
  if (n.numOutputs() > 1)
    n.setOutput(1, *indicesOut);
  return success();
}

} // namespace

void tx8be::onnx_import::addIndexingConverters(llvm::StringMap<NodeConverter> &converters) {
  converters["Expand"] = convertExpand;
  converters["Tile"] = convertTile;
  converters["GatherElements"] = convertGatherElements;
  converters["OneHot"] = convertOneHot;
  converters["ScatterElements"] = convertScatterElements;
  converters["Scatter"] = convertScatterElements;
  converters["TopK"] = convertTopK;
  converters["ReverseSequence"] = convertReverseSequence;
  converters["GatherND"] = convertGatherND;
  converters["ScatterND"] = convertScatterND;
  converters["Compress"] = convertCompress;
}
