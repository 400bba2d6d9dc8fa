//===- ScheduleOps.cpp - The schedule of a planned Group ------------------===//
//
// The op classes of Tx8beScheduleOps.td and their verifiers: box tables that fit their tensors and have a
// row per step, and a Steps whose every result is filled by exactly one StoreBox.
//
//===----------------------------------------------------------------------===//
#include "tx8/Dialect/Tx8be/IR/Tx8be.h"
#include "tx8/Dialect/Tx8be/IR/ColumnBlocks.h"
#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"
#include "tx8/Dialect/Tx8be/IR/HwConfig.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace tx8be;

#define GET_OP_CLASSES
#include "tx8/Dialect/Tx8be/IR/Tx8beScheduleOps.cpp.inc"

//===----------------------------------------------------------------------===//
// BoxTableAttr
//===----------------------------------------------------------------------===//

BoxTableAttr BoxTableAttr::get(MLIRContext *ctx, int64_t rank, ArrayRef<TensorBox> boxes) {
  SmallVector<int64_t> start, size, padLow, padHigh;
  bool pads = false;
  for (const TensorBox &box : boxes) {
    start.append(box.start.begin(), box.start.end());
    size.append(box.size.begin(), box.size.end());
    padLow.append(box.padLow.begin(), box.padLow.end());
    padHigh.append(box.padHigh.begin(), box.padHigh.end());
    pads |= llvm::any_of(box.padLow, [](int64_t p) { return p != 0; }) ||
            llvm::any_of(box.padHigh, [](int64_t p) { return p != 0; });
  }
  if (!pads)
    padLow.clear(), padHigh.clear();
  return get(ctx, rank, DenseI64ArrayAttr::get(ctx, start), DenseI64ArrayAttr::get(ctx, size),
             DenseI64ArrayAttr::get(ctx, padLow), DenseI64ArrayAttr::get(ctx, padHigh));
}

LogicalResult BoxTableAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t rank,
                                   DenseI64ArrayAttr start, DenseI64ArrayAttr size, DenseI64ArrayAttr padLow,
                                   DenseI64ArrayAttr padHigh) {
  if (rank < 0)
    return emitError() << "box table rank " << rank << " is negative";
  int64_t n = start.size();
  if (size.size() != n)
    return emitError() << "box table has " << n << " start values but " << size.size() << " sizes";
  if (rank == 0 ? n != 0 : n % rank != 0 || n == 0)
    return emitError() << "box table of rank " << rank << " has " << n << " values, not a whole number of rows";
  for (DenseI64ArrayAttr pads : {padLow, padHigh})
    if (!pads.empty() && pads.size() != n)
      return emitError() << "box table pads have " << pads.size() << " values, expected none or " << n;
  for (int64_t i = 0; i < n; ++i)
    if (start[i] < 0 || size[i] < 1)
      return emitError() << "box table row " << i / std::max<int64_t>(rank, 1) << " has start " << start[i]
                         << " and size " << size[i] << " in dim " << i % std::max<int64_t>(rank, 1)
                         << " (start >= 0, size >= 1)";
  for (DenseI64ArrayAttr pads : {padLow, padHigh})
    if (llvm::any_of(pads.asArrayRef(), [](int64_t p) { return p < 0; }))
      return emitError() << "box table pads must be non-negative";
  return success();
}

int64_t BoxTableAttr::getCount() const {
  return getRank() == 0 ? 1 : static_cast<int64_t>(getStart().size()) / getRank();
}

TensorBox BoxTableAttr::getBox(int64_t step) const {
  int64_t rank = getRank();
  auto row = [&](ArrayRef<int64_t> values) {
    if (values.empty())
      return SmallVector<int64_t, 6>(rank, 0);
    return SmallVector<int64_t, 6>(values.slice(step * rank, rank));
  };
  return {row(getStart()), row(getSize()), row(getPadLow()), row(getPadHigh())};
}

//===----------------------------------------------------------------------===//
// Box tables against their tensor and their Steps
//===----------------------------------------------------------------------===//

/// Every box lies inside `type` and the table has one row per step of `steps`.
static LogicalResult verifyBoxes(Operation *op, BoxTableAttr boxes, ShapedType type, StepsOp steps) {
  if (boxes.getRank() != type.getRank())
    return op->emitOpError() << "box table has rank " << boxes.getRank() << ", the tensor " << type.getRank();
  // A rank-0 table holds no rows: every step's box is the one element.
  if (steps && boxes.getRank() > 0 && boxes.getCount() != static_cast<int64_t>(steps.getCount()))
    return op->emitOpError() << "box table has " << boxes.getCount() << " rows, the enclosing Steps "
                             << steps.getCount() << " steps";
  for (int64_t k = 0; k < boxes.getCount(); ++k) {
    TensorBox box = boxes.getBox(k);
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (!type.isDynamicDim(d) && box.start[d] + box.size[d] > type.getDimSize(d))
        return op->emitOpError() << "step " << k << "'s box [" << box.start[d] << ", " << box.start[d] + box.size[d]
                                 << ") of dim " << d << " is outside the tensor's " << type.getDimSize(d);
  }
  return success();
}

/// `type` transposed by `perm` (result dim d is dim perm[d], tx8be.Transpose's rule); nullopt when `perm` is not
/// a permutation of its dims. A transposed LoadBox's output, a transposed StoreBox's Steps result.
static std::optional<RankedTensorType> transposedType(RankedTensorType type, ArrayRef<int64_t> perm) {
  int64_t rank = type.getRank();
  if (static_cast<int64_t>(perm.size()) != rank)
    return std::nullopt;
  SmallVector<bool, 6> seen(static_cast<size_t>(rank), false);
  SmallVector<int64_t, 6> shape;
  for (int64_t d : perm) {
    if (d < 0 || d >= rank || seen[static_cast<size_t>(d)])
      return std::nullopt;
    seen[static_cast<size_t>(d)] = true;
    shape.push_back(type.getDimSize(d));
  }
  return type.clone(shape);
}

//===----------------------------------------------------------------------===//
// StepsOp
//===----------------------------------------------------------------------===//

StoreBoxOp StepsOp::getStoreOf(unsigned index) {
  for (auto store : getBody().front().getOps<StoreBoxOp>())
    if (store.getResultIndex() == index)
      return store;
  return {};
}

int64_t StepsOp::getCount() {
  int64_t count = 0;
  for (int64_t n : getTiles())
    count += n;
  return count;
}

int64_t StepsOp::getFirstStep(unsigned tile) {
  int64_t first = 0;
  for (unsigned t = 0; t < tile && t < getTiles().size(); ++t)
    first += getTiles()[t];
  return first;
}

unsigned StepsOp::getActiveTiles() {
  return static_cast<unsigned>(llvm::count_if(getTiles(), [](int64_t n) { return n > 0; }));
}

LogicalResult StepsOp::verifyRegions() {
  if (llvm::any_of(getSlice(), [](int64_t s) { return s < 1; }))
    return emitOpError() << "slice extents must be positive";
  // Each count is bounded first, so that their sum cannot overflow.
  constexpr int64_t kMaxTileSteps = int64_t{1} << 24;
  if (getTiles().empty() || getTiles().size() > 1024 ||
      llvm::any_of(getTiles(), [](int64_t n) { return n < 0 || n > kMaxTileSteps; }) || getCount() < 1)
    return emitOpError() << "tiles must give a step count in [0, " << kMaxTileSteps
                         << "] for each of at most 1024 tiles, at least one step in all";
  auto group = (*this)->getParentOfType<GroupOp>();
  if (RegionAttr region = group ? group.getDevRegionAttr() : RegionAttr()) {
    int64_t regionTiles = static_cast<int64_t>(region.getXDim()) * region.getYDim();
    if (static_cast<int64_t>(getTiles().size()) > regionTiles)
      return emitOpError() << "has steps for " << getTiles().size() << " tiles, its Group's dev_region has "
                           << regionTiles;
  }
  if (std::optional<ArrayRef<int64_t>> sharding = getSharding()) {
    int64_t parts = 1;
    for (int64_t f : *sharding)
      parts = f < 1 ? -1 : parts * f;
    if (sharding->size() != getSlice().size() || parts < 1 || parts > static_cast<int64_t>(getTiles().size()))
      return emitOpError() << "sharding must have one part count >= 1 per output dim, their product at most the "
                           << getTiles().size() << " tiles";
  }
  if (getMultiBuf() > 2)
    return emitOpError() << "multi_buf " << getMultiBuf() << ": one or two buffers per value";
  if (getSpStageNum() > 3 || (getSpStageNum() == 3 && getMultiBuf() != 2))
    return emitOpError() << "sp_stage_num " << getSpStageNum()
                         << ": 1, 2, or 3 with multi_buf 2 (a load ahead needs a second buffer)";
  SmallVector<int, 4> stores(getNumResults(), 0);
  for (auto store : getBody().front().getOps<StoreBoxOp>()) {
    if (store.getResultIndex() >= getNumResults())
      return store.emitOpError() << "stores into result " << store.getResultIndex() << " of a Steps with "
                                 << getNumResults();
    Type stored = store.getInput().getType();
    if (std::optional<ArrayRef<int64_t>> perm = store.getPerm()) {
      std::optional<RankedTensorType> transposed = transposedType(cast<RankedTensorType>(stored), *perm);
      if (!transposed) // StoreBox's verifier says so first
        return failure();
      stored = *transposed;
    }
    if (stored != getResult(store.getResultIndex()).getType())
      return store.emitOpError() << "stores a " << stored << " into result " << store.getResultIndex()
                                 << " of type " << getResult(store.getResultIndex()).getType();
    ++stores[store.getResultIndex()];
  }
  for (auto [i, n] : llvm::enumerate(stores))
    if (n != 1)
      return emitOpError() << "result " << i << " is filled by " << n << " StoreBox ops, expected one";
  // A split reduction: runs of reduce_steps steps compute one output slice, so each run stores one box.
  int64_t parts = static_cast<int64_t>(getReduceSteps()), count = getCount();
  for (auto [t, n] : llvm::enumerate(getTiles()))
    if (n % parts != 0)
      return emitOpError() << "tile " << t << " runs " << n << " steps, not a multiple of reduce_steps " << parts;
  for (auto store : getBody().front().getOps<StoreBoxOp>())
    for (int64_t k = 0; k < count; ++k)
      if (k % parts != 0 && store.getBoxes().getBox(k).start != store.getBoxes().getBox(k - 1).start)
        return store.emitOpError() << "stores another box at step " << k << " than at step " << k - 1
                                   << ", within one run of reduce_steps " << parts;
  return success();
}

//===----------------------------------------------------------------------===//
// LoadBoxOp, StoreBoxOp
//===----------------------------------------------------------------------===//

LogicalResult LoadBoxOp::verify() {
  auto steps = (*this)->getParentOfType<StepsOp>();
  if (steps && steps->isAncestor(getSource().getParentBlock()->getParentOp()))
    return emitOpError() << "loads a value defined inside its Steps; the source must be in DDR";
  auto constant = getSource().getDefiningOp<LoadConstOp>();
  if (constant && !constant->hasAttr("bypasscodegen"))
    return emitOpError() << "loads a LoadConst that is not read in place (bypasscodegen); the source must be in DDR";
  if (constant && constant.getColumnBlock())
    for (int64_t k = 0; k < getBoxes().getCount(); ++k)
      if (!isOneColumnBlock(getBoxes().getBox(k), *constant.getColumnBlock()))
        return emitOpError() << "loads a constant stored in blocks of " << *constant.getColumnBlock()
                             << " columns, but step " << k << "'s box is not one whole block";
  if (getOnce())
    for (int64_t k = 1; k < getBoxes().getCount(); ++k)
      if (getBoxes().getBox(k) != getBoxes().getBox(0))
        return emitOpError() << "is loaded once, but step " << k << "'s box differs from step 0's";
  if (failed(verifyBoxes(*this, getBoxes(), getOutput().getType(), steps)))
    return failure();
  if (std::optional<ArrayRef<int64_t>> perm = getPerm()) {
    if (constant || getPrefetched())
      return emitOpError() << "reads its source transposed (perm), but is not a Group input";
    for (Value v : {getSource(), getOutput()})
      if (!getDeviceLayout(v).isCompactRowMajor())
        return emitOpError() << "reads its source transposed (perm), but a layout is not compact row-major";
    for (int64_t k = 0; k < getBoxes().getCount(); ++k)
      if (!transposeKeepsBoxOrder(getBoxes().getBox(k), *perm))
        return emitOpError() << "reads its source transposed (perm), but step " << k
                             << "'s box is not the same bytes in the source's order";
  }
  if (getPrefetched()) {
    if (getOnce() || getMulticast() || !constant)
      return emitOpError() << "is prefetched, but is not a constant each tile loads itself";
    if (auto change = steps ? findBoxChangeWithinTile(steps) : std::nullopt)
      return emitOpError() << "is prefetched, but tile " << change->first << "'s box at its step " << change->second
                           << " differs from its first";
  }
  return verifyMulticast();
}

TensorBox LoadBoxOp::getSourceBox(int64_t k) {
  TensorBox box = getBoxes().getBox(k);
  if (std::optional<ArrayRef<int64_t>> perm = getPerm())
    return transposedSourceBox(box, *perm);
  return box;
}

LogicalResult LoadBoxOp::inferReturnTypes(MLIRContext *context, std::optional<Location> location,
                                          ValueRange operands, DictionaryAttr attributes,
                                          OpaqueProperties properties, RegionRange regions,
                                          SmallVectorImpl<Type> &inferred) {
  Adaptor adaptor(operands, attributes, properties, regions);
  auto source = dyn_cast<RankedTensorType>(adaptor.getSource().getType());
  if (!source)
    return failure();
  // The parser infers the types before it moves the attributes into the properties.
  DenseI64ArrayAttr permAttr = adaptor.getPermAttr();
  if (!permAttr && attributes)
    permAttr = dyn_cast_or_null<DenseI64ArrayAttr>(attributes.get(getPermAttrName(OperationName(
        getOperationName(), context))));
  Type output = source;
  if (permAttr) {
    std::optional<RankedTensorType> transposed = transposedType(source, permAttr.asArrayRef());
    if (!transposed)
      return emitOptionalError(location, "tx8be.LoadBox: perm is not a permutation of the source's ",
                               source.getRank(), " dims");
    output = *transposed;
  }
  inferred.push_back(output);
  inferred.push_back(TokenType::get(context));
  return success();
}

std::optional<std::pair<int64_t, int64_t>> LoadBoxOp::findBoxChangeWithinTile(StepsOp steps) {
  ArrayRef<int64_t> counts = steps.getTiles();
  for (int64_t t = 0; t < static_cast<int64_t>(counts.size()); ++t)
    for (int64_t k = 1; k < counts[t]; ++k)
      if (getBoxes().getBox(steps.getFirstStep(t) + k) != getBoxes().getBox(steps.getFirstStep(t)))
        return std::make_pair(t, k);
  return std::nullopt;
}

LogicalResult LoadBoxOp::verifyMulticast() {
  std::optional<ArrayRef<int64_t>> leaders = getMulticast();
  auto steps = (*this)->getParentOfType<StepsOp>();
  if (!leaders || !steps)
    return success();
  if (getOnce())
    return emitOpError() << "is both loaded once and multicast per step";
  ArrayRef<int64_t> counts = steps.getTiles();
  int64_t tiles = static_cast<int64_t>(counts.size());
  if (static_cast<int64_t>(leaders->size()) != tiles)
    return emitOpError() << "multicast has " << leaders->size() << " entries for " << tiles << " tiles";
  if (llvm::any_of(counts, [&](int64_t c) { return c != counts.front() || c == 0; }))
    return emitOpError() << "is multicast, but the tiles do not all run the same number of steps (lockstep)";
  tx8_hw_config hw = getHwConfig(*this);
  for (int64_t t = 0; t < tiles; ++t) {
    int64_t leader = (*leaders)[t];
    if (leader < 0 || leader >= tiles || (*leaders)[leader] != leader)
      return emitOpError() << "multicast: tile " << t << " names tile " << leader << ", which is not a leader";
    for (int64_t k = 0; k < counts[t]; ++k)
      if (getBoxes().getBox(steps.getFirstStep(t) + k) != getBoxes().getBox(steps.getFirstStep(leader) + k))
        return emitOpError() << "multicast: tile " << t << "'s box at its step " << k << " differs from its leader "
                             << leader << "'s";
    if ((*leaders)[t] == t && !multicastRectangle(*leaders, t, hw))
      return emitOpError() << "multicast: the tiles led by tile " << t << " do not fill a rectangle of the "
                           << hw.mesh_x << "x" << hw.mesh_y << " mesh";
  }
  return success();
}

void LoadBoxOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getOutput(), "box");
  setNameFn(getToken(), "loaded");
}

void StoreBoxOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) { setNameFn(getToken(), "stored"); }

TensorBox StoreBoxOp::getResultBox(int64_t k) {
  TensorBox box = getBoxes().getBox(k);
  if (std::optional<ArrayRef<int64_t>> perm = getPerm())
    return transposedResultBox(box, *perm);
  return box;
}

LogicalResult StoreBoxOp::verify() {
  if (getBoxes().hasPads())
    return emitOpError() << "box table has pads; a stored slice has none";
  if (std::optional<ArrayRef<int64_t>> perm = getPerm()) {
    auto input = cast<RankedTensorType>(getInput().getType());
    if (!transposedType(input, *perm))
      return emitOpError() << "perm is not a permutation of the input's " << input.getRank() << " dims";
    if (!getDeviceLayout(getInput()).isCompactRowMajor())
      return emitOpError() << "writes its result transposed (perm), but its layout is not compact row-major";
    for (int64_t k = 0; k < getBoxes().getCount(); ++k)
      if (!transposeKeepsBoxOrder(getResultBox(k), *perm))
        return emitOpError() << "writes its result transposed (perm), but step " << k
                             << "'s box is not the same bytes in the result's order";
  }
  return verifyBoxes(*this, getBoxes(), getInput().getType(), (*this)->getParentOfType<StepsOp>());
}
