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
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tx8/Interfaces/ComputeInterface.h"
#include "tx8/Interfaces/OpLibInterface.h"
#include "tx8/Interfaces/ShapeInferenceOpInterface.h"
#include "tx8/Interfaces/ShardingInterface.h"

#include "tx8/Dialect/Tx8be/IR/TensorBox.h"

#include "tx8/Dialect/Tx8be/IR/Tx8beDialect.h.inc"
#include "tx8/Dialect/Tx8be/IR/Tx8beEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tx8/Dialect/Tx8be/IR/Tx8beAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tx8/Dialect/Tx8be/IR/Tx8beTypes.h.inc"

namespace tx8be::detail {

/// An error of a shape rule, worded like Operation::emitOpError's ("'tx8be.Add' op ..."). Stream into it like
/// an InFlightDiagnostic; it converts to failure and is reported when it goes out of scope, if the rule was
/// given a location (InferTypeOpInterface's is optional: without one a rule fails silently).
class ShapeRuleError {
public:
  ShapeRuleError(mlir::MLIRContext *ctx, std::optional<mlir::Location> loc, llvm::StringRef opName);
  ShapeRuleError(ShapeRuleError &&other);
  ShapeRuleError(const ShapeRuleError &) = delete;
  ShapeRuleError &operator=(const ShapeRuleError &) = delete;
  ~ShapeRuleError();

  template <typename T>
  ShapeRuleError &operator<<(T &&value) & {
    diag << std::forward<T>(value);
    return *this;
  }
  template <typename T>
  ShapeRuleError &&operator<<(T &&value) && {
    diag << std::forward<T>(value);
    return std::move(*this);
  }
  operator mlir::LogicalResult() const { return mlir::failure(); }
  template <typename T>
  operator mlir::FailureOr<T>() const {
    return mlir::failure();
  }

private:
  mlir::MLIRContext *ctx;
  mlir::Diagnostic diag;
  bool report;
};

/// Where a shape rule (an op's InferTypeOpInterface::inferReturnTypes) reports its errors.
struct ShapeRuleDiag {
  mlir::MLIRContext *ctx;
  std::optional<mlir::Location> loc;
  llvm::StringRef opName;

  ShapeRuleError error() const { return ShapeRuleError(ctx, loc, opName); }
};

// Shape rules shared by op families (Tx8beOps.td's base classes call them from inferReturnTypes). Each
// reports an error naming the offending operand or attribute on failure.
mlir::LogicalResult sameTypeAsOperand(mlir::Value operand, llvm::SmallVectorImpl<mlir::Type> &types);
mlir::LogicalResult broadcastOperandTypes(const ShapeRuleDiag &rule, mlir::Value lhs, mlir::Value rhs,
                                          llvm::SmallVectorImpl<mlir::Type> &types);
/// A comparison's result: the broadcast shape, bool elements.
mlir::LogicalResult compareResultType(const ShapeRuleDiag &rule, mlir::Value lhs, mlir::Value rhs,
                                      llvm::SmallVectorImpl<mlir::Type> &types);
/// Where's result: the three shapes broadcast, x's element type (y must have it too).
mlir::LogicalResult whereResultType(const ShapeRuleDiag &rule, mlir::Value condition, mlir::Value x, mlir::Value y,
                                    llvm::SmallVectorImpl<mlir::Type> &types);
/// QuantizeLinear's / DequantizeLinear's result: the input's shape (scale broadcasts to it, numpy, and zero_point has
/// scale's shape), the zero point's element type (quantize) or scale's (dequantize; the zero point then has the
/// input's element type).
mlir::LogicalResult quantizeResultType(const ShapeRuleDiag &rule, mlir::Value input, mlir::Value scale,
                                       mlir::Value zeroPoint, bool dequantize, llvm::SmallVectorImpl<mlir::Type> &types);
mlir::LogicalResult reduceResultType(const ShapeRuleDiag &rule, mlir::Value input, llvm::ArrayRef<int64_t> axes,
                                     bool keepdims, llvm::SmallVectorImpl<mlir::Type> &types);
mlir::LogicalResult poolResultType(const ShapeRuleDiag &rule, mlir::Value input, llvm::ArrayRef<int64_t> kernel,
                                   llvm::ArrayRef<int64_t> strides, llvm::ArrayRef<int64_t> pads,
                                   llvm::ArrayRef<int64_t> dilations, bool ceilMode,
                                   llvm::SmallVectorImpl<mlir::Type> &types);
mlir::LogicalResult globalPoolResultType(const ShapeRuleDiag &rule, mlir::Value input,
                                         llvm::SmallVectorImpl<mlir::Type> &types);
/// axis must lie in [-rank, rank).
mlir::LogicalResult checkAxis(const ShapeRuleDiag &rule, llvm::StringRef name, int64_t axis, int64_t rank);
/// InferTypeOpInterface's isCompatibleReturnTypes of every tx8be op: the same element types and ranks, equal
/// static extents (a dynamic extent agrees with any); what the verifier (verifyResultTypes) accepts.
bool compatibleResultTypes(mlir::TypeRange inferred, mlir::TypeRange actual);
/// Attaches the ShardingInterface models of the op families (Sharding.cpp); Tx8beDialect::initialize calls it.
void attachShardingModels(mlir::MLIRContext *ctx);
} // namespace tx8be::detail

#define GET_OP_CLASSES
namespace mlir::OpTrait::tx8be {
/// y = f(x) element by element, the result of x's shape (Tx8be_UnaryOp): a pass may run the op on any view of x
/// (tx8be-decompose flattens one whose rank OpLib's tensors cannot hold).
template <typename ConcreteType>
class UnaryElementwise : public TraitBase<ConcreteType, UnaryElementwise> {};
} // namespace mlir::OpTrait::tx8be

#include "tx8/Dialect/Tx8be/IR/Tx8beOps.h.inc"
#define GET_OP_CLASSES
#include "tx8/Dialect/Tx8be/IR/Tx8beScheduleOps.h.inc"

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

/// Per input dim of a reduction (ReduceSum / Mean / Max / Min) over `axes` of a rank-`rank` input: whether it is
/// reduced. Empty axes reduce every dim.
inline llvm::SmallVector<bool, 6> reducedDims(llvm::ArrayRef<int64_t> axes, int64_t rank) {
  llvm::SmallVector<bool, 6> reduced(rank, axes.empty());
  for (int64_t a : axes)
    reduced[normalizeAxis(a, rank)] = true;
  return reduced;
}

/// Why op_gemm cannot run `op` in its form ("" if it can): it takes no transposes, alpha 1, and C only as a row
/// vector of the output's N columns ([N] or [1, N]) with beta 1. (OpLib.cpp; tx8be-decompose rewrites the rest.)
std::string gemmFormProblem(GemmOp op);

/// Why op_gather_rows cannot run `op` ("" if it can): an embedding lookup, a Gather along axis 0 of a static 2-D
/// f32/f16/bf16 table that is a constant (tx8be.Constant, or its LoadConst: the table stays in DDR, read in place),
/// with static i32 (or i64: tx8be-narrow-int64 narrows them) indices of any rank, at least one. (OpLib.cpp;
/// tx8be-decompose writes the other Gathers of float data as compositions.)
std::string gatherRowsProblem(GatherOp op);

} // namespace tx8be

#endif // TX8_DIALECT_TX8BE_IR_TX8BE_H
