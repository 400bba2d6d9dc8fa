//===- GroupPlan.h - What one Group does per temporal step -------*- C++ -*-===//
//
// A Group (after tx8be-group-ldst) holds one compute op, its anchor, fed by LoadVar / LoadConst, and after it
// the anchor's tail (tx8be-group-fuse): elementwise ops each reading the previous one's result, the last one
// feeding StoreVar. A temporal split cuts the anchor's output into slices (logical dims); step k computes one
// slice, each tail op the same slice of its result in SPM, and
// ShardingInterface::backWindow says which box of every operand that slice reads (with the padding a
// conv/pool halo needs at a border). tx8be-group-cost weighs candidate plans with it and writes the one
// it keeps into the IR as the Group's schedule (buildSchedule: tx8be.Steps with LoadBox / StoreBox tables);
// everything after reads the schedule, not this.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_TRANSFORMS_GROUPPLAN_H
#define TX8_TRANSFORMS_GROUPPLAN_H

#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"
#include "tx8/Dialect/Tx8be/IR/HwConfig.h"
#include "tx8/Dialect/Tx8be/IR/Tx8be.h"

#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace tx8be {

/// One temporal step: the output slice and the box of each operand of the compute op. With the reduction split
/// (GroupPlan::reduceSteps > 1), consecutive steps compute parts of one output slice: part 0 starts the sum,
/// the others add to it, the last adds the operands that have no reduction dim (a bias) and is stored.
struct GroupStep {
  TensorBox result;
  llvm::SmallVector<TensorBox, 4> operands;
  llvm::SmallVector<llvm::SmallVector<TensorBox, 3>, 2> tailOperands; ///< per tail op, the box of each operand
  int64_t reducePart = 0;
};

struct GroupPlan {
  mlir::Operation *compute = nullptr;    ///< the group's compute op (the anchor of its chain)
  llvm::SmallVector<mlir::Operation *, 4> tail; ///< the ops after it in the chain (groupTail)
  llvm::SmallVector<int64_t, 6> slice;   ///< output slice (logical dims); the whole shape when not split
  std::vector<GroupStep> steps;          ///< in loop order (outer dims first)
  llvm::SmallVector<uint64_t, 4> operandBytes; ///< SPM bytes of each operand's largest box (device image)
  uint64_t resultBytes = 0;              ///< SPM bytes of the largest output slice
  llvm::SmallVector<llvm::SmallVector<uint64_t, 3>, 2> tailOperandBytes; ///< per tail op and operand, as above
  llvm::SmallVector<uint64_t, 2> tailResultBytes; ///< per tail op, SPM bytes of its largest result slice
  uint64_t immBytes = 0;                 ///< scratch the ops ask for (getImmSpSize), summed over the chain
  int64_t reduceSlice = 0;               ///< reduction elements per part (0: the reduction is not split)
  int64_t reduceSteps = 1;               ///< parts of the reduction per output slice
  llvm::SmallVector<int64_t, 6> sharding; ///< parts of each output dim across tiles (empty: all on tile 0)
  llvm::SmallVector<int64_t, 16> tileSteps; ///< steps of each tile, in tile order (`steps` holds tile 0's first)
  int64_t multiBuf = 1;                  ///< SPM buffers per per-step value (2: double buffering)
  uint64_t estimate = 0;                 ///< the cost model's cycles for the whole group (0: not estimated)

  /// SPM bytes of everything live at once (sum of the above, each rounded up to `align`), with `multiBuf`
  /// buffers of each value a step loads or stores (an operand a step cuts or that is not a constant, the
  /// chain's last result; a constant loaded whole, an intermediate result of the chain and the scratch have one).
  uint64_t footprint(uint64_t align, int64_t multiBuf = 1) const;
  /// The op whose result the group stores: the last of the chain.
  mlir::Operation *last() const { return tail.empty() ? compute : tail.back(); }
};

/// The tail of `compute` in its Group or Steps (tx8be-group-fuse): the ops after it, each the only reader of the
/// previous one's result and not a load, store or Return, in chain order. Empty outside a Group.
llvm::SmallVector<mlir::Operation *, 4> groupTail(mlir::Operation *compute);

/// `compute` and its groupTail: the group's ops in the order they run.
llvm::SmallVector<mlir::Operation *, 4> groupChain(mlir::Operation *compute);

/// The last tile (mesh column x1, row y1) of the rectangle from tile (0, 0) that holds tiles 0 .. tiles - 1 of
/// a chip with `hw`'s mesh (tile t is at column t % mesh_x, row t / mesh_x): where a LoadBox `once` is multicast.
std::pair<uint32_t, uint32_t> multicastCorner(int64_t tiles, const tx8_hw_config &hw);

/// Which tile brings each tile's box of an operand when tiles share it (LoadBox `multicast`): `sameBoxes(t, u)`
/// says whether tiles t < u read the same box at every step. Tiles that do form groups, and each group must
/// fill a rectangle of `hw`'s mesh. A group's leader is a member that leads the fewest multicasts so far
/// (`duties`, one count per tile, updated; of several such, the k-th group takes its k-th), which spreads the DTE
/// work over the tiles.
/// Empty when no two tiles share, or a group is not a rectangle.
llvm::SmallVector<int64_t, 16> planMulticast(int64_t tiles, llvm::function_ref<bool(int64_t, int64_t)> sameBoxes,
                                             const tx8_hw_config &hw, llvm::SmallVectorImpl<int64_t> &duties);

/// The box of each operand of `op` that its output box `out` reads (ShardingInterface::backWindow; the whole
/// operand where the op has no rule).
llvm::SmallVector<TensorBox, 4> operandWindows(mlir::Operation *op, const TensorBox &out);

/// The operand of tail op `op` that reads the chain value `prev` (the previous op's result).
unsigned chainOperandIndex(mlir::Operation *op, mlir::Value prev);

/// The compute op of a Group, the anchor of its chain: the first op that is not a load, store, wait, barrier or
/// Return (inside the Steps once the group is planned); the others must be its groupTail. Fails (with an error
/// on the group) when there is none or the others are not its tail.
mlir::FailureOr<mlir::Operation *> getGroupComputeOp(GroupOp group);

/// Output dims (logical) the op can be split along, outermost in device memory first; of an anchor, those its
/// whole tail can be split along too.
llvm::SmallVector<int64_t, 6> splittableDims(mlir::Operation *compute);

/// Per operand of `compute`, the dim holding its part of a reduction a temporal split may cut (Gemm and MatMul:
/// K; Conv with group 1: the input channels), -1 for an operand without one (a bias, added once by the
/// last part). Empty when the op's reduction cannot be split. Each part accumulates into the fp32 output in
/// SPM (OpLib's `accumulate`): for Gemm the sum runs in the same order as unsplit (bit-identical); for Conv the
/// channel parts reorder the sum over (kh, kw, c).
llvm::SmallVector<int64_t, 4> reductionDims(mlir::Operation *compute);
/// Extent of that reduction (0 when it cannot be split).
int64_t reductionExtent(mlir::Operation *compute);

/// The shards of `compute`'s output when dim d is cut into sharding[d] parts across tiles, in tile order (the
/// outermost device dim varies slowest): part i of dim d starts at i * ceil(extent / parts). A part that starts
/// past the extent (more parts than elements would allow evenly) is an empty box (size 0 somewhere).
std::vector<TensorBox> shardBoxes(mlir::Operation *compute, llvm::ArrayRef<int64_t> sharding);

/// Extents of the largest shard of `compute`'s output cut into `sharding` parts per dim (the whole shape when
/// `sharding` is empty).
llvm::SmallVector<int64_t, 6> largestShard(mlir::Operation *compute, llvm::ArrayRef<int64_t> sharding);

/// Tiles of `group`'s dev_region (1 without one).
int64_t regionTiles(GroupOp group);

/// The steps of `compute` for output slice `slice` (logical dims) on hardware `hw`, with its reduction cut in
/// parts of `reduceSlice` elements (0 or >= the extent: whole). With a `sharding` over `tiles` tiles each
/// tile's steps cover its shard (shardBoxes; the slices start at the shard's start); without, tile 0 runs all.
/// Operand boxes come from backWindow. Enumerates every step: check countSteps first.
GroupPlan planGroup(mlir::Operation *compute, llvm::ArrayRef<int64_t> slice, const tx8_hw_config &hw,
                    int64_t reduceSlice = 0, llvm::ArrayRef<int64_t> sharding = {}, unsigned tiles = 1);

/// The same buffer sizes (operandBytes, resultBytes, immBytes) from at most 3^rank representative steps (per
/// dim the first, an inner and the last slice): what a search weighs candidates with, in bounded time and
/// memory. `steps` holds only those samples.
GroupPlan planGroupSizes(mlir::Operation *compute, llvm::ArrayRef<int64_t> slice, const tx8_hw_config &hw,
                         int64_t reduceSlice = 0);

/// Steps of output slice `slice` over `shape` (UINT64_MAX if that overflows).
uint64_t countSteps(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> slice);

/// Most steps a schedule may have: each is a row of every box table in the IR and of main.c's tables.
constexpr uint64_t kMaxScheduleSteps = 65536;

/// Does some step of `plan` read less than the whole of operand `operand` (of the anchor; of tail op `tailOp`)?
bool cutsOperand(const GroupPlan &plan, unsigned operand);
bool cutsTailOperand(const GroupPlan &plan, unsigned tailOp, unsigned operand);

/// The first call of `plan`'s steps (every op of the chain, as codegen will make it: the OpCall, the views of the
/// boxes, the step's pads, a split reduction's parts) that OpLib's own check of its kernel refuses (KernelContract.h),
/// as "<op> at step <k>: <reason>"; "" when the kernels accept them all. The buffers are placed apart in an SPM
/// without bounds: their addresses are SPM allocation's, made later, so what this judges is the plan's (shapes,
/// formats, params); codegen checks every call of every tile again with its real addresses. An op whose kernel
/// cannot be asked (no OpLib kernel, which codegen reports, or a call the evaluator does not know) is passed over.
std::string planContractProblem(const GroupPlan &plan, const tx8_hw_config &hw);

/// Rewrites `group` (LoadVar -> compute -> StoreVar) into its schedule for `plan`: the LoadConsts no step cuts
/// stay where they are (loaded once), one a slice cuts is read in place and loaded per step by a LoadBox of
/// its box; a tx8be.Steps with the plan's tiles, sharding, multi_buf and estimate takes the compute op, each LoadVar becomes a LoadBox and
/// each StoreVar a StoreBox with the plan's box per step, each followed by a Wait; the Return takes the
/// Steps' results. Fails with an error on the group for a body that is not of that form.
mlir::LogicalResult buildSchedule(GroupOp group, const GroupPlan &plan);

/// The Steps of a planned group (null if it has none: not planned, or group_tag 2).
StepsOp getGroupSteps(GroupOp group);

/// The Transpose of a planned Group that does nothing else (its Steps load its one input, transpose it and
/// store the result), between compact row-major tensors of one element type: what tx8be-transposed-loads may
/// drop. Null for any other Group.
TransposeOp getFoldableTranspose(GroupOp group);

/// The Group that copies `group`'s prefetched LoadBox boxes (tx8be-prefetch-weights): the nearest Group before
/// it in its block that runs something (planned, not a view); null if there is none.
GroupOp getPrefetchHost(GroupOp group);

/// Bytes of the device image of a box (extents `size`, logical dims) of `value`; UINT64_MAX / 8 if it
/// overflows.
uint64_t spmBoxBytes(mlir::Value value, llvm::ArrayRef<int64_t> size, const tx8_hw_config &hw);

/// SPM bytes of one buffer of `load`: its largest box.
uint64_t loadBoxBufferBytes(LoadBoxOp load, const tx8_hw_config &hw);

/// SPM / DDR alignment of every buffer start (bytes).
uint64_t spmBufferAlign(const tx8_hw_config &hw);

/// dev_info of `op`, or one with neutral values (compact default layout, no slice, no addresses).
DevAttr getOrCreateDevInfo(mlir::Operation *op);
/// Copies of `dev` with one field replaced.
DevAttr withMemAddr(DevAttr dev, llvm::ArrayRef<int64_t> addrs);
DevAttr withImm(DevAttr dev, uint64_t immSize, int64_t immAddr);

} // namespace tx8be

#endif // TX8_TRANSFORMS_GROUPPLAN_H
