//===- Compositions.cpp - ONNX ops written as compositions of tx8be ops ---===//
//
// Ops with no tx8be op of their own, imported as a few tx8be ops whose composition has the ONNX semantics
// exactly (or to the rounding of the ops named in each converter's comment).
//
//===----------------------------------------------------------------------===//
#include "Converters.h"

#include <limits>
#include <numeric>

using namespace mlir;
using namespace tx8be;
using namespace tx8be::onnx_import;

FailureOr<Value> tx8be::onnx_import::staticInput(NodeImporter &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  auto type = cast<RankedTensorType>(x->getType());
  if (!type.hasStaticShape())
    return n.unsupported("the input's shape is not static");
  return x;
}

namespace {

ArrayRef<int64_t> shapeOf(Value v) { return cast<RankedTensorType>(v.getType()).getShape(); }

//===----------------------------------------------------------------------===//
// Math
//===----------------------------------------------------------------------===//

/// Trilu: x where the diagonal offset j - i of the last two dims is >= k (upper) or <= k (lower), else 0:
/// Where(D cmp k, x, 0) with D[..., i, j] = j - i at x's full shape (Where takes operands of one shape). A
/// constant k makes the mask a constant; a k computed at run time (an int64 scalar) is compared on the device
/// with an int64 D. tx8be-narrow-int64 computes that in int32 with k saturated, which keeps the comparison
/// exact: |D| < 2^31 - 1.
LogicalResult convertTrilu(NodeImporter &n) {
  if (failed(n.onlyAttrs({"upper"})))
    return failure();
  auto x = staticInput(n);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  int64_t rank = shape.size();
  if (rank < 2)
    return n.unsupported("Trilu needs an input of rank >= 2");
  bool upper = n.attrInt("upper", 1) != 0;
  auto offset = [&](ArrayRef<int64_t> index) { return index[rank - 1] - index[rank - 2]; };
  OpBuilder &b = n.builder();
  FailureOr<Value> mask;
  if (!n.hasInput(1) || n.constantInput(1)) {
    int64_t k = 0;
    if (n.hasInput(1)) {
      auto v = n.constantInts(1, "k");
      if (failed(v))
        return failure();
      if (v->size() != 1)
        return n.unsupported("k must have one element");
      k = v->front();
    }
    mask = filledConstant(n, b.getI1Type(), shape, [&](ArrayRef<int64_t> index) {
      return upper ? offset(index) >= k : offset(index) <= k;
    });
  } else {
    auto k = n.input(1);
    if (failed(k))
      return failure();
    if (!getElementTypeOrSelf(k->getType()).isInteger(64))
      return n.unsupported("k must be int64");
    auto diagonal = filledConstant(n, b.getI64Type(), shape, [&](ArrayRef<int64_t> index) { return offset(index); });
    mask = upper ? binaryOf<GreaterOrEqualOp>(n, diagonal, k) : binaryOf<LessOrEqualOp>(n, diagonal, k);
  }
  auto zeros = splatConstant(n, getElementTypeOrSelf(x->getType()), shape, 0);
  if (failed(mask) || failed(zeros))
    return failure();
  return bindResult(n, n.create<WhereOp>(ValueRange{*mask, *x, *zeros}));
}

/// Hardmax: 1 at the first maximum along the axis, 0 elsewhere: Cast(Equal(ArgMax(x, keepdims), iota)) with an
/// int64 iota along the axis (the comparison broadcasts the index over the axis and the iota over the other
/// dims). ArgMax takes a NaN as the maximum, as numpy's argmax in ONNX's reference. Before opset 13 the input is
/// coerced to 2-D at `axis` and the hardmax taken along dim 1 (as Softmax).
LogicalResult convertHardmax(NodeImporter &n) {
  if (failed(n.onlyAttrs({"axis"})))
    return failure();
  auto x = staticInput(n);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> dims = shapeOf(*x);
  int64_t rank = dims.size(), dflt = n.getOpset() < 13 ? 1 : -1;
  auto axis = checkedAxis(n.attrInt("axis", dflt), std::max<int64_t>(rank, 1));
  if (!axis || (n.getOpset() >= 13 && *axis >= rank))
    return n.unsupported("axis " + Twine(n.attrInt("axis", dflt)) + " is out of range for rank " + Twine(rank));
  FailureOr<Value> v = *x;
  if (n.getOpset() < 13) {
    v = n.reshape(*x, {product(dims.take_front(*axis)), product(dims.drop_front(*axis))});
    axis = 1;
  }
  if (failed(v))
    return failure();
  auto index = n.create<ArgMaxOp>(*v, {n.i64("axis", *axis), n.boolean("keepdims", true),
                                       n.boolean("select_last_index", false)});
  SmallVector<int64_t> iotaShape(shapeOf(*v).size(), 1);
  iotaShape[*axis] = shapeOf(*v)[*axis];
  auto iota = filledConstant(n, n.builder().getI64Type(), iotaShape,
                             [&](ArrayRef<int64_t> i) { return static_cast<double>(i[*axis]); });
  auto hit = binaryOf<EqualOp>(n, index, iota);
  if (failed(hit))
    return failure();
  auto y = castElements(n, *hit, getElementTypeOrSelf(x->getType()));
  if (failed(y))
    return failure();
  return bindResult(n, n.reshape(*y, dims));
}

/// IsNaN: x != x, as Not(Equal(x, x)) (only a NaN is unequal to itself).
LogicalResult convertIsNaN(NodeImporter &n) {
  if (failed(n.onlyAttrs({})))
    return failure();
  auto x = n.input(0);
  if (failed(x))
    return failure();
  return bindResult(n, unaryOf<NotOp>(n, binaryOf<EqualOp>(n, *x, *x)));
}

/// IsInf: Equal(x, +inf) Or Equal(x, -inf), a side dropped when its detect_* flag is 0 (both 0: all false).
LogicalResult convertIsInf(NodeImporter &n) {
  if (failed(n.onlyAttrs({"detect_positive", "detect_negative"})))
    return failure();
  auto x = n.input(0);
  if (failed(x))
    return failure();
  Type element = getElementTypeOrSelf(x->getType());
  if (!isa<FloatType>(element))
    return n.unsupported("IsInf takes a float input");
  bool positive = n.attrInt("detect_positive", 1) != 0, negative = n.attrInt("detect_negative", 1) != 0;
  auto equalTo = [&](double value) -> FailureOr<Value> {
    return binaryOf<EqualOp>(n, *x, splatConstant(n, element, {1}, value));
  };
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (positive && negative) {
    auto pos = equalTo(inf);
    auto neg = equalTo(-inf);
    return bindResult(n, binaryOf<OrOp>(n, pos, neg));
  }
  if (positive || negative)
    return bindResult(n, equalTo(positive ? inf : -inf));
  ArrayRef<int64_t> shape = shapeOf(*x);
  n.setConstantOutput(0, tx8::ref::Tensor(tx8::ref::DType::Bool, std::vector<int64_t>(shape.begin(), shape.end())));
  return success();
}

/// Det: the determinant of each n x n matrix in the last two dims, n <= 3, by the Leibniz formula (ad - bc;
/// for 3 x 3 the expansion along the first row), on the [batch, n * n] view: one column Slice per entry.
LogicalResult convertDet(NodeImporter &n) {
  if (failed(n.onlyAttrs({})))
    return failure();
  auto x = staticInput(n);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  int64_t rank = shape.size();
  if (rank < 2 || shape[rank - 1] != shape[rank - 2] || !isa<FloatType>(getElementTypeOrSelf(x->getType())))
    return n.unsupported("Det takes float square matrices in the last two dims");
  int64_t m = shape[rank - 1], batch = product(shape.drop_back(2));
  if (m < 1 || m > 3)
    return n.unsupported("Det of " + Twine(m) + " x " + Twine(m) + " matrices is not supported (1 to 3 are)");
  auto flat = n.reshape(*x, {batch, m * m});
  if (failed(flat))
    return failure();
  SmallVector<Value> entries; // row-major
  for (int64_t k = 0; k < m * m; ++k) {
    auto e = n.create<SliceOp>(*flat, {n.i64Array("offsets", {0, k}), n.i64Array("sizes", {batch, 1}),
                                       n.i64Array("strides", {1, 1})});
    if (failed(e))
      return failure();
    entries.push_back(*e);
  }
  auto entry = [&](int64_t i, int64_t j) { return entries[i * m + j]; };
  // a * d - b * c of entries (i0, j0) (i1, j1) (i0, j1) (i1, j0)
  auto minor = [&](int64_t i0, int64_t i1, int64_t j0, int64_t j1) -> FailureOr<Value> {
    auto ad = binaryOf<MulOp>(n, entry(i0, j0), entry(i1, j1));
    auto bc = binaryOf<MulOp>(n, entry(i0, j1), entry(i1, j0));
    return binaryOf<SubOp>(n, ad, bc);
  };
  FailureOr<Value> det = failure();
  if (m == 1) {
    det = entry(0, 0);
  } else if (m == 2) {
    det = minor(0, 1, 0, 1);
  } else {
    auto t0 = binaryOf<MulOp>(n, entry(0, 0), minor(1, 2, 1, 2));
    auto t1 = binaryOf<MulOp>(n, entry(0, 1), minor(1, 2, 0, 2));
    auto t2 = binaryOf<MulOp>(n, entry(0, 2), minor(1, 2, 0, 1));
    det = binaryOf<AddOp>(n, binaryOf<SubOp>(n, t0, t1), t2);
  }
  if (failed(det))
    return failure();
  return bindResult(n, n.reshape(*det, shape.drop_back(2)));
}

//===----------------------------------------------------------------------===//
// Rearrangement
//===----------------------------------------------------------------------===//

/// Reshape -> Transpose -> Reshape: the ONNX reference's way of DepthToSpace and SpaceToDepth.
LogicalResult rearrange(NodeImporter &n, Value x, ArrayRef<int64_t> split, ArrayRef<int64_t> perm,
                        ArrayRef<int64_t> outShape) {
  auto v = n.reshape(x, split);
  if (failed(v))
    return failure();
  auto t = n.create<TransposeOp>(*v, {n.i64Array("perm", perm)});
  if (failed(t))
    return failure();
  return bindResult(n, n.reshape(*t, outShape));
}

/// The static 4-D input and the positive blocksize of DepthToSpace / SpaceToDepth.
FailureOr<Value> blockInput(NodeImporter &n, int64_t &blocksize) {
  auto x = staticInput(n);
  if (failed(x))
    return failure();
  if (shapeOf(*x).size() != 4)
    return n.unsupported("the input must be 4-D (N, C, H, W)");
  blocksize = n.attrInt("blocksize", 0);
  if (blocksize < 1 || blocksize > (int64_t{1} << 15))
    return n.unsupported("blocksize " + Twine(blocksize) + " is not in [1, 2^15]");
  return x;
}

/// DepthToSpace: [N, C, H, W] -> [N, C / b^2, H * b, W * b]; DCR takes the channel as (b, b, C / b^2), CRD as
/// (C / b^2, b, b).
LogicalResult convertDepthToSpace(NodeImporter &n) {
  if (failed(n.onlyAttrs({"blocksize", "mode"})))
    return failure();
  int64_t b;
  auto x = blockInput(n, b);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> d = shapeOf(*x);
  if (d[1] % (b * b) != 0)
    return n.unsupported("channels " + Twine(d[1]) + " are not a multiple of blocksize^2");
  int64_t c = d[1] / (b * b);
  SmallVector<int64_t> outShape{d[0], c, d[2] * b, d[3] * b};
  std::string mode = n.attrString("mode", "DCR");
  if (mode == "DCR")
    return rearrange(n, *x, {d[0], b, b, c, d[2], d[3]}, {0, 3, 4, 1, 5, 2}, outShape);
  if (mode == "CRD")
    return rearrange(n, *x, {d[0], c, b, b, d[2], d[3]}, {0, 1, 4, 2, 5, 3}, outShape);
  return n.unsupported("mode '" + mode + "' is not DCR or CRD");
}

/// SpaceToDepth: [N, C, H, W] -> [N, C * b^2, H / b, W / b], the channel taken as (b, b, C).
LogicalResult convertSpaceToDepth(NodeImporter &n) {
  if (failed(n.onlyAttrs({"blocksize"})))
    return failure();
  int64_t b;
  auto x = blockInput(n, b);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> d = shapeOf(*x);
  if (d[2] % b != 0 || d[3] % b != 0)
    return n.unsupported("H and W must be multiples of blocksize " + Twine(b));
  return rearrange(n, *x, {d[0], d[1], d[2] / b, b, d[3] / b, b}, {0, 3, 5, 1, 2, 4},
                   {d[0], d[1] * b * b, d[2] / b, d[3] / b});
}

//===----------------------------------------------------------------------===//
// Normalisation
//===----------------------------------------------------------------------===//

/// InstanceNormalization: x standardised over the spatial dims (ONNX's reference takes the same mean and
/// variance: mean((x - mean)^2)), times scale plus B per channel (both reshaped to [C, 1, ...]).
LogicalResult convertInstanceNormalization(NodeImporter &n) {
  if (failed(n.onlyAttrs({"epsilon"})))
    return failure();
  auto x = staticInput(n);
  if (failed(x))
    return failure();
  int64_t rank = shapeOf(*x).size();
  if (rank < 3)
    return n.unsupported("the input must have rank >= 3 (N, C, spatial...)");
  SmallVector<int64_t> axes(rank - 2), perChannel(rank - 1, 1);
  std::iota(axes.begin(), axes.end(), 2);
  perChannel[0] = shapeOf(*x)[1];
  auto normal = standardize(n, *x, axes, n.attrFloat("epsilon", 1e-5f));
  if (failed(normal))
    return failure();
  auto scale = n.input(1);
  auto scaled = binaryOf<MulOp>(n, normal->y, succeeded(scale) ? n.reshape(*scale, perChannel) : scale);
  auto bias = n.input(2);
  return bindResult(n, binaryOf<AddOp>(n, scaled, succeeded(bias) ? n.reshape(*bias, perChannel) : bias));
}

/// MeanVarianceNormalization as ONNX's function computes it: (x - mean(x)) / (sqrt(mean(x^2) - mean(x)^2) +
/// 1e-9), the means over `axes` (default [0, 2, 3]) kept as 1s. The means are taken on reducedDimsLast(x) and
/// reshaped to the kept-dims shape (the kept dims are in order, the others are 1s).
LogicalResult convertMeanVarianceNormalization(NodeImporter &n) {
  if (failed(n.onlyAttrs({"axes"})))
    return failure();
  auto x = staticInput(n);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> dims = shapeOf(*x);
  SmallVector<int64_t> axes = n.hasAttr("axes") ? n.attrInts("axes") : SmallVector<int64_t>{0, 2, 3};
  SmallVector<int64_t> keptShape(dims);
  for (int64_t &a : axes) {
    auto axis = checkedAxis(a, dims.size());
    if (!axis || keptShape[*axis] == 0)
      return n.unsupported("axis " + Twine(a) + " is out of range or repeated for rank " + Twine(dims.size()));
    a = *axis;
    keptShape[a] = 0; // marks it taken; set to 1 below
  }
  for (int64_t a : axes)
    keptShape[a] = 1;
  auto view = reducedDimsLast(n, *x, axes);
  auto mean = [&](FailureOr<Value> v) -> FailureOr<Value> {
    if (failed(v))
      return failure();
    auto m = n.create<ReduceMeanOp>(*v, {n.i64Array("axes", axes), n.boolean("keepdims", true)});
    return failed(m) ? m : n.reshape(*m, keptShape);
  };
  auto meanX = mean(view);
  auto meanSquare = mean(binaryOf<MulOp>(n, view, view));
  auto variance = binaryOf<SubOp>(n, meanSquare, binaryOf<MulOp>(n, meanX, meanX));
  auto stdDev = unaryOf<SqrtOp>(n, variance);
  auto centred = binaryOf<SubOp>(n, *x, meanX);
  auto eps = splatConstant(n, getElementTypeOrSelf(x->getType()), {1}, 1e-9f);
  return bindResult(n, binaryOf<DivOp>(n, centred, binaryOf<AddOp>(n, stdDev, eps)));
}

/// LRN: x / (bias + alpha / size * square_sum)^beta, square_sum over the channels c - floor((size - 1) / 2) ..
/// c + ceil((size - 1) / 2) (none outside [0, C)). The window sum is an AvgPool of x * x viewed as
/// [N, 1, C, rest] with a [size, 1] kernel and those pads counted: square_sum / size, times alpha.
LogicalResult convertLRN(NodeImporter &n) {
  if (failed(n.onlyAttrs({"alpha", "beta", "bias", "size"})))
    return failure();
  auto x = staticInput(n);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> dims = shapeOf(*x);
  int64_t size = n.attrInt("size", 0);
  if (dims.size() < 2)
    return n.unsupported("the input must have rank >= 2 (N, C, ...)");
  if (size < 1 || size > (int64_t{1} << 15))
    return n.unsupported("size " + Twine(size) + " is not in [1, 2^15]");
  Type element = getElementTypeOrSelf(x->getType());
  auto square = binaryOf<MulOp>(n, *x, *x);
  auto view = failed(square) ? square : n.reshape(*square, {dims[0], 1, dims[1], product(dims.drop_front(2))});
  if (failed(view))
    return failure();
  auto mean = n.create<AvgPoolOp>(*view, {n.i64Array("kernel_shape", {size, 1}), n.i64Array("strides", {1, 1}),
                                          n.i64Array("pads", {(size - 1) / 2, 0, size / 2, 0}),
                                          n.i64Array("dilations", {1, 1}), n.boolean("ceil_mode", false),
                                          n.boolean("count_include_pad", true)});
  auto sum = failed(mean) ? mean : n.reshape(*mean, dims);
  auto alpha = splatConstant(n, element, {1}, n.attrFloat("alpha", 1e-4f));
  auto bias = splatConstant(n, element, {1}, n.attrFloat("bias", 1.0f));
  auto base = binaryOf<AddOp>(n, binaryOf<MulOp>(n, sum, alpha), bias);
  auto beta = splatConstant(n, element, {1}, n.attrFloat("beta", 0.75f));
  return bindResult(n, binaryOf<DivOp>(n, *x, binaryOf<PowOp>(n, base, beta)));
}

} // namespace

void tx8be::onnx_import::addCompositionConverters(llvm::StringMap<NodeConverter> &converters) {
  converters["Trilu"] = convertTrilu;
  converters["Hardmax"] = convertHardmax;
  converters["IsNaN"] = convertIsNaN;
  converters["IsInf"] = convertIsInf;
  converters["Det"] = convertDet;
  converters["DepthToSpace"] = convertDepthToSpace;
  converters["SpaceToDepth"] = convertSpaceToDepth;
  converters["InstanceNormalization"] = convertInstanceNormalization;
  converters["MeanVarianceNormalization"] = convertMeanVarianceNormalization;
  converters["LRN"] = convertLRN;
}
