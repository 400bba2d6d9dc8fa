//===- ComputeInterface.td - Host reference execution ---------------------===//
//
// Seed: "ComputeInterface: each op gets a CPU result (oneDNN or hand-written C++) used to check the
// correctness of the generated code". Here the bodies call the tx8::ref kernels.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_INTERFACES_COMPUTEINTERFACE
#define TX8_INTERFACES_COMPUTEINTERFACE

include "mlir/IR/OpBase.td"

def ComputeInterface : OpInterface<"ComputeInterface"> {
  let description = [{
    Runs the op on host tensors (the golden model).
  }];
  let cppNamespace = "::tx8be";
  let methods = [
    InterfaceMethod<
      [{Computes param.outputs (one per result) from param.inputs (one per operand; nullptr for an absent
        optional operand). On failure param.error says why.}],
      "::mlir::LogicalResult", "compute", (ins "::tx8be::ComputeParam &":$param), [{}],
      [{ return ::tx8be::detail::compute($_op.getOperation(), param); }]>
  ];
}

#endif // TX8_INTERFACES_COMPUTEINTERFACE
