//===- Tx8beScheduleOps.td - What a planned Group does, step by step -*- tablegen -*-===//
//
// The schedule of a Group after planning (tx8be-group-cost). Before it, a Group says *what* it computes
// (LoadVar -> compute op -> StoreVar on whole tensors); after it, the body says *how*: the constants it loads
// once, then a tx8be.Steps op per tile that runs its region once per temporal step. Each step copies its box
// of every input from DDR into SPM (tx8be.LoadBox), runs the compute op on SPM, and copies the output slice
// back (tx8be.StoreBox). Copies are issued asynchronously and complete at a tx8be.Wait on their tokens, so
// that software pipelining can move the Wait past the next step's loads. tx8be.Barrier makes the tiles of the
// Group's dev_region synchronise. The passes after planning (SPM allocation, DDR allocation, barriers) and
// codegen read only these ops: one schedule, one place.
//
// Inside a Steps region a tensor value stands for the SPM buffer that holds *this step's box* of it; its type
// stays the whole logical tensor, so that the compute op inside keeps its own verifier and interfaces.
//
//===----------------------------------------------------------------------===//
#ifndef TX8BE_SCHEDULE_OPS
#define TX8BE_SCHEDULE_OPS

include "tx8/Dialect/Tx8be/IR/Tx8beAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def Tx8be_TokenType : TypeDef<Tx8be_Dialect, "Token"> {
  let mnemonic = "token";
  let summary = "the completion of an asynchronous copy";
  let description = [{
    Returned by tx8be.LoadBox and tx8be.StoreBox; tx8be.Wait on it blocks until the copy has completed. Until
    then the copy's SPM buffer must not be read (a load) or overwritten (a store).
  }];
}

def Tx8be_StepsOp : Tx8be_Op<"Steps", [HasParent<"GroupOp">, SingleBlock, NoTerminator]> {
  let summary = "the temporal steps the tiles of a Group run";
  let description = [{
    The Group's tiles (its dev_region, tile x + y * x_dim) run its region once per temporal step each:
    `tiles` says how many steps each tile runs, in tile order (0: the tile has no part of this Group). The box
    tables of the LoadBox / StoreBox ops inside have one row per step of every tile: tile 0's first, then tile
    1's, ... (count = the sum). `slice` is the output slice one step computes (logical dims; a step at the end
    of a shard may be smaller), which sizes the compute op's scratch. `sharding`, when present, is the number
    of parts each output dim was cut into across tiles (the plan's sharding; tile t computes shard t). The
    results are the DDR tensors its StoreBox ops fill: complete when every tile has run its last step (a
    tx8be.Barrier after the Steps makes the tiles wait for one another).

    `reduce_steps` > 1 splits the compute op's reduction (tx8be::reductionDims: a Gemm's K, a Conv's input
    channels): runs of that many steps compute one output slice, each from its part of the reduction (the
    operand boxes cut there). The first step of a run starts the sum, the others add to the output buffer,
    which stays in SPM; the last one also takes the operands without a reduction dim (a bias) and is the only
    one whose StoreBox copies (the rows of a run store one box). Every tile's count is a multiple of it.

    Software pipelining (tx8be-sw-pipeline) overlaps the copies of neighbouring steps with the compute:
    `multi_buf` is the number of SPM buffers each per-step value has (dev_info.mem_addr holds one address per
    buffer; step i of a tile uses buffer i % multi_buf, or, with a split reduction, the output uses the
    buffer of its run); `sp_stage_num` says how far the steps overlap: 1, each step loads, computes and
    stores in turn (every copy waited for where its Wait is); 2, a StoreBox without a Wait completes while the
    next step loads and computes, and is waited for before its buffer is written again; 3 (needs multi_buf 2),
    also the LoadBox ops of step i + 1 are issued before the compute of step i, into the other buffer.
    `estimate` is the planner's estimate of the Group's cycles (tx8be-group-cost), which the manifest reports.

    ```mlir
    %y = tx8be.Steps tiles [2] slice [4, 64] -> tensor<8x64xf32> {
      %box, %loaded = tx8be.LoadBox %arg1 {boxes = #tx8be.boxes<rank = 2, start = [0, 0, 4, 0],
                                                size = [4, 64, 4, 64], pad_low = [], pad_high = []>}
                      : tensor<8x64xf32>
      tx8be.Wait %loaded
      %r = tx8be.Relu %box : (tensor<8x64xf32>) -> tensor<8x64xf32>
      %stored = tx8be.StoreBox %r into 0 {boxes = ...} : tensor<8x64xf32>
      tx8be.Wait %stored
    }
    ```
  }];
  let arguments = (ins DenseI64ArrayAttr:$tiles,
                       DenseI64ArrayAttr:$slice,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntPositive]>, "1">:$reduce_steps,
                       OptionalAttr<DenseI64ArrayAttr>:$sharding,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntPositive]>, "1">:$multi_buf,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntPositive]>, "1">:$sp_stage_num,
                       OptionalAttr<I64Attr>:$estimate);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `tiles` $tiles `slice` $slice (`->` type($results)^)? attr-dict-with-keyword $body
  }];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The StoreBox that fills result `index` (the verifier guarantees exactly one).
    class StoreBoxOp getStoreOf(unsigned index);
    /// Steps of every tile together: the rows of each box table.
    int64_t getCount();
    /// The first row of tile `tile`'s steps (getCount() for tile == the number of tiles).
    int64_t getFirstStep(unsigned tile);
    /// Tiles that run at least one step.
    unsigned getActiveTiles();
  }];
}

def Tx8be_LoadBoxOp : Tx8be_Op<"LoadBox", [HasParent<"StepsOp">,
                                            DeclareOpInterfaceMethods<InferTypeOpInterface>,
                                            DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "issue the copy of this step's box of a DDR tensor into SPM";
  let description = [{
    `source` is a Group input or a constant read in place (a LoadConst marked `bypasscodegen`: a slice cuts
    it, so each step loads its part), both in DDR; `output` stands for the SPM buffer holding this step's box of it
    (boxes row k at step k; an empty pad_low/pad_high means no padding). The copy completes at the tx8be.Wait
    on `token`. The buffer's SPM address is dev_info.mem_addr[0] (tx8be-spm-alloc).

    `once`: every row is the same box (a conv's input when only its output channels are cut), so it is loaded
    once, before the first step, into one buffer every step reads. On more than one tile, tile 0 copies it from
    DDR into that buffer of every tile of the chip over the NoC (a DTE multicast: DDR reads it once, not once per
    tile), and a barrier follows.

    `multicast`, one entry per tile of the Steps: the tile that brings tile t's box (a leader names itself).
    Tiles that name the same leader read the same box at every step (a Gemm's A row block on the tiles that
    share its rows) and fill a rectangle of the chip's mesh; at each step the leader copies the box from DDR into
    the buffer of every tile of its rectangle with one DTE multicast (DDR reads it once per rectangle, not once
    per tile). Every tile then runs the same number of steps in lockstep: a barrier per step makes the
    multicast data visible before its compute and the buffer free before the next multicast into it.

    `prefetched` (tx8be-prefetch-weights): a constant each tile reads one box of at all its steps, copied into
    the buffer (dev_info.mem_addr, one address) during the previous Group that runs something, by each tile's
    DTE; the Group waits for it before its steps and loads nothing itself.

    `perm` (tx8be-transposed-loads): `output` is `source` transposed (output dim d is source dim perm[d], as
    tx8be.Transpose), and the boxes are the output's. Each step's DMA reads the source box they map to, whose
    dims longer than 1 come in the same order as the output box's, so its bytes in SPM are the output box's
    (a head's [1, S, D] box of a [H, S, D] tensor read as [S, 1, D] of the [S, H, D] tensor before the head
    split). Only a Group input (loaded per step, once or multicast; not prefetched) in a compact layout.
  }];
  let arguments = (ins AnyRankedTensor:$source, Tx8be_BoxTableAttr:$boxes, OptionalAttr<Tx8be_DevAttr>:$dev_info,
                       UnitAttr:$once, OptionalAttr<DenseI64ArrayAttr>:$multicast, UnitAttr:$prefetched,
                       OptionalAttr<DenseI64ArrayAttr>:$perm);
  let results = (outs AnyRankedTensor:$output, Tx8be_TokenType:$token);
  let assemblyFormat = "$source attr-dict `:` type($source)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `multicast`'s rules: one leader per tile, lockstep steps, the same boxes as the leader, rectangles.
    ::mlir::LogicalResult verifyMulticast();
    /// The first (tile, its step) of `steps` whose box differs from that tile's first box; nullopt when every
    /// tile reads one box at all its steps (what `prefetched` needs).
    std::optional<std::pair<int64_t, int64_t>> findBoxChangeWithinTile(StepsOp steps);
    /// The box of `source` that step `k` reads: its box of `output`, through `perm` when there is one.
    TensorBox getSourceBox(int64_t k);
  }];
}

def Tx8be_StoreBoxOp : Tx8be_Op<"StoreBox", [HasParent<"StepsOp">,
                                              DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "issue the copy of this step's output slice from SPM into a result of the Steps";
  let description = [{
    Copies the SPM buffer of `input` (this step's box of it) into box row k of the enclosing tx8be.Steps'
    result `result_index` at step k. Completes at the tx8be.Wait on `token`.

    `perm` (tx8be-transposed-loads): the result is `input` transposed (result dim d is input dim perm[d], as
    tx8be.Transpose); the boxes are the input's, and each step's DMA writes the result box they map to, whose
    dims longer than 1 come in the same order (an attention's [1, S, D] head written as [S, 1, D] of the merged
    [S, H, D]). Both in a compact row-major layout.
  }];
  let arguments = (ins AnyRankedTensor:$input, ConfinedAttr<I64Attr, [IntNonNegative]>:$result_index,
                       Tx8be_BoxTableAttr:$boxes, OptionalAttr<DenseI64ArrayAttr>:$perm);
  let results = (outs Tx8be_TokenType:$token);
  let assemblyFormat = "$input `into` $result_index attr-dict `:` type($input)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The box of the Steps' result that step `k` writes: its box of `input`, through `perm` when there is one.
    TensorBox getResultBox(int64_t k);
  }];
}

def Tx8be_WaitOp : Tx8be_Op<"Wait", [HasParent<"StepsOp">]> {
  let summary = "block until asynchronous copies have completed";
  let arguments = (ins Variadic<Tx8be_TokenType>:$tokens);
  let assemblyFormat = "$tokens attr-dict";
}

def Tx8be_BarrierOp : Tx8be_Op<"Barrier", [HasParent<"GroupOp">]> {
  let summary = "the tiles of the Group's dev_region synchronise";
  let description = [{
    Inserted by tx8be-group-dag after the Steps of a Group whose results a later Group reads from other tiles:
    no tile goes on before every tile has stored its part.
  }];
  let assemblyFormat = "attr-dict";
}

#endif // TX8BE_SCHEDULE_OPS
