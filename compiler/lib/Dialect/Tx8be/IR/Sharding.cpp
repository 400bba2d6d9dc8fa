//===- Sharding.cpp - ShardingInterface of the tx8be ops ------------------===//
//
// Every op but BatchNorm_Inference (BatchNormInterfaces.cpp) describes, per operand dimension, which output
// dimension it follows (a ShardingRule). The three interface methods are derived from that one table:
//  * tileShardingSplit: an operand dimension takes the factor of the output dimension it follows, 1 if it
//    follows none (contracted, reduced or broadcast); output dimensions that cannot be divided (a softmax
//    axis, a conv's spatial dims whose halos sharding does not handle yet) reject any factor != 1.
//  * temporalSliceShape: ceil(extent / (sharding * split)) per dimension.
//  * backWindow: a following dimension takes the output window, a convolution or pooling window dimension
//    its halo, any other dimension its whole extent.
// Ops without a rule (Reshape, ...) accept only the trivial factors and read whole operands: always correct.
//
//===----------------------------------------------------------------------===//
#include "tx8/Dialect/Tx8be/IR/Tx8be.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"

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

bool isElementwiseLike(Operation *op) {
  return isa<ReluOp, LeakyReluOp, EluOp, SeluOp, HardSigmoidOp, ClipOp, GeluOp, SigmoidOp, TanhOp, SoftplusOp,
             SoftsignOp, ExpOp, LogOp, AbsOp, NegOp, SqrtOp, RsqrtOp, ReciprocalOp, ErfOp, AddOp, SubOp, MulOp,
             DivOp, MaxOp, MinOp, PowOp, PReluOp, CastOp, LoadVarOp, StoreVarOp, ChannelNormOp, SoftmaxOp,
             LogSoftmaxOp>(op);
}

std::optional<ShardingRule> getRule(Operation *op) {
  if (op->getNumResults() != 1)
    return std::nullopt;
  ArrayRef<int64_t> outShape = shapeOf(op->getResult(0));
  int64_t outRank = static_cast<int64_t>(outShape.size());
  ShardingRule rule;
  rule.divisible.assign(outRank, true);

  if (isElementwiseLike(op)) {
    for (Value operand : op->getOperands())
      rule.operands.push_back(broadcastRule(operand, outShape));
    if (auto softmax = dyn_cast<SoftmaxOp>(op))
      rule.divisible[normalizeAxis(softmax.getAxis(), outRank)] = false;
    if (auto softmax = dyn_cast<LogSoftmaxOp>(op))
      rule.divisible[normalizeAxis(softmax.getAxis(), outRank)] = false;
    return rule;
  }

  bool known = llvm::TypeSwitch<Operation *, bool>(op)
      .Case([&](LoadConstOp) { return true; })
      .Case([&](LayerNormOp o) {
        int64_t axis = normalizeAxis(o.getAxis(), outRank);
        rule.operands.push_back(identityRule(outRank));
        for (Value v : op->getOperands().drop_front())
          rule.operands.push_back(wholeRule(rankOf(v)));
        for (int64_t d = axis; d < outRank; ++d)
          rule.divisible[d] = false;
        return true;
      })
      .Case<ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp>([&](auto o) {
        int64_t inRank = rankOf(o.getInput());
        llvm::SmallSet<int64_t, 8> reduced;
        for (int64_t a : o.getAxes())
          reduced.insert(normalizeAxis(a, inRank));
        SmallVector<DimRule> dims(inRank);
        int64_t next = 0;
        for (int64_t d = 0; d < inRank; ++d) {
          bool isReduced = o.getAxes().empty() || reduced.contains(d);
          if (!isReduced)
            dims[d].outDim = o.getKeepdims() ? d : next++;
          else if (o.getKeepdims())
            rule.divisible[d] = false; // an extent-1 output dim standing for a whole reduction
        }
        rule.operands.push_back(dims);
        return true;
      })
      .Case([&](TransposeOp o) {
        SmallVector<DimRule> dims(outRank);
        for (auto [out, in] : llvm::enumerate(o.getPerm()))
          dims[in].outDim = static_cast<int64_t>(out);
        rule.operands.push_back(dims);
        return true;
      })
      .Case([&](GemmOp o) {
        SmallVector<DimRule> a(2), b(2);
        a[o.getTransA() ? 1 : 0].outDim = 0; // M
        b[o.getTransB() ? 0 : 1].outDim = 1; // N
        rule.operands.push_back(a);
        rule.operands.push_back(b);
        if (Value c = o.getC())
          rule.operands.push_back(broadcastRule(c, outShape));
        return true;
      })
      .Case([&](MatMulOp o) {
        for (auto [operand, isA] : {std::pair<Value, bool>{o.getA(), true}, {o.getB(), false}}) {
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
        return true;
      })
      .Case([&](ConvOp o) {
        int64_t group = o.getGroup();
        int64_t c = shapeOf(o.getInput())[1], oc = outShape[1];
        // Output channels are independent when every tile sees all input channels (group 1) or when each
        // output channel reads its own input channel (depthwise without multiplier).
        bool depthwise = group > 1 && c == group && oc == group;
        bool channel = group == 1 || depthwise;
        SmallVector<int64_t> kernel(shapeOf(o.getWeight()).drop_front(2));
        rule.operands.push_back(
            windowRule(outRank, depthwise ? 1 : -1, kernel, o.getStrides(), o.getDilations(), o.getPads()));
        SmallVector<DimRule> weight = wholeRule(outRank);
        if (channel)
          weight[0].outDim = 1;
        rule.operands.push_back(weight);
        if (o.getBias()) {
          SmallVector<DimRule> bias(1);
          if (channel)
            bias[0].outDim = 1;
          rule.operands.push_back(bias);
        }
        rule.divisible = batchChannelDivisible(outRank, channel);
        return true;
      })
      .Case([&](ConvTransposeOp o) {
        // Only the batch: spatial outputs gather from overlapping inputs.
        SmallVector<DimRule> input = wholeRule(outRank);
        input[0].outDim = 0;
        rule.operands.push_back(input);
        for (Value v : op->getOperands().drop_front())
          rule.operands.push_back(wholeRule(rankOf(v)));
        rule.divisible = batchChannelDivisible(outRank, false);
        return true;
      })
      .Case<MaxPoolOp, AvgPoolOp>([&](auto o) {
        rule.operands.push_back(
            windowRule(outRank, 1, o.getKernelShape(), o.getStrides(), o.getDilations(), o.getPads()));
        rule.divisible = batchChannelDivisible(outRank, true);
        return true;
      })
      .Case<GlobalAvgPoolOp, GlobalMaxPoolOp>([&](auto) {
        SmallVector<DimRule> input = wholeRule(outRank);
        input[0].outDim = 0;
        input[1].outDim = 1;
        rule.operands.push_back(input);
        rule.divisible = batchChannelDivisible(outRank, true);
        return true;
      })
      .Case([&](ConcatOp o) {
        int64_t axis = normalizeAxis(o.getAxis(), outRank);
        for (size_t i = 0; i < op->getNumOperands(); ++i) {
          SmallVector<DimRule> dims = identityRule(outRank);
          dims[axis].outDim = -1;
          rule.operands.push_back(dims);
        }
        rule.divisible[axis] = false;
        return true;
      })
      .Case([&](PadOp o) {
        SmallVector<DimRule> dims = identityRule(outRank);
        for (int64_t d = 0; d < outRank; ++d)
          if (o.getPads()[d] != 0 || o.getPads()[d + outRank] != 0) {
            dims[d].outDim = -1;
            rule.divisible[d] = false;
          }
        rule.operands.push_back(dims);
        return true;
      })
      .Case([&](SliceOp o) {
        // Only untouched dims (whole extent, stride 1) follow the output.
        SmallVector<DimRule> dims = identityRule(outRank);
        ArrayRef<int64_t> inShape = shapeOf(o.getInput());
        for (int64_t d = 0; d < outRank; ++d)
          if (o.getOffsets()[d] != 0 || o.getStrides()[d] != 1 || o.getSizes()[d] != inShape[d]) {
            dims[d].outDim = -1;
            rule.divisible[d] = false;
          }
        rule.operands.push_back(dims);
        return true;
      })
      .Case([&](GatherOp o) {
        int64_t dataRank = rankOf(o.getData()), idxRank = rankOf(o.getIndices());
        int64_t axis = normalizeAxis(o.getAxis(), dataRank);
        SmallVector<DimRule> data(dataRank), indices(idxRank);
        for (int64_t d = 0; d < dataRank; ++d)
          if (d != axis)
            data[d].outDim = d < axis ? d : d + idxRank - 1;
        for (int64_t d = 0; d < idxRank; ++d)
          indices[d].outDim = axis + d;
        rule.operands.push_back(data);
        rule.operands.push_back(indices);
        return true;
      })
      .Default([](Operation *) { return false; });
  if (!known)
    return std::nullopt;
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

} // namespace

std::vector<ShardingSplitParam> tx8be::detail::tileShardingSplit(Operation *op, ShardingSplitParam &param) {
  if (op->getNumResults() != 1)
    return {};
  size_t outRank = rankOf(op->getResult(0));
  if (param.outSharding.size() != outRank || param.outSplit.size() != outRank)
    return {};
  ShardingRule rule = getRule(op).value_or(trivialRule(op));
  std::vector<ShardingSplitParam> result;
  for (const auto &dims : rule.operands) {
    ShardingSplitParam p;
    p.outSharding = operandFactors(rule, dims, param.outSharding);
    p.outSplit = operandFactors(rule, dims, param.outSplit);
    result.push_back(std::move(p));
  }
  return result;
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
  if (op->getNumResults() != 1)
    return {};
  size_t outRank = rankOf(op->getResult(0));
  if (param.start.size() != outRank || param.size.size() != outRank)
    return {};
  ShardingRule rule = getRule(op).value_or(trivialRule(op));
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
