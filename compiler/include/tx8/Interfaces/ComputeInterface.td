//===- ComputeInterface.td - Host reference execution ---------------------===//
//
// Seed: "ComputeInterface: each op gets a CPU result (oneDNN or hand-written C++) used to check the
// correctness of the generated code". The tx8be ops implement it as external models, one per op family, in
// the TX8ComputeModels library (lib/Dialect/Tx8be/ComputeModels, on the tx8::ref kernels): a tool that
// evaluates ops calls tx8be::registerComputeInterfaceExternalModels, so the dialect itself links no kernels.
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
      "::mlir::LogicalResult", "compute", (ins "::tx8be::ComputeParam &":$param)>
  ];
}

#endif // TX8_INTERFACES_COMPUTEINTERFACE
