//===- GroupDAG.cpp - Barriers only where needed (tx8be-group-dag) ---------===//
#include "tx8/Transforms/Passes.h"

namespace tx8be {
#define GEN_PASS_DEF_GROUPDAGPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

int64_t tilesOf(GroupOp group) {
  if (auto region = group.getDevRegion())
    return static_cast<int64_t>(region->getXDim()) * region->getYDim();
  return 1;
}

/// Whether the tiles must synchronise after `group`: a later Group reads its results and one of the two runs
/// on more than one tile (the reader may read a part another tile wrote).
bool needsBarrier(GroupOp group) {
  if (group.getGroupTag().value_or(0) == 2)
    return false; // a view in DDR writes nothing
  for (Operation *user : group->getUsers())
    if (auto next = dyn_cast<GroupOp>(user))
      if (tilesOf(group) > 1 || tilesOf(next) > 1)
        return true;
  return false;
}

struct GroupDAGPass : tx8be::impl::GroupDAGPassBase<GroupDAGPass> {
  void runOnOperation() override {
    getOperation().walk([&](GroupOp group) {
      Block &body = group.getBody().front();
      for (auto barrier : llvm::make_early_inc_range(body.getOps<BarrierOp>()))
        barrier.erase();
      if (needsBarrier(group))
        OpBuilder(body.getTerminator()).create<BarrierOp>(group.getLoc());
    });
  }
};

} // namespace
