//===- ComputeInterface.h - Host reference execution -------------*- C++ -*-===//
#ifndef TX8_INTERFACES_COMPUTEINTERFACE_H
#define TX8_INTERFACES_COMPUTEINTERFACE_H

#include <optional>
#include <string>
#include <vector>

#include "mlir/IR/OpDefinition.h"
#include "tx8/Reference/Tensor.h"

namespace tx8be {

/// Inputs and outputs of ComputeInterface::compute. The caller owns the inputs; compute fills `outputs`
/// (one tensor per result, shaped like the result type) or sets `error`.
struct ComputeParam {
  std::vector<const tx8::ref::Tensor *> inputs; ///< one per operand, nullptr for an absent optional operand
  std::vector<tx8::ref::Tensor> outputs;
  std::string error;
};

namespace detail {
/// The reference dtype of an MLIR (element) type, if it has one.
std::optional<tx8::ref::DType> refDTypeOf(mlir::Type type);

mlir::LogicalResult compute(mlir::Operation *op, ComputeParam &param);
} // namespace detail
} // namespace tx8be

#include "tx8/Interfaces/ComputeInterface.h.inc"

#endif // TX8_INTERFACES_COMPUTEINTERFACE_H
