//===- Resize.cpp - Resize, Upsample and CumSum ---------------------------===//
//
// Resize and Upsample with compile-time scales or sizes, written per resized axis as a linear map: each output
// element along the axis is a fixed combination of input elements along it, computed at compile time (in double,
// as ONNX's reference implementation computes it: the coordinate transform, the neighbours taken from the
// edge-padded input, the nearest / linear / cubic coefficients, exclude_outside's renormalisation,
// tf_crop_and_resize's extrapolation). A nearest axis picks one element per output: a tx8be.Gather with a
// constant index (exact). A linear or cubic axis is out = W x with W [out, in] constant: a 2-D tx8be.MatMul in a
// view where the axis is the first or last dim. An axis whose map is the identity costs nothing.
//
// A runtime `sizes` input is determined by ONNX shape inference's static output type (the output extents are the
// sizes, and ONNX defines scale = out / in then); a runtime `scales` input is not (floor(in * scale) loses the
// scale the coordinate transform needs) and is refused.
//
// CumSum along an axis is a MatMul with a constant triangular 0/1 matrix (floats; the sum's rounding is the
// MatMul's, not the sequential one).
//
//===----------------------------------------------------------------------===//
#include "Converters.h"

#include "tx8/Reference/Convert.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace mlir;
using namespace tx8be;
using namespace tx8be::onnx_import;

namespace {

bool isDeviceFloat(Type t) { return t.isF32() || t.isF16() || t.isBF16(); }

std::string typeName(Type t) {
  std::string s;
  llvm::raw_string_ostream(s) << t;
  return s;
}

/// One axis's map: out[o] = sum_i w[o * in + i] * x[i] + bias[o].
struct AxisMap {
  int64_t in = 0, out = 0;
  std::vector<double> w;
  std::vector<double> bias; ///< empty: none
  std::vector<bool> outside; ///< per output: the extrapolated rows (tf_crop_and_resize), w row zero

  bool identity() const {
    if (in != out || !bias.empty())
      return false;
    for (int64_t o = 0; o < out; ++o)
      for (int64_t i = 0; i < in; ++i)
        if (w[o * in + i] != (o == i ? 1.0 : 0.0))
          return false;
    return true;
  }
  /// The one input index each row picks with weight 1 (rows outside pick 0), or nullopt when a row combines.
  std::optional<std::vector<int64_t>> picks() const {
    std::vector<int64_t> idx(out, 0);
    for (int64_t o = 0; o < out; ++o) {
      if (!outside.empty() && outside[o])
        continue;
      int64_t found = -1;
      for (int64_t i = 0; i < in; ++i) {
        double v = w[o * in + i];
        if (v == 0)
          continue;
        if (v != 1 || found >= 0)
          return std::nullopt;
        found = i;
      }
      if (found < 0)
        return std::nullopt;
      idx[o] = found;
    }
    return idx;
  }
  bool anyOutside() const { return llvm::is_contained(outside, true); }
};

enum class Mode { Nearest, Linear, Cubic };
enum class Coord {
  HalfPixel,
  HalfPixelSymmetric,
  PytorchHalfPixel,
  AlignCorners,
  Asymmetric,
  TfHalfPixelForNN,
  TfCropAndResize
};
enum class Rounding { RoundPreferFloor, RoundPreferCeil, Floor, Ceil };

struct ResizeSpec {
  Mode mode = Mode::Nearest;
  Coord coord = Coord::HalfPixel;
  Rounding rounding = Rounding::RoundPreferFloor;
  double cubicA = -0.75;
  bool excludeOutside = false;
  double extrapolation = 0;
  /// Resize-10 and Upsample: nearest rounds x / scale down (defined for upsampling only).
  bool legacyNearest = false;
};

/// The coefficients of the n neighbours for `ratio` in (0, 1] (the ONNX reference's nearest_coeffs,
/// linear_coeffs, cubic_coeffs).
std::vector<double> coefficients(const ResizeSpec &s, double ratio) {
  switch (s.mode) {
  case Mode::Nearest:
    if (ratio == 1)
      return {0, 1};
    switch (s.rounding) {
    case Rounding::RoundPreferFloor: return {double(ratio <= 0.5), double(ratio > 0.5)};
    case Rounding::RoundPreferCeil: return {double(ratio < 0.5), double(ratio >= 0.5)};
    case Rounding::Floor: return {1, 0};
    case Rounding::Ceil: return {0, 1};
    }
    break;
  case Mode::Linear: return {1 - ratio, ratio};
  case Mode::Cubic: {
    double A = s.cubicA, r = ratio, q = 1 - ratio;
    return {((A * (r + 1) - 5 * A) * (r + 1) + 8 * A) * (r + 1) - 4 * A, ((A + 2) * r - (A + 3)) * r * r + 1,
            ((A + 2) * q - (A + 3)) * q * q + 1, ((A * (q + 1) - 5 * A) * (q + 1) + 8 * A) * (q + 1) - 4 * A};
  }
  }
  return {};
}

/// The ONNX reference's interpolate_1d_with_x for every output of one axis, as a matrix. `scale` is the axis's
/// scale (out / in for sizes), `width` the reference's output_width (scale * in), roi the axis's (start, end).
/// Fails with `why` where ONNX leaves the result undefined.
FailureOr<AxisMap> mapAxis(const ResizeSpec &s, int64_t in, int64_t out, double scale, double width, double roiStart,
                           double roiEnd, std::string &why) {
  AxisMap m;
  m.in = in, m.out = out;
  m.w.assign(out * in, 0);
  bool crop = s.coord == Coord::TfCropAndResize;
  if (crop)
    m.outside.assign(out, false);
  for (int64_t x = 0; x < out; ++x) {
    double xd = static_cast<double>(x), xo = 0;
    switch (s.coord) {
    case Coord::AlignCorners: xo = width == 1 ? 0. : xd * static_cast<double>(in - 1) / (width - 1); break;
    case Coord::Asymmetric: xo = xd / scale; break;
    case Coord::TfCropAndResize:
      xo = width == 1 ? (roiEnd - roiStart) * static_cast<double>(in - 1) / 2
                      : xd * (roiEnd - roiStart) * static_cast<double>(in - 1) / (width - 1);
      xo += roiStart * static_cast<double>(in - 1);
      break;
    case Coord::PytorchHalfPixel: xo = width == 1 ? -0.5 : (xd + 0.5) / scale - 0.5; break;
    case Coord::HalfPixel: xo = (xd + 0.5) / scale - 0.5; break;
    case Coord::HalfPixelSymmetric: // (Resize-19) half_pixel about the centre: out / width corrects for rounding
      xo = static_cast<double>(in) / 2 * (1 - static_cast<double>(out) / width) + (xd + 0.5) / scale - 0.5;
      break;
    case Coord::TfHalfPixelForNN: xo = (xd + 0.5) / scale; break;
    }
    if (crop && (xo < 0 || xo > static_cast<double>(in - 1))) {
      m.outside[x] = true;
      if (m.bias.empty())
        m.bias.assign(out, 0);
      m.bias[x] = s.extrapolation;
      continue;
    }
    double floorX = std::floor(xo);
    bool integral = xo == floorX;
    if (s.legacyNearest && s.mode == Mode::Nearest && !integral && scale < 1) {
      why = "nearest downsampling by a non-integral factor rounds as the runtime chooses in this opset";
      return failure();
    }
    double ratio = integral ? 1 : xo - floorX;
    std::vector<double> c = coefficients(s, ratio);
    int64_t n = c.size(), pad = (n + 1) / 2, limit = in + 2 * pad;
    // the n indexes of the padded input nearest to x (ties: the smaller), ascending
    double xp = xo + static_cast<double>(pad);
    int64_t center = static_cast<int64_t>(std::clamp(std::floor(xp), 0.0, static_cast<double>(limit - 1)));
    std::vector<int64_t> cand;
    for (int64_t i = std::max<int64_t>(0, center - n - 1); i <= std::min(limit - 1, center + n + 1); ++i)
      cand.push_back(i);
    std::stable_sort(cand.begin(), cand.end(), [&](int64_t a, int64_t b) {
      double da = std::fabs(xp - static_cast<double>(a)), db = std::fabs(xp - static_cast<double>(b));
      return da != db ? da < db : a < b;
    });
    cand.resize(n);
    std::sort(cand.begin(), cand.end());
    if (s.excludeOutside) {
      double sum = 0;
      for (int64_t k = 0; k < n; ++k) {
        int64_t idx = cand[k] - pad;
        if (idx < 0 || idx >= in)
          c[k] = 0;
        sum += c[k];
      }
      if (sum == 0) {
        why = "exclude_outside leaves output " + std::to_string(x) + " no input sample";
        return failure();
      }
      for (double &v : c)
        v /= sum;
    }
    for (int64_t k = 0; k < n; ++k)
      m.w[x * in + std::clamp<int64_t>(cand[k] - pad, 0, in - 1)] += c[k];
  }
  return m;
}

/// x (static shape) with `axis` mapped by W [out, in] (plus bias): a 2-D MatMul in the view [in, inner] (W x),
/// [outer, in] (x W^T), or [outer * inner, in] after a Transpose of [outer, in, inner] (and back).
FailureOr<Value> applyLinearMap(NodeImporter &n, Value x, int64_t axis, const AxisMap &m) {
  auto type = cast<RankedTensorType>(x.getType());
  Type element = type.getElementType();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t outer = product(shape.take_front(axis)), inner = product(shape.drop_front(axis + 1));
  int64_t in = m.in, out = m.out;
  SmallVector<int64_t> outShape(shape);
  outShape[axis] = out;
  auto weights = [&](bool transposed) {
    return filledConstant(n, element, transposed ? SmallVector<int64_t>{in, out} : SmallVector<int64_t>{out, in},
                          [&](ArrayRef<int64_t> i) { return transposed ? m.w[i[1] * in + i[0]] : m.w[i[0] * in + i[1]]; });
  };
  auto biased = [&](FailureOr<Value> v, SmallVector<int64_t> biasShape) -> FailureOr<Value> {
    if (failed(v) || m.bias.empty())
      return v;
    auto bias = filledConstant(n, element, biasShape, [&](ArrayRef<int64_t> i) {
      return m.bias[biasShape[0] == 1 ? i[1] : i[0]];
    });
    return binaryOf<AddOp>(n, v, bias);
  };
  if (outer == 1) { // W [out, in] x X [in, inner]
    auto v = n.reshape(x, {in, inner});
    auto y = succeeded(v) ? binaryOf<MatMulOp>(n, weights(false), v) : v;
    y = biased(y, {out, 1});
    return succeeded(y) ? n.reshape(*y, outShape) : y;
  }
  if (inner == 1) { // X [outer, in] x W^T [in, out]
    auto v = n.reshape(x, {outer, in});
    auto y = succeeded(v) ? binaryOf<MatMulOp>(n, v, weights(true)) : v;
    y = biased(y, {1, out});
    return succeeded(y) ? n.reshape(*y, outShape) : y;
  }
  auto v = n.reshape(x, {outer, in, inner});
  if (failed(v))
    return failure();
  auto t = n.create<TransposeOp>(*v, {n.i64Array("perm", {0, 2, 1})});
  auto flat = succeeded(t) ? n.reshape(*t, {outer * inner, in}) : t;
  auto y = succeeded(flat) ? binaryOf<MatMulOp>(n, flat, weights(true)) : flat;
  y = biased(y, {1, out});
  auto back = succeeded(y) ? n.reshape(*y, {outer, inner, out}) : y;
  if (failed(back))
    return failure();
  auto u = n.create<TransposeOp>(*back, {n.i64Array("perm", {0, 2, 1})});
  return succeeded(u) ? n.reshape(*u, outShape) : u;
}

/// x with `axis` mapped by m: a Gather of constant indices where each output picks one input (and a Where with
/// the extrapolation value where tf_crop_and_resize samples outside), else applyLinearMap.
FailureOr<Value> applyAxisMap(NodeImporter &n, Value x, int64_t axis, const AxisMap &m) {
  if (m.identity())
    return x;
  auto picks = m.picks();
  if (!picks)
    return applyLinearMap(n, x, axis, m);
  auto type = cast<RankedTensorType>(x.getType());
  auto idx = filledConstant(n, n.builder().getI32Type(), {m.out},
                            [&](ArrayRef<int64_t> i) { return static_cast<double>((*picks)[i[0]]); });
  if (failed(idx))
    return failure();
  auto y = n.create<GatherOp>(ValueRange{x, *idx}, {n.i64("axis", axis)});
  if (failed(y) || !m.anyOutside())
    return y;
  SmallVector<int64_t> outShape(type.getShape());
  outShape[axis] = m.out;
  auto mask = filledConstant(n, n.builder().getI1Type(), outShape,
                             [&](ArrayRef<int64_t> i) { return m.outside[i[axis]] ? 1.0 : 0.0; });
  int64_t first = std::find(m.outside.begin(), m.outside.end(), true) - m.outside.begin();
  auto fill = splatConstant(n, type.getElementType(), outShape, m.bias[first]);
  if (failed(mask) || failed(fill))
    return failure();
  SmallVector<Value> operands{*mask, *fill, *y};
  return n.create<WhereOp>(operands);
}

/// The largest per-axis map (out x in weights, built at compile time; a MatMul constant when not a Gather).
constexpr int64_t kMaxMapElements = int64_t{1} << 24;

/// Input i's values as doubles when it is a constant (nullopt when absent or empty), failure when it is computed
/// at run time (unless its static type says it is empty).
FailureOr<std::optional<std::vector<double>>> optionalConstantValues(NodeImporter &n, int i) {
  if (!n.hasInput(i))
    return std::optional<std::vector<double>>();
  if (const auto *t = n.constantInput(i)) {
    if (t->numElements() == 0)
      return std::optional<std::vector<double>>();
    std::vector<double> v;
    for (int64_t k = 0; k < t->numElements(); ++k)
      v.push_back(tx8::ref::elementAsDouble(*t, k));
    return std::optional<std::vector<double>>(std::move(v));
  }
  auto type = n.inputType(i);
  if (succeeded(type) && type->hasStaticShape() && type->getNumElements() == 0)
    return std::optional<std::vector<double>>();
  return failure();
}

/// Input 0 (`name`) as a static, non-empty f32/f16/bf16 tensor, which is what the linear maps below are
/// `verb`; else a refusal saying so.
FailureOr<Value> floatInput(NodeImporter &n, StringRef name, StringRef verb) {
  auto x = staticInput(n);
  if (failed(x))
    return failure();
  auto type = cast<RankedTensorType>(x->getType());
  if (type.getNumElements() == 0)
    return n.unsupported("an empty (zero-size) input is not supported");
  if (!isDeviceFloat(type.getElementType()))
    return n.unsupported(name + " has element type " + typeName(type.getElementType()) + "; only f32, f16 and bf16 are " +
                         verb);
  return x;
}

/// The static float input X of Resize / Upsample.
FailureOr<Value> resizeInput(NodeImporter &n) { return floatInput(n, "X", "resized"); }

/// Maps every axis of x: extents `out`, `scales` (the ONNX scale per axis), `widths` (the reference's
/// output_width per axis), roi (start, end per axis; empty when unused). Checks the result against ONNX shape
/// inference's type.
LogicalResult resizeAxes(NodeImporter &n, Value x, const ResizeSpec &spec, ArrayRef<int64_t> out,
                         ArrayRef<double> scales, ArrayRef<double> widths, ArrayRef<double> roi) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  for (int64_t d = 0; d < rank; ++d)
    if (out[d] < 1 || out[d] > (int64_t{1} << 24))
      return n.unsupported("output extent " + Twine(out[d]) + " of axis " + Twine(d) + " is not in [1, 2^24]");
  if (auto inferred = n.onnxOutputType(0))
    if (inferred->getShape() != out)
      return n.unsupported("ONNX shape inference's output shape disagrees with the resize's");
  Value cur = x;
  for (int64_t d = 0; d < rank; ++d) {
    std::string why;
    int64_t in = type.getShape()[d];
    if (in * out[d] > kMaxMapElements)
      return n.unsupported("axis " + Twine(d) + ": the " + Twine(out[d]) + " x " + Twine(in) +
                           " map has more than 2^24 entries");
    auto m = mapAxis(spec, in, out[d], scales[d], widths[d], roi.empty() ? 0 : roi[d],
                     roi.empty() ? 1 : roi[rank + d], why);
    if (failed(m))
      return n.unsupported("axis " + Twine(d) + ": " + why);
    auto next = applyAxisMap(n, cur, d, *m);
    if (failed(next))
      return failure();
    cur = *next;
  }
  n.setOutput(0, cur);
  return success();
}

/// Extents and the reference's widths from scales: out = floor(in * scale) with the product in float32, as ONNX
/// shape inference computes it; width = scale * in as float32 (the reference multiplies a float32 scale by the
/// Python int extent).
void fromScales(ArrayRef<int64_t> in, ArrayRef<double> scales, SmallVectorImpl<int64_t> &out,
                SmallVectorImpl<double> &widths) {
  for (auto [i, s] : llvm::zip(in, scales)) {
    float product = static_cast<float>(i) * static_cast<float>(s);
    out.push_back(std::isfinite(product) && product >= 0 && product < 0x1p31f ? static_cast<int64_t>(std::floor(product))
                                                                             : -1);
    widths.push_back(static_cast<double>(product));
  }
}

/// scales / sizes given for Resize-18's `axes` only, as values for every axis: `fill(d)` for the others.
using OptionalValues = FailureOr<std::optional<std::vector<double>>>;
OptionalValues onAllAxes(NodeImporter &n, OptionalValues given, ArrayRef<int64_t> axes, int64_t rank, StringRef what,
                         llvm::function_ref<double(int64_t)> fill) {
  if (failed(given) || !*given || axes.empty())
    return given;
  if ((*given)->size() != axes.size()) {
    (void)n.unsupported(what + " has " + Twine((*given)->size()) + " values for " + Twine(axes.size()) + " axes");
    return failure();
  }
  std::vector<double> all(rank);
  for (int64_t d = 0; d < rank; ++d)
    all[d] = fill(d);
  for (auto [axis, v] : llvm::zip(axes, **given))
    all[axis] = v;
  return std::optional<std::vector<double>>(std::move(all));
}

/// Resize (opsets 10-19): Resize-10 (X, scales) interpolates as Upsample (asymmetric); from 11 on (X, roi, scales,
/// sizes) with the coordinate transform, nearest rounding and cubic attributes; 18 adds `axes` (scales / sizes
/// for those axes only), antialias and keep_aspect_ratio_policy (their defaults only), 19 half_pixel_symmetric.
LogicalResult convertResize(NodeImporter &n) {
  if (failed(n.onlyAttrs({"mode", "coordinate_transformation_mode", "nearest_mode", "cubic_coeff_a", "exclude_outside",
                          "extrapolation_value", "antialias", "axes", "keep_aspect_ratio_policy"})))
    return failure();
  if (n.attrInt("antialias", 0) != 0)
    return n.unsupported("antialias is not supported");
  std::string policy = n.attrString("keep_aspect_ratio_policy", "stretch");
  if (policy != "stretch" && n.hasInput(3))
    return n.unsupported("keep_aspect_ratio_policy '" + policy + "' is not supported (stretch is)");
  auto x = resizeInput(n);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> in = cast<RankedTensorType>(x->getType()).getShape();
  int64_t rank = in.size();
  ResizeSpec spec;
  std::string mode = n.attrString("mode", "nearest");
  if (mode == "nearest")
    spec.mode = Mode::Nearest;
  else if (mode == "linear")
    spec.mode = Mode::Linear;
  else if (mode == "cubic" && n.getOpset() >= 11)
    spec.mode = Mode::Cubic;
  else
    return n.unsupported("mode '" + mode + "' is not an ONNX value for this opset");

  bool legacy = n.getOpset() < 11;
  int scalesIdx = legacy ? 1 : 2, sizesIdx = 3;
  if (legacy) {
    spec.coord = Coord::Asymmetric;
    spec.rounding = Rounding::Floor;
    spec.legacyNearest = true;
  } else {
    std::string coord = n.attrString("coordinate_transformation_mode", "half_pixel");
    if (coord == "half_pixel")
      spec.coord = Coord::HalfPixel;
    else if (coord == "pytorch_half_pixel")
      spec.coord = Coord::PytorchHalfPixel;
    else if (coord == "align_corners")
      spec.coord = Coord::AlignCorners;
    else if (coord == "asymmetric")
      spec.coord = Coord::Asymmetric;
    else if (coord == "tf_half_pixel_for_nn" && n.getOpset() < 13)
      spec.coord = Coord::TfHalfPixelForNN;
    else if (coord == "tf_crop_and_resize")
      spec.coord = Coord::TfCropAndResize;
    else if (coord == "half_pixel_symmetric" && n.getOpset() >= 19)
      spec.coord = Coord::HalfPixelSymmetric;
    else
      return n.unsupported("coordinate_transformation_mode '" + coord + "' is not supported");
    std::string nearest = n.attrString("nearest_mode", "round_prefer_floor");
    if (nearest == "round_prefer_floor")
      spec.rounding = Rounding::RoundPreferFloor;
    else if (nearest == "round_prefer_ceil")
      spec.rounding = Rounding::RoundPreferCeil;
    else if (nearest == "floor")
      spec.rounding = Rounding::Floor;
    else if (nearest == "ceil")
      spec.rounding = Rounding::Ceil;
    else
      return n.unsupported("nearest_mode '" + nearest + "' is not an ONNX value");
    spec.cubicA = n.attrFloat("cubic_coeff_a", -0.75f);
    spec.excludeOutside = n.attrInt("exclude_outside", 0) != 0;
    spec.extrapolation = n.attrFloat("extrapolation_value", 0.0f);
  }

  // roi: read only by tf_crop_and_resize
  SmallVector<double> roi;
  if (spec.coord == Coord::TfCropAndResize) {
    auto given = optionalConstantValues(n, 1);
    if (failed(given))
      return n.unsupported("roi (input #1) is computed at run time; tf_crop_and_resize needs it at compile time");
    if (!*given)
      return n.unsupported("tf_crop_and_resize needs roi");
    if (static_cast<int64_t>((*given)->size()) != 2 * rank)
      return n.unsupported("roi has " + Twine((*given)->size()) + " values, not 2 per axis (" + Twine(2 * rank) + ")");
    roi.assign((*given)->begin(), (*given)->end());
  }

  SmallVector<int64_t> axes;
  for (int64_t a : n.attrInts("axes")) {
    auto axis = checkedAxis(a, rank);
    if (!axis || llvm::is_contained(axes, *axis))
      return n.unsupported("axes are out of range or repeated");
    axes.push_back(*axis);
  }
  if (!axes.empty() && spec.coord == Coord::TfCropAndResize)
    return n.unsupported("tf_crop_and_resize with axes is not supported");
  SmallVector<int64_t> out;
  SmallVector<double> scales, widths;
  FailureOr<std::optional<std::vector<double>>> sizesGiven = std::optional<std::vector<double>>();
  if (!legacy)
    sizesGiven = onAllAxes(n, optionalConstantValues(n, sizesIdx), axes, rank, "sizes",
                           [&](int64_t d) { return static_cast<double>(in[d]); });
  auto scalesGiven = onAllAxes(n, optionalConstantValues(n, scalesIdx), axes, rank, "scales",
                               [](int64_t) { return 1.0; });
  if (!n.getReason().empty())
    return failure();
  bool runtimeSizes = !legacy && failed(sizesGiven);
  if (!legacy && (runtimeSizes || *sizesGiven)) {
    if (succeeded(scalesGiven) && *scalesGiven)
      return n.unsupported("scales and sizes are both given");
    if (runtimeSizes) { // the output extents are the sizes: ONNX shape inference's static output type
      auto inferred = n.onnxOutputType(0);
      if (!inferred)
        return n.unsupported("sizes (input #3) is computed at run time and ONNX shape inference gives no static "
                             "output shape");
      out.assign(inferred->getShape().begin(), inferred->getShape().end());
      if (static_cast<int64_t>(out.size()) != rank)
        return n.unsupported("the output rank differs from the input's");
    } else {
      if (static_cast<int64_t>((*sizesGiven)->size()) != rank)
        return n.unsupported("sizes has " + Twine((*sizesGiven)->size()) + " values for rank " + Twine(rank));
      for (double v : **sizesGiven)
        out.push_back(static_cast<int64_t>(std::clamp(v, -1.0, 0x1p25))); // out of range: refused below
    }
    for (int64_t d = 0; d < rank; ++d) {
      scales.push_back(static_cast<double>(out[d]) / static_cast<double>(in[d]));
      widths.push_back(scales.back() * static_cast<double>(in[d]));
    }
  } else {
    if (failed(scalesGiven))
      return n.unsupported("scales (input #" + Twine(scalesIdx) +
                           ") is computed at run time; the coordinate transform needs its values at compile time");
    if (!*scalesGiven)
      return n.unsupported("neither scales nor sizes is given");
    if (static_cast<int64_t>((*scalesGiven)->size()) != rank)
      return n.unsupported("scales has " + Twine((*scalesGiven)->size()) + " values for rank " + Twine(rank));
    scales.assign((*scalesGiven)->begin(), (*scalesGiven)->end());
    fromScales(in, scales, out, widths);
  }
  return resizeAxes(n, *x, spec, out, scales, widths, roi);
}

/// Upsample (opsets 7 and 9; deprecated): out = floor(in * scale), asymmetric coordinates, nearest rounds down,
/// linear is (bi/tri)linear with the edge repeated. Scales are an attribute (7) or an input (9).
LogicalResult convertUpsample(NodeImporter &n) {
  if (failed(n.onlyAttrs({"mode", "scales"})))
    return failure();
  auto x = resizeInput(n);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> in = cast<RankedTensorType>(x->getType()).getShape();
  ResizeSpec spec;
  spec.coord = Coord::Asymmetric;
  spec.rounding = Rounding::Floor;
  spec.legacyNearest = true;
  std::string mode = n.attrString("mode", "nearest");
  if (mode == "nearest")
    spec.mode = Mode::Nearest;
  else if (mode == "linear" || mode == "bilinear")
    spec.mode = Mode::Linear;
  else
    return n.unsupported("mode '" + mode + "' is not supported");
  SmallVector<double> scales;
  if (n.getOpset() < 9) {
    if (const auto *a = n.attr("scales")) // required: the ONNX checker rejects a node without it
      for (float s : a->floats())
        scales.push_back(s);
  } else {
    auto given = optionalConstantValues(n, 1);
    if (failed(given))
      return n.unsupported("scales (input #1) is computed at run time; the coordinate transform needs its values at "
                           "compile time");
    if (!*given)
      return n.unsupported("scales is empty");
    scales.assign((*given)->begin(), (*given)->end());
  }
  if (scales.size() != in.size())
    return n.unsupported("scales has " + Twine(scales.size()) + " values for rank " + Twine(in.size()));
  for (double s : scales)
    if (!(s >= 1))
      return n.unsupported("Upsample's scales must be >= 1");
  SmallVector<int64_t> out;
  SmallVector<double> widths;
  fromScales(in, scales, out, widths);
  return resizeAxes(n, *x, spec, out, scales, widths, {});
}

/// CumSum(x, axis): y[..., j, ...] = sum of x[..., i, ...] over i <= j (i < j exclusive; i >= j, i > j reverse):
/// a MatMul with a constant triangular 0/1 matrix along the axis. A runtime axis is determined for rank-1 x only.
LogicalResult convertCumSum(NodeImporter &n) {
  if (failed(n.onlyAttrs({"exclusive", "reverse"})))
    return failure();
  auto x = floatInput(n, "x", "summed (as a MatMul)");
  if (failed(x))
    return failure();
  auto type = cast<RankedTensorType>(x->getType());
  int64_t rank = type.getRank();
  if (rank == 0)
    return n.unsupported("x must have rank >= 1");
  int64_t axis = 0;
  if (n.constantInput(1)) {
    auto v = n.constantInts(1, "axis");
    if (failed(v))
      return failure();
    if (v->size() != 1)
      return n.unsupported("axis must have one element");
    auto a = checkedAxis(v->front(), rank);
    if (!a)
      return n.unsupported("axis " + Twine(v->front()) + " is out of range for rank " + Twine(rank));
    axis = *a;
  } else if (rank != 1) {
    return n.unsupported("axis (input #1) is computed at run time and x has rank " + Twine(rank) +
                         " (only rank 1 fixes it)");
  }
  bool exclusive = n.attrInt("exclusive", 0) != 0, reverse = n.attrInt("reverse", 0) != 0;
  AxisMap m;
  int64_t len = type.getShape()[axis];
  if (len * len > kMaxMapElements)
    return n.unsupported("the " + Twine(len) + " x " + Twine(len) + " triangular matrix has more than 2^24 entries");
  m.in = m.out = len;
  m.w.assign(len * len, 0);
  for (int64_t j = 0; j < len; ++j)
    for (int64_t i = 0; i < len; ++i) {
      bool take = reverse ? (exclusive ? i > j : i >= j) : (exclusive ? i < j : i <= j);
      m.w[j * len + i] = take ? 1 : 0;
    }
  if (m.identity()) {
    n.setOutput(0, *x);
    return success();
  }
  return bindResult(n, applyLinearMap(n, *x, axis, m));
}

} // namespace

void tx8be::onnx_import::addResizeConverters(llvm::StringMap<NodeConverter> &converters) {
  converters["Resize"] = convertResize;
  converters["Upsample"] = convertUpsample;
  converters["CumSum"] = convertCumSum;
}
