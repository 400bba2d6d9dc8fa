//===- GroupCostModel.h - Cycles of a Group's candidate plan ------*- C++ -*-===//
//
// The seed's Estimate for tx8be-group-cost: the cycles a candidate plan (sharding across tiles, output slice,
// reduction parts, buffers per value) takes on the chip, from the cycle formulas of the chip model
// (tx8/cm_cycles.h over tx8_hw_config): a DMA costs ddr_latency_cycles plus its bytes, every contiguous run
// rounded up to ddr_burst_bytes, at the port's rate or the tile's share of DDR when the other tiles stream at
// once; an NE step costs ne_startup_cycles plus its M x K x N in PE-array steps at the rate of its input format
// (per matrix of a batched MatMul's box); other compute the op's own estimate (getOpClockCycle) scaled to the
// step. A tile's steps overlap as the schedule lets them: double buffered (multi_buf 2, sp_stage_num 3), a step
// costs its slowest engine (loads, compute, stores, or their DDR bytes); single buffered (sp_stage_num 2), its
// loads plus its compute (the stores overlap the next step's loads, sharing their DDR). The group costs its slowest tile or the whole
// chip's DDR bytes at the DDR rate, whichever is more, plus a barrier. With a LoadBox multicast the tiles run in
// lockstep: a step costs the slowest of every tile's compute, loads at its port, each leader's multicasts at its
// link and the chip's bytes of the step through DDR, plus the barrier (two single buffered).
//
//===----------------------------------------------------------------------===//
#ifndef TX8_TRANSFORMS_GROUPCOSTMODEL_H
#define TX8_TRANSFORMS_GROUPCOSTMODEL_H

#include "tx8/Dialect/Tx8be/IR/HwConfig.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace tx8be {

/// The parts of an estimate (cycles unless named bytes), for tests and the manifest.
struct GroupCostBreakdown {
  uint64_t activeTiles = 1;   ///< tiles with a non-empty shard
  uint64_t steps = 0;         ///< steps of the largest shard (reduction parts included)
  uint64_t loadCycles = 0;    ///< one step's loads
  uint64_t computeCycles = 0; ///< one step's compute
  uint64_t storeCycles = 0;   ///< one output slice's store
  uint64_t constCycles = 0;   ///< the constants a tile loads once
  uint64_t sharedCycles = 0;  ///< the boxes every step reads (LoadBox once): one load, or a DTE multicast + barrier
  uint64_t multicastCycles = 0; ///< one step's LoadBox multicasts of the slowest leader (0: no lockstep)
  uint64_t tileCycles = 0;    ///< the slowest tile, start to end
  uint64_t ddrBytes = 0;      ///< every tile's DDR traffic
  uint64_t ddrCycles = 0;     ///< ddrBytes at the DDR rate
  uint64_t total = 0;         ///< the estimate: max(tileCycles, ddrCycles) + a barrier on more than one tile
  /// The constant boxes each tile loads the same at all its steps, neither multicast nor in lockstep: what
  /// tx8be-prefetch-weights may copy during the group before. Their loads at the tile's share of DDR, and the
  /// SPM bytes of their buffers.
  uint64_t prefetchCycles = 0;
  uint64_t prefetchBytes = 0;
};

class GroupCostModel {
public:
  /// The model of `compute` (a Group's compute op, its operands LoadVar / LoadConst) on `tiles` tiles. With
  /// `columnBlocks`, tx8be-block-weights runs later: a constant's box of whole column blocks is one DDR run.
  GroupCostModel(mlir::Operation *compute, const tx8_hw_config &hw, int64_t tiles, bool columnBlocks = false)
      : compute(compute), hw(hw), tiles(tiles), columnBlocks(columnBlocks) {}

  /// Cycles of the plan: the output cut into `sharding` parts per dim across tiles (all 1: one tile), slices
  /// of `slice`, the reduction in parts of `reduceSlice` (0: whole), `multiBuf` buffers per per-step value.
  GroupCostBreakdown breakdown(llvm::ArrayRef<int64_t> sharding, llvm::ArrayRef<int64_t> slice, int64_t reduceSlice,
                               int64_t multiBuf) const;
  uint64_t estimate(llvm::ArrayRef<int64_t> sharding, llvm::ArrayRef<int64_t> slice, int64_t reduceSlice,
                    int64_t multiBuf) const {
    return breakdown(sharding, slice, reduceSlice, multiBuf).total;
  }

  /// Compute cycles of one step whose output box has extents `size` and whose reduction part has `reduce`
  /// elements (the whole reduction when 0).
  uint64_t stepComputeCycles(llvm::ArrayRef<int64_t> size, int64_t reduce) const;

  /// Cycles of `op` (a CT op) on an output box of extents `size`: its getOpClockCycle in proportion to the box's
  /// share of its output, at least the CT start-up.
  uint64_t shareOfOpCycles(mlir::Operation *op, llvm::ArrayRef<int64_t> size) const;

  /// Bytes an RDMA/WDMA of the box `size` (logical dims) of `value` moves through DDR (runs in whole bursts) and
  /// the number of DMA instructions it takes (each pays the latency).
  std::pair<uint64_t, uint64_t> dmaTraffic(mlir::Value value, llvm::ArrayRef<int64_t> size) const;

private:
  /// Whether tx8be-block-weights will store `value` (a LoadConst's) so that a box of extents `size` is one run.
  bool isColumnBlockRun(mlir::Value value, llvm::ArrayRef<int64_t> size) const;

  mlir::Operation *compute;
  const tx8_hw_config &hw;
  int64_t tiles;
  bool columnBlocks;
};

} // namespace tx8be

#endif // TX8_TRANSFORMS_GROUPCOSTMODEL_H
