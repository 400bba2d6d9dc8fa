//===- NePrecision.cpp - NE work in a reduced input format (tx8be-ne-precision) ===//
//
// tx8-aot --precision: an fp32 model's NE ops (Conv, Gemm, MatMul -> op_conv / op_gemm) read their A and B
// operands in tf32 (bf16 / fp16 to come) and accumulate in fp32. The NE rounds fp32-stored tf32 inputs itself
// (cmodel/src/ne/ne_internal.h, ne_tf32_round: round to nearest even), so tf32 changes no data and needs no
// cast: the op is marked `ne_in_fmt = "tf32"` and codegen describes operands 0 and 1 to OpLib as Fmt_TF32,
// which becomes the NE instruction's in_fmt (the cycle model's tf32 rate, ne_macs_per_cycle_tf32).
//
//===----------------------------------------------------------------------===//
#include "tx8/Dialect/Tx8be/IR/Tx8be.h"
#include "tx8/Transforms/Passes.h"

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
    if (precision == "bf16" || precision == "fp16") {
      func.emitError() << "--precision " << precision
                       << " is not implemented yet: Conv, Gemm and MatMul keep one element type for operands and "
                          "result, so 2-byte operands with an fp32 accumulator need mixed-type NE ops (use tf32)";
      return signalPassFailure();
    }
    if (precision != "tf32") {
      func.emitError() << "--precision " << precision << ": expected fp32, tf32, bf16 or fp16";
      return signalPassFailure();
    }
    StringAttr tf32 = StringAttr::get(&getContext(), "tf32");
    func.walk([&](Operation *op) {
      if (!isa<ConvOp, GemmOp, MatMulOp>(op) || op->getNumOperands() < 2)
        return;
      if (isF32Tensor(op->getOperand(0)) && isF32Tensor(op->getOperand(1)) && isF32Tensor(op->getResult(0)))
        op->setAttr("ne_in_fmt", tf32);
    });
  }
};

} // namespace
