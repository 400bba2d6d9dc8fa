//===- DecomposeConvPool.cpp - Convolutions and pools as the 1-D/2-D kernels (tx8be-decompose) ===//
//
// OpLib's op_conv is 1-D / 2-D and op_maxpool / op_avgpool are 2-D; ConvTranspose has no kernel. The
// patterns here write the other forms as those kernels plus data movement (Reshape, a DDR view; Transpose,
// Slice, Pad, Concat on the TDMA), with ONNX semantics (NC[D]HW, pads [begins..., ends...]):
//  * a 1-D pool is the 2-D pool of an N x C x 1 x W view;
//  * a 3-D pool is two 2-D pools, over (H, W) then over D, both on views (a window box is separable: max of
//    maxes, and the average divisor is the product of the per-axis tap counts in every mode);
//  * a 3-D Conv is one 2-D Conv over the depth taps gathered into channels (im2col along D);
//  * a ConvTranspose is a Conv over the input with stride - 1 zeros between elements, padded by
//    dilation * (k - 1) - pad, with the per-group transposed and spatially flipped weights.
// Every op a pattern creates has a kernel (or is a Reshape / a constant computation that
// tx8be-fold-constants folds), so the driver need not revisit them.
//
//===----------------------------------------------------------------------===//
#include "DecomposeConvPool.h"

#include "tx8/Dialect/Tx8be/IR/Tx8be.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <algorithm>
#include <limits>
#include <type_traits>

using namespace mlir;
using namespace tx8be;

namespace {

RankedTensorType typeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

/// Value i of a per-spatial-dim attribute, `dflt` when the attribute is empty.
int64_t at(ArrayRef<int64_t> values, size_t i, int64_t dflt) { return i < values.size() ? values[i] : dflt; }


bool staticShapes(Operation *op) {
  auto isStatic = [](Type t) {
    auto ranked = dyn_cast<RankedTensorType>(t);
    return ranked && ranked.hasStaticShape();
  };
  return llvm::all_of(op->getOperandTypes(), isStatic) && llvm::all_of(op->getResultTypes(), isStatic);
}

/// `v` seen with `shape` (same elements, row-major): a Reshape, or `v` when the shape is its own. A Reshape of a
/// Reshape reads the first one's input (which goes if nothing else reads it).
Value reshapeTo(PatternRewriter &rewriter, Location loc, Value v, ArrayRef<int64_t> shape) {
  auto type = RankedTensorType::get(shape, typeOf(v).getElementType());
  if (type == v.getType())
    return v;
  auto inner = v.getDefiningOp<ReshapeOp>();
  Value source = inner ? inner.getInput() : v;
  Value result = type == source.getType()
                     ? source
                     : rewriter.create<ReshapeOp>(loc, type, source, StringAttr(), DevAttr()).getResult();
  if (inner && inner->use_empty())
    rewriter.eraseOp(inner);
  return result;
}

/// Output dim i = input dim perm[i]: a Transpose, or a Reshape when only dims of extent 1 move (the bytes keep
/// their order).
Value permute(PatternRewriter &rewriter, Location loc, Value v, ArrayRef<int64_t> perm) {
  auto shape = typeOf(v).getShape();
  SmallVector<int64_t> permuted;
  int64_t last = -1;
  bool moves = false;
  for (int64_t p : perm) {
    permuted.push_back(shape[p]);
    if (shape[p] != 1) {
      moves |= p < last;
      last = p;
    }
  }
  if (!moves)
    return reshapeTo(rewriter, loc, v, permuted);
  return rewriter.create<TransposeOp>(loc, v, rewriter.getDenseI64ArrayAttr(perm), StringAttr(), DevAttr())
      .getResult();
}

/// output[i] = v[offsets + i * strides] of shape `sizes`: a Slice, or `v` when that is all of it.
Value slice(PatternRewriter &rewriter, Location loc, Value v, ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes,
            ArrayRef<int64_t> strides) {
  bool whole = sizes == typeOf(v).getShape() && llvm::all_of(offsets, [](int64_t o) { return o == 0; }) &&
               llvm::all_of(strides, [](int64_t s) { return s == 1; });
  if (whole)
    return v;
  return rewriter
      .create<SliceOp>(loc, v, rewriter.getDenseI64ArrayAttr(offsets), rewriter.getDenseI64ArrayAttr(sizes),
                       rewriter.getDenseI64ArrayAttr(strides), StringAttr(), DevAttr())
      .getResult();
}

/// `v` padded with `value` (ONNX pads: begins, then ends), or `v` when every pad is 0.
Value constantPad(PatternRewriter &rewriter, Location loc, Value v, ArrayRef<int64_t> pads, double value) {
  if (llvm::all_of(pads, [](int64_t p) { return p == 0; }))
    return v;
  return rewriter
      .create<PadOp>(loc, v, rewriter.getDenseI64ArrayAttr(pads),
                     PadModeAttr::get(rewriter.getContext(), PadMode::Constant),
                     rewriter.getF32FloatAttr(static_cast<float>(value)), StringAttr(), DevAttr())
      .getResult();
}

Value zeroPad(PatternRewriter &rewriter, Location loc, Value v, ArrayRef<int64_t> pads) {
  return constantPad(rewriter, loc, v, pads, 0.0);
}

Value concat(PatternRewriter &rewriter, Location loc, ArrayRef<Value> values, int64_t axis) {
  if (values.size() == 1)
    return values.front();
  return rewriter.create<ConcatOp>(loc, values, rewriter.getI64IntegerAttr(axis), StringAttr(), DevAttr())
      .getResult();
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

/// The largest spatial extent (and window parameter) the CT pool instruction takes (POOL_MAX_EXTENT, the POOL_2D
/// geometry registers; oplib/src/ops/pool_common.c).
constexpr int64_t kPoolMaxExtent = 65535;

/// A 2-D PoolOpT over `input` with the given window, ceil_mode and (an average's) count_include_pad.
template <typename PoolOpT>
Value pool2d(PatternRewriter &rewriter, Location loc, Value input, ArrayRef<int64_t> kernel,
             ArrayRef<int64_t> strides, ArrayRef<int64_t> pads, ArrayRef<int64_t> dilations, bool ceilMode,
             bool countIncludePad) {
  auto ints = [&](ArrayRef<int64_t> v) { return rewriter.getDenseI64ArrayAttr(v); };
  BoolAttr ceil = rewriter.getBoolAttr(ceilMode);
  if constexpr (std::is_same_v<PoolOpT, AvgPoolOp>)
    return rewriter
        .create<AvgPoolOp>(loc, input, ints(kernel), ints(strides), ints(pads), ints(dilations), ceil,
                           rewriter.getBoolAttr(countIncludePad), StringAttr(), DevAttr())
        .getResult();
  else
    return rewriter
        .create<MaxPoolOp>(loc, input, ints(kernel), ints(strides), ints(pads), ints(dilations), ceil, StringAttr(),
                           DevAttr())
        .getResult();
}

/// A 2-D pool of `op`'s kind, ceil_mode and count_include_pad over `input` with the given window.
template <typename PoolOpT>
Value pool2d(PoolOpT op, PatternRewriter &rewriter, Location loc, Value input, ArrayRef<int64_t> kernel,
             ArrayRef<int64_t> strides, ArrayRef<int64_t> pads, ArrayRef<int64_t> dilations) {
  bool countIncludePad = false;
  if constexpr (std::is_same_v<PoolOpT, AvgPoolOp>)
    countIncludePad = op.getCountIncludePad();
  return pool2d<PoolOpT>(rewriter, loc, input, kernel, strides, pads, dilations, op.getCeilMode(), countIncludePad);
}

/// Whether `op` is an average that op_avgpool would divide wrongly: with count_include_pad and a ceil_mode window
/// that runs past the end padding, the 2-D kernel counts that overhang as padding (it is given it as pad), where
/// ONNX and the reference never count it (pre-existing in the 2-D AvgPool too). A 1-D one pads explicitly
/// (Pool1dRowsAs2d); a 3-D one keeps its refusal rather than run to a wrong answer.
template <typename PoolOpT>
bool countsCeilOverhang(PoolOpT op) {
  if constexpr (std::is_same_v<PoolOpT, AvgPoolOp>) {
    if (!op.getCountIncludePad() || !op.getCeilMode())
      return false;
    auto in = typeOf(op.getInput()).getShape(), out = typeOf(op.getOutput()).getShape();
    size_t nsp = in.size() - 2;
    ArrayRef<int64_t> pads = op.getPads();
    for (size_t i = 0; i < nsp; ++i) {
      int64_t span = (op.getKernelShape()[i] - 1) * at(op.getDilations(), i, 1) + 1;
      if ((out[2 + i] - 1) * at(op.getStrides(), i, 1) + span > in[2 + i] + at(pads, i, 0) + at(pads, nsp + i, 0))
        return true;
    }
  }
  return false;
}

/// A 1-D pool (N x C x W) is the 2-D pool of its N x C x 1 x W view with the window 1 x k (strides 1 x s,
/// dilations 1 x d, pads [0, begin, 0, end]): the unit axis has one tap per output, in every mode (its
/// ceil_mode extent is 1 too), so the values and the average divisors are the 1-D ones. Rows longer than the
/// CT pool instruction takes, and averages it would divide wrongly, are Pool1dRowsAs2d's.
template <typename PoolOpT>
struct Pool1dAs2d : OpRewritePattern<PoolOpT> {
  using OpRewritePattern<PoolOpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(PoolOpT op, PatternRewriter &rewriter) const override {
    auto shape = typeOf(op.getInput()).getShape();
    if (shape.size() != 3 || !staticShapes(op))
      return failure();
    if (shape[2] > kPoolMaxExtent || typeOf(op.getOutput()).getDimSize(2) > kPoolMaxExtent)
      return rewriter.notifyMatchFailure(op, "the row is longer than the CT pool instruction takes");
    if (countsCeilOverhang(op))
      return rewriter.notifyMatchFailure(op, "op_avgpool would count the ceil_mode overhang as padding");
    Location loc = op.getLoc();
    ArrayRef<int64_t> pads = op.getPads();
    Value x = reshapeTo(rewriter, loc, op.getInput(), {shape[0], shape[1], 1, shape[2]});
    Value y = pool2d(op, rewriter, loc, x, {1, op.getKernelShape()[0]}, {1, at(op.getStrides(), 0, 1)},
                     {0, at(pads, 0, 0), 0, at(pads, 1, 0)}, {1, at(op.getDilations(), 0, 1)});
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, y, typeOf(op.getOutput()).getShape()));
    return success();
  }
};

/// A 1-D pool that Pool1dAs2d's view cannot take (a row longer than the CT pool instruction takes, kPoolMaxExtent
/// per spatial extent, or an average countsCeilOverhang refuses) as one 2-D pool over B rows of overlapping
/// chunks of the explicitly padded input: row b holds it at [b*M*s, b*M*s + L), L = (M-1)*s + span, whose M
/// windows are outputs b*M ... b*M + M-1:
///   xp   = Pad(x; begin, enough at the end for B+1 rows of M*s) as N x C x (B+1) x M*s
///   rows = Concat(xp[:, :, :B], xp[:, :, 1:, :L - M*s], axis 3)      N x C x B x L (the halo is the next row's head;
///          without one, L <= M*s: B rows of xp[:, :, :B, :L]; one row: xp padded to L)
///   y    = pool2d(rows; 1 x k, 1 x s, 1 x d, no pads) as N x C x B*M, cut to the output's extent
/// The padding is explicit, so the pool counts it: a max pads with the lowest finite value (a window with no
/// input tap gives it instead of -inf), an average with 0 and counts every tap (sum / k), then is scaled by
/// k / count per output position (a constant), count as ONNX and the reference count it (never a ceil_mode
/// overhang), which is also how the reference divides.
template <typename PoolOpT>
struct Pool1dRowsAs2d : OpRewritePattern<PoolOpT> {
  using OpRewritePattern<PoolOpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(PoolOpT op, PatternRewriter &rewriter) const override {
    auto shape = typeOf(op.getInput()).getShape();
    if (shape.size() != 3 || !staticShapes(op))
      return failure();
    int64_t n = shape[0], c = shape[1], w = shape[2], out = typeOf(op.getOutput()).getDimSize(2);
    if (w <= kPoolMaxExtent && out <= kPoolMaxExtent && !countsCeilOverhang(op))
      return failure();
    int64_t k = op.getKernelShape()[0], s = at(op.getStrides(), 0, 1), d = at(op.getDilations(), 0, 1);
    int64_t padBegin = at(op.getPads(), 0, 0), padEnd = at(op.getPads(), 1, 0), span = (k - 1) * d + 1;
    if (span > kPoolMaxExtent || s > kPoolMaxExtent)
      return rewriter.notifyMatchFailure(op, "the window is longer than the CT pool instruction takes");
    // As few rows as the row length allows, then outputs spread evenly over them (the least padding).
    int64_t rows = (out + (kPoolMaxExtent - span) / s) / ((kPoolMaxExtent - span) / s + 1), m = (out + rows - 1) / rows;
    int64_t rowLen = (m - 1) * s + span, step = m * s, halo = std::max<int64_t>(rowLen - step, 0);
    if ((rows > 1 && halo > step) || rows > kPoolMaxExtent)
      return rewriter.notifyMatchFailure(op, "no row split fits the CT pool instruction");
    Location loc = op.getLoc();
    Type element = typeOf(op.getInput()).getElementType();
    constexpr bool isAvg = std::is_same_v<PoolOpT, AvgPoolOp>;
    // The padded input holds the rows of `step` (one more when a halo reads the next; one row: L), cut if the input
    // is longer.
    int64_t gridRows = halo > 0 && rows > 1 ? rows + 1 : rows, gridStep = rows > 1 ? step : rowLen;
    int64_t tail = gridRows * gridStep - padBegin - w;
    if (w + tail <= 0)
      return rewriter.notifyMatchFailure(op, "no window reads the input");
    Value x = op.getInput();
    if (tail < 0)
      x = slice(rewriter, loc, x, {0, 0, 0}, {n, c, w + tail}, {1, 1, 1});
    double fill = 0.0;
    if (!isAvg)
      fill = llvm::APFloat::getLargest(cast<FloatType>(element).getFloatSemantics(), /*Negative=*/true)
                 .convertToDouble();
    x = constantPad(rewriter, loc, x, {0, 0, padBegin, 0, 0, std::max<int64_t>(tail, 0)}, fill);
    Value grid = reshapeTo(rewriter, loc, x, {n, c, gridRows, gridStep});
    Value chunks = slice(rewriter, loc, grid, {0, 0, 0, 0}, {n, c, rows, std::min(rowLen, gridStep)}, {1, 1, 1, 1});
    if (halo > 0 && rows > 1) {
      Value heads = slice(rewriter, loc, grid, {0, 0, 1, 0}, {n, c, rows, halo}, {1, 1, 1, 1});
      chunks = concat(rewriter, loc, {chunks, heads}, 3);
    }
    Value y = pool2d<PoolOpT>(rewriter, loc, chunks, {1, k}, {1, s}, {0, 0, 0, 0}, {1, d}, /*ceilMode=*/false,
                              /*countIncludePad=*/true);
    y = reshapeTo(rewriter, loc, y, {n, c, rows * m});
    y = slice(rewriter, loc, y, {0, 0, 0}, {n, c, out}, {1, 1, 1});
    if constexpr (isAvg) {
      // k / count per output: the taps inside the input, or inside the padded input with count_include_pad (never a
      // ceil_mode overhang); 0 taps give k / 0 = inf and 0 * inf = NaN, as the reference's 0 / 0.
      int64_t lo = op.getCountIncludePad() ? -padBegin : 0, hi = op.getCountIncludePad() ? w + padEnd : w;
      SmallVector<APFloat> scale;
      bool ones = true;
      auto ceilDiv = [](int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -(-a / b); };
      for (int64_t o = 0; o < out; ++o) {
        // taps t < k with lo <= o*s - padBegin + t*d < hi
        int64_t base = o * s - padBegin;
        int64_t first = std::max<int64_t>(0, ceilDiv(lo - base, d));
        int64_t last = std::min<int64_t>(k - 1, hi - 1 - base < 0 ? -1 : (hi - 1 - base) / d);
        int64_t count = std::max<int64_t>(0, last - first + 1);
        ones &= count == k;
        APFloat v(count ? static_cast<float>(k) / static_cast<float>(count) : std::numeric_limits<float>::infinity());
        bool lost;
        v.convert(cast<FloatType>(element).getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
        scale.push_back(v);
      }
      if (!ones) {
        auto type = RankedTensorType::get({out}, element);
        Value factor = rewriter.create<ConstantOp>(loc, type, DenseElementsAttr::get(type, scale)).getResult();
        y = rewriter.create<MulOp>(loc, ValueRange{y, factor}).getResult();
      }
    }
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// A 3-D pool (N x C x D x H x W) is two 2-D pools on views, each window axis pooled once:
///   y1 = pool2d(N x (C*D) x H x W; kh x kw, sh x sw, pads/dilations of H and W)   -> N x C*D x OH x OW
///   y  = pool2d(N x C x D x (OH*OW); kd x 1, sd x 1, pads/dilations of D only)     -> N x C x OD x OH*OW
/// The 3-D window is the box of the per-axis windows, so max = max over the D taps of the (H, W) maxima, and
/// avg = avg over the D taps of the (H, W) averages: the 3-D divisor (the reference's and ONNX's) is the product
/// of the per-axis tap counts, in both count_include_pad modes (padding counted, a ceil_mode overhang never),
/// and ceil_mode decides each axis' extent on its own. A stage whose window is 1 with stride 1 and no pads
/// is the identity and is left out. (The average rounds twice, to the element type, instead of once.)
template <typename PoolOpT>
struct Pool3dAsTwo2d : OpRewritePattern<PoolOpT> {
  using OpRewritePattern<PoolOpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(PoolOpT op, PatternRewriter &rewriter) const override {
    auto shape = typeOf(op.getInput()).getShape();
    if (shape.size() != 5 || !staticShapes(op))
      return failure();
    if (countsCeilOverhang(op))
      return rewriter.notifyMatchFailure(op, "op_avgpool would count the ceil_mode overhang as padding");
    auto outShape = typeOf(op.getOutput()).getShape();
    if (llvm::any_of(shape.drop_front(2), [](int64_t e) { return e > kPoolMaxExtent; }) ||
        outShape[3] * outShape[4] > kPoolMaxExtent)
      return rewriter.notifyMatchFailure(op, "a view is larger than the CT pool instruction takes");
    Location loc = op.getLoc();
    ArrayRef<int64_t> k = op.getKernelShape(), s = op.getStrides(), p = op.getPads(), d = op.getDilations();
    auto identity = [&](size_t i) { return k[i] == 1 && at(s, i, 1) == 1 && at(p, i, 0) == 0 && at(p, i + 3, 0) == 0; };
    int64_t n = shape[0], c = shape[1], depth = shape[2];
    Value y = op.getInput();
    int64_t oh = shape[3], ow = shape[4];
    if (!identity(1) || !identity(2)) {
      Value hw = reshapeTo(rewriter, loc, y, {n, c * depth, shape[3], shape[4]});
      y = pool2d(op, rewriter, loc, hw, {k[1], k[2]}, {at(s, 1, 1), at(s, 2, 1)},
                 {at(p, 1, 0), at(p, 2, 0), at(p, 4, 0), at(p, 5, 0)}, {at(d, 1, 1), at(d, 2, 1)});
      oh = typeOf(y).getDimSize(2);
      ow = typeOf(y).getDimSize(3);
    }
    if (!identity(0)) {
      Value dv = reshapeTo(rewriter, loc, y, {n, c, depth, oh * ow});
      y = pool2d(op, rewriter, loc, dv, {k[0], 1}, {at(s, 0, 1), 1}, {at(p, 0, 0), 0, at(p, 3, 0), 0},
                 {at(d, 0, 1), 1});
    }
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, y, typeOf(op.getOutput()).getShape()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Convolution
//===----------------------------------------------------------------------===//

/// Conv 3-D of x (N x C x D x H x W) and w (O x C/g x KD x KH x KW) as one 2-D Conv, im2col along the depth:
///   t   = Transpose(x as N x C x D x HW -> N x D x C x HW), zero-padded on D by the depth pads
///   tap_k = t[:, k*dd : k*dd + (OD-1)*sd + 1 : sd]                   k < KD, each N x OD x C x HW
///   col = Concat(tap_k as (N*OD) x C x 1 x HW, axis 2) as (N*OD) x (C*KD) x H x W   channel = c*KD + k
///   y2  = Conv2d(col, w as O x (C/g*KD) x KH x KW, bias; H/W strides, pads, dilations, group g)
///   y   = Transpose(y2 as N x OD x O x OHW -> N x O x OD x OHW) as N x O x OD x OH x OW
/// Each output depth is one image of the batch. The weight is only reshaped: its channel index c'*KD + k per
/// group matches col's (each input channel's KD taps are adjacent, so a group's channels stay contiguous).
Value conv3dAs2d(PatternRewriter &rewriter, Location loc, Value x, Value w, Value bias, ArrayRef<int64_t> strides,
                 ArrayRef<int64_t> pads, ArrayRef<int64_t> dilations, int64_t group) {
  auto xs = typeOf(x).getShape(), ws = typeOf(w).getShape();
  int64_t n = xs[0], c = xs[1], depth = xs[2], h = xs[3], wd = xs[4];
  int64_t o = ws[0], cg = ws[1], kd = ws[2];
  int64_t sd = at(strides, 0, 1), dd = at(dilations, 0, 1), padBegin = at(pads, 0, 0), padEnd = at(pads, 3, 0);
  int64_t od = (depth + padBegin + padEnd - dd * (kd - 1) - 1) / sd + 1;
  Value t = permute(rewriter, loc, reshapeTo(rewriter, loc, x, {n, c, depth, h * wd}), {0, 2, 1, 3});
  t = zeroPad(rewriter, loc, t, {0, padBegin, 0, 0, 0, padEnd, 0, 0});
  SmallVector<Value> taps;
  for (int64_t k = 0; k < kd; ++k) {
    Value tap = slice(rewriter, loc, t, {0, k * dd, 0, 0}, {n, od, c, h * wd}, {1, sd, 1, 1});
    taps.push_back(reshapeTo(rewriter, loc, tap, {n * od, c, 1, h * wd}));
  }
  Value col = reshapeTo(rewriter, loc, concat(rewriter, loc, taps, 2), {n * od, c * kd, h, wd});
  Value w2 = reshapeTo(rewriter, loc, w, {o, cg * kd, ws[3], ws[4]});
  auto ints = [&](ArrayRef<int64_t> v) { return rewriter.getDenseI64ArrayAttr(v); };
  Value y = rewriter
                .create<ConvOp>(loc, col, w2, bias, ints({at(strides, 1, 1), at(strides, 2, 1)}),
                                ints({at(pads, 1, 0), at(pads, 2, 0), at(pads, 4, 0), at(pads, 5, 0)}),
                                ints({at(dilations, 1, 1), at(dilations, 2, 1)}), rewriter.getI64IntegerAttr(group),
                                StringAttr(), DevAttr())
                .getResult();
  int64_t oh = typeOf(y).getDimSize(2), ow = typeOf(y).getDimSize(3);
  Value back = permute(rewriter, loc, reshapeTo(rewriter, loc, y, {n, od, o, oh * ow}), {0, 2, 1, 3});
  return reshapeTo(rewriter, loc, back, {n, o, od, oh, ow});
}

/// Conv 3-D as one 2-D Conv (conv3dAs2d above).
struct Conv3dAsConv2d : OpRewritePattern<ConvOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvOp op, PatternRewriter &rewriter) const override {
    if (typeOf(op.getInput()).getRank() != 5 || !staticShapes(op))
      return failure();
    rewriter.replaceOp(op, conv3dAs2d(rewriter, op.getLoc(), op.getInput(), op.getWeight(), op.getBias(),
                                      op.getStrides(), op.getPads(), op.getDilations(), op.getGroup()));
    return success();
  }
};

/// x (N x C x spatial...) with s_i - 1 zeros after each element along spatial dim i (extent e_i -> e_i * s_i):
/// per pair of spatial dims, a view [lead, e_a, 1, e_b, 1, trail] (the 1 only where s > 1) padded at the end of
/// each unit dim by s - 1, seen again as N x C x ... (at most 6 dims per Pad).
Value insertZeros(PatternRewriter &rewriter, Location loc, Value x, ArrayRef<int64_t> strides) {
  SmallVector<int64_t> shape(typeOf(x).getShape());
  size_t nsp = shape.size() - 2;
  for (size_t a = 0; a < nsp; a += 2) {
    size_t b = std::min(a + 2, nsp);
    SmallVector<int64_t> view{ShapedType::getNumElements(ArrayRef<int64_t>(shape).take_front(2 + a))}, padEnd{0};
    bool any = false;
    for (size_t i = a; i < b; ++i) {
      view.push_back(shape[2 + i]);
      padEnd.push_back(0);
      if (int64_t s = at(strides, i, 1); s > 1) {
        view.push_back(1);
        padEnd.push_back(s - 1);
        any = true;
      }
    }
    if (!any)
      continue;
    if (b < nsp) {
      view.push_back(ShapedType::getNumElements(ArrayRef<int64_t>(shape).drop_front(2 + b)));
      padEnd.push_back(0);
    }
    SmallVector<int64_t> pads(view.size(), 0);
    pads.append(padEnd);
    x = zeroPad(rewriter, loc, reshapeTo(rewriter, loc, x, view), pads);
    for (size_t i = a; i < b; ++i)
      shape[2 + i] *= at(strides, i, 1);
    x = reshapeTo(rewriter, loc, x, shape);
  }
  return x;
}

/// ConvTranspose's weight (C x O/g x k...) as the equivalent Conv's (O x C/g x k...): per group g', the
/// [C/g][O/g] block transposed (W'[g'*O/g + o][c] = W[g'*C/g + c][o]), then every spatial axis reversed.
Value convTransposeWeightAsConv(PatternRewriter &rewriter, Location loc, Value w, int64_t group) {
  SmallVector<int64_t> ws(typeOf(w).getShape());
  int64_t rank = static_cast<int64_t>(ws.size()), cg = ws[0] / group, og = ws[1];
  SmallVector<int64_t> grouped{group, cg, og}, perm{0, 2, 1};
  for (int64_t i = 2; i < rank; ++i) {
    grouped.push_back(ws[i]);
    perm.push_back(i + 1);
  }
  Value t = permute(rewriter, loc, reshapeTo(rewriter, loc, w, grouped), perm);
  SmallVector<int64_t> shape{og * group, cg}, offsets{0, 0}, steps{1, 1};
  for (int64_t i = 2; i < rank; ++i) {
    shape.push_back(ws[i]);
    offsets.push_back(ws[i] - 1);
    steps.push_back(ws[i] > 1 ? -1 : 1);
  }
  return slice(rewriter, loc, reshapeTo(rewriter, loc, t, shape), offsets, shape, steps);
}

/// ConvTranspose (1-D to 3-D) as a Conv. Per spatial axis (input extent e, kernel k, stride s, dilation d, pads
/// pb / pe, output_padding op): y[j] = sum_i,t x[i] W[t] over i*s + t*d - pb = j, which is the stride-1 Conv
/// (dilation d) of u = x with s - 1 zeros after each element (extent e*s) and the flipped kernel, u padded by
///   begin = d*(k-1) - pb,  end = d*(k-1) - pe + op - (s-1)   (u already ends in s-1 zeros)
/// giving e*s + begin + end - d*(k-1) = (e-1)*s + d*(k-1) + 1 + op - pb - pe outputs. Positive pads are the
/// Conv's own; a negative one crops u (Slice). The weight is per group transposed and spatially flipped
/// (constant weights fold). The 3-D Conv goes through conv3dAs2d.
struct ConvTransposeAsConv : OpRewritePattern<ConvTransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvTransposeOp op, PatternRewriter &rewriter) const override {
    int64_t rank = typeOf(op.getInput()).getRank();
    if (rank < 3 || rank > 5 || !staticShapes(op))
      return failure();
    Location loc = op.getLoc();
    size_t nsp = static_cast<size_t>(rank - 2);
    ArrayRef<int64_t> strides = op.getStrides(), dilations = op.getDilations(), pads = op.getPads(),
                      outPad = op.getOutputPadding();
    auto ws = typeOf(op.getWeight()).getShape();
    Value u = insertZeros(rewriter, loc, op.getInput(), strides);
    SmallVector<int64_t> offsets(rank, 0), sizes(typeOf(u).getShape()), steps(rank, 1), begin, end;
    for (size_t i = 0; i < nsp; ++i) {
      int64_t span = at(dilations, i, 1) * (ws[2 + i] - 1);
      int64_t lo = span - at(pads, i, 0);
      int64_t hi = span - at(pads, nsp + i, 0) + at(outPad, i, 0) - (at(strides, i, 1) - 1);
      if (lo < 0)
        offsets[2 + i] = -lo, sizes[2 + i] += lo, lo = 0;
      if (hi < 0)
        sizes[2 + i] += hi, hi = 0;
      begin.push_back(lo);
      end.push_back(hi);
    }
    u = slice(rewriter, loc, u, offsets, sizes, steps);
    Value w = convTransposeWeightAsConv(rewriter, loc, op.getWeight(), op.getGroup());
    SmallVector<int64_t> convPads(begin), ones(nsp, 1), dil;
    convPads.append(end);
    for (size_t i = 0; i < nsp; ++i)
      dil.push_back(at(dilations, i, 1));
    Value y;
    if (nsp == 3) {
      y = conv3dAs2d(rewriter, loc, u, w, op.getBias(), ones, convPads, dil, op.getGroup());
    } else {
      y = rewriter
              .create<ConvOp>(loc, u, w, op.getBias(), rewriter.getDenseI64ArrayAttr(ones),
                              rewriter.getDenseI64ArrayAttr(convPads), rewriter.getDenseI64ArrayAttr(dil),
                              rewriter.getI64IntegerAttr(op.getGroup()), StringAttr(), DevAttr())
              .getResult();
    }
    rewriter.replaceOp(op, y);
    return success();
  }
};

} // namespace

void tx8be::populateConvPoolDecompositions(RewritePatternSet &patterns) {
  patterns.add<Pool1dAs2d<MaxPoolOp>, Pool1dAs2d<AvgPoolOp>, Pool1dRowsAs2d<MaxPoolOp>,
               Pool1dRowsAs2d<AvgPoolOp>, Pool3dAsTwo2d<MaxPoolOp>, Pool3dAsTwo2d<AvgPoolOp>, Conv3dAsConv2d,
               ConvTransposeAsConv>(patterns.getContext());
}
