//===- Tx8beDialect.cpp - tx8be dialect, attributes and enums -------------===//
#include "tx8/Dialect/Tx8be/IR/Tx8be.h"
#include "tx8/Dialect/Tx8be/IR/HwConfig.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include "tx8/tensor.h"

using namespace mlir;
using namespace tx8be;

// LayoutMode mirrors the runtime's LAYOUT_MODE so that dev_info values can be emitted into main.c as is.
static_assert(static_cast<int>(LayoutMode::Tensor) == LAYOUT_TENSOR, "LayoutMode must match LAYOUT_MODE");
static_assert(static_cast<int>(LayoutMode::NTensor) == LAYOUT_NTENSOR, "LayoutMode must match LAYOUT_MODE");
static_assert(static_cast<int>(LayoutMode::Cx) == LAYOUT_CX, "LayoutMode must match LAYOUT_MODE");
static_assert(static_cast<int>(LayoutMode::NCx) == LAYOUT_NCX, "LayoutMode must match LAYOUT_MODE");

#include "tx8/Dialect/Tx8be/IR/Tx8beDialect.cpp.inc"
#include "tx8/Dialect/Tx8be/IR/Tx8beEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tx8/Dialect/Tx8be/IR/Tx8beAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tx8/Dialect/Tx8be/IR/Tx8beTypes.cpp.inc"

namespace {

/// Every compute op (one with ShapeInferenceOpInterface) has a ComputeInterface model in TX8ComputeModels:
/// promised here, kept by registerComputeInterfaceExternalModels.
template <typename... OpTs>
void promiseComputeInterface(Tx8beDialect &dialect) {
  auto promise = [&](auto *tag) {
    using OpT = std::remove_pointer_t<decltype(tag)>;
    if constexpr (OpT::template hasTrait<ShapeInferenceOpInterface::Trait>())
      dialect.declarePromisedInterface<ComputeInterface, OpT>();
  };
  (promise(static_cast<OpTs *>(nullptr)), ...);
}

} // namespace

void Tx8beDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tx8/Dialect/Tx8be/IR/Tx8beAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tx8/Dialect/Tx8be/IR/Tx8beTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tx8/Dialect/Tx8be/IR/Tx8beOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tx8/Dialect/Tx8be/IR/Tx8beScheduleOps.cpp.inc"
      >();
  promiseComputeInterface<
#define GET_OP_LIST
#include "tx8/Dialect/Tx8be/IR/Tx8beOps.cpp.inc"
      >(*this);
  // ShardingInterface needs nothing beyond the dialect: every context that loads it gets the models.
  tx8be::detail::attachShardingModels(getContext());
  // OpLibInterface likewise (OpLib's HAL-free planning is part of the dialect library).
  tx8be::detail::attachOpLibModels(getContext());
}

LogicalResult Tx8beDialect::verifyOperationAttribute(Operation *op, NamedAttribute attr) {
  if (attr.getName() != kHwConfigAttrName)
    return success();
  auto dict = dyn_cast<DictionaryAttr>(attr.getValue());
  if (!isa<ModuleOp>(op) || !dict)
    return op->emitError() << kHwConfigAttrName << " must be a dictionary on the module";
  tx8_hw_config hw = tx8_hw_config_default();
  return parseHwConfig(dict, hw, [&] { return op->emitError(); });
}

//===----------------------------------------------------------------------===//
// Helpers used by the passes
//===----------------------------------------------------------------------===//

std::string tx8be::getLayoutStr(Operation *op) {
  if (auto attr = op->getAttrOfType<StringAttr>("layout_str"))
    return attr.getValue().str();
  return "Unknown";
}

void tx8be::setLayoutStr(Operation *op, StringRef layout) {
  op->setAttr("layout_str", StringAttr::get(op->getContext(), layout));
}

std::optional<LayoutMode> tx8be::getDevInfoLayoutMode(Operation *op) {
  if (auto dev = op->getAttrOfType<DevAttr>("dev_info"))
    return dev.getMemLayout().getValue();
  return std::nullopt;
}

void tx8be::setDevInfoWithLayout(MLIRContext *ctx, Operation *op, LayoutMode layout) {
  auto layoutAttr = LayoutModeAttr::get(ctx, layout);
  if (auto dev = op->getAttrOfType<DevAttr>("dev_info")) {
    op->setAttr("dev_info", DevAttr::get(ctx, dev.getImmSize(), layoutAttr, dev.getImmAddr(), dev.getMemAddr()));
    return;
  }
  // A fresh dev_info: nothing allocated yet (addresses -1 / empty).
  op->setAttr("dev_info", DevAttr::get(ctx, /*imm_size=*/0, layoutAttr, /*imm_addr=*/-1, DenseI64ArrayAttr::get(ctx, {})));
}

LayoutMode tx8be::defaultCompactLayout(ShapedType type) {
  return type.getRank() > 0 && type.getDimSize(0) == 1 ? LayoutMode::Tensor : LayoutMode::NTensor;
}
