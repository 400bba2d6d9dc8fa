//===- LayoutAlignToNpu.cpp - ChannelNorms where images disagree (tx8be-layout-align-to-npu) ===//
//
// Seed layoutAlignToNpuPass. After init/transmit every op knows the order of its result; this pass makes the
// graph consistent: the host packs each input in the order its first reader wants (so the common case, an
// image straight into a Conv, needs no conversion on the device), every other mismatch gets a ChannelNorm
// (none where only extent-1 dims differ: no byte moves), and layout_str becomes a mem_layout in dev_info.
//
//===----------------------------------------------------------------------===//
#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"
#include "tx8/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace tx8be {
#define GEN_PASS_DEF_LAYOUTALIGNTONPUPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

using Order = SmallVector<int64_t, 6>;

/// The name of the order `op` reads operand `operand` in (conv weights are spelt with weight letters).
std::string requiredName(Operation *op, unsigned operand, ArrayRef<int64_t> order) {
  bool weight = isa<ConvOp>(op) && operand == 1;
  return dimOrderName(order, weight).value_or(featureMapLayoutName(static_cast<int64_t>(order.size()), false));
}

/// The use of `value` whose owner comes first in the function (ops in nested regions count at their ancestor
/// in the entry block).
OpOperand *firstUse(Value value, Block &entry) {
  OpOperand *first = nullptr;
  Operation *firstAnchor = nullptr;
  for (OpOperand &use : value.getUses()) {
    Operation *anchor = entry.findAncestorOpInBlock(*use.getOwner());
    if (!anchor)
      continue;
    if (!first || anchor->isBeforeInBlock(firstAnchor) ||
        (anchor == firstAnchor && use.getOwner() != first->getOwner() &&
         use.getOwner()->isBeforeInBlock(first->getOwner())))
      first = &use, firstAnchor = anchor;
  }
  return first;
}

/// (a) Each argument in the order its first reader wants, compact.
void chooseArgumentLayouts(func::FuncOp func) {
  Block &entry = func.getBody().front();
  MLIRContext *ctx = func.getContext();
  for (BlockArgument arg : entry.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type)
      continue;
    std::string name = featureMapLayoutName(type.getRank(), false);
    if (OpOperand *use = firstUse(arg, entry))
      if (auto order = requiredOperandOrder(use->getOwner(), use->getOperandNumber()))
        name = requiredName(use->getOwner(), use->getOperandNumber(), *order);
    func.setArgAttr(arg.getArgNumber(), kArgLayoutStrAttr, StringAttr::get(ctx, name));
    func.setArgAttr(arg.getArgNumber(), kArgMemLayoutAttr, LayoutModeAttr::get(ctx, defaultCompactLayout(type)));
  }
}

/// (b) A ChannelNorm for every operand read in an order its value is not in; one per value and order, placed
/// right after the value's definition so that every reader can share it.
void insertChannelNorms(func::FuncOp func) {
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) { ops.push_back(op); });
  DenseMap<std::pair<Value, Attribute>, Value> converted; // (value, layout_str) -> its ChannelNorm
  for (Operation *op : ops)
    for (OpOperand &operand : op->getOpOperands()) {
      auto required = requiredOperandOrder(op, operand.getOperandNumber());
      if (!required)
        continue;
      Value value = operand.get();
      auto shape = cast<ShapedType>(value.getType()).getShape();
      Order current = getDeviceLayout(value).order;
      if (current == *required || sameMemoryOrder(shape, current, *required))
        continue;
      std::string name = requiredName(op, operand.getOperandNumber(), *required);
      Value &norm = converted[{value, StringAttr::get(func.getContext(), name)}];
      if (!norm) {
        OpBuilder b(func.getContext());
        if (auto arg = dyn_cast<BlockArgument>(value))
          b.setInsertionPointToStart(arg.getOwner());
        else
          b.setInsertionPointAfter(value.getDefiningOp());
        auto cn = b.create<ChannelNormOp>(value.getLoc(), TypeRange{value.getType()}, ValueRange{value});
        setLayoutStr(cn, name);
        norm = cn.getOutput();
      }
      operand.set(norm);
    }
}

/// (c) layout_str -> mem_layout: every image is compact for now.
void setMemLayouts(func::FuncOp func) {
  func.walk([](Operation *op) {
    if (!isa<OpLibInterface>(op) || op->getNumResults() != 1)
      return;
    if (auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType()))
      setDevInfoWithLayout(op->getContext(), op, defaultCompactLayout(type));
  });
}

/// The results are handed to the host in the image the returned value has.
void setResultLayouts(func::FuncOp func) {
  MLIRContext *ctx = func.getContext();
  for (Block &block : func.getBody())
    if (auto ret = dyn_cast<func::ReturnOp>(block.getTerminator()))
      for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
        if (!isa<RankedTensorType>(value.getType()))
          continue;
        DeviceLayout layout = getDeviceLayout(value);
        std::string name =
            dimOrderName(layout.order).value_or(featureMapLayoutName(static_cast<int64_t>(layout.order.size()), false));
        func.setResultAttr(i, kArgLayoutStrAttr, StringAttr::get(ctx, name));
        func.setResultAttr(i, kArgMemLayoutAttr, LayoutModeAttr::get(ctx, layout.mode));
      }
}

struct LayoutAlignToNpuPass : tx8be::impl::LayoutAlignToNpuPassBase<LayoutAlignToNpuPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    chooseArgumentLayouts(func);
    insertChannelNorms(func);
    setMemLayouts(func);
    setResultLayouts(func);
  }
};

} // namespace
