//===- GroupLdSt.cpp - Loads and stores at Group edges (tx8be-group-ldst) -===//
#include "tx8/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace tx8be {
#define GEN_PASS_DEF_GROUPLDSTPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

bool needsLoad(OpOperand &use) {
  auto lib = dyn_cast<OpLibInterface>(use.getOwner());
  return lib && lib.queryOpAttr().loads(use.getOperandNumber());
}

bool needsStore(OpResult result) {
  auto lib = dyn_cast<OpLibInterface>(result.getOwner());
  return lib && lib.queryOpAttr().stores(result.getResultNumber());
}

/// Returns whether any load or store was inserted.
bool insertLoadsAndStores(GroupOp group) {
  Block &body = group.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&body);
  bool inserted = false;
  for (BlockArgument arg : body.getArguments()) {
    // One load per op that reads the argument: in a fused group (tx8be-group-fuse) each op of the chain may
    // read its own box of it.
    for (Operation &user : body.without_terminator()) {
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : user.getOpOperands())
        if (use.get() == arg && needsLoad(use))
          uses.push_back(&use);
      if (uses.empty())
        continue;
      auto load = b.create<LoadVarOp>(group.getLoc(), TypeRange{arg.getType()}, ValueRange{arg});
      for (OpOperand *use : uses)
        use->set(load.getOutput());
      inserted = true;
    }
  }
  Operation *ret = body.getTerminator();
  b.setInsertionPoint(ret);
  for (OpOperand &operand : ret->getOpOperands()) {
    auto result = dyn_cast<OpResult>(operand.get());
    if (!result || !needsStore(result))
      continue;
    auto store = b.create<StoreVarOp>(group.getLoc(), TypeRange{result.getType()}, ValueRange{result});
    operand.set(store.getOutput());
    inserted = true;
  }
  return inserted;
}

struct GroupLdStPass : tx8be::impl::GroupLdStPassBase<GroupLdStPass> {
  void runOnOperation() override {
    getOperation().walk([](GroupOp group) {
      // group_tag 0: the group loads/stores and takes part in split search; 2: it works in DDR.
      bool inserted = insertLoadsAndStores(group);
      group.setGroupTagAttr(Builder(group).getI32IntegerAttr(inserted ? 0 : 2));
    });
  }
};

} // namespace
