//===- GroupCostModel.cpp - Cycles of a Group's candidate plan ------------===//
#include "tx8/Transforms/GroupCostModel.h"

#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"
#include "tx8/Dialect/Tx8be/IR/Tx8be.h"
#include "tx8/Transforms/GroupPlan.h"

#include "mlir/IR/BuiltinTypes.h"

#include "tx8/cm_cycles.h"

#include <algorithm>

using namespace mlir;
using namespace tx8be;

namespace {

uint64_t ceilDiv(uint64_t a, uint64_t b) { return b ? (a + b - 1) / b : 0; }

/// a * b, saturating (estimates of absurd plans must still compare, not wrap).
uint64_t mulSat(uint64_t a, uint64_t b) { return b != 0 && a > UINT64_MAX / 4 / b ? UINT64_MAX / 4 : a * b; }
uint64_t addSat(uint64_t a, uint64_t b) { return std::min(UINT64_MAX / 4, a + b); }

uint64_t product(ArrayRef<int64_t> values) {
  uint64_t p = 1;
  for (int64_t v : values)
    p = mulSat(p, static_cast<uint64_t>(std::max<int64_t>(v, 0)));
  return p;
}

/// The format the NE reads `compute`'s A and B in (tx8be-ne-precision's ne_in_fmt, else A's element type).
Data_Format neInputFormat(Operation *compute) {
  if (auto fmt = compute->getAttrOfType<StringAttr>("ne_in_fmt"); fmt && fmt.getValue() == "tf32")
    return Fmt_TF32;
  Type e = getElementTypeOrSelf(compute->getOperand(0).getType());
  if (e.isBF16())
    return Fmt_BF16;
  if (e.isF16())
    return Fmt_FP16;
  if (e.isInteger(8))
    return Fmt_INT8;
  return Fmt_FP32;
}

uint32_t clampU32(uint64_t v) { return static_cast<uint32_t>(std::min<uint64_t>(v, UINT32_MAX)); }

/// One DTE instruction copying `bytes` (one run) from DDR to the SPM of every tile of `rect`.
DTE_Param ddrMulticast(uint64_t bytes, MeshRect rect) {
  DTE_Param dte{};
  dte.ctrl.opcode = DTE_OP_COPY;
  dte.ctrl.src_mem = DTE_SRC_DDR;
  dte.param.size[0] = clampU32(bytes);
  dte.param.size[1] = dte.param.size[2] = 1;
  dte.param.dst_x0 = rect.x0, dte.param.dst_y0 = rect.y0, dte.param.dst_x1 = rect.x1, dte.param.dst_y1 = rect.y1;
  return dte;
}

} // namespace

bool GroupCostModel::isColumnBlockRun(Value value, ArrayRef<int64_t> size) const {
  // BlockWeights' commonColumnBlock as far as one box shows it: w whole columns of a compact row-major
  // constant whose rows of w elements are not whole bursts, N a multiple of w.
  auto load = value.getDefiningOp<LoadConstOp>();
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!columnBlocks || !load || !type || type.getRank() < 2 || !type.hasStaticShape() ||
      size.size() != static_cast<size_t>(type.getRank()))
    return false;
  DeviceLayout layout = getDeviceLayout(value);
  if (!layout.isIdentityOrder() || (layout.mode != LayoutMode::Tensor && layout.mode != LayoutMode::NTensor))
    return false;
  int64_t n = type.getShape().back(), w = size.back();
  uint64_t rowBytes = static_cast<uint64_t>(w) * (type.getElementTypeBitWidth() / 8);
  return w > 0 && w < n && n % w == 0 && rowBytes % std::max<uint32_t>(hw.ddr_burst_bytes, 1) != 0;
}

std::pair<uint64_t, uint64_t> GroupCostModel::dmaTraffic(Value value, ArrayRef<int64_t> size) const {
  if (isColumnBlockRun(value, size)) {
    // One run of the box's bytes in whole bursts.
    DMA_Param p{};
    p.param.size[0] = clampU32(spmBoxBytes(value, size, hw));
    p.param.size[1] = p.param.size[2] = 1;
    return {cm_dma_bytes(&hw, &p), 1};
  }
  // A box in device order: the innermost dims the box covers whole, and the first one it cuts, are one
  // contiguous run; the other dims count runs. A DMA instruction walks two such counts (size[1], size[2]).
  DeviceLayout layout = getDeviceLayout(value);
  auto shape = cast<ShapedType>(value.getType()).getShape();
  SmallVector<int64_t, 6> whole = toDeviceOrder(shape, layout.order), box = toDeviceOrder(size, layout.order);
  uint64_t bytes = spmBoxBytes(value, size, hw);
  uint64_t elems = std::max<uint64_t>(product(box), 1);
  uint64_t run = 1;
  int64_t d = static_cast<int64_t>(box.size()) - 1;
  for (; d >= 0; --d) {
    run = mulSat(run, static_cast<uint64_t>(box[d]));
    if (box[d] != whole[d]) {
      --d;
      break;
    }
  }
  SmallVector<uint64_t, 6> counts;
  for (; d >= 0; --d)
    if (box[d] > 1)
      counts.push_back(static_cast<uint64_t>(box[d]));
  uint64_t runs = product(SmallVector<int64_t, 6>(counts.begin(), counts.end()));
  uint64_t instructions = 1;
  for (size_t i = 2; i < counts.size(); ++i)
    instructions = mulSat(instructions, counts[i]);
  // The run's bytes in the device image (aligned layouts pad), each rounded up to whole bursts.
  uint64_t runBytes = ceilDiv(mulSat(bytes, run), elems);
  DMA_Param p{};
  p.param.size[0] = clampU32(runBytes);
  p.param.size[1] = clampU32(ceilDiv(runs, instructions));
  p.param.size[2] = 1;
  return {mulSat(cm_dma_bytes(&hw, &p), instructions), instructions};
}

uint64_t GroupCostModel::stepComputeCycles(ArrayRef<int64_t> size, int64_t reduce) const {
  TsmNeInstr ne{};
  ne.ctrl.in_fmt = neInputFormat(compute);
  if (isa<GemmOp, MatMulOp>(compute) && size.size() >= 2) {
    // op_gemm: one NE instruction per matrix of the box (a batched MatMul's leading dims).
    int64_t k = reduce > 0 ? reduce : reductionExtent(compute);
    ne.ctrl.opcode = NE_OP_GEMM;
    ne.param.m = clampU32(size[size.size() - 2]);
    ne.param.n = clampU32(size.back());
    ne.param.k = clampU32(std::max<int64_t>(k, 1));
    return mulSat(product(size.drop_back(2)), cm_cycles_ne(&hw, &ne));
  }
  if (auto conv = dyn_cast<ConvOp>(compute); conv && size.size() >= 3 && size.size() <= 4) {
    auto w = conv.getWeight().getType().getShape();
    int64_t group = conv.getGroup(), outC = conv.getOutput().getType().getDimSize(1);
    int64_t inC = reduce > 0 ? reduce : conv.getInput().getType().getDimSize(1);
    // A step's slice of a depthwise conv has its own channels' groups; of a grouped one, all of them.
    int64_t groups = group == 1 ? 1 : (group == outC ? size[1] : group);
    int64_t stepInC = group == 1 ? inC : (group == outC ? size[1] : inC);
    ne.ctrl.opcode = NE_OP_CONV;
    ne.conv.batch = clampU32(size[0]);
    ne.conv.out_c = clampU32(size[1]);
    ne.conv.out_h = clampU32(size.size() == 4 ? size[2] : 1);
    ne.conv.out_w = clampU32(size.back());
    ne.conv.in_c = clampU32(stepInC);
    ne.conv.groups = clampU32(std::max<int64_t>(groups, 1));
    ne.conv.kernel_h = clampU32(w.size() == 4 ? w[2] : 1);
    ne.conv.kernel_w = clampU32(w.back());
    return cm_cycles_ne(&hw, &ne);
  }
  if (auto oplib = dyn_cast<OpLibInterface>(compute); reduce <= 0 && oplib)
    if (uint64_t cycles = oplib.getSliceClockCycle(hw, size))
      return cycles;
  return shareOfOpCycles(compute, size);
}

uint64_t GroupCostModel::shareOfOpCycles(Operation *op, ArrayRef<int64_t> size) const {
  // The op's whole-op estimate, in proportion to the step's share of the output.
  uint64_t whole = 0;
  if (auto oplib = dyn_cast<OpLibInterface>(op))
    whole = oplib.getOpClockCycle(hw);
  uint64_t total = product(cast<ShapedType>(op->getResult(0).getType()).getShape());
  uint64_t share = total ? ceilDiv(mulSat(whole, product(size)), total) : whole;
  return std::max<uint64_t>(share, std::min<uint64_t>(whole, hw.ct_startup_cycles));
}

GroupCostBreakdown GroupCostModel::breakdown(ArrayRef<int64_t> sharding, ArrayRef<int64_t> slice, int64_t reduceSlice,
                                             int64_t multiBuf) const {
  GroupCostBreakdown b;
  if (llvm::any_of(sharding, [](int64_t p) { return p > 1; })) {
    b.activeTiles = 0;
    for (const TensorBox &shard : shardBoxes(compute, sharding))
      b.activeTiles += llvm::all_of(shard.size, [](int64_t n) { return n > 0; });
  }
  SmallVector<int64_t, 6> part = largestShard(compute, sharding);
  GroupPlan sizes = planGroupSizes(compute, slice, hw, reduceSlice);
  uint64_t slices = countSteps(part, slice);
  b.steps = mulSat(slices, static_cast<uint64_t>(sizes.reduceSteps));

  // One step's boxes: those of an inner step (the sampled step with the largest boxes stands for all).
  const GroupStep *step = &sizes.steps.front();
  for (const GroupStep &s : sizes.steps)
    if (product(s.result.size) > product(step->result.size))
      step = &s;
  // Every tile that streams shares DDR with the others.
  uint64_t streaming = std::max<uint64_t>(b.activeTiles, 1);
  uint64_t rate = std::max<uint64_t>(1, std::min<uint64_t>(hw.lsu_bytes_per_cycle, hw.ddr_bytes_per_cycle / streaming));
  auto dma = [&](uint64_t bytes, uint64_t instructions) {
    return addSat(mulSat(hw.ddr_latency_cycles, instructions), ceilDiv(bytes, rate));
  };
  uint64_t loadBytes = 0, loadInstr = 0, constBytes = 0, constInstr = 0, sharedBytes = 0, sharedInstr = 0;
  uint64_t prefetchDdrBytes = 0, prefetchInstr = 0;
  // buildSchedule multicasts an operand per step when the tiles run the same number of steps (equal shards)
  // and the tiles whose shards read the same window of it fill mesh rectangles: each group's leader brings the
  // box with one DTE; DDR carries it once per group.
  std::vector<TensorBox> shards;
  if (b.activeTiles > 1 && static_cast<int64_t>(b.activeTiles) == tiles) {
    shards = shardBoxes(compute, sharding);
    if (llvm::any_of(shards, [&](const TensorBox &s) { return s.size != shards.front().size; }))
      shards.clear();
  }
  SmallVector<int64_t, 16> duties;
  SmallVector<uint64_t, 16> leaderBytes(static_cast<size_t>(std::max<int64_t>(tiles, 1)), 0),
      leaderFixed(leaderBytes.size(), 0);
  uint64_t mcastDdrBytes = 0; // one step's, the whole chip's
  auto multicastGroups = [&](Operation *op, unsigned i) -> SmallVector<int64_t, 16> {
    if (shards.empty())
      return {};
    SmallVector<TensorBox, 16> windows;
    for (const TensorBox &shard : shards)
      windows.push_back(operandWindows(op, shard)[i]);
    return planMulticast(static_cast<int64_t>(shards.size()),
                         [&](int64_t t, int64_t u) { return windows[t] == windows[u]; }, hw, duties);
  };
  // buildSchedule loads an operand once when its box is the same at every step (the sampled steps stand for all).
  bool severalSteps = b.steps * std::max<uint64_t>(b.activeTiles, 1) > 1;
  // The operands of op `k` of the chain (0: the anchor) but the chain value `chained`.
  auto addLoads = [&](Operation *op, unsigned k, Value chained) {
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      auto load = operand.getDefiningOp<LoadConstOp>();
      if (operand == chained || (load && load->hasAttr("bypasscodegen")))
        continue; // the previous op's result in SPM, or read in place
      auto boxOf = [&, k = k, i = i](const GroupStep &s) -> const TensorBox & {
        return k == 0 ? s.operands[i] : s.tailOperands[k - 1][i];
      };
      const TensorBox &box = boxOf(*step);
      bool perStep = !load || (k == 0 ? cutsOperand(sizes, i) : cutsTailOperand(sizes, k - 1, i));
      auto shapeOf = cast<ShapedType>(operand.getType()).getShape();
      auto [bytes, instr] = dmaTraffic(operand, perStep ? ArrayRef<int64_t>(box.size) : shapeOf);
      if (!load && severalSteps &&
          llvm::all_of(sizes.steps, [&](const GroupStep &s) { return boxOf(s) == boxOf(sizes.steps.front()); })) {
        sharedBytes += bytes;
        sharedInstr += instr;
        continue;
      }
      if (perStep && b.steps > 0)
        if (SmallVector<int64_t, 16> leaders = multicastGroups(op, static_cast<unsigned>(i)); !leaders.empty()) {
          for (auto [t, leader] : llvm::enumerate(leaders)) {
            if (static_cast<int64_t>(t) != leader)
              continue;
            // Each DTE instruction pays its start-up, hops and DDR latency (planMulticast made the rectangles).
            DTE_Param dte = ddrMulticast(1, *multicastRectangle(leaders, leader, hw));
            leaderFixed[t] = addSat(leaderFixed[t], mulSat(cm_dte_fixed_cycles(&hw, static_cast<uint32_t>(t), &dte), instr));
            leaderBytes[t] = addSat(leaderBytes[t], bytes);
            mcastDdrBytes = addSat(mcastDdrBytes, bytes);
          }
          continue;
        }
      (perStep ? loadBytes : constBytes) += bytes;
      (perStep ? loadInstr : constInstr) += instr;
      if (load && (!perStep || b.steps == 1)) {
        prefetchDdrBytes += bytes;
        prefetchInstr += instr;
        uint64_t buffer = spmBoxBytes(operand, perStep ? ArrayRef<int64_t>(box.size) : shapeOf, hw);
        b.prefetchBytes = addSat(b.prefetchBytes, llvm::alignTo(buffer, spmBufferAlign(hw)));
      }
    }
  };
  addLoads(compute, 0, Value());
  for (auto [t, op] : llvm::enumerate(sizes.tail))
    addLoads(op, t + 1, (t ? sizes.tail[t - 1] : compute)->getResult(0));
  auto [storeBytes, storeInstr] = dmaTraffic(sizes.last()->getResult(0), step->result.size);
  b.loadCycles = dma(loadBytes, loadInstr);
  b.storeCycles = dma(storeBytes, storeInstr);
  b.constCycles = constInstr ? dma(constBytes, constInstr) : 0;
  b.prefetchCycles = prefetchInstr ? dma(prefetchDdrBytes, prefetchInstr) : 0;
  if (sharedInstr && b.activeTiles > 1) {
    // Tile 0's DTE reads DDR once and writes the SPM of every tile of the multicast rectangle (the chip model's
    // cm_cycles_dte, the bytes already in whole bursts; each further instruction pays its DDR latency), then a
    // barrier.
    auto [x1, y1] = multicastCorner(tiles, hw);
    DTE_Param dte = ddrMulticast(sharedBytes, MeshRect{0, 0, x1, y1});
    b.sharedCycles = addSat(addSat(cm_cycles_dte(&hw, 0, &dte), mulSat(hw.ddr_latency_cycles, sharedInstr - 1)),
                            hw.barrier_cycles);
  } else if (sharedInstr) {
    b.sharedCycles = dma(sharedBytes, sharedInstr);
  }
  // Lockstep: the slowest leader's multicasts at its link's rate (the DDR they share with every other copy of
  // the step bounds the step below).
  uint64_t leaders = static_cast<uint64_t>(llvm::count_if(leaderBytes, [](uint64_t n) { return n > 0; }));
  for (auto [bytes, fixed] : llvm::zip(leaderBytes, leaderFixed))
    b.multicastCycles =
        std::max(b.multicastCycles, addSat(fixed, ceilDiv(bytes, std::max<uint32_t>(hw.noc_link_bytes_per_cycle, 1))));
  int64_t reducePart = sizes.reduceSteps > 1 ? sizes.reduceSlice : 0;
  b.computeCycles = stepComputeCycles(step->result.size, reducePart);
  // The tail runs once per output slice, after the reduction's last part.
  uint64_t tail = 0;
  for (Operation *op : sizes.tail)
    tail = addSat(tail, shareOfOpCycles(op, step->result.size));
  b.computeCycles = addSat(b.computeCycles, ceilDiv(tail, static_cast<uint64_t>(sizes.reduceSteps)));

  // One tile: the steps overlap as the schedule lets them (GroupCostModel.h).
  uint64_t parts = static_cast<uint64_t>(sizes.reduceSteps);
  uint64_t storePerStep = ceilDiv(b.storeCycles, parts);
  uint64_t laterSteps = b.steps > 0 ? b.steps - 1 : 0;
  uint64_t perStep;
  if (leaders) {
    // Lockstep: every tile's step waits for the slowest engine of any tile, and for the chip's DDR bytes of the
    // step, then a barrier (two with one buffer: the next multicast may not overwrite a buffer still read).
    // Copies that share one bottleneck take about as long as the bytes through it: each tile's loads at its
    // port, each leader's multicasts at its link, all of them and the stores through DDR.
    // (With one buffer a step's store comes after its compute and overlaps the next step's copies; the last one
    // is storeCycles.)
    uint64_t stepStores = multiBuf >= 2 ? mulSat(ceilDiv(storeBytes, parts), b.activeTiles) : 0;
    uint64_t stepDdr = addSat(hw.ddr_latency_cycles,
                              ceilDiv(addSat(addSat(mulSat(loadBytes, b.activeTiles), stepStores), mcastDdrBytes),
                                      std::max<uint32_t>(hw.ddr_bytes_per_cycle, 1)));
    uint64_t localLoads = loadInstr ? addSat(mulSat(hw.ddr_latency_cycles, loadInstr),
                                             ceilDiv(loadBytes, std::max<uint32_t>(hw.lsu_bytes_per_cycle, 1)))
                                    : 0;
    uint64_t copies = std::max({localLoads, b.multicastCycles, stepDdr});
    if (multiBuf >= 2)
      perStep = addSat(std::max({b.computeCycles, copies, storePerStep}), hw.barrier_cycles);
    else
      perStep = addSat(addSat(copies, b.computeCycles), 2ull * hw.barrier_cycles);
    b.tileCycles = addSat(addSat(multiBuf >= 2 ? copies : 0, mulSat(perStep, b.steps)), b.storeCycles);
  } else if (multiBuf >= 2) {
    // The pipeline fills with the first step's loads; each further step costs its slowest engine; it drains with
    // the last step's compute and store. A plan that cuts the reduction keeps a whole step for the drain: priced
    // with its last compute only, such plans won over the ones whose constants tx8be-prefetch-weights copies
    // during the Group before (which this model does not price) and then ran slower (the small torch-zoo ViT's
    // MLPs: 1.8k cycles a layer instead of 0.9k; lit prefetch-weights.mlir's MLP). The lockstep estimate above
    // still counts the first copies twice: made exact, it moved plans out of reach of the same prefetch.
    uint64_t ddrPerStep = ceilDiv(addSat(loadBytes, ceilDiv(storeBytes, parts)), rate);
    perStep = std::max({b.computeCycles, b.loadCycles, storePerStep, ddrPerStep});
    uint64_t drain = parts > 1 ? perStep : b.computeCycles;
    b.tileCycles = addSat(addSat(b.loadCycles, mulSat(perStep, laterSteps)), addSat(drain, b.storeCycles));
  } else {
    // Single buffered: a step's loads, then its compute; its store overlaps the next step's loads, through the
    // same share of DDR (the first step's loads have it to themselves).
    uint64_t ddrPerStep = ceilDiv(addSat(loadBytes, ceilDiv(storeBytes, parts)), rate);
    uint64_t later = std::max(addSat(std::max(b.loadCycles, ddrPerStep), b.computeCycles), storePerStep);
    perStep = std::max(addSat(b.loadCycles, b.computeCycles), storePerStep);
    b.tileCycles = addSat(addSat(perStep, mulSat(later, laterSteps)), b.storeCycles);
  }
  b.tileCycles = addSat(addSat(b.tileCycles, b.constCycles), b.sharedCycles);

  // The chip: every active tile's bytes through the one DDR.
  uint64_t tileBytes = addSat(addSat(mulSat(loadBytes, b.steps), mulSat(storeBytes, slices)), constBytes);
  b.ddrBytes = addSat(addSat(mulSat(tileBytes, streaming), sharedBytes), mulSat(mcastDdrBytes, b.steps));
  b.ddrCycles = addSat(hw.ddr_latency_cycles, ceilDiv(b.ddrBytes, std::max<uint32_t>(hw.ddr_bytes_per_cycle, 1)));
  b.total = std::max(b.tileCycles, b.ddrCycles);
  if (tiles > 1)
    b.total = addSat(b.total, hw.barrier_cycles);
  return b;
}
