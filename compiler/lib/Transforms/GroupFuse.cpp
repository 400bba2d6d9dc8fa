//===- GroupFuse.cpp - Producer->consumer chains in one Group (tx8be-group-fuse) ===//
//
// The greedy half of the seed's grouping (GroupPatternPass keeps op patterns together): after
// tx8be-group-optimization made one Group per op, a Group whose only result is read only by the next Group's
// elementwise op (the OpLib CT family: binaries, activations, Cast, Where), at the same shape and device
// layout, is merged into it, as long as the smallest slice of the merged chain still fits the SPM. The
// chain's first op is the Group's anchor (what its schedule cuts and shards); the others are its tail and
// run, step by step, on the anchor's output slice in SPM (GroupPlan.h): the intermediate values never go to
// DDR, which is what makes a chain of elementwise ops as fast as one.
//
//===----------------------------------------------------------------------===//
#include "tx8/Transforms/GroupPlan.h"
#include "tx8/Transforms/PassStatistics.h"
#include "tx8/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace tx8be {
#define GEN_PASS_DEF_GROUPFUSEPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

/// The compute ops of an unplanned Group, in order (its body without LoadConsts and the Return).
SmallVector<Operation *> computeOps(GroupOp group) {
  SmallVector<Operation *> ops;
  for (Operation &op : group.getBody().front())
    if (!isa<LoadConstOp, ReturnOp>(op))
      ops.push_back(&op);
  return ops;
}

bool sameLayout(Value a, Value b) {
  DeviceLayout la = getDeviceLayout(a), lb = getDeviceLayout(b);
  return la.mode == lb.mode && la.order == lb.order;
}

/// The operand of `consumer`'s op that is `producer`'s result, if `consumer` may take `producer` in: the
/// producer's one result is read by nothing but one operand of the consumer's one op, which is elementwise at
/// the chain's shape and device layout.
std::optional<unsigned> chainOperand(GroupOp producer, GroupOp consumer) {
  if (producer->getNumResults() != 1 || !producer->getResult(0).hasOneUse())
    return std::nullopt;
  OpOperand &use = *producer->getResult(0).getUses().begin();
  if (use.getOwner() != consumer)
    return std::nullopt;
  SmallVector<Operation *> ops = computeOps(consumer), chain = computeOps(producer);
  if (ops.size() != 1 || chain.empty() || ops[0]->getNumResults() != 1 || chain.back()->getNumResults() != 1)
    return std::nullopt;
  Operation *op = ops[0];
  auto oplib = dyn_cast<OpLibInterface>(op);
  if (!oplib || !oplib.queryOpAttr().anyDimOrder || !isa<OpLibInterface>(chain.front()))
    return std::nullopt;
  BlockArgument arg = consumer.getBody().front().getArgument(use.getOperandNumber());
  if (!arg.hasOneUse() || arg.getUses().begin()->getOwner() != op)
    return std::nullopt;
  unsigned operand = arg.getUses().begin()->getOperandNumber();
  Value chainValue = chain.back()->getResult(0), result = op->getResult(0);
  auto chainType = cast<ShapedType>(chainValue.getType()), resultType = cast<ShapedType>(result.getType());
  if (chainType.getShape() != resultType.getShape() || !sameLayout(chainValue, result) ||
      !sameLayout(chainValue, chain.front()->getResult(0)))
    return std::nullopt;
  // The chain's anchor and the op both go to SPM (not a DDR view).
  auto anchor = cast<OpLibInterface>(chain.front());
  if (!anchor.queryOpAttr().stores(0) || !oplib.queryOpAttr().loads(operand))
    return std::nullopt;
  return operand;
}

/// Whether the ops of both Groups fit the SPM together at the smallest slice of the chain: what the producer's
/// chain needs (GroupPlan of its anchor, tail included) plus what the consumer's op needs alone (an upper bound:
/// the chain value is counted as an output and as an input).
bool fitsTogether(GroupOp producer, GroupOp consumer, const tx8_hw_config &hw) {
  Operation *anchor = computeOps(producer).front(), *op = computeOps(consumer).front();
  SmallVector<int64_t, 6> dims = splittableDims(anchor), along = splittableDims(op);
  llvm::erase_if(dims, [&](int64_t d) { return !llvm::is_contained(along, d); });
  auto shape = cast<ShapedType>(op->getResult(0).getType()).getShape();
  SmallVector<int64_t, 6> smallest(shape.begin(), shape.end());
  for (int64_t d : dims)
    smallest[d] = 1;
  uint64_t align = spmBufferAlign(hw);
  uint64_t chain = planGroupSizes(anchor, smallest, hw, reductionExtent(anchor) > 1 ? 1 : 0).footprint(align, 2);
  return chain + planGroupSizes(op, smallest, hw).footprint(align, 2) <= hw.spm_bytes;
}

/// One Group doing `producer`'s ops and then `consumer`'s, at `consumer`'s place, the chain value in SPM.
void mergeInto(GroupOp producer, GroupOp consumer) {
  OpBuilder b(consumer);
  SmallVector<Value> inputs(producer.getOperands());
  for (Value v : consumer.getOperands())
    if (v != producer->getResult(0) && !llvm::is_contained(inputs, v))
      inputs.push_back(v);
  auto merged = b.create<GroupOp>(consumer.getLoc(), consumer.getResultTypes(), inputs);
  merged->setAttrs(consumer->getAttrs());
  Block *body = new Block();
  merged.getBody().push_back(body);
  DenseMap<Value, Value> argOf;
  for (Value v : inputs)
    argOf[v] = body->addArgument(v.getType(), v.getLoc());
  OpBuilder inner = OpBuilder::atBlockEnd(body);
  IRMapping mapping;
  auto cloneBody = [&](GroupOp group) -> Operation * {
    for (auto [arg, operand] : llvm::zip(group.getBody().front().getArguments(), group.getOperands()))
      if (operand != producer->getResult(0))
        mapping.map(arg, argOf[operand]);
    Operation *ret = nullptr;
    for (Operation &op : group.getBody().front()) {
      if (isa<ReturnOp>(op))
        ret = &op;
      else
        inner.clone(op, mapping);
    }
    return ret;
  };
  Operation *producerReturn = cloneBody(producer);
  for (auto [arg, operand] : llvm::zip(consumer.getBody().front().getArguments(), consumer.getOperands()))
    if (operand == producer->getResult(0))
      mapping.map(arg, mapping.lookup(producerReturn->getOperand(0)));
  Operation *consumerReturn = cloneBody(consumer);
  inner.clone(*consumerReturn, mapping);
  consumer->replaceAllUsesWith(merged->getResults());
  consumer->erase();
  producer->erase();
}

struct GroupFusePass : tx8be::impl::GroupFusePassBase<GroupFusePass> {
  using GroupFusePassBase::GroupFusePassBase;

  PassStatistic numMerged{this, "merged", "Groups merged into the Group of the elementwise op after them"};

  void runOnOperation() override {
    if (!enable)
      return;
    tx8_hw_config hw = getHwConfig(getOperation());
    // In program order: a merged Group is the producer the next consumer looks at.
    SmallVector<GroupOp> groups(getOperation().getBody().front().getOps<GroupOp>());
    for (GroupOp consumer : groups) {
      for (Value v : consumer.getOperands()) {
        auto producer = v.getDefiningOp<GroupOp>();
        if (!producer || !chainOperand(producer, consumer) ||
            static_cast<int64_t>(computeOps(producer).size()) >= maxOps || !fitsTogether(producer, consumer, hw))
          continue;
        mergeInto(producer, consumer);
        ++numMerged;
        break; // `consumer` is gone; its merged Group is found through the list's next consumer's operand
      }
    }
  }
};

} // namespace
