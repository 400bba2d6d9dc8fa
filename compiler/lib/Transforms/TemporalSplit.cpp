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

/// Finds the largest slice that fits: cut the splittable dims in order, each into as few steps as needed.
struct SliceSearch {
  Operation *compute;
  const tx8_hw_config &hw;

  bool fits(ArrayRef<int64_t> slice) const {
    GroupPlan plan = planGroupSizes(compute, slice, hw);
    return keepsConstantsWhole(plan) && plan.footprint(spmBufferAlign(hw)) <= hw.spm_bytes;
  }

  /// A constant is loaded once, whole (LoadConst before the Steps): a slice may not cut one, or each step
  /// would read another part of it.
  bool keepsConstantsWhole(const GroupPlan &plan) const {
    for (auto [i, operand] : llvm::enumerate(compute->getOperands())) {
      if (!operand.getDefiningOp<LoadConstOp>())
        continue;
      ArrayRef<int64_t> shape = cast<ShapedType>(operand.getType()).getShape();
      for (const GroupStep &step : plan.steps)
        if (ArrayRef<int64_t>(step.operands[i].size) != shape)
          return false;
    }
    return true;
  }

  FailureOr<SmallVector<int64_t, 6>> run() const {
    auto shape = cast<ShapedType>(compute->getResult(0).getType()).getShape();
    SmallVector<int64_t, 6> slice(shape.begin(), shape.end());
    if (fits(slice))
      return slice;
    for (int64_t d : splittableDims(compute)) {
      // Fewest steps along d that fit (binary search over the slice length; fewer steps = longer slices).
      int64_t lo = 1, hi = shape[d];
      slice[d] = 1;
      if (!fits(slice))
        continue; // even one row along d is too much: cut the next dim too
      while (lo < hi) {
        int64_t mid = (lo + hi + 1) / 2;
        slice[d] = mid;
        if (fits(slice))
          lo = mid;
        else
          hi = mid - 1;
      }
      slice[d] = lo;
      return slice;
    }
    return failure();
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
      FailureOr<SmallVector<int64_t, 6>> slice = search.run();
      if (failed(slice)) {
        auto shape = cast<ShapedType>((*compute)->getResult(0).getType()).getShape();
        SmallVector<int64_t, 6> smallest(shape.begin(), shape.end());
        for (int64_t d : splittableDims(*compute))
          smallest[d] = 1;
        GroupPlan plan = planGroupSizes(*compute, smallest, hw);
        if (plan.footprint(spmBufferAlign(hw)) <= hw.spm_bytes) {
          (*compute)->emitOpError() << "fits in SPM only in slices that cut a constant operand, which is "
                                       "loaded whole once; slicing constants is not supported yet";
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
      auto shape = cast<ShapedType>((*compute)->getResult(0).getType()).getShape();
      if (uint64_t count = countSteps(shape, *slice); count > kMaxScheduleSteps) {
        (*compute)->emitOpError() << "fits in SPM only in slices [" << ArrayRef<int64_t>(*slice) << "] of " << count << " steps; a schedule has at most " << kMaxScheduleSteps;
        return WalkResult::interrupt();
      }
      if (failed(buildSchedule(group, planGroup(*compute, *slice, hw))))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
