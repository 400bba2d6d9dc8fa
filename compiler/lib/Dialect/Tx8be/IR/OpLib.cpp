//===- OpLib.cpp - OpLibInterface of the tx8be ops ------------------------===//
//
// External models, one per op family, attached by Tx8beDialect::initialize (attachOpLibModels, at the end):
// every context that loads tx8be has them. BatchNorm_Inference implements the interface itself
// (BatchNormInterfaces.cpp). Every model derives from OpLibModel, which gives
//  * queryOpAttr: the default layout of the result, then the family's properties (alignment, engine,
//    loads/stores, ...);
//  * getOpClockCycle: 0 (unknown to the cost model) unless every shape is static and there is one result,
//    else the family's estimate from CycleEstimate;
//  * getImmSpSize: 0 (no imm TSR), genOpCode: the error that OpLib has no kernel for the op, and
//    getOpLibViewShape: the interface's default (ranks above 4 with the middle dims merged);
// a family overrides what differs. Which OpLib kernel exists is decided by oplib/include/tx8/ops.h:
// op_batchnorm_inference, op_gemm (Gemm, MatMul, batched too), op_conv, op_reduce, the elementwise op_add/sub/mul/div/max/min
// (with broadcasting) and op_relu/abs/neg/exp/sqrt/reciprocal/sigmoid/tanh, op_leaky_relu/op_clip/op_hard_sigmoid,
// op_softmax, op_layernorm, op_attention, op_maxpool/op_avgpool, op_global_avgpool, op_gather_rows (Gather) and op_permute (ChannelNorm, Transpose). genOpCode describes the
// call (OpCall: function, *_PARAM members, TSR arguments); for the other ops, or attributes a kernel does not take, it
// fails with an error saying why. Codegen names the tensors and prints the call. Shapes never appear in it: they travel
// in the TSRs codegen builds (opLibViewShape). Adding an op: attach its family's model in attachOpLibModels (or write
// one for a new family).
//
//===----------------------------------------------------------------------===//
#include "InterfaceUtils.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/raw_ostream.h"


#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"
#include "tx8/Interfaces/ComputeInterface.h"
#include "tx8/Reference/DeviceFormat.h"
#include "tx8/ops.h"

#include <cmath>

using namespace mlir;
using namespace tx8be;

//===----------------------------------------------------------------------===//
// Shared helpers (InterfaceUtils.h)
//===----------------------------------------------------------------------===//

std::optional<Data_Format> tx8be::detail::dataFormatOf(Type t) {
  std::optional<tx8::ref::DType> dtype = refDTypeOf(t);
  return dtype ? tx8::ref::deviceFormatOf(*dtype) : std::nullopt;
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
// OpLib's view of a tensor
//===----------------------------------------------------------------------===//

SmallVector<int64_t> tx8be::detail::defaultOpLibViewShape(ArrayRef<int64_t> deviceShape) {
  // OpLib's TSRs have 2 to 4 dims: a vector is one row, a scalar one element (the same bytes).
  if (deviceShape.size() < 2) {
    SmallVector<int64_t> view(2 - deviceShape.size(), 1);
    view.append(deviceShape.begin(), deviceShape.end());
    return view;
  }
  if (deviceShape.size() <= 4)
    return SmallVector<int64_t>(deviceShape.begin(), deviceShape.end());
  int64_t mid = 1;
  for (size_t i = 1; i + 1 < deviceShape.size(); ++i)
    mid *= deviceShape[i];
  return SmallVector<int64_t>{deviceShape.front(), mid, deviceShape.back()};
}

SmallVector<int64_t> tx8be::detail::opLibViewShape(Operation *op, unsigned index, ArrayRef<int64_t> deviceShape) {
  if (auto lib = dyn_cast<OpLibInterface>(op))
    return lib.getOpLibViewShape(index, deviceShape);
  return defaultOpLibViewShape(deviceShape);
}

//===----------------------------------------------------------------------===//
// What the families share
//===----------------------------------------------------------------------===//

using namespace tx8be::detail;

namespace {
using ArgKind = OpCallArg::Kind;

/// What an estimate starts from (static shapes, one result).
struct CycleInputs {
  CycleEstimate est;
  Type elementType;  ///< the result's element type
  uint64_t outElems; ///< elements of the result
  unsigned bytes;    ///< bytes per element of the result
  uint64_t inElems;  ///< elements of operand 0 (0 without operands)
};

uint64_t product(ArrayRef<int64_t> values) {
  uint64_t p = 1;
  for (int64_t v : values)
    p *= static_cast<uint64_t>(v);
  return p;
}

/// genOpCode of an op OpLib has no kernel for.
LogicalResult noKernel(Operation *op) {
  return op->emitOpError()
         << "has no OpLib kernel (codegen supports BatchNorm, Conv 1-D/2-D, Gemm, MatMul (batched too), "
            "Add/Sub/Mul/Div/Max/Min/Pow (broadcasting), Relu, Abs, Neg, Exp, Log, Sqrt, Rsqrt, Reciprocal, Sigmoid, "
            "Tanh, Erf, Gelu (erf and tanh), Softplus, Softsign, Elu, Celu, Selu, Mish, HardSwish, ThresholdedRelu, Shrink, "
            "LeakyRelu, HardSigmoid, Clip, the trigonometric and hyperbolic functions, Floor/Ceil/Round/Sign, "
            "ReduceSum/Mean/Max/Min, comparisons, And/Or/Xor/Not, Where, Mod, Cast, QuantizeLinear, "
            "DequantizeLinear, Softmax, LayerNorm, Max/AvgPool 2-D, "
            "GlobalAvgPool, Reshape, Concat, Slice, Expand, Pad, Gather of a constant table's rows, Transpose and "
            "ChannelNorm between compact layouts)";
}

/// The base of every family's model. ConcreteModel provides
///   static void properties(OpT, OpAttr &)                  its OpLib properties
///   static uint64_t cycles(OpT, const CycleInputs &)       its estimate
/// and overrides getImmSpSize / genOpCode / getOpLibViewShape where its kernel has them.
template <typename ConcreteModel, typename OpT>
struct OpLibModel : OpLibInterface::ExternalModel<ConcreteModel, OpT> {
  OpAttr queryOpAttr(Operation *op) const {
    OpAttr attr;
    if (op->getNumResults() == 1)
      if (auto type = dyn_cast<ShapedType>(op->getResult(0).getType()))
        attr.defaultLayout = defaultCompactLayout(type) == LayoutMode::Tensor ? "Tensor" : "NTensor";
    ConcreteModel::properties(cast<OpT>(op), attr);
    return attr;
  }

  uint64_t getOpClockCycle(Operation *op, const tx8_hw_config &hw) const {
    // Estimates need static shapes; 0 means "unknown" to the cost model.
    auto isDynamic = [](Type t) {
      auto shaped = dyn_cast<ShapedType>(t);
      return shaped && !shaped.hasStaticShape();
    };
    if (llvm::any_of(op->getOperandTypes(), isDynamic) || llvm::any_of(op->getResultTypes(), isDynamic))
      return 0;
    if (op->getNumResults() != 1)
      return 0;
    Type outType = op->getResult(0).getType();
    CycleInputs in{CycleEstimate{hw}, getElementTypeOrSelf(outType), staticElements(outType).value_or(0),
                   elementBytes(outType),
                   op->getNumOperands() ? staticElements(op->getOperand(0).getType()).value_or(0) : 0};
    return ConcreteModel::cycles(cast<OpT>(op), in);
  }

  uint32_t getImmSpSize(Operation *, const tx8_hw_config &, ArrayRef<int64_t>) const { return 0; }

  LogicalResult genOpCode(Operation *op, OpCall &) const { return noKernel(op); }
};

/// Attaches Model<OpT> to each OpT (upstream's registerElemwiseAll).
template <template <typename> class Model, typename... OpTs>
void attachAll(MLIRContext *ctx) {
  (OpTs::template attachInterface<Model<OpTs>>(*ctx), ...);
}

OpCallValue layoutOf(Operation *op) { return OpCallValue::ofEnumerator(layoutModeCName(resultLayout(op))); }

/// The call's TSR arguments: every operand, then the results.
void operandsThenResults(Operation *op, OpCall &call) {
  for (unsigned i = 0; i < op->getNumOperands(); ++i)
    call.arg(ArgKind::Operand, i);
  for (unsigned i = 0; i < op->getNumResults(); ++i)
    call.arg(ArgKind::Result, i);
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

//===----------------------------------------------------------------------===//
// Elementwise CT ops: unary, binary, PRelu, Cast
//===----------------------------------------------------------------------===//

/// The CT instructions an elementwise op costs per element.
enum class CtCost {
  OnePass,       ///< one CT pass over the output
  TwoPasses,     ///< scale-and-clamp / multiply-and-select
  Transcendental ///< a transcendental function (exp, log, sqrt, division, erf, ...)
};

/// The elementwise OpLib kernels (ELTWISE_PARAM).
constexpr char kOpAdd[] = "op_add";
constexpr char kOpSub[] = "op_sub";
constexpr char kOpMul[] = "op_mul";
constexpr char kOpDiv[] = "op_div";
constexpr char kOpPow[] = "op_pow";
constexpr char kOpMax[] = "op_max";
constexpr char kOpMin[] = "op_min";
constexpr char kOpRelu[] = "op_relu";
constexpr char kOpAbs[] = "op_abs";
constexpr char kOpNeg[] = "op_neg";
constexpr char kOpExp[] = "op_exp";
constexpr char kOpSqrt[] = "op_sqrt";
constexpr char kOpReciprocal[] = "op_reciprocal";
constexpr char kOpSigmoid[] = "op_sigmoid";
constexpr char kOpTanh[] = "op_tanh";
constexpr char kOpMod[] = "op_mod";         // MOD_PARAM
constexpr char kOpCompare[] = "op_compare"; // COMPARE_PARAM
constexpr char kOpLogical[] = "op_logical"; // LOGICAL_PARAM
constexpr char kOpNot[] = "op_not";

/// op_unary's kinds (UNARY_KIND in tx8/ops.h).
constexpr char kUnaryLog[] = "UNARY_LOG";
constexpr char kUnaryErf[] = "UNARY_ERF";
constexpr char kUnaryGeluErf[] = "UNARY_GELU_ERF";
constexpr char kUnarySoftplus[] = "UNARY_SOFTPLUS";
constexpr char kUnarySoftsign[] = "UNARY_SOFTSIGN";
constexpr char kUnaryElu[] = "UNARY_ELU";
constexpr char kUnaryCelu[] = "UNARY_CELU";
constexpr char kUnarySelu[] = "UNARY_SELU";
constexpr char kUnaryThresholdedRelu[] = "UNARY_THRESHOLDED_RELU";
constexpr char kUnaryShrink[] = "UNARY_SHRINK";
constexpr char kUnaryHardSwish[] = "UNARY_HARD_SWISH";
constexpr char kUnaryMish[] = "UNARY_MISH";
constexpr char kUnarySin[] = "UNARY_SIN";
constexpr char kUnaryCos[] = "UNARY_COS";
constexpr char kUnaryTan[] = "UNARY_TAN";
constexpr char kUnaryAsin[] = "UNARY_ASIN";
constexpr char kUnaryAcos[] = "UNARY_ACOS";
constexpr char kUnaryAtan[] = "UNARY_ATAN";
constexpr char kUnarySinh[] = "UNARY_SINH";
constexpr char kUnaryCosh[] = "UNARY_COSH";
constexpr char kUnaryAsinh[] = "UNARY_ASINH";
constexpr char kUnaryAcosh[] = "UNARY_ACOSH";
constexpr char kUnaryAtanh[] = "UNARY_ATANH";
constexpr char kUnaryFloor[] = "UNARY_FLOOR";
constexpr char kUnaryCeil[] = "UNARY_CEIL";
constexpr char kUnaryRound[] = "UNARY_ROUND";
constexpr char kUnarySign[] = "UNARY_SIGN";
constexpr char kUnaryRsqrt[] = "UNARY_RSQRT";
constexpr char kUnaryGeluTanh[] = "UNARY_GELU_TANH";


bool isCompactLayout(LayoutMode mode) { return mode == LayoutMode::Tensor || mode == LayoutMode::NTensor; }

/// The element types the CT's float kernels take (eltwise_prepare, op_cast).
bool isCtFloat(Type type) {
  Type e = getElementTypeOrSelf(type);
  return e.isF32() || e.isF16() || e.isBF16();
}

/// The binary kernels that broadcast (eltwise_binary in OpLib): numpy broadcasting at the output's rank in a
/// compact layout; op_div not with a numerator that broadcasts where the denominator does not.
bool kernelBroadcasts(const char *kernel) {
  return kernel == kOpAdd || kernel == kOpSub || kernel == kOpMul || kernel == kOpDiv || kernel == kOpMax ||
         kernel == kOpMin || kernel == kOpPow || kernel == kOpMod || kernel == kOpCompare || kernel == kOpLogical;
}

bool isCtInteger(Type type) {
  Type e = getElementTypeOrSelf(type);
  return e.isSignlessInteger(8) || e.isSignlessInteger(32);
}

/// The operand element types an elementwise kernel takes (tx8/ops.h): the floats; int8 / int32 for the integer
/// arithmetic, Mod and the comparisons; booleans (i1, int8 0/1 on the device) for the logical ops.
bool kernelTakesBooleans(const char *kernel) { return kernel == kOpLogical || kernel == kOpNot; }
bool kernelTakesIntegers(const char *kernel) {
  return kernel == kOpAdd || kernel == kOpSub || kernel == kOpMul || kernel == kOpDiv || kernel == kOpMax ||
         kernel == kOpMin || kernel == kOpPow || kernel == kOpAbs || kernel == kOpNeg || kernel == kOpMod ||
         kernel == kOpCompare;
}
bool kernelTakes(const char *kernel, Type operand) {
  if (kernelTakesBooleans(kernel))
    return getElementTypeOrSelf(operand).isInteger(1);
  return isCtFloat(operand) || (kernelTakesIntegers(kernel) && isCtInteger(operand));
}
const char *kernelTypesText(const char *kernel) {
  return kernelTakesBooleans(kernel) ? "booleans" : kernelTakesIntegers(kernel) ? "f32, f16, bf16, i8 or i32"
                                                                                 : "f32, f16 or bf16";
}

/// Operand `index` of a broadcasting elementwise op as OpLib sees it: its extents (`deviceShape`, in the order
/// the op reads it: operandReadLayout) right-aligned to the result's logical dims, in the result's memory order
/// (1 where it broadcasts), then folded to at most 4 dims as the result's view is.
SmallVector<int64_t> broadcastOperandView(Operation *op, unsigned index, ArrayRef<int64_t> deviceShape) {
  Value result = op->getResult(0);
  DeviceLayout in = operandReadLayout(op, index), out = getDeviceLayout(result);
  int64_t rank = cast<ShapedType>(result.getType()).getRank();
  int64_t offset = rank - static_cast<int64_t>(deviceShape.size());
  SmallVector<int64_t> logical(rank, 1);
  for (auto [i, d] : llvm::enumerate(in.order))
    logical[offset + d] = deviceShape[i];
  return defaultOpLibViewShape(toDeviceOrder(logical, out.order));
}

/// Why OpLib's broadcasting kernel cannot take operand `index` of `op` ("" if it can): its bytes must be
/// row-major in the result's memory order over the dims it does not broadcast, in a compact layout, and the
/// result's view fold (ranks above 4) must not merge broadcast and full dims.
std::string broadcastProblem(Operation *op, unsigned index) {
  Value operand = op->getOperand(index), result = op->getResult(0);
  auto inShape = cast<ShapedType>(operand.getType()).getShape();
  auto outShape = cast<ShapedType>(result.getType()).getShape();
  DeviceLayout in = getDeviceLayout(operand), out = getDeviceLayout(result);
  if (!isCompactLayout(in.mode) || !isCompactLayout(out.mode))
    return "broadcasting needs compact (Tensor/NTensor) layouts";
  int64_t offset = static_cast<int64_t>(outShape.size() - inShape.size());
  SmallVector<int64_t> inOrder, outOrder; // the result dims the operand does not broadcast, in memory order
  for (int64_t d : in.order)
    if (inShape[d] != 1)
      inOrder.push_back(offset + d);
  for (int64_t d : out.order)
    if (d >= offset && inShape[d - offset] != 1)
      outOrder.push_back(d);
  if (inOrder != outOrder)
    return "operand " + std::to_string(index) + " is stored in another dim order than the result";
  if (outShape.size() > 4) {
    SmallVector<int64_t> full(outShape.size(), 1);
    for (int64_t i = 0; i < static_cast<int64_t>(inShape.size()); ++i)
      full[offset + i] = inShape[i];
    SmallVector<int64_t> mem = toDeviceOrder(full, out.order), outMem = toDeviceOrder(outShape, out.order);
    bool anyFull = false, anyBroadcast = false;
    for (size_t i = 1; i + 1 < mem.size(); ++i) {
      anyFull |= outMem[i] != 1 && mem[i] == outMem[i];
      anyBroadcast |= outMem[i] != 1 && mem[i] == 1;
    }
    if (anyFull && anyBroadcast)
      return "operand " + std::to_string(index) + " broadcasts over some of the middle dims OpLib's 4-dim view merges";
  }
  // A non-commutative kernel puts its second operand on the unit side (an integer op_sub too: -(b - a) would
  // saturate differently).
  bool intSub = isa<SubOp>(op) && isCtInteger(result.getType());
  if (op->getNumOperands() == 2 && index == 0 && (isa<DivOp, PowOp, ModOp>(op) || intSub)) {
    auto other = cast<ShapedType>(op->getOperand(1).getType()).getShape();
    int64_t otherOffset = static_cast<int64_t>(outShape.size() - other.size());
    for (int64_t d = 0; d < static_cast<int64_t>(outShape.size()); ++d) {
      int64_t mine = d >= offset ? inShape[d - offset] : 1, theirs = d >= otherOffset ? other[d - otherOffset] : 1;
      if (outShape[d] != 1 && mine == 1 && theirs != 1)
        return isa<PowOp>(op) ? "op_pow does not broadcast the base where the exponent is full"
               : isa<ModOp>(op) ? "op_mod does not broadcast the dividend where the divisor is full"
               : intSub         ? "an integer op_sub does not broadcast a where b is full"
                                : "op_div does not broadcast the numerator where the denominator is full";
    }
  }
  return "";
}

/// The *_PARAM an elementwise kernel takes for `op`: ELTWISE_PARAM (layout, rounding), or its own.
template <typename OpT> void eltwiseParam(OpT op, OpCall &call) {
  call.paramType = "ELTWISE_PARAM";
  call.field("layout", layoutOf(op)).field("rnd", OpCallValue::ofEnumerator("RND_NEAREST_EVEN"));
}
void eltwiseParam(ModOp op, OpCall &call) {
  call.paramType = "MOD_PARAM";
  call.field("layout", layoutOf(op)).field("fmod", OpCallValue::ofInt(op.getFmod() ? 1 : 0));
}
void kindParam(Operation *op, OpCall &call, const char *param, const char *kind) {
  call.paramType = param;
  call.field("layout", layoutOf(op)).field("kind", OpCallValue::ofEnumerator(kind));
}
void eltwiseParam(EqualOp op, OpCall &call) { kindParam(op, call, "COMPARE_PARAM", "COMPARE_EQ"); }
void eltwiseParam(LessOp op, OpCall &call) { kindParam(op, call, "COMPARE_PARAM", "COMPARE_LT"); }
void eltwiseParam(LessOrEqualOp op, OpCall &call) { kindParam(op, call, "COMPARE_PARAM", "COMPARE_LE"); }
void eltwiseParam(GreaterOp op, OpCall &call) { kindParam(op, call, "COMPARE_PARAM", "COMPARE_GT"); }
void eltwiseParam(GreaterOrEqualOp op, OpCall &call) { kindParam(op, call, "COMPARE_PARAM", "COMPARE_GE"); }
void eltwiseParam(AndOp op, OpCall &call) { kindParam(op, call, "LOGICAL_PARAM", "LOGICAL_AND"); }
void eltwiseParam(OrOp op, OpCall &call) { kindParam(op, call, "LOGICAL_PARAM", "LOGICAL_OR"); }
void eltwiseParam(XorOp op, OpCall &call) { kindParam(op, call, "LOGICAL_PARAM", "LOGICAL_XOR"); }

/// An elementwise op costing `Cost`, run by OpLib's `Kernel` (nullptr: none). Its CT kernel works in any
/// layout as long as all tensors share it; the output may overwrite the first input when they have the same
/// type (no broadcast, no dtype change). The binary kernels broadcast (kernelBroadcasts; their operands' views
/// are broadcastOperandView); the unary ones need their operand of the result's type.
template <typename OpT, CtCost Cost, const char *Kernel>
struct EltwiseModel : OpLibModel<EltwiseModel<OpT, Cost, Kernel>, OpT> {
  SmallVector<int64_t> getOpLibViewShape(Operation *op, unsigned index, ArrayRef<int64_t> deviceShape) const {
    if constexpr (Kernel != nullptr) {
      if (kernelBroadcasts(Kernel) && index < op->getNumOperands() &&
          cast<ShapedType>(op->getOperand(index).getType()).getShape() !=
              cast<ShapedType>(op->getResult(0).getType()).getShape())
        return broadcastOperandView(op, index, deviceShape);
    }
    return defaultOpLibViewShape(deviceShape);
  }
  static void properties(OpT, OpAttr &attr) {
    attr.alignMode = NPU_BOTH;
    attr.engine = NPU_ENGINE_CT;
    attr.anyDimOrder = true;
  }
  static uint64_t cycles(OpT, const CycleInputs &in) {
    switch (Cost) {
    case CtCost::OnePass:
      return in.est.ct(in.outElems, in.bytes);
    case CtCost::TwoPasses:
      return in.est.ct(in.outElems, in.bytes, 2);
    case CtCost::Transcendental:
      return in.est.ctTranscendental(in.outElems, in.bytes);
    }
    return 0;
  }
  LogicalResult genOpCode(Operation *op, OpCall &call) const {
    if constexpr (Kernel == nullptr) {
      return noKernel(op);
    } else {
      // The operands share one element type: the result's, or a comparison's operand type (its result is bool).
      Type type = op->getResult(0).getType();
      Type element = getElementTypeOrSelf(Kernel == kOpCompare ? op->getOperand(0).getType() : type);
      for (auto [index, v] : llvm::enumerate(op->getOperands())) {
        if (getElementTypeOrSelf(v.getType()) != element)
          return op->emitOpError() << "has no OpLib kernel: " << Kernel
                                   << " needs every operand of one element type (no dtype change)";
        if (cast<ShapedType>(v.getType()).getShape() == cast<ShapedType>(type).getShape())
          continue;
        if (!kernelBroadcasts(Kernel))
          return op->emitOpError() << "has no OpLib kernel: " << Kernel << " does not broadcast";
        if (std::string problem = broadcastProblem(op, static_cast<unsigned>(index)); !problem.empty())
          return op->emitOpError() << "has no OpLib kernel: " << problem;
      }
      // eltwise_prepare's formats: what the kernel would fault on at run time is refused here.
      if (!kernelTakes(Kernel, element))
        return op->emitOpError() << "has no OpLib kernel: " << Kernel << " takes " << kernelTypesText(Kernel)
                                 << ", not " << element;
      call.function = Kernel;
      eltwiseParam(cast<OpT>(op), call);
      operandsThenResults(op, call);
      return success();
    }
  }
};

/// Activations with fp32 parameters (op_leaky_relu, op_clip, op_hard_sigmoid): one operand of the result's type, a
/// float format, any layout; `Passes` CT passes over the output. ConcreteModel names the kernel and its param
/// struct and fills the scalars.
template <typename ConcreteModel, typename OpT, unsigned Passes>
struct ScalarActModel : OpLibModel<ConcreteModel, OpT> {
  static void properties(OpT, OpAttr &attr) {
    attr.alignMode = NPU_BOTH;
    attr.engine = NPU_ENGINE_CT;
    attr.anyDimOrder = true;
  }
  static uint64_t cycles(OpT, const CycleInputs &in) { return in.est.ct(in.outElems, in.bytes, Passes); }
  /// What the kernel refuses beyond the checks below (none by default).
  static LogicalResult check(OpT) { return success(); }
  LogicalResult genOpCode(Operation *op, OpCall &call) const {
    Type type = op->getResult(0).getType();
    const char *kernel = ConcreteModel::kKernel;
    if (op->getOperand(0).getType() != type)
      return op->emitOpError() << "has no OpLib kernel: " << kernel << " needs its input of the result's type";
    if (!isCtFloat(type))
      return op->emitOpError() << "has no OpLib kernel: " << kernel << " takes f32, f16 or bf16, not "
                               << getElementTypeOrSelf(type);
    if (failed(ConcreteModel::check(cast<OpT>(op))))
      return failure();
    call.function = ConcreteModel::kKernel;
    call.paramType = ConcreteModel::kParam;
    call.field("layout", layoutOf(op)).field("rnd", OpCallValue::ofEnumerator("RND_NEAREST_EVEN"));
    ConcreteModel::scalars(cast<OpT>(op), call);
    operandsThenResults(op, call);
    return success();
  }
};

struct LeakyReluModel : ScalarActModel<LeakyReluModel, LeakyReluOp, 1> {
  static constexpr const char *kKernel = "op_leaky_relu", *kParam = "LEAKY_RELU_PARAM";
  static void scalars(LeakyReluOp op, OpCall &call) {
    call.field("alpha", OpCallValue::ofFloat(op.getAlpha().convertToFloat()));
  }
};

/// An infinite bound is no bound (has_min / has_max 0): generated C spells no infinity.
struct ClipModel : ScalarActModel<ClipModel, ClipOp, 2> {
  static constexpr const char *kKernel = "op_clip", *kParam = "CLIP_PARAM";
  static void scalars(ClipOp op, OpCall &call) {
    float lo = op.getMin().convertToFloat(), hi = op.getMax().convertToFloat();
    bool hasMin = !(std::isinf(lo) && lo < 0), hasMax = !(std::isinf(hi) && hi > 0);
    call.field("has_min", OpCallValue::ofInt(hasMin)).field("has_max", OpCallValue::ofInt(hasMax));
    if (hasMin)
      call.field("min", OpCallValue::ofFloat(lo));
    if (hasMax)
      call.field("max", OpCallValue::ofFloat(hi));
  }
};

struct HardSigmoidModel : ScalarActModel<HardSigmoidModel, HardSigmoidOp, 4> {
  static constexpr const char *kKernel = "op_hard_sigmoid", *kParam = "HARD_SIGMOID_PARAM";
  static void scalars(HardSigmoidOp op, OpCall &call) {
    call.field("alpha", OpCallValue::ofFloat(op.getAlpha().convertToFloat()))
        .field("beta", OpCallValue::ofFloat(op.getBeta().convertToFloat()));
  }
};

/// op_unary's fp32 parameters (UNARY_PARAM alpha, beta) of an op; 0 where the op has none.
template <typename OpT> std::pair<float, float> unaryScalars(OpT) { return {0.f, 0.f}; }
std::pair<float, float> unaryScalars(EluOp op) { return {op.getAlpha().convertToFloat(), 0.f}; }
std::pair<float, float> unaryScalars(CeluOp op) { return {op.getAlpha().convertToFloat(), 0.f}; }
std::pair<float, float> unaryScalars(ThresholdedReluOp op) { return {op.getAlpha().convertToFloat(), 0.f}; }
std::pair<float, float> unaryScalars(SeluOp op) {
  return {op.getAlpha().convertToFloat(), op.getGamma().convertToFloat()};
}
std::pair<float, float> unaryScalars(ShrinkOp op) {
  return {op.getLambd().convertToFloat(), op.getBias().convertToFloat()};
}

/// What op_unary cannot do for an op it otherwise takes.
template <typename OpT> LogicalResult unaryCheck(OpT) { return success(); }
LogicalResult unaryCheck(GeluOp op) {
  if (op.getApproximate() == "none" || op.getApproximate() == "tanh")
    return success();
  return op.emitOpError() << "has no OpLib kernel: op_unary computes Gelu exactly (erf) or as its tanh "
                             "approximation, not approximate = "
                          << op.getApproximate();
}

/// The UNARY_KIND of an op: the family's, but Gelu's tanh approximation is a kind of its own.
template <typename OpT> const char *unaryKind(OpT, const char *kind) { return kind; }
const char *unaryKind(GeluOp op, const char *kind) {
  return op.getApproximate() == "tanh" ? kUnaryGeluTanh : kind;
}

/// op_unary: one CT instruction of UNARY_KIND `Kind` over the tensor (transcendental ones cost as such).
template <typename OpT, const char *Kind, CtCost Cost>
struct UnaryKernelModel : ScalarActModel<UnaryKernelModel<OpT, Kind, Cost>, OpT, 1> {
  static constexpr const char *kKernel = "op_unary", *kParam = "UNARY_PARAM";
  static uint64_t cycles(OpT, const CycleInputs &in) {
    return Cost == CtCost::Transcendental ? in.est.ctTranscendental(in.outElems, in.bytes)
                                          : in.est.ct(in.outElems, in.bytes);
  }
  static LogicalResult check(OpT op) { return unaryCheck(op); }
  static void scalars(OpT op, OpCall &call) {
    auto [alpha, beta] = unaryScalars(op);
    call.field("kind", OpCallValue::ofEnumerator(unaryKind(op, Kind)))
        .field("alpha", OpCallValue::ofFloat(alpha))
        .field("beta", OpCallValue::ofFloat(beta));
  }
};

/// The element types op_cast converts between (a bool is int8 0/1 on the device).
bool castable(Type type) {
  Type e = getElementTypeOrSelf(type);
  return isCtFloat(e) || isCtInteger(e) || e.isSignlessInteger(64) || e.isInteger(1) || e.isUnsignedInteger(8);
}

/// Cast: op_cast, one CT convert over the tensor in a compact layout (floats rounded to nearest even, floats to
/// integers truncated and saturated, integers narrowed saturating); to a bool, a compare with 0 (to_bool).
struct CastModel : OpLibModel<CastModel, CastOp> {
  static void properties(CastOp, OpAttr &attr) {
    attr.alignMode = NPU_COMPACT;
    attr.engine = NPU_ENGINE_CT;
    attr.anyDimOrder = true;
  }
  static uint64_t cycles(CastOp, const CycleInputs &in) { return in.est.ct(in.outElems, in.bytes); }
  LogicalResult genOpCode(Operation *op, OpCall &call) const {
    Value in = op->getOperand(0), out = op->getResult(0);
    if (!castable(in.getType()) || !castable(out.getType()))
      return op->emitOpError() << "has no OpLib kernel: op_cast converts between f32, f16, bf16, i8, ui8, i32, "
                                  "i64 and bool, not "
                               << getElementTypeOrSelf(in.getType()) << " to " << getElementTypeOrSelf(out.getType());
    if (cast<ShapedType>(in.getType()).getShape() != cast<ShapedType>(out.getType()).getShape() ||
        operandReadLayout(op, 0) != getDeviceLayout(out) || !isCompactLayout(getDeviceLayout(out).mode))
      return op->emitOpError() << "has no OpLib kernel: op_cast keeps the shape and a compact layout";
    bool toBool = getElementTypeOrSelf(out.getType()).isInteger(1) && !getElementTypeOrSelf(in.getType()).isInteger(1);
    call.function = "op_cast";
    call.paramType = "CAST_PARAM";
    call.field("layout", layoutOf(op)).field("to_bool", OpCallValue::ofInt(toBool ? 1 : 0));
    operandsThenResults(op, call);
    return success();
  }
};

/// Where: op_where, one CT select per chunk; the condition, x, y and the result of one shape (no broadcasting),
/// x and y of one element type the CT selects (floats, int8, int32), any layout.
struct WhereModel : OpLibModel<WhereModel, WhereOp> {
  static void properties(WhereOp, OpAttr &attr) {
    attr.alignMode = NPU_BOTH;
    attr.engine = NPU_ENGINE_CT;
    attr.anyDimOrder = true;
  }
  static uint64_t cycles(WhereOp, const CycleInputs &in) { return in.est.ct(in.outElems, in.bytes); }
  LogicalResult genOpCode(Operation *op, OpCall &call) const {
    auto shape = cast<ShapedType>(op->getResult(0).getType()).getShape();
    for (Value v : op->getOperands())
      if (cast<ShapedType>(v.getType()).getShape() != shape)
        return op->emitOpError() << "has no OpLib kernel: op_where takes a condition, x and y of the result's shape "
                                    "(no broadcasting)";
    Type element = getElementTypeOrSelf(op->getResult(0).getType());
    if (!isCtFloat(element) && !isCtInteger(element))
      return op->emitOpError() << "has no OpLib kernel: op_where selects f32, f16, bf16, i8 or i32, not " << element;
    call.function = "op_where";
    call.paramType = "WHERE_PARAM";
    call.field("layout", layoutOf(op));
    operandsThenResults(op, call);
    return success();
  }
};

/// QuantizeLinear / DequantizeLinear: op_quantize_linear / op_dequantize_linear, a few CT instructions per broadcast
/// run (tx8/ops.h). x and the result of one shape in a compact layout; scale and zero point broadcast to it as a
/// broadcasting kernel's operands do (broadcastOperandView, broadcastProblem); an imm TSR for the work image.
template <typename OpT, bool Dequantize>
struct QuantizeLinearModel : OpLibModel<QuantizeLinearModel<OpT, Dequantize>, OpT> {
  static constexpr const char *kKernel = Dequantize ? "op_dequantize_linear" : "op_quantize_linear";
  SmallVector<int64_t> getOpLibViewShape(Operation *op, unsigned index, ArrayRef<int64_t> deviceShape) const {
    if ((index == 1 || index == 2) && cast<ShapedType>(op->getOperand(index).getType()).getShape() !=
                                          cast<ShapedType>(op->getResult(0).getType()).getShape())
      return broadcastOperandView(op, index, deviceShape);
    return defaultOpLibViewShape(deviceShape);
  }
  static void properties(OpT, OpAttr &attr) {
    attr.alignMode = NPU_COMPACT;
    attr.engine = NPU_ENGINE_CT;
    attr.anyDimOrder = true;
  }
  /// quantize: div, convert, add, convert (and the zero point's convert); dequantize: convert, sub, mul.
  static uint64_t cycles(OpT, const CycleInputs &in) {
    return Dequantize ? in.est.ct(in.outElems, 4, 3) : in.est.ct(in.outElems, 4, 4);
  }
  /// The kernel's scratch depends on the element counts of x's and scale's slices only.
  uint32_t getImmSpSize(Operation *op, const tx8_hw_config &hw, ArrayRef<int64_t> slice) const {
    auto x = cast<ShapedType>(op->getOperand(0).getType()), scale = cast<ShapedType>(op->getOperand(1).getType());
    if (!x.hasStaticShape() || !scale.hasStaticShape())
      return 0;
    SmallVector<int64_t> xs(x.getShape());
    if (slice.size() == xs.size())
      xs.assign(slice.begin(), slice.end());
    int64_t offset = x.getRank() - scale.getRank(), xElems = 1, scaleElems = 1;
    for (int64_t d = 0; d < x.getRank(); ++d) {
      xElems *= xs[d];
      if (d >= offset && scale.getShape()[d - offset] != 1)
        scaleElems *= xs[d];
    }
    if (xElems > INT32_MAX || scaleElems > INT32_MAX)
      return 0;
    int32_t xView[2] = {1, static_cast<int32_t>(xElems)}, sView[2] = {1, static_cast<int32_t>(scaleElems)};
    L_SHAPE xShape, sShape;
    if (tx8_lshape_init(&xShape, xView, 2) != 0 || tx8_lshape_init(&sShape, sView, 2) != 0)
      return 0;
    TSR xt{Fmt_FP32, 0, &xShape}, st{Fmt_FP32, 0, &sShape};
    QUANTIZE_PARAM param{static_cast<LAYOUT_MODE>(resultLayout(op))};
    uint64_t bytes = Dequantize ? op_dequantize_linear_imm_size(&hw, &param, &xt, &st)
                                : op_quantize_linear_imm_size(&hw, &param, &xt, &st);
    return bytes > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(bytes);
  }
  LogicalResult genOpCode(Operation *op, OpCall &call) const {
    Value out = op->getResult(0);
    if (cast<ShapedType>(op->getOperand(0).getType()).getShape() != cast<ShapedType>(out.getType()).getShape() ||
        operandReadLayout(op, 0) != getDeviceLayout(out) || !isCompactLayout(getDeviceLayout(out).mode))
      return op->emitOpError() << "has no OpLib kernel: " << kKernel
                               << " keeps the input's shape and dim order in a compact layout";
    for (unsigned index : {1u, 2u})
      if (cast<ShapedType>(op->getOperand(index).getType()).getShape() != cast<ShapedType>(out.getType()).getShape())
        if (std::string problem = broadcastProblem(op, index); !problem.empty())
          return op->emitOpError() << "has no OpLib kernel: " << problem;
    call.function = kKernel;
    call.paramType = "QUANTIZE_PARAM";
    call.field("layout", layoutOf(op));
    call.arg(ArgKind::Operand, 0).arg(ArgKind::Operand, 1).arg(ArgKind::Operand, 2).arg(ArgKind::Imm);
    call.arg(ArgKind::Result, 0);
    return success();
  }
};

template <CtCost Cost, const char *Kernel, typename... OpTs>
void attachEltwise(MLIRContext *ctx) {
  (OpTs::template attachInterface<EltwiseModel<OpTs, Cost, Kernel>>(*ctx), ...);
}

template <CtCost Cost, const char *Kind, typename OpT>
void attachUnaryKernel(MLIRContext *ctx) {
  OpT::template attachInterface<UnaryKernelModel<OpT, Kind, Cost>>(*ctx);
}

//===----------------------------------------------------------------------===//
// Gemm / MatMul: op_gemm on the NE
//===----------------------------------------------------------------------===//

/// What op_gemm / op_conv write for operands of `in`'s element type: fp32, or int32 for int8.
bool neWritesResult(Type in, Type out) {
  Type i = getElementTypeOrSelf(in), o = getElementTypeOrSelf(out);
  return i.isSignlessInteger(8) ? o.isSignlessInteger(32) : o.isF32();
}

/// op_gemm works on compact row-major tensors.
template <typename ConcreteModel, typename OpT>
struct MatrixModel : OpLibModel<ConcreteModel, OpT> {
  static void properties(OpT, OpAttr &attr) {
    attr.alignMode = NPU_COMPACT;
    attr.engine = NPU_ENGINE_NE;
  }
};

/// op_gemm: out = a x b (+ bias[N]) with fp32 output, so ONNX Gemm maps onto it without transposes or scaling
/// and with a C that is a row vector.
struct GemmModel : MatrixModel<GemmModel, GemmOp> {
  static uint64_t cycles(GemmOp gemm, const CycleInputs &in) {
    auto a = gemm.getA().getType().getShape();
    uint64_t k = static_cast<uint64_t>(gemm.getTransA() ? a[0] : a[1]);
    return in.est.ne(in.outElems * k, in.elementType);
  }
  LogicalResult genOpCode(Operation *operation, OpCall &call) const {
    auto op = cast<GemmOp>(operation);
    if (std::string problem = gemmFormProblem(op); !problem.empty())
      return op.emitOpError() << "has no OpLib kernel: " << problem;
    if (!op.getOutput().getType().getElementType().isF32())
      return op.emitOpError() << "has no OpLib kernel: op_gemm writes fp32";
    call.function = "op_gemm";
    call.paramType = "GEMM_PARAM";
    call.field("accumulate", OpCallValue::ofStepAccumulate()).field("relu_en", OpCallValue::ofInt(0));
    call.arg(ArgKind::Operand, 0).arg(ArgKind::Operand, 1);
    if (op.getC())
      call.arg(ArgKind::Operand, 2);
    else
      call.arg(ArgKind::Null);
    call.arg(ArgKind::Result, 0);
    return success();
  }
};

/// MatMul is op_gemm without bias. A batched one (numpy matmul, batch dims broadcasting) is one op_gemm call per
/// step on the step's boxes: op_gemm multiplies every matrix of its out by the matrices of a and b at that batch
/// index (a batch dim of extent 1 broadcast), so a step's box may hold any number of matrices.
struct MatMulModel : MatrixModel<MatMulModel, MatMulOp> {
  static uint64_t cycles(MatMulOp mm, const CycleInputs &in) {
    ArrayRef<int64_t> out = mm.getOutput().getType().getShape();
    uint64_t k = static_cast<uint64_t>(mm.getA().getType().getShape().back());
    uint64_t matrices = product(out.drop_back(2));
    // One NE problem per matrix (op_gemm's batch loop), each paying the start-up; at the operands' rate (int8).
    return matrices * in.est.ne(product(out.take_back(2)) * k, mm.getA().getType().getElementType());
  }
  LogicalResult genOpCode(Operation *operation, OpCall &call) const {
    auto op = cast<MatMulOp>(operation);
    if (!neWritesResult(op.getA().getType(), op.getOutput().getType()))
      return op.emitOpError() << "has no OpLib kernel: op_gemm writes fp32 (int32 for int8 operands)";
    if (op.getOutput().getType().getRank() > MAX_SHAPE_DIM)
      return op.emitOpError() << "has no OpLib kernel: op_gemm takes at most " << MAX_SHAPE_DIM << " dims";
    // op_gemm reads and writes compact row-major matrices (the layout passes keep a MatMul's order the identity).
    for (unsigned i = 0; i <= op->getNumOperands(); ++i) {
      DeviceLayout layout = i < op->getNumOperands() ? operandReadLayout(op, i) : getDeviceLayout(op.getOutput());
      if (!isCompactLayout(layout.mode) || !layout.isIdentityOrder())
        return op.emitOpError() << "has no OpLib kernel: op_gemm reads compact row-major operands and writes a "
                                   "compact row-major result";
    }
    call.function = "op_gemm";
    call.paramType = "GEMM_PARAM";
    call.field("accumulate", OpCallValue::ofStepAccumulate()).field("relu_en", OpCallValue::ofInt(0));
    call.arg(ArgKind::Operand, 0).arg(ArgKind::Operand, 1).arg(ArgKind::Null).arg(ArgKind::Result, 0);
    return success();
  }
  /// op_gemm takes a, b and out with one dim count: an operand of lower rank gets leading batch dims of 1 (numpy
  /// aligns batch dims from the right).
  SmallVector<int64_t> getOpLibViewShape(Operation *operation, unsigned, ArrayRef<int64_t> deviceShape) const {
    size_t rank = static_cast<size_t>(cast<MatMulOp>(operation).getOutput().getType().getRank());
    SmallVector<int64_t> view(rank > deviceShape.size() ? rank - deviceShape.size() : 0, 1);
    view.append(deviceShape.begin(), deviceShape.end());
    return view;
  }
};

//===----------------------------------------------------------------------===//
// Attention: op_attention on the NE and the CT
//===----------------------------------------------------------------------===//

/// op_attention (tx8/ops.h): FlashAttention's blocks of <= 128 query rows and <= 128 keys; a step holds K and V
/// whole for its batch box (Sharding.cpp), so a step's box is [batch..., Sq part, Dv].
struct AttentionModel : MatrixModel<AttentionModel, AttentionOp> {
  static constexpr int64_t kBlock = 128; // attention_plan.c's ATTN_MAX_BQ / ATTN_MAX_BK

  /// What the kernel issues, instruction by instruction in kind: per k matrix the NE transposes k (Bk*Bk*D MACs
  /// a block); per (query block, key block) two NE products and the online softmax's CT passes over the
  /// [Bq, Bk] fp32 scores (scale, mask, max, subtract, exp, sum, narrowing), the TDMA broadcasts of the row
  /// values, O's rescale; per query block 1 / l and the final scaling. Causal blocks past the diagonal are
  /// skipped (about half).
  static uint64_t cycles(AttentionOp op, const CycleInputs &in) {
    return sliceCycles(op, op.getOutput().getType().getShape(), in.est, in.elementType);
  }
  /// One execution on an output slice: its own query blocks (a slice of 13 queries runs 13-row blocks, each
  /// paying every instruction's start-up).
  uint64_t getSliceClockCycle(Operation *operation, const tx8_hw_config &hw, ArrayRef<int64_t> slice) const {
    auto op = cast<AttentionOp>(operation);
    auto out = op.getOutput().getType();
    if (!out.hasStaticShape() || !op.getK().getType().hasStaticShape() || slice.size() != out.getShape().size() ||
        llvm::any_of(slice, [](int64_t n) { return n <= 0; }))
      return 0;
    return sliceCycles(op, slice, CycleEstimate{hw}, out.getElementType());
  }
  static uint64_t sliceCycles(AttentionOp op, ArrayRef<int64_t> out, const CycleEstimate &est, Type outElement) {
    ArrayRef<int64_t> k = op.getK().getType().getShape();
    Type qe = op.getQ().getType().getElementType();
    const uint64_t sq = out[out.size() - 2], dv = out.back(), skv = k[k.size() - 2], d = k.back();
    const uint64_t matrices = product(out.drop_back(2));
    const uint64_t bq = std::min<uint64_t>(sq, kBlock), bk = std::min<uint64_t>(skv, kBlock);
    const uint64_t nq = ceilDiv(sq, bq), nk = ceilDiv(skv, bk), blk = bq * bk;
    const bool narrow = !qe.isF32(), mask = static_cast<bool>(op.getMask());
    const unsigned mb = mask ? elementBytes(op.getMask().getType()) : 4;
    uint64_t perBlock = est.ne(blk * d, qe) + est.ne(blk * dv, qe) + est.ct(blk, 4, 3 + (narrow ? 1 : 0)) +
                        est.ctTranscendental(blk, 4) + est.tdma(blk * 4) + est.ct(bq * dv, 4) +
                        est.tdma(bq * dv * 4) + est.ct(bq, 4, 3) + est.ctTranscendental(bq, 4);
    if (op.getScale().convertToFloat() != 1.0f)
      perBlock += est.ct(blk, 4);
    if (mask)
      perBlock += est.tdma(blk * mb) + est.ct(blk, 4, mb == 4 ? 1 : 2) + est.ct(bq, 4);
    if (op.getCausal())
      perBlock += est.ct(blk, 4, 2);
    uint64_t blocks = nq * nk;
    if (op.getCausal())
      blocks = (blocks + std::min(nq, nk)) / 2 + 1;
    uint64_t transpose = nk * (est.ne(d * bk * bk, qe) + (narrow ? est.ct(d * bk, 4) : 0));
    uint64_t finish = nq * (est.ctTranscendental(bq, 4) + est.ct(bq * dv, 4) + est.tdma(bq * dv * 4) +
                            (outElement.isF32() ? 0 : est.ct(bq * dv, 4)));
    return matrices * (transpose + blocks * perBlock + finish);
  }
  LogicalResult genOpCode(Operation *operation, OpCall &call) const {
    auto op = cast<AttentionOp>(operation);
    Type qe = op.getQ().getType().getElementType(), oe = op.getOutput().getType().getElementType();
    if (!qe.isF32() && !qe.isBF16() && !qe.isF16())
      return op.emitOpError() << "has no OpLib kernel: op_attention takes f32, bf16 or f16 Q, K and V";
    if (!oe.isF32() && oe != qe)
      return op.emitOpError() << "has no OpLib kernel: op_attention writes f32 or Q's element type";
    if (op.getOutput().getType().getRank() > MAX_SHAPE_DIM)
      return op.emitOpError() << "has no OpLib kernel: op_attention takes at most " << MAX_SHAPE_DIM << " dims";
    for (unsigned i = 0; i <= op->getNumOperands(); ++i) {
      DeviceLayout layout = i < op->getNumOperands() ? operandReadLayout(op, i) : getDeviceLayout(op.getOutput());
      if (!isCompactLayout(layout.mode) || !layout.isIdentityOrder())
        return op.emitOpError() << "has no OpLib kernel: op_attention reads compact row-major operands and "
                                   "writes a compact row-major result";
    }
    call.function = "op_attention";
    call.paramType = "ATTENTION_PARAM";
    call.field("scale", OpCallValue::ofFloat(op.getScale().convertToFloat()))
        .field("causal", OpCallValue::ofInt(op.getCausal() ? 1 : 0));
    call.arg(ArgKind::Operand, 0).arg(ArgKind::Operand, 1).arg(ArgKind::Operand, 2);
    if (op.getMask())
      call.arg(ArgKind::Operand, 3);
    else
      call.arg(ArgKind::Null);
    call.arg(ArgKind::Imm).arg(ArgKind::Result, 0);
    return success();
  }
  /// Every operand at the result's rank with leading 1s (op_attention takes one dim count).
  SmallVector<int64_t> getOpLibViewShape(Operation *operation, unsigned, ArrayRef<int64_t> deviceShape) const {
    size_t rank = static_cast<size_t>(cast<AttentionOp>(operation).getOutput().getType().getRank());
    SmallVector<int64_t> view(rank > deviceShape.size() ? rank - deviceShape.size() : 0, 1);
    view.append(deviceShape.begin(), deviceShape.end());
    return view;
  }
  /// The scratch depends on one matrix's extents (a step's Sq part, Skv, D, Dv), the formats, the mask and
  /// causal: op_attention_imm_size on 2-D views of them.
  uint32_t getImmSpSize(Operation *operation, const tx8_hw_config &hw, ArrayRef<int64_t> slice) const {
    auto op = cast<AttentionOp>(operation);
    if (!op.getOutput().getType().hasStaticShape() || !op.getK().getType().hasStaticShape())
      return 0;
    ArrayRef<int64_t> out = op.getOutput().getType().getShape(), k = op.getK().getType().getShape();
    int64_t sq = slice.size() == out.size() ? slice[slice.size() - 2] : out[out.size() - 2];
    auto qf = dataFormatOf(op.getQ().getType().getElementType());
    auto of = dataFormatOf(op.getOutput().getType().getElementType());
    if (!qf || !of)
      return 0;
    const int32_t qs[2] = {static_cast<int32_t>(sq), static_cast<int32_t>(k.back())};
    const int32_t ks[2] = {static_cast<int32_t>(k[k.size() - 2]), static_cast<int32_t>(k.back())};
    const int32_t vs[2] = {static_cast<int32_t>(k[k.size() - 2]), static_cast<int32_t>(out.back())};
    const int32_t os[2] = {static_cast<int32_t>(sq), static_cast<int32_t>(out.back())};
    L_SHAPE lq, lk, lv, lo;
    if (tx8_lshape_init(&lq, qs, 2) || tx8_lshape_init(&lk, ks, 2) || tx8_lshape_init(&lv, vs, 2) ||
        tx8_lshape_init(&lo, os, 2))
      return 0;
    TSR q{*qf, 0, &lq}, kt{*qf, 0, &lk}, v{*qf, 0, &lv}, o{*of, 0, &lo}, m{Fmt_FP32, 0, &lk};
    if (Value mask = op.getMask()) {
      auto mf = dataFormatOf(getElementTypeOrSelf(mask.getType()));
      if (!mf)
        return 0;
      m.format = *mf;
    }
    ATTENTION_PARAM param{op.getScale().convertToFloat(), op.getCausal() ? 1u : 0u};
    uint64_t bytes = op_attention_imm_size(&hw, &param, &q, &kt, &v, op.getMask() ? &m : nullptr, &o);
    return bytes > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(bytes);
  }
};

//===----------------------------------------------------------------------===//
// Conv / ConvTranspose: the NE
//===----------------------------------------------------------------------===//

/// op_conv reads compact NHWC feature maps (an NHWC instruction config).
template <typename ConcreteModel, typename OpT>
struct ConvFamilyModel : OpLibModel<ConcreteModel, OpT> {
  static void properties(OpT, OpAttr &attr) {
    attr.alignMode = NPU_COMPACT;
    attr.needPresetToNPU = true;
    attr.engine = NPU_ENGINE_NE;
  }
};

/// op_conv on the NE: 1-D / 2-D, fp32 output (the NE accumulates in fp32).
struct ConvModel : ConvFamilyModel<ConvModel, ConvOp> {
  static uint64_t cycles(ConvOp conv, const CycleInputs &in) {
    // Each output element: C/group input channels x kernel volume MACs.
    auto w = conv.getWeight().getType().getShape();
    return in.est.ne(in.outElems * product(w.drop_front()), conv.getInput().getType().getElementType());
  }
  LogicalResult genOpCode(Operation *operation, OpCall &call) const {
    auto op = cast<ConvOp>(operation);
    int64_t spatial = op.getInput().getType().getRank() - 2;
    if (spatial < 1 || spatial > 2)
      return op.emitOpError() << "has no OpLib kernel: op_conv is 1-D or 2-D";
    if (!neWritesResult(op.getInput().getType(), op.getOutput().getType()))
      return op.emitOpError() << "has no OpLib kernel: op_conv writes fp32 (int32 for int8 operands)";
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
        .field("accumulate", OpCallValue::ofStepAccumulate())
        .field("relu_en", OpCallValue::ofInt(0));
    call.arg(ArgKind::Operand, 0).arg(ArgKind::Operand, 1);
    if (op.getBias())
      call.arg(ArgKind::Operand, 2);
    else
      call.arg(ArgKind::Null);
    call.arg(ArgKind::Result, 0);
    return success();
  }
};

/// No OpLib kernel.
struct ConvTransposeModel : ConvFamilyModel<ConvTransposeModel, ConvTransposeOp> {
  static uint64_t cycles(ConvTransposeOp conv, const CycleInputs &in) {
    // Each input element scatters into O/group output channels x kernel volume.
    auto w = conv.getWeight().getType().getShape();
    return in.est.ne(in.inElems * product(w.drop_front()), in.elementType);
  }
};

//===----------------------------------------------------------------------===//
// Pooling: the CT pooling instruction
//===----------------------------------------------------------------------===//

/// The CT pooling instruction takes NHWC in any layout.
template <typename ConcreteModel, typename OpT>
struct PoolFamilyModel : OpLibModel<ConcreteModel, OpT> {
  static void properties(OpT, OpAttr &attr) {
    attr.alignMode = NPU_BOTH;
    attr.needPresetToNPU = true;
  }
};

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

/// One pass over the output per kernel tap.
struct MaxPoolModel : PoolFamilyModel<MaxPoolModel, MaxPoolOp> {
  static uint64_t cycles(MaxPoolOp pool, const CycleInputs &in) {
    return in.est.ct(in.outElems, in.bytes, product(pool.getKernelShape()));
  }
  LogicalResult genOpCode(Operation *op, OpCall &call) const {
    return genPool(cast<MaxPoolOp>(op), "op_maxpool", false, call);
  }
};

/// One pass over the output per kernel tap, and one divide.
struct AvgPoolModel : PoolFamilyModel<AvgPoolModel, AvgPoolOp> {
  static uint64_t cycles(AvgPoolOp pool, const CycleInputs &in) {
    return in.est.ct(in.outElems, in.bytes, product(pool.getKernelShape())) + in.est.ct(in.outElems, in.bytes);
  }
  LogicalResult genOpCode(Operation *op, OpCall &call) const {
    auto pool = cast<AvgPoolOp>(op);
    return genPool(pool, "op_avgpool", pool.getCountIncludePad(), call);
  }
};

/// Global pooling: one CT pass over the input. GlobalAvgPool is op_global_avgpool (2-D); GlobalMaxPool has
/// no kernel.
constexpr char kOpGlobalAvgPool[] = "op_global_avgpool";

template <typename OpT, const char *Kernel>
struct GlobalPoolModel : PoolFamilyModel<GlobalPoolModel<OpT, Kernel>, OpT> {
  static uint64_t cycles(OpT, const CycleInputs &in) { return in.est.ct(in.inElems, in.bytes); }
  LogicalResult genOpCode(Operation *operation, OpCall &call) const {
    if constexpr (Kernel == nullptr) {
      return noKernel(operation);
    } else {
      auto op = cast<OpT>(operation);
      if (op.getInput().getType().getRank() != 4)
        return op.emitOpError() << "has no OpLib kernel: " << Kernel << " is 2-D";
      call.function = Kernel;
      call.paramType = "GLOBAL_POOL_PARAM";
      call.field("layout", layoutOf(op));
      operandsThenResults(op, call);
      return success();
    }
  }
};
template <typename OpT>
using GlobalAvgPoolModel = GlobalPoolModel<OpT, kOpGlobalAvgPool>;
template <typename OpT>
using GlobalPoolNoKernelModel = GlobalPoolModel<OpT, nullptr>;

//===----------------------------------------------------------------------===//
// Normalisation along an axis (Softmax, LogSoftmax), LayerNorm, reductions: compact CT
//===----------------------------------------------------------------------===//

/// Softmax-like: max, subtract, sum; exp and divide (LogSoftmax: log) are transcendental. OpLib sees the
/// tensor as rows (L the innermost dim in memory, rows()).
template <typename ConcreteModel, typename OpT>
struct AxisNormFamilyModel : OpLibModel<ConcreteModel, OpT> {
  static void properties(OpT, OpAttr &attr) { attr.alignMode = NPU_COMPACT; }
  static uint64_t cycles(OpT, const CycleInputs &in) {
    return in.est.ct(in.outElems, in.bytes, 3) + in.est.ctTranscendental(in.outElems, in.bytes, 2);
  }
  /// [R][L], or [N][R / N][L] from rank 3 on: the outermost dim stays its own, since the layout (Tensor needs
  /// it to be 1) is the whole tensor's.
  static SmallVector<int64_t> rows(ArrayRef<int64_t> deviceShape) {
    int64_t r = 1;
    for (size_t i = 1; i + 1 < deviceShape.size(); ++i)
      r *= deviceShape[i];
    if (deviceShape.size() >= 3)
      return {deviceShape.front(), r, deviceShape.back()};
    return {deviceShape.size() == 2 ? deviceShape.front() : 1, deviceShape.empty() ? 1 : deviceShape.back()};
  }
  SmallVector<int64_t> getOpLibViewShape(Operation *, unsigned, ArrayRef<int64_t> deviceShape) const {
    return rows(deviceShape);
  }
};

/// op_softmax normalises the innermost dim: the axis must be the last in device memory. It needs an imm TSR.
struct SoftmaxModel : AxisNormFamilyModel<SoftmaxModel, SoftmaxOp> {
  uint32_t getImmSpSize(Operation *op, const tx8_hw_config &hw, ArrayRef<int64_t> slice) const {
    auto softmax = cast<SoftmaxOp>(op);
    if (!softmax.getInput().getType().hasStaticShape())
      return 0;
    SmallVector<int64_t> shape(softmax.getInput().getType().getShape());
    if (slice.size() == shape.size()) // the input slice is the output slice
      shape.assign(slice.begin(), slice.end());
    auto format = dataFormatOf(softmax.getInput().getType().getElementType());
    if (!format)
      return 0;
    SmallVector<int64_t> view = rows(toDeviceOrder(shape, operandReadLayout(softmax, 0).order));
    SmallVector<int32_t> view32(view.begin(), view.end());
    L_SHAPE lshape;
    if (tx8_lshape_init(&lshape, view32.data(), static_cast<int32_t>(view32.size())) != 0)
      return 0;
    TSR in{*format, 0, &lshape};
    SOFTMAX_PARAM param{static_cast<LAYOUT_MODE>(resultLayout(op))};
    uint64_t bytes = op_softmax_imm_size(&hw, &param, &in);
    return bytes > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(bytes);
  }
  LogicalResult genOpCode(Operation *operation, OpCall &call) const {
    auto op = cast<SoftmaxOp>(operation);
    int64_t rank = op.getInput().getType().getRank();
    DeviceLayout layout = operandReadLayout(op, 0);
    if (layout.order.empty() || layout.order.back() != normalizeAxis(op.getAxis(), rank))
      return op.emitOpError() << "has no OpLib kernel: op_softmax normalises the innermost dim in memory, axis "
                              << op.getAxis() << " is not";
    call.function = "op_softmax";
    call.paramType = "SOFTMAX_PARAM";
    call.field("layout", layoutOf(op));
    call.arg(ArgKind::Operand, 0).arg(ArgKind::Imm).arg(ArgKind::Result, 0);
    return success();
  }
};

/// No OpLib kernel.
struct LogSoftmaxModel : AxisNormFamilyModel<LogSoftmaxModel, LogSoftmaxOp> {};

/// op_layernorm (tx8/ops.h): the rows of [R][n], n the normalised dims axis..rank-1 merged (they must be innermost
/// in memory, in order); OpLib sees [R][n] like op_softmax's rows (the outermost dim kept from rank 3 on).
struct LayerNormModel : OpLibModel<LayerNormModel, LayerNormOp> {
  static void properties(LayerNormOp, OpAttr &attr) { attr.alignMode = NPU_COMPACT; }

  /// Rows and row length of the op's input.
  static std::pair<uint64_t, uint64_t> rowsAndLen(LayerNormOp op) {
    ArrayRef<int64_t> shape = op.getInput().getType().getShape();
    int64_t axis = normalizeAxis(op.getAxis(), static_cast<int64_t>(shape.size()));
    return {product(shape.take_front(axis)), product(shape.drop_front(axis))};
  }

  /// What op_layernorm issues (ops/layernorm.c's steps, cm_cycles.h's formulas), every pass in fp32: the R row
  /// values (mean, variance, rsqrt) reach the elements through a TDMA broadcast when R > 1.
  static uint64_t kernelCycles(const CycleEstimate &est, uint64_t rows, uint64_t len, bool narrow, bool rms,
                               bool bias) {
    const tx8_hw_config &hw = est.hw;
    uint64_t n = rows * len;
    uint64_t pass = est.ct(n, 4);
    uint64_t rowOp = pass + (rows > 1 ? hw.tdma_startup_cycles + rows * ceilDiv(4 * len, hw.tdma_bytes_per_cycle) : 0);
    uint64_t c = 0;
    if (!rms)
      c += pass + est.ctTranscendental(rows, 4) + rowOp; // sum, / n, x - m
    c += 2 * pass;                                         // d * d, sum
    c += 2 * est.ctTranscendental(rows, 4) + est.ct(rows, 4); // / n, + epsilon, rsqrt
    c += rowOp + pass;                                     // d * q, * scale (+ bias)
    if (narrow)
      c += 2 * pass + (bias ? 2 : 1) * est.ct(len, 4);     // converts of in, out, scale, bias
    return c;
  }
  static uint64_t cycles(LayerNormOp op, const CycleInputs &in) {
    auto [rows, len] = rowsAndLen(op);
    return kernelCycles(in.est, rows, len, !in.elementType.isF32(), op.getRms(), static_cast<bool>(op.getBias()));
  }

  /// Whether the dims from `axis` on are innermost in `order`, in order (extent-1 dims may sit anywhere: they
  /// move no bytes).
  static bool innermostInOrder(ArrayRef<int64_t> order, ArrayRef<int64_t> shape, int64_t axis) {
    SmallVector<int64_t, 6> nonUnit;
    for (int64_t d : order)
      if (shape[d] != 1)
        nonUnit.push_back(d);
    bool seenNorm = false;
    int64_t last = -1;
    for (int64_t d : nonUnit) {
      if (d < axis && seenNorm)
        return false;
      if (d >= axis) {
        if (d < last)
          return false;
        seenNorm = true;
        last = d;
      }
    }
    return true;
  }

  /// The [R][n] view (softmax's rows) of a tensor of the op's rank in `order` given its device shape.
  static SmallVector<int64_t> view(ArrayRef<int64_t> order, int64_t axis, ArrayRef<int64_t> deviceShape) {
    SmallVector<int64_t> rest;
    int64_t n = 1;
    for (auto [pos, d] : llvm::enumerate(order)) {
      if (d >= axis)
        n *= deviceShape[pos];
      else
        rest.push_back(deviceShape[pos]);
    }
    rest.push_back(n);
    return AxisNormFamilyModel<SoftmaxModel, SoftmaxOp>::rows(rest);
  }

  SmallVector<int64_t> getOpLibViewShape(Operation *operation, unsigned index, ArrayRef<int64_t> deviceShape) const {
    auto op = cast<LayerNormOp>(operation);
    int64_t rank = op.getInput().getType().getRank();
    if ((index != 0 && index != op->getNumOperands()) || static_cast<int64_t>(deviceShape.size()) != rank)
      return defaultOpLibViewShape(deviceShape); // scale, bias: only their element count matters
    DeviceLayout layout = index == 0 ? operandReadLayout(op, 0) : getDeviceLayout(op.getOutput());
    if (static_cast<int64_t>(layout.order.size()) != rank)
      return defaultOpLibViewShape(deviceShape);
    return view(layout.order, normalizeAxis(op.getAxis(), rank), deviceShape);
  }

  uint32_t getImmSpSize(Operation *operation, const tx8_hw_config &hw, ArrayRef<int64_t> slice) const {
    auto op = cast<LayerNormOp>(operation);
    if (!op.getInput().getType().hasStaticShape())
      return 0;
    SmallVector<int64_t> shape(op.getInput().getType().getShape());
    if (slice.size() == shape.size()) // the input slice is the output slice
      shape.assign(slice.begin(), slice.end());
    auto format = dataFormatOf(op.getInput().getType().getElementType());
    DeviceLayout layout = operandReadLayout(op, 0);
    if (!format || layout.order.size() != shape.size())
      return 0;
    SmallVector<int64_t> v =
        view(layout.order, normalizeAxis(op.getAxis(), static_cast<int64_t>(shape.size())),
             toDeviceOrder(shape, layout.order));
    SmallVector<int32_t> view32(v.begin(), v.end());
    L_SHAPE lshape;
    if (tx8_lshape_init(&lshape, view32.data(), static_cast<int32_t>(view32.size())) != 0)
      return 0;
    TSR in{*format, 0, &lshape};
    LAYERNORM_PARAM param{static_cast<LAYOUT_MODE>(resultLayout(op)), op.getRms() ? 1 : 0,
                          op.getEpsilon().convertToFloat()};
    uint64_t bytes = op_layernorm_imm_size(&hw, &param, &in);
    return bytes > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(bytes);
  }

  LogicalResult genOpCode(Operation *operation, OpCall &call) const {
    auto op = cast<LayerNormOp>(operation);
    ArrayRef<int64_t> shape = op.getInput().getType().getShape();
    int64_t rank = static_cast<int64_t>(shape.size());
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    uint64_t n = product(shape.drop_front(axis));
    for (Value v : {op.getInput(), op.getOutput()}) {
      DeviceLayout layout = v == op.getInput() ? operandReadLayout(op, 0) : getDeviceLayout(v);
      if (static_cast<int64_t>(layout.order.size()) != rank || !innermostInOrder(layout.order, shape, axis))
        return op.emitOpError() << "has no OpLib kernel: op_layernorm normalises the innermost dims in memory, "
                                   "the normalised dims "
                                << axis << ".." << rank - 1 << " are not";
    }
    for (unsigned i = 1; i < op->getNumOperands(); ++i) {
      auto type = cast<ShapedType>(op->getOperand(i).getType());
      DeviceLayout layout = operandReadLayout(op, i);
      if (!type.hasStaticShape() || static_cast<uint64_t>(type.getNumElements()) != n ||
          (static_cast<int64_t>(layout.order.size()) == type.getRank() &&
           !innermostInOrder(layout.order, type.getShape(), 0)))
        return op.emitOpError() << "has no OpLib kernel: op_layernorm takes " << (i == 1 ? "a scale" : "a bias")
                                << " of all " << n << " normalised elements in row-major order, not "
                                << type;
    }
    call.function = "op_layernorm";
    call.paramType = "LAYERNORM_PARAM";
    call.field("layout", layoutOf(op))
        .field("rms", OpCallValue::ofInt(op.getRms() ? 1 : 0))
        .field("epsilon", OpCallValue::ofFloat(op.getEpsilon().convertToFloat()));
    call.arg(ArgKind::Operand, 0).arg(ArgKind::Operand, 1);
    if (op.getBias())
      call.arg(ArgKind::Operand, 2);
    else
      call.arg(ArgKind::Null);
    call.arg(ArgKind::Imm).arg(ArgKind::Result, 0);
    return success();
  }
};

/// Where a reduction's axes sit in its input's memory order: OpLib's op_reduce takes them as the middle dim R of
/// an [A][R][B] view, so the reduced dims (of extent > 1) must be adjacent in memory.
struct ReducePlan {
  SmallVector<bool> reducedAt;   ///< per input memory position: a reduced dim
  SmallVector<int64_t> position; ///< per input dim: its memory position
  SmallVector<int64_t> resultDims; ///< per result dim: the input dim it stands for
  int64_t first = -1, last = -1; ///< the first / last reduced memory position of extent > 1 (-1: none)
  bool contiguous = true;        ///< no kept dim of extent > 1 between them

  /// Which part of the [A][R][B] view input memory position `pos` falls in: 0 A, 1 R, 2 B.
  int part(int64_t pos) const { return reducedAt[pos] ? 1 : (first < 0 || pos < first ? 0 : 2); }
};

template <typename OpT>
ReducePlan planReduce(OpT op) {
  auto inShape = op.getInput().getType().getShape();
  int64_t rank = static_cast<int64_t>(inShape.size());
  SmallVector<bool, 6> reduced = reducedDims(op.getAxes(), rank);
  DeviceLayout in = operandReadLayout(op, 0);
  ReducePlan plan;
  plan.position.assign(rank, 0);
  for (auto [p, d] : llvm::enumerate(in.order)) {
    plan.position[d] = static_cast<int64_t>(p);
    plan.reducedAt.push_back(reduced[d]);
    if (reduced[d] && inShape[d] > 1) {
      if (plan.first < 0)
        plan.first = static_cast<int64_t>(p);
      plan.last = static_cast<int64_t>(p);
    }
  }
  for (int64_t d = 0; d < rank; ++d)
    if (op.getKeepdims() || !reduced[d])
      plan.resultDims.push_back(d);
  for (int64_t p = plan.first; p >= 0 && p <= plan.last; ++p)
    if (!plan.reducedAt[p] && inShape[in.order[p]] > 1)
      plan.contiguous = false;
  return plan;
}

/// Reductions: op_reduce, one CT pass over the input (or one per index of the kept dims before the reduced ones).
template <typename OpT>
struct ReduceModel : OpLibModel<ReduceModel<OpT>, OpT> {
  static void properties(OpT, OpAttr &attr) {
    attr.alignMode = NPU_COMPACT;
    attr.engine = NPU_ENGINE_CT;
  }
  static uint64_t cycles(OpT, const CycleInputs &in) { return in.est.ct(in.inElems, in.bytes); }

  /// The input's [A][R][B] (the result's [A][1][B]): the kept dims before the reduced run, the run, the rest.
  SmallVector<int64_t> getOpLibViewShape(Operation *operation, unsigned index, ArrayRef<int64_t> deviceShape) const {
    auto op = cast<OpT>(operation);
    ReducePlan plan = planReduce(op);
    int64_t view[3] = {1, 1, 1};
    if (index == 0) {
      for (auto [p, extent] : llvm::enumerate(deviceShape))
        view[plan.part(static_cast<int64_t>(p))] *= extent;
      return {view[0], view[1], view[2]};
    }
    // A result memory position holds a kept input dim (or a reduced one of extent 1, which counts for nothing).
    for (auto [q, d] : llvm::enumerate(getDeviceLayout(op.getOutput()).order))
      if (int part = plan.part(plan.position[plan.resultDims[d]]); part != 1)
        view[part] *= deviceShape[q];
    return {view[0], 1, view[2]};
  }

  LogicalResult genOpCode(Operation *operation, OpCall &call) const {
    auto op = cast<OpT>(operation);
    DeviceLayout in = getDeviceLayout(op.getInput()), out = getDeviceLayout(op.getOutput());
    if (!isCompactLayout(in.mode) || !isCompactLayout(out.mode))
      return op.emitOpError() << "has no OpLib kernel: op_reduce works on compact layouts (Tensor/NTensor)";
    ReducePlan plan = planReduce(op);
    if (!plan.contiguous)
      return op.emitOpError() << "has no OpLib kernel: op_reduce reduces dims adjacent in memory, and these axes "
                                 "have kept dims between them in the input's order";
    // The result must keep the input's other dims in the input's memory order.
    auto inShape = op.getInput().getType().getShape();
    auto kept = [&](int64_t d) { return !plan.reducedAt[plan.position[d]] && inShape[d] > 1; };
    SmallVector<int64_t> inKept, outKept;
    for (int64_t d : in.order)
      if (kept(d))
        inKept.push_back(d);
    for (int64_t q : out.order)
      if (kept(plan.resultDims[q]))
        outKept.push_back(plan.resultDims[q]);
    if (inKept != outKept)
      return op.emitOpError()
             << "has no OpLib kernel: op_reduce keeps the input's memory order, the result has another";
    call.function = "op_reduce";
    call.paramType = "REDUCE_PARAM";
    call.field("kind", OpCallValue::ofEnumerator(kind()))
        .field("rnd", OpCallValue::ofEnumerator("RND_NEAREST_EVEN"));
    operandsThenResults(op, call);
    return success();
  }

  static const char *kind() {
    if constexpr (std::is_same_v<OpT, ReduceSumOp>)
      return "REDUCE_SUM";
    else if constexpr (std::is_same_v<OpT, ReduceMeanOp>)
      return "REDUCE_MEAN";
    else if constexpr (std::is_same_v<OpT, ReduceMaxOp>)
      return "REDUCE_MAX";
    else
      return "REDUCE_MIN";
  }
};

//===----------------------------------------------------------------------===//
// Data movement (LSU / TDMA), loads and stores, Reshape
//===----------------------------------------------------------------------===//

/// SPM-to-SPM moves of compact tensors on the TDMA, which OpLib takes as they lie in memory (up to 6 dims).
template <typename ConcreteModel, typename OpT>
struct TdmaMoveModel : OpLibModel<ConcreteModel, OpT> {
  static void properties(OpT, OpAttr &attr) {
    attr.alignMode = NPU_COMPACT;
    attr.engine = NPU_ENGINE_LSU;
  }
  static uint64_t cycles(OpT, const CycleInputs &in) { return in.est.tdma(in.outElems * in.bytes); }
  SmallVector<int64_t> getOpLibViewShape(Operation *, unsigned, ArrayRef<int64_t> deviceShape) const {
    return SmallVector<int64_t>(deviceShape.begin(), deviceShape.end());
  }
};

/// Why a TDMA move cannot take `op`'s input and result ("" if it can): compact layouts of 1 to MAX_SHAPE_DIM dims
/// with the same dim order (the kernels index both in one order).
std::string sameCompactOrderProblem(Operation *op, StringRef kernel) {
  DeviceLayout in = operandReadLayout(op, 0), out = getDeviceLayout(op->getResult(0));
  if (!isCompactLayout(in.mode) || !isCompactLayout(out.mode) || in.order != out.order ||
      out.order.size() > MAX_SHAPE_DIM)
    return (kernel + " moves between compact layouts of 1 to " + Twine(MAX_SHAPE_DIM) + " dims in one dim order")
        .str();
  return "";
}

/// op_slice of `op`'s input into its result: `offsets` and `strides` per logical dim, passed in memory order.
LogicalResult genSliceCall(Operation *op, ArrayRef<int64_t> offsets, ArrayRef<int64_t> strides, OpCall &call) {
  if (std::string problem = sameCompactOrderProblem(op, "op_slice"); !problem.empty())
    return op->emitOpError() << "has no OpLib kernel: " << problem;
  SmallVector<int64_t> start, step;
  for (int64_t d : getDeviceLayout(op->getResult(0)).order) {
    start.push_back(offsets[d]);
    step.push_back(strides[d]);
  }
  if (start.empty()) // rank 0: one element (the device's rank-1 view of it)
    start.push_back(0), step.push_back(1);
  call.function = "op_slice";
  call.paramType = "SLICE_PARAM";
  call.field("start", OpCallValue::ofInts(start)).field("step", OpCallValue::ofInts(step));
  operandsThenResults(op, call);
  return success();
}

/// Slice: op_slice (a TDMA strided copy; negative steps reverse).
struct SliceModel : TdmaMoveModel<SliceModel, SliceOp> {
  LogicalResult genOpCode(Operation *operation, OpCall &call) const {
    auto op = cast<SliceOp>(operation);
    return genSliceCall(op, op.getOffsets(), op.getStrides(), call);
  }
};

/// Expand: op_slice from index 0 with step 0 along the broadcast dims (the TDMA re-reads the element), 1
/// along the others.
struct ExpandModel : TdmaMoveModel<ExpandModel, ExpandOp> {
  LogicalResult genOpCode(Operation *operation, OpCall &call) const {
    auto op = cast<ExpandOp>(operation);
    ArrayRef<int64_t> inShape = op.getInput().getType().getShape(), outShape = op.getOutput().getType().getShape();
    SmallVector<int64_t> offsets(inShape.size(), 0), strides;
    for (auto [in, out] : llvm::zip(inShape, outShape))
      strides.push_back(in == out ? 1 : 0);
    return genSliceCall(op, offsets, strides, call);
  }
};

/// Pad: op_pad (TDMA copies; a constant border filled on the CT), pads in memory order.
struct PadModel : TdmaMoveModel<PadModel, PadOp> {
  LogicalResult genOpCode(Operation *operation, OpCall &call) const {
    auto op = cast<PadOp>(operation);
    if (std::string problem = sameCompactOrderProblem(op, "op_pad"); !problem.empty())
      return op.emitOpError() << "has no OpLib kernel: " << problem;
    if (!isCtFloat(op.getType()))
      return op.emitOpError() << "has no OpLib kernel: op_pad takes f32, f16 or bf16";
    if (!std::isfinite(op.getValue().convertToFloat()))
      return op.emitOpError() << "has no OpLib kernel: op_pad pads with a finite value";
    ArrayRef<int64_t> pads = op.getPads();
    size_t rank = pads.size() / 2;
    SmallVector<int64_t> begin, end;
    for (int64_t d : getDeviceLayout(op.getOutput()).order) {
      begin.push_back(pads[d]);
      end.push_back(pads[rank + d]);
    }
    const char *mode = op.getMode() == PadMode::Constant  ? "PAD_CONSTANT"
                       : op.getMode() == PadMode::Reflect ? "PAD_REFLECT"
                                                          : "PAD_EDGE";
    call.function = "op_pad";
    call.paramType = "PAD_PARAM";
    call.field("mode", OpCallValue::ofEnumerator(mode))
        .field("begin", OpCallValue::ofInts(begin))
        .field("end", OpCallValue::ofInts(end))
        .field("value", OpCallValue::ofFloat(op.getValue().convertToFloat()));
    operandsThenResults(op, call);
    return success();
  }
};

/// Gather: op_gather_rows, an embedding lookup (gatherRowsProblem): the table (operand 0) is not loaded (seed: an
/// embedding table is read in place from DDR), each step loads its box of the indices and the kernel moves one
/// table row per index with an RDMA box into the step's rows of the output. OpLib sees the indices as [count] and
/// the output as [count, width] (the index dims merged); the table as [rows, width].
struct GatherModel : OpLibModel<GatherModel, GatherOp> {
  static void properties(GatherOp, OpAttr &attr) {
    attr.alignMode = NPU_COMPACT;
    attr.engine = NPU_ENGINE_LSU;
    attr.needLoad = ~uint64_t{1};
  }
  /// What op_gather_rows issues: one RDMA box per index, a row of width elements (rounded up to whole DDR bursts,
  /// as the chip model charges a run), one after the other. Saturates (a table too large to address is the
  /// kernel contract's to refuse, not a wrapped estimate's). Other Gathers have no kernel (tx8be-decompose
  /// rewrites them).
  static uint64_t cycles(GatherOp op, const CycleInputs &in) {
    if (!gatherRowsProblem(op).empty())
      return in.est.tdma(in.outElems * in.bytes);
    uint64_t width = static_cast<uint64_t>(op.getData().getType().getShape().back());
    if (width == 0)
      return 0;
    uint64_t burst = std::max<uint64_t>(in.est.hw.ddr_burst_bytes, 1);
    bool overflow = false;
    uint64_t bytes = llvm::SaturatingMultiply(width, uint64_t{in.bytes}, &overflow);
    uint64_t rowBytes = llvm::SaturatingMultiply(bytes / burst + (bytes % burst != 0), burst, &overflow);
    return llvm::SaturatingMultiply(in.outElems / width, in.est.ddr(rowBytes), &overflow);
  }

  SmallVector<int64_t> getOpLibViewShape(Operation *, unsigned index, ArrayRef<int64_t> deviceShape) const {
    if (index == 0 || deviceShape.empty()) // the table [rows, width] as it is
      return SmallVector<int64_t>(deviceShape.begin(), deviceShape.end());
    if (index == 1) // the indices: [count]
      return {static_cast<int64_t>(product(deviceShape))};
    return {static_cast<int64_t>(product(deviceShape.drop_back())), deviceShape.back()}; // out: [count, width]
  }

  LogicalResult genOpCode(Operation *operation, OpCall &call) const {
    auto op = cast<GatherOp>(operation);
    if (std::string problem = gatherRowsProblem(op); !problem.empty())
      return op.emitOpError() << "has no OpLib kernel: " << problem;
    if (!op.getIndices().getType().getElementType().isSignlessInteger(32))
      return op.emitOpError() << "has no OpLib kernel: op_gather_rows takes i32 indices (tx8be-narrow-int64 narrows "
                                 "i64 ones)";
    DeviceLayout table = getDeviceLayout(op.getData()), indices = operandReadLayout(op, 1),
                 out = getDeviceLayout(op.getOutput());
    for (const DeviceLayout &layout : {table, indices, out})
      if (!isCompactLayout(layout.mode) || !layout.isIdentityOrder())
        return op.emitOpError() << "has no OpLib kernel: op_gather_rows takes the table, the indices and the result "
                                   "compact and row-major";
    call.function = "op_gather_rows";
    call.paramType = "GATHER_ROWS_PARAM";
    call.field("layout", layoutOf(op));
    operandsThenResults(op, call);
    return success();
  }
};

/// ChannelNorm, the layout converter itself (it takes either side): the same logical tensor from its input's
/// memory order into the op's (op_permute on the TDMA, which takes up to 6 dims as they are). Alignment
/// changes (compact <-> Cx) are not handled here.
struct ChannelNormModel : OpLibModel<ChannelNormModel, ChannelNormOp> {
  static void properties(ChannelNormOp, OpAttr &attr) {
    attr.alignMode = NPU_BOTH;
    attr.engine = NPU_ENGINE_LSU;
  }
  static uint64_t cycles(ChannelNormOp, const CycleInputs &in) { return in.est.tdma(in.outElems * in.bytes); }
  SmallVector<int64_t> getOpLibViewShape(Operation *, unsigned, ArrayRef<int64_t> deviceShape) const {
    return SmallVector<int64_t>(deviceShape.begin(), deviceShape.end());
  }
  LogicalResult genOpCode(Operation *operation, OpCall &call) const {
    auto op = cast<ChannelNormOp>(operation);
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
};

/// Concat: op_concat, one TDMA gather/scatter per input, on compact tensors of up to 6 dims that all keep the
/// result's memory order (the axis is then the same memory position in each).
struct ConcatModel : TdmaMoveModel<ConcatModel, ConcatOp> {
  LogicalResult genOpCode(Operation *operation, OpCall &call) const {
    auto op = cast<ConcatOp>(operation);
    DeviceLayout out = getDeviceLayout(op.getOutput());
    if (!isCompactLayout(out.mode) || out.order.size() > MAX_SHAPE_DIM)
      return op.emitOpError() << "has no OpLib kernel: op_concat takes compact layouts of 1 to " << MAX_SHAPE_DIM
                              << " dims";
    for (unsigned i = 0; i < op.getInputs().size(); ++i) {
      DeviceLayout in = operandReadLayout(op, i);
      if (!isCompactLayout(in.mode) || in.order != out.order)
        return op.emitOpError() << "has no OpLib kernel: op_concat needs every input in the result's layout";
    }
    int64_t axis = normalizeAxis(static_cast<int64_t>(op.getAxis()), static_cast<int64_t>(out.order.size()));
    call.function = "op_concat";
    call.paramType = "CONCAT_PARAM";
    call.field("axis", OpCallValue::ofInt(llvm::find(out.order, axis) - out.order.begin()))
        .field("count", OpCallValue::ofInt(op.getInputs().size()));
    call.arg(ArgKind::OperandArray).arg(ArgKind::Result, 0);
    return success();
  }
};

/// Transpose: op_permute on the TDMA, between compact layouts of up to 6 dims. Output memory dim k holds the
/// output's logical dim to.order[k], which is the input's logical dim perm[to.order[k]], kept by the input at
/// memory position from.order^-1 of that.
struct TransposeModel : TdmaMoveModel<TransposeModel, TransposeOp> {
  LogicalResult genOpCode(Operation *operation, OpCall &call) const {
    auto op = cast<TransposeOp>(operation);
    DeviceLayout from = operandReadLayout(op, 0), to = getDeviceLayout(op.getOutput());
    if (!isCompactLayout(from.mode) || !isCompactLayout(to.mode))
      return op.emitOpError() << "has no OpLib kernel: op_permute moves between compact layouts only";
    if (to.order.size() > MAX_SHAPE_DIM || to.order.size() != from.order.size())
      return op.emitOpError() << "has no OpLib kernel: op_permute takes 1 to " << MAX_SHAPE_DIM << " dims";
    SmallVector<int64_t> perm;
    for (int64_t d : to.order)
      perm.push_back(llvm::find(from.order, op.getPerm()[d]) - from.order.begin());
    call.function = "op_permute";
    call.paramType = "PERMUTE_PARAM";
    call.field("perm", OpCallValue::ofInts(perm));
    operandsThenResults(op, call);
    return success();
  }
};

/// LoadConst, LoadVar, StoreVar: DDR <-> SPM transfers in any layout; they are the loads and stores, so they
/// need none. No OpLib kernel (codegen emits the transfers itself).
template <typename OpT>
struct LoadStoreModel : OpLibModel<LoadStoreModel<OpT>, OpT> {
  static void properties(OpT, OpAttr &attr) {
    attr.alignMode = NPU_BOTH;
    attr.engine = NPU_ENGINE_LSU;
    attr.needLoad = 0;
    attr.needStore = 0;
  }
  static uint64_t cycles(OpT, const CycleInputs &in) { return in.est.ddr(in.outElems * in.bytes); }
};

/// Seed: a reshape is a DDR view (group_tag 2): nothing to load or store, no data moves.
struct ReshapeModel : OpLibModel<ReshapeModel, ReshapeOp> {
  static void properties(ReshapeOp, OpAttr &attr) {
    attr.alignMode = NPU_COMPACT;
    attr.engine = NPU_ENGINE_LSU;
    attr.needLoad = 0;
    attr.needStore = 0;
  }
  static uint64_t cycles(ReshapeOp, const CycleInputs &) { return 0; }
};

} // namespace

std::string tx8be::gemmFormProblem(GemmOp op) {
  if (op.getTransA() || op.getTransB() || op.getAlpha().convertToFloat() != 1.0f)
    return "op_gemm takes no transposes and alpha 1";
  Value c = op.getC();
  if (!c)
    return "";
  auto shape = cast<ShapedType>(c.getType()).getShape();
  int64_t n = op.getOutput().getType().getShape().back();
  // op_gemm adds a bias of N elements ([N] or [1, N]); a broadcast one ([1], [1, 1] for N > 1) it does not.
  bool rowVector = (shape.size() == 1 && shape[0] == n) || (shape.size() == 2 && shape[0] == 1 && shape[1] == n);
  if (!rowVector || op.getBeta().convertToFloat() != 1.0f)
    return "op_gemm adds C only as a row vector of the output's " + std::to_string(n) + " columns with beta 1";
  return "";
}

std::string tx8be::gatherRowsProblem(GatherOp op) {
  auto data = dyn_cast<RankedTensorType>(op.getData().getType());
  auto indices = dyn_cast<RankedTensorType>(op.getIndices().getType());
  if (!data || !indices || !data.hasStaticShape() || !indices.hasStaticShape() || data.getRank() != 2)
    return "op_gather_rows takes a static 2-D table and static indices";
  if (normalizeAxis(op.getAxis(), 2) != 0)
    return "op_gather_rows gathers rows (axis 0)";
  if (!isCtFloat(data) || data.getNumElements() == 0)
    return "op_gather_rows takes a non-empty f32, f16 or bf16 table";
  if (indices.getNumElements() == 0)
    return "op_gather_rows takes at least one index";
  Operation *def = op.getData().getDefiningOp();
  if (!isa_and_nonnull<ConstantOp, LoadConstOp>(def))
    return "op_gather_rows reads a constant table in place in DDR";
  return "";
}

void tx8be::detail::attachOpLibModels(MLIRContext *ctx) {
  using C = CtCost;
  // Elementwise unary.
  attachEltwise<C::OnePass, kOpRelu, ReluOp>(ctx);
  attachEltwise<C::OnePass, kOpAbs, AbsOp>(ctx);
  attachEltwise<C::OnePass, kOpNeg, NegOp>(ctx);
  LeakyReluOp::attachInterface<LeakyReluModel>(*ctx);
  ClipOp::attachInterface<ClipModel>(*ctx);
  HardSigmoidOp::attachInterface<HardSigmoidModel>(*ctx);
  attachEltwise<C::TwoPasses, nullptr, PReluOp>(ctx);
  attachEltwise<C::Transcendental, kOpSigmoid, SigmoidOp>(ctx);
  attachEltwise<C::Transcendental, kOpTanh, TanhOp>(ctx);
  attachEltwise<C::Transcendental, kOpExp, ExpOp>(ctx);
  attachEltwise<C::Transcendental, kOpSqrt, SqrtOp>(ctx);
  attachEltwise<C::Transcendental, kOpReciprocal, ReciprocalOp>(ctx);
  attachUnaryKernel<C::Transcendental, kUnaryLog, LogOp>(ctx);
  attachUnaryKernel<C::Transcendental, kUnaryErf, ErfOp>(ctx);
  attachUnaryKernel<C::Transcendental, kUnaryGeluErf, GeluOp>(ctx);
  attachUnaryKernel<C::Transcendental, kUnarySoftplus, SoftplusOp>(ctx);
  attachUnaryKernel<C::Transcendental, kUnarySoftsign, SoftsignOp>(ctx);
  attachUnaryKernel<C::Transcendental, kUnaryElu, EluOp>(ctx);
  attachUnaryKernel<C::Transcendental, kUnaryCelu, CeluOp>(ctx);
  attachUnaryKernel<C::Transcendental, kUnarySelu, SeluOp>(ctx);
  attachUnaryKernel<C::OnePass, kUnaryThresholdedRelu, ThresholdedReluOp>(ctx);
  attachUnaryKernel<C::OnePass, kUnaryShrink, ShrinkOp>(ctx);
  attachUnaryKernel<C::OnePass, kUnaryHardSwish, HardSwishOp>(ctx);
  attachUnaryKernel<C::Transcendental, kUnaryMish, MishOp>(ctx);
  attachUnaryKernel<C::Transcendental, kUnarySin, SinOp>(ctx);
  attachUnaryKernel<C::Transcendental, kUnaryCos, CosOp>(ctx);
  attachUnaryKernel<C::Transcendental, kUnaryTan, TanOp>(ctx);
  attachUnaryKernel<C::Transcendental, kUnaryAsin, AsinOp>(ctx);
  attachUnaryKernel<C::Transcendental, kUnaryAcos, AcosOp>(ctx);
  attachUnaryKernel<C::Transcendental, kUnaryAtan, AtanOp>(ctx);
  attachUnaryKernel<C::Transcendental, kUnarySinh, SinhOp>(ctx);
  attachUnaryKernel<C::Transcendental, kUnaryCosh, CoshOp>(ctx);
  attachUnaryKernel<C::Transcendental, kUnaryAsinh, AsinhOp>(ctx);
  attachUnaryKernel<C::Transcendental, kUnaryAcosh, AcoshOp>(ctx);
  attachUnaryKernel<C::Transcendental, kUnaryAtanh, AtanhOp>(ctx);
  attachUnaryKernel<C::OnePass, kUnaryFloor, FloorOp>(ctx);
  attachUnaryKernel<C::OnePass, kUnaryCeil, CeilOp>(ctx);
  attachUnaryKernel<C::OnePass, kUnaryRound, RoundOp>(ctx);
  attachUnaryKernel<C::OnePass, kUnarySign, SignOp>(ctx);
  attachUnaryKernel<C::Transcendental, kUnaryRsqrt, RsqrtOp>(ctx);
  CastOp::attachInterface<CastModel>(*ctx);
  // Elementwise binary.
  attachEltwise<C::OnePass, kOpAdd, AddOp>(ctx);
  attachEltwise<C::OnePass, kOpSub, SubOp>(ctx);
  attachEltwise<C::OnePass, kOpMul, MulOp>(ctx);
  attachEltwise<C::OnePass, kOpMax, MaxOp>(ctx);
  attachEltwise<C::OnePass, kOpMin, MinOp>(ctx);
  attachEltwise<C::Transcendental, kOpDiv, DivOp>(ctx);
  attachEltwise<C::Transcendental, kOpPow, PowOp>(ctx);
  attachEltwise<C::Transcendental, kOpMod, ModOp>(ctx);
  attachEltwise<C::OnePass, kOpCompare, EqualOp, LessOp, LessOrEqualOp, GreaterOp, GreaterOrEqualOp>(ctx);
  attachEltwise<C::OnePass, kOpLogical, AndOp, OrOp, XorOp>(ctx);
  attachEltwise<C::OnePass, kOpNot, NotOp>(ctx);
  WhereOp::attachInterface<WhereModel>(*ctx);
  QuantizeLinearOp::attachInterface<QuantizeLinearModel<QuantizeLinearOp, false>>(*ctx);
  DequantizeLinearOp::attachInterface<QuantizeLinearModel<DequantizeLinearOp, true>>(*ctx);
  // ArgMax / ArgMin: no kernel; tx8be-decompose writes them as reductions.
  attachEltwise<C::TwoPasses, nullptr, ArgMaxOp, ArgMinOp>(ctx);
  // Matrix products and convolutions (NE).
  GemmOp::attachInterface<GemmModel>(*ctx);
  MatMulOp::attachInterface<MatMulModel>(*ctx);
  AttentionOp::attachInterface<AttentionModel>(*ctx);
  ConvOp::attachInterface<ConvModel>(*ctx);
  ConvTransposeOp::attachInterface<ConvTransposeModel>(*ctx);
  // Pooling.
  MaxPoolOp::attachInterface<MaxPoolModel>(*ctx);
  AvgPoolOp::attachInterface<AvgPoolModel>(*ctx);
  attachAll<GlobalAvgPoolModel, GlobalAvgPoolOp>(ctx);
  attachAll<GlobalPoolNoKernelModel, GlobalMaxPoolOp>(ctx);
  // Normalisation and reductions.
  SoftmaxOp::attachInterface<SoftmaxModel>(*ctx);
  LogSoftmaxOp::attachInterface<LogSoftmaxModel>(*ctx);
  LayerNormOp::attachInterface<LayerNormModel>(*ctx);
  attachAll<ReduceModel, ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp>(ctx);
  // Data movement, loads and stores, views.
  SliceOp::attachInterface<SliceModel>(*ctx);
  ExpandOp::attachInterface<ExpandModel>(*ctx);
  PadOp::attachInterface<PadModel>(*ctx);
  ConcatOp::attachInterface<ConcatModel>(*ctx);
  TransposeOp::attachInterface<TransposeModel>(*ctx);
  GatherOp::attachInterface<GatherModel>(*ctx);
  ChannelNormOp::attachInterface<ChannelNormModel>(*ctx);
  attachAll<LoadStoreModel, LoadConstOp, LoadVarOp, StoreVarOp>(ctx);
  ReshapeOp::attachInterface<ReshapeModel>(*ctx);
}
