//===- Quantization.cpp - Linear quantization and the integer matrix ops --===//
//
// ONNX's linear quantization as tx8be.QuantizeLinear / tx8be.DequantizeLinear, whose scale and zero point broadcast
// to the input (numpy): a scalar (or one-element) scale is per tensor; a 1-D scale of C elements is per axis (opset
// 13 on), reshaped to [C, 1, ..., 1] so that it lines up with the input's dim `axis`. A missing zero point is 0 of
// the quantized type (uint8, or output_dtype from opset 21). Opsets 10, 13, 19 and 21 (the newer ones through the
// legacy view, NewerOpsets.cpp: blocked quantization is refused there). DynamicQuantizeLinear is its function body.
// MatMulInteger and ConvInteger are int8 MatMul / Conv (the NE's int8 path, int32 sums) with their zero points'
// terms in int32 (integerMatMul, integerConv); QLinearMatMul and QLinearConv are those, requantized (requantize).
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

/// y = saturate(round(x / y_scale) + y_zero_point), y_scale = (max(x, 0) - min(x, 0)) / 255, y_zero_point =
/// saturate(round(-min(x, 0) / y_scale)), uint8: ONNX's function body of DynamicQuantizeLinear, op for op (the
/// reductions over every element, the f32 divisions, Clip, Round half to even, Cast), then QuantizeLinear.
LogicalResult convertDynamicQuantizeLinear(NodeImporter &n) {
  if (failed(n.onlyAttrs({})))
    return failure();
  auto xType = n.inputType(0);
  if (failed(xType))
    return failure();
  if (!xType->getElementType().isF32())
    return n.unsupported("the input is " + typeName(xType->getElementType()) + ": only f32 inputs are supported");
  if (!xType->hasStaticShape() || xType->getNumElements() == 0)
    return n.unsupported("the input must have a static, non-empty shape");
  auto x = n.input(0);
  if (failed(x))
    return failure();
  Type f32 = xType->getElementType(), u8 = IntegerType::get(f32.getContext(), 8, IntegerType::Unsigned);
  SmallVector<int64_t> all(xType->getRank());
  for (int64_t d = 0; d < xType->getRank(); ++d)
    all[d] = d;
  auto reduce = [&](auto tag) -> FailureOr<Value> {
    using OpT = decltype(tag);
    if (all.empty())
      return *x;
    return n.create<OpT>(*x, {n.i64Array("axes", all), n.boolean("keepdims", false)});
  };
  auto zero = splatConstant(n, f32, {}, 0.0), qmax = splatConstant(n, f32, {}, 255.0);
  auto lo = binaryOf<MinOp>(n, reduce(ReduceMinOp()), zero), hi = binaryOf<MaxOp>(n, reduce(ReduceMaxOp()), zero);
  auto scale = binaryOf<DivOp>(n, binaryOf<SubOp>(n, hi, lo), qmax);
  auto zpf = binaryOf<SubOp>(n, zero, binaryOf<DivOp>(n, lo, scale));
  if (failed(zpf) || failed(scale))
    return failure();
  auto rounded = unaryOf<RoundOp>(n, n.create<ClipOp>(*zpf, {n.f32("min", 0.0f), n.f32("max", 255.0f)}));
  if (failed(rounded))
    return failure();
  auto zp = castElements(n, *rounded, u8);
  if (failed(zp))
    return failure();
  auto s1 = n.reshape(*scale, {1}), z1 = n.reshape(*zp, {1});
  if (failed(s1) || failed(z1))
    return failure();
  auto y = n.create<QuantizeLinearOp>(ValueRange{*x, *s1, *z1});
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  n.setOutput(1, *scale);
  n.setOutput(2, *zp);
  return success();
}

//===----------------------------------------------------------------------===//
// MatMulInteger, ConvInteger: the NE's int8 x int8 -> int32
//===----------------------------------------------------------------------===//

/// An int8 / uint8 operand as int8 for the NE: uint8 v is v - 128 (Cast to i32, Sub, Cast to i8: exact), and the
/// zero point moves by the same 128, so (v - zp) is unchanged.
struct SignedOperand {
  Value value; ///< i8
  int64_t shift = 0; ///< what was subtracted: 0 or 128
};

FailureOr<SignedOperand> signedOperand(NodeImporter &n, Value v) {
  Type e = getElementTypeOrSelf(v.getType());
  if (e.isSignlessInteger(8))
    return SignedOperand{v, 0};
  Type i32 = IntegerType::get(e.getContext(), 32), i8 = IntegerType::get(e.getContext(), 8);
  auto wide = castElements(n, v, i32);
  auto shifted = binaryOf<SubOp>(n, wide, splatConstant(n, i32, {1}, 128.0));
  if (failed(shifted))
    return failure();
  auto narrow = castElements(n, *shifted, i8);
  if (failed(narrow))
    return failure();
  return SignedOperand{*narrow, 128};
}

/// A zero point minus the operand's shift, as int32 (a constant when the zero point is one or absent), shaped
/// `shape`; `zero` tells whether it is known to be 0 everywhere (its terms then vanish; no value when absent).
struct ShiftedZeroPoint {
  Value value;
  bool zero = false;
};

FailureOr<ShiftedZeroPoint> shiftedZeroPoint(NodeImporter &n, int input, Type quantized, int64_t shift,
                                             ArrayRef<int64_t> shape, StringRef role) {
  Type i32 = IntegerType::get(quantized.getContext(), 32);
  if (!n.hasInput(input)) {
    if (shift == 0)
      return ShiftedZeroPoint{Value(), true};
    auto c = splatConstant(n, i32, shape, static_cast<double>(-shift));
    if (failed(c))
      return failure();
    return ShiftedZeroPoint{*c, shift == 0};
  }
  auto zpType = n.inputType(input);
  if (failed(zpType))
    return failure();
  if (zpType->getElementType() != quantized)
    return n.unsupported("the zero point of " + role + " is " + typeName(zpType->getElementType()) + ", but " + role +
                         " is " + typeName(quantized) + ": they must have one type");
  if (const tx8::ref::Tensor *c = n.constantInput(input)) {
    bool zero = true;
    for (int64_t i = 0; i < c->numElements(); ++i)
      zero &= tx8::ref::elementAsDouble(*c, i) == static_cast<double>(shift);
    if (zero)
      return ShiftedZeroPoint{Value(), true};
    auto v = filledConstant(n, i32, shape, [&](ArrayRef<int64_t> index) {
      int64_t flat = 0, count = c->numElements();
      if (count > 1) // per row / column / channel: the one extent of `shape` that is not 1
        for (size_t d = 0; d < index.size(); ++d)
          flat = shape[d] != 1 ? index[d] : flat;
      return tx8::ref::elementAsDouble(*c, flat) - static_cast<double>(shift);
    });
    if (failed(v))
      return failure();
    return ShiftedZeroPoint{*v, false};
  }
  auto zp = n.input(input);
  if (failed(zp))
    return failure();
  auto shaped = n.reshape(*zp, shape);
  auto wide = castElements(n, *shaped, i32);
  if (failed(shaped) || failed(wide))
    return failure();
  if (shift == 0)
    return ShiftedZeroPoint{*wide, false};
  auto v = binaryOf<SubOp>(n, wide, splatConstant(n, i32, {1}, static_cast<double>(shift)));
  if (failed(v))
    return failure();
  return ShiftedZeroPoint{*v, false};
}

/// The extent of a zero point: 1 (per tensor: a scalar or one element) or `count` along one dim (1-D).
FailureOr<int64_t> zeroPointCount(NodeImporter &n, int input, int64_t count, StringRef what) {
  if (!n.hasInput(input))
    return int64_t{1};
  auto t = n.inputType(input);
  if (failed(t))
    return failure();
  if (!t->hasStaticShape())
    return n.unsupported(Twine(what) + "'s shape is not static");
  int64_t elements = t->getNumElements();
  if (elements == 1)
    return int64_t{1};
  if (t->getRank() == 1 && elements == count)
    return count;
  return n.unsupported(Twine(what) + " has " + Twine(elements) + " elements: one (per tensor) or " + Twine(count) +
                       " is expected");
}

/// The int32 product sum_k (a - a_zp)(b - b_zp) of a MatMulInteger / QLinearMatMul node (inputs `ai`, `bi`, zero
/// points `azi`, `bzi`: absent inputs are 0): a.b - a_zp colsum(b) - b_zp rowsum(a) + K a_zp b_zp, every product
/// on the NE in int8 with int32 sums (the column and row sums a MatMul by a row / column of ones), the corrections
/// in int32 on the CT; terms of a zero point known to be 0 vanish. a_zp per tensor or per row [M], b_zp per tensor
/// or per column [N].
FailureOr<Value> integerMatMul(NodeImporter &n, StringRef opName, int ai, int bi, int azi, int bzi) {
  auto aType = n.inputType(ai), bType = n.inputType(bi);
  if (failed(aType) || failed(bType))
    return failure();
  Type ae = aType->getElementType(), be = bType->getElementType();
  if (!isQuantizedType(ae) || !isQuantizedType(be))
    return n.unsupported(opName + " takes int8 or uint8 operands, not " + typeName(ae) + " and " + typeName(be));
  if (aType->getRank() < 2 || bType->getRank() < 2)
    return n.unsupported(opName + " operands of rank 1 are not supported (rank >= 2)");
  if (!aType->hasStaticShape() || !bType->hasStaticShape())
    return n.unsupported(opName + " needs static shapes");
  int64_t m = aType->getDimSize(aType->getRank() - 2), k = aType->getShape().back(), nn = bType->getShape().back();
  auto aCount = zeroPointCount(n, azi, m, "a_zero_point"), bCount = zeroPointCount(n, bzi, nn, "b_zero_point");
  if (failed(aCount) || failed(bCount))
    return failure();
  auto a = n.input(ai), b = n.input(bi);
  if (failed(a) || failed(b))
    return failure();
  auto a8 = signedOperand(n, *a), b8 = signedOperand(n, *b);
  if (failed(a8) || failed(b8))
    return failure();
  auto azp = shiftedZeroPoint(n, azi, ae, a8->shift, {*aCount, 1}, "A");
  auto bzp = shiftedZeroPoint(n, bzi, be, b8->shift, {1, *bCount}, "B");
  if (failed(azp) || failed(bzp))
    return failure();
  Type i8 = IntegerType::get(ae.getContext(), 8), i32 = IntegerType::get(ae.getContext(), 32);
  auto matmul = [&](FailureOr<Value> x, FailureOr<Value> y) -> FailureOr<Value> {
    if (failed(x) || failed(y))
      return failure();
    return n.create<MatMulOp>(ValueRange{*x, *y});
  };
  FailureOr<Value> y = matmul(a8->value, b8->value);
  if (!azp->zero) // - a_zp * colsum(b)
    y = binaryOf<SubOp>(n, y, binaryOf<MulOp>(n, azp->value, matmul(splatConstant(n, i8, {1, k}, 1.0), b8->value)));
  if (!bzp->zero) // - b_zp * rowsum(a)
    y = binaryOf<SubOp>(n, y, binaryOf<MulOp>(n, matmul(a8->value, splatConstant(n, i8, {k, 1}, 1.0)), bzp->value));
  if (!azp->zero && !bzp->zero) { // + K a_zp b_zp
    // One op per statement: the order of a call's arguments is the compiler's (clang and GCC differ), the IR's
    // must not be.
    auto kConstant = splatConstant(n, i32, {1}, static_cast<double>(k));
    auto both = binaryOf<MulOp>(n, binaryOf<MulOp>(n, azp->value, bzp->value), kConstant);
    y = binaryOf<AddOp>(n, y, both);
  }
  return y;
}

/// The int32 convolution sum (x - x_zp)(w - w_zp) of a ConvInteger / QLinearConv node (inputs `xi`, `wi`, zero
/// points `xzi`, `wzi`: absent inputs are 0). ONNX pads x - x_zero_point with zeros, so over the window's taps
/// inside the image:
///   sum (x - xz)(w - wz) = conv(x, w) - xz conv(1x, w) - wz conv(x, 1w) + xz wz conv(1x, 1w)
/// with 1x / 1w ones of x's / w's shape (one image; one output channel when group is 1) and zero padding: four
/// int8 convolutions on the NE (those of a zero point known to be 0 vanish), combined in int32. w_zero_point per
/// tensor or per output channel [M]. The window attributes are the node's.
FailureOr<Value> integerConv(NodeImporter &n, StringRef opName, int xi, int wi, int xzi, int wzi) {
  auto xType = n.inputType(xi), wType = n.inputType(wi);
  if (failed(xType) || failed(wType))
    return failure();
  Type xe = xType->getElementType(), we = wType->getElementType();
  if (!isQuantizedType(xe) || !isQuantizedType(we))
    return n.unsupported(opName + " takes int8 or uint8 operands, not " + typeName(xe) + " and " + typeName(we));
  if (xType->getRank() < 3 || wType->getRank() != xType->getRank())
    return n.unsupported("input and weight must have the same rank >= 3");
  if (!xType->hasStaticShape() || !wType->hasStaticShape())
    return n.unsupported(opName + " needs static shapes");
  int64_t rank = xType->getRank(), mOut = wType->getDimSize(0), group = n.attrInt("group", 1);
  SmallVector<int64_t> strides = n.attrInts("strides"), dilations = n.attrInts("dilations");
  auto pads = convWindowPads(n, xType->getShape().drop_front(2), wType->getShape().drop_front(2), strides, dilations);
  auto xCount = zeroPointCount(n, xzi, 1, "x_zero_point"), wCount = zeroPointCount(n, wzi, mOut, "w_zero_point");
  if (failed(pads) || failed(xCount) || failed(wCount))
    return failure();
  auto x = n.input(xi), w = n.input(wi);
  if (failed(x) || failed(w))
    return failure();
  auto x8 = signedOperand(n, *x), w8 = signedOperand(n, *w);
  if (failed(x8) || failed(w8))
    return failure();
  SmallVector<int64_t> perChannel(rank - 1, 1); // [M, 1, ..., 1]: the output channel of [N, M, spatial...]
  perChannel[0] = *wCount;
  auto xzp = shiftedZeroPoint(n, xzi, xe, x8->shift, {1}, "x");
  auto wzp = shiftedZeroPoint(n, wzi, we, w8->shift, perChannel, "w");
  if (failed(xzp) || failed(wzp))
    return failure();
  Type i8 = IntegerType::get(xe.getContext(), 8);
  SmallVector<NamedAttribute> attrs{n.i64Array("strides", strides), n.i64Array("pads", *pads),
                                    n.i64Array("dilations", dilations), n.i64("group", group)};
  SmallVector<int64_t> onesX(xType->getShape()), onesW(wType->getShape());
  onesX[0] = 1;
  if (group == 1)
    onesW[0] = 1;
  auto conv = [&](FailureOr<Value> in, FailureOr<Value> weight) -> FailureOr<Value> {
    if (failed(in) || failed(weight))
      return failure();
    return n.create<ConvOp>(ValueRange{*in, *weight}, attrs);
  };
  FailureOr<Value> y = conv(x8->value, w8->value);
  if (!xzp->zero) { // - xz conv(1x, w)
    // With w computed at run time the conv's input must be too (a Conv's input is loaded per step, with the
    // step's pads): ones of x's shape made from x (x == x, as int8).
    bool constantW = n.constantInput(wi) != nullptr;
    FailureOr<Value> ones = constantW ? splatConstant(n, i8, onesX, 1.0)
                                      : n.create<EqualOp>(ValueRange{x8->value, x8->value});
    if (succeeded(ones) && !constantW)
      ones = castElements(n, *ones, i8);
    y = binaryOf<SubOp>(n, y, binaryOf<MulOp>(n, xzp->value, conv(ones, w8->value)));
  }
  if (!wzp->zero) // - wz conv(x, 1w)
    y = binaryOf<SubOp>(n, y, binaryOf<MulOp>(n, conv(x8->value, splatConstant(n, i8, onesW, 1.0)), wzp->value));
  if (!xzp->zero && !wzp->zero) { // + xz wz conv(1x, 1w)
    auto onesOfW = splatConstant(n, i8, onesW, 1.0); // one op per statement: argument order is the compiler's
    auto count = conv(splatConstant(n, i8, onesX, 1.0), onesOfW);
    y = binaryOf<AddOp>(n, y, binaryOf<MulOp>(n, binaryOf<MulOp>(n, xzp->value, wzp->value), count));
  }
  return y;
}

LogicalResult convertMatMulInteger(NodeImporter &n) {
  if (failed(n.onlyAttrs({})))
    return failure();
  return bindResult(n, integerMatMul(n, "MatMulInteger", 0, 1, 2, 3));
}

LogicalResult convertConvInteger(NodeImporter &n) {
  if (failed(n.onlyAttrs({"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"})))
    return failure();
  return bindResult(n, integerConv(n, "ConvInteger", 0, 1, 2, 3));
}

/// A QLinear* scale: f32, one element or `count` (1-D), positive and finite when constant; reshaped to `shape`.
FailureOr<Value> qlinearScale(NodeImporter &n, int input, int64_t count, ArrayRef<int64_t> shape, StringRef what) {
  auto t = n.inputType(input);
  if (failed(t))
    return failure();
  if (!t->getElementType().isF32())
    return n.unsupported(Twine(what) + " is " + typeName(t->getElementType()) + ": only f32 scales are supported");
  if (!t->hasStaticShape() || (t->getNumElements() != 1 && !(t->getRank() == 1 && t->getNumElements() == count)))
    return n.unsupported(Twine(what) + " must have one element" +
                         (count > 1 ? " or " + std::to_string(count) : std::string()));
  if (const tx8::ref::Tensor *c = n.constantInput(input))
    for (int64_t i = 0; i < c->numElements(); ++i) {
      double s = tx8::ref::elementAsDouble(*c, i);
      if (!(s > 0) || !std::isfinite(s)) {
        char v[32];
        std::snprintf(v, sizeof v, "%g", s);
        return n.unsupported(Twine(what) + " element " + Twine(i) + " is " + v +
                             ": a scale must be positive and finite");
      }
    }
  auto v = n.input(input);
  if (failed(v))
    return failure();
  SmallVector<int64_t> target(shape);
  if (t->getNumElements() == 1)
    target.assign(shape.size(), 1);
  return n.reshape(*v, target);
}

/// The int32 product `acc` requantized as QLinearMatMul / QLinearConv specify it (ONNX Runtime's arithmetic):
///   y = saturate(round_half_even(f32(acc) * m) + y_zero_point),  m = f32(f32(a_scale * b_scale) / y_scale)
/// the product in f32 (rounded once) and the rest QuantizeLinear with a scale of 1. b_scale may be per channel
/// (`bShape`, `bCount` elements), the others one element.
LogicalResult requantize(NodeImporter &n, FailureOr<Value> acc, int aScale, int bScale, int64_t bCount,
                         ArrayRef<int64_t> bShape, int yScale, int yZeroPoint) {
  if (failed(acc))
    return failure();
  auto sa = qlinearScale(n, aScale, 1, {1}, "the first input's scale");
  auto sb = qlinearScale(n, bScale, bCount, bShape, "the second input's scale");
  auto sy = qlinearScale(n, yScale, 1, {1}, "the output's scale");
  auto zType = n.inputType(yZeroPoint);
  if (failed(sa) || failed(sb) || failed(sy) || failed(zType))
    return failure();
  if (!isQuantizedType(zType->getElementType()))
    return n.unsupported("the output's zero point is " + typeName(zType->getElementType()) +
                         " (int8 or uint8 is expected)");
  if (!zType->hasStaticShape() || zType->getNumElements() != 1)
    return n.unsupported("the output's zero point must have one element");
  Type f32 = getElementTypeOrSelf(sa->getType());
  // One op per statement: the order of a call's arguments is the compiler's, the IR's must not be.
  auto multiplier = binaryOf<DivOp>(n, binaryOf<MulOp>(n, *sa, *sb), *sy);
  auto scaled = binaryOf<MulOp>(n, castElements(n, *acc, f32), multiplier);
  auto zp = n.input(yZeroPoint);
  if (failed(scaled) || failed(zp))
    return failure();
  auto z1 = n.reshape(*zp, {1});
  auto one = splatConstant(n, f32, {1}, 1.0);
  if (failed(z1) || failed(one))
    return failure();
  return bindResult(n, n.create<QuantizeLinearOp>(ValueRange{*scaled, *one, *z1}));
}

/// QLinearMatMul: MatMulInteger's product of (a, a_zero_point) and (b, b_zero_point), requantized to y.
LogicalResult convertQLinearMatMul(NodeImporter &n) {
  if (failed(n.onlyAttrs({})))
    return failure();
  return requantize(n, integerMatMul(n, "QLinearMatMul", 0, 3, 2, 5), 1, 4, 1, {1}, 6, 7);
}

/// QLinearConv: ConvInteger's sum of (x, x_zero_point) and (w, w_zero_point), plus the int32 bias, requantized to y
/// (w_scale per tensor or per output channel).
LogicalResult convertQLinearConv(NodeImporter &n) {
  if (failed(n.onlyAttrs({"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"})))
    return failure();
  auto wType = n.inputType(3);
  if (failed(wType))
    return failure();
  if (wType->getRank() < 3 || !wType->hasStaticShape())
    return n.unsupported("the weight must have a static shape of rank >= 3");
  int64_t mOut = wType->getDimSize(0);
  SmallVector<int64_t> perChannel(wType->getRank() - 1, 1);
  perChannel[0] = mOut;
  FailureOr<Value> acc = integerConv(n, "QLinearConv", 0, 3, 2, 5);
  if (n.hasInput(8)) {
    auto bType = n.inputType(8);
    if (failed(bType))
      return failure();
    if (!bType->getElementType().isSignlessInteger(32) || !bType->hasStaticShape() || bType->getRank() != 1 ||
        bType->getNumElements() != mOut)
      return n.unsupported("the bias must be int32 of " + Twine(mOut) + " elements (one per output channel)");
    auto bias = n.input(8);
    if (failed(bias))
      return failure();
    acc = binaryOf<AddOp>(n, acc, n.reshape(*bias, perChannel));
  }
  return requantize(n, acc, 1, 4, mOut, perChannel, 6, 7);
}

} // namespace

void tx8be::onnx_import::addQuantizationConverters(llvm::StringMap<NodeConverter> &converters) {
  converters["QuantizeLinear"] = convertQuantizeLinear;
  converters["DequantizeLinear"] = convertDequantizeLinear;
  converters["DynamicQuantizeLinear"] = convertDynamicQuantizeLinear;
  converters["MatMulInteger"] = convertMatMulInteger;
  converters["ConvInteger"] = convertConvInteger;
  converters["QLinearMatMul"] = convertQLinearMatMul;
  converters["QLinearConv"] = convertQLinearConv;
}
