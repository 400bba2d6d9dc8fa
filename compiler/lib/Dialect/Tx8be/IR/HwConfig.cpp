//===- HwConfig.cpp - The hardware config a module is compiled for ---------===//
#include "tx8/Dialect/Tx8be/IR/HwConfig.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

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
