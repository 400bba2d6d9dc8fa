//===- InferShapes.cpp - Refine result shapes (tx8be-infer-shapes) --------===//
#include "tx8/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tx8be {
#define GEN_PASS_DEF_TX8BEINFERSHAPES
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;

namespace {

/// Refines the ops of `block` in order, so that each op sees its operands' refined types. A Group's body
/// is refined in between: its arguments take the refined operand types and its results the returned ones.
LogicalResult inferBlock(Block &block, tx8be::DynamicShapeParam &param) {
  for (Operation &op : block) {
    if (auto group = dyn_cast<tx8be::GroupOp>(op)) {
      Block &body = group.getBody().front();
      for (auto [arg, operand] : llvm::zip(body.getArguments(), group.getOperands()))
        arg.setType(operand.getType());
      if (failed(inferBlock(body, param)))
        return failure();
      for (auto [result, value] : llvm::zip(group.getResults(), body.getTerminator()->getOperands()))
        result.setType(value.getType());
      continue;
    }
    if (auto shaped = dyn_cast<tx8be::ShapeInferenceOpInterface>(op))
      if (failed(shaped.inferShapes(param)))
        return failure();
  }
  return success();
}

struct Tx8beInferShapesPass : tx8be::impl::Tx8beInferShapesBase<Tx8beInferShapesPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    tx8be::DynamicShapeParam param;
    for (Block &block : func.getBody())
      if (failed(inferBlock(block, param)))
        return signalPassFailure();
    // The signature follows what the function now returns.
    for (Block &block : func.getBody())
      if (auto ret = dyn_cast<func::ReturnOp>(block.getTerminator()))
        func.setType(FunctionType::get(func.getContext(), func.getArgumentTypes(), ret.getOperandTypes()));
  }
};

} // namespace
