//===- Sharding.cpp - ShardingInterface of the tx8be ops ------------------===//
//
// External models, one per op family, attached by Tx8beDialect::initialize (attachShardingModels, at the
// end): every context that loads tx8be has them. BatchNorm_Inference implements the interface itself
// (BatchNormInterfaces.cpp). A model describes, per operand dimension, which output dimension it follows (a
// ShardingRule); the interface methods are derived from that one table:
//  * tileShardingSplit: an operand dimension takes the factor of the output dimension it follows, 1 if it
//    follows none (contracted, reduced or broadcast); output dimensions that cannot be divided (a softmax
//    axis, a conv's spatial dims whose halos sharding does not handle yet) reject any factor != 1.
//  * temporalSliceShape: ceil(extent / (sharding * split)) per dimension (the interface's default).
//  * backWindow: a following dimension takes the output window, a convolution or pooling window dimension
//    its halo, any other dimension its whole extent.
// Ops whose family has no rule (Reshape) accept only the trivial factors and read whole operands: always
// correct. Adding an op: attach its family's model below (or write one for a new family).
//
//===----------------------------------------------------------------------===//
#include "tx8/Dialect/Tx8be/IR/Tx8be.h"

#include "mlir/IR/BuiltinTypes.h"

#include <type_traits>

using namespace mlir;
using namespace tx8be;

namespace {

/// How one operand dimension relates to the output.
struct DimRule {
  int64_t outDim = -1; ///< output dimension it follows; -1: none (read whole, factor 1)
  // A sliding window (conv/pool spatial dims): the operand window is the output window's receptive field.
  int64_t kernel = 0; ///< > 0 for a window dim
  int64_t stride = 1, dilation = 1, padBegin = 0;
};

struct ShardingRule {
  SmallVector<SmallVector<DimRule>> operands; ///< one entry per operand dimension, per operand
  SmallVector<bool> divisible;                ///< per output dimension: may it be sharded / split
};

int64_t rankOf(Value v) { return cast<ShapedType>(v.getType()).getRank(); }
ArrayRef<int64_t> shapeOf(Value v) { return cast<ShapedType>(v.getType()).getShape(); }

/// Operand dims right-aligned with the output's; a broadcast dim (extent 1 against a larger output extent)
/// follows nothing.
SmallVector<DimRule> broadcastRule(Value operand, ArrayRef<int64_t> outShape) {
  ArrayRef<int64_t> shape = shapeOf(operand);
  SmallVector<DimRule> dims(shape.size());
  int64_t lead = static_cast<int64_t>(outShape.size()) - static_cast<int64_t>(shape.size());
  for (auto [d, extent] : llvm::enumerate(shape)) {
    int64_t out = static_cast<int64_t>(d) + lead;
    if (out >= 0 && !(extent == 1 && outShape[out] != 1))
      dims[d].outDim = out;
  }
  return dims;
}

SmallVector<DimRule> identityRule(int64_t rank) {
  SmallVector<DimRule> dims(rank);
  for (int64_t d = 0; d < rank; ++d)
    dims[d].outDim = d;
  return dims;
}

SmallVector<DimRule> wholeRule(int64_t rank) { return SmallVector<DimRule>(rank); }

/// Input rule of an N x C x spatial... windowed op: N follows N, C follows `channelOut` (-1: none), spatial
/// dims are windows.
SmallVector<DimRule> windowRule(int64_t rank, int64_t channelOut, ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                                ArrayRef<int64_t> dilations, ArrayRef<int64_t> pads) {
  SmallVector<DimRule> dims(rank);
  dims[0].outDim = 0;
  dims[1].outDim = channelOut;
  size_t nsp = rank - 2;
  for (size_t i = 0; i < nsp; ++i) {
    DimRule &r = dims[i + 2];
    r.outDim = static_cast<int64_t>(i + 2);
    r.kernel = kernel[i];
    r.stride = strides.empty() ? 1 : strides[i];
    r.dilation = dilations.empty() ? 1 : dilations[i];
    r.padBegin = pads.empty() ? 0 : pads[i];
  }
  return dims;
}

/// Output dims of a windowed op: N and C divisible, the spatial dims not (halo exchange is not planned yet).
SmallVector<bool> batchChannelDivisible(int64_t rank, bool channel) {
  SmallVector<bool> divisible(rank, false);
  divisible[0] = true;
  divisible[1] = channel;
  return divisible;
}

/// A rule whose output dimensions are all divisible, no operands yet.
ShardingRule outputRule(Operation *op) {
  ShardingRule rule;
  rule.divisible.assign(rankOf(op->getResult(0)), true);
  return rule;
}

/// Every operand broadcast (numpy, right-aligned) to the output.
ShardingRule elementwiseRule(Operation *op) {
  ShardingRule rule = outputRule(op);
  ArrayRef<int64_t> outShape = shapeOf(op->getResult(0));
  for (Value operand : op->getOperands())
    rule.operands.push_back(broadcastRule(operand, outShape));
  return rule;
}

/// The rule for ops without one: nothing divisible, whole operands.
ShardingRule trivialRule(Operation *op) {
  ShardingRule rule;
  for (Value v : op->getOperands())
    rule.operands.push_back(wholeRule(rankOf(v)));
  if (op->getNumResults() == 1)
    rule.divisible.assign(rankOf(op->getResult(0)), false);
  return rule;
}

/// Factors of one operand, or empty if the output factors divide a dimension that cannot be divided.
std::vector<int32_t> operandFactors(const ShardingRule &rule, ArrayRef<DimRule> dims, ArrayRef<int32_t> outFactors) {
  for (auto [d, factor] : llvm::enumerate(outFactors))
    if (factor != 1 && !rule.divisible[d])
      return {};
  std::vector<int32_t> factors;
  for (const DimRule &r : dims)
    factors.push_back(r.outDim >= 0 ? outFactors[r.outDim] : 1);
  return factors;
}

/// tileShardingSplit of a single-result op from its rule.
std::vector<ShardingSplitParam> splitByRule(Operation *op, const ShardingRule &rule, const ShardingSplitParam &param) {
  size_t outRank = rankOf(op->getResult(0));
  if (param.outSharding.size() != outRank || param.outSplit.size() != outRank)
    return {};
  std::vector<ShardingSplitParam> result;
  for (const auto &dims : rule.operands) {
    ShardingSplitParam p;
    p.outSharding = operandFactors(rule, dims, param.outSharding);
    p.outSplit = operandFactors(rule, dims, param.outSplit);
    result.push_back(std::move(p));
  }
  return result;
}

/// backWindow of a single-result op from its rule.
std::vector<WindowParam> windowByRule(Operation *op, const ShardingRule &rule, const WindowParam &param) {
  size_t outRank = rankOf(op->getResult(0));
  if (param.start.size() != outRank || param.size.size() != outRank)
    return {};
  std::vector<WindowParam> result;
  for (auto [operand, dims] : llvm::zip(op->getOperands(), rule.operands)) {
    ArrayRef<int64_t> shape = shapeOf(operand);
    WindowParam w;
    w.padLow.assign(shape.size(), 0);
    w.padHigh.assign(shape.size(), 0);
    for (auto [d, r] : llvm::enumerate(dims)) {
      int64_t extent = shape[d];
      if (r.outDim < 0) {
        w.start.push_back(0);
        w.size.push_back(extent);
        continue;
      }
      int64_t start = param.start[r.outDim], size = param.size[r.outDim];
      if (r.kernel == 0) {
        w.start.push_back(start);
        w.size.push_back(size);
        continue;
      }
      // Receptive field of outputs [start, start + size): padded input coordinates lo .. hi (exclusive).
      int64_t lo = start * r.stride - r.padBegin;
      int64_t hi = (start + size - 1) * r.stride - r.padBegin + (r.kernel - 1) * r.dilation + 1;
      if (size <= 0)
        hi = lo;
      int64_t clippedLo = std::clamp<int64_t>(lo, 0, extent), clippedHi = std::clamp<int64_t>(hi, 0, extent);
      w.start.push_back(clippedLo);
      w.size.push_back(std::max<int64_t>(clippedHi - clippedLo, 0));
      w.padLow[d] = std::max<int64_t>(0, std::min(hi, int64_t{0}) - lo);
      w.padHigh[d] = std::max<int64_t>(0, hi - std::max(lo, extent));
    }
    result.push_back(std::move(w));
  }
  return result;
}

/// The interface of a single-result OpT from its ShardingRule, ConcreteModel::rule(OpT).
template <typename ConcreteModel, typename OpT>
struct RuleModel : ShardingInterface::ExternalModel<ConcreteModel, OpT> {
  std::vector<ShardingSplitParam> tileShardingSplit(Operation *op, ShardingSplitParam &param) const {
    if (op->getNumResults() != 1)
      return {};
    return splitByRule(op, ConcreteModel::rule(cast<OpT>(op)), param);
  }
  std::vector<WindowParam> backWindow(Operation *op, const WindowParam &param) const {
    if (op->getNumResults() != 1)
      return {};
    return windowByRule(op, ConcreteModel::rule(cast<OpT>(op)), param);
  }
};

//===----------------------------------------------------------------------===//
// Elementwise, with numpy broadcasting (unary, binary, PRelu, Cast, and the data movers that keep the
// values: LoadVar, StoreVar, ChannelNorm)
//===----------------------------------------------------------------------===//

template <typename OpT>
struct ElementwiseModel : RuleModel<ElementwiseModel<OpT>, OpT> {
  static ShardingRule rule(OpT op) { return elementwiseRule(op); }
};

//===----------------------------------------------------------------------===//
// Normalisation (BatchNorm_Inference: BatchNormInterfaces.cpp)
//===----------------------------------------------------------------------===//

/// Softmax, LogSoftmax: elementwise, but the axis is computed whole.
template <typename OpT>
struct AxisNormModel : RuleModel<AxisNormModel<OpT>, OpT> {
  static ShardingRule rule(OpT op) {
    ShardingRule rule = elementwiseRule(op);
    rule.divisible[normalizeAxis(op.getAxis(), rankOf(op.getOutput()))] = false;
    return rule;
  }
};

/// Dims [axis, rank) are normalised together; scale and bias are read whole.
struct LayerNormModel : RuleModel<LayerNormModel, LayerNormOp> {
  static ShardingRule rule(LayerNormOp op) {
    ShardingRule rule = outputRule(op);
    int64_t outRank = rankOf(op.getOutput());
    int64_t axis = normalizeAxis(op.getAxis(), outRank);
    rule.operands.push_back(identityRule(outRank));
    for (Value v : op->getOperands().drop_front())
      rule.operands.push_back(wholeRule(rankOf(v)));
    for (int64_t d = axis; d < outRank; ++d)
      rule.divisible[d] = false;
    return rule;
  }
};

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

template <typename OpT>
struct ReduceModel : RuleModel<ReduceModel<OpT>, OpT> {
  static SmallVector<int64_t> axesOf(OpT op) {
    if constexpr (std::is_same_v<OpT, ArgMaxOp> || std::is_same_v<OpT, ArgMinOp>)
      return {static_cast<int64_t>(op.getAxis())}; // one axis, reduced to an index
    else
      return SmallVector<int64_t>(op.getAxes());
  }
  static ShardingRule rule(OpT op) {
    ShardingRule rule = outputRule(op);
    int64_t inRank = rankOf(op.getInput());
    SmallVector<bool, 6> reduced = reducedDims(axesOf(op), inRank);
    SmallVector<DimRule> dims(inRank);
    int64_t next = 0;
    for (int64_t d = 0; d < inRank; ++d) {
      if (!reduced[d])
        dims[d].outDim = op.getKeepdims() ? d : next++;
      else if (op.getKeepdims())
        rule.divisible[d] = false; // an extent-1 output dim standing for a whole reduction
    }
    rule.operands.push_back(dims);
    return rule;
  }
};

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

struct GemmModel : RuleModel<GemmModel, GemmOp> {
  static ShardingRule rule(GemmOp op) {
    ShardingRule rule = outputRule(op);
    SmallVector<DimRule> a(2), b(2);
    a[op.getTransA() ? 1 : 0].outDim = 0; // M
    b[op.getTransB() ? 0 : 1].outDim = 1; // N
    rule.operands.push_back(a);
    rule.operands.push_back(b);
    if (Value c = op.getC())
      rule.operands.push_back(broadcastRule(c, shapeOf(op.getOutput())));
    return rule;
  }
};

struct MatMulModel : RuleModel<MatMulModel, MatMulOp> {
  static ShardingRule rule(MatMulOp op) {
    ShardingRule rule = outputRule(op);
    ArrayRef<int64_t> outShape = shapeOf(op.getOutput());
    int64_t outRank = static_cast<int64_t>(outShape.size());
    for (auto [operand, isA] : {std::pair<Value, bool>{op.getA(), true}, {op.getB(), false}}) {
      ArrayRef<int64_t> shape = shapeOf(operand);
      int64_t rank = static_cast<int64_t>(shape.size());
      SmallVector<DimRule> dims(rank);
      int64_t lead = outRank - rank;
      for (int64_t d = 0; d < rank - 2; ++d)
        if (!(shape[d] == 1 && outShape[d + lead] != 1))
          dims[d].outDim = d + lead; // batch
      if (isA)
        dims[rank - 2].outDim = outRank - 2; // M; K follows nothing
      else
        dims[rank - 1].outDim = outRank - 1; // N
      rule.operands.push_back(dims);
    }
    return rule;
  }
};

/// Attention: the batch dims and Sq (not causal) are independent; Skv, D and Dv are not divided (a step holds K and V whole
/// for its batch box: the softmax runs over all keys).
struct AttentionModel : RuleModel<AttentionModel, AttentionOp> {
  static ShardingRule rule(AttentionOp op) {
    ShardingRule rule = outputRule(op);
    ArrayRef<int64_t> outShape = shapeOf(op.getOutput());
    int64_t outRank = static_cast<int64_t>(outShape.size());
    rule.divisible[outRank - 1] = false;
    // Causal: a part of the queries would see the keys of the queries at the end (op_attention aligns a box's
    // last query with the last key), so Sq stays whole too.
    if (op.getCausal())
      rule.divisible[outRank - 2] = false;
    for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
      ArrayRef<int64_t> shape = shapeOf(operand);
      int64_t rank = static_cast<int64_t>(shape.size());
      SmallVector<DimRule> dims(rank);
      int64_t lead = outRank - rank;
      for (int64_t d = 0; d < rank - 2; ++d)
        if (d + lead >= 0 && !(shape[d] == 1 && outShape[d + lead] != 1))
          dims[d].outDim = d + lead; // batch
      // Q's and the mask's rows follow Sq (a mask row broadcast over the queries follows nothing).
      if ((index == 0 || index == 3) && !(shape[rank - 2] == 1 && outShape[outRank - 2] != 1))
        dims[rank - 2].outDim = outRank - 2;
      rule.operands.push_back(dims);
    }
    return rule;
  }
};

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

struct ConvModel : RuleModel<ConvModel, ConvOp> {
  static ShardingRule rule(ConvOp op) {
    ShardingRule rule = outputRule(op);
    int64_t outRank = rankOf(op.getOutput());
    int64_t group = op.getGroup();
    int64_t c = shapeOf(op.getInput())[1], oc = shapeOf(op.getOutput())[1];
    // Output channels are independent when every tile sees all input channels (group 1) or when each
    // output channel reads its own input channel (depthwise without multiplier).
    bool depthwise = group > 1 && c == group && oc == group;
    bool channel = group == 1 || depthwise;
    SmallVector<int64_t> kernel(shapeOf(op.getWeight()).drop_front(2));
    rule.operands.push_back(
        windowRule(outRank, depthwise ? 1 : -1, kernel, op.getStrides(), op.getDilations(), op.getPads()));
    SmallVector<DimRule> weight = wholeRule(outRank);
    if (channel)
      weight[0].outDim = 1;
    rule.operands.push_back(weight);
    if (op.getBias()) {
      SmallVector<DimRule> bias(1);
      if (channel)
        bias[0].outDim = 1;
      rule.operands.push_back(bias);
    }
    rule.divisible = batchChannelDivisible(outRank, channel);
    return rule;
  }
};

/// Only the batch: spatial outputs gather from overlapping inputs.
struct ConvTransposeModel : RuleModel<ConvTransposeModel, ConvTransposeOp> {
  static ShardingRule rule(ConvTransposeOp op) {
    ShardingRule rule = outputRule(op);
    int64_t outRank = rankOf(op.getOutput());
    SmallVector<DimRule> input = wholeRule(outRank);
    input[0].outDim = 0;
    rule.operands.push_back(input);
    for (Value v : op->getOperands().drop_front())
      rule.operands.push_back(wholeRule(rankOf(v)));
    rule.divisible = batchChannelDivisible(outRank, false);
    return rule;
  }
};

template <typename OpT>
struct PoolModel : RuleModel<PoolModel<OpT>, OpT> {
  static ShardingRule rule(OpT op) {
    ShardingRule rule = outputRule(op);
    int64_t outRank = rankOf(op.getOutput());
    rule.operands.push_back(
        windowRule(outRank, 1, op.getKernelShape(), op.getStrides(), op.getDilations(), op.getPads()));
    rule.divisible = batchChannelDivisible(outRank, true);
    return rule;
  }
};

template <typename OpT>
struct GlobalPoolModel : RuleModel<GlobalPoolModel<OpT>, OpT> {
  static ShardingRule rule(OpT op) {
    ShardingRule rule = outputRule(op);
    int64_t outRank = rankOf(op.getOutput());
    SmallVector<DimRule> input = wholeRule(outRank);
    input[0].outDim = 0;
    input[1].outDim = 1;
    rule.operands.push_back(input);
    rule.divisible = batchChannelDivisible(outRank, true);
    return rule;
  }
};

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

struct TransposeModel : RuleModel<TransposeModel, TransposeOp> {
  static ShardingRule rule(TransposeOp op) {
    ShardingRule rule = outputRule(op);
    SmallVector<DimRule> dims(rankOf(op.getOutput()));
    for (auto [out, in] : llvm::enumerate(op.getPerm()))
      dims[in].outDim = static_cast<int64_t>(out);
    rule.operands.push_back(dims);
    return rule;
  }
};

struct ConcatModel : RuleModel<ConcatModel, ConcatOp> {
  static ShardingRule rule(ConcatOp op) {
    ShardingRule rule = outputRule(op);
    int64_t outRank = rankOf(op.getOutput());
    int64_t axis = normalizeAxis(op.getAxis(), outRank);
    for (size_t i = 0; i < op->getNumOperands(); ++i) {
      SmallVector<DimRule> dims = identityRule(outRank);
      dims[axis].outDim = -1;
      rule.operands.push_back(dims);
    }
    rule.divisible[axis] = false;
    return rule;
  }
};

struct PadModel : RuleModel<PadModel, PadOp> {
  static ShardingRule rule(PadOp op) {
    ShardingRule rule = outputRule(op);
    int64_t outRank = rankOf(op.getOutput());
    SmallVector<DimRule> dims = identityRule(outRank);
    for (int64_t d = 0; d < outRank; ++d)
      if (op.getPads()[d] != 0 || op.getPads()[d + outRank] != 0) {
        dims[d].outDim = -1;
        rule.divisible[d] = false;
      }
    rule.operands.push_back(dims);
    return rule;
  }
};

/// Only untouched dims (whole extent, stride 1) follow the output.
struct SliceModel : RuleModel<SliceModel, SliceOp> {
  static ShardingRule rule(SliceOp op) {
    ShardingRule rule = outputRule(op);
    int64_t outRank = rankOf(op.getOutput());
    SmallVector<DimRule> dims = identityRule(outRank);
    ArrayRef<int64_t> inShape = shapeOf(op.getInput());
    for (int64_t d = 0; d < outRank; ++d)
      if (op.getOffsets()[d] != 0 || op.getStrides()[d] != 1 || op.getSizes()[d] != inShape[d]) {
        dims[d].outDim = -1;
        rule.divisible[d] = false;
      }
    rule.operands.push_back(dims);
    return rule;
  }
};

/// Dims the input has whole follow the output; a broadcast dim (input extent 1) is read whole by every shard.
struct ExpandModel : RuleModel<ExpandModel, ExpandOp> {
  static ShardingRule rule(ExpandOp op) {
    ShardingRule rule = outputRule(op);
    int64_t rank = rankOf(op.getOutput());
    SmallVector<DimRule> dims = identityRule(rank);
    ArrayRef<int64_t> inShape = shapeOf(op.getInput()), outShape = shapeOf(op.getOutput());
    for (int64_t d = 0; d < rank; ++d)
      if (inShape[d] != outShape[d])
        dims[d].outDim = -1;
    rule.operands.push_back(dims);
    return rule;
  }
};

struct GatherModel : RuleModel<GatherModel, GatherOp> {
  static ShardingRule rule(GatherOp op) {
    ShardingRule rule = outputRule(op);
    int64_t dataRank = rankOf(op.getData()), idxRank = rankOf(op.getIndices());
    int64_t axis = normalizeAxis(op.getAxis(), dataRank);
    SmallVector<DimRule> data(dataRank), indices(idxRank);
    for (int64_t d = 0; d < dataRank; ++d)
      if (d != axis)
        data[d].outDim = d < axis ? d : d + idxRank - 1;
    for (int64_t d = 0; d < idxRank; ++d)
      indices[d].outDim = axis + d;
    // op_gather_rows: each shard gathers whole rows of its indices from the table in DDR (read in place, never
    // loaded): the index dims are parallel, the width is not divided.
    if (gatherRowsProblem(op).empty()) {
      data = wholeRule(dataRank);
      for (int64_t d = idxRank; d < rankOf(op.getOutput()); ++d)
        rule.divisible[d] = false;
    }
    rule.operands.push_back(data);
    rule.operands.push_back(indices);
    return rule;
  }
};

/// No operands: any factors.
struct LoadConstModel : RuleModel<LoadConstModel, LoadConstOp> {
  static ShardingRule rule(LoadConstOp op) { return outputRule(op); }
};
/// Reshape: no rule (an output box is not a box of the input): trivial factors, whole operands.
struct ReshapeModel : RuleModel<ReshapeModel, ReshapeOp> {
  static ShardingRule rule(ReshapeOp op) { return trivialRule(op); }
};

/// Attaches Model<OpT> to each OpT (upstream's registerElemwiseAll).
template <template <typename> class Model, typename... OpTs>
void attachAll(MLIRContext *ctx) {
  (OpTs::template attachInterface<Model<OpTs>>(*ctx), ...);
}

} // namespace

void tx8be::detail::attachShardingModels(MLIRContext *ctx) {
  attachAll<ElementwiseModel,
            // unary
            ReluOp, LeakyReluOp, EluOp, SeluOp, HardSigmoidOp, ClipOp, GeluOp, SigmoidOp, TanhOp, SoftplusOp,
            SoftsignOp, ExpOp, LogOp, AbsOp, NegOp, SqrtOp, RsqrtOp, ReciprocalOp, ErfOp, PReluOp, HardSwishOp,
            MishOp, CeluOp, ThresholdedReluOp, ShrinkOp, SinOp, CosOp, TanOp, AsinOp, AcosOp, AtanOp, SinhOp,
            CoshOp, AsinhOp, AcoshOp, AtanhOp, FloorOp, CeilOp, RoundOp, SignOp,
            // binary
            AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, PowOp, ModOp, EqualOp, LessOp, LessOrEqualOp, GreaterOp,
            GreaterOrEqualOp, AndOp, OrOp, XorOp, NotOp, WhereOp, QuantizeLinearOp, DequantizeLinearOp,
            // the values unchanged
            CastOp, LoadVarOp, StoreVarOp, ChannelNormOp>(ctx);
  attachAll<AxisNormModel, SoftmaxOp, LogSoftmaxOp>(ctx);
  LayerNormOp::attachInterface<LayerNormModel>(*ctx);
  attachAll<ReduceModel, ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp, ArgMaxOp, ArgMinOp>(ctx);
  GemmOp::attachInterface<GemmModel>(*ctx);
  MatMulOp::attachInterface<MatMulModel>(*ctx);
  AttentionOp::attachInterface<AttentionModel>(*ctx);
  ConvOp::attachInterface<ConvModel>(*ctx);
  ConvTransposeOp::attachInterface<ConvTransposeModel>(*ctx);
  attachAll<PoolModel, MaxPoolOp, AvgPoolOp>(ctx);
  attachAll<GlobalPoolModel, GlobalAvgPoolOp, GlobalMaxPoolOp>(ctx);
  TransposeOp::attachInterface<TransposeModel>(*ctx);
  ConcatOp::attachInterface<ConcatModel>(*ctx);
  PadOp::attachInterface<PadModel>(*ctx);
  SliceOp::attachInterface<SliceModel>(*ctx);
  ExpandOp::attachInterface<ExpandModel>(*ctx);
  GatherOp::attachInterface<GatherModel>(*ctx);
  LoadConstOp::attachInterface<LoadConstModel>(*ctx);
  ReshapeOp::attachInterface<ReshapeModel>(*ctx);
}

static int64_t sliceExtent(int64_t extent, int64_t sharding, int64_t split) {
  if (extent == ShapedType::kDynamic)
    return extent;
  int64_t parts = sharding * split;
  return (extent + parts - 1) / parts;
}

std::vector<SliceParam> tx8be::detail::temporalSliceShape(Operation *op, SliceParam &param) {
  if (op->getNumResults() != 1)
    return {};
  ShardingSplitParam request{param.sharding, param.split};
  std::vector<ShardingSplitParam> factors = cast<ShardingInterface>(op).tileShardingSplit(request);
  if (factors.size() != op->getNumOperands())
    return {};
  std::vector<SliceParam> result;
  auto add = [&](Value v, const std::vector<int32_t> &sharding, const std::vector<int32_t> &split) {
    ArrayRef<int64_t> shape = shapeOf(v);
    if (sharding.size() != shape.size() || split.size() != shape.size())
      return false;
    SliceParam s{sharding, split, {}};
    for (auto [d, extent] : llvm::enumerate(shape))
      s.sliceShape.push_back(sliceExtent(extent, sharding[d], split[d]));
    result.push_back(std::move(s));
    return true;
  };
  for (auto [operand, f] : llvm::zip(op->getOperands(), factors))
    if (!add(operand, f.outSharding, f.outSplit))
      return {};
  if (!add(op->getResult(0), param.sharding, param.split))
    return {};
  return result;
}

std::vector<WindowParam> tx8be::detail::backWindow(Operation *op, const WindowParam &param) {
  if (auto sharding = dyn_cast<ShardingInterface>(op))
    return sharding.backWindow(param);
  if (op->getNumResults() != 1)
    return {};
  return windowByRule(op, trivialRule(op), param);
}
