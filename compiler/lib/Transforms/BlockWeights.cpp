//===- BlockWeights.cpp - Constants stored as contiguous column blocks (tx8be-block-weights) -===//
//
// A weight cut by output columns over the tiles is read as one short run per row: [768, 48] bf16 columns of a
// [768, 768] weight are 768 runs of 96 bytes, and DDR moves whole 64-byte bursts, so a third of what crosses
// DDR is waste, on the one resource a batch-1 transformer is bound by. When every box any step loads of a
// constant is one whole block of the same w columns, the constant's image is stored block by block
// (ColumnBlocks.h) and each box becomes a single run.
//
//===----------------------------------------------------------------------===//
#include "tx8/Dialect/Tx8be/IR/ColumnBlocks.h"
#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"
#include "tx8/Dialect/Tx8be/IR/HwConfig.h"
#include "tx8/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace tx8be {
#define GEN_PASS_DEF_BLOCKWEIGHTSPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

/// The block width every box of every LoadBox of `load` is one whole block of, if any, and if blocking saves
/// bursts: the boxes' rows are not whole bursts already and a box is not the whole width.
std::optional<int64_t> commonColumnBlock(LoadConstOp load, uint64_t burst) {
  auto type = cast<RankedTensorType>(load.getOutput().getType());
  DeviceLayout layout = getDeviceLayout(load.getOutput());
  if (type.getRank() < 2 || !type.hasStaticShape() || !layout.isIdentityOrder() ||
      (layout.mode != LayoutMode::Tensor && layout.mode != LayoutMode::NTensor) || load->use_empty())
    return std::nullopt;
  std::optional<int64_t> width;
  for (Operation *user : load->getUsers()) {
    auto box = dyn_cast<LoadBoxOp>(user);
    if (!box || box.getBoxes().hasPads() || getDeviceLayout(box.getOutput()) != layout)
      return std::nullopt;
    for (int64_t k = 0; k < box.getBoxes().getCount(); ++k) {
      int64_t w = box.getBoxes().getBox(k).size.back();
      if (width && w != *width)
        return std::nullopt;
      width = w;
      if (!isOneColumnBlock(box.getBoxes().getBox(k), w))
        return std::nullopt;
    }
  }
  int64_t n = type.getShape().back();
  uint64_t rowBytes = static_cast<uint64_t>(*width) * (type.getElementTypeBitWidth() / 8);
  if (*width >= n || n % *width != 0 || rowBytes % burst == 0)
    return std::nullopt;
  return width;
}

struct BlockWeightsPass : tx8be::impl::BlockWeightsPassBase<BlockWeightsPass> {
  using BlockWeightsPassBase::BlockWeightsPassBase;

  void runOnOperation() override {
    if (!enable)
      return;
    uint64_t burst = std::max<uint64_t>(getHwConfig(getOperation()).ddr_burst_bytes, 1);
    // An entry has one image: only a constant no other LoadConst reads is re-laid out.
    DenseMap<uint32_t, unsigned> readers;
    getOperation().walk([&](LoadConstOp load) { ++readers[load.getConstMapId()]; });
    getOperation().walk([&](LoadConstOp load) {
      if (!load->hasAttr("bypasscodegen") || readers[load.getConstMapId()] != 1 || load.getColumnBlock())
        return;
      if (std::optional<int64_t> w = commonColumnBlock(load, burst))
        load.setColumnBlockAttr(Builder(load).getI64IntegerAttr(*w));
    });
  }
};

} // namespace
