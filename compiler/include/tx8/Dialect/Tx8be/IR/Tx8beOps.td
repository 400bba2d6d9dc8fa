//===- Tx8beOps.td - tx8be operations ---------------------*- tablegen -*-===//
//
// Graph ops follow ONNX semantics (NCHW feature maps, OIHW weights, numpy broadcasting, ONNX pads order
// [x1_begin, x2_begin, ..., x1_end, x2_end, ...]) so that the ONNX importer is a one-to-one mapping; the TOSA
// importer inserts Transposes around its NHWC ops. Every compute op has the seed's backend attributes
// (layout_str, dev_info) and implements the four seed interfaces: the
// ShapeInferenceOpInterface declared here, OpLibInterface, ShardingInterface and ComputeInterface as
// external models per op family (OpLib.cpp and Sharding.cpp, attached when the dialect loads; the
// TX8ComputeModels library, attached by registerComputeInterfaceExternalModels). Its shape rule is MLIR's InferTypeOpInterface
// (inferReturnTypes on the op's adaptor; the rules are in ShapeInference.cpp and the base classes here), which
// ShapeInferenceOpInterface::computeResultTypes returns and its verifier checks; an op whose result type is
// one of its parameters (Reshape, Cast, LoadConst) implements computeResultTypes instead.
//
//===----------------------------------------------------------------------===//
#ifndef TX8BE_OPS
#define TX8BE_OPS

include "tx8/Dialect/Tx8be/IR/Tx8beAttrs.td"
include "tx8/Interfaces/OpLibInterface.td"
include "tx8/Interfaces/ShapeInferenceOpInterface.td"
include "tx8/Interfaces/ShardingInterface.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

//===----------------------------------------------------------------------===//
// Types (seed)
//===----------------------------------------------------------------------===//

def AnyTensorOrNone : AnyTypeOf<[AnyRankedTensor, NoneType]>;
def Tx8be_Tuple : NestedTupleOf<[AnyRankedTensor]>;
def AnyTensorOrTuple : AnyTypeOf<[AnyRankedTensor, Tx8be_Tuple]>;
def Tx8be_Pred : TypeAlias<I1, "pred (AKA boolean or 1-bit integer)">;
def Tx8be_PredTensor : TensorOf<[Tx8be_Pred]>;
def Tx8be_SInt : SignlessIntOfWidths<[4, 8, 16, 32, 64]>;
def Tx8be_UInt : UnsignedIntOfWidths<[4, 8, 16, 32, 64]>;
def Tx8be_Int : AnyTypeOf<[Tx8be_SInt, Tx8be_UInt]>;
// (The seed's Tx8be_Token needs a token type, which builtin MLIR does not have; added when an op needs it.)

// What the compute engines take: fp32 / fp16 / bf16 (tf32 is an fp32 container with an NE mode).
def Tx8be_FloatTensor : RankedTensorOf<[F32, F16, BF16]>;
def Tx8be_IndexTensor : RankedTensorOf<[I32, I64]>;
// What elementwise arithmetic and comparisons take: the floats and the signed integers (the device computes int8
// and int32; int64 values are narrowed to int32 for it, see tx8be-narrow-int64).
def Tx8be_NumericTensor : RankedTensorOf<[F32, F16, BF16, I8, I32, I64]>;
def Tx8be_BoolTensor : RankedTensorOf<[I1]>;
def Tx8be_Tensor : RankedTensorOf<[F32, F16, BF16, I1, I8, I16, I32, I64, UI8]>;
// Quantized values (ONNX QuantizeLinear's outputs) and what DequantizeLinear reads (int32 too: a bias).
def Tx8be_QuantTensor : RankedTensorOf<[I8, UI8]>;
def Tx8be_DequantInputTensor : RankedTensorOf<[I8, UI8, I32]>;
def Tx8be_F32Tensor : RankedTensorOf<[F32]>;
// What the NE reads (MatMul, Conv) and writes: the floats, and int8 with an int32 result (exact, wrapping).
def Tx8be_NeInTensor : RankedTensorOf<[F32, F16, BF16, I8]>;
def Tx8be_NeOutTensor : RankedTensorOf<[F32, F16, BF16, I32]>;

//===----------------------------------------------------------------------===//
// Base classes
//===----------------------------------------------------------------------===//

// Backend attributes every compute op carries (seed: BatchNorm_InferenceOp's arguments).
defvar Tx8be_BackendAttrs = (ins
  DefaultValuedOptionalAttr<StrAttr, "\"Unknown\"">:$layout_str,
  // The following are backend parameters (the seed's chip_parallel / tile_parallel are not here: a Group's
  // tx8be.Steps say which tile runs which part)
  OptionalAttr<Tx8be_DevAttr>:$dev_info
);

// What InferTypeOpInterface's verifier accepts: what ShapeInferenceOpInterface's does (a dynamic extent agrees
// with any; tx8be::detail::compatibleResultTypes).
defvar Tx8be_CompatibleResultTypes = [{
  static bool isCompatibleReturnTypes(::mlir::TypeRange l, ::mlir::TypeRange r) {
    return ::tx8be::detail::compatibleResultTypes(l, r);
  }
}];

// InferTypeOpInterface on the op's adaptor: the op defines its shape rule as
//   static LogicalResult inferReturnTypes(MLIRContext *, std::optional<Location>, Adaptor, SmallVectorImpl<Type> &)
def Tx8be_InferTypeOpAdaptor : InferTypeOpAdaptorBase<Tx8be_CompatibleResultTypes>;

// The seed interface declared in ODS, with its generic implementations (tx8be::detail), and the shape
// rule. An op that needs its own bodies passes DeclareOpInterfaceMethods<...> lists instead (see
// BatchNorm_Inference). OpLibInterface, ShardingInterface and ComputeInterface are not listed: they are
// external models per op family (see the file comment; BatchNorm_Inference declares its own OpLibInterface
// and ShardingInterface methods); the dialect promises ComputeInterface for every op that has
// ShapeInferenceOpInterface.
defvar Tx8be_DefaultInterfaces = [ShapeInferenceOpInterface, Tx8be_InferTypeOpAdaptor];
// Ops with SameOperandsAndResultType: ODS generates their inferReturnTypes (the operand's type); they take
// Tx8be_CompatibleResultTypes as their extraClassDeclaration.
defvar Tx8be_SameTypeInterfaces = [ShapeInferenceOpInterface, InferTypeOpInterface];
// Ops whose result type is one of their parameters: no InferTypeOpInterface, their own computeResultTypes.
defvar Tx8be_ResultTypeParamInterfaces = [
  DeclareOpInterfaceMethods<ShapeInferenceOpInterface, ["computeResultTypes"]>];

class Tx8be_ComputeOp<string mnemonic, list<Trait> traits = [],
                      list<Trait> interfaces = Tx8be_DefaultInterfaces>
    : Tx8be_Op<mnemonic, !listconcat(traits, interfaces)> {
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

// y = f(x) element by element (C++: OpTrait::tx8be::UnaryElementwise, Tx8be.h).
def Tx8be_UnaryElementwise : NativeOpTrait<"UnaryElementwise"> { let cppNamespace = "::mlir::OpTrait::tx8be"; }

// y = f(x), same shape.
class Tx8be_UnaryOp<string mnemonic, list<Trait> traits = [], Type tensorType = Tx8be_FloatTensor>
    : Tx8be_ComputeOp<mnemonic, !listconcat([Pure, Tx8be_UnaryElementwise, SameOperandsAndResultElementType],
                                            traits)> {
  let arguments = !con((ins tensorType:$input), Tx8be_BackendAttrs);
  let results = (outs tensorType:$output);
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(::mlir::MLIRContext *, std::optional<::mlir::Location>,
                                                      Adaptor adaptor,
                                                      ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::tx8be::detail::sameTypeAsOperand(adaptor.getInput(), types);
    }
  }];
}

// z = f(x, y) with numpy (multidirectional) broadcasting.
class Tx8be_BinaryOp<string mnemonic, list<Trait> traits = [], Type tensorType = Tx8be_NumericTensor,
                     dag extraArgs = (ins)>
    : Tx8be_ComputeOp<mnemonic, !listconcat([Pure, SameOperandsAndResultElementType], traits)> {
  let arguments = !con((ins tensorType:$lhs, tensorType:$rhs), extraArgs, Tx8be_BackendAttrs);
  let results = (outs tensorType:$output);
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(::mlir::MLIRContext *context,
                                                      std::optional<::mlir::Location> location, Adaptor adaptor,
                                                      ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      ::tx8be::detail::ShapeRuleDiag rule{context, location, getOperationName()};
      return ::tx8be::detail::broadcastOperandTypes(rule, adaptor.getLhs(), adaptor.getRhs(), types);
    }
  }];
}

// z = (x cmp y) with numpy broadcasting: a bool tensor.
class Tx8be_CompareOp<string mnemonic, list<Trait> traits = []>
    : Tx8be_ComputeOp<mnemonic, !listconcat([Pure, SameOperandsElementType], traits)> {
  let arguments = !con((ins Tx8be_NumericTensor:$lhs, Tx8be_NumericTensor:$rhs), Tx8be_BackendAttrs);
  let results = (outs Tx8be_BoolTensor:$output);
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(::mlir::MLIRContext *context,
                                                      std::optional<::mlir::Location> location, Adaptor adaptor,
                                                      ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      ::tx8be::detail::ShapeRuleDiag rule{context, location, getOperationName()};
      return ::tx8be::detail::compareResultType(rule, adaptor.getLhs(), adaptor.getRhs(), types);
    }
  }];
}

// Reduction over `axes` (empty: all axes); keepdims keeps the reduced axes as extent 1.
class Tx8be_ReduceOp<string mnemonic>
    : Tx8be_ComputeOp<mnemonic, [Pure, SameOperandsAndResultElementType]> {
  let arguments = !con((ins Tx8be_FloatTensor:$input,
                            DefaultValuedOptionalAttr<DenseI64ArrayAttr, "{}">:$axes,
                            DefaultValuedAttr<BoolAttr, "true">:$keepdims), Tx8be_BackendAttrs);
  let results = (outs Tx8be_FloatTensor:$output);
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(::mlir::MLIRContext *context,
                                                      std::optional<::mlir::Location> location, Adaptor adaptor,
                                                      ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      ::tx8be::detail::ShapeRuleDiag rule{context, location, getOperationName()};
      return ::tx8be::detail::reduceResultType(rule, adaptor.getInput(), adaptor.getAxes(), adaptor.getKeepdims(),
                                               types);
    }
  }];
}

// Softmax-like: same shape, normalised along `axis`.
class Tx8be_AxisNormOp<string mnemonic>
    : Tx8be_ComputeOp<mnemonic, [Pure, SameOperandsAndResultElementType]> {
  let arguments = !con((ins Tx8be_FloatTensor:$input, DefaultValuedAttr<I64Attr, "-1">:$axis),
                       Tx8be_BackendAttrs);
  let results = (outs Tx8be_FloatTensor:$output);
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(::mlir::MLIRContext *context,
                                                      std::optional<::mlir::Location> location, Adaptor adaptor,
                                                      ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      ::tx8be::detail::ShapeRuleDiag rule{context, location, getOperationName()};
      int64_t rank = ::llvm::cast<::mlir::RankedTensorType>(adaptor.getInput().getType()).getRank();
      if (::mlir::failed(::tx8be::detail::checkAxis(rule, "axis", adaptor.getAxis(), rank)))
        return ::mlir::failure();
      return ::tx8be::detail::sameTypeAsOperand(adaptor.getInput(), types);
    }
  }];
}

// Sliding-window pooling over the spatial dims of an N x C x spatial... input.
class Tx8be_PoolOp<string mnemonic, dag extraArgs = (ins)>
    : Tx8be_ComputeOp<mnemonic, [Pure, SameOperandsAndResultElementType]> {
  let arguments = !con((ins Tx8be_FloatTensor:$input,
                            DenseI64ArrayAttr:$kernel_shape,
                            DefaultValuedOptionalAttr<DenseI64ArrayAttr, "{}">:$strides,
                            DefaultValuedOptionalAttr<DenseI64ArrayAttr, "{}">:$pads,
                            DefaultValuedOptionalAttr<DenseI64ArrayAttr, "{}">:$dilations,
                            DefaultValuedAttr<BoolAttr, "false">:$ceil_mode),
                       extraArgs, Tx8be_BackendAttrs);
  let results = (outs Tx8be_FloatTensor:$output);
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(::mlir::MLIRContext *context,
                                                      std::optional<::mlir::Location> location, Adaptor adaptor,
                                                      ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      ::tx8be::detail::ShapeRuleDiag rule{context, location, getOperationName()};
      return ::tx8be::detail::poolResultType(rule, adaptor.getInput(), adaptor.getKernelShape(),
                                             adaptor.getStrides(), adaptor.getPads(), adaptor.getDilations(),
                                             adaptor.getCeilMode(), types);
    }
  }];
}

// Global pooling: N x C x spatial... -> N x C x 1 x ... x 1.
class Tx8be_GlobalPoolOp<string mnemonic>
    : Tx8be_ComputeOp<mnemonic, [Pure, SameOperandsAndResultElementType]> {
  let arguments = !con((ins Tx8be_FloatTensor:$input), Tx8be_BackendAttrs);
  let results = (outs Tx8be_FloatTensor:$output);
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(::mlir::MLIRContext *context,
                                                      std::optional<::mlir::Location> location, Adaptor adaptor,
                                                      ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      ::tx8be::detail::ShapeRuleDiag rule{context, location, getOperationName()};
      return ::tx8be::detail::globalPoolResultType(rule, adaptor.getInput(), types);
    }
  }];
}

//===----------------------------------------------------------------------===//
// Constants and data movement
//===----------------------------------------------------------------------===//

def Tx8be_ConstantOp : Tx8be_Op<"Constant", [ConstantLike, Pure, AllTypesMatch<["value", "output"]>]> {
  let summary = "constant tensor";
  let description = [{
    A constant held in the IR, as a DenseElementsAttr or a DenseResourceElementsAttr (large weights).
    MoveConstantPass turns constants into LoadConst ops whose data lives in the constant container.
  }];
  let arguments = (ins ElementsAttr:$value,
                       DefaultValuedOptionalAttr<StrAttr, "\"Unknown\"">:$layout_str);
  let results = (outs AnyRankedTensor:$output);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Tx8be_LoadConstOp : Tx8be_ComputeOp<"LoadConst", [Pure], Tx8be_ResultTypeParamInterfaces> {
  let summary = "load a constant from the constant container";
  let description = [{
    Reads constant `const_map_id` of the constant container (DDR) into the tile. `bypasscodegen` (a
    discardable attribute) marks loads that the users read in place.

    `column_block` = w (tx8be-block-weights): the entry's DDR image is cut into blocks of w columns of the last
    dim, each block whole and contiguous ([N / w][d0 .. d(r-2)][w] for a logical [d0 .. d(r-2), N]), so a
    LoadBox of one block reads one run instead of one short row per element of the other dims. Only LoadBoxes
    read such a constant, each box a whole block.
  }];
  let arguments = !con((ins UI32Attr:$const_map_id, OptionalAttr<Tx8be_MemScopeModeAttr>:$mem_scope,
                            OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$column_block),
                       Tx8be_BackendAttrs);
  let results = (outs Tx8be_Tensor:$output);
  let assemblyFormat = "attr-dict `:` type($output)";
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::computeResultTypes(::llvm::SmallVectorImpl<::mlir::Type> &types) {
      types.push_back(getOutput().getType()); // nothing to infer from: the container entry has this type
      return ::mlir::success();
    }
  }];
}

def Tx8be_LoadVarOp : Tx8be_ComputeOp<"LoadVar", [SameOperandsAndResultType], Tx8be_SameTypeInterfaces> {
  let summary = "load a tensor from DDR into SPM";
  let description = [{ Inserted at a Group's inputs by GroupLdStPass. Has memory effects: never removed. }];
  let arguments = !con((ins Tx8be_Tensor:$input, OptionalAttr<Tx8be_MemScopeModeAttr>:$mem_scope),
                       Tx8be_BackendAttrs);
  let results = (outs Tx8be_Tensor:$output);
  let extraClassDeclaration = Tx8be_CompatibleResultTypes;
}

def Tx8be_StoreVarOp : Tx8be_ComputeOp<"StoreVar", [SameOperandsAndResultType], Tx8be_SameTypeInterfaces> {
  let summary = "store a tensor from SPM to DDR";
  let description = [{ Inserted before a Group's return by GroupLdStPass. Has memory effects. }];
  let arguments = !con((ins Tx8be_Tensor:$input, OptionalAttr<Tx8be_MemScopeModeAttr>:$mem_scope),
                       Tx8be_BackendAttrs);
  let results = (outs Tx8be_Tensor:$output);
  let extraClassDeclaration = Tx8be_CompatibleResultTypes;
}

def Tx8be_ChannelNormOp : Tx8be_ComputeOp<"ChannelNorm", [Pure, SameOperandsAndResultType],
                                           Tx8be_SameTypeInterfaces> {
  let summary = "convert a value's device image (dim order and alignment)";
  let description = [{
    Inserted by layoutAlignToNpuPass where a producer's device image differs from what a consumer reads
    (DeviceLayout.h): the output's dim order is its layout_str, the input's that of the input's producer
    (e.g. NCHW -> NHWC, OIHW -> HWIO); the alignment goes from the input's to the output's
    dev_info.mem_layout (compact <-> Cx). The logical type and the values do not change.
  }];
  let arguments = !con((ins Tx8be_Tensor:$input), Tx8be_BackendAttrs);
  let results = (outs Tx8be_Tensor:$output);
  let extraClassDeclaration = Tx8be_CompatibleResultTypes;
}

//===----------------------------------------------------------------------===//
// Group
//===----------------------------------------------------------------------===//

def Tx8be_GroupOp : Tx8be_Op<"Group", [IsolatedFromAbove]> {
  let summary = "a group of ops sharded, split and allocated in SPM together";
  let description = [{
    The unit of sharding search and SPM allocation (seed §Sharding Search). The body is one block whose
    arguments stand for the operands (same number and types) and which ends in tx8be.Return of the results.
    Constants the body needs live inside it (LoadConst), so the region is isolated from above. Once planned
    (tx8be-group-cost), the body is its schedule (Tx8beScheduleOps.td): LoadConsts, a tx8be.Steps, maybe
    a tx8be.Barrier. The seed's other Group attributes (pipeline_parallel, sp_stage_num, stream_*,
    need_barrier, group_id, template_id) are not here: the schedule ops say what they said, or nothing reads
    them yet.
  }];
  let arguments = (ins
    Variadic<AnyTensorOrNone>:$operands,
    OptionalAttr<Tx8be_RegionAttr>:$dev_region,               // tiles the group is mapped to
    OptionalAttr<UI32Attr>:$spm_alloc_size,                   // SPM bytes the group occupies
    OptionalAttr<I32Attr>:$group_tag                          // 0: loads and stores, 2: a view in DDR
  );
  let results = (outs Variadic<AnyTensorOrNone>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "`(` $operands `)` attr-dict `:` functional-type($operands, $results) $body";
  let hasRegionVerifier = 1;
}

def Tx8be_ReturnOp : Tx8be_Op<"Return", [Pure, Terminator, HasParent<"GroupOp">]> {
  let summary = "the results of a Group";
  let arguments = (ins Variadic<AnyTensorOrNone>:$operands);
  let assemblyFormat = "($operands^ `:` type($operands))? attr-dict";
}

//===----------------------------------------------------------------------===//
// Normalisation
//===----------------------------------------------------------------------===//

def Tx8be_BatchNorm_InferenceOp : Tx8be_ComputeOp<"BatchNorm_Inference", [Pure], [
    DeclareOpInterfaceMethods<ShapeInferenceOpInterface, ["inferShapes", "inferLayout"]>,
    DeclareOpInterfaceMethods<OpLibInterface, ["genOpCode", "getOpClockCycle", "getImmSpSize", "queryOpAttr",
                                               "getOpLibViewShape"]>,
    DeclareOpInterfaceMethods<ShardingInterface, ["tileShardingSplit", "temporalSliceShape", "backWindow"]>,
    Tx8be_InferTypeOpAdaptor]> {
  let summary = "BatchNorm inference";
  let description = [{
    Normalizes the operand tensor across all dimensions except for the c dimension
    and produce a result tensor: y = scale * (x - mean) / sqrt(variance + epsilon) + offset.

    The channel dimension is dim 1 (ONNX, NCHW) for every rank >= 2. layout_str is the device image's dim
    order (DeviceLayout.h), not a description of the shape: the layout passes make it channel-last ("NHWC",
    OpLib's op_batchnorm_inference normalises the innermost dim), which changes where the bytes go, never
    which dim is the channel. scale/offset/mean/variance hold C elements: shape [C], or the input's rank with
    every extent 1 but the channel's (1xCx1x1; the seed's 1x1x1xC in its NHWC view); they are read in
    identity order. epsilon is not in the seed (its OpLib op used 1e-6); ONNX needs it.
  }];
  let arguments = !con((ins
    Tx8be_FloatTensor:$input,
    Tx8be_FloatTensor:$scale,
    Tx8be_FloatTensor:$offset,
    Tx8be_FloatTensor:$mean,
    Tx8be_FloatTensor:$variance,
    DefaultValuedAttr<F32Attr, "1e-5f">:$epsilon), Tx8be_BackendAttrs);
  let results = (outs Tx8be_FloatTensor:$output);
  let extraClassDeclaration = [{
    /// The channel dimension of the input (see the description).
    int64_t getChannelDim();
  }];
}

def Tx8be_LayerNormOp : Tx8be_ComputeOp<"LayerNorm", [Pure, SameOperandsAndResultElementType]> {
  let summary = "layer (or RMS) normalisation over the dims [axis, rank)";
  let description = [{
    y = (x - mean) / sqrt(var + epsilon) * scale + bias, mean/var over dims axis..rank-1. scale (and bias)
    broadcast to input.shape[axis:] (ONNX LayerNormalization). With rms (RMSNorm, LLaMA / T5): no mean,
    y = x / sqrt(mean(x^2) + epsilon) * scale (+ bias). OpLib's op_layernorm runs it when the dims
    axis..rank-1 are innermost in memory, in order, and scale (and bias) hold all of their elements.
  }];
  let arguments = !con((ins Tx8be_FloatTensor:$input, Tx8be_FloatTensor:$scale,
                            Optional<Tx8be_FloatTensor>:$bias,
                            DefaultValuedAttr<I64Attr, "-1">:$axis,
                            DefaultValuedAttr<F32Attr, "1e-5f">:$epsilon,
                            DefaultValuedAttr<BoolAttr, "false">:$rms), Tx8be_BackendAttrs);
  let results = (outs Tx8be_FloatTensor:$output);
}

def Tx8be_SoftmaxOp : Tx8be_AxisNormOp<"Softmax"> { let summary = "softmax along axis"; }
def Tx8be_LogSoftmaxOp : Tx8be_AxisNormOp<"LogSoftmax"> { let summary = "log(softmax) along axis"; }

//===----------------------------------------------------------------------===//
// Matrix and convolution (NE)
//===----------------------------------------------------------------------===//

def Tx8be_GemmOp : Tx8be_ComputeOp<"Gemm", [Pure]> {
  let summary = "general matrix multiply (ONNX Gemm)";
  let description = [{
    Y = alpha * op(A) x op(B) + beta * C, op(X) = X^T if transX. A, B are 2-D; C (optional) broadcasts
    to [M, N]. One element type, except that with ne_in_fmt = "bf16" / "fp16" (tx8be-ne-precision) A and B
    are bf16 / f16 and C and Y f32 (the NE accumulates in fp32); likewise MatMul and Conv.
  }];
  let arguments = !con((ins Tx8be_FloatTensor:$A, Tx8be_FloatTensor:$B, Optional<Tx8be_FloatTensor>:$C,
                            DefaultValuedAttr<F32Attr, "1.0f">:$alpha,
                            DefaultValuedAttr<F32Attr, "1.0f">:$beta,
                            DefaultValuedAttr<BoolAttr, "false">:$transA,
                            DefaultValuedAttr<BoolAttr, "false">:$transB), Tx8be_BackendAttrs);
  let results = (outs Tx8be_FloatTensor:$output);
}

def Tx8be_MatMulOp : Tx8be_ComputeOp<"MatMul", [Pure]> {
  let summary = "batched matrix multiply (numpy matmul, rank >= 2)";
  let description = [{
    [..., M, K] x [..., K, N] -> [..., M, N]; the batch dims broadcast. (ONNX MatMul on 1-D operands is
    imported with Reshapes.) int8 A and B give an int32 result, the exact sums wrapped to 32 bits (the NE's int8
    path; MatMulInteger, ConvInteger).
  }];
  let arguments = !con((ins Tx8be_NeInTensor:$A, Tx8be_NeInTensor:$B), Tx8be_BackendAttrs);
  let results = (outs Tx8be_NeOutTensor:$output);
}

def Tx8be_AttentionOp : Tx8be_ComputeOp<"Attention", [Pure]> {
  let summary = "scaled dot-product attention: softmax(scale * Q K^T + mask) V (op_attention)";
  let description = [{
    Q [..., Sq, D], K [..., Skv, D], V [..., Skv, Dv] -> [..., Sq, Dv]; the batch dims broadcast (right-aligned,
    as MatMul's). mask (optional, additive) broadcasts to [..., Sq, Skv]. causal: query i sees the keys
    j <= i + Skv - Sq (the others count as -inf). tx8be-fuse-attention makes it from the MatMul, Softmax, MatMul
    chains exporters write. Q, K and V share an element type; with ne_in_fmt = "bf16" / "fp16"
    (tx8be-ne-precision) they are bf16 / f16 and the result f32; mask f32, f16 or bf16.
  }];
  let arguments = !con((ins Tx8be_FloatTensor:$Q, Tx8be_FloatTensor:$K, Tx8be_FloatTensor:$V,
                            Optional<Tx8be_FloatTensor>:$mask,
                            DefaultValuedAttr<F32Attr, "1.0f">:$scale,
                            DefaultValuedAttr<BoolAttr, "false">:$causal), Tx8be_BackendAttrs);
  let results = (outs Tx8be_FloatTensor:$output);
}

def Tx8be_ConvOp : Tx8be_ComputeOp<"Conv", [Pure]> {
  let summary = "1-D/2-D/3-D convolution (ONNX Conv: NC[D]HW input, O x C/group x k... weight)";
  let description = [{
    strides/dilations: one per spatial dim (empty: all 1); pads: [begin..., end...] (empty: all 0);
    bias (optional): [O]. int8 input and weight give an int32 result (exact sums wrapped to 32 bits; an int32
    bias), zero padding.
  }];
  let arguments = !con((ins Tx8be_NeInTensor:$input, Tx8be_NeInTensor:$weight,
                            Optional<Tx8be_NeOutTensor>:$bias,
                            DefaultValuedOptionalAttr<DenseI64ArrayAttr, "{}">:$strides,
                            DefaultValuedOptionalAttr<DenseI64ArrayAttr, "{}">:$pads,
                            DefaultValuedOptionalAttr<DenseI64ArrayAttr, "{}">:$dilations,
                            DefaultValuedAttr<I64Attr, "1">:$group), Tx8be_BackendAttrs);
  let results = (outs Tx8be_NeOutTensor:$output);
}

def Tx8be_ConvTransposeOp : Tx8be_ComputeOp<"ConvTranspose", [Pure, SameOperandsAndResultElementType]> {
  let summary = "transposed convolution (ONNX ConvTranspose: weight C x O/group x k...)";
  let description = [{
    out = (in - 1) * stride + (k - 1) * dilation + 1 + output_padding - pad_begin - pad_end per spatial dim.
  }];
  let arguments = !con((ins Tx8be_FloatTensor:$input, Tx8be_FloatTensor:$weight,
                            Optional<Tx8be_FloatTensor>:$bias,
                            DefaultValuedOptionalAttr<DenseI64ArrayAttr, "{}">:$strides,
                            DefaultValuedOptionalAttr<DenseI64ArrayAttr, "{}">:$pads,
                            DefaultValuedOptionalAttr<DenseI64ArrayAttr, "{}">:$dilations,
                            DefaultValuedOptionalAttr<DenseI64ArrayAttr, "{}">:$output_padding,
                            DefaultValuedAttr<I64Attr, "1">:$group), Tx8be_BackendAttrs);
  let results = (outs Tx8be_FloatTensor:$output);
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

def Tx8be_MaxPoolOp : Tx8be_PoolOp<"MaxPool"> { let summary = "max pooling"; }
def Tx8be_AvgPoolOp : Tx8be_PoolOp<"AvgPool", (ins DefaultValuedAttr<BoolAttr, "false">:$count_include_pad)> {
  let summary = "average pooling (count_include_pad: padding counts in the divisor)";
}
def Tx8be_GlobalAvgPoolOp : Tx8be_GlobalPoolOp<"GlobalAvgPool"> { let summary = "mean over the spatial dims"; }
def Tx8be_GlobalMaxPoolOp : Tx8be_GlobalPoolOp<"GlobalMaxPool"> { let summary = "max over the spatial dims"; }

//===----------------------------------------------------------------------===//
// Elementwise binary (numpy broadcasting)
//===----------------------------------------------------------------------===//

def Tx8be_AddOp : Tx8be_BinaryOp<"Add", [Commutative]> { let summary = "lhs + rhs"; }
def Tx8be_SubOp : Tx8be_BinaryOp<"Sub"> { let summary = "lhs - rhs"; }
def Tx8be_MulOp : Tx8be_BinaryOp<"Mul", [Commutative]> { let summary = "lhs * rhs"; }
def Tx8be_DivOp : Tx8be_BinaryOp<"Div"> { let summary = "lhs / rhs"; }
def Tx8be_MaxOp : Tx8be_BinaryOp<"Max", [Commutative]> { let summary = "max(lhs, rhs)"; }
def Tx8be_MinOp : Tx8be_BinaryOp<"Min", [Commutative]> { let summary = "min(lhs, rhs)"; }
def Tx8be_PowOp : Tx8be_BinaryOp<"Pow"> { let summary = "lhs ^ rhs"; }
def Tx8be_ModOp : Tx8be_BinaryOp<"Mod", [], Tx8be_NumericTensor, (ins DefaultValuedAttr<BoolAttr, "false">:$fmod)> {
  let summary = "remainder: the divisor's sign (fmod = false, integers only in ONNX) or the dividend's (fmod)";
}

def Tx8be_EqualOp : Tx8be_CompareOp<"Equal", [Commutative]> { let summary = "lhs == rhs"; }
def Tx8be_LessOp : Tx8be_CompareOp<"Less"> { let summary = "lhs < rhs"; }
def Tx8be_LessOrEqualOp : Tx8be_CompareOp<"LessOrEqual"> { let summary = "lhs <= rhs"; }
def Tx8be_GreaterOp : Tx8be_CompareOp<"Greater"> { let summary = "lhs > rhs"; }
def Tx8be_GreaterOrEqualOp : Tx8be_CompareOp<"GreaterOrEqual"> { let summary = "lhs >= rhs"; }

def Tx8be_AndOp : Tx8be_BinaryOp<"And", [Commutative], Tx8be_BoolTensor> { let summary = "lhs and rhs"; }
def Tx8be_OrOp : Tx8be_BinaryOp<"Or", [Commutative], Tx8be_BoolTensor> { let summary = "lhs or rhs"; }
def Tx8be_XorOp : Tx8be_BinaryOp<"Xor", [Commutative], Tx8be_BoolTensor> { let summary = "lhs xor rhs"; }
def Tx8be_NotOp : Tx8be_UnaryOp<"Not", [], Tx8be_BoolTensor> { let summary = "not x"; }

def Tx8be_WhereOp : Tx8be_ComputeOp<"Where", [Pure]> {
  let summary = "condition ? x : y elementwise; the three broadcast together (numpy)";
  let arguments = !con((ins Tx8be_BoolTensor:$condition, Tx8be_Tensor:$x, Tx8be_Tensor:$y), Tx8be_BackendAttrs);
  let results = (outs Tx8be_Tensor:$output);
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(::mlir::MLIRContext *context,
                                                      std::optional<::mlir::Location> location, Adaptor adaptor,
                                                      ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      ::tx8be::detail::ShapeRuleDiag rule{context, location, getOperationName()};
      return ::tx8be::detail::whereResultType(rule, adaptor.getCondition(), adaptor.getX(), adaptor.getY(), types);
    }
  }];
}

// ONNX QuantizeLinear / DequantizeLinear: scale and zero_point (one shape) broadcast to the input (numpy, the
// result has the input's shape): per tensor, or per axis with the importer's reshape of a 1-D scale.
def Tx8be_QuantizeLinearOp : Tx8be_ComputeOp<"QuantizeLinear", [Pure]> {
  let summary = "saturate(round_half_even(fp32(x / scale)) + zero_point) in the zero point's type (int8 / uint8)";
  let arguments = !con((ins Tx8be_F32Tensor:$input, Tx8be_F32Tensor:$scale, Tx8be_QuantTensor:$zero_point),
                       Tx8be_BackendAttrs);
  let results = (outs Tx8be_QuantTensor:$output);
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(::mlir::MLIRContext *context,
                                                      std::optional<::mlir::Location> location, Adaptor adaptor,
                                                      ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      ::tx8be::detail::ShapeRuleDiag rule{context, location, getOperationName()};
      return ::tx8be::detail::quantizeResultType(rule, adaptor.getInput(), adaptor.getScale(),
                                                 adaptor.getZeroPoint(), false, types);
    }
  }];
}

def Tx8be_DequantizeLinearOp : Tx8be_ComputeOp<"DequantizeLinear", [Pure]> {
  let summary = "fp32((fp32(x) - fp32(zero_point)) * scale); x and zero_point int8, uint8 or int32 alike";
  let arguments = !con((ins Tx8be_DequantInputTensor:$input, Tx8be_F32Tensor:$scale,
                            Tx8be_DequantInputTensor:$zero_point), Tx8be_BackendAttrs);
  let results = (outs Tx8be_F32Tensor:$output);
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(::mlir::MLIRContext *context,
                                                      std::optional<::mlir::Location> location, Adaptor adaptor,
                                                      ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      ::tx8be::detail::ShapeRuleDiag rule{context, location, getOperationName()};
      return ::tx8be::detail::quantizeResultType(rule, adaptor.getInput(), adaptor.getScale(),
                                                 adaptor.getZeroPoint(), true, types);
    }
  }];
}

def Tx8be_PReluOp : Tx8be_ComputeOp<"PRelu", [Pure, SameOperandsAndResultElementType]> {
  let summary = "x < 0 ? slope * x : x; slope broadcasts to the input (unidirectional)";
  let arguments = !con((ins Tx8be_FloatTensor:$input, Tx8be_FloatTensor:$slope), Tx8be_BackendAttrs);
  let results = (outs Tx8be_FloatTensor:$output);
}

//===----------------------------------------------------------------------===//
// Elementwise unary
//===----------------------------------------------------------------------===//

def Tx8be_ReluOp : Tx8be_UnaryOp<"Relu"> { let summary = "max(x, 0)"; }
def Tx8be_LeakyReluOp : Tx8be_UnaryOp<"LeakyRelu"> {
  let summary = "x < 0 ? alpha * x : x";
  let arguments = !con((ins Tx8be_FloatTensor:$input, DefaultValuedAttr<F32Attr, "0.01f">:$alpha),
                       Tx8be_BackendAttrs);
}
def Tx8be_EluOp : Tx8be_UnaryOp<"Elu"> {
  let summary = "x < 0 ? alpha * (exp(x) - 1) : x";
  let arguments = !con((ins Tx8be_FloatTensor:$input, DefaultValuedAttr<F32Attr, "1.0f">:$alpha),
                       Tx8be_BackendAttrs);
}
def Tx8be_SeluOp : Tx8be_UnaryOp<"Selu"> {
  let summary = "gamma * (x <= 0 ? alpha * (exp(x) - 1) : x)";
  let arguments = !con((ins Tx8be_FloatTensor:$input,
                            DefaultValuedAttr<F32Attr, "1.67326319217681884765625f">:$alpha,
                            DefaultValuedAttr<F32Attr, "1.05070102214813232421875f">:$gamma),
                       Tx8be_BackendAttrs);
}
def Tx8be_HardSigmoidOp : Tx8be_UnaryOp<"HardSigmoid"> {
  let summary = "max(0, min(1, alpha * x + beta))";
  let arguments = !con((ins Tx8be_FloatTensor:$input, DefaultValuedAttr<F32Attr, "0.2f">:$alpha,
                            DefaultValuedAttr<F32Attr, "0.5f">:$beta), Tx8be_BackendAttrs);
}
def Tx8be_ClipOp : Tx8be_UnaryOp<"Clip"> {
  let summary = "min(max(x, min), max)";
  let arguments = !con((ins Tx8be_FloatTensor:$input, F32Attr:$min, F32Attr:$max), Tx8be_BackendAttrs);
}
def Tx8be_GeluOp : Tx8be_UnaryOp<"Gelu"> {
  let summary = "x * Phi(x); approximate = \"none\" (erf) or \"tanh\"";
  let arguments = !con((ins Tx8be_FloatTensor:$input,
                            DefaultValuedAttr<StrAttr, "\"none\"">:$approximate), Tx8be_BackendAttrs);
}
def Tx8be_SigmoidOp : Tx8be_UnaryOp<"Sigmoid"> { let summary = "1 / (1 + exp(-x))"; }
def Tx8be_TanhOp : Tx8be_UnaryOp<"Tanh"> { let summary = "tanh(x)"; }
def Tx8be_SoftplusOp : Tx8be_UnaryOp<"Softplus"> { let summary = "log(1 + exp(x))"; }
def Tx8be_SoftsignOp : Tx8be_UnaryOp<"Softsign"> { let summary = "x / (1 + |x|)"; }
def Tx8be_ExpOp : Tx8be_UnaryOp<"Exp"> { let summary = "exp(x)"; }
def Tx8be_LogOp : Tx8be_UnaryOp<"Log"> { let summary = "log(x)"; }
def Tx8be_AbsOp : Tx8be_UnaryOp<"Abs"> { let summary = "|x|"; }
def Tx8be_NegOp : Tx8be_UnaryOp<"Neg"> { let summary = "-x"; }
def Tx8be_SqrtOp : Tx8be_UnaryOp<"Sqrt"> { let summary = "sqrt(x)"; }
def Tx8be_RsqrtOp : Tx8be_UnaryOp<"Rsqrt"> { let summary = "1 / sqrt(x)"; }
def Tx8be_ReciprocalOp : Tx8be_UnaryOp<"Reciprocal"> { let summary = "1 / x"; }
def Tx8be_ErfOp : Tx8be_UnaryOp<"Erf"> { let summary = "erf(x)"; }
def Tx8be_HardSwishOp : Tx8be_UnaryOp<"HardSwish"> { let summary = "x * max(0, min(1, x / 6 + 0.5))"; }
def Tx8be_MishOp : Tx8be_UnaryOp<"Mish"> { let summary = "x * tanh(log(1 + exp(x)))"; }
def Tx8be_CeluOp : Tx8be_UnaryOp<"Celu"> {
  let summary = "max(0, x) + min(0, alpha * (exp(x / alpha) - 1))";
  let arguments = !con((ins Tx8be_FloatTensor:$input, DefaultValuedAttr<F32Attr, "1.0f">:$alpha),
                       Tx8be_BackendAttrs);
}
def Tx8be_ThresholdedReluOp : Tx8be_UnaryOp<"ThresholdedRelu"> {
  let summary = "x > alpha ? x : 0";
  let arguments = !con((ins Tx8be_FloatTensor:$input, DefaultValuedAttr<F32Attr, "1.0f">:$alpha),
                       Tx8be_BackendAttrs);
}
def Tx8be_ShrinkOp : Tx8be_UnaryOp<"Shrink"> {
  let summary = "x < -lambd ? x + bias : x > lambd ? x - bias : 0";
  let arguments = !con((ins Tx8be_FloatTensor:$input, DefaultValuedAttr<F32Attr, "0.0f">:$bias,
                            DefaultValuedAttr<F32Attr, "0.5f">:$lambd), Tx8be_BackendAttrs);
}
def Tx8be_SinOp : Tx8be_UnaryOp<"Sin"> { let summary = "sin(x)"; }
def Tx8be_CosOp : Tx8be_UnaryOp<"Cos"> { let summary = "cos(x)"; }
def Tx8be_TanOp : Tx8be_UnaryOp<"Tan"> { let summary = "tan(x)"; }
def Tx8be_AsinOp : Tx8be_UnaryOp<"Asin"> { let summary = "asin(x)"; }
def Tx8be_AcosOp : Tx8be_UnaryOp<"Acos"> { let summary = "acos(x)"; }
def Tx8be_AtanOp : Tx8be_UnaryOp<"Atan"> { let summary = "atan(x)"; }
def Tx8be_SinhOp : Tx8be_UnaryOp<"Sinh"> { let summary = "sinh(x)"; }
def Tx8be_CoshOp : Tx8be_UnaryOp<"Cosh"> { let summary = "cosh(x)"; }
def Tx8be_AsinhOp : Tx8be_UnaryOp<"Asinh"> { let summary = "asinh(x)"; }
def Tx8be_AcoshOp : Tx8be_UnaryOp<"Acosh"> { let summary = "acosh(x)"; }
def Tx8be_AtanhOp : Tx8be_UnaryOp<"Atanh"> { let summary = "atanh(x)"; }
def Tx8be_FloorOp : Tx8be_UnaryOp<"Floor"> { let summary = "floor(x)"; }
def Tx8be_CeilOp : Tx8be_UnaryOp<"Ceil"> { let summary = "ceil(x)"; }
def Tx8be_RoundOp : Tx8be_UnaryOp<"Round"> { let summary = "x rounded to the nearest integer, ties to even"; }
def Tx8be_SignOp : Tx8be_UnaryOp<"Sign"> { let summary = "-1, 0 or 1 by the sign of x (NaN stays NaN)"; }

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// The index of the max / min along `axis` (the first one, or the last with select_last_index; a NaN counts as
// the extreme, as numpy's), as an int64 tensor; keepdims keeps the axis as extent 1.
class Tx8be_ArgReduceOp<string mnemonic> : Tx8be_ComputeOp<mnemonic, [Pure]> {
  let arguments = !con((ins Tx8be_FloatTensor:$input, DefaultValuedAttr<I64Attr, "0">:$axis,
                            DefaultValuedAttr<BoolAttr, "true">:$keepdims,
                            DefaultValuedAttr<BoolAttr, "false">:$select_last_index), Tx8be_BackendAttrs);
  let results = (outs RankedTensorOf<[I64]>:$output);
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(::mlir::MLIRContext *context,
                                                      std::optional<::mlir::Location> location, Adaptor adaptor,
                                                      ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      ::tx8be::detail::ShapeRuleDiag rule{context, location, getOperationName()};
      if (::mlir::failed(::tx8be::detail::reduceResultType(rule, adaptor.getInput(),
                                                           {static_cast<int64_t>(adaptor.getAxis())},
                                                           adaptor.getKeepdims(), types)))
        return ::mlir::failure();
      types.back() = ::llvm::cast<::mlir::RankedTensorType>(types.back()).clone(::mlir::IntegerType::get(context, 64));
      return ::mlir::success();
    }
  }];
}
def Tx8be_ArgMaxOp : Tx8be_ArgReduceOp<"ArgMax"> { let summary = "index of the max along axis"; }
def Tx8be_ArgMinOp : Tx8be_ArgReduceOp<"ArgMin"> { let summary = "index of the min along axis"; }

def Tx8be_ReduceSumOp : Tx8be_ReduceOp<"ReduceSum"> { let summary = "sum over axes"; }
def Tx8be_ReduceMeanOp : Tx8be_ReduceOp<"ReduceMean"> { let summary = "mean over axes"; }
def Tx8be_ReduceMaxOp : Tx8be_ReduceOp<"ReduceMax"> { let summary = "max over axes"; }
def Tx8be_ReduceMinOp : Tx8be_ReduceOp<"ReduceMin"> { let summary = "min over axes"; }

//===----------------------------------------------------------------------===//
// Shape and data movement
//===----------------------------------------------------------------------===//

def Tx8be_ReshapeOp : Tx8be_ComputeOp<"Reshape", [Pure, SameOperandsAndResultElementType],
    [DeclareOpInterfaceMethods<ShapeInferenceOpInterface, ["computeResultTypes", "inferLayout"]>]> {
  let summary = "same elements, new shape (given by the result type)";
  let arguments = !con((ins Tx8be_Tensor:$input), Tx8be_BackendAttrs);
  let results = (outs Tx8be_Tensor:$output);
}

def Tx8be_TransposeOp : Tx8be_ComputeOp<"Transpose", [Pure, SameOperandsAndResultElementType],
    [DeclareOpInterfaceMethods<ShapeInferenceOpInterface, ["inferLayout"]>, Tx8be_InferTypeOpAdaptor]> {
  let summary = "permute dims: output dim i is input dim perm[i]";
  let arguments = !con((ins Tx8be_Tensor:$input, DenseI64ArrayAttr:$perm), Tx8be_BackendAttrs);
  let results = (outs Tx8be_Tensor:$output);
}

def Tx8be_ConcatOp : Tx8be_ComputeOp<"Concat", [Pure, SameOperandsAndResultElementType]> {
  let summary = "concatenate along axis";
  let arguments = !con((ins Variadic<Tx8be_Tensor>:$inputs, I64Attr:$axis), Tx8be_BackendAttrs);
  let results = (outs Tx8be_Tensor:$output);
}

def Tx8be_SliceOp : Tx8be_ComputeOp<"Slice", [Pure, SameOperandsAndResultElementType]> {
  let summary = "strided slice: output[i] = input[offsets + i * strides], shape = sizes";
  let description = [{
    offsets, sizes, strides have one entry per dim; a stride may be negative (reversal) but not 0; every
    element read must be inside the input. (ONNX Slice's clamped starts/ends are normalised by the importer.)
  }];
  let arguments = !con((ins Tx8be_Tensor:$input, DenseI64ArrayAttr:$offsets, DenseI64ArrayAttr:$sizes,
                            DenseI64ArrayAttr:$strides), Tx8be_BackendAttrs);
  let results = (outs Tx8be_Tensor:$output);
}

def Tx8be_ExpandOp : Tx8be_ComputeOp<"Expand", [Pure, SameOperandsAndResultElementType],
    Tx8be_ResultTypeParamInterfaces> {
  let summary = "broadcast to the result's shape (ONNX Expand with the ranks made equal)";
  let description = [{
    The input and the result have the same rank; each input extent is 1 (repeated along that dim) or the
    result's. The importer reshapes a lower-rank input first, so the op stays a plain copy with stride-0 dims
    (OpLib: op_slice with step 0).
  }];
  let arguments = !con((ins Tx8be_Tensor:$input), Tx8be_BackendAttrs);
  let results = (outs Tx8be_Tensor:$output);
}

def Tx8be_GatherOp : Tx8be_ComputeOp<"Gather", [Pure]> {
  let summary = "gather along axis (ONNX Gather): shape = data[:axis] + indices + data[axis+1:]";
  let arguments = !con((ins Tx8be_Tensor:$data, Tx8be_IndexTensor:$indices,
                            DefaultValuedAttr<I64Attr, "0">:$axis), Tx8be_BackendAttrs);
  let results = (outs Tx8be_Tensor:$output);
}

def Tx8be_PadOp : Tx8be_ComputeOp<"Pad", [Pure, SameOperandsAndResultElementType]> {
  let summary = "pad with a constant, by reflection or by repeating the edge";
  let description = [{
    pads: [x1_begin, x2_begin, ..., x1_end, x2_end, ...], non-negative. reflect needs pads < extent.
  }];
  let arguments = !con((ins Tx8be_FloatTensor:$input, DenseI64ArrayAttr:$pads,
                            DefaultValuedAttr<Tx8be_PadModeAttr, "::tx8be::PadMode::Constant">:$mode,
                            DefaultValuedAttr<F32Attr, "0.0f">:$value), Tx8be_BackendAttrs);
  let results = (outs Tx8be_FloatTensor:$output);
}

def Tx8be_CastOp : Tx8be_ComputeOp<"Cast", [Pure], Tx8be_ResultTypeParamInterfaces> {
  let summary = "convert the element type (to the result's); same shape";
  let arguments = !con((ins Tx8be_Tensor:$input), Tx8be_BackendAttrs);
  let results = (outs Tx8be_Tensor:$output);
}

#endif // TX8BE_OPS
