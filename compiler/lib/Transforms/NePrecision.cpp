//===- NePrecision.cpp - NE work in a reduced input format (tx8be-ne-precision) ===//
//
// tx8-aot --precision: an fp32 model's NE ops (Conv, Gemm, MatMul -> op_conv / op_gemm) read their A and B
// operands (input and weight) in tf32, bf16 or fp16 and accumulate in fp32; bias and output stay fp32.
//   tf32: the NE rounds fp32-stored tf32 inputs itself (cmodel/src/ne/ne_internal.h, ne_tf32_round: round to
//         nearest even), so no data changes and no cast: the op is marked `ne_in_fmt = "tf32"` and codegen
//         describes operands 0 and 1 to OpLib as Fmt_TF32, the NE instruction's in_fmt.
//   bf16 / fp16: 2-byte storage. A and B each go through a tx8be.Cast to bf16 / f16 (one per value); the op is
//         marked `ne_in_fmt = "bf16"` / "fp16", which keeps its result (and bias) f32 (ShapeInference.cpp). It
//         runs before tx8be-fold-constants, so the Cast of a constant weight folds at compile time (round to
//         nearest even): the constant then holds bf16 / f16 data, half the bytes; an activation's Cast is an
//         op_cast on the device, placed by the layout and grouping passes like any other op.
// Either way the NE instruction's in_fmt is the reduced format, which the cycle model charges at its rate
// (ne_macs_per_cycle_tf32 / _bf16 / _fp16: 4096 MAC/cycle per tile against fp32's 656).
//
//===----------------------------------------------------------------------===//
#include "tx8/Dialect/Tx8be/IR/Tx8be.h"
#include "tx8/Transforms/Passes.h"

#include "CastAfterDefinition.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

#include <functional>

namespace tx8be {
#define GEN_PASS_DEF_NEPRECISIONPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

bool isF32Tensor(Value v) { return getElementTypeOrSelf(v.getType()).isF32(); }

struct NePrecisionPass : tx8be::impl::NePrecisionPassBase<NePrecisionPass> {
  using NePrecisionPassBase::NePrecisionPassBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (precision == "fp32")
      return;
    if (precision != "tf32" && precision != "bf16" && precision != "fp16") {
      func.emitError() << "--precision " << precision << ": expected fp32, tf32, bf16 or fp16";
      return signalPassFailure();
    }
    SmallVector<Operation *> ops;
    func.walk([&](Operation *op) {
      if (isa<ConvOp, GemmOp, MatMulOp>(op) && op->getNumOperands() >= 2 && isF32Tensor(op->getOperand(0)) &&
          isF32Tensor(op->getOperand(1)) && isF32Tensor(op->getResult(0)))
        ops.push_back(op);
    });
    StringAttr fmt = StringAttr::get(&getContext(), precision);
    if (precision == "tf32") {
      for (Operation *op : ops)
        op->setAttr("ne_in_fmt", fmt);
      return;
    }
    Type element = precision == "bf16" ? Type(BFloat16Type::get(&getContext())) : Float16Type::get(&getContext());
    DenseMap<Value, Value> casts; // one Cast per demoted value, right after its definition
    std::function<Value(Value)> demoted = [&](Value v) -> Value {
      if (Value c = casts.lookup(v))
        return c;
      OpBuilder b(&getContext());
      // A Reshape's input is cast instead and the Reshape reads the cast (a Cast commutes with a view): the Cast
      // then follows the op that computed the value, so tx8be-group-fuse can put it in that op's Group (the
      // value goes to DDR once, in 2 bytes) instead of a Group of its own behind the view.
      if (auto reshape = v.getDefiningOp<ReshapeOp>(); reshape && isF32Tensor(reshape.getInput())) {
        Value input = demoted(reshape.getInput());
        b.setInsertionPointAfter(reshape); // the input's Cast is right after the input, before the Reshape
        auto type = cast<RankedTensorType>(v.getType()).clone(element);
        Value c = b.create<ReshapeOp>(reshape.getLoc(), type, input, StringAttr(), DevAttr()).getResult();
        casts[v] = c;
        return c;
      }
      Value c = castAfterDefinition(v, element);
      casts[v] = c;
      return c;
    };
    llvm::SetVector<ReshapeOp> replaced;
    for (Operation *op : ops) {
      op->setAttr("ne_in_fmt", fmt);
      for (unsigned i : {0u, 1u}) {
        Value before = op->getOperand(i);
        op->setOperand(i, demoted(before));
        if (auto reshape = before.getDefiningOp<ReshapeOp>())
          replaced.insert(reshape);
      }
    }
    // fp32 Reshapes read by nothing now (their input's cast is read through a Reshape of its own); erased at
    // the end, as `casts` is keyed by their results
    SmallVector<ReshapeOp> dead(replaced.begin(), replaced.end());
    while (!dead.empty()) {
      ReshapeOp reshape = dead.pop_back_val();
      if (!reshape->use_empty())
        continue;
      auto inner = reshape.getInput().getDefiningOp<ReshapeOp>();
      reshape->erase();
      if (inner && inner->use_empty() && !replaced.contains(inner)) // each erased once
        dead.push_back(inner);
    }
    // Attention: Q, K and V all feed the NE (q k^T, P v); the mask, the softmax and the result stay fp32.
    SmallVector<AttentionOp> attentions;
    func.walk([&](AttentionOp op) {
      if (isF32Tensor(op.getQ()) && isF32Tensor(op.getK()) && isF32Tensor(op.getV()) && isF32Tensor(op.getOutput()))
        attentions.push_back(op);
    });
    for (AttentionOp op : attentions) {
      op->setAttr("ne_in_fmt", fmt);
      for (unsigned i = 0; i < 3; ++i)
        op->setOperand(i, demoted(op->getOperand(i)));
    }
  }
};

} // namespace
