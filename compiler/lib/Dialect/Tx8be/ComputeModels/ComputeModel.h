//===- ComputeModel.h - What the ComputeInterface models share ----*- C++ -*-===//
//
// Private to TX8ComputeModels. A family's file defines its models on KernelModel (one reference kernel call
// per execution) and an attach function that registerComputeInterfaceExternalModels (ComputeModels.cpp)
// calls when the dialect loads.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_LIB_DIALECT_TX8BE_COMPUTEMODELS_COMPUTEMODEL_H
#define TX8_LIB_DIALECT_TX8BE_COMPUTEMODELS_COMPUTEMODEL_H

#include "tx8/Dialect/Tx8be/IR/Tx8be.h"
#include "tx8/Reference/Kernels.h"
#include "tx8/Reference/Status.h"
#include "tx8/Reference/Tensor.h"

#include <vector>

namespace tx8be::detail {

namespace ref = tx8::ref;

/// The kernel inputs, one per operand (checked against the operands' types before the kernel runs).
using KernelInputs = llvm::ArrayRef<const ref::Tensor *>;

/// One non-null input per operand, each with the operand's dtype and (static) shape; else param.error.
mlir::LogicalResult checkComputeInputs(mlir::Operation *op, ComputeParam &param);

/// Stores `result` as the op's single output after checking the kernel status and that the result matches
/// the op's result type (a kernel/IR disagreement cannot pass silently); else param.error.
mlir::LogicalResult finishCompute(mlir::Operation *op, ComputeParam &param, const ref::Status &status,
                                  ref::Tensor result);

/// The ComputeInterface of a single-result OpT that one kernel call evaluates:
/// `static ref::Status ConcreteModel::run(OpT op, KernelInputs inputs, ref::Tensor &out)` translates the op's
/// attributes into the kernel's parameters and calls it; the inputs and the output are checked here.
template <typename ConcreteModel, typename OpT>
struct KernelModel : ComputeInterface::ExternalModel<ConcreteModel, OpT> {
  mlir::LogicalResult compute(mlir::Operation *op, ComputeParam &param) const {
    if (mlir::failed(checkComputeInputs(op, param)))
      return mlir::failure();
    ref::Tensor out;
    ref::Status status = ConcreteModel::run(mlir::cast<OpT>(op), param.inputs, out);
    return finishCompute(op, param, status, std::move(out));
  }
};

/// Shapes and attribute arrays as the kernels take them.
inline std::vector<int64_t> vec(llvm::ArrayRef<int64_t> values) {
  return std::vector<int64_t>(values.begin(), values.end());
}

// One per family (the sections of tx8/Reference/Kernels.h), each in its own file.
void attachEltwiseComputeModels(mlir::MLIRContext *ctx);       // Eltwise.cpp: unary, PRelu
void attachBinaryComputeModels(mlir::MLIRContext *ctx);        // Binary.cpp: numpy-broadcasting binaries
void attachNormalizationComputeModels(mlir::MLIRContext *ctx); // Normalization.cpp: softmax, BatchNorm, LayerNorm
void attachGemmComputeModels(mlir::MLIRContext *ctx);          // Gemm.cpp: Gemm, MatMul
void attachConvPoolComputeModels(mlir::MLIRContext *ctx);      // ConvPool.cpp: convolutions, pooling
void attachReduceComputeModels(mlir::MLIRContext *ctx);        // Reduce.cpp: reductions
void attachDataMovementComputeModels(mlir::MLIRContext *ctx);  // DataMovement.cpp: shape ops, Cast, movers

} // namespace tx8be::detail

#endif // TX8_LIB_DIALECT_TX8BE_COMPUTEMODELS_COMPUTEMODEL_H
