//===- ReferenceRunner.h - Run a tx8be function on the host -------*- C++ -*-===//
//
// The golden model of a compiled graph: the entry function's ops run one by one, in order, through their
// ComputeInterface (tx8/Reference kernels: oneDNN or plain C++ with ONNX semantics). Constants come from
// their attributes. This is what `tx8-aot reference` and `tx8-aot test-onnx --target reference` run. The
// runner itself links no kernels: the tool registers the models in the function's context
// (tx8/Dialect/Tx8be/ComputeModels/ComputeModels.h), else the first tx8be op fails with an error saying so.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_INTERPRETER_REFERENCERUNNER_H
#define TX8_INTERPRETER_REFERENCERUNNER_H

#include "tx8/Reference/Tensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <string>
#include <vector>

namespace tx8be {

/// The elements of a tx8be.Constant's value (DenseElementsAttr or DenseResourceElementsAttr) as a host
/// tensor. Fails (with `error`) for an element type the reference library has no dtype for.
mlir::LogicalResult tensorFromElementsAttr(mlir::ElementsAttr attr, tx8::ref::Tensor &out, std::string &error);

/// The reverse: a host tensor as a DenseElementsAttr of `type` (same element count and type).
mlir::DenseElementsAttr elementsAttrFromTensor(const tx8::ref::Tensor &t, mlir::RankedTensorType type);

/// Runs `func` with `inputs` (one per argument; dtype and shape must match the argument type) and returns
/// one tensor per result. On failure `error` names the op (with its location) and the reason.
mlir::LogicalResult runReference(mlir::func::FuncOp func, const std::vector<tx8::ref::Tensor> &inputs,
                                 std::vector<tx8::ref::Tensor> &outputs, std::string &error);

} // namespace tx8be

#endif // TX8_INTERPRETER_REFERENCERUNNER_H
