//===- ReducedActivations.cpp - Activations stored in bf16/fp16 (tx8be-reduced-activations) ===//
//
// tx8-aot --precision bf16|fp16, after tx8be-ne-precision: the values between ops are stored in the reduced
// format, not only the NE's inputs. At batch 1 a transformer moves its activations through DDR between groups;
// in fp32 they cost twice the bytes (issue 34, item 4). What computes in which format:
//   - the NE ops (Conv, Gemm, MatMul, Attention with ne_in_fmt) read bf16/fp16 and accumulate in fp32, as
//     tx8be-ne-precision made them; their fp32 result starts an *fp32 tail*;
//   - an elementwise op whose float operands are all fp32-tail values or constants (a bias, a Gelu, a scale: a
//     linear layer's epilogue) stays fp32 and extends the tail, so the epilogue is exact in fp32 and one Cast
//     at the tail's end (fused into the NE op's group by tx8be-group-fuse) stores the result in 2 bytes;
//   - every other op of the kinds below, with all its float tensors fp32, computes in the reduced format:
//     elementwise CT ops, LayerNorm and Softmax (their statistics accumulate in fp32 inside op_layernorm /
//     op_softmax), the views and copies (Reshape, Transpose, Concat, Slice, Expand, Pad) and an embedding's
//     Gather of a constant table (op_gather_rows: the table folds into a reduced-format constant);
//   - a Reshape that only leads to the function's results keeps fp32 (the result's format: no round trip);
//   - everything else keeps fp32 and reads a Cast back (one per value).
// Function arguments and results keep their types: a Cast after an argument, a Cast before a result. Casts of
// constants fold in tx8be-fold-constants, which runs next; a Cast to the reduced format of a value now in the
// reduced format (tx8be-ne-precision's, for an NE input) disappears.
//
//===----------------------------------------------------------------------===//
#include "tx8/Dialect/Tx8be/IR/Tx8be.h"
#include "tx8/Transforms/PassStatistics.h"
#include "tx8/Transforms/Passes.h"

#include "CastAfterDefinition.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace tx8be {
#define GEN_PASS_DEF_REDUCEDACTIVATIONSPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

bool isF32Tensor(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.getElementType().isF32();
}
bool isFloatTensor(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && isa<FloatType>(type.getElementType());
}

/// Every float tensor the op reads or writes is fp32 (and it has at least one).
bool allFloatsF32(Operation *op) {
  bool any = false, allF32 = true;
  auto visit = [&](Value v) {
    if (!isFloatTensor(v))
      return;
    allF32 &= isF32Tensor(v);
    any = true;
  };
  llvm::for_each(op->getOperands(), visit);
  llvm::for_each(op->getResults(), visit);
  return any && allF32;
}

/// The NE ops tx8be-ne-precision narrowed: reduced-format inputs, an fp32 result.
bool isNarrowedNeOp(Operation *op) {
  return isa<ConvOp, GemmOp, MatMulOp, AttentionOp>(op) && op->hasAttr("ne_in_fmt") && op->getNumResults() == 1 &&
         isF32Tensor(op->getResult(0));
}

/// Elementwise CT ops whose float kernels take fp16/bf16 (OpLib's eltwise family: isCtFloat in OpLib.cpp).
bool isElementwise(Operation *op) {
  if (op->hasTrait<OpTrait::tx8be::UnaryElementwise>())
    return true;
  return isa<AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp>(op);
}

bool isConstant(Value v) { return v.getDefiningOp<ConstantOp>() != nullptr; }

/// The value only reaches the function's results, through Reshapes or directly. Such a Reshape stays in the
/// format of the result it becomes: reduced, it would make the producer store 2-byte values and a Cast group read
/// them back to write the fp32 result (GPT's logits: the lm_head's output twice through DDR).
bool onlyReachesResults(Value v) {
  return llvm::all_of(v.getUsers(), [](Operation *user) {
    if (isa<func::ReturnOp>(user))
      return true;
    auto reshape = dyn_cast<ReshapeOp>(user);
    return reshape && onlyReachesResults(reshape.getResult());
  });
}

/// The ops that compute in the reduced format when their tensors are fp32. An embedding (a Gather of a constant
/// table's rows, op_gather_rows) copies rows: its table folds into a reduced-format constant (half the DDR bytes
/// the lookup reads and keeps) and its rows come out in that format.
bool computesReduced(Operation *op) {
  if (auto gather = dyn_cast<GatherOp>(op))
    return isConstant(gather.getData()) && gatherRowsProblem(gather).empty();
  return isElementwise(op) ||
         isa<LayerNormOp, SoftmaxOp, ReshapeOp, TransposeOp, ConcatOp, SliceOp, ExpandOp, PadOp>(op);
}

struct ReducedActivationsPass : tx8be::impl::ReducedActivationsPassBase<ReducedActivationsPass> {
  using ReducedActivationsPassBase::ReducedActivationsPassBase;

  PassStatistic numReduced{this, "reduced", "ops computing in the reduced format"};
  PassStatistic numCasts{this, "casts", "Casts added between formats (before constants fold)"};

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (precision != "bf16" && precision != "fp16") {
      func.emitError() << "tx8be-reduced-activations: --precision " << precision << ": expected bf16 or fp16";
      return signalPassFailure();
    }
    Type reduced = precision == "bf16" ? Type(BFloat16Type::get(&getContext())) : Float16Type::get(&getContext());

    // Which ops compute reduced (in program order: a block's ops are topologically sorted).
    llvm::SetVector<Operation *> reducedOps;
    llvm::DenseSet<Value> f32Tail;
    func.walk([&](Operation *op) {
      if (isNarrowedNeOp(op)) {
        f32Tail.insert(op->getResult(0));
        return;
      }
      if (!computesReduced(op) || !allFloatsF32(op))
        return;
      if (isa<ReshapeOp>(op) && onlyReachesResults(op->getResult(0)))
        return;
      if (isElementwise(op)) {
        bool fromTail = false, onlyTailOrConstants = true;
        for (Value operand : op->getOperands()) {
          fromTail |= f32Tail.contains(operand);
          onlyTailOrConstants &= f32Tail.contains(operand) || isConstant(operand);
        }
        if (fromTail && onlyTailOrConstants) {
          f32Tail.insert(op->getResult(0));
          return;
        }
      }
      reducedOps.insert(op);
    });

    // One Cast per value and format, right after the value's definition.
    DenseMap<std::pair<Value, Type>, Value> casts;
    auto castTo = [&](Value v, Type element) -> Value {
      auto key = std::make_pair(v, element);
      if (Value c = casts.lookup(key))
        return c;
      Value c = castAfterDefinition(v, element);
      ++numCasts;
      return casts[key] = c;
    };

    // Retype the reduced ops; an fp32 operand from elsewhere reads a Cast.
    for (Operation *op : reducedOps) {
      for (OpOperand &operand : op->getOpOperands())
        if (isF32Tensor(operand.get()))
          operand.set(castTo(operand.get(), reduced));
      for (Value result : op->getResults())
        if (isF32Tensor(result))
          result.setType(cast<RankedTensorType>(result.getType()).clone(reduced));
      ++numReduced;
    }

    // Readers outside the set: a Cast to the reduced format reads the value itself; any other a Cast to fp32.
    Type f32 = Float32Type::get(&getContext());
    SmallVector<CastOp> redundant;
    for (Operation *op : reducedOps)
      for (Value result : op->getResults()) {
        if (!isFloatTensor(result))
          continue;
        for (OpOperand &use : llvm::make_early_inc_range(result.getUses())) {
          Operation *user = use.getOwner();
          if (reducedOps.contains(user))
            continue;
          if (auto castOp = dyn_cast<CastOp>(user)) {
            if (getElementTypeOrSelf(castOp.getResult().getType()) == reduced)
              redundant.push_back(castOp);
            continue; // a Cast converts from any float format
          }
          Value back = castTo(result, f32);
          if (back.getDefiningOp() != user)
            use.set(back);
        }
      }
    for (CastOp castOp : redundant) {
      castOp.getResult().replaceAllUsesWith(castOp->getOperand(0));
      castOp->erase();
    }
  }
};

} // namespace
