//===- GroupCost.cpp - Sharding and split by a cost model (tx8be-group-cost) -===//
//
// The seed's search (Sharding Search and SPM Management): for each Group, every sharding of its output over
// the tiles (ShardingLevel::init / getShardings, ordered by getFactor), per sharding the temporal split of one
// tile's shard that fits in SPM (single or double buffered), and an estimate of each candidate; the cheapest
// becomes the Group's schedule (buildSchedule). Searches are cached by group key (the seed's template_id).
//
//===----------------------------------------------------------------------===//
#include "tx8/Transforms/GroupCostModel.h"
#include "tx8/Transforms/GroupPlan.h"
#include "tx8/Transforms/PassStatistics.h"
#include "tx8/Transforms/Passes.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace tx8be {
#define GEN_PASS_DEF_GROUPCOSTPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

/// A candidate schedule: how the output is cut across tiles and in time, and its estimate.
struct Candidate {
  SmallVector<int64_t, 6> sharding; ///< parts per output dim (all 1: one tile)
  SmallVector<int64_t, 6> slice;
  int64_t reduceSlice = 0;
  int64_t multiBuf = 1;
  uint64_t estimate = UINT64_MAX;
  /// What the search compares: the estimate less the Transpose groups this plan's loads make unnecessary
  /// (TransposeCredit); below 0 when those cost more than the group itself.
  int64_t score = INT64_MAX;
};

/// An operand the group loads from a Group that only transposes (an attention's head split) and that nothing
/// else reads: a plan whose every box of it is the same bytes in the Transpose's input lets
/// tx8be-transposed-loads read it there and drop that Group, whose estimate the plan is credited with.
struct TransposeCredit {
  unsigned operand;
  SmallVector<int64_t, 6> perm;
  uint64_t cycles;
};

/// The compute op's TransposeCredits: its LoadVar operands whose source Group (planned already: the walk is in
/// program order) is a lone Transpose read only by this Group.
SmallVector<TransposeCredit> transposeCredits(Operation *compute) {
  SmallVector<TransposeCredit> credits;
  auto group = compute->getParentOfType<GroupOp>();
  for (auto [i, operand] : llvm::enumerate(compute->getOperands())) {
    auto load = operand.getDefiningOp<LoadVarOp>();
    auto arg = load ? dyn_cast<BlockArgument>(load.getInput()) : BlockArgument();
    if (!arg || arg.getOwner()->getParentOp() != group.getOperation())
      continue;
    Value source = group->getOperand(arg.getArgNumber());
    auto producer = source.getDefiningOp<GroupOp>();
    TransposeOp transpose = producer ? getFoldableTranspose(producer) : TransposeOp();
    if (!transpose || !source.hasOneUse())
      continue;
    auto estimate = getGroupSteps(producer)->getAttrOfType<IntegerAttr>("estimate");
    if (!estimate)
      continue;
    credits.push_back({static_cast<unsigned>(i), SmallVector<int64_t, 6>(transpose.getPerm()),
                       estimate.getValue().getZExtValue()});
  }
  return credits;
}

/// The shortest copy, in DDR latencies, a plan is credited with prefetching. A shorter one is mostly fixed costs
/// (the DTE's start-up and DDR latency, and the host's own loads it slows) that the credit does not weigh:
/// credited, they made the small torch-zoo models slower (BERT d 256 by 7 %, MobileNetV2 by 3 %).
constexpr uint64_t kMinPrefetchLatencies = 8;

/// The group before (getPrefetchHost), planned already, as tx8be-prefetch-weights sees it: a plan whose constant
/// boxes it may copy there has their loads hidden in as much of its time as DDR is not busy.
struct PrefetchHost {
  int64_t tiles = 0;
  bool lockstep = false; ///< a LoadBox multicast per step: nothing is copied during it
  uint64_t idleCycles = 0; ///< its estimate less its DDR bytes' cycles
  uint64_t spmBytes = 0;   ///< its plan's SPM footprint
};

/// One entry of the sharding space: parts per dim and the tiles it really uses (getFactor's tileNum).
struct ShardingSpace {
  SmallVector<int64_t, 6> sharding;
  int64_t usedTiles = 1;
};

/// getShardings: every vector of parts over the output dims, 1 on a dim that may not be cut, whose product is
/// `tiles`.
void getShardings(ArrayRef<bool> cuttable, size_t dim, int64_t product, int64_t tiles,
                  SmallVector<int64_t, 6> &current, std::vector<SmallVector<int64_t, 6>> &out) {
  if (dim == cuttable.size()) {
    if (product == tiles)
      out.push_back(current);
    return;
  }
  // Most parts first: of equal factors, the sharding that cuts the outer dims comes first (each tile's shard
  // is then one contiguous run of DDR where the layout allows).
  for (int64_t parts = cuttable[dim] ? tiles : 1; parts >= 1; --parts) {
    if (product * parts > tiles || tiles % (product * parts) != 0)
      continue;
    current[dim] = parts;
    getShardings(cuttable, dim + 1, product * parts, tiles, current, out);
  }
  current[dim] = 1;
}

/// The sharding space of `compute` on `tiles` tiles, best getFactor first (ties: the order getShardings found
/// them, outer dims cut most), then no sharding. `optSearch` bounds it (GroupCostPass).
std::vector<ShardingSpace> shardingSpace(Operation *compute, int64_t tiles, int optSearch) {
  ArrayRef<int64_t> shape = cast<ShapedType>(compute->getResult(0).getType()).getShape();
  SmallVector<bool, 6> cuttable(shape.size(), false);
  for (int64_t d : splittableDims(compute))
    cuttable[d] = true;
  std::vector<SmallVector<int64_t, 6>> all;
  if (tiles > 1) {
    SmallVector<int64_t, 6> current(shape.size(), 1);
    getShardings(cuttable, 0, 1, tiles, current, all);
  }
  std::vector<ShardingSpace> space;
  for (auto sharding : all) {
    // getFactor: a dim cut into more parts than it has elements uses only as many tiles as it has elements; it
    // is recorded cut into that many (the same shards; duplicates go).
    int64_t used = 1;
    for (auto [d, parts] : llvm::enumerate(sharding)) {
      parts = std::min(parts, shape[d]);
      used *= parts;
    }
    if (used > 1 && llvm::none_of(space, [&](const ShardingSpace &s) { return s.sharding == sharding; }))
      space.push_back({sharding, used});
  }
  std::stable_sort(space.begin(), space.end(),
                   [](const ShardingSpace &a, const ShardingSpace &b) { return a.usedTiles > b.usedTiles; });
  // getFactor's level: ceil(log2(tiles used)). 0 keeps the first sharding, 1 the two best levels.
  auto level = [](int64_t used) { return static_cast<int>(llvm::Log2_64_Ceil(static_cast<uint64_t>(used))); };
  if (optSearch == 0 && !space.empty())
    space.resize(1);
  else if (optSearch == 1 && !space.empty()) {
    int best = level(space.front().usedTiles);
    llvm::erase_if(space, [&](const ShardingSpace &s) { return level(s.usedTiles) + 1 < best; });
  }
  space.push_back({SmallVector<int64_t, 6>(shape.size(), 1), 1});
  return space;
}

/// The temporal split of one tile's part: cuts the splittable dims in an order that starts from one of them,
/// the first as little as needed (fewest steps, by binary search), the next ones only where one row of the
/// first is still too much. Cutting a conv's spatial dims keeps its weights whole (loaded once) but not its
/// input; cutting its output channels loads the weights in parts but the input every step: the estimate
/// weighs both. Only when no output slice fits is the reduction cut too (a Gemm's K, a Conv's input
/// channels), in the fewest parts that let one fit.
struct SplitSearch {
  Operation *compute;
  const tx8_hw_config &hw;
  const GroupCostModel &model;
  ArrayRef<int64_t> sharding;
  SmallVector<int64_t, 6> part; ///< extents of the largest shard
  int64_t usedTiles;            ///< tiles with a shard: the rows of the box tables are theirs together
  int64_t multiBuf;
  bool firstFit; ///< opt-search 0: the first order that fits, no comparison
  /// Drop a candidate whose sampled steps (planGroupSizes) make a call OpLib's check of its kernel refuses
  /// (planContractProblem), counting it in *dropped; false: take candidates as they are.
  bool checkContracts;
  uint64_t *dropped;
  ArrayRef<TransposeCredit> credits;
  std::optional<PrefetchHost> host;
  int64_t regionTiles; ///< the Group's tiles (the host must run on as many)

  /// The cycles of the candidate's constant loads tx8be-prefetch-weights can move into the group before: the
  /// host on as many tiles and not in lockstep, their buffers in the SPM both leave free.
  int64_t prefetchCredit(const Candidate &c) const {
    if (!host || host->lockstep || host->tiles != regionTiles)
      return 0;
    GroupCostBreakdown b = model.breakdown(c.sharding, c.slice, c.reduceSlice, c.multiBuf);
    if (b.prefetchCycles < kMinPrefetchLatencies * hw.ddr_latency_cycles)
      return 0;
    uint64_t footprint = planGroupSizes(compute, c.slice, hw, c.reduceSlice).footprint(spmBufferAlign(hw), c.multiBuf);
    if (std::max(footprint, host->spmBytes) + b.prefetchBytes > hw.spm_bytes)
      return 0;
    // The copies fill the host's time with DDR not busy; beyond it they would only move the wait.
    return static_cast<int64_t>(std::min({b.prefetchCycles, host->idleCycles, static_cast<uint64_t>(INT64_MAX / 8)}));
  }

  /// The candidate's estimate less the credits its boxes earn.
  int64_t score(const Candidate &c) const {
    auto estimate = static_cast<int64_t>(std::min<uint64_t>(c.estimate, INT64_MAX / 2)) - prefetchCredit(c);
    if (credits.empty())
      return estimate;
    GroupPlan plan = planGroupSizes(compute, c.slice, hw, c.reduceSlice);
    int64_t credit = 0;
    for (const TransposeCredit &t : credits)
      if (llvm::all_of(plan.steps, [&](const GroupStep &step) {
            return transposeKeepsBoxOrder(step.operands[t.operand], t.perm);
          }))
        credit += static_cast<int64_t>(std::min<uint64_t>(t.cycles, INT64_MAX / 8));
    return estimate - credit;
  }

  bool fits(ArrayRef<int64_t> slice, int64_t reduceSlice) const {
    return planGroupSizes(compute, slice, hw, reduceSlice).footprint(spmBufferAlign(hw), multiBuf) <= hw.spm_bytes;
  }

  /// The longest slice[d] in [slice[d], most] that still fits (binary search; slice[d] fits on entry).
  void lengthen(SmallVector<int64_t, 6> &slice, int64_t d, int64_t most, int64_t reduceSlice) const {
    int64_t lo = slice[d], hi = most;
    while (lo < hi) {
      int64_t mid = lo + (hi - lo + 1) / 2;
      slice[d] = mid;
      if (fits(slice, reduceSlice))
        lo = mid;
      else
        hi = mid - 1;
    }
    slice[d] = lo;
  }

  /// Cuts `order`'s dims in turn until the slice fits; nullopt if it never does.
  std::optional<SmallVector<int64_t, 6>> cutInOrder(ArrayRef<int64_t> order, int64_t reduceSlice) const {
    SmallVector<int64_t, 6> slice(part);
    if (fits(slice, reduceSlice))
      return slice;
    for (int64_t d : order) {
      slice[d] = 1;
      if (!fits(slice, reduceSlice))
        continue; // even one row along d is too much: cut the next dim too
      // Fewest steps along d that fit (fewer steps = longer slices).
      lengthen(slice, d, part[d], reduceSlice);
      return slice;
    }
    return std::nullopt;
  }

  /// A balanced slice: halves the longest cuttable dim until the slice fits, then lengthens each dim as far as
  /// it still fits. Where every order above cuts one dim to a sliver (a Gemm whose A and B are both too
  /// large: one row of A against a thin column block of B), this finds the square-ish tiles that reuse both.
  std::optional<SmallVector<int64_t, 6>> balanced(ArrayRef<int64_t> dims, int64_t reduceSlice) const {
    SmallVector<int64_t, 6> slice(part);
    while (!fits(slice, reduceSlice)) {
      int64_t longest = -1;
      for (int64_t d : dims)
        if (slice[d] > 1 && (longest < 0 || slice[d] > slice[longest]))
          longest = d;
      if (longest < 0)
        return std::nullopt;
      slice[longest] = (slice[longest] + 1) / 2;
    }
    for (int64_t d : dims)
      lengthen(slice, d, std::min(part[d], 2 * slice[d]), reduceSlice);
    return slice;
  }

  /// The cheapest candidate with the reduction in parts of `reduceSlice` (0: whole).
  std::optional<Candidate> best(int64_t reduceSlice) const {
    SmallVector<int64_t, 6> dims = splittableDims(compute);
    uint64_t parts = reduceSlice > 0 ? static_cast<uint64_t>((reductionExtent(compute) + reduceSlice - 1) / reduceSlice)
                                     : 1;
    std::optional<Candidate> best;
    auto consider = [&](std::optional<SmallVector<int64_t, 6>> slice) {
      if (!slice)
        return;
      // Every tile's steps are rows of the box tables (in the IR and in main.c).
      uint64_t steps = countSteps(part, *slice), tiles = static_cast<uint64_t>(usedTiles);
      if (steps > kMaxScheduleSteps || steps * parts > kMaxScheduleSteps || steps * parts * tiles > kMaxScheduleSteps)
        return;
      Candidate c{SmallVector<int64_t, 6>(sharding), std::move(*slice), reduceSlice, multiBuf, 0};
      c.estimate = model.estimate(c.sharding, c.slice, c.reduceSlice, c.multiBuf);
      c.score = score(c);
      // Ties keep the earlier candidate: outer device dims first.
      if (best && c.score >= best->score)
        return;
      if (checkContracts && !planContractProblem(planGroupSizes(compute, c.slice, hw, c.reduceSlice), hw).empty()) {
        ++*dropped;
        return;
      }
      best = std::move(c);
    };
    for (size_t first = 0; first < std::max<size_t>(dims.size(), 1); ++first) {
      SmallVector<int64_t, 6> order;
      if (!dims.empty())
        order.push_back(dims[first]);
      for (int64_t d : dims)
        if (d != order.front())
          order.push_back(d);
      consider(cutInOrder(order, reduceSlice));
      if (firstFit && best)
        return best;
    }
    if (dims.size() > 1)
      consider(balanced(dims, reduceSlice));
    // With credits, also the shard with one dim cut to single rows: an attention's one head per step, whose
    // boxes the Transpose's input holds as they are, where the shard of several heads fits whole.
    if (!credits.empty() && !firstFit)
      for (int64_t d : dims) {
        SmallVector<int64_t, 6> single(part);
        single[d] = 1;
        if (single != part && fits(single, reduceSlice))
          consider(single);
      }
    return best;
  }

  std::optional<Candidate> run() const {
    if (std::optional<Candidate> whole = best(0)) {
      // A Gemm's K in parts (the same sum, in the same order: bit-identical) gives the loads of the next part
      // a compute to hide behind when the output is a step or two per tile.
      if (multiBuf > 1 && isa<GemmOp, MatMulOp>(compute) && !firstFit)
        for (int64_t parts = 2, extent = reductionExtent(compute); parts <= 16; parts *= 2) {
          int64_t reduceSlice = (extent + parts - 1) / parts;
          if (reduceSlice < 4 * static_cast<int64_t>(hw.ne_step_k))
            break;
          std::optional<Candidate> c = best(reduceSlice);
          if (c && c->score < whole->score)
            whole = std::move(c);
        }
      return whole;
    }
    // The reduction in 2, 3, 4 ... parts (each part's extent shrinking), the fewest with which a slice fits.
    int64_t extent = reductionExtent(compute);
    for (int64_t parts = 2, last = 0; parts <= extent; ++parts) {
      int64_t reduceSlice = (extent + parts - 1) / parts;
      if (reduceSlice == last)
        continue;
      last = reduceSlice;
      if (!fits(smallestSlice(compute), reduceSlice))
        continue;
      if (std::optional<Candidate> choice = best(reduceSlice))
        return choice;
    }
    return std::nullopt;
  }

  /// Every splittable dim cut to 1.
  static SmallVector<int64_t, 6> smallestSlice(Operation *compute) {
    auto shape = cast<ShapedType>(compute->getResult(0).getType()).getShape();
    SmallVector<int64_t, 6> smallest(shape.begin(), shape.end());
    for (int64_t d : splittableDims(compute))
      smallest[d] = 1;
    return smallest;
  }
};

/// The best candidate over the sharding space, or nullopt when nothing fits; with `checkContracts`, of the
/// candidates whose calls OpLib's kernels accept (the others counted in `dropped`).
std::optional<Candidate> searchGroup(Operation *compute, const tx8_hw_config &hw, int64_t tiles, int optSearch,
                                     bool columnBlocks, ArrayRef<TransposeCredit> credits,
                                     std::optional<PrefetchHost> host, bool checkContracts, uint64_t &dropped) {
  GroupCostModel model(compute, hw, tiles, columnBlocks);
  std::optional<Candidate> best;
  for (const ShardingSpace &space : shardingSpace(compute, tiles, optSearch)) {
    SmallVector<int64_t, 6> part = largestShard(compute, space.sharding);
    for (int64_t multiBuf : {2, 1}) {
      SplitSearch search{compute,  hw,       model,          space.sharding, part,   space.usedTiles,
                         multiBuf, optSearch == 0, checkContracts, &dropped, credits, host, tiles};
      std::optional<Candidate> c = search.run();
      // A tie between the buffer counts of one sharding goes to one buffer: half the SPM for the same cycles.
      bool fewerBuffersAlike = c && best && c->score == best->score && c->sharding == best->sharding &&
                               c->multiBuf < best->multiBuf;
      if (c && (!best || c->score < best->score || fewerBuffersAlike))
        best = std::move(c);
      if (c && optSearch == 0)
        break;
    }
    if (best && optSearch == 0)
      break;
  }
  return best;
}

/// What makes two groups plan alike (the seed's template): the compute op with its attributes and types, the
/// device layout of every operand and of the result, which operands are constants (read in place or loaded) and
/// which are the same value (Add %x, %x: one buffer).
std::string groupKey(Operation *compute) {
  std::string key;
  llvm::raw_string_ostream os(key);
  for (Operation *op : groupChain(compute)) { // a fused group: every op of its chain, in order
    os << op->getName() << " " << op->getAttrDictionary() << " ";
    for (Value v : op->getOperands()) {
      DeviceLayout l = getDeviceLayout(v);
      os << v.getType() << " " << static_cast<int>(l.mode) << " [";
      for (int64_t d : l.order)
        os << d << ",";
      auto load = v.getDefiningOp<LoadConstOp>();
      os << "] " << (!load ? "var" : load->hasAttr("bypasscodegen") ? "in-place" : "const") << " same-as "
         << std::distance(op->getOperands().begin(), llvm::find(op->getOperands(), v)) << "; ";
    }
    DeviceLayout l = getDeviceLayout(op->getResult(0));
    os << "-> " << op->getResult(0).getType() << " " << static_cast<int>(l.mode) << " [";
    for (int64_t d : l.order)
      os << d << ",";
    os << "] | ";
  }
  return key;
}

/// The error for a compute op with no plan: the smallest slice's sizes, or its step count.
void reportNoPlan(Operation *compute, const tx8_hw_config &hw) {
  auto shape = cast<ShapedType>(compute->getResult(0).getType()).getShape();
  SmallVector<int64_t, 6> smallest = SplitSearch::smallestSlice(compute);
  GroupPlan plan = planGroupSizes(compute, smallest, hw, reductionExtent(compute) > 1 ? 1 : 0);
  if (plan.footprint(spmBufferAlign(hw)) <= hw.spm_bytes) {
    compute->emitOpError() << "fits in SPM only in slices [" << ArrayRef<int64_t>(smallest) << "] of "
                           << countSteps(shape, smallest) * static_cast<uint64_t>(plan.reduceSteps)
                           << " steps or more; a schedule has at most " << kMaxScheduleSteps;
    return;
  }
  InFlightDiagnostic diag = compute->emitOpError() << "does not fit in SPM even in its smallest slice: needs "
                                                   << plan.footprint(spmBufferAlign(hw)) << " bytes (";
  for (auto [i, bytes] : llvm::enumerate(plan.operandBytes))
    diag << "operand " << i << " " << bytes << ", ";
  diag << "result " << plan.resultBytes << ", scratch " << plan.immBytes << "), the SPM has " << hw.spm_bytes;
}

/// tx8be-fold-constants made every op with empty results a Constant; an empty operand with a non-empty
/// result (a Concat part, a sum over an empty axis) is left.
LogicalResult checkNotEmpty(Operation *compute) {
  SmallVector<Value> values(compute->getOperands());
  llvm::append_range(values, compute->getResults());
  for (Value v : values)
    if (auto type = dyn_cast<ShapedType>(v.getType()); type && type.hasStaticShape() && type.getNumElements() == 0)
      return compute->emitOpError() << "has an empty operand (" << type
                                    << "): the device does not compute on tensors with no elements";
  return success();
}

struct GroupCostPass : tx8be::impl::GroupCostPassBase<GroupCostPass> {
  using GroupCostPassBase::GroupCostPassBase;

  PassStatistic numPlanned{this, "planned", "Groups given a schedule"};
  PassStatistic numCacheHits{this, "cache-hits", "Groups planned by an earlier search of the same group key"};
  PassStatistic numContractDropped{this, "contract-dropped",
                                   "Candidate plans dropped because a kernel's contract refuses one of their calls"};

  void runOnOperation() override {
    tx8_hw_config hw = getHwConfig(getOperation());
    llvm::StringMap<std::optional<Candidate>> cache; // by group key and tile count
    llvm::DenseMap<Operation *, PrefetchHost> hosts;  // each planned Group, as the host of the one after it
    WalkResult walk = getOperation().walk([&](GroupOp group) {
      if (group.getGroupTag().value_or(0) == 2 || getGroupSteps(group))
        return WalkResult::advance(); // works in DDR, or planned already
      FailureOr<Operation *> compute = getGroupComputeOp(group);
      if (failed(compute) || failed(checkNotEmpty(*compute)))
        return WalkResult::interrupt();
      int64_t tiles = regionTiles(group);
      SmallVector<TransposeCredit> credits;
      if (transposedLoads)
        credits = transposeCredits(*compute);
      std::optional<PrefetchHost> host;
      if (prefetchWeights)
        if (GroupOp before = getPrefetchHost(group); before && hosts.count(before.getOperation()))
          host = hosts.lookup(before.getOperation());
      std::string key = std::to_string(tiles) + " " + groupKey(*compute);
      if (host) // the search weighs what the group before leaves
        key += " H" + std::to_string(host->tiles) + ":" + std::to_string(host->lockstep) + ":" +
               std::to_string(host->idleCycles) + ":" + std::to_string(host->spmBytes);
      for (const TransposeCredit &t : credits) { // the credits are part of what the search weighs
        key += " T" + std::to_string(t.operand) + ":" + std::to_string(t.cycles) + ":";
        for (int64_t d : t.perm)
          key += std::to_string(d) + ",";
      }
      auto [it, inserted] = cache.try_emplace(key);
      numCacheHits += !inserted;
      if (inserted) {
        uint64_t dropped = 0, again = 0;
        it->second =
            searchGroup(*compute, hw, tiles, optSearch, blockWeights, credits, host, /*checkContracts=*/true,
                        dropped);
        numContractDropped += dropped;
        // Every plan that fits breaks a kernel's contract: keep the best, and codegen refuses it naming the call
        // (node, op, tile, step and the kernel's reason).
        if (!it->second && dropped)
          it->second =
              searchGroup(*compute, hw, tiles, optSearch, blockWeights, credits, host, /*checkContracts=*/false,
                          again);
      }
      const std::optional<Candidate> &choice = it->second;
      if (!choice) {
        reportNoPlan(*compute, hw);
        return WalkResult::interrupt();
      }
      bool sharded = llvm::any_of(choice->sharding, [](int64_t p) { return p > 1; });
      GroupPlan plan = planGroup(*compute, choice->slice, hw, choice->reduceSlice,
                                 sharded ? ArrayRef<int64_t>(choice->sharding) : ArrayRef<int64_t>(),
                                 static_cast<unsigned>(tiles));
      plan.multiBuf = choice->multiBuf;
      plan.estimate = choice->estimate;
      if (failed(buildSchedule(group, plan)))
        return WalkResult::interrupt();
      if (prefetchWeights) {
        GroupCostBreakdown b = GroupCostModel(*compute, hw, tiles, blockWeights)
                                   .breakdown(choice->sharding, choice->slice, choice->reduceSlice, choice->multiBuf);
        hosts[group.getOperation()] = PrefetchHost{
            tiles, b.multicastCycles > 0, b.total > b.ddrCycles ? b.total - b.ddrCycles : 0,
            planGroupSizes(*compute, choice->slice, hw, choice->reduceSlice)
                .footprint(spmBufferAlign(hw), choice->multiBuf)};
      }
      ++numPlanned;
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
