//===- ShardingInterface.h - Spatial sharding and temporal split -*- C++ -*-===//
#ifndef TX8_INTERFACES_SHARDINGINTERFACE_H
#define TX8_INTERFACES_SHARDINGINTERFACE_H

#include <cstdint>
#include <vector>

#include "mlir/IR/OpDefinition.h"

namespace tx8be {

/// Sharding (tiles per dimension) and split (steps per dimension) of one tensor. Seed field names.
struct ShardingSplitParam {
  std::vector<int32_t> outSharding;
  std::vector<int32_t> outSplit;
};

/// temporalSliceShape's currency: a tensor's sharding and split, and the slice one tile handles per step.
struct SliceParam {
  std::vector<int32_t> sharding;
  std::vector<int32_t> split;
  std::vector<int64_t> sliceShape; ///< ceil(dim / (sharding * split)) per dimension (filled on return)
};

/// A box of a tensor: [start, start + size) per dimension. padLow/padHigh (same rank, or empty for none) are
/// the parts of the box that lie in the operand's padding (conv/pool halos at the borders); start/size are
/// clipped to the tensor.
struct WindowParam {
  std::vector<int64_t> start;
  std::vector<int64_t> size;
  std::vector<int64_t> padLow;
  std::vector<int64_t> padHigh;
};

namespace detail {
/// The default temporalSliceShape: the factors tileShardingSplit gives each operand, applied to its shape.
std::vector<SliceParam> temporalSliceShape(mlir::Operation *op, SliceParam &param);
/// `op`'s backWindow if it implements ShardingInterface; else every operand whole (always correct).
std::vector<WindowParam> backWindow(mlir::Operation *op, const WindowParam &param);
} // namespace detail
} // namespace tx8be

#include "tx8/Interfaces/ShardingInterface.h.inc"

#endif // TX8_INTERFACES_SHARDINGINTERFACE_H
