//===- Passes.td - tx8be transformation passes ------------*- tablegen -*-===//
#ifndef TX8_TRANSFORMS_PASSES
#define TX8_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def Tx8beInferShapes : Pass<"tx8be-infer-shapes", "::mlir::func::FuncOp"> {
  let summary = "Refine result shapes with ShapeInferenceOpInterface";
  let description = [{
    Walks the function in order and lets every op implementing ShapeInferenceOpInterface recompute its
    result types from its operands (dynamic extents become static where the operands determine them). The
    function's result types are then updated to what it returns. Fails on the first op whose operands are
    inconsistent, with that op's diagnostic.
  }];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

def FuseNormsPass : Pass<"tx8be-fuse-norms", "::mlir::func::FuncOp"> {
  let summary = "Recognise exported LayerNorm, RMSNorm and exact-GELU chains as one op";
  let description = [{
    FuseLayerNorm: m = ReduceMean(x) over trailing dims (keepdims), d = x - m, v = ReduceMean(Pow(d, 2) or
    d * d) over the same dims, y = d / Sqrt(v + eps) (or d * Reciprocal(Sqrt), d * (1 / Sqrt), d * Rsqrt),
    then optionally * gamma and + beta (operands in either order; gamma and beta of every normalised element)
    becomes tx8be.LayerNorm {axis, epsilon} (scale of ones without gamma). FuseRmsNorm: the same without the
    mean, on x itself: tx8be.LayerNorm {rms}. FuseGelu: x * (1 + Erf(x / sqrt 2 or x * (1 / sqrt 2))) * 0.5
    in any grouping and operand order becomes tx8be.Gelu (erf). FuseGeluTanh: the same product with
    1 + Tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)) (x^3 as Pow(x, 3) or x * (x * x)) becomes tx8be.Gelu
    {approximate = "tanh"}. Every intermediate value must be read only by the chain and the constants be
    exactly 2, eps >= 0, 1, 0.5, sqrt 2, sqrt(2 / pi), 0.044715, 3 (as fp32); otherwise nothing changes. The
    fused op has the location of the last op it replaces. Runs first in the device pipeline, before
    tx8be-decompose.
  }];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

def DecomposePass : Pass<"tx8be-decompose", "::mlir::func::FuncOp"> {
  let summary = "Write ops OpLib has no kernel for as compositions of ops it has";
  let description = [{
    LogSoftmaxToReductions: (x - max) - log(sum(exp(x - max))) along the axis. SoftmaxOuterAxisToReductions: a
    Softmax along any axis but the last as exp(x - max) / sum(exp(x - max)). PReluToMaxMin: max(x, 0) +
    slope * min(x, 0) (exact). GlobalMaxPoolToReduceMax: ReduceMax over the spatial dims. GemmToMatMul: a Gemm
    op_gemm does not take (transposes, alpha, beta, a C that is not a row vector) as alpha * (A' x B') + beta * C
    with Transposes, a MatMul, Muls and an Add. BatchedMatMulFoldRows: a batched MatMul whose B is one matrix
    (2-D, or batch dims all 1) as one 2-D MatMul, A's batch dims folded into its rows (other batched MatMuls stay
    one op: op_gemm loops over the matrices of a step). UnitDimTransposeToReshape: a Transpose that moves only
    dims of extent 1 as a Reshape (the same bytes in the same order). Each step is rounded to the element type, as in the ONNX
    functions of these ops. Runs first in the device pipeline.
  }];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

def LinearEpiloguePass : Pass<"tx8be-linear-epilogue", "::mlir::func::FuncOp"> {
  let summary = "A linear layer's epilogue next to its MatMul; a packed projection's column Slices as narrower layers";
  let description = [{
    After tx8be-decompose a linear layer on a [B, S, D] activation is a 2-D MatMul between row Reshapes (that keep
    the last dim). SinkEpilogue: an elementwise op (unary, or Add/Sub/Mul/Div/Max/Min with a column-broadcast or
    full-shaped other operand) on a row Reshape of a MatMul's or a sunk epilogue's result runs on the 2-D value
    before the Reshape, so tx8be-group-fuse puts bias, activation and residual in the MatMul's Group.
    SliceColumns: a value read only by Slices of whole rows and a range of columns, computed (through row
    Reshapes and column epilogues with constant operands, each read once) from a MatMul with a constant B, is
    computed once per Slice from the cut weight and bias (which tx8be-fold-constants folds): PyTorch's packed
    QKV projection followed by its chunk into q, k, v becomes three projections, with no copy of the activation.
  }];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

def FuseAttentionPass : Pass<"tx8be-fuse-attention", "::mlir::func::FuncOp"> {
  let summary = "Fuse MatMul(q, k^T), scale, mask, Softmax, MatMul(p, v) into one tx8be.Attention";
  let description = [{
    FuseScaledDotProductAttention: MatMul(Softmax(scores, axis -1), v) where the scores are MatMul(q', k') with
    q' = q or q scaled by a constant scalar (Mul / Div), k' = Transpose(k) of the last two dims (a scale on either
    side folds) or k^T itself, then optionally a Mul / Div by a constant scalar, a Where(cond, scores, fill) with a
    constant cond and fill <= -1e4 (the causal lower triangle becomes the causal flag, another cond a constant
    additive mask), and an Add of a mask. Every intermediate read only by the next; Q, K, V and the result of one
    float type; one head's K and V plus op_attention's scratch within the module's SPM (hw_config). The result is
    tx8be.Attention(q, k, v, mask) {scale, causal} at the final MatMul's location. After tx8be-decompose (the
    batched MatMuls are one op) and before tx8be-ne-precision (which narrows q, k and v).
  }];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

def NarrowInt64Pass : Pass<"tx8be-narrow-int64", "::mlir::func::FuncOp"> {
  let summary = "Compute int64 values in int32 on the device";
  let description = [{
    The chip stores int64 (Fmt_INT64) but only its convert reads or writes it: every op with an int64 operand or
    result, except Cast and the views and copies of bytes (Reshape, Constant), is rewritten as the same op on
    int32 with a Cast of each int64 operand to i32 before it (saturating) and of each int64 result back to i64
    after it (exact). A Cast of a constant folds at compile time. Values outside the int32 range saturate on
    the device, where the reference computes in int64.
  }];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

def NePrecisionPass : Pass<"tx8be-ne-precision", "::mlir::func::FuncOp"> {
  let summary = "Run the NE work of an fp32 model in a reduced input format (tx8-aot --precision)";
  let description = [{
    For every NE op (Conv, Gemm, MatMul: what lowers to op_conv / op_gemm) whose A and B operands (input and
    weight) and result are fp32, the NE reads A and B in `precision` while the bias and the output (the
    accumulator) stay fp32; the op gets `ne_in_fmt` = the format. tf32: the NE rounds fp32-stored inputs to
    tf32 itself (round to nearest even, cmodel/src/ne), so nothing else changes: codegen gives operands 0 and 1
    the format Fmt_TF32. bf16 / fp16: A and B go through a tx8be.Cast to bf16 / f16 (one per value); run
    before tx8be-fold-constants, the Cast of a constant folds at compile time (round to nearest even) into a
    2-byte constant; a Reshape's input is cast instead (the Reshape then reads the cast), so the Cast follows
    the op that computed the value and tx8be-group-fuse can put it in that op's Group. The NE instruction's
    in_fmt is then the reduced format, charged at its MAC rate. fp32
    (the default) changes nothing. In the layout pipeline after tx8be-narrow-int64.
  }];
  let options = [
    Option<"precision", "precision", "std::string", /*default=*/"\"fp32\"",
           "fp32 | tf32 | bf16 | fp16: the format the NE reads its fp32 A/B operands in">
  ];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

def ReducedActivationsPass : Pass<"tx8be-reduced-activations", "::mlir::func::FuncOp"> {
  let summary = "Store the values between ops in bf16 / fp16 (tx8-aot --precision bf16|fp16)";
  let description = [{
    After tx8be-ne-precision. An NE op's fp32 result and the elementwise ops that read only it and constants
    (bias, activation, scale: a linear layer's epilogue) stay fp32; every other elementwise op, LayerNorm,
    Softmax and view or copy (Reshape, Transpose, Concat, Slice, Expand, Pad) whose tensors are fp32 computes in
    `precision` (norm and softmax statistics accumulate in fp32 inside their kernels), reading a Cast of an fp32
    operand; any other reader gets a Cast back to fp32, a Cast to the reduced format reads the value itself.
    Function arguments and results keep their types. Values between groups then take half the DDR bytes.
  }];
  let options = [
    Option<"precision", "precision", "std::string", /*default=*/"\"bf16\"",
           "bf16 | fp16: the format the activations are stored in">
  ];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

//===----------------------------------------------------------------------===//
// Constant management (seed: Const Management)
//===----------------------------------------------------------------------===//

def MoveConstantPass : Pass<"tx8be-move-constant", "::mlir::ModuleOp"> {
  let summary = "Move constants into the ConstContainer; users read them through LoadConst";
  let description = [{
    Seed MoveConstantPass. ConstantToLoadConst registers each tx8be.Constant's data in the module's
    ConstContainer (the `tx8be.const_container` module attribute: one entry per id) and gives every use its
    own tx8be.LoadConst with that `const_map_id`. A constant none of whose users loads it (OpAttr.needLoad
    clear for that operand) gets `bypasscodegen`: the user reads it in place. Afterwards the ids are
    renumbered (updateConstContainer): constants larger than the threshold DDR_BANK_SIZE = ddr_bank_bytes x
    tiles come first, the small ones after, each part in first-use order.
  }];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

//===----------------------------------------------------------------------===//
// Grouping (seed: Sharding Search and SPM Management)
//===----------------------------------------------------------------------===//

def GroupOptimizationPass : Pass<"tx8be-group-optimization", "::mlir::func::FuncOp"> {
  let summary = "One tx8be.Group per compute op (createSingleGroup)";
  let description = [{
    Seed GroupOptimizationPass without a group config: every compute op (not a Group, LoadConst or
    terminator) is moved into a Group of its own. Operands produced by other ops become the Group's operands;
    the LoadConst ops it reads move (or, if shared, are cloned) into the Group, which is isolated from above.
    The op's results become the Group's results.
  }];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

def GroupFusePass : Pass<"tx8be-group-fuse", "::mlir::func::FuncOp"> {
  let summary = "Merge producer->consumer chains of Groups (an op and the elementwise ops after it)";
  let description = [{
    The greedy part of the seed's GroupPatternPass, after tx8be-group-optimization: a Group whose one result
    only the next Group's op reads, when that op is elementwise (OpLib anyDimOrder) at the same shape and
    device layout, is merged into that Group if the chain's smallest slice still fits the SPM and the chain
    has fewer than max-ops ops. The first op
    of a Group's chain is its anchor (the op tx8be-group-cost cuts and shards); the others, its tail, run on
    the anchor's output slice in SPM each step, so no intermediate value of the chain goes to DDR.
  }];
  let options = [
    Option<"enable", "enable", "bool", /*default=*/"true", "merge chains (false: one Group per op)">,
    Option<"maxOps", "max-ops", "int64_t", /*default=*/"16",
           "most ops in one chain (each adds a kernel call per step and buffers to the SPM)">,
  ];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

def GroupLdStPass : Pass<"tx8be-group-ldst", "::mlir::func::FuncOp"> {
  let summary = "LoadVar at each Group input and StoreVar at each output, as OpAttr needLoad/needStore ask";
  let description = [{
    Seed GroupLdStPass. For each Group argument, the users inside the Group whose OpAttr.needLoad bit for
    that operand is set read it through a new tx8be.LoadVar at the start of the body, one per reading op. For each returned
    value whose producer's OpAttr.needStore bit is set, a tx8be.StoreVar is inserted before tx8be.Return
    and returned instead. group_tag becomes 0 (loads or stores: the group takes part in split search) or 2
    (none: it works in DDR).
  }];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

def GroupMappingPass : Pass<"tx8be-group-mapping", "::mlir::ModuleOp"> {
  let summary = "Map every Group onto the module's tile mesh (dev_region)";
  let description = [{
    Seed GroupMappingPass (simpleGroupMapping): every tx8be.Group gets dev_region = <x_dim, y_dim> from the
    module attributes tx8be.tile_dx / tx8be.tile_dy (default 1 x 1: one tile). Fails if the mesh is larger
    than the chip's (hardware config mesh_x x mesh_y).
  }];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

//===----------------------------------------------------------------------===//
// Constant folding and layout (seed: layoutInitPass ... LayoutAlignOptPass, ConstNormPass). Shapes stay ONNX;
// each value's device image is (layout_str order, dev_info.mem_layout): see Dialect/Tx8be/IR/DeviceLayout.h.
//===----------------------------------------------------------------------===//

def FoldBatchNormPass : Pass<"tx8be-fold-batchnorm", "::mlir::func::FuncOp"> {
  let summary = "Fold an inference BatchNorm into the Conv before it";
  let description = [{
    FoldBatchNormIntoConv: BatchNorm_Inference(Conv(x, W, b)) whose weights, bias and statistics are fp32
    tx8be.Constants, the Conv read only by the BatchNorm, becomes Conv(x, W * s, (b - mean) * s + offset),
    s = scale / sqrt(variance + epsilon), computed in double and rounded once; the BatchNorm's pass over the
    feature map goes. Runs before tx8be-ne-precision, so a bf16 plan rounds the folded weights.
  }];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

def FoldConstantsPass : Pass<"tx8be-fold-constants", "::mlir::func::FuncOp"> {
  let summary = "Evaluate ops whose operands are all constants; pre-transpose Gemm's constant B";
  let description = [{
    FoldComputeOp: a tx8be compute op (not ChannelNorm / LoadVar / StoreVar, whose point is the device image)
    whose operands are all tx8be.Constant is run through its ComputeInterface (the reference kernels) and
    replaced by a tx8be.Constant of the result, at the op's location. GemmTransBToConstant: op_gemm has no
    transpose, so a Gemm with transB = true whose B is a Constant gets B transposed at compile time and
    transB = false.
  }];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

def LayoutInitPass : Pass<"tx8be-layout-init", "::mlir::func::FuncOp"> {
  let summary = "Seed layoutInitPass: the dim order each compute op's kernel needs";
  let description = [{
    Sets layout_str on every compute op (not Constant, LoadConst, LoadVar, StoreVar, ChannelNorm, Group):
    results of rank <= 2 (or > 5) "Tensor"; feature maps of rank 3..5 channel-last ("NHWC", "NWC", "NDHWC")
    for Conv, MaxPool, AvgPool, GlobalAvgPool, GlobalMaxPool and BatchNorm_Inference (OpLib reads them
    [N][H][W][C]); "Unknown" for the layout-agnostic elementwise ops (isLayoutAgnostic, left to
    tx8be-layout-transmit); the identity ("NCHW", ...) for everything else (Gemm, MatMul, Softmax, Reshape,
    Transpose, Concat, Slice, Pad, reductions, broadcasting binaries, ConvTranspose, ...).
  }];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

def LayoutTransmitPass : Pass<"tx8be-layout-transmit", "::mlir::func::FuncOp"> {
  let summary = "Seed layoutTransmitPass: give the Unknown elementwise ops a neighbour's order";
  let description = [{
    An op whose layout_str is "Unknown" takes, forward, the order of the first operand whose producer's
    order is known (a function argument or a Constant is not); failing that, backward, the order its first
    user (in program order) with a known layout reads it in (requiredOperandOrder). Forward propagation is
    run to a fixpoint before each backward step. Whatever is still unknown gets the identity order.
  }];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

def LayoutAlignToNpuPass : Pass<"tx8be-layout-align-to-npu", "::mlir::func::FuncOp"> {
  let summary = "Seed layoutAlignToNpuPass: choose the graph inputs' images, insert ChannelNorms, set mem_layout";
  let description = [{
    (a) Each function argument takes the order its first user reads it in (arg attributes tx8be.layout_str
    and tx8be.mem_layout), so the host packs inputs straight into the device image. (b) Every operand whose
    value's order (getDeviceLayout) differs from requiredOperandOrder gets a tx8be.ChannelNorm with
    layout_str = the required order (one per value and order, right after the value's definition), unless
    the two orders put the bytes at the same offsets (sameMemoryOrder). (c) Every compute op gets
    dev_info.mem_layout = its compact default (Tensor when dim 0 is 1, else NTensor): nothing is Cx/NCx yet.
    Finally the function results get result attributes with the returned values' layouts.
  }];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

def LayoutAlignOptPass : Pass<"tx8be-layout-align-opt", "::mlir::func::FuncOp"> {
  let summary = "Seed LayoutAlignOptPass: remove the ChannelNorms that cost nothing to avoid";
  let description = [{
    ConstChannelNormErase: a ChannelNorm of a tx8be.Constant goes; the Constant takes its layout_str (codegen
    writes the constant in that order). If another user of the Constant reads it in another order, the
    Constant is cloned first. RedundantChannelNormErase: a ChannelNorm whose input already has its image goes;
    a ChannelNorm of a ChannelNorm reads the first one's input.
  }];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

def ConstNormPass : Pass<"tx8be-const-norm", "::mlir::ModuleOp"> {
  let summary = "Seed ConstNormPass: ChannelNorms of LoadConsts go; one layout per container entry";
  let description = [{
    Runs after tx8be-move-constant. constChannelNormErase: a ChannelNorm whose input is a LoadConst goes and
    the LoadConst takes its layout_str (and mem_layout); a LoadConst with other users is cloned first.
    processMultiUse: LoadConsts reading the same const_map_id with different device images (order or
    mem_layout) get their own duplicate container entry per image, so that every entry is written in one
    layout; the ids are then renumbered as tx8be-move-constant orders them (large entries first).
  }];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

//===----------------------------------------------------------------------===//
// Sharding, temporal split, pipelining and memory (seed: Sharding Search and SPM Management, opt_ddr,
// opt_barrier)
//===----------------------------------------------------------------------===//

def GroupCostPass : Pass<"tx8be-group-cost", "::mlir::func::FuncOp"> {
  let summary = "Sharding across tiles and temporal split of each Group, chosen by a cost model";
  let description = [{
    Seed GroupCostPass / DataSplitNewPass (ShardingLevel::init, getShardings, getFactor, TimeStep, SPMAlloc,
    Estimate). For every Group that loads or stores (group_tag 0) on the tiles of its dev_region:
    * the sharding space: every way to cut the compute op's output dims that a slice may cut (splittableDims)
      into parts whose product is the tile count, plus no sharding, ordered by getFactor (the tiles a sharding
      really uses: a dim cut into more parts than it has elements uses fewer); `opt-search` bounds it: 0 takes
      the first sharding of the best factor level and the first split that fits, 1 the two best levels and no
      sharding, 2 every sharding. Reduction dims are never sharded (SHARDING_MODE 0: no cross-tile sum);
    * per sharding, the split (temporal) search on one tile's shard: for each order of the cuttable dims, the
      longest slice whose working set fits in SPM (every operand's box by backWindow, the output slice, the
      op's scratch; with double buffering, multi_buf 2, twice each per-step buffer); the reduction in the
      fewest parts only when no output slice fits;
    * the estimate of each candidate (GroupCost.cpp: the cmodel's cycle formulas of hw_config: DMA latency
      and bytes in bursts, NE/CT compute per step, loads and stores overlapping the compute when double
      buffered, DDR bandwidth shared by the tiles that stream at once, a barrier) and keeps the cheapest.
    With `transposed-loads`, a candidate whose every box of an operand that a Group doing only a Transpose
    produces (read by nothing else, planned already) is the same bytes in that Transpose's input is compared
    by its estimate less that Group's (tx8be-transposed-loads will drop it): an attention planned one head per
    tile rather than several heads of fewer queries. Groups whose compute op, types and layouts are equal (the
    group key, with those credits) share one search. The plan becomes
    the Group's schedule (Tx8beScheduleOps.td): the LoadConsts stay, a tx8be.Steps with each tile's steps
    takes the compute op, each LoadVar becomes a LoadBox and each StoreVar a StoreBox with one box per step,
    each followed by a Wait. Groups with a Steps already are left alone. A group whose smallest slice does not
    fit is an error that gives the sizes.
  }];
  let options = [
    Option<"optSearch", "opt-search", "int", /*default=*/"1",
           "How much of the sharding space to search: 0, 1 or 2">,
    Option<"transposedLoads", "transposed-loads", "bool", /*default=*/"false",
           "tx8be-transposed-loads runs next: a plan whose loads of a lone Transpose Group's result are the same "
           "bytes in its input is credited with that Group's estimate">,
    Option<"blockWeights", "block-weights", "bool", /*default=*/"false",
           "tx8be-block-weights runs later: a constant's box of whole column blocks is priced as one DDR run">,
    Option<"prefetchWeights", "prefetch-weights", "bool", /*default=*/"false",
           "tx8be-prefetch-weights runs later: a plan is credited with the loads of its constant boxes it can copy "
           "during the group before, up to that group's cycles with DDR not busy">
  ];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

def SwPipelinePass : Pass<"tx8be-sw-pipeline", "::mlir::func::FuncOp"> {
  let summary = "Overlap each step's copies with the compute of its neighbours (sp_stage_num)";
  let description = [{
    Seed TS_SwPipelinePass, after tx8be-group-cost. A Steps whose plan has two buffers per value (multi_buf 2)
    gets sp_stage_num 3: the loads of step i + 1 are issued before the compute of step i and the stores of
    step i complete while step i + 1 runs; one with one buffer gets 2 (only the stores overlap). In both, the
    Wait after each StoreBox goes: the store is waited for before its buffer is written again (codegen). With
    `enable=false` every Steps keeps sp_stage_num 1 (each copy completes before the step goes on) and one buffer.
  }];
  let options = [
    Option<"enable", "enable", "bool", /*default=*/"true", "Pipeline the steps">
  ];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

def SpmAllocPass : Pass<"tx8be-spm-alloc", "::mlir::func::FuncOp"> {
  let summary = "SPM addresses for every buffer of a Group (lifetimes, interval merge, allocation)";
  let description = [{
    Reads each planned Group's schedule: every LoadConst, LoadBox and compute result and the compute op's
    scratch is a buffer, sized by the largest box it holds (a LoadBox's table, the compute op's StoreBox's;
    the scratch from getImmSpSize of the Steps' slice), live from its definition to its last use with the
    Steps region counted once; a value loaded before the Steps and read inside lives to the Steps' end; with
    multi_buf 2 each value a step loads or computes has two buffers, both live through the Steps
    (dev_info.mem_addr lists both). Buffers whose lifetimes overlap get disjoint SPM ranges (BufferAllocator: largest first, lowest free aligned
    offset). Sets dev_info.mem_addr on the defining ops, dev_info.imm_size / imm_addr on the compute op and the
    Group's spm_alloc_size. A Group needing more than the SPM (the module's tx8be.hw_config) is an error listing
    its buffers; one without a schedule is an error too.
  }];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

def TransposedLoadsPass : Pass<"tx8be-transposed-loads", "::mlir::func::FuncOp"> {
  let summary = "Read a Transpose's input through the loads after it, or write its result by the store before it";
  let description = [{
    After tx8be-group-cost (issue 34, item 1). A Group that only transposes (its Steps: one LoadBox of its
    input, the Transpose, one StoreBox) moves its whole tensor through DDR twice; an attention's head split
    ([S, H, D] -> [H, S, D]) and merge are such Groups. When every reader of its result is a Group that loads
    it (LoadBoxes per step, once or multicast; no pads) and every box it loads holds the same
    bytes in the input's order (the dims longer than 1 keep their order through the perm: a head's [1, S, D]
    is the input's [S, 1, D]), those LoadBoxes read the input instead, with `perm` (Tx8beScheduleOps.td), and
    the Transpose Group goes. Otherwise, when the Transpose Group is the only reader of the Group before it and
    every box that Group stores is the same bytes in the transposed tensor (an attention's heads merged: a
    head's [1, S, D] is the merged [S, 1, D]), that Group's StoreBox writes the transposed tensor (`perm`) and
    the Transpose Group goes. Both tensors must be compact and row-major in DDR, of one element type.
  }];
  let options = [Option<"enable", "enable", "bool", "true", "fold the Transposes (false: leave every Group as is)">];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

def PrefetchWeightsPass : Pass<"tx8be-prefetch-weights", "::mlir::func::FuncOp"> {
  let summary = "Copy a Group's constant boxes into SPM during the Group before it";
  let description = [{
    After tx8be-spm-alloc. A Group that starts by loading a constant box it then reads at every step (a linear
    layer's weight and bias cut by output columns, a conv's filters by output channels) waits for DDR while the
    Group before it multicasts, computes and stores with DDR partly idle. Each such LoadBox (a constant, not
    once or multicast, each tile's box the same at all its steps) becomes `prefetched`: its buffer moves to the
    top of the SPM, above everything the previous Group that runs something (the host; views run nothing) and
    the Group itself allocate, and below the host's own prefetched buffers; codegen prints the copy (each
    tile's DTE, its own box, from DDR) in the host after its shared loads, the host's own steps run beside it
    (its closing barrier waits for it), and the Group waits for it before its steps and before it issues copies
    of its own. Boxes that do not fit stay loaded by their Group. Both Groups' spm_alloc_size grow to cover the
    buffers. Nothing moves when the host runs on another number of tiles than the Group, or in lockstep (a
    LoadBox multicast per step: its per-step barriers would wait for the copies).
  }];
  let options = [Option<"enable", "enable", "bool", "true", "move the boxes (false: leave every Group as is)">];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

def BlockWeightsPass : Pass<"tx8be-block-weights", "::mlir::ModuleOp"> {
  let summary = "Store a constant cut into column blocks block by block, so each box is one DDR run";
  let description = [{
    After the plans are final (tx8be-prefetch-weights), before tx8be-ddr-alloc. A constant read only by
    LoadBoxes (read in place, bypasscodegen), each box of every step one whole block of the same w columns of
    its last dim (a linear layer's weight cut by output columns), in an identity-order compact layout, whose
    rows of w elements are not whole DDR bursts (hardware config ddr_burst_bytes), and whose entry no other
    LoadConst reads, gets `column_block` = w: consts.bin stores it as [N / w][d0 .. d(r-2)][w] and codegen
    loads each box as one run (ColumnBlocks.h). The bytes are the same; only their order changes.
  }];
  let options = [Option<"enable", "enable", "bool", "true", "block the constants (false: leave every image as is)">];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

def DdrAllocPass : Pass<"tx8be-ddr-alloc", "::mlir::ModuleOp"> {
  let summary = "DDR addresses for constants, graph inputs/outputs and the tensors between Groups";
  let description = [{
    Seed opt_ddr. DDR starts with the constant region: container entries in id order, each at a multiple of
    the DDR bank (hardware config ddr_bank_bytes); consts.bin is exactly this region. After it, every tensor
    that lives in DDR (the @main arguments, the results of the Groups) gets a bank-aligned range; tensors
    whose lifetimes (first to last Group touching them) do not overlap may share one. Graph inputs live from
    the start, graph outputs to the end. A group_tag 2 Group (a Reshape: a DDR view) shares its operand's
    range. Records module attributes tx8be.const_addrs / tx8be.const_bytes / tx8be.ddr_bytes, the argument
    and result attribute tx8be.ddr_addr of @main and tx8be.ddr_addrs on each Group.
  }];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

def GroupDAGPass : Pass<"tx8be-group-dag", "::mlir::func::FuncOp"> {
  let summary = "Barriers only where a Group reads what other tiles wrote (opt_barrier)";
  let description = [{
    Seed groupDAGPass / opt_barrier, after tx8be-group-cost. On more than one tile, a Group gets a
    tx8be.Barrier before its Return (the seed's need_barrier, as an op codegen prints) unless it and the next
    Group that runs something (views, group_tag 2, run nothing) each run all their steps on the same one tile.
    Not only a reader of its results needs the barrier: tx8be-ddr-alloc gives a dead tensor's bytes to a later
    one, so any later Group on another tile could overwrite what this one still reads. On one tile, after a
    view, or for the last Group (the run's end synchronises), any Barrier goes.
  }];
  let dependentDialects = ["::tx8be::Tx8beDialect"];
}

#endif // TX8_TRANSFORMS_PASSES
