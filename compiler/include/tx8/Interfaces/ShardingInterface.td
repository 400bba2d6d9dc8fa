//===- ShardingInterface.td - Spatial sharding and temporal split ---------===//
//
// Seed: sharding distributes an op over tiles (space), split walks a tile's part in steps (time). Both are
// decided on the output and propagated backwards to the operands. The tx8be ops implement it as external
// models, one per op family, that the dialect attaches when it is loaded (lib/Dialect/Tx8be/IR/Sharding.cpp);
// BatchNorm_Inference implements it itself (BatchNormInterfaces.cpp).
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
      "std::vector<::tx8be::ShardingSplitParam>", "tileShardingSplit", (ins "::tx8be::ShardingSplitParam &":$param)>,
    InterfaceMethod<
      [{Given the output's sharding and split, returns the shape one tile processes in one step: one entry
        per operand, then one for the output. Empty if tileShardingSplit rejects the factors. By default
        ceil(extent / (sharding * split)) per dimension of every operand (factors from tileShardingSplit) and
        of the output.}],
      "std::vector<::tx8be::SliceParam>", "temporalSliceShape", (ins "::tx8be::SliceParam &":$param), [{}],
      [{ return ::tx8be::detail::temporalSliceShape($_op.getOperation(), param); }]>,
    InterfaceMethod<
      [{Given a window of the output (start/size per dimension), returns the window of every operand that
        computing it reads (conv/pool: the halo, with the padding it overlaps in padLow/padHigh).}],
      "std::vector<::tx8be::WindowParam>", "backWindow", (ins "const ::tx8be::WindowParam &":$param)>
  ];
}

#endif // TX8_INTERFACES_SHARDINGINTERFACE
