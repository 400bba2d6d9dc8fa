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

def Tx8be_ParallelMode : I32EnumAttr<"ParallelMode", "how an op is spread over chips or tiles", [
    I32EnumAttrCase<"Single", 0>,  // not parallel
    I32EnumAttrCase<"DP", 1>,      // data parallel
    I32EnumAttrCase<"TP", 2>,      // tensor parallel
    I32EnumAttrCase<"Hybrid", 3>   // data and tensor parallel (is_dp_inner orders them)
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tx8be";
}
def Tx8be_ParallelModeAttr : EnumAttr<Tx8be_Dialect, Tx8be_ParallelMode, "parallel_mode"> {
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

def Tx8be_ParallelAttr : Tx8be_Attr<"Parallel", "parallel_attr"> {
  let summary = "Structure of parallel information.";
  let parameters = (ins
    "ParallelModeAttr":$parallel,
    "bool":$is_dp_inner,          // dp dimension is in the inner, otherwise tp
    "int32_t":$dp_dim_x,          // data parallel dimension at x axis
    "int32_t":$dp_dim_y,          // data parallel dimension at y axis
    "int32_t":$dp_dim_z,          // data parallel dimension at z axis
    "int32_t":$tp_dim_x,          // tensor parallel dimension at x axis
    "int32_t":$tp_dim_y,          // tensor parallel dimension at y axis
    "int32_t":$tp_dim_z,          // tensor parallel dimension at z axis
    "bool":$sharding_is_given,    // true: is given, false: is not
    "::mlir::DenseI32ArrayAttr":$shape_spatial_sharding  // shape split info
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def Tx8be_DevAttr : Tx8be_Attr<"Dev", "dev_attr"> {
  let summary = "Structure of op parameters on device.";
  let parameters = (ins
    "uint64_t":$imm_size,                            // scratch (imm) bytes the op needs
    "LayoutModeAttr":$mem_layout,                    // layout in memory
    "bool":$multi_buf_en,                            // double buffering
    "int32_t":$multi_buf_num,                        // buffers when double buffering
    "::mlir::DenseI64ArrayAttr":$out_shape_buf_idx,  // index of the dynamic shape buffer at run time
    "::mlir::DenseI64ArrayAttr":$temporal_mem_slice, // slice one tile computes per step (local buffer size)
    "int32_t":$source_type,                          // software pipeline stage
    "int64_t":$imm_addr,
    "::mlir::DenseI64ArrayAttr":$mem_addr            // one address per buffer (multi-buffering)
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

#endif // TX8BE_ATTRS
