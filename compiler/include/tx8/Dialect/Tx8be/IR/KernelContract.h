//===- KernelContract.h - OpLib's kernel contracts at compile time -*- C++ -*-===//
//
// Every OpLib kernel validates its arguments before its first instruction and faults when they are inconsistent;
// those checks are pure C functions of OpLib's planning library (tx8/check.h: tx8_check_<kernel>). The compiler
// evaluates the same functions on the calls it plans: the TSRs a generated main.c builds at a step (format, SPM
// address, the L_SHAPE of the view table's row) and the *_PARAM an OpCall (genOpCode) describes. A call the kernel
// would fault on is a compile error, never a bundle (codegen, EmitMain.cpp), and a plan whose calls break a
// contract is not chosen (tx8be-group-cost). One source for both sides: what is accepted here is what the kernel
// accepts.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_DIALECT_TX8BE_IR_KERNELCONTRACT_H
#define TX8_DIALECT_TX8BE_IR_KERNELCONTRACT_H

#include "tx8/Dialect/Tx8be/IR/TensorBox.h"
#include "tx8/Interfaces/OpLibInterface.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <optional>
#include <string>

#include "tx8/dtype.h"
#include "tx8/hw_config.h"

namespace tx8be {

/// The OpLib view (the L_SHAPE extents, elements) of tensor `index` of `op` (an operand; index ==
/// op->getNumOperands(): its result) when it holds a box of extents `size` (logical dims; a rank-0 value: empty):
/// the box in the order the op reads the tensor (operandReadLayout; the result's own layout), then
/// opLibViewShape. What main.c's view tables hold, row by row: the one computation of them.
llvm::SmallVector<int64_t> opLibBoxView(mlir::Operation *op, unsigned index, llvm::ArrayRef<int64_t> size);

/// One TSR of a call as main.c builds it at one step.
struct KernelTensor {
  Data_Format format = Fmt_FP32;
  uint64_t addr = 0;                 ///< SPM byte address
  llvm::SmallVector<int64_t, 6> view; ///< the L_SHAPE's extents (elements), 1 to MAX_SHAPE_DIM of them
};

/// The arguments of one call at one step: a TSR per operand (nullopt: the step passes NULL, a bias a split
/// reduction adds only once) and per result, the scratch, and what the step's fields read.
struct KernelCallArgs {
  llvm::SmallVector<std::optional<KernelTensor>, 4> operands;
  llvm::SmallVector<KernelTensor, 1> results;
  std::optional<KernelTensor> imm;
  std::array<int64_t, 4> pads{0, 0, 0, 0}; ///< OpCallValue::StepPad: top, left, bottom, right
  bool accumulate = false;                  ///< OpCallValue::StepAccumulate
};

/// The format a call passes operand `index` of `op` in when it is stored as `stored`: tf32 for the NE's inputs
/// (operands 0 and 1) of an fp32 op tx8be-ne-precision marked ne_in_fmt = "tf32", else `stored`.
Data_Format kernelOperandFormat(mlir::Operation *op, unsigned index, Data_Format stored);

/// A step's pads for a kernel that takes them (OpCallValue::StepPad), {top, left, bottom, right}: where `box`, the
/// box of the op's first operand (rank `rank`: H and W of a 4-D map, W of a 3-D one), reaches into the op's
/// padding (a border slice keeps it, an inner slice has none).
std::array<int64_t, 4> stepPads(const TensorBox &box, int64_t rank);

/// Part `part` of a reduction split in `parts` (StepsOp reduce_steps; reduceDims: reductionDims of the op, per
/// operand): every part after the first accumulates into the output, and an operand without a reduction dim (a
/// bias) is passed by the last part only (NULL before). Only the anchor of a chain; its tail runs once per slice,
/// at the last part.
void applyReducePart(KernelCallArgs &args, llvm::ArrayRef<int64_t> reduceDims, int64_t part, int64_t parts);

/// Evaluates the contract of the kernel `call` names (tx8/check.h) on `args` for the chip `hw`, building the
/// *_PARAM from call.fields as main.c initialises it (members it does not name are 0). Success with `why` empty:
/// the kernel accepts the call; success with `why` set: the kernel would fault, with that reason (its own
/// message). Failure, with `error`: the call cannot be evaluated (a kernel, *_PARAM or member this file does not
/// know, an enumerator with no value here, a view of no valid rank): every call codegen prints must be checkable.
mlir::LogicalResult checkKernelCall(const OpCall &call, const KernelCallArgs &args, const tx8_hw_config &hw,
                                    std::string &why, std::string &error);

} // namespace tx8be

#endif // TX8_DIALECT_TX8BE_IR_KERNELCONTRACT_H
