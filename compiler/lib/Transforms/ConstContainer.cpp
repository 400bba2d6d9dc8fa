//===- ConstContainer.cpp - The module's constant table -------------------===//
#include "tx8/Transforms/ConstContainer.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace tx8be;

ConstContainer::ConstContainer(ModuleOp module) : module(module) {
  if (auto array = module->getAttrOfType<ArrayAttr>(getAttrName()))
    for (Attribute a : array) {
      ids.try_emplace(a, entries.size());
      entries.push_back(cast<ElementsAttr>(a));
    }
}

uint32_t ConstContainer::add(ElementsAttr value) {
  auto [it, inserted] = ids.try_emplace(value, entries.size());
  if (inserted)
    entries.push_back(value);
  return it->second;
}

uint64_t ConstContainer::byteSize(ElementsAttr value) {
  auto type = cast<ShapedType>(value.getType());
  uint64_t bytes = (type.getElementTypeBitWidth() + 7) / 8;
  for (int64_t d : type.getShape()) // saturates: a size past 2^64 is as unplaceable as UINT64_MAX
    if (d < 0 || __builtin_mul_overflow(bytes, static_cast<uint64_t>(d), &bytes))
      return UINT64_MAX;
  return bytes;
}

llvm::DenseMap<uint32_t, uint32_t> ConstContainer::reorderBySize(uint64_t thresholdBytes) {
  SmallVector<uint32_t> order;
  for (bool large : {true, false})
    for (uint32_t id = 0; id < entries.size(); ++id)
      if ((byteSize(entries[id]) > thresholdBytes) == large)
        order.push_back(id);
  llvm::DenseMap<uint32_t, uint32_t> newId;
  SmallVector<ElementsAttr> reordered;
  for (uint32_t oldId : order) {
    newId[oldId] = reordered.size();
    reordered.push_back(entries[oldId]);
  }
  entries = std::move(reordered);
  ids.clear();
  for (auto [i, e] : llvm::enumerate(entries))
    ids[e] = i;
  return newId;
}

void ConstContainer::save() {
  SmallVector<Attribute> attrs(entries.begin(), entries.end());
  module->setAttr(getAttrName(), ArrayAttr::get(module.getContext(), attrs));
}

TileInfo tx8be::getTileInfo(ModuleOp module) {
  TileInfo info;
  if (auto dx = module->getAttrOfType<IntegerAttr>("tx8be.tile_dx"))
    info.dx = dx.getInt();
  if (auto dy = module->getAttrOfType<IntegerAttr>("tx8be.tile_dy"))
    info.dy = dy.getInt();
  return info;
}
