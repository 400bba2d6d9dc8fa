//===- DeviceLayout.cpp - Dim orders and device images of tx8be values ----===//
#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"

#include "InterfaceUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/TypeUtilities.h"

#include "tx8/layout.h"

using namespace mlir;
using namespace tx8be;

bool DeviceLayout::isIdentityOrder() const {
  for (auto [i, d] : llvm::enumerate(order))
    if (static_cast<int64_t>(i) != d)
      return false;
  return true;
}

static SmallVector<int64_t, 6> identity(int64_t rank) {
  SmallVector<int64_t, 6> order;
  for (int64_t i = 0; i < rank; ++i)
    order.push_back(i);
  return order;
}

/// The logical letter order of a rank-`rank` feature map ("NC" + spatial) or weight ("OI" + spatial).
static std::string logicalLetters(char first, char second, int64_t rank) {
  static const char spatial[] = "DHW";
  if (rank < 2 || rank > 5)
    return "";
  std::string s{first, second};
  s += &spatial[3 - (rank - 2)];
  return s;
}

std::optional<SmallVector<int64_t, 6>> tx8be::parseDimOrder(StringRef layoutStr, int64_t rank) {
  bool letters = !layoutStr.empty() && llvm::all_of(layoutStr, [](char c) { return llvm::is_contained("NCDHWOI", c); });
  if (!letters) // "Unknown", "Tensor", "NTensor", "Cx", "NCx": not dim letters
    return identity(rank);
  if (static_cast<int64_t>(layoutStr.size()) != rank)
    return std::nullopt;
  std::string logical = logicalLetters(layoutStr.contains('N') ? 'N' : 'O', layoutStr.contains('N') ? 'C' : 'I', rank);
  if (logical.empty())
    return std::nullopt;
  SmallVector<int64_t, 6> order;
  for (char c : layoutStr) {
    size_t pos = logical.find(c);
    if (pos == std::string::npos || llvm::is_contained(order, static_cast<int64_t>(pos)))
      return std::nullopt;
    order.push_back(static_cast<int64_t>(pos));
  }
  return order;
}

std::string tx8be::featureMapLayoutName(int64_t rank, bool channelLast) {
  std::string logical = logicalLetters('N', 'C', rank);
  if (rank < 3 || logical.empty())
    return "Tensor";
  if (!channelLast)
    return logical;
  return logical.substr(0, 1) + logical.substr(2) + "C";
}

std::string tx8be::convWeightLayoutName(int64_t rank) {
  std::string logical = logicalLetters('O', 'I', rank);
  return logical.empty() ? "Tensor" : logical.substr(2) + "IO";
}

/// layout_str and mem_layout of a value that is a func.func argument (or result, via the return's operand).
static DeviceLayout funcArgLayout(func::FuncOp func, unsigned index, ShapedType type) {
  DeviceLayout layout;
  layout.order = identity(type.getRank());
  layout.mode = defaultCompactLayout(type);
  if (auto str = func.getArgAttrOfType<StringAttr>(index, kArgLayoutStrAttr))
    if (auto order = parseDimOrder(str.getValue(), type.getRank()))
      layout.order = *order;
  if (auto mode = func.getArgAttrOfType<LayoutModeAttr>(index, kArgMemLayoutAttr))
    layout.mode = mode.getValue();
  return layout;
}

DeviceLayout tx8be::getDeviceLayout(Value value) {
  auto type = dyn_cast<ShapedType>(value.getType());
  DeviceLayout layout;
  if (!type || !type.hasRank())
    return layout;
  layout.order = identity(type.getRank());
  layout.mode = defaultCompactLayout(type);
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (auto group = dyn_cast_or_null<GroupOp>(parent))
      return getDeviceLayout(group->getOperand(arg.getArgNumber()));
    if (auto func = dyn_cast_or_null<func::FuncOp>(parent))
      return funcArgLayout(func, arg.getArgNumber(), type);
    return layout;
  }
  Operation *def = value.getDefiningOp();
  // A Group's result is its body's returned value; a StoreVar keeps its input's layout.
  if (auto group = dyn_cast<GroupOp>(def)) {
    Operation *ret = group.getBody().front().getTerminator();
    return getDeviceLayout(ret->getOperand(cast<OpResult>(value).getResultNumber()));
  }
  // Loads and stores copy a box of their input without changing its layout; a Steps result is what its
  // StoreBox copies.
  if (isa<LoadVarOp, StoreVarOp, LoadBoxOp>(def))
    return getDeviceLayout(def->getOperand(0));
  if (auto steps = dyn_cast<StepsOp>(def))
    if (StoreBoxOp store = steps.getStoreOf(cast<OpResult>(value).getResultNumber()))
      return getDeviceLayout(store.getInput());
  if (auto order = parseDimOrder(getLayoutStr(def), type.getRank()))
    layout.order = *order;
  if (auto mode = getDevInfoLayoutMode(def))
    layout.mode = *mode;
  return layout;
}

std::optional<std::string> tx8be::dimOrderName(ArrayRef<int64_t> order, bool weight) {
  int64_t rank = static_cast<int64_t>(order.size());
  if (ArrayRef<int64_t>(identity(rank)) == order)
    return featureMapLayoutName(rank, false);
  std::string logical = weight ? logicalLetters('O', 'I', rank) : logicalLetters('N', 'C', rank);
  if (logical.empty())
    return std::nullopt;
  std::string name;
  for (int64_t d : order)
    name.push_back(logical[d]);
  return name;
}

bool tx8be::isLayoutAgnostic(Operation *op) {
  // The elementwise CT ops: their OpLib family says so.
  auto oplib = dyn_cast<OpLibInterface>(op);
  if (!oplib || !oplib.queryOpAttr().anyDimOrder)
    return false;
  auto resultType = dyn_cast<ShapedType>(op->getResult(0).getType());
  return resultType && llvm::all_of(op->getOperandTypes(), [&](Type t) {
           auto type = dyn_cast<ShapedType>(t);
           return type && type.getShape() == resultType.getShape();
         });
}

std::optional<SmallVector<int64_t, 6>> tx8be::requiredOperandOrder(Operation *op, unsigned operand) {
  // Only compute ops have requirements; the data movers and the graph structure take any image.
  if (!isa<OpLibInterface>(op) || isa<ChannelNormOp, LoadVarOp, StoreVarOp, LoadConstOp>(op) ||
      operand >= op->getNumOperands() || op->getNumResults() != 1)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(op->getOperand(operand).getType());
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !resultType)
    return std::nullopt;
  int64_t rank = type.getRank();
  if (rank <= 2)
    return identity(rank);
  SmallVector<int64_t, 6> opOrder =
      parseDimOrder(getLayoutStr(op), resultType.getRank()).value_or(identity(resultType.getRank()));
  if (isa<ConvOp>(op)) {
    if (operand == 0)
      return opOrder;
    int64_t outRank = resultType.getRank();
    bool channelLast = opOrder != identity(outRank) &&
                       parseDimOrder(featureMapLayoutName(outRank, true), outRank) ==
                           std::optional<SmallVector<int64_t, 6>>(opOrder);
    if (operand == 1 && channelLast)
      return parseDimOrder(convWeightLayoutName(rank), rank);
    return identity(rank);
  }
  if (isa<BatchNorm_InferenceOp>(op))
    return operand == 0 ? opOrder : identity(rank);
  if (isLayoutAgnostic(op) || isa<ConcatOp>(op)) // op_concat: every input in the result's order
    return opOrder;
  if (operand == 0 && rank == resultType.getRank())
    return opOrder;
  return identity(rank);
}

DeviceLayout tx8be::operandReadLayout(Operation *op, unsigned operand) {
  Value value = op->getOperand(operand);
  DeviceLayout layout = getDeviceLayout(value);
  if (auto required = requiredOperandOrder(op, operand))
    if (sameMemoryOrder(cast<ShapedType>(value.getType()).getShape(), layout.order, *required))
      layout.order = *required;
  return layout;
}

SmallVector<int64_t, 6> tx8be::toDeviceOrder(ArrayRef<int64_t> shape, ArrayRef<int64_t> order) {
  SmallVector<int64_t, 6> result;
  for (int64_t d : order)
    result.push_back(shape[d]);
  return result;
}

bool tx8be::sameMemoryOrder(ArrayRef<int64_t> shape, ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  // Dropping extent-1 dims, the remaining dims must come in the same order.
  auto nonUnit = [&](ArrayRef<int64_t> order) {
    SmallVector<int64_t, 6> dims;
    for (int64_t d : order)
      if (shape[d] != 1)
        dims.push_back(d);
    return dims;
  };
  return nonUnit(a) == nonUnit(b);
}

std::optional<uint64_t> tx8be::deviceImageBytes(ArrayRef<int64_t> deviceShape, Type elementType, LayoutMode mode,
                                                uint32_t batchAlignBytes) {
  uint64_t elements = 1;
  for (int64_t d : deviceShape)
    if (d < 0 || __builtin_mul_overflow(elements, static_cast<uint64_t>(d), &elements))
      return std::nullopt; // dynamic, or more than 2^64 elements
  uint64_t bytes = 0;
  if (__builtin_mul_overflow(elements, static_cast<uint64_t>(detail::elementBytes(elementType)), &bytes))
    return std::nullopt;
  if (mode == LayoutMode::Tensor || mode == LayoutMode::NTensor || deviceShape.size() < 2)
    return bytes;
  auto format = detail::dataFormatOf(elementType);
  if (!format)
    return std::nullopt;
  // [N][HW][C]: merge the dims between the first and the last.
  int64_t hw = 1;
  for (size_t i = 1; i + 1 < deviceShape.size(); ++i)
    hw *= deviceShape[i]; // cannot overflow: the element count above did not
  if (deviceShape.front() > INT32_MAX || hw > INT32_MAX || deviceShape.back() > INT32_MAX)
    return std::nullopt; // tx8_layout's extents are int32
  int32_t shape3[3] = {static_cast<int32_t>(deviceShape.front()), static_cast<int32_t>(hw),
                       static_cast<int32_t>(deviceShape.back())};
  tx8_layout l;
  if (tx8_layout_init(&l, static_cast<LAYOUT_MODE>(mode), *format, shape3, 3, batchAlignBytes) != 0)
    return std::nullopt;
  return l.total_bytes;
}

const char *tx8be::layoutModeCName(LayoutMode mode) {
  switch (mode) {
  case LayoutMode::Tensor:
    return "LAYOUT_TENSOR";
  case LayoutMode::NTensor:
    return "LAYOUT_NTENSOR";
  case LayoutMode::Cx:
    return "LAYOUT_CX";
  case LayoutMode::NCx:
    return "LAYOUT_NCX";
  }
  return "LAYOUT_TENSOR";
}
