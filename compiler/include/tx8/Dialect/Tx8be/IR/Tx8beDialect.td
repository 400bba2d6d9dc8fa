//===- Tx8beDialect.td - The tx8be dialect ----------------*- tablegen -*-===//
//
// The backend IR of the TX8 compiler (seed: "Tx8be dialect"). Graph ops carry ONNX-like semantics on ranked
// tensors; backend attributes (layout_str, chip/tile parallel, dev_info) are filled in by the backend passes.
//
//===----------------------------------------------------------------------===//
#ifndef TX8BE_DIALECT
#define TX8BE_DIALECT

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Tx8be_Dialect : Dialect {
  let name = "tx8be";
  let summary = "A low-level dialect for tx8 backend specification";
  let description = [{
    Operations of the TX8 backend: graph ops (Conv, Gemm, BatchNorm_Inference, elementwise ...), data
    movement (LoadConst, LoadVar, StoreVar, ChannelNorm), Group, the unit of sharding search and SPM
    allocation, and the schedule of a planned Group (Steps, LoadBox, StoreBox, Wait, Barrier).
  }];
  let cppNamespace = "::tx8be";
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  // Module attributes it owns (tx8be.hw_config) are checked where they are parsed.
  let hasOperationAttrVerify = 1;
}

class Tx8be_Op<string mnemonic, list<Trait> traits = []> : Op<Tx8be_Dialect, mnemonic, traits>;

class Tx8be_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tx8be_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // TX8BE_DIALECT
