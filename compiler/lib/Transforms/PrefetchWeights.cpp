//===- PrefetchWeights.cpp - Constant boxes copied during the Group before (tx8be-prefetch-weights) -===//
//
// A linear layer cut by output columns over the tiles starts with every tile loading its columns of the weight,
// and nothing else can start before they are in; the Group before it spent part of its time multicasting,
// computing and storing with DDR partly idle. Copying the columns during that Group (the host) moves them off
// the critical path when the host has idle DDR time, and costs nothing more when it has none: the same bytes
// cross DDR, earlier. The buffers go to the top of the SPM, where neither Group allocates (tx8be-spm-alloc packs
// from 0), alternating with the host's own prefetched buffers.
//
//===----------------------------------------------------------------------===//
#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"
#include "tx8/Dialect/Tx8be/IR/HwConfig.h"
#include "tx8/Transforms/GroupPlan.h"
#include "tx8/Transforms/Passes.h"

namespace tx8be {
#define GEN_PASS_DEF_PREFETCHWEIGHTSPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

/// SPM bytes [begin, end) of one tile.
struct SpmRange {
  uint64_t begin = 0, end = 0;
  bool overlaps(const SpmRange &o) const { return begin < o.end && o.begin < end; }
};

/// A LoadBox each tile could load before its Group: a constant read in place, neither once nor multicast, whose box
/// is the same at every step of a tile, in a compact layout (the DTE copies any box of those; a Cx box must hold
/// C whole).
bool isPrefetchable(LoadBoxOp load, StepsOp steps) {
  if (load.getOnce() || load.getMulticast() || !load.getSource().getDefiningOp<LoadConstOp>())
    return false;
  LayoutMode mode = getDeviceLayout(load.getOutput()).mode;
  if (mode != LayoutMode::Tensor && mode != LayoutMode::NTensor)
    return false;
  return !load.getBoxes().hasPads() && !load.findBoxChangeWithinTile(steps);
}

uint64_t alignUp(uint64_t n, uint64_t align) { return (n + align - 1) / align * align; }

/// A host whose steps run in lockstep (a LoadBox multicast per step) meets the other tiles at a barrier in each
/// step, and a barrier waits for everything a tile issued: the copies would hold up its first step.
bool runsInLockstep(GroupOp host) {
  return llvm::any_of(getGroupSteps(host).getBody().front().getOps<LoadBoxOp>(),
                      [](LoadBoxOp load) { return load.getMulticast().has_value(); });
}

struct PrefetchWeightsPass : tx8be::impl::PrefetchWeightsPassBase<PrefetchWeightsPass> {
  using PrefetchWeightsPassBase::PrefetchWeightsPassBase;

  void runOnOperation() override {
    if (!enable)
      return;
    tx8_hw_config hw = getHwConfig(getOperation());
    uint64_t align = spmBufferAlign(hw), capacity = hw.spm_bytes;
    // What tx8be-spm-alloc gave each Group (read before any grows), and the prefetched buffers each Group reads.
    DenseMap<Operation *, uint64_t> allocated;
    DenseMap<Operation *, SpmRange> prefetched;
    getOperation().walk([&](GroupOp group) { allocated[group] = group.getSpmAllocSize().value_or(0); });
    for (GroupOp group : getOperation().getBody().front().getOps<GroupOp>()) {
      StepsOp steps = getGroupSteps(group);
      GroupOp host = getPrefetchHost(group);
      if (!steps || group.getGroupTag().value_or(0) == 2 || !host ||
          getGroupSteps(host).getTiles().size() != steps.getTiles().size() || runsInLockstep(host))
        continue;
      SmallVector<std::pair<LoadBoxOp, uint64_t>> loads; // with each one's bytes
      uint64_t bytes = 0;
      for (auto load : steps.getBody().front().getOps<LoadBoxOp>())
        if (isPrefetchable(load, steps)) {
          uint64_t b = alignUp(loadBoxBufferBytes(load, hw), align);
          loads.push_back({load, b});
          bytes += b;
        }
      if (loads.empty() || bytes > capacity)
        continue;
      // At the top of the SPM, or right below the host's own prefetched buffers (which the host reads while
      // these are copied); above what either Group allocated.
      SpmRange range{capacity - bytes, capacity};
      auto hostRange = prefetched.find(host);
      if (hostRange != prefetched.end() && range.overlaps(hostRange->second)) {
        if (hostRange->second.begin < bytes)
          continue;
        range = {hostRange->second.begin - bytes, hostRange->second.begin};
      }
      if (range.begin < std::max(allocated[host], allocated[group]))
        continue;
      uint64_t at = range.begin;
      for (auto [load, b] : loads) {
        load->setAttr("dev_info", withMemAddr(getOrCreateDevInfo(load), {static_cast<int64_t>(at)}));
        load.setPrefetched(true);
        at += b;
      }
      prefetched[group] = range;
    }
    // Both the host and the Group hold the buffers: their SPM reaches the range's end.
    auto grow = [&](GroupOp group, uint64_t end) {
      if (group.getSpmAllocSize().value_or(0) < end)
        group.setSpmAllocSizeAttr(IntegerAttr::get(IntegerType::get(&getContext(), 32, IntegerType::Unsigned), end));
    };
    for (auto [op, range] : prefetched) {
      auto group = cast<GroupOp>(op);
      grow(group, range.end);
      grow(getPrefetchHost(group), range.end);
    }
  }
};

} // namespace
