//===- Tx8be.h - The tx8be dialect ------------------------------*- C++ -*-===//
//
// Dialect, attributes, enums and ops of tx8be, plus the helpers the seed's passes use on them
// (layout_str, dev_info layout).
//
//===----------------------------------------------------------------------===//
#ifndef TX8_DIALECT_TX8BE_IR_TX8BE_H
#define TX8_DIALECT_TX8BE_IR_TX8BE_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tx8/Interfaces/ComputeInterface.h"
#include "tx8/Interfaces/OpLibInterface.h"
#include "tx8/Interfaces/ShapeInferenceOpInterface.h"
#include "tx8/Interfaces/ShardingInterface.h"

#include "tx8/Dialect/Tx8be/IR/Tx8beDialect.h.inc"
#include "tx8/Dialect/Tx8be/IR/Tx8beEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tx8/Dialect/Tx8be/IR/Tx8beAttrs.h.inc"

namespace tx8be::detail {
// Shape rules shared by op families (Tx8beOps.td's base classes call them). Each emits an op error naming
// the offending operand or attribute on failure.
mlir::LogicalResult sameTypeAsOperand(mlir::Operation *op, unsigned operand,
                                      llvm::SmallVectorImpl<mlir::Type> &types);
mlir::LogicalResult broadcastOperandTypes(mlir::Operation *op, llvm::SmallVectorImpl<mlir::Type> &types);
mlir::LogicalResult reduceResultType(mlir::Operation *op, llvm::ArrayRef<int64_t> axes, bool keepdims,
                                     llvm::SmallVectorImpl<mlir::Type> &types);
mlir::LogicalResult poolResultType(mlir::Operation *op, llvm::ArrayRef<int64_t> kernel,
                                   llvm::ArrayRef<int64_t> strides, llvm::ArrayRef<int64_t> pads,
                                   llvm::ArrayRef<int64_t> dilations, bool ceilMode,
                                   llvm::SmallVectorImpl<mlir::Type> &types);
mlir::LogicalResult globalPoolResultType(mlir::Operation *op, llvm::SmallVectorImpl<mlir::Type> &types);
/// axis must lie in [-rank, rank).
mlir::LogicalResult checkAxis(mlir::Operation *op, llvm::StringRef name, int64_t axis, int64_t rank);
} // namespace tx8be::detail

#define GET_OP_CLASSES
#include "tx8/Dialect/Tx8be/IR/Tx8beOps.h.inc"

namespace tx8be {

/// layout_str of an op ("Unknown" when absent, the attribute's default).
std::string getLayoutStr(mlir::Operation *op);
void setLayoutStr(mlir::Operation *op, llvm::StringRef layout);

/// dev_info.mem_layout of an op, if it has dev_info (seed: getDevInfoLayoutMode).
std::optional<LayoutMode> getDevInfoLayoutMode(mlir::Operation *op);
/// Sets dev_info.mem_layout, creating a dev_info with neutral values if the op has none
/// (seed: setDevInfoWithLayout).
void setDevInfoWithLayout(mlir::MLIRContext *ctx, mlir::Operation *op, LayoutMode layout);

/// The compact layout an op's result gets by default: Tensor for batch (dim 0) 1, else NTensor.
LayoutMode defaultCompactLayout(mlir::ShapedType type);

/// Normalises axis in [-rank, rank) to [0, rank).
inline int64_t normalizeAxis(int64_t axis, int64_t rank) { return axis < 0 ? axis + rank : axis; }

} // namespace tx8be

#endif // TX8_DIALECT_TX8BE_IR_TX8BE_H
