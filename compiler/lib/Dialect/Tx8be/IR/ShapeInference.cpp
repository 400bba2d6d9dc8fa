//===- ShapeInference.cpp - Shape rules of the tx8be ops ------------------===//
//
// Every compute op's shape rule: its InferTypeOpInterface::inferReturnTypes on the op's adaptor (the op
// families' shared rules are called from Tx8beOps.td's base classes), or, where the result type is a
// parameter of the op (Reshape, Cast), its computeResultTypes. ShapeInferenceOpInterface::computeResultTypes
// returns the rule; it is both the verifier (the declared result types must agree with it) and what
// inferShapes writes into the IR, so a shape rule exists once. Errors name the operand or attribute at fault
// and print the shapes involved, worded like emitOpError's (ShapeRuleError). Broadcasting is MLIR's
// (OpTrait::util::getBroadcastedShape, numpy rules) and shape compatibility too (verifyCompatibleShape).
//
// InferTypeOpInterface's own verifier (on exit from the op, after the verifier here has passed) runs the rule
// again and can no longer fail: both accept the same types (compatibleResultTypes). So its messages ("failed
// to infer returned types") never replace the ones here.
//
//===----------------------------------------------------------------------===//
#include "tx8/Dialect/Tx8be/IR/Tx8be.h"

#include "mlir/Dialect/Traits.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace tx8be;
using tx8be::detail::ShapeRuleDiag;

static constexpr int64_t kDyn = ShapedType::kDynamic;

/// A shape the way tensor types spell it: 1x4x8x8, ? for dynamic, "scalar" for rank 0. (A std::string:
/// diagnostics copy it, unlike a StringRef.)
static std::string shapeStr(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string s;
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (i)
      s += "x";
    s += d == kDyn ? std::string("?") : std::to_string(d);
  }
  return s;
}

static RankedTensorType tensorType(Value v) { return cast<RankedTensorType>(v.getType()); }
static ArrayRef<int64_t> shapeOf(Value v) { return tensorType(v).getShape(); }

/// Product of static extents; kDyn if any extent is dynamic, kTooMany if the product overflows int64_t.
static constexpr int64_t kTooMany = std::numeric_limits<int64_t>::max();
static int64_t numElements(ArrayRef<int64_t> shape) {
  if (llvm::is_contained(shape, kDyn))
    return kDyn;
  if (llvm::is_contained(shape, 0))
    return 0;
  int64_t n = 1;
  for (int64_t d : shape)
    if (llvm::MulOverflow(n, d, n))
      return kTooMany;
  return n;
}

/// Numpy (multidirectional) broadcast of two shapes (a dynamic extent is assumed to match); on failure
/// `badDim` is the first result dim whose static extents disagree, for the message.
static std::optional<SmallVector<int64_t>> broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b,
                                                           int64_t &badDim) {
  SmallVector<int64_t> out;
  if (OpTrait::util::getBroadcastedShape(a, b, out))
    return out;
  size_t rank = std::max(a.size(), b.size());
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (!OpTrait::util::getBroadcastedShape({da}, {db}, out)) {
      badDim = static_cast<int64_t>(i);
      break;
    }
  }
  return std::nullopt;
}

/// Unidirectional broadcast: can `from` be broadcast to `to` without changing `to`?
static bool broadcastsTo(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  SmallVector<int64_t> out;
  return OpTrait::util::getBroadcastedShape(from, to, out) && succeeded(verifyCompatibleShape(out, to));
}

/// Checks an optional per-spatial-dim attribute: empty or `count` entries, each >= minValue.
static LogicalResult checkSpatialAttr(const ShapeRuleDiag &rule, StringRef name, ArrayRef<int64_t> values,
                                      size_t count, int64_t minValue, StringRef what) {
  if (!values.empty() && values.size() != count)
    return rule.error() << name << " has " << values.size() << " entries, expected " << count << " ("
                        << what << ")";
  for (auto [i, v] : llvm::enumerate(values))
    if (v < minValue)
      return rule.error() << name << "[" << i << "] = " << v << ", must be >= " << minValue;
  return success();
}

static int64_t at(ArrayRef<int64_t> values, size_t i, int64_t dflt) {
  return values.empty() ? dflt : values[i];
}

//===----------------------------------------------------------------------===//
// Shared rules (declared in Tx8be.h)
//===----------------------------------------------------------------------===//

LogicalResult tx8be::detail::checkAxis(const ShapeRuleDiag &rule, StringRef name, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return rule.error() << name << " = " << axis << " is out of range for rank " << rank << " (expected "
                        << -rank << ".." << rank - 1 << ")";
  return success();
}

LogicalResult tx8be::detail::sameTypeAsOperand(Value operand, SmallVectorImpl<Type> &types) {
  types.push_back(operand.getType());
  return success();
}

LogicalResult tx8be::detail::broadcastOperandTypes(const ShapeRuleDiag &rule, Value lhsValue, Value rhsValue,
                                                   SmallVectorImpl<Type> &types) {
  ArrayRef<int64_t> lhs = shapeOf(lhsValue), rhs = shapeOf(rhsValue);
  int64_t badDim = 0;
  auto shape = broadcastShapes(lhs, rhs, badDim);
  if (!shape)
    return rule.error() << "operand shapes " << shapeStr(lhs) << " and " << shapeStr(rhs)
                        << " are not broadcast-compatible (result dim " << badDim << ")";
  types.push_back(RankedTensorType::get(*shape, tensorType(lhsValue).getElementType()));
  return success();
}

LogicalResult tx8be::detail::compareResultType(const ShapeRuleDiag &rule, Value lhs, Value rhs,
                                               SmallVectorImpl<Type> &types) {
  if (failed(broadcastOperandTypes(rule, lhs, rhs, types)))
    return failure();
  types.back() = cast<RankedTensorType>(types.back()).clone(IntegerType::get(rule.ctx, 1));
  return success();
}

LogicalResult tx8be::detail::whereResultType(const ShapeRuleDiag &rule, Value condition, Value x, Value y,
                                             SmallVectorImpl<Type> &types) {
  if (tensorType(x).getElementType() != tensorType(y).getElementType())
    return rule.error() << "x and y have different element types (" << tensorType(x).getElementType() << " and "
                        << tensorType(y).getElementType() << ")";
  int64_t badDim = 0;
  auto xy = broadcastShapes(shapeOf(x), shapeOf(y), badDim);
  auto shape = xy ? broadcastShapes(shapeOf(condition), *xy, badDim) : std::nullopt;
  if (!shape)
    return rule.error() << "operand shapes " << shapeStr(shapeOf(condition)) << ", " << shapeStr(shapeOf(x))
                        << " and " << shapeStr(shapeOf(y)) << " are not broadcast-compatible (result dim " << badDim
                        << ")";
  types.push_back(RankedTensorType::get(*shape, tensorType(x).getElementType()));
  return success();
}

LogicalResult tx8be::detail::quantizeResultType(const ShapeRuleDiag &rule, Value input, Value scale,
                                                Value zeroPoint, bool dequantize, SmallVectorImpl<Type> &types) {
  if (shapeOf(zeroPoint) != shapeOf(scale))
    return rule.error() << "zero_point's shape " << shapeStr(shapeOf(zeroPoint)) << " is not scale's "
                        << shapeStr(shapeOf(scale));
  if (dequantize && tensorType(zeroPoint).getElementType() != tensorType(input).getElementType())
    return rule.error() << "zero_point's element type " << tensorType(zeroPoint).getElementType()
                        << " is not the input's " << tensorType(input).getElementType();
  int64_t badDim = 0;
  auto shape = broadcastShapes(shapeOf(input), shapeOf(scale), badDim);
  if (!shape || ArrayRef<int64_t>(*shape) != shapeOf(input))
    return rule.error() << "scale's shape " << shapeStr(shapeOf(scale)) << " does not broadcast to the input's "
                        << shapeStr(shapeOf(input));
  Type element = dequantize ? tensorType(scale).getElementType() : tensorType(zeroPoint).getElementType();
  types.push_back(RankedTensorType::get(shapeOf(input), element));
  return success();
}

LogicalResult tx8be::detail::reduceResultType(const ShapeRuleDiag &rule, Value input, ArrayRef<int64_t> axes,
                                              bool keepdims, SmallVectorImpl<Type> &types) {
  auto inType = tensorType(input);
  int64_t rank = inType.getRank();
  llvm::SmallSet<int64_t, 8> reduced;
  for (auto [i, axis] : llvm::enumerate(axes)) {
    if (axis < -rank || axis >= rank)
      return rule.error() << "axes[" << i << "] = " << axis << " is out of range for rank " << rank;
    if (!reduced.insert(normalizeAxis(axis, rank)).second)
      return rule.error() << "axes names dim " << normalizeAxis(axis, rank) << " twice";
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    bool isReduced = axes.empty() || reduced.contains(d);
    if (!isReduced)
      shape.push_back(inType.getDimSize(d));
    else if (keepdims)
      shape.push_back(1);
  }
  types.push_back(RankedTensorType::get(shape, inType.getElementType()));
  return success();
}

/// Output extent of a sliding window, or an error; ceilMode rounds up but never starts a window in the end
/// padding (the PyTorch/ONNX rule).
static FailureOr<int64_t> windowOutputDim(const ShapeRuleDiag &rule, size_t dim, int64_t in, int64_t kernel,
                                          int64_t stride, int64_t dilation, int64_t padBegin, int64_t padEnd,
                                          bool ceilMode) {
  if (in == kDyn)
    return kDyn;
  int64_t span = (kernel - 1) * dilation + 1;
  int64_t padded = in + padBegin + padEnd;
  if (padded < span)
    return rule.error() << "window of " << span << " elements (kernel " << kernel << ", dilation "
                        << dilation << ") is larger than the padded input extent " << padded
                        << " in spatial dim " << dim;
  int64_t out = ceilMode ? (padded - span + stride - 1) / stride + 1 : (padded - span) / stride + 1;
  if (ceilMode && (out - 1) * stride >= in + padBegin)
    --out;
  return out;
}

/// Checks strides/pads/dilations of a windowed op over `nsp` spatial dims.
static LogicalResult checkWindowAttrs(const ShapeRuleDiag &rule, size_t nsp, ArrayRef<int64_t> strides,
                                      ArrayRef<int64_t> pads, ArrayRef<int64_t> dilations) {
  if (failed(checkSpatialAttr(rule, "strides", strides, nsp, 1, "one per spatial dim")) ||
      failed(checkSpatialAttr(rule, "dilations", dilations, nsp, 1, "one per spatial dim")) ||
      failed(checkSpatialAttr(rule, "pads", pads, 2 * nsp, 0, "begin and end per spatial dim")))
    return failure();
  return success();
}

LogicalResult tx8be::detail::poolResultType(const ShapeRuleDiag &rule, Value input, ArrayRef<int64_t> kernel,
                                            ArrayRef<int64_t> strides, ArrayRef<int64_t> pads,
                                            ArrayRef<int64_t> dilations, bool ceilMode,
                                            SmallVectorImpl<Type> &types) {
  auto inType = tensorType(input);
  int64_t rank = inType.getRank();
  if (rank < 3)
    return rule.error() << "input must have rank >= 3 (N, C, spatial...), got " << shapeStr(inType.getShape());
  size_t nsp = rank - 2;
  if (kernel.size() != nsp)
    return rule.error() << "kernel_shape has " << kernel.size() << " entries, expected " << nsp
                        << " (one per spatial dim of input " << shapeStr(inType.getShape()) << ")";
  if (failed(checkSpatialAttr(rule, "kernel_shape", kernel, nsp, 1, "one per spatial dim")) ||
      failed(checkWindowAttrs(rule, nsp, strides, pads, dilations)))
    return failure();
  SmallVector<int64_t> shape(inType.getShape().take_front(2));
  for (size_t i = 0; i < nsp; ++i) {
    auto out = windowOutputDim(rule, i, inType.getDimSize(i + 2), kernel[i], at(strides, i, 1),
                               at(dilations, i, 1), at(pads, i, 0), at(pads, i + nsp, 0), ceilMode);
    if (failed(out))
      return failure();
    shape.push_back(*out);
  }
  types.push_back(RankedTensorType::get(shape, inType.getElementType()));
  return success();
}

LogicalResult tx8be::detail::globalPoolResultType(const ShapeRuleDiag &rule, Value input,
                                                  SmallVectorImpl<Type> &types) {
  auto inType = tensorType(input);
  if (inType.getRank() < 3)
    return rule.error() << "input must have rank >= 3 (N, C, spatial...), got " << shapeStr(inType.getShape());
  SmallVector<int64_t> shape(inType.getShape().take_front(2));
  shape.append(inType.getRank() - 2, 1);
  types.push_back(RankedTensorType::get(shape, inType.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Normalisation
//===----------------------------------------------------------------------===//

/// Shapes stay ONNX (NCHW) whatever the device image is: layout_str does not move the channel.
static constexpr int64_t kBatchNormChannelDim = 1;

int64_t BatchNorm_InferenceOp::getChannelDim() { return kBatchNormChannelDim; }

LogicalResult BatchNorm_InferenceOp::inferReturnTypes(MLIRContext *context, std::optional<Location> location,
                                                      Adaptor adaptor, SmallVectorImpl<Type> &types) {
  ShapeRuleDiag rule{context, location, getOperationName()};
  auto inType = tensorType(adaptor.getInput());
  int64_t rank = inType.getRank();
  if (rank < 2)
    return rule.error() << "input must have rank >= 2 (N, C, ...), got " << shapeStr(inType.getShape());
  int64_t cdim = kBatchNormChannelDim;
  int64_t channels = inType.getDimSize(cdim);
  std::pair<StringRef, Value> params[] = {
      {"scale", adaptor.getScale()},
      {"offset", adaptor.getOffset()},
      {"mean", adaptor.getMean()},
      {"variance", adaptor.getVariance()}};
  for (auto [name, value] : params) {
    ArrayRef<int64_t> shape = shapeOf(value);
    int64_t count = numElements(shape);
    if (count != kDyn && channels != kDyn && count != channels)
      return rule.error() << name << " has " << count << " elements, expected " << channels
                          << " (channel dim of input " << shapeStr(inType.getShape()) << ")";
    // [C], or the input's rank with all extents 1 but the channel's (the seed's 1x1x1xC).
    bool ok = shape.size() == 1;
    if (static_cast<int64_t>(shape.size()) == rank) {
      ok = true;
      for (int64_t d = 0; d < rank; ++d)
        ok &= d == cdim || shape[d] == 1;
    }
    if (!ok)
      return rule.error() << name << " has shape " << shapeStr(shape) << ", expected [C] or rank " << rank
                          << " with all extents 1 but the channel dim " << cdim;
  }
  types.push_back(inType);
  return success();
}

LogicalResult LayerNormOp::inferReturnTypes(MLIRContext *context, std::optional<Location> location,
                                            Adaptor adaptor, SmallVectorImpl<Type> &types) {
  ShapeRuleDiag rule{context, location, getOperationName()};
  auto inType = tensorType(adaptor.getInput());
  int64_t rank = inType.getRank();
  if (failed(tx8be::detail::checkAxis(rule, "axis", adaptor.getAxis(), rank)))
    return failure();
  int64_t axis = normalizeAxis(adaptor.getAxis(), rank);
  ArrayRef<int64_t> normShape = inType.getShape().drop_front(axis);
  std::pair<StringRef, Value> params[] = {{"scale", adaptor.getScale()}, {"bias", adaptor.getBias()}};
  for (auto [name, value] : params) {
    if (!value)
      continue;
    if (!broadcastsTo(shapeOf(value), normShape))
      return rule.error() << name << " shape " << shapeStr(shapeOf(value))
                          << " does not broadcast to the normalised shape " << shapeStr(normShape)
                          << " (input dims " << axis << ".." << rank - 1 << ")";
  }
  types.push_back(inType);
  return success();
}

//===----------------------------------------------------------------------===//
// Matrix and convolution
//===----------------------------------------------------------------------===//

/// The result element type of an NE op (Gemm, MatMul, Conv): A's, which B's (and a bias's, C's) must equal;
/// except that tx8be-ne-precision's ne_in_fmt = "bf16" / "fp16" makes bf16 / f16 A and B give an f32 result
/// (and take an f32 bias): the NE accumulates in fp32; and int8 A and B give int32 (the NE's int8 path).
static FailureOr<Type> neResultElementType(const ShapeRuleDiag &rule, Type a, Type b, Value bias,
                                           DictionaryAttr attrs) {
  if (a != b) {
    LogicalResult error = rule.error() << "operands have different element types (" << a << " and " << b << ")";
    return error;
  }
  Type result = a.isSignlessInteger(8) ? IntegerType::get(a.getContext(), 32) : a;
  if (auto fmt = attrs ? attrs.getAs<StringAttr>("ne_in_fmt") : StringAttr())
    if ((fmt.getValue() == "bf16" && a.isBF16()) || (fmt.getValue() == "fp16" && a.isF16()))
      result = Float32Type::get(a.getContext());
  if (bias && tensorType(bias).getElementType() != result) {
    LogicalResult error = rule.error() << "bias has element type " << tensorType(bias).getElementType()
                                       << ", expected " << result;
    return error;
  }
  return result;
}

LogicalResult GemmOp::inferReturnTypes(MLIRContext *context, std::optional<Location> location,
                                       Adaptor adaptor, SmallVectorImpl<Type> &types) {
  ShapeRuleDiag rule{context, location, getOperationName()};
  auto aType = tensorType(adaptor.getA()), bType = tensorType(adaptor.getB());
  if (aType.getRank() != 2)
    return rule.error() << "A must be 2-D, got " << shapeStr(aType.getShape());
  if (bType.getRank() != 2)
    return rule.error() << "B must be 2-D, got " << shapeStr(bType.getShape());
  int64_t m = aType.getDimSize(adaptor.getTransA() ? 1 : 0), ka = aType.getDimSize(adaptor.getTransA() ? 0 : 1);
  int64_t kb = bType.getDimSize(adaptor.getTransB() ? 1 : 0), n = bType.getDimSize(adaptor.getTransB() ? 0 : 1);
  if (ka != kDyn && kb != kDyn && ka != kb)
    return rule.error() << "inner dimensions differ: op(A) is " << m << "x" << ka << ", op(B) is " << kb << "x"
                        << n << " (transA = " << adaptor.getTransA() << ", transB = " << adaptor.getTransB() << ")";
  SmallVector<int64_t> shape{m, n};
  if (Value c = adaptor.getC())
    if (!broadcastsTo(shapeOf(c), shape))
      return rule.error() << "C shape " << shapeStr(shapeOf(c)) << " does not broadcast to the result "
                          << shapeStr(shape);
  FailureOr<Type> element = neResultElementType(rule, aType.getElementType(), bType.getElementType(),
                                                adaptor.getC(), adaptor.getAttributes());
  if (failed(element))
    return failure();
  types.push_back(RankedTensorType::get(shape, *element));
  return success();
}

LogicalResult MatMulOp::inferReturnTypes(MLIRContext *context, std::optional<Location> location,
                                         Adaptor adaptor, SmallVectorImpl<Type> &types) {
  ShapeRuleDiag rule{context, location, getOperationName()};
  ArrayRef<int64_t> a = shapeOf(adaptor.getA()), b = shapeOf(adaptor.getB());
  if (a.size() < 2 || b.size() < 2)
    return rule.error() << "operands must have rank >= 2, got A " << shapeStr(a) << " and B " << shapeStr(b);
  int64_t ka = a.back(), kb = b[b.size() - 2];
  if (ka != kDyn && kb != kDyn && ka != kb)
    return rule.error() << "inner dimensions differ: A is " << shapeStr(a) << ", B is " << shapeStr(b) << " ("
                        << ka << " vs " << kb << ")";
  int64_t badDim = 0;
  auto batch = broadcastShapes(a.drop_back(2), b.drop_back(2), badDim);
  if (!batch)
    return rule.error() << "batch dims of A " << shapeStr(a) << " and B " << shapeStr(b)
                        << " are not broadcast-compatible";
  SmallVector<int64_t> shape(*batch);
  shape.push_back(a[a.size() - 2]);
  shape.push_back(b.back());
  FailureOr<Type> element =
      neResultElementType(rule, tensorType(adaptor.getA()).getElementType(),
                          tensorType(adaptor.getB()).getElementType(), Value(), adaptor.getAttributes());
  if (failed(element))
    return failure();
  types.push_back(RankedTensorType::get(shape, *element));
  return success();
}

LogicalResult AttentionOp::inferReturnTypes(MLIRContext *context, std::optional<Location> location,
                                            Adaptor adaptor, SmallVectorImpl<Type> &types) {
  ShapeRuleDiag rule{context, location, getOperationName()};
  ArrayRef<int64_t> q = shapeOf(adaptor.getQ()), k = shapeOf(adaptor.getK()), v = shapeOf(adaptor.getV());
  if (q.size() < 2 || k.size() < 2 || v.size() < 2)
    return rule.error() << "Q, K and V must have rank >= 2, got " << shapeStr(q) << ", " << shapeStr(k) << ", "
                        << shapeStr(v);
  int64_t sq = q[q.size() - 2], d = q.back(), skv = k[k.size() - 2], dk = k.back(), skv2 = v[v.size() - 2];
  auto differ = [](int64_t a, int64_t b) { return a != kDyn && b != kDyn && a != b; };
  if (differ(d, dk) || differ(skv, skv2))
    return rule.error() << "shapes Q " << shapeStr(q) << ", K " << shapeStr(k) << ", V " << shapeStr(v)
                        << " do not match ([..., Sq, D], [..., Skv, D], [..., Skv, Dv])";
  int64_t badDim = 0;
  auto qk = broadcastShapes(q.drop_back(2), k.drop_back(2), badDim);
  auto batch = qk ? broadcastShapes(*qk, v.drop_back(2), badDim) : qk;
  if (!batch)
    return rule.error() << "batch dims of Q " << shapeStr(q) << ", K " << shapeStr(k) << " and V " << shapeStr(v)
                        << " are not broadcast-compatible";
  if (adaptor.getCausal() && sq != kDyn && skv != kDyn && sq > skv)
    return rule.error() << "causal with Sq = " << sq << " > Skv = " << skv << ": the first queries see no key";
  SmallVector<int64_t> scores(*batch);
  scores.push_back(sq);
  scores.push_back(skv);
  if (Value mask = adaptor.getMask())
    if (!broadcastsTo(shapeOf(mask), scores))
      return rule.error() << "mask shape " << shapeStr(shapeOf(mask)) << " does not broadcast to the scores "
                          << shapeStr(scores);
  Type qe = tensorType(adaptor.getQ()).getElementType();
  if (tensorType(adaptor.getK()).getElementType() != qe || tensorType(adaptor.getV()).getElementType() != qe)
    return rule.error() << "Q, K and V must share an element type";
  FailureOr<Type> element = neResultElementType(rule, qe, qe, Value(), adaptor.getAttributes());
  if (failed(element))
    return failure();
  SmallVector<int64_t> shape(*batch);
  shape.push_back(sq);
  shape.push_back(v.back());
  types.push_back(RankedTensorType::get(shape, *element));
  return success();
}

/// Operand checks shared by Conv and ConvTranspose. weightInDim is the weight dim holding input channels
/// (Conv: 1, per group; ConvTranspose: 0, all of them).
static LogicalResult checkConvOperands(const ShapeRuleDiag &rule, RankedTensorType inType,
                                       RankedTensorType wType, int64_t group) {
  if (inType.getRank() < 3)
    return rule.error() << "input must have rank >= 3 (N, C, spatial...), got " << shapeStr(inType.getShape());
  if (wType.getRank() != inType.getRank())
    return rule.error() << "weight has rank " << wType.getRank() << ", expected " << inType.getRank()
                        << " (same as input " << shapeStr(inType.getShape()) << ")";
  if (group < 1)
    return rule.error() << "group = " << group << ", must be >= 1";
  int64_t c = inType.getDimSize(1);
  if (c != kDyn && c % group != 0)
    return rule.error() << "input channels " << c << " are not divisible by group " << group;
  return success();
}

LogicalResult ConvOp::inferReturnTypes(MLIRContext *context, std::optional<Location> location,
                                       Adaptor adaptor, SmallVectorImpl<Type> &types) {
  ShapeRuleDiag rule{context, location, getOperationName()};
  auto inType = tensorType(adaptor.getInput()), wType = tensorType(adaptor.getWeight());
  int64_t group = adaptor.getGroup();
  if (failed(checkConvOperands(rule, inType, wType, group)))
    return failure();
  size_t nsp = inType.getRank() - 2;
  int64_t c = inType.getDimSize(1), o = wType.getDimSize(0), wc = wType.getDimSize(1);
  if (c != kDyn && wc != kDyn && wc * group != c)
    return rule.error() << "weight " << shapeStr(wType.getShape()) << " has " << wc
                        << " input channels per group, expected " << c / group << " (input channels " << c
                        << " / group " << group << ")";
  if (o != kDyn && o % group != 0)
    return rule.error() << "weight has " << o << " output channels, not divisible by group " << group;
  if (Value bias = adaptor.getBias())
    if (shapeOf(bias).size() != 1 || (o != kDyn && shapeOf(bias)[0] != kDyn && shapeOf(bias)[0] != o))
      return rule.error() << "bias has shape " << shapeStr(shapeOf(bias)) << ", expected [" << o
                          << "] (weight output channels)";
  if (failed(checkWindowAttrs(rule, nsp, adaptor.getStrides(), adaptor.getPads(), adaptor.getDilations())))
    return failure();
  SmallVector<int64_t> shape{inType.getDimSize(0), o};
  for (size_t i = 0; i < nsp; ++i) {
    int64_t k = wType.getDimSize(i + 2);
    if (k == kDyn) {
      shape.push_back(kDyn);
      continue;
    }
    auto out = windowOutputDim(rule, i, inType.getDimSize(i + 2), k, at(adaptor.getStrides(), i, 1),
                               at(adaptor.getDilations(), i, 1), at(adaptor.getPads(), i, 0),
                               at(adaptor.getPads(), i + nsp, 0),
                               /*ceilMode=*/false);
    if (failed(out))
      return failure();
    shape.push_back(*out);
  }
  FailureOr<Type> element = neResultElementType(rule, inType.getElementType(), wType.getElementType(),
                                                adaptor.getBias(), adaptor.getAttributes());
  if (failed(element))
    return failure();
  types.push_back(RankedTensorType::get(shape, *element));
  return success();
}

LogicalResult ConvTransposeOp::inferReturnTypes(MLIRContext *context, std::optional<Location> location,
                                                Adaptor adaptor, SmallVectorImpl<Type> &types) {
  ShapeRuleDiag rule{context, location, getOperationName()};
  auto inType = tensorType(adaptor.getInput()), wType = tensorType(adaptor.getWeight());
  int64_t group = adaptor.getGroup();
  if (failed(checkConvOperands(rule, inType, wType, group)))
    return failure();
  size_t nsp = inType.getRank() - 2;
  int64_t c = inType.getDimSize(1), wc = wType.getDimSize(0), wo = wType.getDimSize(1);
  if (c != kDyn && wc != kDyn && wc != c)
    return rule.error() << "weight " << shapeStr(wType.getShape()) << " has " << wc
                        << " input channels, expected " << c << " (input channels)";
  int64_t o = wo == kDyn ? kDyn : wo * group;
  if (Value bias = adaptor.getBias())
    if (shapeOf(bias).size() != 1 || (o != kDyn && shapeOf(bias)[0] != kDyn && shapeOf(bias)[0] != o))
      return rule.error() << "bias has shape " << shapeStr(shapeOf(bias)) << ", expected [" << o
                          << "] (output channels)";
  if (failed(checkWindowAttrs(rule, nsp, adaptor.getStrides(), adaptor.getPads(), adaptor.getDilations())) ||
      failed(checkSpatialAttr(rule, "output_padding", adaptor.getOutputPadding(), nsp, 0, "one per spatial dim")))
    return failure();
  SmallVector<int64_t> shape{inType.getDimSize(0), o};
  for (size_t i = 0; i < nsp; ++i) {
    int64_t in = inType.getDimSize(i + 2), k = wType.getDimSize(i + 2);
    if (in == kDyn || k == kDyn) {
      shape.push_back(kDyn);
      continue;
    }
    int64_t stride = at(adaptor.getStrides(), i, 1);
    int64_t outPad = at(adaptor.getOutputPadding(), i, 0);
    if (outPad >= stride && outPad >= at(adaptor.getDilations(), i, 1))
      return rule.error() << "output_padding[" << i << "] = " << outPad
                          << " must be smaller than the stride or the dilation";
    int64_t out = (in - 1) * stride + (k - 1) * at(adaptor.getDilations(), i, 1) + 1 + outPad -
                  at(adaptor.getPads(), i, 0) - at(adaptor.getPads(), i + nsp, 0);
    if (out < 1)
      return rule.error() << "output extent " << out << " in spatial dim " << i << " is not positive";
    shape.push_back(out);
  }
  types.push_back(RankedTensorType::get(shape, inType.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise with a unidirectional operand
//===----------------------------------------------------------------------===//

LogicalResult PReluOp::inferReturnTypes(MLIRContext *context, std::optional<Location> location,
                                        Adaptor adaptor, SmallVectorImpl<Type> &types) {
  ShapeRuleDiag rule{context, location, getOperationName()};
  if (!broadcastsTo(shapeOf(adaptor.getSlope()), shapeOf(adaptor.getInput())))
    return rule.error() << "slope shape " << shapeStr(shapeOf(adaptor.getSlope())) << " does not broadcast to input "
                        << shapeStr(shapeOf(adaptor.getInput()));
  types.push_back(adaptor.getInput().getType());
  return success();
}

//===----------------------------------------------------------------------===//
// Shape and data movement
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::computeResultTypes(SmallVectorImpl<Type> &types) {
  auto inType = getInput().getType(), outType = getOutput().getType();
  int64_t inCount = numElements(inType.getShape());
  SmallVector<int64_t> shape(outType.getShape());
  // The new shape is the result type's; with one dynamic extent and a static input it is determined.
  int64_t dynamicDims = llvm::count(shape, kDyn);
  SmallVector<int64_t> staticDims(llvm::make_filter_range(shape, [](int64_t d) { return d != kDyn; }));
  int64_t known = numElements(staticDims);
  if (inCount == kTooMany || known == kTooMany)
    return emitOpError() << "cannot reshape " << shapeStr(inType.getShape()) << " to " << shapeStr(outType.getShape())
                         << ": the element count overflows 64 bits";
  if (inCount != kDyn && dynamicDims == 1) {
    if (known == 0 || inCount % known != 0)
      return emitOpError() << "cannot reshape " << shapeStr(inType.getShape()) << " (" << inCount
                           << " elements) to " << shapeStr(outType.getShape());
    *llvm::find(shape, kDyn) = inCount / known;
  }
  int64_t outCount = numElements(shape);
  if (inCount != kDyn && outCount != kDyn && inCount != outCount)
    return emitOpError() << "result " << shapeStr(outType.getShape()) << " has " << outCount
                         << " elements, input " << shapeStr(inType.getShape()) << " has " << inCount;
  types.push_back(RankedTensorType::get(shape, inType.getElementType()));
  return success();
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *context, std::optional<Location> location,
                                            Adaptor adaptor, SmallVectorImpl<Type> &types) {
  ShapeRuleDiag rule{context, location, getOperationName()};
  auto inType = tensorType(adaptor.getInput());
  ArrayRef<int64_t> perm = adaptor.getPerm();
  int64_t rank = inType.getRank();
  if (static_cast<int64_t>(perm.size()) != rank)
    return rule.error() << "perm has " << perm.size() << " entries, expected " << rank << " (input rank)";
  SmallVector<bool> seen(rank, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen[p])
      return rule.error() << "perm [" << perm << "] is not a permutation of 0.." << rank - 1;
    seen[p] = true;
  }
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(inType.getDimSize(p));
  types.push_back(RankedTensorType::get(shape, inType.getElementType()));
  return success();
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *context, std::optional<Location> location,
                                         Adaptor adaptor, SmallVectorImpl<Type> &types) {
  ShapeRuleDiag rule{context, location, getOperationName()};
  if (adaptor.getInputs().empty())
    return rule.error() << "needs at least one input";
  auto first = tensorType(adaptor.getInputs()[0]);
  int64_t rank = first.getRank();
  if (failed(tx8be::detail::checkAxis(rule, "axis", adaptor.getAxis(), rank)))
    return failure();
  int64_t axis = normalizeAxis(adaptor.getAxis(), rank);
  SmallVector<int64_t> shape(first.getShape());
  for (auto [i, input] : llvm::enumerate(adaptor.getInputs().drop_front())) {
    ArrayRef<int64_t> s = shapeOf(input);
    if (static_cast<int64_t>(s.size()) != rank)
      return rule.error() << "input #" << i + 1 << " has rank " << s.size() << ", input #0 has rank " << rank;
    for (int64_t d = 0; d < rank; ++d) {
      if (d == axis) {
        shape[d] = shape[d] == kDyn || s[d] == kDyn ? kDyn : shape[d] + s[d];
        continue;
      }
      auto merged = s[d] == kDyn ? std::optional<int64_t>(shape[d])
                    : shape[d] == kDyn ? std::optional<int64_t>(s[d])
                    : s[d] == shape[d] ? std::optional<int64_t>(s[d])
                                       : std::nullopt;
      if (!merged)
        return rule.error() << "input #" << i + 1 << " " << shapeStr(s) << " differs from input #0 "
                            << shapeStr(first.getShape()) << " in dim " << d << " (only axis " << axis
                            << " may differ)";
      shape[d] = *merged;
    }
  }
  types.push_back(RankedTensorType::get(shape, first.getElementType()));
  return success();
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *context, std::optional<Location> location,
                                        Adaptor adaptor, SmallVectorImpl<Type> &types) {
  ShapeRuleDiag rule{context, location, getOperationName()};
  auto inType = tensorType(adaptor.getInput());
  size_t rank = inType.getRank();
  ArrayRef<int64_t> offsets = adaptor.getOffsets(), sizes = adaptor.getSizes(), strides = adaptor.getStrides();
  std::pair<StringRef, ArrayRef<int64_t>> attrs[] = {{"offsets", offsets}, {"sizes", sizes}, {"strides", strides}};
  for (auto [name, values] : attrs)
    if (values.size() != rank)
      return rule.error() << name << " has " << values.size() << " entries, expected " << rank << " (input rank)";
  for (size_t d = 0; d < rank; ++d) {
    if (strides[d] == 0)
      return rule.error() << "strides[" << d << "] is 0";
    if (sizes[d] < 0)
      return rule.error() << "sizes[" << d << "] = " << sizes[d] << " is negative";
    int64_t extent = inType.getDimSize(d);
    if (sizes[d] == 0 || extent == kDyn)
      continue;
    int64_t last = offsets[d] + (sizes[d] - 1) * strides[d];
    for (int64_t index : {offsets[d], last})
      if (index < 0 || index >= extent)
        return rule.error() << "slice reads index " << index << " of input dim " << d << ", outside its extent "
                            << extent << " (offset " << offsets[d] << ", size " << sizes[d] << ", stride "
                            << strides[d] << ")";
  }
  types.push_back(RankedTensorType::get(sizes, inType.getElementType()));
  return success();
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *context, std::optional<Location> location,
                                         Adaptor adaptor, SmallVectorImpl<Type> &types) {
  ShapeRuleDiag rule{context, location, getOperationName()};
  auto dataType = tensorType(adaptor.getData());
  int64_t rank = dataType.getRank();
  if (failed(tx8be::detail::checkAxis(rule, "axis", adaptor.getAxis(), rank)))
    return failure();
  int64_t axis = normalizeAxis(adaptor.getAxis(), rank);
  SmallVector<int64_t> shape(dataType.getShape().take_front(axis));
  llvm::append_range(shape, shapeOf(adaptor.getIndices()));
  llvm::append_range(shape, dataType.getShape().drop_front(axis + 1));
  types.push_back(RankedTensorType::get(shape, dataType.getElementType()));
  return success();
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *context, std::optional<Location> location,
                                      Adaptor adaptor, SmallVectorImpl<Type> &types) {
  ShapeRuleDiag rule{context, location, getOperationName()};
  auto inType = tensorType(adaptor.getInput());
  int64_t rank = inType.getRank();
  ArrayRef<int64_t> pads = adaptor.getPads();
  if (static_cast<int64_t>(pads.size()) != 2 * rank)
    return rule.error() << "pads has " << pads.size() << " entries, expected " << 2 * rank << " (2 x rank "
                        << rank << ")";
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t lo = pads[d], hi = pads[d + rank], extent = inType.getDimSize(d);
    for (auto [i, p] : {std::pair<int64_t, int64_t>{d, lo}, {d + rank, hi}})
      if (p < 0)
        return rule.error() << "pads[" << i << "] = " << p << " is negative";
    if (extent != kDyn && adaptor.getMode() == PadMode::Reflect && std::max(lo, hi) >= extent)
      return rule.error() << "reflect padding " << std::max(lo, hi) << " in dim " << d
                          << " must be smaller than the extent " << extent;
    if (extent == 0 && adaptor.getMode() != PadMode::Constant && std::max(lo, hi) > 0)
      return rule.error() << "cannot " << stringifyPadMode(adaptor.getMode()) << "-pad the empty dim " << d;
    shape.push_back(extent == kDyn ? kDyn : extent + lo + hi);
  }
  types.push_back(RankedTensorType::get(shape, inType.getElementType()));
  return success();
}

LogicalResult ExpandOp::computeResultTypes(SmallVectorImpl<Type> &types) {
  // The target shape is the result's: only check that the input broadcasts to it.
  auto inShape = getInput().getType().getShape(), outShape = getOutput().getType().getShape();
  if (inShape.size() != outShape.size())
    return emitOpError() << "input " << shapeStr(inShape) << " and result " << shapeStr(outShape)
                         << " must have the same rank";
  for (auto [d, in, out] : llvm::enumerate(inShape, outShape))
    if (in != 1 && in != out)
      return emitOpError() << "input " << shapeStr(inShape) << " does not broadcast to " << shapeStr(outShape)
                           << " (dim " << d << ")";
  types.push_back(RankedTensorType::get(outShape, getInput().getType().getElementType()));
  return success();
}

LogicalResult CastOp::computeResultTypes(SmallVectorImpl<Type> &types) {
  // The target element type is the result's: only the shape is inferred.
  types.push_back(RankedTensorType::get(getInput().getType().getShape(), getOutput().getType().getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// The interface's generic parts
//===----------------------------------------------------------------------===//

tx8be::detail::ShapeRuleError::ShapeRuleError(MLIRContext *ctx, std::optional<Location> loc, StringRef opName)
    : ctx(ctx), diag(loc.value_or(UnknownLoc::get(ctx)), DiagnosticSeverity::Error), report(loc.has_value()) {
  diag << "'" << opName << "' op ";
}

tx8be::detail::ShapeRuleError::ShapeRuleError(ShapeRuleError &&other)
    : ctx(other.ctx), diag(std::move(other.diag)), report(other.report) {
  other.report = false;
}

tx8be::detail::ShapeRuleError::~ShapeRuleError() {
  if (report)
    ctx->getDiagEngine().emit(std::move(diag));
}

LogicalResult tx8be::detail::inferResultTypes(Operation *op, SmallVectorImpl<Type> &types) {
  auto rule = dyn_cast<InferTypeOpInterface>(op);
  if (!rule)
    return op->emitOpError() << "has no shape rule (InferTypeOpInterface or its own computeResultTypes)";
  return rule.inferReturnTypes(op->getContext(), op->getLoc(), op->getOperands(), op->getRawDictionaryAttrs(),
                               op->getPropertiesStorage(), op->getRegions(), types);
}

/// Whether `declared` (the IR) is compatible with `inferred`: same element type and rank, equal static extents.
static bool isCompatible(RankedTensorType declared, RankedTensorType inferred) {
  if (declared.getElementType() != inferred.getElementType() || declared.getRank() != inferred.getRank())
    return false;
  for (auto [a, b] : llvm::zip(declared.getShape(), inferred.getShape()))
    if (a != kDyn && b != kDyn && a != b)
      return false;
  return true;
}

bool tx8be::detail::compatibleResultTypes(TypeRange inferred, TypeRange actual) {
  if (inferred.size() != actual.size())
    return false;
  for (auto [expected, result] : llvm::zip(inferred, actual)) {
    auto declared = dyn_cast<RankedTensorType>(result);
    auto rule = dyn_cast<RankedTensorType>(expected);
    if (declared && rule ? !isCompatible(declared, rule) : result != expected)
      return false;
  }
  return true;
}

LogicalResult tx8be::detail::verifyResultTypes(Operation *op) {
  SmallVector<Type> types;
  if (failed(cast<ShapeInferenceOpInterface>(op).computeResultTypes(types)))
    return failure();
  if (types.size() != op->getNumResults())
    return op->emitOpError() << "has " << op->getNumResults() << " results, the shape rule gives " << types.size();
  for (auto [i, result, inferred] : llvm::enumerate(op->getResults(), types)) {
    auto declared = dyn_cast<RankedTensorType>(result.getType());
    auto expected = dyn_cast<RankedTensorType>(inferred);
    if (declared && expected ? !isCompatible(declared, expected) : result.getType() != inferred)
      return op->emitOpError() << "result #" << i << " has type " << result.getType() << ", but the operands give "
                               << inferred;
  }
  return success();
}

LogicalResult tx8be::detail::inferShapes(Operation *op, DynamicShapeParam &) {
  SmallVector<Type> types;
  if (failed(cast<ShapeInferenceOpInterface>(op).computeResultTypes(types)))
    return failure();
  for (auto [result, inferred] : llvm::zip(op->getResults(), types)) {
    auto declared = dyn_cast<RankedTensorType>(result.getType());
    auto refined = dyn_cast<RankedTensorType>(inferred);
    if (!declared || !refined || declared.getRank() != refined.getRank()) {
      result.setType(inferred);
      continue;
    }
    // Keep what the IR knows where the rule cannot tell (a dynamic operand extent).
    SmallVector<int64_t> shape(refined.getShape());
    for (auto [d, known] : llvm::enumerate(declared.getShape()))
      if (shape[d] == kDyn)
        shape[d] = known;
    result.setType(RankedTensorType::get(shape, refined.getElementType(), declared.getEncoding()));
  }
  return success();
}

LogicalResult tx8be::detail::inferLayout(Operation *op) {
  // Seed: the output takes the input's layout_str and dev_info layout. Only meaningful when the op keeps the
  // rank; a rank change (e.g. a reduction without keepdims) stops the propagation.
  if (op->getNumOperands() == 0 || op->getNumResults() != 1)
    return failure();
  Operation *inOp = op->getOperand(0).getDefiningOp();
  if (!inOp)
    return failure();
  auto inType = dyn_cast<ShapedType>(op->getOperand(0).getType());
  auto outType = dyn_cast<ShapedType>(op->getResult(0).getType());
  if (!inType || !outType || inType.getRank() != outType.getRank())
    return failure();
  tx8be::setLayoutStr(op, tx8be::getLayoutStr(inOp));
  if (auto layout = getDevInfoLayoutMode(inOp))
    setDevInfoWithLayout(op->getContext(), op, *layout);
  return success();
}

LogicalResult ReshapeOp::inferLayout() {
  // Seed: Reshape cannot be derived; layoutTransmitPass stops here and later defaults it to Tensor.
  return failure();
}

LogicalResult TransposeOp::inferLayout() {
  Operation *inOp = getInput().getDefiningOp();
  if (!inOp)
    return failure();
  std::string layout = tx8be::getLayoutStr(inOp);
  ArrayRef<int64_t> perm = getPerm();
  // A per-dimension layout ("NCHW") is permuted with the data: NCHW --(0,2,3,1)--> NHWC.
  if (layout.size() == perm.size() && llvm::all_of(layout, [](char c) { return std::isupper(c); })) {
    std::string permuted;
    for (int64_t p : perm)
      permuted.push_back(layout[p]);
    tx8be::setLayoutStr(*this, permuted);
    return success();
  }
  // Tensor/NTensor only say whether dim 0 is 1, which the permutation may change.
  if (layout == "Tensor" || layout == "NTensor") {
    tx8be::setLayoutStr(*this, defaultCompactLayout(getOutput().getType()) == LayoutMode::Tensor ? "Tensor" : "NTensor");
    return success();
  }
  return failure();
}
