//===- ShardingInterface.td - Spatial sharding and temporal split ---------===//
//
// Seed: sharding distributes an op over tiles (space), split walks a tile's part in steps (time). Both are
// decided on the output and propagated backwards to the operands.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_INTERFACES_SHARDINGINTERFACE
#define TX8_INTERFACES_SHARDINGINTERFACE

include "mlir/IR/OpBase.td"

def ShardingInterface : OpInterface<"ShardingInterface"> {
  let description = [{
    Backward propagation of a sharding/split decision from the output to every operand.
  }];
  let cppNamespace = "::tx8be";
  let methods = [
    InterfaceMethod<
      [{Given the output's sharding and split factors (one per output dimension), returns one entry per
        operand. An entry whose outSharding (outSplit) is empty means the op cannot be sharded (split) that
        way; entry 0 is the main input (seed: result[0]).}],
      "std::vector<::tx8be::ShardingSplitParam>", "tileShardingSplit", (ins "::tx8be::ShardingSplitParam &":$param), [{}],
      [{ return ::tx8be::detail::tileShardingSplit($_op.getOperation(), param); }]>,
    InterfaceMethod<
      [{Given the output's sharding and split, returns the shape one tile processes in one step: one entry
        per operand, then one for the output. Empty if tileShardingSplit rejects the factors.}],
      "std::vector<::tx8be::SliceParam>", "temporalSliceShape", (ins "::tx8be::SliceParam &":$param), [{}],
      [{ return ::tx8be::detail::temporalSliceShape($_op.getOperation(), param); }]>,
    InterfaceMethod<
      [{Given a window of the output (start/size per dimension), returns the window of every operand that
        computing it reads (conv/pool: the halo, with the padding it overlaps in padLow/padHigh).}],
      "std::vector<::tx8be::WindowParam>", "backWindow", (ins "const ::tx8be::WindowParam &":$param), [{}],
      [{ return ::tx8be::detail::backWindow($_op.getOperation(), param); }]>
  ];
}

#endif // TX8_INTERFACES_SHARDINGINTERFACE
