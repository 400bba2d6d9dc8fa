//===- Quantization.cpp - QuantizeLinear, DequantizeLinear ----------------===//
//
// ONNX's linear quantization as tx8be.QuantizeLinear / tx8be.DequantizeLinear, whose scale and zero point broadcast
// to the input (numpy): a scalar (or one-element) scale is per tensor; a 1-D scale of C elements is per axis (opset
// 13 on), reshaped to [C, 1, ..., 1] so that it lines up with the input's dim `axis`. A missing zero point is 0 of
// the quantized type (uint8, or output_dtype from opset 21). Opsets 10, 13, 19 and 21 (the newer ones through the
// legacy view, NewerOpsets.cpp: blocked quantization is refused there).
//
// Refused with one line naming the node: an input or scale of another type than f32 (f16 / bf16 inputs of opset
// 19+), a quantized type other than int8 / uint8 (int16, uint16, int32 outputs), a zero point whose type is not
// its tensor's, a scale that is not a scalar or a 1-D tensor, an axis out of range, a per-axis scale or zero point
// of the wrong length, and a constant scale that is zero, negative or not finite.
//
//===----------------------------------------------------------------------===//
#include "Converters.h"

#include "tx8/Reference/Convert.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace tx8be;
using namespace tx8be::onnx_import;

namespace {

std::string typeName(Type t) {
  std::string s;
  llvm::raw_string_ostream(s) << t;
  return s;
}

bool isQuantizedType(Type t) { return t.isSignlessInteger(8) || t.isUnsignedInteger(8); }

/// The scale and zero point of a Quantize/DequantizeLinear node, shaped to broadcast to the input.
struct QuantParams {
  Value scale, zeroPoint;
};

/// What QuantizeLinear and DequantizeLinear share: input #1 the scale (f32, a scalar or 1-D), input #2 the
/// optional zero point (of `quantized`'s type: the input's for DequantizeLinear, the output's for QuantizeLinear;
/// 0 when absent), the axis of a per-axis scale. `role` names the quantized tensor in messages.
FailureOr<QuantParams> quantParams(NodeImporter &n, RankedTensorType input, Type quantized, StringRef role) {
  auto scaleType = n.inputType(1);
  if (failed(scaleType))
    return failure();
  if (!scaleType->getElementType().isF32())
    return n.unsupported("the scale is " + typeName(scaleType->getElementType()) + ": only f32 scales are supported");
  if (scaleType->getRank() > 1)
    return n.unsupported("the scale has rank " + Twine(scaleType->getRank()) +
                         ": a scalar (per tensor) or 1-D (per axis) scale is expected (blocked quantization is not "
                         "supported)");
  if (!scaleType->hasStaticShape())
    return n.unsupported("the scale's shape is not static");
  // A constant scale must be a positive finite number everywhere.
  if (const tx8::ref::Tensor *c = n.constantInput(1))
    for (int64_t i = 0; i < c->numElements(); ++i) {
      double s = tx8::ref::elementAsDouble(*c, i);
      if (!(s > 0) || !std::isfinite(s)) {
        char v[32];
        std::snprintf(v, sizeof v, "%g", s);
        return n.unsupported("scale element " + Twine(i) + " is " + v + ": a scale must be positive and finite");
      }
    }
  int64_t count = scaleType->getRank() == 0 ? 1 : scaleType->getDimSize(0);
  bool perAxis = scaleType->getRank() == 1 && count != 1;
  int64_t rank = input.getRank(), axis = n.attrInt("axis", 1);
  if (perAxis) {
    if (n.getOpset() < 13)
      return n.unsupported("a 1-D scale of " + Twine(count) + " elements needs opset 13 (per-axis quantization); "
                           "opset " + Twine(n.getOpset()) + " takes a scalar");
    std::optional<int64_t> normalized = checkedAxis(axis, rank);
    if (!normalized)
      return n.unsupported("axis = " + Twine(axis) + " is out of range for an input of rank " + Twine(rank));
    axis = *normalized;
    if (input.isDynamicDim(axis) || input.getDimSize(axis) != count)
      return n.unsupported("the per-axis scale has " + Twine(count) + " elements, but dim " + Twine(axis) +
                           " of the input has " + Twine(input.getDimSize(axis)));
  }
  auto scale = n.input(1);
  if (failed(scale))
    return failure();
  Value zeroPoint;
  if (n.hasInput(2)) {
    auto zpType = n.inputType(2);
    if (failed(zpType))
      return failure();
    if (zpType->getElementType() != quantized)
      return n.unsupported("the zero point is " + typeName(zpType->getElementType()) + ", but " + role + " is " +
                           typeName(quantized) + ": they must have one type");
    if (zpType->getShape() != scaleType->getShape() &&
        !(zpType->hasStaticShape() && zpType->getNumElements() == 1 && count == 1))
      return n.unsupported("the zero point's shape [" + Twine(zpType->getRank() ? zpType->getDimSize(0) : 1) +
                           "] is not the scale's: one zero point per scale is expected");
    auto zp = n.input(2);
    if (failed(zp))
      return failure();
    zeroPoint = *zp;
  } else {
    auto zp = splatConstant(n, quantized, scaleType->getShape(), 0.0);
    if (failed(zp))
      return failure();
    zeroPoint = *zp;
  }
  // Per tensor: one element; per axis: [C, 1, ..., 1] (right-aligned to the input's dim `axis`).
  SmallVector<int64_t> shape{count};
  if (perAxis)
    shape.append(rank - axis - 1, 1);
  auto s = n.reshape(*scale, shape), z = n.reshape(zeroPoint, shape);
  if (failed(s) || failed(z))
    return failure();
  return QuantParams{*s, *z};
}

/// y = saturate(round(x / y_scale) + y_zero_point).
LogicalResult convertQuantizeLinear(NodeImporter &n) {
  if (failed(n.onlyAttrs({"axis", "saturate", "block_size", "output_dtype"})))
    return failure();
  if (n.attrInt("block_size", 0) != 0)
    return n.unsupported("blocked quantization (block_size = " + Twine(n.attrInt("block_size", 0)) +
                         ") is not supported");
  auto xType = n.inputType(0);
  if (failed(xType))
    return failure();
  if (!xType->getElementType().isF32())
    return n.unsupported("the input is " + typeName(xType->getElementType()) + ": only f32 inputs are supported");
  // The quantized type: the zero point's, else output_dtype (opset 21), else uint8.
  Type quantized = IntegerType::get(xType->getContext(), 8, IntegerType::Unsigned);
  if (n.hasInput(2)) {
    auto zpType = n.inputType(2);
    if (failed(zpType))
      return failure();
    quantized = zpType->getElementType();
  } else if (n.hasAttr("output_dtype") && n.attrInt("output_dtype", 0) != 0) {
    auto t = n.attrElementType("output_dtype");
    if (failed(t))
      return failure();
    quantized = *t;
  }
  if (n.hasInput(2) && n.hasAttr("output_dtype") && n.attrInt("output_dtype", 0) != 0) {
    auto t = n.attrElementType("output_dtype");
    if (failed(t))
      return failure();
    if (*t != quantized)
      return n.unsupported("output_dtype is " + typeName(*t) + ", but the zero point is " + typeName(quantized));
  }
  if (!isQuantizedType(quantized))
    return n.unsupported("quantizing to " + typeName(quantized) + " is not supported (int8 and uint8 are)");
  auto params = quantParams(n, *xType, quantized, "the output");
  auto x = n.input(0);
  if (failed(params) || failed(x))
    return failure();
  return bindResult(n, n.create<QuantizeLinearOp>(ValueRange{*x, params->scale, params->zeroPoint}));
}

/// y = (x - x_zero_point) * x_scale.
LogicalResult convertDequantizeLinear(NodeImporter &n) {
  if (failed(n.onlyAttrs({"axis", "block_size"})))
    return failure();
  if (n.attrInt("block_size", 0) != 0)
    return n.unsupported("blocked quantization (block_size = " + Twine(n.attrInt("block_size", 0)) +
                         ") is not supported");
  auto xType = n.inputType(0);
  if (failed(xType))
    return failure();
  Type element = xType->getElementType();
  if (!isQuantizedType(element) && !element.isSignlessInteger(32))
    return n.unsupported("dequantizing " + typeName(element) + " is not supported (int8, uint8 and int32 are)");
  auto params = quantParams(n, *xType, element, "the input");
  auto x = n.input(0);
  if (failed(params) || failed(x))
    return failure();
  return bindResult(n, n.create<DequantizeLinearOp>(ValueRange{*x, params->scale, params->zeroPoint}));
}

} // namespace

void tx8be::onnx_import::addQuantizationConverters(llvm::StringMap<NodeConverter> &converters) {
  converters["QuantizeLinear"] = convertQuantizeLinear;
  converters["DequantizeLinear"] = convertDequantizeLinear;
}
