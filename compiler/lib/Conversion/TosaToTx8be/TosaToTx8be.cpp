//===- TosaToTx8be.cpp - Import TOSA as tx8be -----------------------------===//
//
// One named pattern per TOSA op. tx8be follows ONNX conventions (NCHW feature maps, OIHW weights, pads
// [begins..., ends...]) while TOSA uses NHWC / OHWI and [top, bottom, left, right]: the conv and pool
// patterns wrap the tx8be op in Transposes and reorder the pads. Patterns only match the float types the
// engines take (f32/f16/bf16); anything else stays TOSA, and the partial conversion then fails with
// "failed to legalize operation 'tosa.x'" at the op.
//
//===----------------------------------------------------------------------===//
#include "tx8/Conversion/Passes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cmath>
#include <limits>

namespace tx8be {
#define GEN_PASS_DEF_CONVERTTOSATOTX8BE
#include "tx8/Conversion/Passes.h.inc"
} // namespace tx8be

using namespace mlir;

namespace {

bool isEngineFloat(Type type) {
  Type e = getElementTypeOrSelf(type);
  return e.isF32() || e.isF16() || e.isBF16();
}

/// All operands and results are f32/f16/bf16 ranked tensors.
bool allEngineFloat(Operation *op) {
  auto ok = [](Type t) { return isa<RankedTensorType>(t) && isEngineFloat(t); };
  return llvm::all_of(op->getOperandTypes(), ok) && llvm::all_of(op->getResultTypes(), ok);
}

/// Integer values of a constant operand (tosa.const / tx8be.Constant / arith.constant).
std::optional<SmallVector<int64_t>> constantInts(Value v) {
  DenseIntElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  SmallVector<int64_t> values;
  for (const APInt &x : attr.getValues<APInt>())
    values.push_back(x.getSExtValue());
  return values;
}

/// An attribute float of any semantics as a float (clamp bounds of f16 tensors are f16 attributes).
float toFloat(APFloat value) {
  bool losesInfo = false;
  value.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &losesInfo);
  return value.convertToFloat();
}

RankedTensorType permutedType(RankedTensorType type, ArrayRef<int64_t> perm) {
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  return RankedTensorType::get(shape, type.getElementType());
}

/// tx8be ops are built with the generic (types, operands, attributes) builder: attributes not given take
/// their defaults, and the pattern code names each attribute it sets.
template <typename OpT>
OpT buildOp(OpBuilder &b, Location loc, Type type, ValueRange operands, ArrayRef<NamedAttribute> attrs = {}) {
  return b.create<OpT>(loc, TypeRange{type}, operands, attrs);
}

/// Replaces single-result `op` by a new OpT of the same result type.
template <typename OpT>
void replaceWith(ConversionPatternRewriter &rewriter, Operation *op, ValueRange operands,
                 ArrayRef<NamedAttribute> attrs = {}) {
  rewriter.replaceOp(op, buildOp<OpT>(rewriter, op->getLoc(), op->getResult(0).getType(), operands, attrs)
                             ->getResults());
}

NamedAttribute i64Array(OpBuilder &b, StringRef name, ArrayRef<int64_t> values) {
  return b.getNamedAttr(name, b.getDenseI64ArrayAttr(values));
}

Value transpose(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> perm) {
  auto type = permutedType(cast<RankedTensorType>(v.getType()), perm);
  return buildOp<tx8be::TransposeOp>(b, loc, type, v, {i64Array(b, "perm", perm)});
}

constexpr int64_t kNhwcToNchw[] = {0, 3, 1, 2};
constexpr int64_t kNchwToNhwc[] = {0, 2, 3, 1};

/// TOSA 2-D pads [top, bottom, left, right] -> ONNX [top, left, bottom, right].
SmallVector<int64_t> onnxPads2d(ArrayRef<int64_t> pad) { return {pad[0], pad[2], pad[1], pad[3]}; }

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

/// tosa.add / sub / maximum / minimum / pow -> the tx8be binary op (both broadcast numpy-style).
template <typename TosaOp, typename Tx8beOp>
struct BinaryToTx8be : OpConversionPattern<TosaOp> {
  using OpConversionPattern<TosaOp>::OpConversionPattern;
  LogicalResult matchAndRewrite(TosaOp op, typename TosaOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!allEngineFloat(op))
      return rewriter.notifyMatchFailure(op, "only f32/f16/bf16 are supported");
    replaceWith<Tx8beOp>(rewriter, op, {adaptor.getInput1(), adaptor.getInput2()});
    return success();
  }
};

/// tosa.mul: the shift only applies to integers and must be 0 here.
struct MulToTx8be : OpConversionPattern<tosa::MulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tosa::MulOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    if (!allEngineFloat(op) || op.getShift() != 0)
      return rewriter.notifyMatchFailure(op, "only float multiplication without shift");
    replaceWith<tx8be::MulOp>(rewriter, op, {adaptor.getInput1(), adaptor.getInput2()});
    return success();
  }
};

/// tosa.sigmoid / tanh / exp / log / abs / negate / reciprocal / rsqrt / erf -> the tx8be unary op.
template <typename TosaOp, typename Tx8beOp>
struct UnaryToTx8be : OpConversionPattern<TosaOp> {
  using OpConversionPattern<TosaOp>::OpConversionPattern;
  LogicalResult matchAndRewrite(TosaOp op, typename TosaOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!allEngineFloat(op))
      return rewriter.notifyMatchFailure(op, "only f32/f16/bf16 are supported");
    replaceWith<Tx8beOp>(rewriter, op, adaptor.getOperands()[0]);
    return success();
  }
};

/// tosa.clamp: [0, +inf) is a Relu, any other float range a Clip.
struct ClampToTx8be : OpConversionPattern<tosa::ClampOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tosa::ClampOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!allEngineFloat(op))
      return rewriter.notifyMatchFailure(op, "only f32/f16/bf16 are supported");
    float lo = toFloat(op.getMinFp()), hi = toFloat(op.getMaxFp());
    // TOSA writes "no upper bound" as +inf or as the largest finite value of the type.
    bool unbounded = std::isinf(hi) || hi >= std::numeric_limits<float>::max();
    if (lo == 0.0f && unbounded) {
      replaceWith<tx8be::ReluOp>(rewriter, op, adaptor.getInput());
      return success();
    }
    replaceWith<tx8be::ClipOp>(rewriter, op, adaptor.getInput(),
                               {rewriter.getNamedAttr("min", rewriter.getF32FloatAttr(lo)),
                                rewriter.getNamedAttr("max", rewriter.getF32FloatAttr(hi))});
    return success();
  }
};

struct CastToTx8be : OpConversionPattern<tosa::CastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tosa::CastOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    replaceWith<tx8be::CastOp>(rewriter, op, adaptor.getInput());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Constants and matrix products
//===----------------------------------------------------------------------===//

struct ConstToTx8be : OpConversionPattern<tosa::ConstOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tosa::ConstOp op, OpAdaptor, ConversionPatternRewriter &rewriter) const override {
    replaceWith<tx8be::ConstantOp>(rewriter, op, {}, {rewriter.getNamedAttr("value", op.getValue())});
    return success();
  }
};

/// tosa.matmul [N,H,C] x [N,C,W] is a batched MatMul.
struct MatMulToTx8be : OpConversionPattern<tosa::MatMulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tosa::MatMulOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!allEngineFloat(op) || op.getQuantizationInfo())
      return rewriter.notifyMatchFailure(op, "only unquantized float matmul");
    replaceWith<tx8be::MatMulOp>(rewriter, op, {adaptor.getA(), adaptor.getB()});
    return success();
  }
};

/// tosa.fully_connected: input [N,IC] x weight [OC,IC]^T + bias [OC] is a Gemm with transB.
struct FullyConnectedToTx8be : OpConversionPattern<tosa::FullyConnectedOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tosa::FullyConnectedOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!allEngineFloat(op) || op.getQuantizationInfo())
      return rewriter.notifyMatchFailure(op, "only unquantized float fully_connected");
    replaceWith<tx8be::GemmOp>(rewriter, op, {adaptor.getInput(), adaptor.getWeight(), adaptor.getBias()},
                               {rewriter.getNamedAttr("transB", rewriter.getBoolAttr(true))});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Convolution and pooling (NHWC -> NCHW)
//===----------------------------------------------------------------------===//

/// tosa.conv2d: NHWC input, OHWI weight -> Transposes around an NCHW/OIHW tx8be.Conv.
struct Conv2DToTx8be : OpConversionPattern<tosa::Conv2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tosa::Conv2DOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!allEngineFloat(op) || op.getQuantizationInfo())
      return rewriter.notifyMatchFailure(op, "only unquantized float conv2d");
    Location loc = op.getLoc();
    Value input = transpose(rewriter, loc, adaptor.getInput(), kNhwcToNchw);
    Value weight = transpose(rewriter, loc, adaptor.getWeight(), kNhwcToNchw); // OHWI -> OIHW
    auto outType = permutedType(cast<RankedTensorType>(op.getType()), kNhwcToNchw);
    auto conv = buildOp<tx8be::ConvOp>(rewriter, loc, outType, {input, weight, adaptor.getBias()},
                                      {i64Array(rewriter, "strides", op.getStride()),
                                       i64Array(rewriter, "pads", onnxPads2d(op.getPad())),
                                       i64Array(rewriter, "dilations", op.getDilation())});
    rewriter.replaceOp(op, transpose(rewriter, loc, conv, kNchwToNhwc));
    return success();
  }
};

/// tosa.depthwise_conv2d: weight [KH,KW,C,M] -> grouped Conv with weight [C*M,1,KH,KW], group C.
struct DepthwiseConv2DToTx8be : OpConversionPattern<tosa::DepthwiseConv2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tosa::DepthwiseConv2DOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto wType = cast<RankedTensorType>(op.getWeight().getType());
    if (!allEngineFloat(op) || op.getQuantizationInfo() || !wType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "only unquantized float depthwise_conv2d with a static weight");
    Location loc = op.getLoc();
    int64_t kh = wType.getDimSize(0), kw = wType.getDimSize(1), c = wType.getDimSize(2), m = wType.getDimSize(3);
    Value input = transpose(rewriter, loc, adaptor.getInput(), kNhwcToNchw);
    Value weight = transpose(rewriter, loc, adaptor.getWeight(), {2, 3, 0, 1}); // C x M x KH x KW
    weight = buildOp<tx8be::ReshapeOp>(rewriter, loc, RankedTensorType::get({c * m, 1, kh, kw}, wType.getElementType()),
                                      weight);
    auto outType = permutedType(cast<RankedTensorType>(op.getType()), kNhwcToNchw);
    auto conv = buildOp<tx8be::ConvOp>(rewriter, loc, outType, {input, weight, adaptor.getBias()},
                                      {i64Array(rewriter, "strides", op.getStride()),
                                       i64Array(rewriter, "pads", onnxPads2d(op.getPad())),
                                       i64Array(rewriter, "dilations", op.getDilation()),
                                       rewriter.getNamedAttr("group", rewriter.getI64IntegerAttr(c))});
    rewriter.replaceOp(op, transpose(rewriter, loc, conv, kNchwToNhwc));
    return success();
  }
};

/// tosa.avg_pool2d (padding never counts) / tosa.max_pool2d on NHWC.
template <typename TosaOp, typename Tx8beOp>
struct Pool2DToTx8be : OpConversionPattern<TosaOp> {
  using OpConversionPattern<TosaOp>::OpConversionPattern;
  LogicalResult matchAndRewrite(TosaOp op, typename TosaOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!allEngineFloat(op))
      return rewriter.notifyMatchFailure(op, "only f32/f16/bf16 are supported");
    Location loc = op.getLoc();
    Value input = transpose(rewriter, loc, adaptor.getInput(), kNhwcToNchw);
    auto outType = permutedType(cast<RankedTensorType>(op.getType()), kNhwcToNchw);
    auto pool = buildOp<Tx8beOp>(rewriter, loc, outType, input,
                                {i64Array(rewriter, "kernel_shape", op.getKernel()),
                                 i64Array(rewriter, "strides", op.getStride()),
                                 i64Array(rewriter, "pads", onnxPads2d(op.getPad()))});
    rewriter.replaceOp(op, transpose(rewriter, loc, pool, kNchwToNhwc));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Shape and data movement
//===----------------------------------------------------------------------===//

struct ReshapeToTx8be : OpConversionPattern<tosa::ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tosa::ReshapeOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    replaceWith<tx8be::ReshapeOp>(rewriter, op, adaptor.getInput1());
    return success();
  }
};

struct TransposeToTx8be : OpConversionPattern<tosa::TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tosa::TransposeOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto perm = constantInts(op.getPerms());
    if (!perm)
      return rewriter.notifyMatchFailure(op, "perms must be a constant");
    replaceWith<tx8be::TransposeOp>(rewriter, op, adaptor.getInput1(), {i64Array(rewriter, "perm", *perm)});
    return success();
  }
};

struct ConcatToTx8be : OpConversionPattern<tosa::ConcatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tosa::ConcatOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    replaceWith<tx8be::ConcatOp>(rewriter, op, adaptor.getInput1(),
                                 {rewriter.getNamedAttr("axis", rewriter.getI64IntegerAttr(op.getAxis()))});
    return success();
  }
};

/// tosa.slice start/size (size -1: to the end) -> unit-stride Slice.
struct SliceToTx8be : OpConversionPattern<tosa::SliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tosa::SliceOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    SmallVector<int64_t> sizes(op.getSize());
    for (auto [d, size] : llvm::enumerate(sizes))
      if (size == -1) {
        if (inType.isDynamicDim(d))
          return rewriter.notifyMatchFailure(op, "size -1 on a dynamic dim");
        size = inType.getDimSize(d) - op.getStart()[d];
      }
    SmallVector<int64_t> strides(sizes.size(), 1);
    replaceWith<tx8be::SliceOp>(rewriter, op, adaptor.getInput(),
                                {i64Array(rewriter, "offsets", op.getStart()), i64Array(rewriter, "sizes", sizes),
                                 i64Array(rewriter, "strides", strides)});
    return success();
  }
};

/// tosa.pad: constant padding [[low, high], ...] and constant pad value -> constant-mode Pad.
struct PadToTx8be : OpConversionPattern<tosa::PadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tosa::PadOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    if (!isEngineFloat(op.getInput1().getType()) || !isEngineFloat(op.getType()) || op.getQuantizationInfo())
      return rewriter.notifyMatchFailure(op, "only unquantized float pad");
    auto padding = constantInts(op.getPadding());
    int64_t rank = cast<RankedTensorType>(op.getInput1().getType()).getRank();
    if (!padding || static_cast<int64_t>(padding->size()) != 2 * rank)
      return rewriter.notifyMatchFailure(op, "padding must be a constant [rank, 2] tensor");
    SmallVector<int64_t> pads(2 * rank);
    for (int64_t d = 0; d < rank; ++d) {
      pads[d] = (*padding)[2 * d];
      pads[d + rank] = (*padding)[2 * d + 1];
    }
    if (llvm::any_of(pads, [](int64_t p) { return p < 0; }))
      return rewriter.notifyMatchFailure(op, "negative padding");
    float value = 0.0f;
    if (Value padConst = op.getPadConst()) {
      DenseFPElementsAttr attr;
      if (!matchPattern(padConst, m_Constant(&attr)))
        return rewriter.notifyMatchFailure(op, "pad_const must be a constant");
      value = toFloat(*attr.getValues<APFloat>().begin());
    }
    replaceWith<tx8be::PadOp>(rewriter, op, adaptor.getInput1(),
                              {i64Array(rewriter, "pads", pads),
                               rewriter.getNamedAttr("value", rewriter.getF32FloatAttr(value))});
    return success();
  }
};

/// tosa.reduce_* over one axis keeps the reduced dim (extent 1).
template <typename TosaOp, typename Tx8beOp>
struct ReduceToTx8be : OpConversionPattern<TosaOp> {
  using OpConversionPattern<TosaOp>::OpConversionPattern;
  LogicalResult matchAndRewrite(TosaOp op, typename TosaOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!allEngineFloat(op))
      return rewriter.notifyMatchFailure(op, "only f32/f16/bf16 are supported");
    replaceWith<Tx8beOp>(rewriter, op, adaptor.getInput(),
                         {i64Array(rewriter, "axes", {static_cast<int64_t>(op.getAxis())}),
                          rewriter.getNamedAttr("keepdims", rewriter.getBoolAttr(true))});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct ConvertTosaToTx8bePass : tx8be::impl::ConvertTosaToTx8beBase<ConvertTosaToTx8bePass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    target.addLegalDialect<tx8be::Tx8beDialect>();
    target.addIllegalDialect<tosa::TosaDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(ctx);
    tx8be::populateTosaToTx8bePatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns))))
      return signalPassFailure();
    // Constants that only fed attributes (transpose perms, pad amounts) are dead now.
    getOperation().walk([](tx8be::ConstantOp op) {
      if (op->use_empty())
        op->erase();
    });
  }
};

} // namespace

void tx8be::populateTosaToTx8bePatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<BinaryToTx8be<tosa::AddOp, tx8be::AddOp>, BinaryToTx8be<tosa::SubOp, tx8be::SubOp>,
               BinaryToTx8be<tosa::MaximumOp, tx8be::MaxOp>, BinaryToTx8be<tosa::MinimumOp, tx8be::MinOp>,
               BinaryToTx8be<tosa::PowOp, tx8be::PowOp>, MulToTx8be>(ctx);
  patterns.add<UnaryToTx8be<tosa::SigmoidOp, tx8be::SigmoidOp>, UnaryToTx8be<tosa::TanhOp, tx8be::TanhOp>,
               UnaryToTx8be<tosa::ExpOp, tx8be::ExpOp>, UnaryToTx8be<tosa::LogOp, tx8be::LogOp>,
               UnaryToTx8be<tosa::AbsOp, tx8be::AbsOp>, UnaryToTx8be<tosa::NegateOp, tx8be::NegOp>,
               UnaryToTx8be<tosa::ReciprocalOp, tx8be::ReciprocalOp>, UnaryToTx8be<tosa::RsqrtOp, tx8be::RsqrtOp>,
               UnaryToTx8be<tosa::ErfOp, tx8be::ErfOp>, ClampToTx8be, CastToTx8be>(ctx);
  patterns.add<ConstToTx8be, MatMulToTx8be, FullyConnectedToTx8be, Conv2DToTx8be, DepthwiseConv2DToTx8be,
               Pool2DToTx8be<tosa::AvgPool2dOp, tx8be::AvgPoolOp>, Pool2DToTx8be<tosa::MaxPool2dOp, tx8be::MaxPoolOp>>(
      ctx);
  patterns.add<ReshapeToTx8be, TransposeToTx8be, ConcatToTx8be, SliceToTx8be, PadToTx8be,
               ReduceToTx8be<tosa::ReduceSumOp, tx8be::ReduceSumOp>, ReduceToTx8be<tosa::ReduceMaxOp, tx8be::ReduceMaxOp>,
               ReduceToTx8be<tosa::ReduceMinOp, tx8be::ReduceMinOp>>(ctx);
}
