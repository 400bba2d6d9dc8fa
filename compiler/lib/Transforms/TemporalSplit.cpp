//===- TemporalSplit.cpp - Slices that fit in SPM (tx8be-temporal-split) ---===//
#include "tx8/Transforms/GroupPlan.h"
#include "tx8/Transforms/Passes.h"

namespace tx8be {
#define GEN_PASS_DEF_TEMPORALSPLITPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

/// A candidate schedule: the output slice and the parts of the reduction (0: whole).
struct SplitChoice {
  SmallVector<int64_t, 6> slice;
  int64_t reduceSlice = 0;
};

/// Chooses the output slice: among the slices that fit, the one the DDR traffic model says is cheapest. A
/// candidate cuts the splittable dims in an order that starts from one of them: the first as little as needed
/// (fewest steps, by binary search), the next ones only where one row of the first is still too much. Cutting
/// a conv's spatial dims keeps its weights whole (loaded once) but not its input; cutting its output channels
/// loads the weights in parts but the input every step: the cost weighs both. Only when no output slice fits
/// is the reduction cut too (a Gemm's K, a Conv's input channels), in the fewest parts that let one fit.
struct SliceSearch {
  Operation *compute;
  const tx8_hw_config &hw;

  bool fits(ArrayRef<int64_t> slice, int64_t reduceSlice) const {
    return planGroupSizes(compute, slice, hw, reduceSlice).footprint(spmBufferAlign(hw)) <= hw.spm_bytes;
  }

  /// Estimated DMA cycles of the whole schedule: every box a step loads or stores, at the DDR port's rate, plus
  /// a latency per transfer; a constant no step cuts is loaded once, an output slice stored once.
  uint64_t cost(const SplitChoice &choice) const {
    GroupPlan sizes = planGroupSizes(compute, choice.slice, hw, choice.reduceSlice);
    auto shape = cast<ShapedType>(compute->getResult(0).getType()).getShape();
    uint64_t slices = countSteps(shape, choice.slice);
    uint64_t steps = slices * static_cast<uint64_t>(sizes.reduceSteps);
    uint64_t width = std::max<uint64_t>(1, std::min<uint64_t>(hw.lsu_bytes_per_cycle, hw.ddr_bytes_per_cycle));
    auto transfer = [&](uint64_t bytes, uint64_t times) {
      uint64_t once = hw.ddr_latency_cycles + (bytes + width - 1) / width;
      return times != 0 && once > UINT64_MAX / 4 / times ? UINT64_MAX / 4 : once * times;
    };
    uint64_t total = transfer(sizes.resultBytes, slices);
    for (auto [i, operand] : llvm::enumerate(compute->getOperands())) {
      auto load = operand.getDefiningOp<LoadConstOp>();
      if (load && load->hasAttr("bypasscodegen"))
        continue; // read in place
      bool once = load && !cutsOperand(sizes, i);
      total = std::min(UINT64_MAX / 2, total + transfer(sizes.operandBytes[i], once ? 1 : steps));
    }
    return total;
  }

  /// Cuts `order`'s dims in turn until the slice fits; nullopt if it never does.
  std::optional<SmallVector<int64_t, 6>> cutInOrder(ArrayRef<int64_t> order, int64_t reduceSlice) const {
    auto shape = cast<ShapedType>(compute->getResult(0).getType()).getShape();
    SmallVector<int64_t, 6> slice(shape.begin(), shape.end());
    if (fits(slice, reduceSlice))
      return slice;
    for (int64_t d : order) {
      slice[d] = 1;
      if (!fits(slice, reduceSlice))
        continue; // even one row along d is too much: cut the next dim too
      // Fewest steps along d that fit (binary search over the slice length; fewer steps = longer slices).
      int64_t lo = 1, hi = shape[d];
      while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        slice[d] = mid;
        if (fits(slice, reduceSlice))
          lo = mid;
        else
          hi = mid - 1;
      }
      slice[d] = lo;
      return slice;
    }
    return std::nullopt;
  }

  /// The cheapest candidate with the reduction in parts of `reduceSlice` (0: whole).
  std::optional<SplitChoice> best(int64_t reduceSlice) const {
    auto shape = cast<ShapedType>(compute->getResult(0).getType()).getShape();
    SmallVector<int64_t, 6> dims = splittableDims(compute);
    uint64_t parts = reduceSlice > 0 ? static_cast<uint64_t>(
                                           (reductionExtent(compute) + reduceSlice - 1) / reduceSlice)
                                     : 1;
    std::optional<SplitChoice> best;
    uint64_t bestCost = UINT64_MAX;
    for (size_t first = 0; first < std::max<size_t>(dims.size(), 1); ++first) {
      SmallVector<int64_t, 6> order;
      if (!dims.empty())
        order.push_back(dims[first]);
      for (int64_t d : dims)
        if (d != order.front())
          order.push_back(d);
      std::optional<SmallVector<int64_t, 6>> slice = cutInOrder(order, reduceSlice);
      if (!slice)
        continue;
      uint64_t steps = countSteps(shape, *slice);
      if (steps > kMaxScheduleSteps || steps * parts > kMaxScheduleSteps)
        continue;
      // Ties keep the earlier candidate: outer device dims first.
      SplitChoice choice{std::move(*slice), reduceSlice};
      if (uint64_t c = cost(choice); c < bestCost) {
        bestCost = c;
        best = std::move(choice);
      }
    }
    return best;
  }

  FailureOr<SplitChoice> run() const {
    if (std::optional<SplitChoice> whole = best(0))
      return *whole;
    // The reduction in 2, 3, 4 ... parts (each part's extent shrinking), the fewest with which a slice fits.
    int64_t extent = reductionExtent(compute);
    for (int64_t parts = 2, last = 0; parts <= extent; ++parts) {
      int64_t reduceSlice = (extent + parts - 1) / parts;
      if (reduceSlice == last)
        continue;
      last = reduceSlice;
      if (!fits(smallestSlice(), reduceSlice))
        continue;
      if (std::optional<SplitChoice> choice = best(reduceSlice))
        return *choice;
    }
    return failure();
  }

  /// Every splittable dim cut to 1.
  SmallVector<int64_t, 6> smallestSlice() const {
    auto shape = cast<ShapedType>(compute->getResult(0).getType()).getShape();
    SmallVector<int64_t, 6> smallest(shape.begin(), shape.end());
    for (int64_t d : splittableDims(compute))
      smallest[d] = 1;
    return smallest;
  }
};

struct TemporalSplitPass : tx8be::impl::TemporalSplitPassBase<TemporalSplitPass> {
  using TemporalSplitPassBase::TemporalSplitPassBase;

  void runOnOperation() override {
    tx8_hw_config hw = getHwConfig(getOperation());
    WalkResult walk = getOperation().walk([&](GroupOp group) {
      if (group.getGroupTag().value_or(0) == 2 || getGroupSteps(group))
        return WalkResult::advance(); // works in DDR, or planned already
      FailureOr<Operation *> compute = getGroupComputeOp(group);
      if (failed(compute))
        return WalkResult::interrupt();
      // tx8be-fold-constants made every op with empty results a Constant; an empty operand with a non-empty
      // result (a Concat part, a sum over an empty axis) is left.
      SmallVector<Value> values((*compute)->getOperands());
      llvm::append_range(values, (*compute)->getResults());
      for (Value v : values)
        if (auto type = dyn_cast<ShapedType>(v.getType()); type && type.hasStaticShape() && type.getNumElements() == 0) {
          (*compute)->emitOpError() << "has an empty operand (" << type
                                    << "): the device does not compute on tensors with no elements";
          return WalkResult::interrupt();
        }
      SliceSearch search{*compute, hw};
      FailureOr<SplitChoice> choice = search.run();
      if (failed(choice)) {
        // Report the smallest slice (the reduction in its smallest parts too).
        auto shape = cast<ShapedType>((*compute)->getResult(0).getType()).getShape();
        SmallVector<int64_t, 6> smallest = search.smallestSlice();
        GroupPlan plan = planGroupSizes(*compute, smallest, hw, reductionExtent(*compute) > 1 ? 1 : 0);
        if (plan.footprint(spmBufferAlign(hw)) <= hw.spm_bytes) {
          (*compute)->emitOpError() << "fits in SPM only in slices [" << ArrayRef<int64_t>(smallest) << "] of "
                                    << countSteps(shape, smallest) * static_cast<uint64_t>(plan.reduceSteps)
                                    << " steps or more; a schedule has at most " << kMaxScheduleSteps;
          return WalkResult::interrupt();
        }
        InFlightDiagnostic diag = (*compute)->emitOpError()
                                  << "does not fit in SPM even in its smallest slice: needs "
                                  << plan.footprint(spmBufferAlign(hw)) << " bytes (";
        for (auto [i, bytes] : llvm::enumerate(plan.operandBytes))
          diag << "operand " << i << " " << bytes << ", ";
        diag << "result " << plan.resultBytes << ", scratch " << plan.immBytes << "), the SPM has " << hw.spm_bytes;
        return WalkResult::interrupt();
      }
      if (failed(buildSchedule(group, planGroup(*compute, choice->slice, hw, choice->reduceSlice))))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
