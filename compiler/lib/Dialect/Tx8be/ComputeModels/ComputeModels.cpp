//===- ComputeModels.cpp - ComputeInterface registration and shared checks ===//
//
// registerComputeInterfaceExternalModels attaches every family's models (the other files of this folder)
// when tx8be is loaded; checkComputeInputs / finishCompute are the checks every model runs around its kernel.
//
//===----------------------------------------------------------------------===//
#include "tx8/Dialect/Tx8be/ComputeModels/ComputeModels.h"

#include "ComputeModel.h"

#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tx8be;

void tx8be::registerComputeInterfaceExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, Tx8beDialect *) {
    detail::attachEltwiseComputeModels(ctx);
    detail::attachBinaryComputeModels(ctx);
    detail::attachNormalizationComputeModels(ctx);
    detail::attachGemmComputeModels(ctx);
    detail::attachConvPoolComputeModels(ctx);
    detail::attachReduceComputeModels(ctx);
    detail::attachDataMovementComputeModels(ctx);
  });
}

LogicalResult tx8be::detail::checkComputeInputs(Operation *op, ComputeParam &param) {
  if (param.inputs.size() != op->getNumOperands()) {
    param.error = op->getName().getStringRef().str() + ": compute got " + std::to_string(param.inputs.size()) +
                  " inputs, the op has " + std::to_string(op->getNumOperands()) + " operands";
    return failure();
  }
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    // An absent optional operand is not in getOperands(): every listed operand needs a tensor.
    if (!param.inputs[i]) {
      param.error = op->getName().getStringRef().str() + ": input #" + std::to_string(i) + " is null";
      return failure();
    }
    auto type = cast<ShapedType>(operand.getType());
    auto dtype = refDTypeOf(type);
    const ref::Tensor &t = *param.inputs[i];
    if (!dtype || *dtype != t.dtype || (type.hasStaticShape() && ArrayRef<int64_t>(t.shape) != type.getShape())) {
      std::string expected;
      llvm::raw_string_ostream os(expected);
      os << type;
      param.error = op->getName().getStringRef().str() + ": input #" + std::to_string(i) + " is a " +
                    ref::dtypeName(t.dtype) + " tensor of shape [" +
                    llvm::join(llvm::map_range(t.shape, [](int64_t d) { return std::to_string(d); }), ",") +
                    "], the operand is " + expected;
      return failure();
    }
  }
  return success();
}

LogicalResult tx8be::detail::finishCompute(Operation *op, ComputeParam &param, const ref::Status &status,
                                           ref::Tensor result) {
  if (!status.ok()) {
    param.error = status.message();
    return failure();
  }
  auto type = cast<ShapedType>(op->getResult(0).getType());
  auto dtype = refDTypeOf(type);
  if (!dtype || *dtype != result.dtype || (type.hasStaticShape() && ArrayRef<int64_t>(result.shape) != type.getShape())) {
    std::string expected;
    llvm::raw_string_ostream os(expected);
    os << type;
    param.error = op->getName().getStringRef().str() + ": the reference kernel produced a " +
                  ref::dtypeName(result.dtype) + " tensor that does not match the result type " + expected;
    return failure();
  }
  param.outputs.clear();
  param.outputs.push_back(std::move(result));
  return success();
}
