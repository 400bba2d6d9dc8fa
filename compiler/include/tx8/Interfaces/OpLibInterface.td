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
  }];
  let cppNamespace = "::tx8be";
  let methods = [
    InterfaceMethod<
      [{Describes the OpLib call main.c makes for this op per step (function, *_PARAM members, TSR arguments).
        Fails with an error on the op saying why when OpLib has no kernel for it (its types, attributes or
        layouts).}],
      "::mlir::LogicalResult", "genOpCode", (ins "::tx8be::OpCall &":$call), [{}],
      [{ return ::tx8be::detail::genOpCode($_op.getOperation(), call); }]>,
    InterfaceMethod<
      [{Estimated cycles of one execution on the whole (unsliced) result on hardware `hw`.}],
      "uint64_t", "getOpClockCycle", (ins "const ::tx8_hw_config &":$hw), [{}],
      [{ return ::tx8be::detail::getOpClockCycle($_op.getOperation(), hw); }]>,
    InterfaceMethod<
      [{Bytes of SPM scratch (the op's imm TSR) one execution on an output slice of extents `slice` (logical
        dims; empty: the whole output) needs on hardware `hw`.}],
      "uint32_t", "getImmSpSize", (ins "const ::tx8_hw_config &":$hw, "::llvm::ArrayRef<int64_t>":$slice), [{}],
      [{ return ::tx8be::detail::getImmSpSize($_op.getOperation(), hw, slice); }]>,
    InterfaceMethod<
      [{The op's OpLib properties (alignment mode, default layout, load/store needs, ...).}],
      "::tx8be::OpAttr", "queryOpAttr", (ins), [{}],
      [{ return ::tx8be::detail::queryOpAttr($_op.getOperation()); }]>
  ];
}

#endif // TX8_INTERFACES_OPLIBINTERFACE
