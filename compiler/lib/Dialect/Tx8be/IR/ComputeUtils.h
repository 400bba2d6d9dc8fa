//===- ComputeUtils.h - Helpers shared by the ComputeInterface bodies -*- C++ -*-===//
#ifndef TX8_LIB_DIALECT_TX8BE_IR_COMPUTEUTILS_H
#define TX8_LIB_DIALECT_TX8BE_IR_COMPUTEUTILS_H

#include "tx8/Dialect/Tx8be/IR/Tx8be.h"
#include "tx8/Reference/Status.h"
#include "tx8/Reference/Tensor.h"

#include <optional>

namespace tx8be::detail {

/// One non-null input per operand, each with the operand's dtype and (static) shape; else param.error.
mlir::LogicalResult checkComputeInputs(mlir::Operation *op, ComputeParam &param);

/// Stores `result` as the op's single output after checking the kernel status and that the result matches
/// the op's result type; else param.error.
mlir::LogicalResult finishCompute(mlir::Operation *op, ComputeParam &param, const tx8::ref::Status &status,
                                  tx8::ref::Tensor result);

} // namespace tx8be::detail

#endif // TX8_LIB_DIALECT_TX8BE_IR_COMPUTEUTILS_H
