//===- GroupPlan.cpp - What one Group does per temporal step --------------===//
#include "tx8/Transforms/GroupPlan.h"

#include "tx8/Transforms/BufferAllocator.h"

#include "tx8/Dialect/Tx8be/IR/KernelContract.h"

#include "mlir/IR/Diagnostics.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/TypeSwitch.h"

#include <thread>

using namespace mlir;
using namespace tx8be;

uint64_t GroupPlan::footprint(uint64_t align, int64_t multiBuf) const {
  uint64_t buffers = static_cast<uint64_t>(std::max<int64_t>(multiBuf, 1));
  uint64_t total = alignTo(immBytes, align);
  // The stored result has `buffers`; the chain's intermediate results one each.
  total += (tail.empty() ? buffers : 1) * alignTo(resultBytes, align);
  for (auto [t, bytes] : llvm::enumerate(tailResultBytes))
    total += (t + 1 == tailResultBytes.size() ? buffers : 1) * alignTo(bytes, align);
  // The operands each op loads: an operand read twice by one op (Add %x, %x) is one buffer, the chain value is
  // the previous op's result.
  auto operands = [&](Operation *op, ArrayRef<uint64_t> bytes, Value chained, auto cuts) {
    for (auto [i, b] : llvm::enumerate(bytes)) {
      Value v = op->getOperand(i);
      if (v == chained || llvm::is_contained(op->getOperands().take_front(i), v))
        continue;
      bool perStep = !v.getDefiningOp<LoadConstOp>() || cuts(i);
      total += (perStep ? buffers : 1) * alignTo(b, align);
    }
  };
  operands(compute, operandBytes, Value(), [&](unsigned i) { return cutsOperand(*this, i); });
  for (auto [t, op] : llvm::enumerate(tail))
    operands(op, tailOperandBytes[t], (t ? tail[t - 1] : compute)->getResult(0),
             [&, t = t](unsigned i) { return cutsTailOperand(*this, t, i); });
  return total;
}

SmallVector<Operation *, 4> tx8be::groupTail(Operation *compute) {
  SmallVector<Operation *, 4> tail;
  if (!isa_and_nonnull<GroupOp, StepsOp>(compute->getParentOp()))
    return tail;
  for (Operation *op = compute; op->getNumResults() == 1 && op->getResult(0).hasOneUse();) {
    Operation *user = *op->getResult(0).getUsers().begin();
    if (user->getBlock() != compute->getBlock() || !isa<OpLibInterface>(user) ||
        isa<LoadVarOp, LoadConstOp, StoreVarOp, LoadBoxOp, StoreBoxOp, ChannelNormOp>(user))
      break;
    tail.push_back(user);
    op = user;
  }
  return tail;
}

SmallVector<Operation *, 4> tx8be::groupChain(Operation *compute) {
  SmallVector<Operation *, 4> chain{compute};
  llvm::append_range(chain, groupTail(compute));
  return chain;
}

std::pair<uint32_t, uint32_t> tx8be::multicastCorner(int64_t tiles, const tx8_hw_config &hw) {
  int64_t meshX = std::max<int64_t>(hw.mesh_x, 1), n = std::max<int64_t>(tiles, 1);
  return {static_cast<uint32_t>(std::min(n, meshX) - 1), static_cast<uint32_t>((n + meshX - 1) / meshX - 1)};
}

SmallVector<int64_t, 16> tx8be::planMulticast(int64_t tiles, function_ref<bool(int64_t, int64_t)> sameBoxes,
                                              const tx8_hw_config &hw, SmallVectorImpl<int64_t> &duties) {
  SmallVector<int64_t, 16> group(tiles, -1); // tile -> the first tile of its group
  bool shared = false;
  for (int64_t t = 0; t < tiles; ++t)
    for (int64_t u = 0; u <= t && group[t] < 0; ++u)
      if (u == t || (group[u] == u && sameBoxes(u, t))) {
        group[t] = u;
        shared |= u != t;
      }
  if (!shared)
    return {};
  duties.resize(std::max<size_t>(duties.size(), static_cast<size_t>(tiles)), 0);
  SmallVector<int64_t, 16> leaders(tiles, -1);
  for (int64_t first = 0, ordinal = 0; first < tiles; ++first) {
    if (group[first] != first)
      continue;
    SmallVector<int64_t, 16> members;
    for (int64_t t = first; t < tiles; ++t)
      if (group[t] == first)
        members.push_back(t);
    if (!meshRectangleOf(members, hw))
      return {};
    // Of the members with the fewest duties, the k-th for the k-th group: the rows of a 4x4 mesh get the
    // diagonal, the columns then tiles off it.
    int64_t fewest = duties[*llvm::min_element(members, [&](int64_t a, int64_t b) { return duties[a] < duties[b]; })];
    SmallVector<int64_t, 16> candidates;
    llvm::copy_if(members, std::back_inserter(candidates), [&](int64_t t) { return duties[t] == fewest; });
    int64_t leader = candidates[static_cast<size_t>(ordinal++) % candidates.size()];
    if (members.size() > 1)
      ++duties[leader];
    for (int64_t t : members)
      leaders[t] = leader;
  }
  return leaders;
}

unsigned tx8be::chainOperandIndex(Operation *op, Value prev) {
  for (OpOperand &use : op->getOpOperands())
    if (use.get() == prev)
      return use.getOperandNumber();
  return 0;
}

uint64_t tx8be::spmBufferAlign(const tx8_hw_config &hw) { return tx8_hw_batch_align_bytes(&hw); }

FailureOr<Operation *> tx8be::getGroupComputeOp(GroupOp group) {
  // Planned: the compute op runs inside the Steps.
  StepsOp steps = getGroupSteps(group);
  Block &block = steps ? steps.getBody().front() : group.getBody().front();
  SmallVector<Operation *> ops;
  for (Operation &op : block)
    if (!isa<LoadVarOp, LoadConstOp, StoreVarOp, ReturnOp, LoadBoxOp, StoreBoxOp, WaitOp, BarrierOp>(op))
      ops.push_back(&op);
  if (ops.empty()) {
    group.emitError() << "has no compute op";
    return failure();
  }
  SmallVector<Operation *, 4> tail = groupTail(ops.front());
  if (ArrayRef<Operation *>(ops).drop_front() != ArrayRef<Operation *>(tail)) {
    group.emitError() << "holds compute ops that are not one chain (" << ops.front()->getName() << ", "
                      << ops[std::min<size_t>(tail.size() + 1, ops.size() - 1)]->getName()
                      << "); a group runs an op and the elementwise ops that each read the previous one's result";
    return failure();
  }
  return ops.front();
}

namespace {
SmallVector<int64_t, 6> opSplittableDims(Operation *op);
} // namespace

SmallVector<int64_t, 6> tx8be::splittableDims(Operation *op) {
  SmallVector<int64_t, 6> dims = opSplittableDims(op);
  for (Operation *t : groupTail(op)) {
    SmallVector<int64_t, 6> along = opSplittableDims(t);
    llvm::erase_if(dims, [&](int64_t d) { return !llvm::is_contained(along, d); });
  }
  return dims;
}

namespace {
SmallVector<int64_t, 6> opSplittableDims(Operation *op) {
  if (op->getNumResults() != 1 || !isa<ShapedType>(op->getResult(0).getType()))
    return {};
  auto type = cast<ShapedType>(op->getResult(0).getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t, 6> dims;
  auto allBut = [&](int64_t skip) {
    for (int64_t d = 0; d < rank; ++d)
      if (d != skip)
        dims.push_back(d);
  };
  auto windowed = [&](bool channel) {
    dims.push_back(0);
    if (channel)
      dims.push_back(1);
    for (int64_t d = 2; d < rank; ++d) // spatial: halos and border pads come from backWindow
      dims.push_back(d);
  };
  llvm::TypeSwitch<Operation *>(op)
      // Conv: batch, spatial, and with group 1 the output channels (each reads all input channels and its own
      // weights). A depthwise conv's channels are not cut: op_conv takes the op's group count, which a part of
      // the channels would not divide.
      .Case<ConvOp>([&](ConvOp conv) { windowed(conv.getGroup() == 1); })
      .Case<MaxPoolOp, AvgPoolOp>([&](auto) { windowed(true); })
      .Case<GlobalAvgPoolOp, GlobalMaxPoolOp>([&](auto) {
        dims.push_back(0);
        dims.push_back(1);
      })
      .Case<BatchNorm_InferenceOp>([&](auto) { allBut(1); })
      // M and N, and a batched MatMul's batch dims (op_gemm loops over the matrices of a step's box); the
      // reduction dim K is not an output dim (reductionDims cuts it in parts).
      .Case<GemmOp, MatMulOp>([&](auto) { allBut(-1); })
      .Case<SoftmaxOp, LogSoftmaxOp>([&](auto sm) { allBut(normalizeAxis(sm.getAxis(), rank)); })
      // LayerNorm: the dims before its axis (the normalised ones are one row of op_layernorm).
      .Case<LayerNormOp>([&](LayerNormOp ln) {
        for (int64_t d = 0; d < normalizeAxis(ln.getAxis(), rank); ++d)
          dims.push_back(d);
      })
      // Attention: the batch dims and Sq (each step holds K and V whole for its batch box); not Dv. Causal: not
      // Sq either (op_attention places a box's queries at the end of the keys: i sees j <= i + Skv - Sq).
      .Case<AttentionOp>([&](AttentionOp attention) {
        for (int64_t d = 0; d + (attention.getCausal() ? 2 : 1) < rank; ++d)
          dims.push_back(d);
      })
      // Concat: every dim but the axis (each input's box is the output's there).
      .Case<ConcatOp>([&](ConcatOp concat) { allBut(normalizeAxis(concat.getAxis(), rank)); })
      // Layout changes, transposes and broadcasts: any dim (the input box is the output box, permuted, or
      // extent 1 where it broadcasts).
      .Case<ChannelNormOp, TransposeOp, ExpandOp>([&](auto) { allBut(-1); })
      // Pad and Slice: the dims they leave untouched (there the input box is the output box; a padded or sliced
      // dim stays whole: its border pads and offsets are the op's, not a step's).
      .Case<PadOp>([&](PadOp pad) {
        ArrayRef<int64_t> pads = pad.getPads();
        for (int64_t d = 0; d < rank; ++d)
          if (pads[d] == 0 && pads[d + rank] == 0)
            dims.push_back(d);
      })
      .Case<SliceOp>([&](SliceOp slice) {
        ArrayRef<int64_t> in = cast<ShapedType>(slice.getInput().getType()).getShape();
        for (int64_t d = 0; d < rank; ++d)
          if (slice.getOffsets()[d] == 0 && slice.getStrides()[d] == 1 && slice.getSizes()[d] == in[d])
            dims.push_back(d);
      })
      // An embedding (op_gather_rows): the index dims, each step gathering whole rows of its box of the indices;
      // not the width (a row is one RDMA box from the table read in place).
      .Case<GatherOp>([&](GatherOp gather) {
        if (!gatherRowsProblem(gather).empty())
          return;
        for (int64_t d = 0; d + 1 < rank; ++d)
          dims.push_back(d);
      })
      // Reductions: the dims they keep (a kept extent-1 dim of keepdims stands for a whole reduction).
      .Case<ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp>([&](auto reduce) {
        SmallVector<bool, 6> reduced =
            reducedDims(reduce.getAxes(), cast<ShapedType>(reduce.getInput().getType()).getRank());
        for (int64_t d = 0; d < rank; ++d)
          if (!reduce.getKeepdims() || !reduced[d])
            dims.push_back(d);
      })
      .Default([&](Operation *) {
        // The elementwise CT family (OpLib's anyDimOrder): any dim; a broadcast operand's box keeps extent 1
        // where it broadcasts (backWindow).
        auto oplib = dyn_cast<OpLibInterface>(op);
        if (oplib && oplib.queryOpAttr().anyDimOrder)
          allBut(-1);
      });
  // Outermost in device memory first; where OpLib's view of a rank > 4 tensor merges the middle dims, only the
  // two outermost device dims may be cut (a TDMA permute takes up to 6 dims as they are).
  // A channel-aligned image (Cx / NCx) keeps its innermost dim whole: a box of it would start inside an aligned
  // channel block.
  SmallVector<Value, 4> values(op->getOperands());
  values.push_back(op->getResult(0));
  for (Value v : values) {
    DeviceLayout l = getDeviceLayout(v);
    if ((l.mode == LayoutMode::Cx || l.mode == LayoutMode::NCx) && static_cast<int64_t>(l.order.size()) == rank)
      llvm::erase(dims, l.order.back());
  }
  DeviceLayout layout = getDeviceLayout(op->getResult(0));
  bool mergesDims = rank > 4 && static_cast<int64_t>(tx8be::detail::opLibViewShape(
                                   op, op->getNumOperands(), toDeviceOrder(type.getShape(), layout.order))
                                   .size()) != rank;
  SmallVector<int64_t, 6> ordered;
  for (auto [pos, d] : llvm::enumerate(layout.order))
    if (llvm::is_contained(dims, d) && (!mergesDims || pos < 2))
      ordered.push_back(d);
  return ordered;
}
} // namespace

SmallVector<int64_t, 4> tx8be::reductionDims(Operation *op) {
  if (auto gemm = dyn_cast<GemmOp>(op)) // A x B (+ C): K is A's dim 1 and B's dim 0 unless transposed
    return {gemm.getTransA() ? 0 : 1, gemm.getTransB() ? 1 : 0, -1};
  if (auto mm = dyn_cast<MatMulOp>(op)) // A [..., M, K] x B [..., K, N]
    return {mm.getA().getType().getRank() - 1, mm.getB().getType().getRank() - 2};
  if (auto conv = dyn_cast<ConvOp>(op); conv && conv.getGroup() == 1) // input channels: input and weight dim 1
    return {1, 1, -1};
  return {};
}

int64_t tx8be::reductionExtent(Operation *op) {
  SmallVector<int64_t, 4> dims = reductionDims(op);
  if (dims.empty())
    return 0;
  return cast<ShapedType>(op->getOperand(0).getType()).getDimSize(dims[0]);
}

uint64_t tx8be::spmBoxBytes(Value value, ArrayRef<int64_t> size, const tx8_hw_config &hw) {
  DeviceLayout layout = getDeviceLayout(value);
  Type element = cast<ShapedType>(value.getType()).getElementType();
  return deviceImageBytes(toDeviceOrder(size, layout.order), element, layout.mode, tx8_hw_batch_align_bytes(&hw))
      .value_or(UINT64_MAX / 8);
}


uint64_t tx8be::countSteps(ArrayRef<int64_t> shape, ArrayRef<int64_t> slice) {
  uint64_t count = 1;
  for (auto [extent, s] : llvm::zip(shape, slice)) {
    uint64_t along = static_cast<uint64_t>((extent + s - 1) / std::max<int64_t>(s, 1));
    if (along != 0 && count > UINT64_MAX / along)
      return UINT64_MAX;
    count *= along;
  }
  return count;
}

namespace {

SmallVector<TensorBox, 4> operandBoxes(Operation *op, const WindowParam &out) {
  auto sharding = dyn_cast<ShardingInterface>(op);
  std::vector<WindowParam> windows = sharding ? sharding.backWindow(out) : tx8be::detail::backWindow(op, out);
  SmallVector<TensorBox, 4> boxes;
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    TensorBox box;
    if (i < windows.size()) {
      box.start.assign(windows[i].start.begin(), windows[i].start.end());
      box.size.assign(windows[i].size.begin(), windows[i].size.end());
      box.padLow.assign(windows[i].padLow.begin(), windows[i].padLow.end());
      box.padHigh.assign(windows[i].padHigh.begin(), windows[i].padHigh.end());
    } else {
      auto opShape = cast<ShapedType>(operand.getType()).getShape();
      box.start.assign(opShape.size(), 0);
      box.size.assign(opShape.begin(), opShape.end());
      box.padLow.assign(opShape.size(), 0);
      box.padHigh.assign(opShape.size(), 0);
    }
    boxes.push_back(std::move(box));
  }
  return boxes;
}

/// A constant its op reads in place from DDR (no user loads it: tx8be-move-constant's bypasscodegen, e.g. an
/// embedding table op_gather_rows reads row by row): it takes no SPM.
bool readInPlace(Value operand) {
  auto load = operand.getDefiningOp<LoadConstOp>();
  return load && load->hasAttr("bypasscodegen");
}

/// Builds the steps of one compute op's plan: the steps whose output slice starts at `start` (one per part of
/// the reduction when it is split), with the box of every operand (backWindow; a reduction dim cut to the
/// part), and the buffer sizes they need.
struct StepPlanner {
  Operation *compute;
  ArrayRef<int64_t> slice;
  const tx8_hw_config &hw;
  GroupPlan &plan;
  SmallVector<int64_t, 4> reduceDims = reductionDims(compute);

  /// Parts of the reduction to plan (all, or the first and the last for planGroupSizes).
  SmallVector<int64_t, 4> parts(bool sampled) const {
    SmallVector<int64_t, 4> all;
    for (int64_t p = 0; p < plan.reduceSteps; ++p)
      if (!sampled || p == 0 || p + 1 == plan.reduceSteps)
        all.push_back(p);
    return all;
  }

  /// The steps of the slice at `start` (ending at `end` at the latest: the shard's or the tensor's end).
  void add(ArrayRef<int64_t> start, ArrayRef<int64_t> end, bool sampled = false) {
    Value result = compute->getResult(0);
    ArrayRef<int64_t> shape = cast<ShapedType>(result.getType()).getShape();
    GroupStep step;
    step.result.start.assign(start.begin(), start.end());
    for (auto [d, s] : llvm::enumerate(start))
      step.result.size.push_back(std::min(slice[d], end[d] - s));
    step.result.padLow.assign(shape.size(), 0);
    step.result.padHigh.assign(shape.size(), 0);
    WindowParam out{std::vector<int64_t>(step.result.start.begin(), step.result.start.end()),
                    std::vector<int64_t>(step.result.size.begin(), step.result.size.end()), {}, {}};
    step.operands = operandBoxes(compute, out);
    plan.resultBytes = std::max(plan.resultBytes, spmBoxBytes(result, step.result.size, hw));
    // The tail computes the same slice of each of its results; each op reads its operands' boxes of it.
    for (auto [t, op] : llvm::enumerate(plan.tail)) {
      step.tailOperands.push_back(operandBoxes(op, out));
      for (auto [i, box] : llvm::enumerate(step.tailOperands.back()))
        if (!readInPlace(op->getOperand(i)))
          plan.tailOperandBytes[t][i] = std::max(plan.tailOperandBytes[t][i], spmBoxBytes(op->getOperand(i), box.size, hw));
      plan.tailResultBytes[t] = std::max(plan.tailResultBytes[t], spmBoxBytes(op->getResult(0), step.result.size, hw));
    }
    for (int64_t part : parts(sampled)) {
      GroupStep partStep = step;
      partStep.reducePart = part;
      for (auto [i, operand] : llvm::enumerate(compute->getOperands())) {
        TensorBox &box = partStep.operands[i];
        if (plan.reduceSteps > 1 && i < reduceDims.size() && reduceDims[i] >= 0) {
          int64_t d = reduceDims[i], extent = cast<ShapedType>(operand.getType()).getDimSize(d);
          box.start[d] = part * plan.reduceSlice;
          box.size[d] = std::min(plan.reduceSlice, extent - box.start[d]);
        }
        if (!readInPlace(operand))
          plan.operandBytes[i] = std::max(plan.operandBytes[i], spmBoxBytes(operand, box.size, hw));
      }
      plan.steps.push_back(std::move(partStep));
    }
  }
};

GroupPlan startPlan(Operation *compute, ArrayRef<int64_t> slice, const tx8_hw_config &hw, int64_t reduceSlice) {
  GroupPlan plan;
  plan.compute = compute;
  plan.slice.assign(slice.begin(), slice.end());
  int64_t extent = reductionExtent(compute);
  if (reduceSlice > 0 && reduceSlice < extent) {
    plan.reduceSlice = reduceSlice;
    plan.reduceSteps = (extent + reduceSlice - 1) / reduceSlice;
  }
  plan.operandBytes.assign(compute->getNumOperands(), 0);
  plan.tail = groupTail(compute);
  for (Operation *op : plan.tail) {
    plan.tailOperandBytes.emplace_back(op->getNumOperands(), 0);
    plan.tailResultBytes.push_back(0);
  }
  for (Operation *op : groupChain(compute))
    if (auto oplib = dyn_cast<OpLibInterface>(op))
      plan.immBytes += oplib.getImmSpSize(hw, slice);
  return plan;
}

} // namespace

SmallVector<TensorBox, 4> tx8be::operandWindows(Operation *op, const TensorBox &out) {
  return operandBoxes(op, WindowParam{std::vector<int64_t>(out.start.begin(), out.start.end()),
                                      std::vector<int64_t>(out.size.begin(), out.size.end()), {}, {}});
}

std::vector<TensorBox> tx8be::shardBoxes(Operation *compute, ArrayRef<int64_t> sharding) {
  ArrayRef<int64_t> shape = cast<ShapedType>(compute->getResult(0).getType()).getShape();
  DeviceLayout layout = getDeviceLayout(compute->getResult(0));
  SmallVector<int64_t, 6> part(shape.size(), 0);
  std::vector<TensorBox> boxes;
  while (true) {
    TensorBox box;
    for (auto [d, extent] : llvm::enumerate(shape)) {
      int64_t parts = d < sharding.size() ? std::max<int64_t>(sharding[d], 1) : 1;
      int64_t len = (extent + parts - 1) / parts, start = std::min(part[d] * len, extent);
      box.start.push_back(start);
      box.size.push_back(std::min(len, extent - start));
      box.padLow.push_back(0);
      box.padHigh.push_back(0);
    }
    boxes.push_back(std::move(box));
    // Next part: the innermost device dim fastest.
    int64_t pos = static_cast<int64_t>(layout.order.size()) - 1;
    for (; pos >= 0; --pos) {
      int64_t d = layout.order[pos];
      int64_t parts = d < static_cast<int64_t>(sharding.size()) ? std::max<int64_t>(sharding[d], 1) : 1;
      if (++part[d] < parts)
        break;
      part[d] = 0;
    }
    if (pos < 0)
      break;
  }
  return boxes;
}

SmallVector<int64_t, 6> tx8be::largestShard(Operation *compute, ArrayRef<int64_t> sharding) {
  ArrayRef<int64_t> shape = cast<ShapedType>(compute->getResult(0).getType()).getShape();
  SmallVector<int64_t, 6> part(shape.begin(), shape.end());
  for (auto [d, parts] : llvm::enumerate(sharding))
    if (d < part.size() && parts > 1)
      part[d] = (part[d] + parts - 1) / parts;
  return part;
}

int64_t tx8be::regionTiles(GroupOp group) {
  if (RegionAttr region = group.getDevRegionAttr())
    return static_cast<int64_t>(region.getXDim()) * region.getYDim();
  return 1;
}

GroupPlan tx8be::planGroup(Operation *compute, ArrayRef<int64_t> slice, const tx8_hw_config &hw,
                           int64_t reduceSlice, ArrayRef<int64_t> sharding, unsigned tiles) {
  GroupPlan plan = startPlan(compute, slice, hw, reduceSlice);
  plan.sharding.assign(sharding.begin(), sharding.end());
  StepPlanner planner{compute, slice, hw, plan};
  ArrayRef<int64_t> shape = cast<ShapedType>(compute->getResult(0).getType()).getShape();
  std::vector<TensorBox> shards;
  if (sharding.empty())
    shards.push_back(TensorBox{SmallVector<int64_t, 6>(shape.size(), 0),
                               SmallVector<int64_t, 6>(shape.begin(), shape.end()), {}, {}});
  else
    shards = shardBoxes(compute, sharding);
  DeviceLayout layout = getDeviceLayout(compute->getResult(0));
  for (const TensorBox &shard : shards) {
    size_t before = plan.steps.size();
    if (llvm::all_of(shard.size, [](int64_t n) { return n > 0; })) {
      // Enumerate the slices of the shard, outer dims (in device memory order) varying slowest.
      SmallVector<int64_t, 6> start(shard.start.begin(), shard.start.end()), end;
      for (auto [s, n] : llvm::zip(shard.start, shard.size))
        end.push_back(s + n);
      while (true) {
        planner.add(start, end);
        // Next slice: innermost device dim first.
        int64_t pos = static_cast<int64_t>(layout.order.size()) - 1;
        for (; pos >= 0; --pos) {
          int64_t d = layout.order[pos];
          start[d] += slice[d];
          if (start[d] < end[d])
            break;
          start[d] = shard.start[d];
        }
        if (pos < 0)
          break;
      }
    }
    plan.tileSteps.push_back(static_cast<int64_t>(plan.steps.size() - before));
  }
  plan.tileSteps.resize(std::max<size_t>(plan.tileSteps.size(), std::max(tiles, 1u)), 0);
  return plan;
}

GroupPlan tx8be::planGroupSizes(Operation *compute, ArrayRef<int64_t> slice, const tx8_hw_config &hw,
                                int64_t reduceSlice) {
  GroupPlan plan = startPlan(compute, slice, hw, reduceSlice);
  StepPlanner planner{compute, slice, hw, plan};
  ArrayRef<int64_t> shape = cast<ShapedType>(compute->getResult(0).getType()).getShape();
  // Along each dim a box depends only on where its slice starts: the first slice, an inner one and the last
  // (the border halos, the full windows, the remainder) cover every size a step can have.
  SmallVector<SmallVector<int64_t, 3>, 6> starts;
  for (auto [extent, s] : llvm::zip(shape, slice)) {
    SmallVector<int64_t, 3> along{0};
    int64_t last = (extent - 1) / s * s;
    if (s < extent)
      along.push_back(s);
    if (last > s)
      along.push_back(last);
    starts.push_back(along);
  }
  SmallVector<size_t, 6> index(shape.size(), 0);
  while (true) {
    SmallVector<int64_t, 6> start;
    for (auto [d, i] : llvm::enumerate(index))
      start.push_back(starts[d][i]);
    planner.add(start, shape, /*sampled=*/true);
    size_t d = 0;
    for (; d < index.size(); ++d) {
      if (++index[d] < starts[d].size())
        break;
      index[d] = 0;
    }
    if (d == index.size())
      break;
  }
  return plan;
}

namespace {

/// genOpCode without the error it emits for an op OpLib has no kernel for (codegen reports that): a scoped handler
/// takes the diagnostics this thread raises meanwhile, and only those.
LogicalResult quietOpCall(Operation *op, OpCall &call) {
  auto oplib = dyn_cast<OpLibInterface>(op);
  if (!oplib)
    return failure();
  std::thread::id self = std::this_thread::get_id();
  ScopedDiagnosticHandler quiet(op->getContext(),
                                [self](Diagnostic &) { return success(std::this_thread::get_id() == self); });
  return oplib.genOpCode(call);
}

} // namespace

std::string tx8be::planContractProblem(const GroupPlan &plan, const tx8_hw_config &hw) {
  tx8_hw_config boundless = hw;
  boundless.spm_bytes = uint64_t{1} << 48;
  SmallVector<Operation *, 4> chain = groupChain(plan.compute);
  SmallVector<std::optional<OpCall>, 4> calls;
  for (Operation *op : chain) {
    OpCall call;
    calls.push_back(succeeded(quietOpCall(op, call)) ? std::optional<OpCall>(std::move(call)) : std::nullopt);
  }
  SmallVector<int64_t, 4> reduceDims = plan.reduceSteps > 1 ? reductionDims(plan.compute) : SmallVector<int64_t, 4>{};
  std::string why, error;
  for (auto [k, step] : llvm::enumerate(plan.steps)) {
    for (auto [position, op] : llvm::enumerate(chain)) {
      if (!calls[position] || op->getNumResults() != 1)
        continue;
      if (position > 0 && plan.reduceSteps > 1 && step.reducePart != plan.reduceSteps - 1)
        continue; // the tail runs once per output slice, after its last part
      KernelCallArgs args;
      uint64_t next = 0; // each buffer 4 GiB from the last
      auto format = [](Value v) { return detail::dataFormatOf(v.getType()); };
      bool known = true;
      Value prev = position > 0 ? chain[position - 1]->getResult(0) : Value();
      for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
        std::optional<Data_Format> fmt = format(operand);
        known &= fmt.has_value();
        // The chain's value is the step's slice of the previous result, as its store box says.
        const TensorBox &box = position == 0          ? step.operands[i]
                               : operand == prev      ? step.result
                                                      : step.tailOperands[position - 1][i];
        args.operands.push_back(KernelTensor{kernelOperandFormat(op, static_cast<unsigned>(i), fmt.value_or(Fmt_FP32)),
                                             (next++) << 32, opLibBoxView(op, static_cast<unsigned>(i), box.size)});
      }
      std::optional<Data_Format> outFmt = format(op->getResult(0));
      if (!known || !outFmt)
        continue;
      args.results.push_back(
          KernelTensor{*outFmt, (next++) << 32, opLibBoxView(op, op->getNumOperands(), step.result.size)});
      if (uint32_t imm = cast<OpLibInterface>(op).getImmSpSize(hw, plan.slice))
        args.imm = KernelTensor{Fmt_INT8, (next++) << 32, {static_cast<int64_t>(imm)}};
      if (position == 0 && op->getNumOperands() > 0 && calls[position]->usesStepPads())
        args.pads = stepPads(step.operands[0], cast<ShapedType>(op->getOperand(0).getType()).getRank());
      if (position == 0)
        applyReducePart(args, reduceDims, step.reducePart, plan.reduceSteps);
      if (failed(checkKernelCall(*calls[position], args, boundless, why, error)))
        continue;
      if (!why.empty())
        return op->getName().getStringRef().str() + " at step " + std::to_string(k) + ": " + why;
    }
  }
  return "";
}

bool tx8be::cutsOperand(const GroupPlan &plan, unsigned operand) {
  ArrayRef<int64_t> shape = cast<ShapedType>(plan.compute->getOperand(operand).getType()).getShape();
  return llvm::any_of(plan.steps, [&](const GroupStep &step) {
    return ArrayRef<int64_t>(step.operands[operand].size) != shape;
  });
}

bool tx8be::cutsTailOperand(const GroupPlan &plan, unsigned tailOp, unsigned operand) {
  ArrayRef<int64_t> shape = cast<ShapedType>(plan.tail[tailOp]->getOperand(operand).getType()).getShape();
  return llvm::any_of(plan.steps, [&](const GroupStep &step) {
    return ArrayRef<int64_t>(step.tailOperands[tailOp][operand].size) != shape;
  });
}

StepsOp tx8be::getGroupSteps(GroupOp group) {
  auto steps = group.getBody().front().getOps<StepsOp>();
  return steps.empty() ? StepsOp() : *steps.begin();
}

TransposeOp tx8be::getFoldableTranspose(GroupOp group) {
  StepsOp steps = getGroupSteps(group);
  if (!steps || group->getNumOperands() != 1 || group->getNumResults() != 1 || steps->getNumResults() != 1)
    return {};
  TransposeOp transpose;
  for (Operation &op : steps.getBody().front()) {
    if (isa<LoadBoxOp, StoreBoxOp, WaitOp>(op) || op.hasTrait<OpTrait::IsTerminator>())
      continue;
    if (transpose || !isa<TransposeOp>(op))
      return {};
    transpose = cast<TransposeOp>(op);
  }
  if (!transpose)
    return {};
  auto load = transpose.getInput().getDefiningOp<LoadBoxOp>();
  if (!load || load.getSource() != group.getBody().front().getArgument(0) || load.getPerm())
    return {};
  Value input = group->getOperand(0), result = group->getResult(0);
  if (getElementTypeOrSelf(input.getType()) != getElementTypeOrSelf(result.getType()) ||
      !getDeviceLayout(input).isCompactRowMajor() || !getDeviceLayout(result).isCompactRowMajor())
    return {};
  return transpose;
}

uint64_t tx8be::loadBoxBufferBytes(LoadBoxOp load, const tx8_hw_config &hw) {
  // The boxes are the output's (a transposed read's source is in another order).
  Value image = load.getPerm() ? load.getOutput() : load.getSource();
  uint64_t bytes = 0;
  for (int64_t k = 0; k < load.getBoxes().getCount(); ++k)
    bytes = std::max(bytes, spmBoxBytes(image, load.getBoxes().getBox(k).size, hw));
  return bytes;
}

GroupOp tx8be::getPrefetchHost(GroupOp group) {
  for (Operation *op = group->getPrevNode(); op; op = op->getPrevNode())
    if (auto host = dyn_cast<GroupOp>(op); host && host.getGroupTag().value_or(0) != 2 && getGroupSteps(host))
      return host;
  return GroupOp();
}

LogicalResult tx8be::buildSchedule(GroupOp group, const GroupPlan &plan) {
  Operation *compute = plan.compute;
  Block &body = group.getBody().front();
  auto ret = cast<ReturnOp>(body.getTerminator());
  MLIRContext *ctx = group.getContext();
  int64_t count = static_cast<int64_t>(plan.steps.size());
  auto table = [&](Value value, auto boxOf) {
    SmallVector<TensorBox> boxes;
    for (const GroupStep &step : plan.steps)
      boxes.push_back(boxOf(step));
    return BoxTableAttr::get(ctx, cast<ShapedType>(value.getType()).getRank(), boxes);
  };

  // The Steps fill the group's stored results, in Return order.
  SmallVector<StoreVarOp> stores;
  for (Value v : ret.getOperands()) {
    auto store = v.getDefiningOp<StoreVarOp>();
    if (!store || store.getInput().getDefiningOp() != plan.last())
      return group.emitOpError() << "returns a value that is not a StoreVar of the last op of its chain; cannot "
                                    "schedule it";
    stores.push_back(store);
  }
  // The ops of the chain, and the box of operand `i` of op `k` (0: the anchor) at a step.
  SmallVector<Operation *, 4> chain = groupChain(compute);
  auto operandBox = [](size_t k, unsigned i) {
    return [k, i](const GroupStep &s) { return k == 0 ? s.operands[i] : s.tailOperands[k - 1][i]; };
  };
  OpBuilder b(ret);
  SmallVector<Type> resultTypes;
  for (StoreVarOp store : stores)
    resultTypes.push_back(store.getType());
  SmallVector<int64_t, 16> tileSteps(plan.tileSteps);
  if (tileSteps.empty())
    tileSteps.push_back(count);
  auto steps = b.create<StepsOp>(compute->getLoc(), resultTypes, tileSteps, plan.slice, plan.reduceSteps,
                                 plan.sharding.empty() ? DenseI64ArrayAttr() : b.getDenseI64ArrayAttr(plan.sharding),
                                 plan.multiBuf, /*sp_stage_num=*/1,
                                 plan.estimate ? b.getI64IntegerAttr(static_cast<int64_t>(plan.estimate)) : IntegerAttr());
  Block *stepBody = b.createBlock(&steps.getBody());

  // On tiles that run the same number of steps, those whose box of an operand is the same at every step share
  // it: one tile multicasts it to all of them (LoadBox multicast).
  tx8_hw_config hw = getHwConfig(group);
  SmallVector<int64_t, 16> duties;
  int64_t perTile = tileSteps.front();
  bool lockstep = tileSteps.size() > 1 && llvm::all_of(tileSteps, [&](int64_t n) { return n == perTile && n > 0; });
  auto setMulticast = [&](LoadBoxOp box) {
    if (!lockstep || box.getOnce())
      return;
    BoxTableAttr rows = box.getBoxes();
    auto sameBoxes = [&](int64_t t, int64_t u) {
      for (int64_t k = 0; k < perTile; ++k)
        if (rows.getBox(t * perTile + k) != rows.getBox(u * perTile + k))
          return false;
      return true;
    };
    SmallVector<int64_t, 16> leaders =
        planMulticast(static_cast<int64_t>(tileSteps.size()), sameBoxes, hw, duties);
    if (!leaders.empty())
      box.setMulticastAttr(b.getDenseI64ArrayAttr(leaders));
  };

  // Loads of this step's operand boxes, then one wait for all of them.
  b.setInsertionPointToEnd(stepBody);
  SmallVector<Value> tokens;
  for (auto load : llvm::make_early_inc_range(body.getOps<LoadVarOp>())) {
    // One op of the chain reads it (tx8be-group-ldst loads an argument once per reading op).
    int64_t operand = -1;
    size_t reader = 0;
    for (OpOperand &use : load.getOutput().getUses())
      for (auto [k, op] : llvm::enumerate(chain))
        if (use.getOwner() == op && (operand < 0 || reader == k)) {
          operand = use.getOperandNumber();
          reader = k;
        }
    if (operand < 0 || llvm::any_of(load.getOutput().getUsers(), [&](Operation *u) { return u != chain[reader]; }))
      return load.emitOpError() << "is not read by exactly one op of the group's chain; cannot schedule it";
    auto box = b.create<LoadBoxOp>(load.getLoc(), load.getInput().getType(), TokenType::get(ctx), load.getInput(),
                                   table(load.getInput(), operandBox(reader, static_cast<unsigned>(operand))),
                                   /*dev_info=*/DevAttr(), /*once=*/UnitAttr(), /*multicast=*/DenseI64ArrayAttr(),
                                   /*prefetched=*/UnitAttr(), /*perm=*/DenseI64ArrayAttr());
    // The same box every step, and more than one step: loaded once (on several tiles, multicast).
    auto boxOf = operandBox(reader, static_cast<unsigned>(operand));
    if (count > 1 && llvm::all_of(plan.steps, [&](const GroupStep &s) { return boxOf(s) == boxOf(plan.steps.front()); }))
      box.setOnce(true);
    setMulticast(box);
    load.getOutput().replaceAllUsesWith(box.getOutput());
    load.erase();
    tokens.push_back(box.getToken());
  }
  // Constants a slice cuts (a conv's or gemm's weights split by output channels): read in place from DDR, and
  // each step loads its box like an input's. Constants no slice cuts stay loaded once, before the Steps.
  for (auto [k, op] : llvm::enumerate(chain))
    for (OpOperand &use : op->getOpOperands()) {
      auto load = use.get().getDefiningOp<LoadConstOp>();
      unsigned operand = use.getOperandNumber();
      if (!load || load->hasAttr("bypasscodegen") ||
          !(k == 0 ? cutsOperand(plan, operand) : cutsTailOperand(plan, k - 1, operand)))
        continue;
      if (!load->hasOneUse())
        return load.emitOpError() << "is read by more than one operand of its group's ops and a slice cuts it; "
                                     "cannot schedule it";
      load->setAttr("bypasscodegen", b.getBoolAttr(true));
      auto box = b.create<LoadBoxOp>(load.getLoc(), load.getOutput().getType(), TokenType::get(ctx),
                                     load.getOutput(), table(load.getOutput(), operandBox(k, operand)),
                                     /*dev_info=*/DevAttr(), /*once=*/UnitAttr(), /*multicast=*/DenseI64ArrayAttr(),
                                     /*prefetched=*/UnitAttr(), /*perm=*/DenseI64ArrayAttr());
      setMulticast(box);
      use.set(box.getOutput());
      tokens.push_back(box.getToken());
    }
  if (!tokens.empty())
    b.create<WaitOp>(group.getLoc(), tokens);
  for (Operation *op : chain)
    op->moveBefore(stepBody, stepBody->end());

  // Stores of this step's output slice.
  tokens.clear();
  b.setInsertionPointToEnd(stepBody);
  for (auto [i, store] : llvm::enumerate(stores)) {
    auto box = b.create<StoreBoxOp>(store.getLoc(), TokenType::get(ctx), store.getInput(), static_cast<int64_t>(i),
                                    table(store.getInput(), [](const GroupStep &s) { return s.result; }),
                                    /*perm=*/DenseI64ArrayAttr());
    tokens.push_back(box.getToken());
  }
  if (!tokens.empty())
    b.create<WaitOp>(group.getLoc(), tokens);
  for (auto [i, store] : llvm::enumerate(stores)) {
    ret.setOperand(i, steps.getResult(i));
    store.erase();
  }
  return success();
}

DevAttr tx8be::getOrCreateDevInfo(Operation *op) {
  if (auto dev = op->getAttrOfType<DevAttr>("dev_info"))
    return dev;
  MLIRContext *ctx = op->getContext();
  LayoutMode mode = LayoutMode::NTensor;
  if (op->getNumResults() >= 1 && isa<ShapedType>(op->getResult(0).getType()))
    mode = getDeviceLayout(op->getResult(0)).mode; // a LoadBox's is its source's
  return DevAttr::get(ctx, 0, LayoutModeAttr::get(ctx, mode), -1, DenseI64ArrayAttr::get(ctx, {}));
}

DevAttr tx8be::withMemAddr(DevAttr d, ArrayRef<int64_t> addrs) {
  MLIRContext *ctx = d.getContext();
  return DevAttr::get(ctx, d.getImmSize(), d.getMemLayout(), d.getImmAddr(), DenseI64ArrayAttr::get(ctx, addrs));
}

DevAttr tx8be::withImm(DevAttr d, uint64_t immSize, int64_t immAddr) {
  return DevAttr::get(d.getContext(), immSize, d.getMemLayout(), immAddr, d.getMemAddr());
}
