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

struct GroupDAGPass : tx8be::impl::GroupDAGPassBase<GroupDAGPass> {
  void runOnOperation() override {
    getOperation().walk([&](GroupOp group) {
      // The Groups that read this one's results (the DAG's edges).
      bool crossTile = false;
      for (Operation *user : group->getUsers())
        if (auto next = dyn_cast<GroupOp>(user))
          crossTile |= tilesOf(group) > 1 || tilesOf(next) > 1;
      group.setNeedBarrier(crossTile);
    });
  }
};

} // namespace
