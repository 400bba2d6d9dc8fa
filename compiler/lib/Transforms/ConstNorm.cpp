//===- ConstNorm.cpp - One device image per constant entry (tx8be-const-norm) ===//
//
// Seed ConstNormPass. After tx8be-move-constant the constants live in the ConstContainer and are read by
// LoadConsts. A ChannelNorm of a LoadConst is a conversion codegen can do once, when it writes consts.bin,
// so it goes and the LoadConst takes its layout; then each container entry must be written in exactly one
// layout, so an entry read in two images is duplicated.
//
//===----------------------------------------------------------------------===//
#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"
#include "tx8/Transforms/ConstContainer.h"
#include "tx8/Transforms/Passes.h"

#include "tx8/Dialect/Tx8be/IR/HwConfig.h"

#include "mlir/IR/Builders.h"

namespace tx8be {
#define GEN_PASS_DEF_CONSTNORMPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

/// Seed constChannelNormErase: ChannelNorm(LoadConst) -> the LoadConst in the ChannelNorm's layout (a
/// LoadConst that has other readers is cloned for this one).
void constChannelNormErase(ChannelNormOp op) {
  auto load = op.getInput().getDefiningOp<LoadConstOp>();
  if (!load)
    return;
  if (!load->hasOneUse()) {
    OpBuilder b(op);
    load = cast<LoadConstOp>(b.clone(*load));
  }
  setLayoutStr(load, op.getLayoutStr());
  if (auto mode = getDevInfoLayoutMode(op))
    setDevInfoWithLayout(op.getContext(), load, *mode);
  op.getOutput().replaceAllUsesWith(load.getOutput());
  op.erase();
}

/// Seed processMultiUse: the LoadConsts of one const_map_id that read different images (order or alignment)
/// get a duplicate entry per image; the first image keeps the id. Returns whether an entry was added, or
/// failure for a LoadConst whose id is not in the container.
FailureOr<bool> processMultiUse(ModuleOp module, SmallVectorImpl<Attribute> &entries) {
  llvm::MapVector<uint32_t, SmallVector<LoadConstOp>> loadsById;
  module.walk([&](LoadConstOp load) { loadsById[static_cast<uint32_t>(load.getConstMapId())].push_back(load); });
  bool added = false;
  for (auto &[id, loads] : loadsById) {
    if (id >= entries.size()) {
      loads.front().emitOpError() << "const_map_id " << id << " is not in the constant container ("
                                  << entries.size() << " entries)";
      return failure();
    }
    SmallVector<std::pair<DeviceLayout, uint32_t>> images; // image -> the entry that holds it
    for (LoadConstOp load : loads) {
      DeviceLayout layout = getDeviceLayout(load.getOutput());
      auto shape = load.getOutput().getType().getShape();
      auto it = llvm::find_if(images, [&](const auto &image) {
        return image.first.mode == layout.mode && sameMemoryOrder(shape, image.first.order, layout.order);
      });
      uint32_t entry = id;
      if (it != images.end()) {
        entry = it->second;
      } else {
        if (!images.empty()) {
          entry = static_cast<uint32_t>(entries.size());
          entries.push_back(entries[id]);
          added = true;
        }
        images.push_back({layout, entry});
      }
      if (entry != id)
        load.setConstMapIdAttr(Builder(load).getUI32IntegerAttr(entry));
    }
  }
  return added;
}

struct ConstNormPass : tx8be::impl::ConstNormPassBase<ConstNormPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<ChannelNormOp> norms;
    module.walk([&](ChannelNormOp op) {
      if (op.getInput().getDefiningOp<LoadConstOp>())
        norms.push_back(op);
    });
    for (ChannelNormOp op : norms)
      constChannelNormErase(op);

    ConstContainer container(module);
    SmallVector<Attribute> entries;
    for (uint32_t id = 0; id < container.size(); ++id)
      entries.push_back(container.get(id));
    FailureOr<bool> added = processMultiUse(module, entries);
    if (failed(added))
      return signalPassFailure();
    if (!*added)
      return;
    // The container's API merges equal values into one entry, so the duplicates are written to its module
    // attribute directly; then the ids are put back in tx8be-move-constant's order (large entries first).
    module->setAttr(ConstContainer::getAttrName(), ArrayAttr::get(module.getContext(), entries));
    ConstContainer withDuplicates(module);
    uint64_t threshold = uint64_t{getHwConfig(module).ddr_bank_bytes} * getTileInfo(module).tileNum();
    auto newId = withDuplicates.reorderBySize(threshold);
    module.walk([&](LoadConstOp load) {
      load.setConstMapIdAttr(
          Builder(load).getUI32IntegerAttr(newId.lookup(static_cast<uint32_t>(load.getConstMapId()))));
    });
    withDuplicates.save();
  }
};

} // namespace
