//===- Tx8beScheduleOps.td - What a planned Group does, step by step -*- tablegen -*-===//
//
// The schedule of a Group after planning (tx8be-temporal-split). Before it, a Group says *what* it computes
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

def Tx8be_TokenType : TypeDef<Tx8be_Dialect, "Token"> {
  let mnemonic = "token";
  let summary = "the completion of an asynchronous copy";
  let description = [{
    Returned by tx8be.LoadBox and tx8be.StoreBox; tx8be.Wait on it blocks until the copy has completed. Until
    then the copy's SPM buffer must not be read (a load) or overwritten (a store).
  }];
}

def Tx8be_StepsOp : Tx8be_Op<"Steps", [HasParent<"GroupOp">, SingleBlock, NoTerminator]> {
  let summary = "the temporal steps one tile runs for a Group";
  let description = [{
    Runs its region `count` times on tile `tile` of the Group's dev_region (x + y * x_dim), step 0 first.
    `slice` is the output slice one step computes (logical dims; the last step along a dim may be smaller),
    which sizes the compute op's scratch. Per-step values live in the box tables of the LoadBox / StoreBox
    ops inside, `count` rows each. The results are the DDR tensors its StoreBox ops fill: complete when the
    last step has run.

    `reduce_steps` > 1 splits the compute op's reduction (tx8be::reductionDims: a Gemm's K, a Conv's input
    channels): runs of that many steps compute one output slice, each from its part of the reduction (the
    operand boxes cut there). The first step of a run starts the sum, the others add to the output buffer,
    which stays in SPM; the last one also takes the operands without a reduction dim (a bias) and is the only
    one whose StoreBox copies (the rows of a run store one box).

    ```mlir
    %y = tx8be.Steps tile(0) count(2) slice [4, 64] -> tensor<8x64xf32> {
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
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$tile,
                       ConfinedAttr<I64Attr, [IntPositive]>:$count,
                       DenseI64ArrayAttr:$slice,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntPositive]>, "1">:$reduce_steps);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `tile` `(` $tile `)` `count` `(` $count `)` `slice` $slice (`->` type($results)^)? attr-dict-with-keyword $body
  }];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The StoreBox that fills result `index` (the verifier guarantees exactly one).
    class StoreBoxOp getStoreOf(unsigned index);
  }];
}

def Tx8be_LoadBoxOp : Tx8be_Op<"LoadBox", [HasParent<"StepsOp">, AllTypesMatch<["source", "output"]>,
                                            DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "issue the copy of this step's box of a DDR tensor into SPM";
  let description = [{
    `source` is a Group input or a constant read in place (a LoadConst marked `bypasscodegen`: a slice cuts
    it, so each step loads its part), both in DDR; `output` stands for the SPM buffer holding this step's box of it
    (boxes row k at step k; an empty pad_low/pad_high means no padding). The copy completes at the tx8be.Wait
    on `token`. The buffer's SPM address is dev_info.mem_addr[0] (tx8be-spm-alloc).
  }];
  let arguments = (ins AnyRankedTensor:$source, Tx8be_BoxTableAttr:$boxes, OptionalAttr<Tx8be_DevAttr>:$dev_info);
  let results = (outs AnyRankedTensor:$output, Tx8be_TokenType:$token);
  let assemblyFormat = "$source attr-dict `:` type($source)";
  let hasVerifier = 1;
}

def Tx8be_StoreBoxOp : Tx8be_Op<"StoreBox", [HasParent<"StepsOp">,
                                              DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "issue the copy of this step's output slice from SPM into a result of the Steps";
  let description = [{
    Copies the SPM buffer of `input` (this step's box of it) into box row k of the enclosing tx8be.Steps'
    result `result_index` at step k. Completes at the tx8be.Wait on `token`.
  }];
  let arguments = (ins AnyRankedTensor:$input, ConfinedAttr<I64Attr, [IntNonNegative]>:$result_index,
                       Tx8be_BoxTableAttr:$boxes);
  let results = (outs Tx8be_TokenType:$token);
  let assemblyFormat = "$input `into` $result_index attr-dict `:` type($input)";
  let hasVerifier = 1;
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
