//===- HwConfig.cpp - The hardware config a module is compiled for ---------===//
#include "tx8/Dialect/Tx8be/IR/HwConfig.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <limits>

using namespace mlir;

LogicalResult tx8be::parseHwConfig(DictionaryAttr dict, tx8_hw_config &hw,
                                   llvm::function_ref<InFlightDiagnostic()> emitError) {
  for (NamedAttribute field : dict) {
    StringRef key = field.getName().getValue();
    auto value = dyn_cast<IntegerAttr>(field.getValue());
    bool known = false;
#define TX8_HW(type, name, dflt, unit, desc)                                                                    \
  if (key == #name) {                                                                                          \
    known = true;                                                                                              \
    if (!value || value.getValue().isNonPositive() ||                                                          \
        value.getValue().getActiveBits() > 64 ||                                                               \
        value.getValue().getZExtValue() > std::numeric_limits<type>::max())                                    \
      return emitError() << kHwConfigAttrName << "." #name " must be a positive integer that fits a " #type    \
                         << " (" unit ")";                                                                     \
    hw.name = static_cast<type>(value.getValue().getZExtValue());                                             \
  }
#include "tx8/hw_config.def"
#undef TX8_HW
    if (!known)
      return emitError() << kHwConfigAttrName << " has an unknown field '" << key
                         << "' (the fields are in hal/include/tx8/hw_config.def)";
  }
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
#define TX8_HW(type, name, dflt, unit, desc)                                                                    \
  if (hw.name != defaults.name)                                                                                \
    fields.push_back(b.getNamedAttr(#name, b.getI64IntegerAttr(static_cast<int64_t>(hw.name))));
#include "tx8/hw_config.def"
#undef TX8_HW
  if (fields.empty())
    module->removeAttr(kHwConfigAttrName);
  else
    module->setAttr(kHwConfigAttrName, b.getDictionaryAttr(fields));
}
