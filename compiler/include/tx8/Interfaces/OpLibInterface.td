//===- OpLibInterface.td - The bridge between tx8be ops and OpLib ---------===//
//
// Seed: "These are the interfaces for connecting tx8be-oplib and codegen": genOpCode (the C call main.c
// makes), getOpClockCycle (cost estimate), getImmSpSize (SPM scratch bytes) and queryOpAttr (alignment,
// default layout, load/store needs ...).
//
//===----------------------------------------------------------------------===//
#ifndef TX8_INTERFACES_OPLIBINTERFACE
#define TX8_INTERFACES_OPLIBINTERFACE

include "mlir/IR/OpBase.td"

def OpLibInterface : OpInterface<"OpLibInterface"> {
  let description = [{
    These are the interfaces for connecting tx8be-oplib and codegen.

    Implemented per op family as external models (lib/Dialect/Tx8be/IR/OpLib.cpp), which the dialect
    attaches when it loads (tx8be::detail::attachOpLibModels); BatchNorm_Inference implements it itself
    (BatchNormInterfaces.cpp). A tx8be op implements it if and only if it is a compute op.
  }];
  let cppNamespace = "::tx8be";
  let methods = [
    InterfaceMethod<
      [{Describes the OpLib call main.c makes for this op per step (function, *_PARAM members, TSR arguments).
        Fails with an error on the op saying why when OpLib has no kernel for it (its types, attributes or
        layouts).}],
      "::mlir::LogicalResult", "genOpCode", (ins "::tx8be::OpCall &":$call)>,
    InterfaceMethod<
      [{Estimated cycles of one execution on the whole (unsliced) result on hardware `hw`.}],
      "uint64_t", "getOpClockCycle", (ins "const ::tx8_hw_config &":$hw)>,
    InterfaceMethod<
      [{Estimated cycles of one execution on an output slice of extents `slice` (logical dims) on hardware
        `hw`, for a kernel whose fixed costs per block make a slice's time not its share of the whole op's
        (op_attention on a few query rows). 0 (the default): the share of getOpClockCycle.}],
      "uint64_t", "getSliceClockCycle", (ins "const ::tx8_hw_config &":$hw, "::llvm::ArrayRef<int64_t>":$slice),
      [{}], [{ return 0; }]>,
    InterfaceMethod<
      [{Bytes of SPM scratch (the op's imm TSR) one execution on an output slice of extents `slice` (logical
        dims; empty: the whole output) needs on hardware `hw`.}],
      "uint32_t", "getImmSpSize", (ins "const ::tx8_hw_config &":$hw, "::llvm::ArrayRef<int64_t>":$slice)>,
    InterfaceMethod<
      [{The op's OpLib properties (alignment mode, default layout, load/store needs, ...).}],
      "::tx8be::OpAttr", "queryOpAttr", (ins)>,
    InterfaceMethod<
      [{The shape OpLib's op_* call expects for operand `index` (index >= operands: result index - operands),
        given that tensor's shape in device memory order (tx8be::detail::opLibViewShape). Default: the device
        shape, ranks above 4 with the middle dims merged.}],
      "::llvm::SmallVector<int64_t>", "getOpLibViewShape",
      (ins "unsigned":$index, "::llvm::ArrayRef<int64_t>":$deviceShape), [{}],
      [{ return ::tx8be::detail::defaultOpLibViewShape(deviceShape); }]>
  ];
}

#endif // TX8_INTERFACES_OPLIBINTERFACE
