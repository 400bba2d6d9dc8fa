//===- ComputeInterface.h - Host reference execution -------------*- C++ -*-===//
//
// The interface and its parameter struct. The tx8be ops' implementations are external models
// (tx8/Dialect/Tx8be/ComputeModels/ComputeModels.h): a context has them only if its tool registered them.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_INTERFACES_COMPUTEINTERFACE_H
#define TX8_INTERFACES_COMPUTEINTERFACE_H

#include <optional>
#include <string>
#include <vector>

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/TypeUtilities.h"
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
inline std::optional<tx8::ref::DType> refDTypeOf(mlir::Type type) {
  using tx8::ref::DType;
  mlir::Type t = mlir::getElementTypeOrSelf(type);
  if (t.isF32())
    return DType::F32;
  if (t.isF16())
    return DType::F16;
  if (t.isBF16())
    return DType::BF16;
  if (t.isF64())
    return DType::F64;
  if (t.isInteger(1))
    return DType::Bool;
  if (t.isUnsignedInteger(8))
    return DType::U8;
  if (t.isInteger(8))
    return DType::I8;
  if (t.isInteger(32))
    return DType::I32;
  if (t.isInteger(64))
    return DType::I64;
  return std::nullopt;
}
} // namespace detail
} // namespace tx8be

#include "tx8/Interfaces/ComputeInterface.h.inc"

namespace tx8be {

/// Whether `name`'s dialect promised it a ComputeInterface that no model keeps yet. (MLIR 19's
/// RegisteredOperationName::hasPromiseOrImplementsInterface does not compile: it passes a Dialect * where a
/// Dialect & is expected.)
inline bool isComputeInterfacePromised(mlir::RegisteredOperationName name) {
  return name.getDialect().hasPromisedInterface(name.getTypeID(), ComputeInterface::getInterfaceID());
}

/// `op`'s ComputeInterface, or null with `why` saying what is missing. The tx8be dialect promises the
/// interface for its compute ops; when the tool did not register the models that keep the promise, this
/// says so instead of the plain "no ComputeInterface" of an op that has none. (Use this rather than
/// isa/dyn_cast on ops that may be promised: with assertions on, MLIR aborts on an unkept promise.)
inline ComputeInterface lookupComputeInterface(mlir::Operation *op, std::string &why) {
  std::optional<mlir::RegisteredOperationName> info = op->getRegisteredInfo();
  if (info && info->hasInterface<ComputeInterface>())
    return mlir::cast<ComputeInterface>(op);
  why = info && isComputeInterfacePromised(*info) ? "no ComputeInterface model is registered for it (the tool must "
                                                    "call tx8be::registerComputeInterfaceExternalModels)"
                                                  : "no ComputeInterface";
  return nullptr;
}

} // namespace tx8be

#endif // TX8_INTERFACES_COMPUTEINTERFACE_H
