//===- OpLib.cpp - OpLibInterface of the tx8be ops ------------------------===//
//
// queryOpAttr, genOpCode and getOpClockCycle for every op but BatchNorm_Inference (BatchNormInterfaces.cpp).
// Which OpLib kernel exists is decided by oplib/include/tx8/ops.h: op_batchnorm_inference, op_gemm (Gemm,
// 2-D MatMul), op_conv, op_add/op_mul/op_relu/op_sigmoid/op_tanh, op_softmax, op_maxpool/op_avgpool and
// op_global_avgpool. genOpCode describes the call (OpCall: function, *_PARAM members, TSR arguments); for the
// other ops, or attributes a kernel does not take, it fails with an error saying why. Codegen names the tensors
// and prints the call. Shapes never appear in it: they travel in the TSRs codegen builds (opLibViewShape).
//
//===----------------------------------------------------------------------===//
#include "InterfaceUtils.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"


#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"
#include "tx8/ops.h"

using namespace mlir;
using namespace tx8be;

//===----------------------------------------------------------------------===//
// Shared helpers (InterfaceUtils.h)
//===----------------------------------------------------------------------===//

std::optional<Data_Format> tx8be::detail::dataFormatOf(Type t) {
  if (t.isF32())
    return Fmt_FP32;
  if (t.isF16())
    return Fmt_FP16;
  if (t.isBF16())
    return Fmt_BF16;
  if (t.isInteger(8))
    return Fmt_INT8;
  if (t.isInteger(32))
    return Fmt_INT32;
  return std::nullopt;
}

std::optional<uint64_t> tx8be::detail::staticElements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return std::nullopt;
  return static_cast<uint64_t>(shaped.getNumElements());
}

unsigned tx8be::detail::elementBytes(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isIntOrFloat() ? (element.getIntOrFloatBitWidth() + 7) / 8 : 0;
}

LayoutMode tx8be::detail::resultLayout(Operation *op) {
  if (auto layout = getDevInfoLayoutMode(op))
    return *layout;
  if (op->getNumResults() == 1)
    if (auto type = dyn_cast<ShapedType>(op->getResult(0).getType()))
      return defaultCompactLayout(type);
  return LayoutMode::Tensor;
}

static uint64_t ceilDiv(uint64_t a, uint64_t b) { return b ? (a + b - 1) / b : 0; }

uint64_t tx8be::detail::CycleEstimate::ct(uint64_t elements, unsigned bytes, uint64_t passes) const {
  return passes * (hw.ct_startup_cycles + ceilDiv(elements * bytes, tx8_hw_ct_bytes_per_cycle(&hw)));
}

uint64_t tx8be::detail::CycleEstimate::ctTranscendental(uint64_t elements, unsigned bytes, uint64_t passes) const {
  return passes * (hw.ct_startup_cycles +
                   hw.ct_transcendental_passes * ceilDiv(elements * bytes, tx8_hw_ct_bytes_per_cycle(&hw)));
}

uint64_t tx8be::detail::CycleEstimate::ne(uint64_t macs, Type elementType) const {
  uint32_t rate = hw.ne_macs_per_cycle_fp32;
  if (elementType.isBF16())
    rate = hw.ne_macs_per_cycle_bf16;
  else if (elementType.isF16())
    rate = hw.ne_macs_per_cycle_fp16;
  else if (elementType.isInteger(8))
    rate = hw.ne_macs_per_cycle_int8;
  return hw.ne_startup_cycles + ceilDiv(macs, rate);
}

uint64_t tx8be::detail::CycleEstimate::tdma(uint64_t bytes) const {
  return hw.tdma_startup_cycles + ceilDiv(bytes, hw.tdma_bytes_per_cycle);
}

uint64_t tx8be::detail::CycleEstimate::ddr(uint64_t bytes) const {
  uint64_t width = std::min<uint64_t>(hw.lsu_bytes_per_cycle, hw.ddr_bytes_per_cycle);
  return hw.ddr_latency_cycles + ceilDiv(bytes, width);
}


//===----------------------------------------------------------------------===//
// queryOpAttr
//===----------------------------------------------------------------------===//

namespace {
/// Ops whose elementwise CT kernels work in any layout as long as all tensors share it.
bool isElementwise(Operation *op) {
  return isa<ReluOp, LeakyReluOp, EluOp, SeluOp, HardSigmoidOp, ClipOp, GeluOp, SigmoidOp, TanhOp, SoftplusOp,
             SoftsignOp, ExpOp, LogOp, AbsOp, NegOp, SqrtOp, RsqrtOp, ReciprocalOp, ErfOp, AddOp, SubOp, MulOp,
             DivOp, MaxOp, MinOp, PowOp, PReluOp, CastOp>(op);
}
} // namespace

OpAttr tx8be::detail::queryOpAttr(Operation *op) {
  OpAttr attr;
  if (op->getNumResults() == 1)
    if (auto type = dyn_cast<ShapedType>(op->getResult(0).getType()))
      attr.defaultLayout = defaultCompactLayout(type) == LayoutMode::Tensor ? "Tensor" : "NTensor";

  if (isElementwise(op)) {
    attr.alignMode = NPU_BOTH;
    attr.engine = NPU_ENGINE_CT;
    // The output may overwrite the first input when they have the same type (no broadcast, no dtype change).
    attr.memInplace = op->getOperand(0).getType() == op->getResult(0).getType();
    return attr;
  }
  llvm::TypeSwitch<Operation *>(op)
      .Case<GemmOp, MatMulOp>([&](auto) {
        // op_gemm works on compact row-major tensors.
        attr.alignMode = NPU_COMPACT;
        attr.engine = NPU_ENGINE_NE;
      })
      .Case<ConvOp, ConvTransposeOp>([&](auto) {
        // op_conv reads compact NHWC feature maps (an NHWC instruction config).
        attr.alignMode = NPU_COMPACT;
        attr.needPresetToNPU = true;
        attr.engine = NPU_ENGINE_NE;
      })
      .Case<MaxPoolOp, AvgPoolOp, GlobalAvgPoolOp, GlobalMaxPoolOp>([&](auto) {
        // The CT pooling instruction takes NHWC in any layout.
        attr.alignMode = NPU_BOTH;
        attr.needPresetToNPU = true;
      })
      .Case<SoftmaxOp, LogSoftmaxOp, LayerNormOp, ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp>(
          [&](auto) { attr.alignMode = NPU_COMPACT; })
      .Case<ReshapeOp>([&](auto) {
        // Seed: a reshape is a DDR view (group_tag 2): nothing to load or store.
        attr.alignMode = NPU_COMPACT;
        attr.engine = NPU_ENGINE_LSU;
        attr.needLoad = 0;
        attr.needStore = 0;
        attr.parallel = false;
      })
      .Case<GatherOp>([&](auto) {
        // Seed: an embedding table (operand 0) is read in place from DDR, only the indices are loaded.
        attr.alignMode = NPU_COMPACT;
        attr.engine = NPU_ENGINE_LSU;
        attr.needLoad = ~uint64_t{1};
      })
      .Case<TransposeOp, ConcatOp, SliceOp, PadOp>([&](auto) {
        attr.alignMode = NPU_COMPACT;
        attr.engine = NPU_ENGINE_LSU;
      })
      .Case<ChannelNormOp>([&](auto) {
        // The layout converter itself: it takes either side.
        attr.alignMode = NPU_BOTH;
        attr.engine = NPU_ENGINE_LSU;
      })
      .Case<LoadConstOp, LoadVarOp, StoreVarOp>([&](auto) {
        attr.alignMode = NPU_BOTH;
        attr.engine = NPU_ENGINE_LSU;
        attr.needLoad = 0; // they are the loads and stores
        attr.needStore = 0;
      });
  return attr;
}

//===----------------------------------------------------------------------===//
// genOpCode
//===----------------------------------------------------------------------===//

namespace {
using ArgKind = OpCallArg::Kind;

OpCallValue layoutOf(Operation *op) { return OpCallValue::ofEnumerator(layoutModeCName(tx8be::detail::resultLayout(op))); }

/// The call's TSR arguments: every operand, then the results.
void operandsThenResults(Operation *op, OpCall &call) {
  for (unsigned i = 0; i < op->getNumOperands(); ++i)
    call.arg(ArgKind::Operand, i);
  for (unsigned i = 0; i < op->getNumResults(); ++i)
    call.arg(ArgKind::Result, i);
}

/// op_add / op_mul / op_relu / op_sigmoid / op_tanh: same shape for all tensors (OpLib does not broadcast).
LogicalResult genEltwise(Operation *op, const char *fn, OpCall &call) {
  Type type = op->getResult(0).getType();
  for (Value v : op->getOperands())
    if (v.getType() != type)
      return op->emitOpError() << "has no OpLib kernel: " << fn
                               << " needs every operand of the result's type (no broadcasting, no dtype change)";
  call.function = fn;
  call.paramType = "ELTWISE_PARAM";
  call.field("layout", layoutOf(op)).field("rnd", OpCallValue::ofEnumerator("RND_NEAREST_EVEN"));
  operandsThenResults(op, call);
  return success();
}

/// op_gemm: out = a x b (+ bias[N]) with fp32 output, so ONNX Gemm maps onto it without transposes or scaling
/// and with a C that is a row vector.
LogicalResult genGemm(GemmOp op, OpCall &call) {
  if (op.getTransA() || op.getTransB() || op.getAlpha().convertToFloat() != 1.0f)
    return op.emitOpError() << "has no OpLib kernel: op_gemm takes no transposes and alpha 1";
  if (!op.getOutput().getType().getElementType().isF32())
    return op.emitOpError() << "has no OpLib kernel: op_gemm writes fp32";
  if (Value c = op.getC()) {
    auto shape = cast<ShapedType>(c.getType()).getShape();
    bool rowVector = shape.size() == 1 || (shape.size() == 2 && shape[0] == 1);
    if (!rowVector || op.getBeta().convertToFloat() != 1.0f)
      return op.emitOpError() << "has no OpLib kernel: op_gemm adds C only as a row vector with beta 1";
  }
  call.function = "op_gemm";
  call.paramType = "GEMM_PARAM";
  call.field("accumulate", OpCallValue::ofInt(0)).field("relu_en", OpCallValue::ofInt(0));
  call.arg(ArgKind::Operand, 0).arg(ArgKind::Operand, 1);
  if (op.getC())
    call.arg(ArgKind::Operand, 2);
  else
    call.arg(ArgKind::Null);
  call.arg(ArgKind::Result, 0);
  return success();
}

/// MatMul of two 2-D operands is op_gemm without bias.
LogicalResult genMatMul(MatMulOp op, OpCall &call) {
  if (op.getA().getType().getRank() != 2 || op.getB().getType().getRank() != 2)
    return op.emitOpError() << "has no OpLib kernel: op_gemm multiplies 2-D operands";
  if (!op.getOutput().getType().getElementType().isF32())
    return op.emitOpError() << "has no OpLib kernel: op_gemm writes fp32";
  call.function = "op_gemm";
  call.paramType = "GEMM_PARAM";
  call.field("accumulate", OpCallValue::ofInt(0)).field("relu_en", OpCallValue::ofInt(0));
  call.arg(ArgKind::Operand, 0).arg(ArgKind::Operand, 1).arg(ArgKind::Null).arg(ArgKind::Result, 0);
  return success();
}

/// The (h, w) values of a per-spatial-dim attribute (empty: all 1); 1-D ops have h = 1.
std::pair<int64_t, int64_t> hw(ArrayRef<int64_t> values, int64_t spatialRank) {
  auto at = [&](size_t i) { return i < values.size() ? values[i] : int64_t{1}; };
  return spatialRank == 1 ? std::make_pair(int64_t{1}, at(0)) : std::make_pair(at(0), at(1));
}

/// pad_top/left/bottom/right: the step's own (a border slice keeps the op's padding there).
void padFields(OpCall &call) {
  call.field("pad_top", OpCallValue::ofStepPad(0))
      .field("pad_left", OpCallValue::ofStepPad(1))
      .field("pad_bottom", OpCallValue::ofStepPad(2))
      .field("pad_right", OpCallValue::ofStepPad(3));
}

/// op_conv on the NE: 1-D / 2-D, fp32 output (the NE accumulates in fp32).
LogicalResult genConv(ConvOp op, OpCall &call) {
  int64_t spatial = op.getInput().getType().getRank() - 2;
  if (spatial < 1 || spatial > 2)
    return op.emitOpError() << "has no OpLib kernel: op_conv is 1-D or 2-D";
  if (!op.getOutput().getType().getElementType().isF32())
    return op.emitOpError() << "has no OpLib kernel: op_conv writes fp32";
  auto [sh, sw] = hw(op.getStrides(), spatial);
  auto [dh, dw] = hw(op.getDilations(), spatial);
  call.function = "op_conv";
  call.paramType = "CONV_PARAM";
  call.field("layout", layoutOf(op))
      .field("stride_h", OpCallValue::ofInt(sh))
      .field("stride_w", OpCallValue::ofInt(sw))
      .field("dilation_h", OpCallValue::ofInt(dh))
      .field("dilation_w", OpCallValue::ofInt(dw));
  padFields(call);
  call.field("group", OpCallValue::ofInt(op.getGroup()))
      .field("accumulate", OpCallValue::ofInt(0))
      .field("relu_en", OpCallValue::ofInt(0));
  call.arg(ArgKind::Operand, 0).arg(ArgKind::Operand, 1);
  if (op.getBias())
    call.arg(ArgKind::Operand, 2);
  else
    call.arg(ArgKind::Null);
  call.arg(ArgKind::Result, 0);
  return success();
}

/// op_maxpool / op_avgpool: 2-D only (the CT pooling instruction's NHWC window).
template <typename PoolOp>
LogicalResult genPool(PoolOp op, const char *fn, bool countIncludePad, OpCall &call) {
  if (op.getInput().getType().getRank() != 4)
    return op.emitOpError() << "has no OpLib kernel: " << fn << " is 2-D";
  auto [kh, kw] = hw(op.getKernelShape(), 2);
  auto [sh, sw] = hw(op.getStrides(), 2);
  auto [dh, dw] = hw(op.getDilations(), 2);
  call.function = fn;
  call.paramType = "POOL_PARAM";
  call.field("layout", layoutOf(op))
      .field("kernel_h", OpCallValue::ofInt(kh))
      .field("kernel_w", OpCallValue::ofInt(kw))
      .field("stride_h", OpCallValue::ofInt(sh))
      .field("stride_w", OpCallValue::ofInt(sw))
      .field("dilation_h", OpCallValue::ofInt(dh))
      .field("dilation_w", OpCallValue::ofInt(dw));
  padFields(call);
  call.field("count_include_pad", OpCallValue::ofInt(countIncludePad ? 1 : 0));
  operandsThenResults(op, call);
  return success();
}

LogicalResult genGlobalAvgPool(GlobalAvgPoolOp op, OpCall &call) {
  if (op.getInput().getType().getRank() != 4)
    return op.emitOpError() << "has no OpLib kernel: op_global_avgpool is 2-D";
  call.function = "op_global_avgpool";
  call.paramType = "GLOBAL_POOL_PARAM";
  call.field("layout", layoutOf(op));
  operandsThenResults(op, call);
  return success();
}

/// op_softmax normalises the innermost dim: the axis must be the last in device memory.
LogicalResult genSoftmax(SoftmaxOp op, OpCall &call) {
  int64_t rank = op.getInput().getType().getRank();
  DeviceLayout layout = getDeviceLayout(op.getInput());
  if (layout.order.empty() || layout.order.back() != normalizeAxis(op.getAxis(), rank))
    return op.emitOpError() << "has no OpLib kernel: op_softmax normalises the innermost dim in memory, axis "
                            << op.getAxis() << " is not";
  call.function = "op_softmax";
  call.paramType = "SOFTMAX_PARAM";
  call.field("layout", layoutOf(op));
  call.arg(ArgKind::Operand, 0).arg(ArgKind::Imm).arg(ArgKind::Result, 0);
  return success();
}

/// ChannelNorm: the same logical tensor from its input's memory order into the op's (op_permute on the TDMA).
/// Alignment changes (compact <-> Cx) are not handled here.
LogicalResult genChannelNorm(ChannelNormOp op, OpCall &call) {
  DeviceLayout from = getDeviceLayout(op.getInput()), to = getDeviceLayout(op.getOutput());
  auto compact = [](LayoutMode m) { return m == LayoutMode::Tensor || m == LayoutMode::NTensor; };
  if (!compact(from.mode) || !compact(to.mode) || from.order.size() != to.order.size())
    return op.emitOpError() << "has no OpLib kernel: op_permute converts between compact layouts only";
  // Output dim k holds logical dim to.order[k], which the input keeps at position perm[k].
  SmallVector<int64_t> perm;
  for (int64_t d : to.order)
    perm.push_back(llvm::find(from.order, d) - from.order.begin());
  call.function = "op_permute";
  call.paramType = "PERMUTE_PARAM";
  call.field("perm", OpCallValue::ofInts(perm));
  operandsThenResults(op, call);
  return success();
}
} // namespace

LogicalResult tx8be::detail::genOpCode(Operation *op, OpCall &call) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<AddOp>([&](auto) { return genEltwise(op, "op_add", call); })
      .Case<MulOp>([&](auto) { return genEltwise(op, "op_mul", call); })
      .Case<ReluOp>([&](auto) { return genEltwise(op, "op_relu", call); })
      .Case<SigmoidOp>([&](auto) { return genEltwise(op, "op_sigmoid", call); })
      .Case<TanhOp>([&](auto) { return genEltwise(op, "op_tanh", call); })
      .Case<GemmOp>([&](GemmOp gemm) { return genGemm(gemm, call); })
      .Case<MatMulOp>([&](MatMulOp mm) { return genMatMul(mm, call); })
      .Case<ConvOp>([&](ConvOp conv) { return genConv(conv, call); })
      .Case<MaxPoolOp>([&](MaxPoolOp pool) { return genPool(pool, "op_maxpool", false, call); })
      .Case<AvgPoolOp>([&](AvgPoolOp pool) { return genPool(pool, "op_avgpool", pool.getCountIncludePad(), call); })
      .Case<GlobalAvgPoolOp>([&](GlobalAvgPoolOp pool) { return genGlobalAvgPool(pool, call); })
      .Case<SoftmaxOp>([&](SoftmaxOp sm) { return genSoftmax(sm, call); })
      .Case<ChannelNormOp>([&](ChannelNormOp cn) { return genChannelNorm(cn, call); })
      .Default([](Operation *op) {
        return op->emitOpError() << "has no OpLib kernel (codegen supports BatchNorm, Conv 1-D/2-D, Gemm/MatMul 2-D, "
                                    "Add/Mul (same shapes), Relu, Sigmoid, Tanh, Softmax (innermost axis), "
                                    "Max/AvgPool 2-D, GlobalAvgPool, Reshape, ChannelNorm between compact layouts)";
      });
}

//===----------------------------------------------------------------------===//
// OpLib's view of a tensor
//===----------------------------------------------------------------------===//

SmallVector<int64_t> tx8be::detail::opLibViewShape(Operation *op, unsigned index, ArrayRef<int64_t> deviceShape) {
  auto mergeMiddle = [&](ArrayRef<int64_t> s) {
    if (s.size() <= 4)
      return SmallVector<int64_t>(s.begin(), s.end());
    int64_t mid = 1;
    for (size_t i = 1; i + 1 < s.size(); ++i)
      mid *= s[i];
    return SmallVector<int64_t>{s.front(), mid, s.back()};
  };
  if (isa<ChannelNormOp>(op)) // op_permute takes up to 6 dims as they are
    return SmallVector<int64_t>(deviceShape.begin(), deviceShape.end());
  bool isResult = index >= op->getNumOperands();
  if (isa<BatchNorm_InferenceOp>(op) && !isResult && index >= 1) {
    int64_t c = 1;
    for (int64_t d : deviceShape)
      c *= d;
    return {1, c}; // per-channel vectors: 1 x C
  }
  if (isa<SoftmaxOp, LogSoftmaxOp>(op)) {
    int64_t rows = 1;
    for (size_t i = 0; i + 1 < deviceShape.size(); ++i)
      rows *= deviceShape[i];
    return {rows, deviceShape.empty() ? 1 : deviceShape.back()};
  }
  return mergeMiddle(deviceShape);
}

//===----------------------------------------------------------------------===//
// getImmSpSize
//===----------------------------------------------------------------------===//

uint32_t tx8be::detail::getImmSpSize(Operation *op, const tx8_hw_config &hw, ArrayRef<int64_t> slice) {
  auto softmax = dyn_cast<SoftmaxOp>(op);
  if (!softmax || !softmax.getInput().getType().hasStaticShape())
    return 0;
  SmallVector<int64_t> shape(softmax.getInput().getType().getShape());
  if (slice.size() == shape.size()) // the input slice is the output slice
    shape.assign(slice.begin(), slice.end());
  auto format = dataFormatOf(softmax.getInput().getType().getElementType());
  if (!format)
    return 0;
  SmallVector<int64_t> view =
      opLibViewShape(op, 0, toDeviceOrder(shape, getDeviceLayout(softmax.getInput()).order));
  SmallVector<int32_t> view32(view.begin(), view.end());
  L_SHAPE lshape;
  if (tx8_lshape_init(&lshape, view32.data(), static_cast<int32_t>(view32.size())) != 0)
    return 0;
  TSR in{*format, 0, &lshape};
  SOFTMAX_PARAM param{static_cast<LAYOUT_MODE>(resultLayout(op))};
  uint64_t bytes = op_softmax_imm_size(&hw, &param, &in);
  return bytes > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(bytes);
}

//===----------------------------------------------------------------------===//
// getOpClockCycle
//===----------------------------------------------------------------------===//

static uint64_t product(ArrayRef<int64_t> values) {
  uint64_t p = 1;
  for (int64_t v : values)
    p *= static_cast<uint64_t>(v);
  return p;
}

uint64_t tx8be::detail::getOpClockCycle(Operation *op, const tx8_hw_config &hw) {
  // Estimates need static shapes; 0 means "unknown" to the cost model.
  auto isDynamic = [](Type t) {
    auto shaped = dyn_cast<ShapedType>(t);
    return shaped && !shaped.hasStaticShape();
  };
  if (llvm::any_of(op->getOperandTypes(), isDynamic) || llvm::any_of(op->getResultTypes(), isDynamic))
    return 0;
  if (op->getNumResults() != 1)
    return 0;
  CycleEstimate est{hw};
  Type outType = op->getResult(0).getType();
  Type elementType = getElementTypeOrSelf(outType);
  uint64_t outElems = staticElements(outType).value_or(0);
  unsigned bytes = elementBytes(outType);
  uint64_t inElems = op->getNumOperands() ? staticElements(op->getOperand(0).getType()).value_or(0) : 0;

  return llvm::TypeSwitch<Operation *, uint64_t>(op)
      // One CT pass over the output.
      .Case<ReluOp, LeakyReluOp, AbsOp, NegOp, ClipOp, AddOp, SubOp, MulOp, MaxOp, MinOp, CastOp>(
          [&](auto) { return est.ct(outElems, bytes); })
      // Scale-and-clamp / multiply-and-select: two passes.
      .Case<HardSigmoidOp, PReluOp>([&](auto) { return est.ct(outElems, bytes, 2); })
      // A transcendental function (exp, log, sqrt, division, erf, ...) per element.
      .Case<EluOp, SeluOp, GeluOp, SigmoidOp, TanhOp, SoftplusOp, SoftsignOp, ExpOp, LogOp, SqrtOp, RsqrtOp,
            ReciprocalOp, ErfOp, DivOp, PowOp>([&](auto) { return est.ctTranscendental(outElems, bytes); })
      // max, subtract, sum; exp and divide (LogSoftmax: log) are transcendental.
      .Case<SoftmaxOp, LogSoftmaxOp>(
          [&](auto) { return est.ct(outElems, bytes, 3) + est.ctTranscendental(outElems, bytes, 2); })
      // mean, subtract, square-sum, scale, shift; rsqrt of the variance.
      .Case<LayerNormOp>([&](auto) { return est.ct(outElems, bytes, 5) + est.ctTranscendental(outElems, bytes); })
      .Case<ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp, GlobalAvgPoolOp, GlobalMaxPoolOp>(
          [&](auto) { return est.ct(inElems, bytes); })
      // One pass over the output per kernel tap (and one divide for the average).
      .Case<MaxPoolOp>([&](MaxPoolOp pool) { return est.ct(outElems, bytes, product(pool.getKernelShape())); })
      .Case<AvgPoolOp>([&](AvgPoolOp pool) {
        return est.ct(outElems, bytes, product(pool.getKernelShape())) + est.ct(outElems, bytes);
      })
      .Case<GemmOp>([&](GemmOp gemm) {
        auto a = gemm.getA().getType().getShape();
        uint64_t k = static_cast<uint64_t>(gemm.getTransA() ? a[0] : a[1]);
        return est.ne(outElems * k, elementType);
      })
      .Case<MatMulOp>([&](MatMulOp mm) {
        uint64_t k = static_cast<uint64_t>(mm.getA().getType().getShape().back());
        return est.ne(outElems * k, elementType);
      })
      .Case<ConvOp>([&](ConvOp conv) {
        // Each output element: C/group input channels x kernel volume MACs.
        auto w = conv.getWeight().getType().getShape();
        return est.ne(outElems * product(w.drop_front()), elementType);
      })
      .Case<ConvTransposeOp>([&](ConvTransposeOp conv) {
        // Each input element scatters into O/group output channels x kernel volume.
        auto w = conv.getWeight().getType().getShape();
        return est.ne(inElems * product(w.drop_front()), elementType);
      })
      .Case<TransposeOp, ConcatOp, SliceOp, GatherOp, PadOp, ChannelNormOp>(
          [&](auto) { return est.tdma(outElems * bytes); })
      .Case<LoadConstOp, LoadVarOp, StoreVarOp>([&](auto) { return est.ddr(outElems * bytes); })
      .Case<ReshapeOp>([&](auto) { return uint64_t{0}; }) // a DDR view: no data moves
      .Default([](Operation *) { return uint64_t{0}; });
}
