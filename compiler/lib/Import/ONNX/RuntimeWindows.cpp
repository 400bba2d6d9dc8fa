//===- RuntimeWindows.cpp - Slice and Pad with run-time starts and pads ---===//
//
// A Slice whose starts / axes / steps, or a Pad whose pads, are computed at run time still has a static output
// shape (ONNX's static output type). Each data axis is then a gather of computed source indices: the device
// works out, per output position j along the axis, which input position it reads (start + j * step for a
// Slice; j - pad_begin, clamped or reflected by the mode, for a Pad), and a one-hot selection reads it. Every
// axis is gathered, since an axis of unchanged extent may still be shifted or reversed.
//
//===----------------------------------------------------------------------===//
#include "Converters.h"

using namespace mlir;
using namespace tx8be;
using namespace tx8be::onnx_import;

namespace {

ArrayRef<int64_t> shapeOf(Value v) { return cast<RankedTensorType>(v.getType()).getShape(); }

/// Bounds run-time integers (any width) to [-2^30, 2^30] and makes them int32: beyond that every value acts
/// as the bound (axes are shorter than 2^30), and int32 arithmetic on them cannot overflow.
FailureOr<Value> boundedInt32(NodeImporter &n, Value v) {
  Type element = getElementTypeOrSelf(v.getType());
  if (!element.isInteger(32) && !element.isInteger(64))
    return n.unsupported("index operands must be int32 or int64");
  constexpr double bound = double(int64_t{1} << 30);
  auto lo = binaryOf<MaxOp>(n, v, splatConstant(n, element, {}, -bound));
  auto both = binaryOf<MinOp>(n, lo, splatConstant(n, element, {}, bound));
  if (failed(both))
    return failure();
  return castElements(n, *both, n.builder().getI32Type());
}

/// Element k of a 1-D run-time tensor, as a [1] tensor.
FailureOr<Value> elementOf(NodeImporter &n, Value v, int64_t k) {
  return n.create<SliceOp>(v, {n.i64Array("offsets", {k}), n.i64Array("sizes", {1}), n.i64Array("strides", {1})});
}

/// x with its `axis` replaced by `source.size()` positions, position j reading x at source[j] (int32 [O]); a
/// source outside [0, extent) reads 0.
FailureOr<Value> gatherAlong(NodeImporter &n, Value x, int64_t axis, Value source) {
  ArrayRef<int64_t> shape = shapeOf(x);
  int64_t outer = product(shape.take_front(axis)), extent = shape[axis], inner = product(shape.drop_front(axis + 1));
  int64_t count = shapeOf(source)[0];
  auto mask = oneHotMask(n, source, 1, extent); // [O, extent]
  auto picked = succeeded(mask) ? selectCandidates(n, x, *mask, {1, count, extent, 1}, {outer, count, extent, inner})
                                : mask;
  if (failed(picked))
    return failure();
  SmallVector<int64_t> outShape(shape);
  outShape[axis] = count;
  return n.reshape(*picked, outShape);
}

/// An int32 iota [count] (j = 0 .. count - 1).
FailureOr<Value> iota(NodeImporter &n, int64_t count) {
  return filledConstant(n, n.builder().getI32Type(), {count}, [](ArrayRef<int64_t> i) { return double(i[0]); });
}

FailureOr<Value> i32Scalar(NodeImporter &n, int64_t value) {
  return splatConstant(n, n.builder().getI32Type(), {1}, static_cast<double>(value));
}

/// What both converters start from: the static input x, the run-time operand #1 (starts / pads), and the
/// static output type ONNX shape inference gives, of x's rank.
struct Window {
  Value x, operand;
  RankedTensorType out;
};
FailureOr<Window> windowOperands(NodeImporter &n, StringRef what) {
  auto x = staticInput(n);
  auto operand = n.input(1);
  if (failed(x) || failed(operand))
    return failure();
  auto out = n.onnxOutputType(0);
  if (!out)
    return n.unsupported(Twine(what) + " computed at run time needs a static output type from ONNX shape inference");
  if (out->getRank() != cast<RankedTensorType>(x->getType()).getRank())
    return n.unsupported("the output rank differs from the input's");
  return Window{*x, *operand, *out};
}

/// An output with no elements is a constant (there is nothing to read).
LogicalResult emptyOutput(NodeImporter &n, RankedTensorType out) {
  return bindResult(n, splatConstant(n, out.getElementType(), out.getShape(), 0));
}

} // namespace

/// Slice (opset >= 10) with run-time starts, axes or steps. Per data axis d: its start and step (0 and 1 for an
/// axis not listed; with run-time axes, selected by comparing the normalised axes with d), the start made
/// non-negative and clamped as ONNX does ([0, dim] for a positive step, [0, dim - 1] for a negative one), and
/// source j = start + j * step for the output's extent along d. ends only decide the extent, which the output
/// type gives.
LogicalResult tx8be::onnx_import::convertRuntimeSlice(NodeImporter &n) {
  auto window = windowOperands(n, "Slice's starts, axes or steps");
  if (failed(window))
    return failure();
  auto [x, starts, out] = *window;
  ArrayRef<int64_t> shape = shapeOf(x);
  int64_t rank = shape.size();
  if (out.getNumElements() == 0)
    return emptyOutput(n, out);
  if (shapeOf(starts).size() != 1)
    return n.unsupported("starts must be 1-D");
  int64_t listed = shapeOf(starts)[0];
  auto startsI = boundedInt32(n, starts);
  if (failed(startsI))
    return failure();
  FailureOr<Value> stepsI = failure();
  if (n.hasInput(4)) {
    auto steps = n.input(4);
    stepsI = succeeded(steps) ? boundedInt32(n, *steps) : steps;
  } else {
    stepsI = splatConstant(n, n.builder().getI32Type(), {listed}, 1);
  }
  if (failed(stepsI))
    return failure();
  // axes: a compile-time list (default 0 .. listed - 1), or a run-time tensor matched against each d
  std::optional<SmallVector<int64_t>> axes;
  FailureOr<Value> axesI = failure();
  if (!n.hasInput(3)) {
    axes = llvm::to_vector(llvm::seq<int64_t>(0, listed));
  } else if (n.constantInput(3)) {
    auto a = n.constantInts(3, "axes");
    if (failed(a))
      return failure();
    axes.emplace();
    for (int64_t v : *a) {
      auto axis = checkedAxis(v, rank);
      if (!axis)
        return n.unsupported("axis " + Twine(v) + " is out of range for rank " + Twine(rank));
      axes->push_back(*axis);
    }
  } else {
    auto a = n.input(3);
    axesI = succeeded(a) ? boundedInt32(n, *a) : a;
    axesI = succeeded(axesI) ? wrapNegativeIndices(n, *axesI, rank) : axesI;
    if (failed(axesI))
      return failure();
  }
  if (axes && static_cast<int64_t>(axes->size()) != listed)
    return n.unsupported("starts and axes must have the same length");
  Value cur = x;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t dim = shape[d], count = out.getDimSize(d);
    FailureOr<Value> start = failure(), step = failure();
    if (axes) {
      auto at = llvm::find(*axes, d);
      if (at == axes->end()) {
        if (count != dim)
          return n.unsupported("dim " + Twine(d) + " is not sliced but its extent changes");
        continue;
      }
      int64_t k = at - axes->begin();
      start = elementOf(n, *startsI, k);
      step = elementOf(n, *stepsI, k);
    } else {
      // the listed entry naming d (none: start 0, step 1)
      auto hit = binaryOf<EqualOp>(n, *axesI, i32Scalar(n, d)); // [listed]
      if (failed(hit))
        return failure();
      start = selectAlong(n, *startsI, *hit, 0, /*keepdims=*/true);
      auto stepPicked = selectAlong(n, *stepsI, *hit, 0, /*keepdims=*/true);
      auto flags = castElements(n, *hit, n.builder().getF32Type());
      auto any = succeeded(flags) ? n.create<ReduceMaxOp>(*flags, {n.i64Array("axes", {0}), n.boolean("keepdims", true)})
                                  : flags;
      auto named = binaryOf<GreaterOp>(n, any, splatConstant(n, n.builder().getF32Type(), {1}, 0));
      auto one = i32Scalar(n, 1);
      if (failed(stepPicked) || failed(named) || failed(one))
        return failure();
      step = n.create<WhereOp>(ValueRange{*named, *stepPicked, *one});
    }
    if (failed(start) || failed(step))
      return failure();
    // start < 0 counts from the end; then clamped to [0, dim] (step > 0) or [0, dim - 1] (step < 0)
    auto wrapped = wrapNegativeIndices(n, *start, dim);
    auto forward = binaryOf<GreaterOp>(n, *step, i32Scalar(n, 0));
    auto dimEnd = i32Scalar(n, dim), dimLast = i32Scalar(n, dim - 1);
    if (failed(forward) || failed(dimEnd) || failed(dimLast))
      return failure();
    auto high = n.create<WhereOp>(ValueRange{*forward, *dimEnd, *dimLast});
    auto clamped = binaryOf<MaxOp>(n, wrapped, i32Scalar(n, 0));
    clamped = binaryOf<MinOp>(n, clamped, high);
    // integer kernels broadcast the second operand only: both operands made [count]
    auto stepFull = n.broadcastTo(*step, {count});
    auto offsets = binaryOf<MulOp>(n, iota(n, count), stepFull);
    auto startFull = succeeded(clamped) ? n.broadcastTo(*clamped, {count}) : clamped;
    auto source = binaryOf<AddOp>(n, offsets, startFull);
    auto next = succeeded(source) ? gatherAlong(n, cur, d, *source) : source;
    if (failed(next))
      return failure();
    cur = *next;
  }
  n.setOutput(0, cur);
  return success();
}

/// Pad (opset >= 11) with run-time pads: per axis d, source j = j - pads[d] for the output's extent along d;
/// constant mode reads the value where the source is outside the input, edge clamps it, reflect mirrors it
/// once about the first / last element (pads smaller than the extent, as ONNX requires).
LogicalResult tx8be::onnx_import::convertRuntimePad(NodeImporter &n) {
  auto window = windowOperands(n, "Pad's pads");
  if (failed(window))
    return failure();
  auto [x, pads, out] = *window;
  ArrayRef<int64_t> shape = shapeOf(x);
  int64_t rank = shape.size();
  if (n.hasInput(3))
    return n.unsupported("run-time pads with an axes input are not supported");
  std::string mode = n.attrString("mode", "constant");
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    return n.unsupported("pad mode '" + mode + "' is not supported");
  if (out.getNumElements() == 0)
    return emptyOutput(n, out);
  if (shapeOf(pads) != ArrayRef<int64_t>{2 * rank})
    return n.unsupported("pads needs " + Twine(2 * rank) + " entries");
  if (mode != "constant" && llvm::is_contained(shape, 0))
    return n.unsupported("edge and reflect pads of an empty input have nothing to read");
  auto padsI = boundedInt32(n, pads);
  if (failed(padsI))
    return failure();
  Type element = getElementTypeOrSelf(x.getType());
  FailureOr<Value> value = failure();
  if (mode == "constant") {
    if (n.hasInput(2)) {
      auto v = n.input(2);
      value = succeeded(v) ? n.reshape(*v, SmallVector<int64_t>(rank, 1)) : v;
    } else {
      value = splatConstant(n, element, SmallVector<int64_t>(rank, 1), 0);
    }
    if (failed(value))
      return failure();
  }
  Value cur = x;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t dim = shape[d], count = out.getDimSize(d);
    auto begin = elementOf(n, *padsI, d);
    auto beginFull = succeeded(begin) ? n.broadcastTo(*begin, {count}) : begin;
    auto source = binaryOf<SubOp>(n, iota(n, count), beginFull);
    if (failed(source))
      return failure();
    FailureOr<Value> read = *source;
    if (mode == "edge") {
      auto atLeast0 = binaryOf<MaxOp>(n, *source, i32Scalar(n, 0));
      read = binaryOf<MinOp>(n, atLeast0, i32Scalar(n, dim - 1));
    } else if (mode == "reflect") {
      // s < 0: -s; s > dim - 1: 2 (dim - 1) - s
      auto negated = binaryOf<MulOp>(n, *source, i32Scalar(n, -1));
      auto before = binaryOf<LessOp>(n, *source, i32Scalar(n, 0));
      auto low = succeeded(before) && succeeded(negated) ? n.create<WhereOp>(ValueRange{*before, *negated, *source})
                                                          : before;
      auto end = i32Scalar(n, 2 * (dim - 1));
      auto endFull = succeeded(end) ? n.broadcastTo(*end, {count}) : end;
      auto fromEnd = binaryOf<SubOp>(n, endFull, *source);
      auto past = binaryOf<GreaterOp>(n, *source, i32Scalar(n, dim - 1));
      if (failed(low) || failed(fromEnd) || failed(past))
        return failure();
      read = n.create<WhereOp>(ValueRange{*past, *fromEnd, *low});
    }
    if (failed(read))
      return failure();
    auto next = gatherAlong(n, cur, d, *read);
    if (failed(next))
      return failure();
    if (mode == "constant") {
      // positions reading outside the input take the value
      auto below = binaryOf<LessOp>(n, *source, i32Scalar(n, 0));
      auto above = binaryOf<GreaterOp>(n, *source, i32Scalar(n, dim - 1));
      auto outside = binaryOf<OrOp>(n, below, above);
      SmallVector<int64_t> view(rank, 1);
      view[d] = count;
      outside = succeeded(outside) ? n.reshape(*outside, view) : outside;
      outside = succeeded(outside) ? n.broadcastTo(*outside, shapeOf(*next)) : outside;
      auto fill = n.broadcastTo(*value, shapeOf(*next));
      next = succeeded(outside) && succeeded(fill) ? n.create<WhereOp>(ValueRange{*outside, *fill, *next}) : outside;
      if (failed(next))
        return failure();
    }
    cur = *next;
  }
  n.setOutput(0, cur);
  return success();
}
