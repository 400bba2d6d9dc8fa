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
      [{The C statements main.c runs for this op (declaring its *_PARAM and calling op_*). Empty when OpLib
        has no kernel for the op yet: codegen must then report the op.}],
      "std::string", "genOpCode", (ins "const ::tx8be::OpCodeParam &":$param), [{}],
      [{ return ::tx8be::detail::genOpCode($_op.getOperation(), param); }]>,
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
