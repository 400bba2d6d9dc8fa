//===- GroupDAG.cpp - Barriers only where needed (tx8be-group-dag) ---------===//
#include "tx8/Transforms/GroupPlan.h"
#include "tx8/Transforms/Passes.h"

namespace tx8be {
#define GEN_PASS_DEF_GROUPDAGPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

/// The one tile that runs every step of `group`'s schedule, or -1 (several tiles, or not planned: a view).
int64_t soleTile(GroupOp group) {
  StepsOp steps = getGroupSteps(group);
  if (!steps)
    return regionTiles(group) > 1 ? -1 : 0;
  if (steps.getActiveTiles() != 1)
    return -1;
  return std::distance(steps.getTiles().begin(), llvm::find_if(steps.getTiles(), [](int64_t n) { return n > 0; }));
}

bool isView(GroupOp group) { return group.getGroupTag().value_or(0) == 2; }

/// Whether the tiles must synchronise after `group`, given the next Group that runs something (null: none).
/// Not only a reader of its results needs the barrier: the DDR allocator gives a dead tensor's bytes to a later
/// one, so any later Group on another tile may overwrite what this one still reads. A tile runs its groups in
/// order, so two consecutive Groups on the same one tile need none; the run's end synchronises the last.
bool needsBarrier(GroupOp group, GroupOp next) {
  if (!next || isView(group) || (regionTiles(group) <= 1 && regionTiles(next) <= 1))
    return false;
  int64_t tile = soleTile(group);
  return tile < 0 || soleTile(next) != tile;
}

struct GroupDAGPass : tx8be::impl::GroupDAGPassBase<GroupDAGPass> {
  void runOnOperation() override {
    SmallVector<GroupOp> groups;
    getOperation().walk([&](GroupOp group) { groups.push_back(group); });
    for (auto [i, group] : llvm::enumerate(groups)) {
      Block &body = group.getBody().front();
      for (auto barrier : llvm::make_early_inc_range(body.getOps<BarrierOp>()))
        barrier.erase();
      GroupOp next;
      for (size_t j = i + 1; j < groups.size() && !next; ++j)
        if (!isView(groups[j]))
          next = groups[j];
      if (needsBarrier(group, next))
        OpBuilder(body.getTerminator()).create<BarrierOp>(group.getLoc());
    }
  }
};

} // namespace
