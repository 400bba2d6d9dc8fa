//===- LayoutTransmit.cpp - Orders for the layout-agnostic ops (tx8be-layout-transmit) ===//
//
// Seed layoutTransmitPass. An elementwise op may work in whatever order its neighbours use, so it takes
// theirs and no ChannelNorm is needed around it: preferably its producer's (forward, so a chain after a
// Conv stays channel-last), else the order its first user reads it in (backward, so an input feeding a Conv
// through a Relu is packed channel-last by the host). What no neighbour decides is row-major.
//
//===----------------------------------------------------------------------===//
#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"
#include "tx8/Transforms/Passes.h"

namespace tx8be {
#define GEN_PASS_DEF_LAYOUTTRANSMITPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

using Order = SmallVector<int64_t, 6>;

bool isUnknown(Operation *op) { return getLayoutStr(op) == "Unknown"; }

/// The order `value` is known to be in: that of a producer whose layout is decided. Function arguments,
/// Constants and LoadConsts adapt to their users, so they decide nothing.
std::optional<Order> knownOrder(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def || isa<ConstantOp, LoadConstOp>(def) || isUnknown(def))
    return std::nullopt;
  return getDeviceLayout(value).order;
}

/// Forward: the order of the first operand whose producer is decided.
std::optional<Order> forwardOrder(Operation *op) {
  for (Value operand : op->getOperands())
    if (auto order = knownOrder(operand))
      return order;
  return std::nullopt;
}

/// Backward: the order in which the first user (program order) with a decided layout reads the result.
std::optional<Order> backwardOrder(Operation *op) {
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : op->getResult(0).getUses())
    uses.push_back(&use);
  llvm::stable_sort(uses, [](OpOperand *a, OpOperand *b) {
    Operation *x = a->getOwner(), *y = b->getOwner();
    return x != y && x->getBlock() == y->getBlock() && x->isBeforeInBlock(y);
  });
  for (OpOperand *use : uses) {
    if (isUnknown(use->getOwner()))
      continue;
    if (auto order = requiredOperandOrder(use->getOwner(), use->getOperandNumber()))
      return order;
  }
  return std::nullopt;
}

/// Sets the op's layout_str to `order`; false if the order has no name.
bool assign(Operation *op, const std::optional<Order> &order) {
  if (!order)
    return false;
  auto name = dimOrderName(*order);
  if (!name)
    return false;
  setLayoutStr(op, *name);
  return true;
}

struct LayoutTransmitPass : tx8be::impl::LayoutTransmitPassBase<LayoutTransmitPass> {
  void runOnOperation() override {
    SmallVector<Operation *> pending, rest;
    getOperation().walk([&](Operation *op) {
      if (!isa<OpLibInterface>(op) || isa<LoadConstOp, LoadVarOp, StoreVarOp, ChannelNormOp>(op) ||
          op->getNumResults() != 1 || !isUnknown(op))
        return;
      (isLayoutAgnostic(op) ? pending : rest).push_back(op);
    });
    auto sweep = [&](auto &&ops, auto &&direction) {
      bool changed = false;
      for (Operation *op : ops)
        if (isUnknown(op) && assign(op, direction(op)))
          changed = true;
      return changed;
    };
    bool changed = true;
    while (changed) {
      while (sweep(pending, forwardOrder)) // forward to a fixpoint first
        ;
      changed = sweep(llvm::reverse(pending), backwardOrder); // then one backward sweep, users first
      llvm::erase_if(pending, [](Operation *op) { return !isUnknown(op); });
    }
    // Nobody decided: row-major. (So is any non-elementwise op left Unknown, e.g. without tx8be-layout-init.)
    for (auto *ops : {&pending, &rest})
      for (Operation *op : *ops)
        if (isUnknown(op))
          setLayoutStr(op, featureMapLayoutName(cast<ShapedType>(op->getResult(0).getType()).getRank(), false));
  }
};

} // namespace
