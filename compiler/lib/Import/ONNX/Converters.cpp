//===- Converters.cpp - One converter per ONNX op_type --------------------===//
//
// Each converter reads its node through a NodeImporter and builds tx8be ops with ONNX semantics (see
// compiler/README.md, "Conventions an importer needs"). Opset differences are handled here: attributes that
// became inputs (Reshape's shape, Slice's starts, Pad's pads, Clip's bounds, Squeeze's axes, ...),
// legacy broadcasting (opset < 7), Softmax's 2-D coercion (opset < 13). Anything a converter cannot honour
// exactly is reported with unsupported(): an attribute it does not know, a non-constant shape input, an
// output only training produces.
//
//===----------------------------------------------------------------------===//
#include "ConstantFolding.h"
#include "Converters.h"

#include "tx8/Reference/Convert.h"
#include "tx8/Reference/ExactEltwise.h"
#include "tx8/Reference/TensorIO.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <limits>
#include <numeric>

using namespace mlir;
using namespace tx8be;
using namespace tx8be::onnx_import;
using tx8::ref::DType;
using tx8::ref::Tensor;

LogicalResult tx8be::onnx_import::noExtraOutputsUsed(NodeImporter &n, int first, StringRef what) {
  for (int i = first; i < n.numOutputs(); ++i)
    if (n.outputUsed(i))
      return n.unsupported("output #" + Twine(i) + " (" + what + ") is not supported");
  return success();
}

int64_t tx8be::onnx_import::product(ArrayRef<int64_t> dims) {
  return std::accumulate(dims.begin(), dims.end(), int64_t{1}, std::multiplies<>());
}

FailureOr<Value> tx8be::onnx_import::filledConstant(NodeImporter &n, Type element, ArrayRef<int64_t> shape,
                                                    function_ref<double(ArrayRef<int64_t>)> value) {
  auto dtype = tx8be::detail::refDTypeOf(element);
  if (!dtype) {
    std::string name;
    llvm::raw_string_ostream(name) << element;
    return n.unsupported("a constant of element type " + name + " is needed, which tx8be does not have");
  }
  Tensor t(*dtype, std::vector<int64_t>(shape.begin(), shape.end()));
  SmallVector<int64_t> index(shape.size(), 0);
  for (int64_t i = 0; i < t.numElements(); ++i) {
    tx8::ref::setElementFromDouble(t, i, value(index));
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0 && ++index[d] == shape[d]; --d)
      index[d] = 0;
  }
  return n.constant(t);
}

FailureOr<Value> tx8be::onnx_import::splatConstant(NodeImporter &n, Type element, ArrayRef<int64_t> shape,
                                                   double value) {
  auto dtype = tx8be::detail::refDTypeOf(element);
  if (!dtype) // (filledConstant's refusal)
    return filledConstant(n, element, shape, [&](ArrayRef<int64_t>) { return value; });
  Tensor one(*dtype, {});
  tx8::ref::setElementFromDouble(one, 0, value);
  return n.splat(one, shape);
}

FailureOr<Value> tx8be::onnx_import::castElements(NodeImporter &n, Value v, Type element) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getElementType() == element)
    return v;
  return n.create<CastOp>(v, {}, TypeRange{type.clone(element)});
}

FailureOr<Standardized> tx8be::onnx_import::standardize(NodeImporter &n, Value x, ArrayRef<int64_t> axes,
                                                        float epsilon) {
  auto reduceMean = [&](FailureOr<Value> v) -> FailureOr<Value> {
    if (failed(v))
      return failure();
    return n.create<ReduceMeanOp>(*v, {n.i64Array("axes", axes), n.boolean("keepdims", true)});
  };
  auto mean = reduceMean(x);
  auto diff = binaryOf<SubOp>(n, x, mean);
  auto var = reduceMean(binaryOf<MulOp>(n, diff, diff));
  auto eps = splatConstant(n, getElementTypeOrSelf(x.getType()), {1}, epsilon);
  auto stdDev = unaryOf<SqrtOp>(n, binaryOf<AddOp>(n, var, eps));
  auto y = binaryOf<DivOp>(n, diff, stdDev);
  if (failed(y))
    return failure();
  return Standardized{*y, *mean, *stdDev};
}

FailureOr<Value> tx8be::onnx_import::reducedDimsLast(NodeImporter &n, Value x, SmallVectorImpl<int64_t> &axes) {
  llvm::sort(axes);
  if (axes.empty() || axes.back() - axes.front() + 1 == static_cast<int64_t>(axes.size()) ||
      std::adjacent_find(axes.begin(), axes.end()) != axes.end())
    return x;
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(axes, d))
      perm.push_back(d);
  int64_t kept = perm.size();
  perm.append(axes.begin(), axes.end());
  std::iota(axes.begin(), axes.end(), kept);
  return n.create<TransposeOp>(x, {n.i64Array("perm", perm)});
}

namespace {

Tensor tensorOfInts(ArrayRef<int64_t> values) {
  Tensor t(DType::I64, {static_cast<int64_t>(values.size())});
  llvm::copy(values, t.data<int64_t>());
  return t;
}

/// The window attributes of Conv, ConvTranspose and the pools, before any arithmetic on them: strides and
/// dilations empty or one positive value per spatial dim, a static positive kernel, and sizes small enough that
/// the pad computations below cannot overflow (2^30 per value: far beyond any SPM).
LogicalResult checkWindow(NodeImporter &n, ArrayRef<int64_t> inSpatial, ArrayRef<int64_t> kernel,
                          ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations) {
  constexpr int64_t kMax = int64_t{1} << 30;
  size_t rank = inSpatial.size();
  auto positive = [&](ArrayRef<int64_t> values, StringRef what) -> LogicalResult {
    if (!values.empty() && values.size() != rank)
      return n.unsupported(Twine(what) + " must have one value per spatial dim (" + Twine(rank) + "), not " +
                           Twine(values.size()));
    for (int64_t v : values)
      if (ShapedType::isDynamic(v))
        return n.unsupported(Twine(what) + " must be static");
      else if (v <= 0 || v > kMax)
        return n.unsupported(Twine(what) + " value " + Twine(v) + " is not in [1, 2^30]");
    return success();
  };
  if (kernel.size() != rank)
    return n.unsupported("the kernel must have one dim per spatial dim");
  if (failed(positive(strides, "strides")) || failed(positive(dilations, "dilations")) ||
      failed(positive(kernel, "kernel_shape")))
    return failure();
  for (int64_t d : inSpatial)
    if (!ShapedType::isDynamic(d) && d > kMax)
      return n.unsupported("spatial dim " + Twine(d) + " is larger than 2^30");
  return success();
}

/// Pads for a sliding window from auto_pad / pads (ONNX Conv, pooling); `kernel` and the rest are per
/// spatial dim.
FailureOr<SmallVector<int64_t>> windowPads(NodeImporter &n, ArrayRef<int64_t> inSpatial, ArrayRef<int64_t> kernel,
                                           ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations) {
  if (failed(checkWindow(n, inSpatial, kernel, strides, dilations)))
    return failure();
  size_t rank = inSpatial.size();
  std::string autoPad = n.attrString("auto_pad", "NOTSET");
  if (autoPad == "NOTSET") {
    SmallVector<int64_t> pads = n.attrInts("pads");
    if (pads.empty())
      pads.assign(2 * rank, 0);
    return pads;
  }
  if (autoPad == "VALID")
    return SmallVector<int64_t>(2 * rank, 0);
  if (autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER")
    return n.unsupported("auto_pad '" + autoPad + "' is not an ONNX value");
  if (llvm::any_of(inSpatial, ShapedType::isDynamic))
    return n.unsupported("auto_pad " + autoPad + " needs static spatial dims");
  SmallVector<int64_t> pads(2 * rank, 0);
  for (size_t i = 0; i < rank; ++i) {
    int64_t s = strides.empty() ? 1 : strides[i], d = dilations.empty() ? 1 : dilations[i];
    int64_t out = (inSpatial[i] + s - 1) / s;
    int64_t total = std::max<int64_t>(0, (out - 1) * s + (kernel[i] - 1) * d + 1 - inSpatial[i]);
    int64_t small = total / 2, large = total - small;
    pads[i] = autoPad == "SAME_UPPER" ? small : large;
    pads[i + rank] = autoPad == "SAME_UPPER" ? large : small;
  }
  return pads;
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

/// Unary op whose ONNX float attributes map one for one (name, default) onto the tx8be op's.
template <typename OpT>
LogicalResult convertUnary(NodeImporter &n, ArrayRef<std::pair<StringRef, float>> floatAttrs = {}) {
  SmallVector<StringRef> known{"consumed_inputs"}; // opset 1's legacy optimisation hint; no semantics
  SmallVector<NamedAttribute> attrs;
  for (auto [name, dflt] : floatAttrs) {
    known.push_back(name);
    attrs.push_back(n.f32(name, n.attrFloat(name, dflt)));
  }
  if (failed(n.onlyAttrs(known)))
    return failure();
  auto x = n.input(0);
  if (failed(x))
    return failure();
  return bindResult(n, n.create<OpT>(*x, attrs));
}

template <typename OpT> LogicalResult unary(NodeImporter &n) { return convertUnary<OpT>(n); }

LogicalResult convertLeakyRelu(NodeImporter &n) { return convertUnary<LeakyReluOp>(n, {{"alpha", 0.01f}}); }
LogicalResult convertElu(NodeImporter &n) { return convertUnary<EluOp>(n, {{"alpha", 1.0f}}); }
LogicalResult convertSelu(NodeImporter &n) {
  return convertUnary<SeluOp>(n, {{"alpha", 1.67326319217681884765625f}, {"gamma", 1.05070102214813232421875f}});
}
LogicalResult convertCelu(NodeImporter &n) { return convertUnary<CeluOp>(n, {{"alpha", 1.0f}}); }
LogicalResult convertThresholdedRelu(NodeImporter &n) { return convertUnary<ThresholdedReluOp>(n, {{"alpha", 1.0f}}); }
LogicalResult convertShrink(NodeImporter &n) { return convertUnary<ShrinkOp>(n, {{"bias", 0.0f}, {"lambd", 0.5f}}); }
LogicalResult convertHardSigmoid(NodeImporter &n) { return convertUnary<HardSigmoidOp>(n, {{"alpha", 0.2f}, {"beta", 0.5f}}); }

LogicalResult convertGelu(NodeImporter &n) {
  if (failed(n.onlyAttrs({"approximate"})))
    return failure();
  auto x = n.input(0);
  if (failed(x))
    return failure();
  auto approximate = n.builder().getNamedAttr("approximate",
                                              n.builder().getStringAttr(n.attrString("approximate", "none")));
  return bindResult(n, n.create<GeluOp>(*x, {approximate}));
}

/// Clip. Constant float bounds (attributes before opset 11, inputs after) make a tx8be.Clip; bounds computed
/// at run time, or an integer x, make Min(Max(x, min), max) with the broadcasting binary ops, in ONNX's order
/// (min > max gives max). Max and Min propagate a NaN of either operand (the reference's Binary.cpp and OpLib's
/// op_max / op_min), so Clip(NaN) stays NaN as in ONNX.
LogicalResult convertClip(NodeImporter &n) {
  float lo = -std::numeric_limits<float>::infinity(), hi = std::numeric_limits<float>::infinity();
  auto x = n.input(0);
  if (failed(x))
    return failure();
  if (n.getOpset() < 11) {
    if (failed(n.onlyAttrs({"min", "max", "consumed_inputs"})))
      return failure();
    lo = n.attrFloat("min", lo);
    hi = n.attrFloat("max", hi);
    return bindResult(n, n.create<ClipOp>(*x, {n.f32("min", lo), n.f32("max", hi)}));
  }
  if (failed(n.onlyAttrs({})))
    return failure();
  bool runtimeBound = (n.hasInput(1) && !n.constantInput(1)) || (n.hasInput(2) && !n.constantInput(2));
  if (runtimeBound || !isa<FloatType>(getElementTypeOrSelf(x->getType()))) {
    FailureOr<Value> y = *x;
    if (n.hasInput(1))
      y = binaryOf<MaxOp>(n, y, n.input(1));
    if (n.hasInput(2))
      y = binaryOf<MinOp>(n, y, n.input(2));
    return bindResult(n, y);
  }
  if (n.hasInput(1)) {
    auto v = n.constantFloat(1, "min");
    if (failed(v))
      return failure();
    lo = *v;
  }
  if (n.hasInput(2)) {
    auto v = n.constantFloat(2, "max");
    if (failed(v))
      return failure();
    hi = *v;
  }
  return bindResult(n, n.create<ClipOp>(*x, {n.f32("min", lo), n.f32("max", hi)}));
}

/// Opset < 7 broadcasting: with broadcast = 1, B's dims line up with A's starting at `axis` (default: the
/// trailing dims, as numpy). B is reshaped so that numpy broadcasting then does the same.
FailureOr<Value> legacyBroadcastOperand(NodeImporter &n, Value a, Value bv) {
  if (n.getOpset() >= 7 || n.attrInt("broadcast", 0) == 0 || !n.hasAttr("axis"))
    return bv;
  auto aType = cast<RankedTensorType>(a.getType()), bType = cast<RankedTensorType>(bv.getType());
  auto axis = checkedAxis(n.attrInt("axis", 0), aType.getRank());
  if (!axis || *axis + bType.getRank() > aType.getRank())
    return n.unsupported("broadcast axis " + Twine(n.attrInt("axis", 0)) + " does not fit the operand ranks");
  SmallVector<int64_t> shape(bType.getShape());
  shape.append(aType.getRank() - *axis - bType.getRank(), 1);
  return n.reshape(bv, shape);
}

template <typename OpT> LogicalResult binary(NodeImporter &n) {
  if (failed(n.onlyAttrs({"broadcast", "axis", "consumed_inputs"})))
    return failure();
  auto a = n.input(0), b = n.input(1);
  if (failed(a) || failed(b))
    return failure();
  auto bb = legacyBroadcastOperand(n, *a, *b);
  if (failed(bb))
    return failure();
  return bindResult(n, n.create<OpT>(ValueRange{*a, *bb}));
}

/// ONNX Mod: the divisor's sign, or C fmod's (the dividend's) with fmod = 1.
LogicalResult convertMod(NodeImporter &n) {
  if (failed(n.onlyAttrs({"fmod"})))
    return failure();
  auto a = n.input(0), b = n.input(1);
  if (failed(a) || failed(b))
    return failure();
  if (isa<FloatType>(getElementTypeOrSelf(a->getType())) && n.attrInt("fmod", 0) == 0)
    return n.unsupported("a float Mod needs fmod = 1 (ONNX)");
  NamedAttribute fmod(n.builder().getStringAttr("fmod"), n.builder().getBoolAttr(n.attrInt("fmod", 0) != 0));
  return bindResult(n, n.create<ModOp>(ValueRange{*a, *b}, {fmod}));
}

/// ONNX Pow lets the exponent's type differ from the base's (the result has the base's): a float operand makes the
/// power a float one (numpy's promotion), cast back to the base's type; two integer types use the base's.
LogicalResult convertPow(NodeImporter &n) {
  if (failed(n.onlyAttrs({"broadcast", "axis"})))
    return failure();
  auto a = n.input(0), b = n.input(1);
  if (failed(a) || failed(b))
    return failure();
  Type baseType = getElementTypeOrSelf(a->getType()), expType = getElementTypeOrSelf(b->getType());
  if (baseType == expType)
    return binary<PowOp>(n);
  Type work = isa<FloatType>(baseType) ? baseType : isa<FloatType>(expType) ? expType : baseType;
  auto base = castElements(n, *a, work);
  auto exponent = castElements(n, *b, work);
  auto power = binaryOf<PowOp>(n, base, exponent);
  if (failed(power))
    return failure();
  return bindResult(n, castElements(n, *power, baseType));
}

/// The node's inputs combined by a left fold of the binary op.
template <typename OpT> FailureOr<Value> foldInputs(NodeImporter &n) {
  if (failed(n.onlyAttrs({"consumed_inputs"})))
    return failure();
  auto acc = n.input(0);
  for (int i = 1; succeeded(acc) && i < n.numInputs(); ++i) {
    auto next = n.input(i);
    if (failed(next))
      return failure();
    acc = n.create<OpT>(ValueRange{*acc, *next});
  }
  return acc;
}

LogicalResult convertWhere(NodeImporter &n) {
  if (failed(n.onlyAttrs({})))
    return failure();
  auto c = n.input(0), x = n.input(1), y = n.input(2);
  if (failed(c) || failed(x) || failed(y))
    return failure();
  // OpLib's op_where takes three operands of the result's shape: broadcast them first (tx8be.Expand). Shapes
  // that do not broadcast are left to WhereOp's shape rule, which names them.
  auto shapeOf = [](Value v) {
    ArrayRef<int64_t> s = cast<RankedTensorType>(v.getType()).getShape();
    return std::vector<int64_t>(s.begin(), s.end());
  };
  auto xy = tx8::ref::numpyBroadcast(shapeOf(*x), shapeOf(*y));
  auto all = xy ? tx8::ref::numpyBroadcast(shapeOf(*c), *xy) : std::nullopt;
  if (all)
    for (FailureOr<Value> *v : {&c, &x, &y})
      if (failed(*v = n.broadcastTo(**v, *all)))
        return failure();
  return bindResult(n, n.create<WhereOp>(ValueRange{*c, *x, *y}));
}

/// Sum / Max / Min of any number of inputs.
template <typename OpT> LogicalResult variadic(NodeImporter &n) { return bindResult(n, foldInputs<OpT>(n)); }

LogicalResult convertPRelu(NodeImporter &n) {
  if (failed(n.onlyAttrs({"consumed_inputs"})))
    return failure();
  auto x = n.input(0), slope = n.input(1);
  if (failed(x) || failed(slope))
    return failure();
  // Opset < 7: a 1-D slope of C elements is per channel (dim 1); later opsets broadcast numpy-style.
  auto xType = cast<RankedTensorType>(x->getType()), sType = cast<RankedTensorType>(slope->getType());
  if (n.getOpset() < 7 && sType.getRank() == 1 && xType.getRank() >= 2 && sType.getDimSize(0) != 1 &&
      sType.getDimSize(0) == xType.getDimSize(1)) {
    SmallVector<int64_t> shape{sType.getDimSize(0)};
    shape.append(xType.getRank() - 2, 1);
    slope = n.reshape(*slope, shape);
    if (failed(slope))
      return failure();
  }
  return bindResult(n, n.create<PReluOp>(ValueRange{*x, *slope}));
}

//===----------------------------------------------------------------------===//
// Pass-through and constants
//===----------------------------------------------------------------------===//

LogicalResult convertIdentity(NodeImporter &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  n.setOutput(0, *x);
  return success();
}

/// Dropout is the identity, and its mask (a bool tensor from opset 10 on) keeps everything (all true), whenever it
/// drops nothing: in inference (training_mode absent or a constant false; is_test before opset 7; always at
/// opsets 7-11), or in training with a constant ratio of 0 (ONNX's reference: ratio 0 or inference gives x and an
/// all-true mask). Training with a non-zero ratio drops at random: refused.
LogicalResult convertDropout(NodeImporter &n) {
  if (failed(n.onlyAttrs({"ratio", "is_test", "seed", "consumed_inputs"})))
    return failure();
  // The ratio: an attribute before opset 12 (default 0.5), then optional input #1 (default 0.5).
  std::optional<bool> ratioZero = n.attrFloat("ratio", 0.5f) == 0.0f;
  if (n.getOpset() >= 12) {
    ratioZero = false;
    if (n.hasInput(1)) {
      const Tensor *ratio = n.constantInput(1);
      if (!ratio || ratio->numElements() != 1 || !tx8::ref::isFloatType(ratio->dtype))
        ratioZero = std::nullopt; // computed at run time (or malformed): not known to be 0
      else
        ratioZero = tx8::ref::elementAsDouble(*ratio, 0) == 0.0;
    }
  }
  // Training: is_test = 0 given before opset 7; from opset 12 optional input #2 (default false).
  std::optional<bool> training = false;
  if (n.getOpset() < 7)
    training = n.hasAttr("is_test") && n.attrInt("is_test", 0) == 0;
  else if (n.getOpset() >= 12 && n.hasInput(2)) {
    const Tensor *mode = n.constantInput(2);
    if (!mode || mode->numElements() != 1 || mode->dtype != DType::Bool)
      training = std::nullopt;
    else
      training = mode->bytes[0] != 0;
  }
  if (ratioZero != true && training != false) {
    if (!training.has_value())
      return n.unsupported("training_mode (input #2) must be a constant, or the ratio a constant 0");
    return n.unsupported(n.getOpset() < 7 ? "training-mode Dropout (is_test = 0) with a non-zero ratio drops at "
                                            "random, which is not supported"
                                          : "training-mode Dropout (training_mode true) with a ratio that is not "
                                            "a constant 0 drops at random, which is not supported");
  }
  if (n.outputUsed(1)) {
    auto xType = n.inputType(0);
    if (failed(xType))
      return failure();
    auto maskType = n.onnxOutputType(1);
    if (!xType->hasStaticShape() || !maskType || !maskType->getElementType().isInteger(1))
      return n.unsupported("the mask (output #1) is supported as a static bool tensor only (opset >= 10)");
    Tensor mask(DType::Bool, std::vector<int64_t>(xType->getShape().begin(), xType->getShape().end()));
    std::fill(mask.bytes.begin(), mask.bytes.end(), uint8_t{1});
    n.setConstantOutput(1, std::move(mask));
  }
  return convertIdentity(n);
}

LogicalResult convertConstant(NodeImporter &n) {
  if (n.getNode().attribute_size() != 1)
    return n.unsupported("a Constant needs exactly one value attribute");
  const onnx::AttributeProto &a = n.getNode().attribute(0);
  Tensor t;
  if (a.name() == "value") {
    std::string bytes = a.t().SerializeAsString();
    tx8::ref::Status s = tx8::ref::parseTensorProto(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size(),
                                                    "Constant value", t);
    if (!s.ok())
      return n.unsupported(s.message());
  } else if (a.name() == "value_float") {
    t = tx8::ref::makeTensor<float>(DType::F32, {}, {a.f()});
  } else if (a.name() == "value_floats") {
    t = tx8::ref::makeTensor<float>(DType::F32, {a.floats_size()}, {a.floats().begin(), a.floats().end()});
  } else if (a.name() == "value_int") {
    t = tx8::ref::makeTensor<int64_t>(DType::I64, {}, {a.i()});
  } else if (a.name() == "value_ints") {
    t = tensorOfInts(SmallVector<int64_t>(a.ints().begin(), a.ints().end()));
  } else {
    return n.unsupported("Constant attribute '" + a.name() + "' is not supported");
  }
  n.setConstantOutput(0, std::move(t));
  return success();
}

LogicalResult convertShape(NodeImporter &n) {
  if (failed(n.onlyAttrs({"start", "end"})))
    return failure();
  auto type = n.inputType(0);
  if (failed(type))
    return failure();
  int64_t rank = type->getRank();
  auto clampAxis = [&](int64_t a) { return std::clamp<int64_t>(a < 0 ? a + rank : a, 0, rank); };
  int64_t start = clampAxis(n.attrInt("start", 0)), end = clampAxis(n.attrInt("end", rank));
  ArrayRef<int64_t> dims = type->getShape();
  n.setConstantOutput(0, tensorOfInts(start < end ? dims.slice(start, end - start) : ArrayRef<int64_t>{}));
  return success();
}

/// Cast: the element type is `to`'s and the shape the input's, also where ONNX shape inference lost the shape
/// (e.g. behind a Reshape whose shape only the importer's constant folding knows: Swin's window mask).
LogicalResult convertCast(NodeImporter &n) {
  if (failed(n.onlyAttrs({"to", "saturate"})))
    return failure();
  auto x = n.input(0);
  auto to = n.attrElementType("to");
  if (failed(x) || failed(to))
    return failure();
  return bindResult(n, castElements(n, *x, *to));
}

/// CastLike: a Cast to input 1's element type (its values are not read).
LogicalResult convertCastLike(NodeImporter &n) {
  if (failed(n.onlyAttrs({"saturate"})))
    return failure();
  auto x = n.input(0);
  auto like = n.inputType(1);
  if (failed(x) || failed(like))
    return failure();
  return bindResult(n, castElements(n, *x, like->getElementType()));
}

/// Range. Constant operands fold (ConstantFolding.cpp). Operands computed at run time: start + i * delta, in
/// their type, for i below the length of ONNX's static output type: the length max(ceil((limit - start) /
/// delta), 0) depends on the values, so it is taken from the declared type (which nothing can check before the
/// values exist); limit is read only through it.
LogicalResult convertRangeOp(NodeImporter &n) {
  if (n.constantInput(0) && n.constantInput(1) && n.constantInput(2))
    return convertRange(n);
  if (failed(n.onlyAttrs({})))
    return failure();
  auto out = n.onnxOutputType(0);
  if (!out || out->getRank() != 1 || !out->hasStaticShape())
    return n.unsupported("start, limit or delta is computed at run time and ONNX shape inference gives no static "
                         "1-D output type");
  auto start = n.input(0);
  auto delta = n.input(2);
  auto iota = filledConstant(n, out->getElementType(), out->getShape(), [](ArrayRef<int64_t> i) { return i[0]; });
  return bindResult(n, binaryOf<AddOp>(n, binaryOf<MulOp>(n, iota, delta), start));
}

//===----------------------------------------------------------------------===//
// Normalisation and softmax
//===----------------------------------------------------------------------===//

LogicalResult convertBatchNormalization(NodeImporter &n) {
  if (failed(n.onlyAttrs({"epsilon", "momentum", "spatial", "is_test", "training_mode", "consumed_inputs"})) ||
      failed(noExtraOutputsUsed(n, 1, "training statistics")))
    return failure();
  if (n.attrInt("spatial", 1) != 1)
    return n.unsupported("spatial = 0 (per-element statistics) is not supported");
  if (n.attrInt("training_mode", 0) != 0 || (n.hasAttr("is_test") && n.attrInt("is_test", 0) == 0))
    return n.unsupported("training-mode BatchNormalization is not supported");
  SmallVector<Value> operands;
  for (int i = 0; i < 5; ++i) {
    auto v = n.input(i);
    if (failed(v))
      return failure();
    operands.push_back(*v);
  }
  return bindResult(n, n.create<BatchNorm_InferenceOp>(operands, {n.f32("epsilon", n.attrFloat("epsilon", 1e-5f))}));
}

/// Whether `v` holds one value per element of the normalised shape `normShape` (static; broadcasting only by
/// leading 1s): what op_layernorm takes as its scale and bias.
static bool coversNormShape(Value v, ArrayRef<int64_t> normShape) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !type.hasStaticShape() || llvm::any_of(normShape, ShapedType::isDynamic) ||
      type.getRank() > static_cast<int64_t>(normShape.size()))
    return false;
  ArrayRef<int64_t> shape = type.getShape();
  ArrayRef<int64_t> norm = normShape;
  while (!norm.empty() && norm.front() == 1 && norm.size() > shape.size())
    norm = norm.drop_front();
  return shape == norm;
}

/// LayerNormalization: one tx8be.LayerNorm (OpLib's op_layernorm) when Mean and InvStdDev are unused and scale
/// and bias cover the normalised shape; otherwise as the ONNX function computes it, over the dims from `axis` on
/// (kept as 1s): standardize(x) * scale (+ bias), with the optional outputs Mean = mean and InvStdDev =
/// 1 / stdDev. Every step is an op OpLib runs.
LogicalResult convertLayerNormalization(NodeImporter &n) {
  if (failed(n.onlyAttrs({"axis", "epsilon", "stash_type"})))
    return failure();
  if (n.attrInt("stash_type", 1) != 1)
    return n.unsupported("stash_type other than float is not supported");
  auto x = n.input(0), scale = n.input(1);
  if (failed(x) || failed(scale))
    return failure();
  int64_t rank = cast<RankedTensorType>(x->getType()).getRank();
  auto axis = checkedAxis(n.attrInt("axis", -1), rank);
  if (!axis)
    return n.unsupported("axis " + Twine(n.attrInt("axis", -1)) + " is out of range for rank " + Twine(rank));
  float epsilon = n.attrFloat("epsilon", 1e-5f);
  ArrayRef<int64_t> normShape = cast<RankedTensorType>(x->getType()).getShape().drop_front(*axis);
  FailureOr<Value> bias = n.hasInput(2) ? n.input(2) : FailureOr<Value>(Value());
  if (failed(bias))
    return failure();
  if (!n.outputUsed(1) && !n.outputUsed(2) && coversNormShape(*scale, normShape) &&
      (!*bias || coversNormShape(*bias, normShape))) {
    SmallVector<Value, 3> operands{*x, *scale};
    if (*bias)
      operands.push_back(*bias);
    return bindResult(n, n.create<LayerNormOp>(operands, {n.i64("axis", *axis), n.f32("epsilon", epsilon)}));
  }
  SmallVector<int64_t> axes;
  for (int64_t d = *axis; d < rank; ++d)
    axes.push_back(d);
  auto normal = standardize(n, *x, axes, epsilon);
  if (failed(normal))
    return failure();
  auto y = binaryOf<MulOp>(n, normal->y, scale);
  if (*bias)
    y = binaryOf<AddOp>(n, y, *bias);
  if (failed(bindResult(n, y)))
    return failure();
  if (n.outputUsed(1))
    n.setOutput(1, normal->mean);
  if (n.outputUsed(2)) {
    auto invStdDev = n.create<ReciprocalOp>(normal->stdDev);
    if (failed(invStdDev))
      return failure();
    n.setOutput(2, *invStdDev);
  }
  return success();
}

/// Softmax / LogSoftmax. Before opset 13 the input is coerced to 2-D [prod(dims < axis), prod(dims >= axis)]
/// and normalised along dim 1: a Reshape, the op along the last axis, and a Reshape back.
template <typename OpT> LogicalResult softmax(NodeImporter &n) {
  if (failed(n.onlyAttrs({"axis"})))
    return failure();
  auto x = n.input(0);
  if (failed(x))
    return failure();
  auto type = cast<RankedTensorType>(x->getType());
  int64_t rank = type.getRank();
  if (n.getOpset() >= 13)
    return bindResult(n, n.create<OpT>(*x, {n.i64("axis", n.attrInt("axis", -1))}));
  auto axis = checkedAxis(n.attrInt("axis", 1), std::max<int64_t>(rank, 1));
  if (!axis)
    return n.unsupported("axis " + Twine(n.attrInt("axis", 1)) + " is out of range for rank " + Twine(rank));
  if (*axis == rank - 1)
    return bindResult(n, n.create<OpT>(*x, {n.i64("axis", -1)}));
  ArrayRef<int64_t> dims = type.getShape();
  auto flat = n.reshape(*x, {product(dims.take_front(*axis)), product(dims.drop_front(*axis))});
  if (failed(flat))
    return failure();
  auto y = n.create<OpT>(*flat, {n.i64("axis", 1)});
  if (failed(y))
    return failure();
  return bindResult(n, n.reshape(*y, dims));
}

//===----------------------------------------------------------------------===//
// Matrix and convolution
//===----------------------------------------------------------------------===//

LogicalResult convertGemm(NodeImporter &n) {
  if (failed(n.onlyAttrs({"alpha", "beta", "transA", "transB", "broadcast"})))
    return failure();
  SmallVector<Value> operands;
  for (int i = 0; i < 3; ++i) {
    if (i == 2 && !n.hasInput(2))
      break;
    auto v = n.input(i);
    if (failed(v))
      return failure();
    operands.push_back(*v);
  }
  return bindResult(n, n.create<GemmOp>(operands, {n.f32("alpha", n.attrFloat("alpha", 1.0f)),
                                                   n.f32("beta", n.attrFloat("beta", 1.0f)),
                                                   n.boolean("transA", n.attrInt("transA", 0) != 0),
                                                   n.boolean("transB", n.attrInt("transB", 0) != 0)}));
}

/// MatMul: numpy matmul. A 1-D operand is made a matrix ([1, K] or [K, 1]) and the extra dim dropped after.
LogicalResult convertMatMul(NodeImporter &n) {
  if (failed(n.onlyAttrs({})))
    return failure();
  auto a = n.input(0), b = n.input(1);
  if (failed(a) || failed(b))
    return failure();
  auto aType = cast<RankedTensorType>(a->getType()), bType = cast<RankedTensorType>(b->getType());
  if (aType.getRank() == 0 || bType.getRank() == 0)
    return n.unsupported("MatMul operands must have rank >= 1");
  bool vecA = aType.getRank() == 1, vecB = bType.getRank() == 1;
  if (vecA)
    a = n.reshape(*a, {1, aType.getDimSize(0)});
  if (vecB)
    b = n.reshape(*b, {bType.getDimSize(0), 1});
  if (failed(a) || failed(b))
    return failure();
  auto y = n.create<MatMulOp>(ValueRange{*a, *b});
  if (failed(y) || (!vecA && !vecB))
    return bindResult(n, y);
  SmallVector<int64_t> shape(cast<RankedTensorType>(y->getType()).getShape());
  if (vecB)
    shape.erase(shape.end() - 1);
  if (vecA)
    shape.erase(shape.end() - (vecB ? 1 : 2));
  return bindResult(n, n.reshape(*y, shape));
}

/// ConvTranspose's pads, and its output_padding (`outputPadding`, one per spatial dim on return): `pads` (or 0
/// for VALID) unless an output_shape or auto_pad SAME_* (output in * stride) asks for an output size `out`; then
/// total = stride * (in - 1) + output_padding + (k - 1) * dilation + 1 - out is split as ONNX does,
/// SAME_UPPER: begin = total / 2, end = total - begin; otherwise: end = total / 2, begin = total - end. A
/// negative total (an output larger than the natural one) is more output padding at the end, with zero pads.
FailureOr<SmallVector<int64_t>> convTransposePads(NodeImporter &n, ArrayRef<int64_t> inSpatial,
                                                  ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                                                  ArrayRef<int64_t> dilations, SmallVector<int64_t> &outputPadding) {
  if (failed(checkWindow(n, inSpatial, kernel, strides, dilations)))
    return failure();
  size_t rank = inSpatial.size();
  std::string autoPad = n.attrString("auto_pad", "NOTSET");
  SmallVector<int64_t> outputShape = n.attrInts("output_shape");
  if (autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER" && outputShape.empty())
    return windowPads(n, inSpatial, kernel, strides, dilations);
  if (outputPadding.empty())
    outputPadding.assign(rank, 0);
  if (outputPadding.size() != rank || (!outputShape.empty() && outputShape.size() != rank))
    return n.unsupported("output_padding and output_shape must have one value per spatial dim");
  if (llvm::any_of(inSpatial, ShapedType::isDynamic))
    return n.unsupported("output_shape / auto_pad SAME_* need static spatial dims");
  auto inRange = [](int64_t v) { return v >= 0 && v <= (int64_t{1} << 30); };
  if (!llvm::all_of(outputPadding, inRange) || !llvm::all_of(outputShape, inRange))
    return n.unsupported("output_padding and output_shape values must be in [0, 2^30]");
  SmallVector<int64_t> pads(2 * rank, 0);
  for (size_t i = 0; i < rank; ++i) {
    int64_t s = strides.empty() ? 1 : strides[i], d = dilations.empty() ? 1 : dilations[i];
    int64_t out = outputShape.empty() ? inSpatial[i] * s : outputShape[i];
    int64_t total = s * (inSpatial[i] - 1) + outputPadding[i] + (kernel[i] - 1) * d + 1 - out;
    if (total < 0) {
      outputPadding[i] -= total;
      continue;
    }
    pads[i] = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
    pads[i + rank] = total - pads[i];
  }
  return pads;
}

/// Conv and ConvTranspose: input, weight, optional bias and the window attributes.
template <typename OpT> LogicalResult convolution(NodeImporter &n, bool transposed) {
  SmallVector<StringRef> known{"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"};
  if (transposed)
    known.append({"output_padding", "output_shape"});
  if (failed(n.onlyAttrs(known)))
    return failure();
  auto x = n.input(0), w = n.input(1);
  if (failed(x) || failed(w))
    return failure();
  auto xType = cast<RankedTensorType>(x->getType()), wType = cast<RankedTensorType>(w->getType());
  if (xType.getRank() < 3 || wType.getRank() != xType.getRank())
    return n.unsupported("input and weight must have the same rank >= 3");
  SmallVector<int64_t> strides = n.attrInts("strides"), dilations = n.attrInts("dilations");
  SmallVector<int64_t> outputPadding = n.attrInts("output_padding");
  auto inSpatial = xType.getShape().drop_front(2), kernel = wType.getShape().drop_front(2);
  auto pads = transposed ? convTransposePads(n, inSpatial, kernel, strides, dilations, outputPadding)
                         : windowPads(n, inSpatial, kernel, strides, dilations);
  if (failed(pads))
    return failure();
  SmallVector<Value> operands{*x, *w};
  if (n.hasInput(2)) {
    auto bias = n.input(2);
    if (failed(bias))
      return failure();
    operands.push_back(*bias);
  }
  SmallVector<NamedAttribute> attrs{n.i64Array("strides", strides), n.i64Array("pads", *pads),
                                    n.i64Array("dilations", dilations), n.i64("group", n.attrInt("group", 1))};
  if (transposed)
    attrs.push_back(n.i64Array("output_padding", outputPadding));
  return bindResult(n, n.create<OpT>(operands, attrs));
}

LogicalResult convertConv(NodeImporter &n) { return convolution<ConvOp>(n, false); }
LogicalResult convertConvTranspose(NodeImporter &n) { return convolution<ConvTransposeOp>(n, true); }

//===----------------------------------------------------------------------===//
// Pooling and reductions
//===----------------------------------------------------------------------===//

template <typename OpT> LogicalResult pool(NodeImporter &n, bool isMax) {
  SmallVector<StringRef> known{"auto_pad", "ceil_mode", "kernel_shape", "pads", "strides"};
  if (isMax)
    known.append({"dilations", "storage_order"});
  else
    known.push_back("count_include_pad");
  if (!isMax && n.getOpset() >= 19) // AveragePool-19
    known.push_back("dilations");
  if (failed(n.onlyAttrs(known)) || failed(noExtraOutputsUsed(n, 1, "indices")))
    return failure();
  auto x = n.input(0);
  if (failed(x))
    return failure();
  auto xType = cast<RankedTensorType>(x->getType());
  SmallVector<int64_t> kernel = n.attrInts("kernel_shape"), strides = n.attrInts("strides"),
                       dilations = n.attrInts("dilations");
  if (xType.getRank() < 3 || kernel.size() != static_cast<size_t>(xType.getRank() - 2))
    return n.unsupported("kernel_shape must have one entry per spatial dim of a rank >= 3 input");
  auto pads = windowPads(n, xType.getShape().drop_front(2), kernel, strides, dilations);
  if (failed(pads))
    return failure();
  SmallVector<NamedAttribute> attrs{n.i64Array("kernel_shape", kernel), n.i64Array("strides", strides),
                                    n.i64Array("pads", *pads), n.i64Array("dilations", dilations),
                                    n.boolean("ceil_mode", n.attrInt("ceil_mode", 0) != 0)};
  if (!isMax)
    attrs.push_back(n.boolean("count_include_pad", n.attrInt("count_include_pad", 0) != 0));
  return bindResult(n, n.create<OpT>(*x, attrs));
}

LogicalResult convertMaxPool(NodeImporter &n) { return pool<MaxPoolOp>(n, true); }
LogicalResult convertAveragePool(NodeImporter &n) { return pool<AvgPoolOp>(n, false); }

template <typename OpT> LogicalResult globalPool(NodeImporter &n) {
  if (failed(n.onlyAttrs({})))
    return failure();
  auto x = n.input(0);
  if (failed(x))
    return failure();
  return bindResult(n, n.create<OpT>(*x));
}

/// Reduce*: axes are an attribute before opset 13 (ReduceSum) / 18 (the others), an input after.
/// What a composite reduction does to each element before summing and to each sum after.
enum class ReducePre { None, Abs, Square, Exp };
enum class ReducePost { None, Sqrt, Log };

/// ArgMax / ArgMin: an int64 index along one axis.
template <typename OpT> LogicalResult argReduce(NodeImporter &n) {
  if (failed(n.onlyAttrs({"axis", "keepdims", "select_last_index"})))
    return failure();
  auto x = n.input(0);
  if (failed(x))
    return failure();
  return bindResult(n, n.create<OpT>(*x, {n.i64("axis", n.attrInt("axis", 0)),
                                          n.boolean("keepdims", n.attrInt("keepdims", 1) != 0),
                                          n.boolean("select_last_index", n.attrInt("select_last_index", 0) != 0)}));
}

/// OpT over `axes` of v. OpLib reduces one run of dims adjacent in memory: axes with kept dims between them are
/// reduced on reducedDimsLast(v), and with keepdims the result reshaped to v's order (the kept dims are in
/// order, the others 1s; without keepdims the result has the kept dims in order already).
template <typename OpT>
FailureOr<Value> reduceOver(NodeImporter &n, Value v, ArrayRef<int64_t> axes, bool keepdims) {
  SmallVector<int64_t> runAxes;
  ArrayRef<int64_t> dims = cast<RankedTensorType>(v.getType()).getShape();
  for (int64_t a : axes)
    if (auto axis = checkedAxis(a, dims.size()))
      runAxes.push_back(*axis);
  auto view = runAxes.size() == axes.size() ? reducedDimsLast(n, v, runAxes) : FailureOr<Value>(v);
  if (failed(view))
    return failure();
  if (*view == v) // one run already, or axes the op's shape rule will refuse
    return n.create<OpT>(v, {n.i64Array("axes", axes), n.boolean("keepdims", keepdims)});
  auto reduced = n.create<OpT>(*view, {n.i64Array("axes", runAxes), n.boolean("keepdims", keepdims)});
  if (failed(reduced) || !keepdims)
    return reduced;
  SmallVector<int64_t> shape(dims);
  for (int64_t a : axes)
    shape[*checkedAxis(a, dims.size())] = 1;
  return n.reshape(*reduced, shape);
}

/// ReduceProd has no tx8be op: per reduced axis, its slices multiplied in index order (a chain of Muls, which
/// is numpy's order); axes of up to 64 elements.
template <>
FailureOr<Value> reduceOver<MulOp>(NodeImporter &n, Value v, ArrayRef<int64_t> axes, bool keepdims) {
  auto type = cast<RankedTensorType>(v.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> run;
  if (axes.empty())
    run = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  for (int64_t a : axes) {
    auto axis = checkedAxis(a, rank);
    if (!axis)
      return n.unsupported("axis " + Twine(a) + " is out of range for rank " + Twine(rank));
    run.push_back(*axis);
  }
  SmallVector<int64_t> shape(type.getShape());
  Value acc = v;
  for (int64_t a : run) {
    if (shape[a] < 1 || shape[a] > 64)
      return n.unsupported("ReduceProd multiplies axes of 1 to 64 elements, dim " + Twine(a) + " has " +
                           Twine(shape[a]));
    SmallVector<int64_t> offsets(rank, 0), sizes(shape), strides(rank, 1);
    sizes[a] = 1;
    FailureOr<Value> product = failure();
    for (int64_t k = 0; k < shape[a]; ++k) {
      offsets[a] = k;
      auto part = shape[a] == 1 ? FailureOr<Value>(acc)
                                : n.create<SliceOp>(acc, {n.i64Array("offsets", offsets), n.i64Array("sizes", sizes),
                                                          n.i64Array("strides", strides)});
      product = k == 0 ? part : binaryOf<MulOp>(n, product, part);
      if (failed(product))
        return failure();
    }
    acc = *product;
    shape[a] = 1;
  }
  if (keepdims)
    return acc;
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(run, d))
      kept.push_back(shape[d]);
  return n.reshape(acc, kept);
}

/// Reduce axes given as an input computed at run time (ONNX's node tests make them graph inputs), read off the
/// shapes: none when the axes tensor has no elements; with keepdims, the dims that ONNX's static output type
/// takes from an extent other than 1 to 1 (a dim of extent 1 gives the same values reduced or not; nullopt when
/// there are none: the output is the input). Without keepdims the reduced dims cannot be told apart
/// ([3, 2, 2] -> [3, 2] reduces dim 1 or dim 2), so that is refused.
FailureOr<std::optional<SmallVector<int64_t>>> runtimeReduceAxes(NodeImporter &n, RankedTensorType xType) {
  auto axesType = n.inputType(1);
  if (failed(axesType))
    return failure();
  if (axesType->hasStaticShape() && axesType->getNumElements() == 0)
    return std::optional<SmallVector<int64_t>>(SmallVector<int64_t>{});
  if (n.attrInt("keepdims", 1) == 0)
    return n.unsupported("axes (input #1) computed at run time with keepdims = 0: the reduced dims cannot be told "
                         "from the output shape");
  auto out = n.onnxOutputType(0);
  if (!out || !out->hasStaticShape() || out->getRank() != xType.getRank() || !xType.hasStaticShape())
    return n.unsupported("axes (input #1) is computed at run time and the input and output shapes are not static "
                         "and of one rank");
  SmallVector<int64_t> axes;
  for (auto [d, in, res] : llvm::enumerate(xType.getShape(), out->getShape())) {
    if (in == res)
      continue;
    if (res != 1)
      return n.unsupported("output extent " + Twine(res) + " of dim " + Twine(d) + " is neither the input's nor 1");
    axes.push_back(d);
  }
  if (axes.empty())
    return std::optional<SmallVector<int64_t>>();
  return std::optional<SmallVector<int64_t>>(axes);
}

template <typename OpT>
LogicalResult reduce(NodeImporter &n, int64_t axesInputOpset, ReducePre pre = ReducePre::None,
                     ReducePost post = ReducePost::None) {
  if (failed(n.onlyAttrs({"axes", "keepdims", "noop_with_empty_axes"})))
    return failure();
  auto x = n.input(0);
  if (failed(x))
    return failure();
  SmallVector<int64_t> axes;
  if (n.getOpset() < axesInputOpset) {
    axes = n.attrInts("axes");
  } else if (n.hasInput(1) && !n.constantInput(1)) {
    auto v = runtimeReduceAxes(n, cast<RankedTensorType>(x->getType()));
    if (failed(v))
      return failure();
    if (!*v && pre == ReducePre::None && post == ReducePost::None)
      return convertIdentity(n);
    if (!*v)
      return n.unsupported("axes (input #1) computed at run time reduce no dim of extent > 1: reducing extent-1 "
                           "dims and reducing none differ for this reduction");
    axes = **v;
  } else if (n.hasInput(1)) {
    auto v = n.constantInts(1, "axes");
    if (failed(v))
      return failure();
    axes = *v;
  }
  if (axes.empty() && n.attrInt("noop_with_empty_axes", 0) != 0 && pre == ReducePre::None &&
      post == ReducePost::None)
    return convertIdentity(n);
  // ReduceL1 / L2 / SumSquare / LogSum / LogSumExp as their ONNX definitions: f(sum(g(x))).
  FailureOr<Value> v = x;
  switch (pre) {
  case ReducePre::None: break;
  case ReducePre::Abs: v = n.create<AbsOp>(*x); break;
  case ReducePre::Square: v = n.create<MulOp>(ValueRange{*x, *x}); break;
  case ReducePre::Exp: v = n.create<ExpOp>(*x); break;
  }
  if (failed(v))
    return failure();
  if (!(axes.empty() && n.attrInt("noop_with_empty_axes", 0) != 0))
    v = reduceOver<OpT>(n, *v, axes, n.attrInt("keepdims", 1) != 0);
  if (succeeded(v) && post == ReducePost::Sqrt)
    v = n.create<SqrtOp>(*v);
  if (succeeded(v) && post == ReducePost::Log)
    v = n.create<LogOp>(*v);
  return bindResult(n, v);
}

/// Mean of any number of inputs: their sum (a left fold), divided by the count.
LogicalResult convertMean(NodeImporter &n) {
  auto acc = foldInputs<AddOp>(n);
  if (failed(acc) || n.numInputs() == 1)
    return bindResult(n, acc);
  if (!getElementTypeOrSelf(acc->getType()).isF32())
    return n.unsupported("Mean is supported for f32 inputs only");
  auto count = n.constant(tx8::ref::makeTensor<float>(DType::F32, {1}, {static_cast<float>(n.numInputs())}));
  if (failed(count))
    return failure();
  return bindResult(n, n.create<DivOp>(ValueRange{*acc, *count}));
}

//===----------------------------------------------------------------------===//
// Shape and data movement
//===----------------------------------------------------------------------===//

LogicalResult convertReshape(NodeImporter &n) {
  if (failed(n.onlyAttrs({"shape", "allowzero", "consumed_inputs"})))
    return failure();
  auto x = n.input(0);
  if (failed(x))
    return failure();
  auto xType = cast<RankedTensorType>(x->getType());
  SmallVector<int64_t> spec;
  if (n.getOpset() < 5) {
    spec = n.attrInts("shape");
  } else if (n.constantInput(1)) {
    auto v = n.constantInts(1, "shape");
    if (failed(v))
      return failure();
    spec = *v;
  } else if (auto out = n.onnxOutputType(0)) {
    return bindResult(n, n.reshape(*x, out->getShape())); // ONNX's data propagation found the shape
  } else {
    return n.unsupported("the shape (input #1) must be a constant");
  }
  bool allowZero = n.attrInt("allowzero", 0) != 0;
  SmallVector<int64_t> shape;
  int64_t inferred = -1, known = 1;
  for (auto [i, d] : llvm::enumerate(spec)) {
    if (d == 0 && !allowZero) {
      if (static_cast<int64_t>(i) >= xType.getRank())
        return n.unsupported("shape entry " + Twine(i) + " is 0 (copy) but the input has rank " +
                             Twine(xType.getRank()));
      d = xType.getDimSize(i);
    }
    if (d == -1) {
      if (inferred >= 0)
        return n.unsupported("the shape has more than one -1");
      inferred = i;
    } else if (d < 0) {
      return n.unsupported("shape entry " + Twine(i) + " is " + Twine(d));
    } else if (llvm::MulOverflow(known, d, known)) {
      return n.unsupported("the shape's element count overflows 64 bits");
    }
    shape.push_back(d);
  }
  int64_t count = xType.getNumElements();
  if (inferred >= 0) {
    if (known == 0 || count % known != 0)
      return n.unsupported("cannot infer the -1 extent: " + Twine(count) + " elements");
    shape[inferred] = count / known;
  }
  return bindResult(n, n.reshape(*x, shape));
}

LogicalResult convertFlatten(NodeImporter &n) {
  if (failed(n.onlyAttrs({"axis"})))
    return failure();
  auto x = n.input(0);
  if (failed(x))
    return failure();
  auto dims = cast<RankedTensorType>(x->getType()).getShape();
  int64_t rank = dims.size(), axis = n.attrInt("axis", 1);
  if (axis < -rank || axis > rank)
    return n.unsupported("axis " + Twine(axis) + " is out of range for rank " + Twine(rank));
  if (axis < 0)
    axis += rank;
  return bindResult(n, n.reshape(*x, {product(dims.take_front(axis)), product(dims.drop_front(axis))}));
}

/// Squeeze/Unsqueeze axes: an attribute before opset 13, an input after; nullopt when the input is computed at
/// run time.
FailureOr<std::optional<SmallVector<int64_t>>> squeezeAxes(NodeImporter &n) {
  using Axes = std::optional<SmallVector<int64_t>>;
  if (n.getOpset() < 13)
    return Axes(n.attrInts("axes"));
  if (!n.hasInput(1))
    return Axes(SmallVector<int64_t>{});
  if (!n.constantInput(1))
    return Axes();
  auto axes = n.constantInts(1, "axes");
  if (failed(axes))
    return failure();
  return Axes(*axes);
}

/// Whether `shorter` is `longer` with some 1s removed (matching greedily is enough: only 1s are skipped).
bool onlyOnesRemoved(ArrayRef<int64_t> longer, ArrayRef<int64_t> shorter) {
  size_t next = 0;
  for (int64_t d : longer)
    if (next < shorter.size() && d == shorter[next])
      ++next;
    else if (d != 1)
      return false;
  return next == shorter.size();
}

/// Squeeze / Unsqueeze with axes computed at run time: a Reshape to ONNX's static output type, when that is the
/// input's shape with only 1s removed / inserted (the elements keep their order whichever 1s they are).
LogicalResult reshapeAtRuntimeAxes(NodeImporter &n, Value x, bool unsqueeze) {
  auto out = n.onnxOutputType(0);
  if (!out || !out->hasStaticShape())
    return n.unsupported("axes (input #1) is computed at run time and ONNX shape inference gives no static output "
                         "shape");
  ArrayRef<int64_t> in = cast<RankedTensorType>(x.getType()).getShape(), res = out->getShape();
  if (!(unsqueeze ? onlyOnesRemoved(res, in) : onlyOnesRemoved(in, res)))
    return n.unsupported(Twine("the output shape is not the input's with only 1s ") +
                         (unsqueeze ? "inserted" : "removed"));
  return bindResult(n, n.reshape(x, res));
}

LogicalResult convertSqueeze(NodeImporter &n) {
  if (failed(n.onlyAttrs({"axes"})))
    return failure();
  auto x = n.input(0);
  auto axes = squeezeAxes(n);
  if (failed(x) || failed(axes))
    return failure();
  if (!*axes)
    return reshapeAtRuntimeAxes(n, *x, /*unsqueeze=*/false);
  auto dims = cast<RankedTensorType>(x->getType()).getShape();
  int64_t rank = dims.size();
  SmallVector<bool> drop(rank, false);
  for (int64_t a : **axes) {
    auto axis = checkedAxis(a, rank);
    if (!axis || dims[*axis] != 1)
      return n.unsupported("cannot squeeze axis " + Twine(a) + " of a rank-" + Twine(rank) + " input");
    drop[*axis] = true;
  }
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i)
    if (!((*axes)->empty() ? dims[i] == 1 : drop[i]))
      shape.push_back(dims[i]);
  return bindResult(n, n.reshape(*x, shape));
}

LogicalResult convertUnsqueeze(NodeImporter &n) {
  if (failed(n.onlyAttrs({"axes"})))
    return failure();
  auto x = n.input(0);
  auto axes = squeezeAxes(n);
  if (failed(x) || failed(axes))
    return failure();
  if (!*axes)
    return reshapeAtRuntimeAxes(n, *x, /*unsqueeze=*/true);
  auto dims = cast<RankedTensorType>(x->getType()).getShape();
  int64_t outRank = dims.size() + (*axes)->size();
  SmallVector<bool> inserted(outRank, false);
  for (int64_t a : **axes) {
    auto axis = checkedAxis(a, outRank);
    if (!axis || inserted[*axis])
      return n.unsupported("bad unsqueeze axis " + Twine(a) + " for output rank " + Twine(outRank));
    inserted[*axis] = true;
  }
  SmallVector<int64_t> shape;
  for (int64_t i = 0, next = 0; i < outRank; ++i)
    shape.push_back(inserted[i] ? 1 : dims[next++]);
  return bindResult(n, n.reshape(*x, shape));
}

LogicalResult convertTranspose(NodeImporter &n) {
  if (failed(n.onlyAttrs({"perm"})))
    return failure();
  auto x = n.input(0);
  if (failed(x))
    return failure();
  SmallVector<int64_t> perm = n.attrInts("perm");
  if (perm.empty()) { // default: reverse the dims
    perm.resize(cast<RankedTensorType>(x->getType()).getRank());
    std::iota(perm.rbegin(), perm.rend(), 0);
  }
  return bindResult(n, n.create<TransposeOp>(*x, {n.i64Array("perm", perm)}));
}

LogicalResult convertConcat(NodeImporter &n) {
  if (failed(n.onlyAttrs({"axis"})))
    return failure();
  SmallVector<Value> inputs;
  for (int i = 0; i < n.numInputs(); ++i) {
    auto v = n.input(i);
    if (failed(v))
      return failure();
    inputs.push_back(*v);
  }
  if (inputs.empty())
    return n.unsupported("Concat needs at least one input");
  int64_t rank = cast<RankedTensorType>(inputs[0].getType()).getRank();
  auto axis = checkedAxis(n.attrInt("axis", 0), rank);
  if (!axis)
    return n.unsupported("axis " + Twine(n.attrInt("axis", 0)) + " is out of range for rank " + Twine(rank));
  return bindResult(n, n.create<ConcatOp>(inputs, {n.i64("axis", *axis)}));
}

/// One ONNX slice range (clamped as ONNX does) as tx8be's offset/size/stride.
void normalizeSliceRange(int64_t dim, int64_t start, int64_t end, int64_t step, int64_t &offset, int64_t &size) {
  if (start < 0)
    start += dim;
  if (end < 0)
    end += dim;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
    size = end > start ? (end - start + step - 1) / step : 0;
  } else {
    start = std::clamp<int64_t>(start, 0, dim - 1);
    end = std::clamp<int64_t>(end, -1, dim - 1);
    size = start > end ? (start - end + (-step) - 1) / (-step) : 0;
  }
  offset = size > 0 ? start : 0;
}

LogicalResult convertSlice(NodeImporter &n) {
  if (failed(n.onlyAttrs({"starts", "ends", "axes"})))
    return failure();
  auto x = n.input(0);
  if (failed(x))
    return failure();
  auto dims = cast<RankedTensorType>(x->getType()).getShape();
  int64_t rank = dims.size();
  SmallVector<int64_t> starts, ends, axes, steps;
  if (n.getOpset() < 10) {
    starts = n.attrInts("starts");
    ends = n.attrInts("ends");
    axes = n.attrInts("axes");
  } else {
    bool runtime = false;
    for (int i = 1; i <= 4; ++i)
      runtime |= n.hasInput(i) && !n.constantInput(i);
    if (runtime)
      return convertRuntimeSlice(n);
    auto s = n.constantInts(1, "starts"), e = n.constantInts(2, "ends");
    if (failed(s) || failed(e))
      return failure();
    starts = *s;
    ends = *e;
    if (n.hasInput(3)) {
      auto a = n.constantInts(3, "axes");
      if (failed(a))
        return failure();
      axes = *a;
    }
    if (n.hasInput(4)) {
      auto st = n.constantInts(4, "steps");
      if (failed(st))
        return failure();
      steps = *st;
    }
  }
  if (axes.empty()) {
    axes.resize(starts.size());
    std::iota(axes.begin(), axes.end(), 0);
  }
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    return n.unsupported("starts, ends, axes and steps must have the same length");
  SmallVector<int64_t> offsets(rank, 0), sizes(dims), strides(rank, 1);
  for (size_t i = 0; i < starts.size(); ++i) {
    auto axis = checkedAxis(axes[i], rank);
    if (!axis || steps[i] == 0)
      return n.unsupported("bad slice axis " + Twine(axes[i]) + " or step 0");
    normalizeSliceRange(dims[*axis], starts[i], ends[i], steps[i], offsets[*axis], sizes[*axis]);
    strides[*axis] = steps[i];
  }
  return bindResult(n, n.create<SliceOp>(*x, {n.i64Array("offsets", offsets), n.i64Array("sizes", sizes),
                                              n.i64Array("strides", strides)}));
}

/// Split -> one Slice per output.
LogicalResult convertSplit(NodeImporter &n) {
  if (failed(n.onlyAttrs({"axis", "split", "num_outputs"})))
    return failure();
  auto x = n.input(0);
  if (failed(x))
    return failure();
  auto dims = cast<RankedTensorType>(x->getType()).getShape();
  auto axis = checkedAxis(n.attrInt("axis", 0), dims.size());
  if (!axis)
    return n.unsupported("axis " + Twine(n.attrInt("axis", 0)) + " is out of range");
  SmallVector<int64_t> split = n.attrInts("split");
  int64_t outputs = n.numOutputs(), extent = dims[*axis];
  if (n.hasAttr("num_outputs") && (n.attrInt("num_outputs", 0) != outputs || n.hasInput(1)))
    return n.unsupported("num_outputs is " + Twine(n.attrInt("num_outputs", 0)) + " with " + Twine(outputs) +
                         " outputs" + (n.hasInput(1) ? " and a split input" : ""));
  if (n.getOpset() >= 13 && n.hasInput(1) && !n.constantInput(1)) {
    // Sizes computed at run time: ONNX's static output types say them (checked to add up below).
    for (int64_t i = 0; i < outputs; ++i) {
      auto out = n.onnxOutputType(i);
      if (!out || !out->hasStaticShape() || out->getRank() != static_cast<int64_t>(dims.size()))
        return n.unsupported("split (input #1) is computed at run time and output #" + Twine(i) +
                             " has no static shape of the input's rank");
      split.push_back(out->getDimSize(*axis));
    }
  } else if (n.getOpset() >= 13 && n.hasInput(1)) {
    auto v = n.constantInts(1, "split");
    if (failed(v))
      return failure();
    split = *v;
  }
  if (split.empty()) { // equal parts; the last one smaller (opset 18) if it does not divide
    int64_t part = (extent + outputs - 1) / outputs;
    for (int64_t i = 0; i < outputs; ++i)
      split.push_back(std::min(part, extent - i * part));
  }
  if (static_cast<int64_t>(split.size()) != outputs ||
      std::accumulate(split.begin(), split.end(), int64_t{0}) != extent)
    return n.unsupported("split sizes do not add up to the axis extent " + Twine(extent));
  int64_t offset = 0;
  for (int64_t i = 0; i < outputs; ++i) {
    SmallVector<int64_t> offsets(dims.size(), 0), sizes(dims), strides(dims.size(), 1);
    offsets[*axis] = offset;
    sizes[*axis] = split[i];
    offset += split[i];
    auto part = n.create<SliceOp>(*x, {n.i64Array("offsets", offsets), n.i64Array("sizes", sizes),
                                       n.i64Array("strides", strides)});
    if (failed(part))
      return failure();
    n.setOutput(i, *part);
  }
  return success();
}

} // namespace

LogicalResult tx8be::onnx_import::gatherOperands(NodeImporter &n, Value &data, Value &indices, int64_t &axis) {
  if (failed(n.onlyAttrs({"axis"})))
    return failure();
  auto d = n.input(0), i = n.input(1);
  if (failed(d) || failed(i))
    return failure();
  int64_t rank = cast<RankedTensorType>(d->getType()).getRank();
  auto normalized = checkedAxis(n.attrInt("axis", 0), rank);
  if (!normalized)
    return n.unsupported("axis " + Twine(n.attrInt("axis", 0)) + " is out of range for rank " + Twine(rank));
  data = *d;
  indices = *i;
  axis = *normalized;
  return success();
}

namespace {
LogicalResult convertGather(NodeImporter &n) {
  Value data, indices;
  int64_t axis;
  if (failed(gatherOperands(n, data, indices, axis)))
    return failure();
  return bindResult(n, n.create<GatherOp>(ValueRange{data, indices}, {n.i64("axis", axis)}));
}

LogicalResult convertPad(NodeImporter &n) {
  if (failed(n.onlyAttrs({"mode", "pads", "paddings", "value"})))
    return failure();
  auto x = n.input(0);
  if (failed(x))
    return failure();
  int64_t rank = cast<RankedTensorType>(x->getType()).getRank();
  SmallVector<int64_t> pads;
  float value = 0.0f;
  if (n.getOpset() < 11) {
    pads = n.attrInts(n.getOpset() < 2 ? "paddings" : "pads");
    value = n.attrFloat("value", 0.0f);
  } else {
    if (!n.constantInput(1) || (n.hasInput(2) && !n.constantInput(2)))
      return convertRuntimePad(n);
    auto p = n.constantInts(1, "pads");
    if (failed(p))
      return failure();
    pads = *p;
    if (n.hasInput(2)) {
      auto v = n.constantFloat(2, "constant_value");
      if (failed(v))
        return failure();
      value = *v;
    }
    if (n.hasInput(3)) { // opset 18 axes: pads only for those axes
      auto axes = n.constantInts(3, "axes");
      if (failed(axes))
        return failure();
      SmallVector<int64_t> full(2 * rank, 0);
      for (auto [i, a] : llvm::enumerate(*axes)) {
        auto axis = checkedAxis(a, rank);
        if (!axis || pads.size() != 2 * axes->size())
          return n.unsupported("pads and axes do not match");
        full[*axis] = pads[i];
        full[*axis + rank] = pads[i + axes->size()];
      }
      pads = full;
    }
  }
  if (static_cast<int64_t>(pads.size()) != 2 * rank)
    return n.unsupported("pads needs " + Twine(2 * rank) + " entries, has " + Twine(pads.size()));
  if (llvm::any_of(pads, [](int64_t p) { return p < 0; }))
    return n.unsupported("negative pads (cropping) are not supported");
  std::string mode = n.attrString("mode", "constant");
  std::optional<PadMode> padMode = symbolizePadMode(mode);
  if (!padMode)
    return n.unsupported("pad mode '" + mode + "' is not supported");
  // Pads of 0 everywhere copy the input, whatever the mode: torch.onnx.export writes one before every
  // AvgPool2d (DenseNet's transitions), which would otherwise be a whole-tensor copy group.
  if (llvm::all_of(pads, [](int64_t p) { return p == 0; })) {
    n.setOutput(0, *x);
    return success();
  }
  return bindResult(n, n.create<PadOp>(*x, {n.i64Array("pads", pads),
                                            n.builder().getNamedAttr(
                                                "mode", PadModeAttr::get(n.builder().getContext(), *padMode)),
                                            n.f32("value", value)}));
}

} // namespace

FailureOr<SmallVector<int64_t>> tx8be::onnx_import::convWindowPads(NodeImporter &n, ArrayRef<int64_t> inSpatial,
                                                                   ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                                                                   ArrayRef<int64_t> dilations) {
  return windowPads(n, inSpatial, kernel, strides, dilations);
}

const llvm::StringMap<NodeConverter> &tx8be::onnx_import::getNodeConverters() {
  static const llvm::StringMap<NodeConverter> converters = [] {
    llvm::StringMap<NodeConverter> all = {
      // elementwise
      {"Relu", unary<ReluOp>},
      {"Sigmoid", unary<SigmoidOp>},
      {"Tanh", unary<TanhOp>},
      {"Softplus", unary<SoftplusOp>},
      {"Softsign", unary<SoftsignOp>},
      {"Exp", unary<ExpOp>},
      {"Log", unary<LogOp>},
      {"Abs", unary<AbsOp>},
      {"Neg", unary<NegOp>},
      {"Sqrt", unary<SqrtOp>},
      {"Reciprocal", unary<ReciprocalOp>},
      {"Erf", unary<ErfOp>},
      {"HardSwish", unary<HardSwishOp>},
      {"Mish", unary<MishOp>},
      {"Celu", convertCelu},
      {"ThresholdedRelu", convertThresholdedRelu},
      {"Shrink", convertShrink},
      {"Sin", unary<SinOp>},
      {"Cos", unary<CosOp>},
      {"Tan", unary<TanOp>},
      {"Asin", unary<AsinOp>},
      {"Acos", unary<AcosOp>},
      {"Atan", unary<AtanOp>},
      {"Sinh", unary<SinhOp>},
      {"Cosh", unary<CoshOp>},
      {"Asinh", unary<AsinhOp>},
      {"Acosh", unary<AcoshOp>},
      {"Atanh", unary<AtanhOp>},
      {"Floor", unary<FloorOp>},
      {"Ceil", unary<CeilOp>},
      {"Round", unary<RoundOp>},
      {"Sign", unary<SignOp>},
      {"LeakyRelu", convertLeakyRelu},
      {"Elu", convertElu},
      {"Selu", convertSelu},
      {"HardSigmoid", convertHardSigmoid},
      {"Gelu", convertGelu},
      {"Clip", convertClip},
      {"PRelu", convertPRelu},
      {"Add", binary<AddOp>},
      {"Sub", binary<SubOp>},
      {"Mul", binary<MulOp>},
      {"Div", binary<DivOp>},
      {"Pow", convertPow},
      {"Mod", convertMod},
      {"Equal", binary<EqualOp>},
      {"Less", binary<LessOp>},
      {"LessOrEqual", binary<LessOrEqualOp>},
      {"Greater", binary<GreaterOp>},
      {"GreaterOrEqual", binary<GreaterOrEqualOp>},
      {"And", binary<AndOp>},
      {"Or", binary<OrOp>},
      {"Xor", binary<XorOp>},
      {"Not", unary<NotOp>},
      {"Where", convertWhere},
      {"Sum", variadic<AddOp>},
      {"Mean", convertMean},
      {"Max", variadic<MaxOp>},
      {"Min", variadic<MinOp>},
      // pass-through and constants
      {"Identity", convertIdentity},
      {"Dropout", convertDropout},
      {"Constant", convertConstant},
      {"Shape", convertShape},
      {"Size", convertSize},
      {"ConstantOfShape", convertConstantOfShape},
      {"Range", convertRangeOp},
      {"EyeLike", convertEyeLike},
      {"Cast", convertCast},
      {"CastLike", convertCastLike},
      // normalisation
      {"BatchNormalization", convertBatchNormalization},
      {"LayerNormalization", convertLayerNormalization},
      {"Softmax", softmax<SoftmaxOp>},
      {"LogSoftmax", softmax<LogSoftmaxOp>},
      // matrix, convolution, pooling
      {"Gemm", convertGemm},
      {"MatMul", convertMatMul},
      {"Conv", convertConv},
      {"ConvTranspose", convertConvTranspose},
      {"MaxPool", convertMaxPool},
      {"AveragePool", convertAveragePool},
      {"GlobalAveragePool", globalPool<GlobalAvgPoolOp>},
      {"GlobalMaxPool", globalPool<GlobalMaxPoolOp>},
      // reductions (the opset from which the axes are an input)
      {"ReduceSum", [](NodeImporter &n) { return reduce<ReduceSumOp>(n, 13); }},
      {"ReduceMean", [](NodeImporter &n) { return reduce<ReduceMeanOp>(n, 18); }},
      {"ReduceMax", [](NodeImporter &n) { return reduce<ReduceMaxOp>(n, 18); }},
      {"ArgMax", argReduce<ArgMaxOp>},
      {"ArgMin", argReduce<ArgMinOp>},
      {"ReduceMin", [](NodeImporter &n) { return reduce<ReduceMinOp>(n, 18); }},
      {"ReduceProd", [](NodeImporter &n) { return reduce<MulOp>(n, 18); }},
      {"ReduceL1", [](NodeImporter &n) { return reduce<ReduceSumOp>(n, 18, ReducePre::Abs); }},
      {"ReduceL2", [](NodeImporter &n) { return reduce<ReduceSumOp>(n, 18, ReducePre::Square, ReducePost::Sqrt); }},
      {"ReduceSumSquare", [](NodeImporter &n) { return reduce<ReduceSumOp>(n, 18, ReducePre::Square); }},
      {"ReduceLogSum", [](NodeImporter &n) { return reduce<ReduceSumOp>(n, 18, ReducePre::None, ReducePost::Log); }},
      {"ReduceLogSumExp",
       [](NodeImporter &n) { return reduce<ReduceSumOp>(n, 18, ReducePre::Exp, ReducePost::Log); }},
      // shape and data movement
      {"Reshape", convertReshape},
      {"Flatten", convertFlatten},
      {"Squeeze", convertSqueeze},
      {"Unsqueeze", convertUnsqueeze},
      {"Transpose", convertTranspose},
      {"Concat", convertConcat},
      {"Slice", convertSlice},
      {"Split", convertSplit},
      {"Gather", convertGather},
      {"Pad", convertPad},
    };
    addCompositionConverters(all);
    addIndexingConverters(all);
    addLossConverters(all);
    addResizeConverters(all);
    addRecurrentConverters(all);
    addEinsumConverters(all);
    addQuantizationConverters(all);
    return all;
  }();
  return converters;
}
