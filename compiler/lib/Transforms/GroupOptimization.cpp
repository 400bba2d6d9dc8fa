//===- GroupOptimization.cpp - One Group per compute op (tx8be-group-optimization) ===//
#include "tx8/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace tx8be {
#define GEN_PASS_DEF_GROUPOPTIMIZATIONPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

/// Ops that are not grouped: groups themselves, constants (they move in with their users) and terminators.
bool isGroupable(Operation &op) {
  return !isa<GroupOp, LoadConstOp, ConstantOp>(op) && !op.hasTrait<OpTrait::IsTerminator>() &&
         isa<OpLibInterface>(op);
}

/// Seed createSingleGroup: a Group around `op`, its LoadConst dependencies moved (or cloned) inside.
void createSingleGroup(Operation *op) {
  OpBuilder b(op);
  SmallVector<Value> groupInputs;
  SmallVector<Operation *> dependencies;
  for (Value v : op->getOperands()) {
    Operation *def = v.getDefiningOp();
    if (def && isa<LoadConstOp>(def)) {
      if (!llvm::is_contained(dependencies, def))
        dependencies.push_back(def);
    } else if (!llvm::is_contained(groupInputs, v)) {
      groupInputs.push_back(v);
    }
  }
  auto group = b.create<GroupOp>(op->getLoc(), op->getResultTypes(), groupInputs);
  Block *body = new Block();
  group.getBody().push_back(body);
  IRMapping mapping;
  for (Value v : groupInputs)
    mapping.map(v, body->addArgument(v.getType(), v.getLoc()));

  OpBuilder inner = OpBuilder::atBlockEnd(body);
  for (Operation *dep : dependencies) {
    // A LoadConst only this op reads moves in; a shared one is cloned (the original stays for the others).
    bool onlyUser = llvm::all_of(dep->getUsers(), [&](Operation *u) { return u == op; });
    Operation *inside = onlyUser ? dep : inner.clone(*dep);
    if (onlyUser)
      dep->moveBefore(body, body->end());
    mapping.map(dep->getResult(0), inside->getResult(0));
  }
  op->moveBefore(body, body->end());
  for (OpOperand &operand : op->getOpOperands())
    operand.set(mapping.lookupOrDefault(operand.get()));
  for (auto [result, groupResult] : llvm::zip(op->getResults(), group.getResults()))
    result.replaceUsesWithIf(groupResult, [&](OpOperand &use) { return use.getOwner()->getBlock() != body; });
  inner.setInsertionPointToEnd(body);
  inner.create<ReturnOp>(op->getLoc(), op->getResults());
}

struct GroupOptimizationPass : tx8be::impl::GroupOptimizationPassBase<GroupOptimizationPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    for (Block &block : getOperation().getBody())
      for (Operation &op : block)
        if (isGroupable(op))
          ops.push_back(&op);
    for (Operation *op : ops)
      createSingleGroup(op);
  }
};

} // namespace
