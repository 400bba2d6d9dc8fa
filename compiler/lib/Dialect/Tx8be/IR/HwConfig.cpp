//===- HwConfig.cpp - The hardware config a module is compiled for ---------===//
#include "tx8/Dialect/Tx8be/IR/HwConfig.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <limits>

using namespace mlir;

std::string tx8be::setHwConfigField(tx8_hw_config &hw, StringRef name, std::optional<int64_t> value) {
#define TX8_HW(type, field, dflt, lo, hi, unit, desc)                                                                   \
  if (name == #field) {                                                                                        \
    if (!value || *value < 0 || static_cast<uint64_t>(*value) > std::numeric_limits<type>::max())              \
      return "'" #field "' must be a non-negative integer that fits a " #type " (" unit ")";                   \
    hw.field = static_cast<type>(*value);                                                                      \
    return "";                                                                                                 \
  }
#include "tx8/hw_config.def"
#undef TX8_HW
  return "unknown hardware config field '" + name.str() + "' (see hal/include/tx8/hw_config.def)";
}

LogicalResult tx8be::parseHwConfig(DictionaryAttr dict, tx8_hw_config &hw,
                                   llvm::function_ref<InFlightDiagnostic()> emitError) {
  for (NamedAttribute field : dict) {
    std::optional<int64_t> value;
    if (auto integer = dyn_cast<IntegerAttr>(field.getValue()); integer && integer.getValue().getSignificantBits() <= 64)
      value = integer.getValue().getSExtValue();
    std::string why = setHwConfigField(hw, field.getName().getValue(), value);
    if (!why.empty())
      return emitError() << kHwConfigAttrName << ": " << why;
  }
  if (const char *why = tx8_hw_config_check(&hw))
    return emitError() << kHwConfigAttrName << ": " << why;
  return success();
}

tx8_hw_config tx8be::getHwConfig(Operation *op) {
  tx8_hw_config hw = tx8_hw_config_default();
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    module = op->getParentOfType<ModuleOp>();
  if (!module)
    return hw;
  if (auto dict = module->getAttrOfType<DictionaryAttr>(kHwConfigAttrName))
    (void)parseHwConfig(dict, hw, [&] { return module.emitError(); }); // verified with the module
  return hw;
}

void tx8be::setHwConfig(ModuleOp module, const tx8_hw_config &hw) {
  Builder b(module.getContext());
  tx8_hw_config defaults = tx8_hw_config_default();
  SmallVector<NamedAttribute> fields;
#define TX8_HW(type, name, dflt, lo, hi, unit, desc)                                                                    \
  if (hw.name != defaults.name)                                                                                \
    fields.push_back(b.getNamedAttr(#name, b.getI64IntegerAttr(static_cast<int64_t>(hw.name))));
#include "tx8/hw_config.def"
#undef TX8_HW
  if (fields.empty())
    module->removeAttr(kHwConfigAttrName);
  else
    module->setAttr(kHwConfigAttrName, b.getDictionaryAttr(fields));
}

std::optional<tx8be::MeshRect> tx8be::meshRectangleOf(ArrayRef<int64_t> members, const tx8_hw_config &hw) {
  if (members.empty() || hw.mesh_x == 0)
    return std::nullopt;
  int64_t meshX = hw.mesh_x, tiles = static_cast<int64_t>(hw.mesh_x) * hw.mesh_y;
  MeshRect r{UINT32_MAX, UINT32_MAX, 0, 0};
  llvm::SmallVector<int64_t, 16> sorted(members.begin(), members.end());
  llvm::sort(sorted);
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    return std::nullopt; // a tile twice
  for (int64_t t : members) {
    if (t < 0 || t >= tiles)
      return std::nullopt;
    auto x = static_cast<uint32_t>(t % meshX), y = static_cast<uint32_t>(t / meshX);
    r.x0 = std::min(r.x0, x), r.x1 = std::max(r.x1, x), r.y0 = std::min(r.y0, y), r.y1 = std::max(r.y1, y);
  }
  // Distinct tiles inside the bounding box, as many as it holds: they fill it.
  uint64_t area = static_cast<uint64_t>(r.x1 - r.x0 + 1) * (r.y1 - r.y0 + 1);
  if (area != members.size())
    return std::nullopt;
  return r;
}

std::optional<tx8be::MeshRect> tx8be::multicastRectangle(ArrayRef<int64_t> leaders, int64_t leader,
                                                         const tx8_hw_config &hw) {
  llvm::SmallVector<int64_t, 16> members;
  for (auto [t, l] : llvm::enumerate(leaders))
    if (l == leader)
      members.push_back(static_cast<int64_t>(t));
  return meshRectangleOf(members, hw);
}
