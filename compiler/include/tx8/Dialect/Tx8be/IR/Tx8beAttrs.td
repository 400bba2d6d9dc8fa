//===- Tx8beAttrs.td - tx8be attributes and enums ---------*- tablegen -*-===//
#ifndef TX8BE_ATTRS
#define TX8BE_ATTRS

include "tx8/Dialect/Tx8be/IR/Tx8beDialect.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/CommonAttrConstraints.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

// The values are runtime/include/tx8/tensor.h's LAYOUT_MODE (checked by static_asserts in Tx8beDialect.cpp).
def Tx8be_LayoutMode : I32EnumAttr<"LayoutMode", "memory layout on the device", [
    I32EnumAttrCase<"Tensor", 0>,   // compact, batch == 1
    I32EnumAttrCase<"NTensor", 1>,  // compact
    I32EnumAttrCase<"Cx", 2>,       // channel-aligned, batch == 1
    I32EnumAttrCase<"NCx", 3>       // channel-aligned
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tx8be";
}
def Tx8be_LayoutModeAttr : EnumAttr<Tx8be_Dialect, Tx8be_LayoutMode, "layout"> {
  let assemblyFormat = "`<` $value `>`";
}

// Where a tensor lives. The seed spells the third case "3DDRAM", which is neither a C++ identifier nor an MLIR
// keyword: the C++ symbol is DRAM3D and the IR prints the seed's name as a string, #tx8be.mem_scope<"3DDRAM">.
def Tx8be_MemScopeMode : I32EnumAttr<"MemScopeMode", "Specify the memory scope", [
    I32EnumAttrCase<"DDR", 0>,
    I32EnumAttrCase<"SPM", 1>,
    I32EnumAttrCase<"DRAM3D", 2, "3DDRAM">
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tx8be";
  let parameterParser = [{[&]() -> ::mlir::FailureOr<::tx8be::MemScopeMode> {
    auto loc = $_parser.getCurrentLocation();
    std::string keyword;
    if (::mlir::failed($_parser.parseKeywordOrString(&keyword)))
      return ::mlir::failure();
    if (auto value = ::tx8be::symbolizeMemScopeMode(keyword))
      return *value;
    return {(::llvm::LogicalResult)($_parser.emitError(loc)
        << "expected a memory scope: DDR, SPM or \"3DDRAM\", got '" << keyword << "'")};
  }()}];
  let parameterPrinter = "$_printer.printKeywordOrString(::tx8be::stringifyMemScopeMode($_self))";
}
def Tx8be_MemScopeModeAttr : EnumAttr<Tx8be_Dialect, Tx8be_MemScopeMode, "mem_scope"> {
  let assemblyFormat = "`<` $value `>`";
}

def Tx8be_PadMode : I32EnumAttr<"PadMode", "how Pad fills the border (ONNX Pad modes)", [
    I32EnumAttrCase<"Constant", 0, "constant">,
    I32EnumAttrCase<"Reflect", 1, "reflect">,
    I32EnumAttrCase<"Edge", 2, "edge">
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tx8be";
}
def Tx8be_PadModeAttr : EnumAttr<Tx8be_Dialect, Tx8be_PadMode, "pad_mode"> {
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Struct attributes (seed)
//===----------------------------------------------------------------------===//

def Tx8be_DevAttr : Tx8be_Attr<"Dev", "dev_attr"> {
  let summary = "Structure of op parameters on device.";
  let description = [{
    The seed's dev_info, with the fields something reads. The temporal slice is tx8be.Steps' `slice`;
    multi-buffering (multi_buf_en/num, source_type) will be Steps that issue the next step's LoadBox before
    the Wait of this one, with mem_addr holding one address per buffer; out_shape_buf_idx (dynamic shapes) has
    no user.
  }];
  let parameters = (ins
    "uint64_t":$imm_size,                            // scratch (imm) bytes the op needs
    "LayoutModeAttr":$mem_layout,                    // layout in memory
    "int64_t":$imm_addr,                             // SPM address of the scratch; -1: none
    "::mlir::DenseI64ArrayAttr":$mem_addr            // SPM address of the result's buffer
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

// The tile region a Group runs on (seed: GroupMappingPass sets dev_region from the module's x/y dims).
def Tx8be_RegionAttr : Tx8be_Attr<"Region", "region_attr"> {
  let summary = "Tiles a group is mapped to.";
  let parameters = (ins
    "int32_t":$x_dim,  // tiles along the mesh x axis
    "int32_t":$y_dim   // tiles along the mesh y axis
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

// One box of a tensor per schedule step (tx8be.LoadBox / tx8be.StoreBox): step k's box is
// start[k*rank .. k*rank+rank) + size[...], in logical dims. pad_low / pad_high hold the part of a conv/pool
// window that lies in the padding, per step likewise, or are empty when no step has any.
def Tx8be_BoxTableAttr : Tx8be_Attr<"BoxTable", "boxes"> {
  let summary = "the box of a tensor each schedule step moves";
  let parameters = (ins
    "int64_t":$rank,
    "::mlir::DenseI64ArrayAttr":$start,
    "::mlir::DenseI64ArrayAttr":$size,
    "::mlir::DenseI64ArrayAttr":$pad_low,
    "::mlir::DenseI64ArrayAttr":$pad_high
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The table of `boxes` (one per step, all of rank `rank`).
    static BoxTableAttr get(::mlir::MLIRContext *ctx, int64_t rank, ::llvm::ArrayRef<::tx8be::TensorBox> boxes);
    /// Steps in the table.
    int64_t getCount() const;
    /// The box of step `step` (pads zero when the table has none).
    ::tx8be::TensorBox getBox(int64_t step) const;
    /// Whether some step's box reaches into padding.
    bool hasPads() const { return !getPadLow().empty(); }
  }];
}

#endif // TX8BE_ATTRS
