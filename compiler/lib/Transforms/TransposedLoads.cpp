//===- TransposedLoads.cpp - Transposes read by the loads after them (tx8be-transposed-loads) -===//
//
// An attention's heads are split ([S, H, D] -> [H, S, D]) and merged by Transposes, each a Group that moves the
// whole tensor through DDR twice on the TDMA (ViT-B/16: 12 % of its cycles). The Group that reads the result
// loads one head's [1, S, D] box per step, and that box is the same bytes, in the same order, as the input's
// [S, 1, D] box: the DMA can read it there (S runs of D elements) and the Transpose Group is not needed. The
// same holds on the other side: the attention's Group writes each head's [1, S, D] box straight into the
// merged [S, H, D] tensor when the merge's Transpose Group is the only reader.
// Issue 34, item 1: transposed operands read by the load, not by a Transpose group.
//
//===----------------------------------------------------------------------===//
#include "tx8/Transforms/GroupPlan.h"
#include "tx8/Transforms/PassStatistics.h"
#include "tx8/Transforms/Passes.h"

namespace tx8be {
#define GEN_PASS_DEF_TRANSPOSEDLOADSPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

/// A LoadBox that may read the Transpose's input instead: no pads, every box the same bytes there (loaded per
/// step, once or multicast: each copy reads its box from DDR the same way).
bool canReadTransposed(LoadBoxOp load, ArrayRef<int64_t> perm) {
  if (load.getPrefetched() || load.getPerm() || load.getBoxes().hasPads())
    return false;
  for (int64_t k = 0; k < load.getBoxes().getCount(); ++k)
    if (!transposeKeepsBoxOrder(load.getBoxes().getBox(k), perm))
      return false;
  return true;
}

/// The readers of `value` (the Transpose Group's result) as (Group, operand index), when all of them are
/// Groups whose every use of it is a LoadBox that can read the input transposed; nullopt otherwise.
std::optional<SmallVector<std::pair<GroupOp, unsigned>>> transposedReaders(Value value, ArrayRef<int64_t> perm) {
  SmallVector<std::pair<GroupOp, unsigned>> readers;
  for (OpOperand &use : value.getUses()) {
    auto reader = dyn_cast<GroupOp>(use.getOwner());
    if (!reader || !getGroupSteps(reader))
      return std::nullopt;
    BlockArgument arg = reader.getBody().front().getArgument(use.getOperandNumber());
    for (Operation *user : arg.getUsers()) {
      auto load = dyn_cast<LoadBoxOp>(user);
      if (!load || !canReadTransposed(load, perm))
        return std::nullopt;
    }
    readers.emplace_back(reader, use.getOperandNumber());
  }
  if (readers.empty())
    return std::nullopt;
  return readers;
}

/// The StoreBox of the Group that computes `value` (the Transpose Group's input), when that Group may write it
/// transposed instead: the Transpose Group is its only reader and every box it stores is the same bytes in the
/// transposed tensor.
StoreBoxOp transposedWriter(Value value, ArrayRef<int64_t> perm) {
  auto writer = value.getDefiningOp<GroupOp>();
  if (!writer || !value.hasOneUse())
    return {};
  StepsOp steps = getGroupSteps(writer);
  auto ret = cast<ReturnOp>(writer.getBody().front().getTerminator());
  unsigned index = cast<OpResult>(value).getResultNumber();
  auto stepsResult = dyn_cast<OpResult>(ret.getOperand(index));
  if (!steps || !stepsResult || stepsResult.getOwner() != steps.getOperation() || !stepsResult.hasOneUse())
    return {};
  StoreBoxOp store = steps.getStoreOf(stepsResult.getResultNumber());
  if (!store || store.getPerm())
    return {};
  for (int64_t k = 0; k < store.getBoxes().getCount(); ++k)
    if (!transposeKeepsBoxOrder(transposedResultBox(store.getBoxes().getBox(k), perm), perm))
      return {};
  return store;
}

struct TransposedLoadsPass : tx8be::impl::TransposedLoadsPassBase<TransposedLoadsPass> {
  using TransposedLoadsPassBase::TransposedLoadsPassBase;

  PassStatistic numFolded{this, "folded", "Transpose Groups read through the loads after them"};
  PassStatistic numLoads{this, "loads", "LoadBoxes that read a Transpose's input (perm)"};
  PassStatistic numStores{this, "stores", "StoreBoxes that write a Transpose's result (perm)"};

  void runOnOperation() override {
    if (!enable)
      return;
    SmallVector<GroupOp> folded;
    getOperation().walk([&](GroupOp group) {
      TransposeOp transpose = getFoldableTranspose(group);
      if (!transpose)
        return;
      Value input = group->getOperand(0), result = group->getResult(0);
      ArrayRef<int64_t> perm = transpose.getPerm();
      std::optional<SmallVector<std::pair<GroupOp, unsigned>>> readers = transposedReaders(result, perm);
      if (!readers) {
        // The Group before may store its result transposed instead (an attention's heads merged).
        StoreBoxOp store = transposedWriter(input, perm);
        if (!store)
          return;
        store.setPerm(perm);
        auto steps = cast<StepsOp>(store->getParentOp());
        steps->getResult(store.getResultIndex()).setType(result.getType());
        input.setType(result.getType());
        result.replaceAllUsesWith(input);
        ++numStores;
        folded.push_back(group);
        return;
      }
      for (auto [reader, index] : *readers) {
        // The reader takes the input; its argument's loads read it through perm, their results unchanged.
        reader->setOperand(index, input);
        BlockArgument arg = reader.getBody().front().getArgument(index);
        arg.setType(input.getType());
        for (Operation *user : arg.getUsers()) {
          cast<LoadBoxOp>(user).setPerm(perm);
          ++numLoads;
        }
      }
      folded.push_back(group);
    });
    for (GroupOp group : folded) {
      group->erase();
      ++numFolded;
    }
  }
};

} // namespace
