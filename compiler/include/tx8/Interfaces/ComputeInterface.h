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

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
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
/// The MLIR element type of a reference dtype (tx8/Reference/ElementTypes.def).
inline mlir::Type mlirTypeOf(tx8::ref::DType t, mlir::MLIRContext *ctx) {
  mlir::Builder b(ctx);
  switch (t) {
#define TX8_ELEMENT_TYPE(dtype, name, bytes, onnx, npy, mlirType, format)                                      \
  case tx8::ref::DType::dtype:                                                                                 \
    return mlirType;
#include "tx8/Reference/ElementTypes.def"
#undef TX8_ELEMENT_TYPE
  }
  return nullptr;
}

/// The reference dtype of an MLIR (element) type, if it has one.
inline std::optional<tx8::ref::DType> refDTypeOf(mlir::Type type) {
  mlir::Type element = mlir::getElementTypeOrSelf(type);
  for (tx8::ref::DType t : tx8::ref::kAllDTypes)
    if (element == mlirTypeOf(t, element.getContext()))
      return t;
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
