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

def GroupLdStPass : Pass<"tx8be-group-ldst", "::mlir::func::FuncOp"> {
  let summary = "LoadVar at each Group input and StoreVar at each output, as OpAttr needLoad/needStore ask";
  let description = [{
    Seed GroupLdStPass. For each Group argument, the users inside the Group whose OpAttr.needLoad bit for
    that operand is set read it through one new tx8be.LoadVar at the start of the body. For each returned
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

#endif // TX8_TRANSFORMS_PASSES
