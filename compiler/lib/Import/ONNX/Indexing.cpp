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

#include <limits>

using namespace mlir;
using namespace tx8be;
using namespace tx8be::onnx_import;

FailureOr<Value> tx8be::onnx_import::selectAlong(NodeImporter &n, Value data, Value oneHot, int64_t axis, bool keepdims) {
  auto type = cast<RankedTensorType>(data.getType());
  auto zero = splatConstant(n, type.getElementType(), SmallVector<int64_t>(type.getRank(), 1), 0);
  auto zeros = succeeded(zero) ? n.broadcastTo(*zero, type.getShape()) : zero;
  if (failed(zeros))
    return failure();
  auto picked = n.create<WhereOp>(ValueRange{oneHot, data, *zeros});
  if (failed(picked))
    return failure();
  return n.create<ReduceSumOp>(*picked, {n.i64Array("axes", {axis}), n.boolean("keepdims", keepdims)});
}

FailureOr<Value> tx8be::onnx_import::oneHotMask(NodeImporter &n, Value idx, int64_t axis, int64_t extent) {
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

/// Indices (any integer type) with the negative ones counted from the end of an axis of `extent`:
/// Where(idx < 0, idx + extent, idx).
FailureOr<Value> wrapNegativeIndices(NodeImporter &n, Value idx, int64_t extent) {
  Type element = cast<RankedTensorType>(idx.getType()).getElementType();
  auto zero = splatConstant(n, element, {}, 0), size = splatConstant(n, element, {}, static_cast<double>(extent));
  auto negative = binaryOf<LessOp>(n, idx, zero);
  auto wrapped = binaryOf<AddOp>(n, idx, size);
  if (failed(negative) || failed(wrapped))
    return failure();
  return n.create<WhereOp>(ValueRange{*negative, *wrapped, idx});
}

/// GatherElements: out[i] = data[i with i[axis] replaced by indices[i]]. In a 4-D view [outer, axis, candidate,
/// inner] (4 dims: OpLib's broadcasting view takes them without folding): a one-hot mask of the indices against
/// an iota of the candidates, data broadcast over the indices' axis, Where, ReduceSum over the candidates.
/// Out-of-range indices (an ONNX error) give 0.
LogicalResult convertGatherElements(NodeImporter &n) {
  if (failed(n.onlyAttrs({"axis"})))
    return failure();
  auto data = n.input(0), indices = n.input(1);
  auto dataType = n.inputType(0), idxType = n.inputType(1);
  if (failed(data) || failed(indices) || failed(dataType) || failed(idxType))
    return failure();
  int64_t rank = dataType->getRank();
  auto axis = checkedAxis(n.attrInt("axis", 0), rank);
  if (!axis)
    return n.unsupported("axis " + Twine(n.attrInt("axis", 0)) + " is out of range for rank " + Twine(rank));
  if (idxType->getRank() != rank || rank == 0)
    return n.unsupported("data and indices must have the same rank >= 1");
  if (!idxType->getElementType().isInteger(32) && !idxType->getElementType().isInteger(64))
    return n.unsupported("indices must be int32 or int64");
  ArrayRef<int64_t> dataShape = dataType->getShape(), idxShape = idxType->getShape();
  int64_t extent = dataShape[*axis];
  // data restricted to the indices' extents off the axis
  SmallVector<int64_t> window(idxShape);
  window[*axis] = extent;
  for (int64_t d = 0; d < rank; ++d)
    if (window[d] > dataShape[d])
      return n.unsupported("indices extent " + Twine(idxShape[d]) + " exceeds data's " + Twine(dataShape[d]) +
                           " in dim " + Twine(d));
  FailureOr<Value> part = *data;
  if (window != SmallVector<int64_t>(dataShape))
    part = n.create<SliceOp>(*data, {n.i64Array("offsets", SmallVector<int64_t>(rank, 0)),
                                     n.i64Array("sizes", window), n.i64Array("strides", SmallVector<int64_t>(rank, 1))});
  int64_t outer = product(idxShape.take_front(*axis)), inner = product(idxShape.drop_front(*axis + 1));
  int64_t along = idxShape[*axis];
  auto candidates = succeeded(part) ? n.reshape(*part, {outer, 1, extent, inner}) : part;
  candidates = succeeded(candidates) ? n.broadcastTo(*candidates, {outer, along, extent, inner}) : candidates;
  auto idx = n.reshape(*indices, {outer, along, inner});
  auto wrapped = succeeded(idx) ? wrapNegativeIndices(n, *idx, extent) : idx;
  auto mask = succeeded(wrapped) ? oneHotMask(n, *wrapped, 2, extent) : wrapped;
  if (failed(candidates) || failed(mask))
    return failure();
  auto picked = selectAlong(n, *candidates, *mask, 2, /*keepdims=*/false);
  if (failed(picked))
    return failure();
  return bindResult(n, n.reshape(*picked, idxShape));
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
}
