//===- Tx8beOps.cpp - tx8be op definitions and structural verifiers -------===//
//
// The generated op classes, plus the verifiers that are not shape rules (Constant, Group). Shape rules and
// their verification live in ShapeInference.cpp.
//
//===----------------------------------------------------------------------===//
#include "tx8/Dialect/Tx8be/IR/Tx8be.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace tx8be;

#define GET_OP_CLASSES
#include "tx8/Dialect/Tx8be/IR/Tx8beOps.cpp.inc"

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

LogicalResult ConstantOp::verify() {
  // Weights come as dense literals or as resource blobs (large ONNX initializers); other ElementsAttr kinds
  // (sparse, string) have no device representation.
  if (!isa<DenseElementsAttr, DenseResourceElementsAttr>(getValue()))
    return emitOpError("value must be a DenseElementsAttr or a DenseResourceElementsAttr");
  return success();
}

//===----------------------------------------------------------------------===//
// LoadConstOp
//===----------------------------------------------------------------------===//

LogicalResult LoadConstOp::verify() {
  std::optional<int64_t> w = getColumnBlock();
  if (!w)
    return success();
  auto type = cast<RankedTensorType>(getOutput().getType());
  if (type.getRank() < 2 || type.isDynamicDim(type.getRank() - 1) || type.getShape().back() % *w != 0)
    return emitOpError() << "column_block " << *w << " must divide the last dim of a tensor of rank 2 or more, not "
                         << type;
  // Its image is blocked: only a LoadBox knows how to address it (each box checks it is one whole block).
  for (Operation *user : getOutput().getUsers())
    if (!isa<LoadBoxOp>(user))
      return emitOpError() << "has column_block " << *w << ", but " << user->getName()
                           << " reads it (only LoadBoxes of whole blocks may)";
  return success();
}

//===----------------------------------------------------------------------===//
// GroupOp
//===----------------------------------------------------------------------===//

LogicalResult GroupOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getOperands().size())
    return emitOpError("body block has ") << body.getNumArguments() << " arguments, expected "
                                          << getOperands().size() << " (one per operand)";
  for (auto [i, arg, operand] : llvm::enumerate(body.getArguments(), getOperands()))
    if (arg.getType() != operand.getType())
      return emitOpError("body argument #") << i << " has type " << arg.getType() << ", but operand #" << i
                                            << " has type " << operand.getType();
  auto ret = body.empty() ? ReturnOp() : dyn_cast<ReturnOp>(body.back());
  if (!ret)
    return emitOpError("body must end with 'tx8be.Return'");
  if (ret.getOperands().size() != getResults().size())
    return ret.emitOpError("returns ") << ret.getOperands().size() << " values, but the enclosing group has "
                                       << getResults().size() << " results";
  for (auto [i, value, result] : llvm::enumerate(ret.getOperands(), getResults()))
    if (value.getType() != result.getType())
      return ret.emitOpError("operand #") << i << " has type " << value.getType()
                                          << ", but the group's result #" << i << " has type "
                                          << result.getType();
  return success();
}
