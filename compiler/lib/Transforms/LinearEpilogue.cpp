//===- LinearEpilogue.cpp - A linear layer's epilogue next to it (tx8be-linear-epilogue) -===//
//
// A linear layer on a [B, S, D] activation is, after tx8be-decompose, a 2-D MatMul between row Reshapes
// ([B*S, D] in, [B, S, N] out), and what PyTorch writes after it (the bias Add, Gelu, the residual Add, the
// chunk of a packed QKV projection into q, k and v) sits behind the Reshape. A Reshape is its own (view) Group,
// so tx8be-group-fuse cannot put the bias into the MatMul's group, and each column Slice is a copy through DDR.
// Two rewrites bring them back to the MatMul:
//   SinkEpilogue: an elementwise op on a row Reshape of a MatMul's (or a sunk epilogue's) result runs on the 2-D
//     value before the Reshape (a bias broadcast along the columns, or a full-shaped operand as a Reshape of
//     it), so the chain is MatMul -> Add -> Gelu -> ... at one shape, which group-fuse fuses.
//   SliceColumns: a linear layer whose result is read only by Slices of whole rows and a range of columns (through
//     row Reshapes and column-broadcast epilogues) becomes one narrower linear layer per Slice, cutting the
//     constant weight (and bias) instead of the activation: the cut constants fold at compile time.
// A row Reshape keeps the last dim and regroups only the leading ones, so rows stay rows and columns columns.
//
//===----------------------------------------------------------------------===//
#include "tx8/Transforms/PassStatistics.h"
#include "tx8/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tx8be {
#define GEN_PASS_DEF_LINEAREPILOGUEPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

RankedTensorType rankedStatic(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.hasStaticShape() && type.getRank() >= 1 ? type : RankedTensorType();
}

/// A Reshape that keeps the last dim (and the element count): rows regrouped, columns untouched.
bool isRowReshape(Operation *op) {
  auto reshape = dyn_cast_or_null<ReshapeOp>(op);
  if (!reshape)
    return false;
  auto in = rankedStatic(reshape.getInput()), out = rankedStatic(reshape.getOutput());
  return in && out && in.getShape().back() == out.getShape().back();
}

/// A value computed from constants only by ops tx8be-fold-constants folds (a weight, its transpose, a cut).
bool isConstantLike(Value v) {
  Operation *def = v.getDefiningOp();
  if (isa_and_nonnull<ConstantOp>(def))
    return true;
  if (isa_and_nonnull<ReshapeOp, TransposeOp, SliceOp, CastOp>(def))
    return isConstantLike(def->getOperand(0));
  return false;
}

/// The binary ops whose other operand may broadcast along the rows (a bias, a scale).
bool isColumnBinary(Operation *op) { return isa<AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp>(op); }

/// `v`'s shape as it broadcasts against a result of `rank` dims: its shape with leading 1s.
SmallVector<int64_t> alignedShape(RankedTensorType type, int64_t rank) {
  SmallVector<int64_t> shape(std::max<int64_t>(rank - type.getRank(), 0), 1);
  llvm::append_range(shape, type.getShape());
  return shape;
}

/// Whether `type` broadcast to a result of `rank` dims varies only along the last dim (a bias [N], [1, 1, N]).
bool isColumnVector(RankedTensorType type, int64_t rank) {
  if (type.getRank() > rank)
    return false;
  SmallVector<int64_t> shape = alignedShape(type, rank);
  return llvm::all_of(ArrayRef<int64_t>(shape).drop_back(), [](int64_t d) { return d == 1; });
}

Value reshapeTo(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> shape) {
  auto type = RankedTensorType::get(shape, getElementTypeOrSelf(v.getType()));
  if (type == v.getType())
    return v;
  if (auto reshape = v.getDefiningOp<ReshapeOp>(); reshape && reshape.getInput().getType() == type)
    return reshape.getInput(); // a Reshape back: the value itself
  return b.create<ReshapeOp>(loc, type, v, StringAttr(), DevAttr()).getResult();
}

/// The same op as `op` on new operands and a result of `shape`.
Value cloneWith(OpBuilder &b, Operation *op, ValueRange operands, ArrayRef<int64_t> shape) {
  OperationState state(op->getLoc(), op->getName());
  state.addOperands(operands);
  state.addTypes(RankedTensorType::get(shape, getElementTypeOrSelf(op->getResult(0).getType())));
  state.addAttributes(op->getAttrs());
  return b.create(state)->getResult(0);
}

/// `v` with the row Reshapes that computed it looked through (torch's [S, 1, D] -> [1, S, D] after a layer).
Value throughRowReshapes(Value v) {
  while (isRowReshape(v.getDefiningOp()))
    v = v.getDefiningOp()->getOperand(0);
  return v;
}

/// Whether `v` is a MatMul's (Gemm's) result or an epilogue already sunk next to one (the chain group-fuse will
/// fuse). `depth` bounds the walk (a sunk chain is a few ops; a deep elementwise DAG must not cost 2^depth).
bool isLinearChain(Value v, int depth = 0) {
  Operation *def = v.getDefiningOp();
  if (depth > 16)
    return false;
  if (isa_and_nonnull<MatMulOp, GemmOp>(def))
    return true;
  if (!def || def->getNumResults() != 1 ||
      !(def->hasTrait<OpTrait::tx8be::UnaryElementwise>() || isColumnBinary(def)))
    return false;
  auto type = rankedStatic(v);
  for (Value operand : def->getOperands())
    if (auto t = rankedStatic(operand); t && type && t.getShape() == type.getShape() && isLinearChain(operand, depth + 1))
      return true;
  return false;
}

/// SinkEpilogue on `op`, an elementwise op: returns the Reshape of its new 2-D form that replaced it, or null.
/// The ops it erases go to `erased`.
Value sinkEpilogue(OpBuilder &b, Operation *op, SmallVectorImpl<Operation *> &erased) {
  if (op->getNumResults() != 1 || !(op->hasTrait<OpTrait::tx8be::UnaryElementwise>() || isColumnBinary(op)))
    return {};
  auto outType = rankedStatic(op->getResult(0));
  if (!outType)
    return {};
  int64_t rank = outType.getRank();
  // the operand behind a row Reshape of a linear chain, at the result's shape
  std::optional<unsigned> chainAt;
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    auto type = rankedStatic(operand);
    Operation *def = operand.getDefiningOp();
    if (type && type.getShape() == outType.getShape() && isRowReshape(def) &&
        isLinearChain(throughRowReshapes(operand))) {
      chainAt = i;
      break;
    }
  }
  if (!chainAt)
    return {};
  // every other operand a residual (read through a Reshape: a DDR view) or a bias / scale (one row of N)
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    auto type = rankedStatic(operand);
    if (i != *chainAt && !(type && (type.getShape() == outType.getShape() || isColumnVector(type, rank))))
      return {};
  }
  Value inner = throughRowReshapes(op->getOperand(*chainAt));
  ArrayRef<int64_t> innerShape = cast<RankedTensorType>(inner.getType()).getShape();
  b.setInsertionPoint(op);
  SmallVector<Value> operands;
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    auto type = cast<RankedTensorType>(operand.getType());
    if (i == *chainAt)
      operands.push_back(inner);
    else if (type.getShape() == outType.getShape())
      operands.push_back(reshapeTo(b, op->getLoc(), operand, innerShape));
    else
      operands.push_back(reshapeTo(b, op->getLoc(), operand, {alignedShape(type, rank).back()}));
  }
  Value moved = cloneWith(b, op, operands, innerShape);
  Value back = reshapeTo(b, op->getLoc(), moved, outType.getShape());
  Operation *view = op->getOperand(*chainAt).getDefiningOp();
  op->getResult(0).replaceAllUsesWith(back);
  erased.push_back(op);
  op->erase();
  // the Reshapes it read, if nothing else does: the chain's value then has one reader again (SliceColumns)
  while (view && isRowReshape(view) && view->use_empty()) {
    Operation *next = view->getOperand(0).getDefiningOp();
    erased.push_back(view);
    view->erase();
    view = next;
  }
  return back;
}

/// A Slice of whole rows and columns [offset, offset + size) of its input: returns {offset, size}.
std::optional<std::pair<int64_t, int64_t>> columnSlice(SliceOp slice) {
  auto in = rankedStatic(slice.getInput());
  if (!in)
    return std::nullopt;
  ArrayRef<int64_t> shape = in.getShape(), offsets = slice.getOffsets(), sizes = slice.getSizes(),
                    strides = slice.getStrides();
  int64_t last = in.getRank() - 1;
  for (int64_t d = 0; d < last; ++d)
    if (offsets[d] != 0 || sizes[d] != shape[d] || strides[d] != 1)
      return std::nullopt;
  if (strides[last] != 1)
    return std::nullopt;
  return std::make_pair(offsets[last], sizes[last]);
}

Value sliceColumns(OpBuilder &b, Location loc, Value v, int64_t offset, int64_t size) {
  auto type = cast<RankedTensorType>(v.getType());
  int64_t rank = type.getRank();
  if (type.getShape().back() == 1) // a broadcast column: the same for every cut
    return v;
  SmallVector<int64_t> offsets(rank, 0), sizes(type.getShape()), strides(rank, 1);
  offsets.back() = offset, sizes.back() = size;
  return b.create<SliceOp>(loc, v, b.getDenseI64ArrayAttr(offsets), b.getDenseI64ArrayAttr(sizes),
                           b.getDenseI64ArrayAttr(strides), StringAttr(), DevAttr())
      .getResult();
}

/// Whether `v`, read only by column Slices, can be computed per Slice: a MatMul with a constant-like B, a row
/// Reshape or a column epilogue (its other operands column vectors or constants cut alike) of such a value.
bool cutPerSlice(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumResults() != 1 || !rankedStatic(v))
    return false;
  if (auto mm = dyn_cast<MatMulOp>(def)) {
    auto weight = rankedStatic(mm.getB());
    return weight && weight.getRank() >= 2 && isConstantLike(mm.getB());
  }
  // what a Slice-side value is computed from is read by nothing else (else the wide layer would run as well)
  if (isRowReshape(def))
    return def->getOperand(0).hasOneUse() && cutPerSlice(def->getOperand(0));
  if (!def->hasTrait<OpTrait::tx8be::UnaryElementwise>() && !isColumnBinary(def))
    return false;
  auto type = rankedStatic(v);
  bool chain = false;
  for (Value operand : def->getOperands()) {
    auto t = rankedStatic(operand);
    if (!t)
      return false;
    if (t.getShape() == type.getShape() && !chain && operand.hasOneUse() && cutPerSlice(operand))
      chain = true;
    else if (!(isColumnVector(t, type.getRank()) && isConstantLike(operand)))
      return false;
  }
  return chain;
}

/// `v`'s columns [offset, offset + size), computed by cutting what `v` is computed from (cutPerSlice(v)).
Value cutColumns(OpBuilder &b, Value v, int64_t offset, int64_t size) {
  Operation *def = v.getDefiningOp();
  Location loc = def->getLoc();
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape.back() = size;
  if (auto mm = dyn_cast<MatMulOp>(def)) {
    Value weight = sliceColumns(b, loc, mm.getB(), offset, size);
    return cloneWith(b, def, {mm.getA(), weight}, shape);
  }
  if (isRowReshape(def))
    return reshapeTo(b, loc, cutColumns(b, def->getOperand(0), offset, size), shape);
  SmallVector<Value> operands;
  bool chainDone = false;
  for (Value operand : def->getOperands()) {
    auto t = cast<RankedTensorType>(operand.getType());
    if (!chainDone && t.getShape() == type.getShape() && operand.hasOneUse() && cutPerSlice(operand)) {
      operands.push_back(cutColumns(b, operand, offset, size));
      chainDone = true;
    } else {
      operands.push_back(sliceColumns(b, loc, operand, offset, size));
    }
  }
  return cloneWith(b, def, operands, shape);
}

/// Whether SliceColumns applies to `v`: every user a column Slice, and `v` computable per Slice.
bool canSliceColumns(Value v) {
  if (v.use_empty() || !cutPerSlice(v))
    return false;
  return llvm::all_of(v.getUsers(), [](Operation *user) {
    auto slice = dyn_cast<SliceOp>(user);
    return slice && columnSlice(slice);
  });
}

/// SliceColumns for the linear layer whose result `v` is (canSliceColumns(v)): each Slice becomes its own layer.
void sliceColumnsOf(OpBuilder &b, Value v) {
  SmallVector<SliceOp> slices;
  for (Operation *user : v.getUsers())
    slices.push_back(cast<SliceOp>(user));
  for (SliceOp slice : slices) {
    auto [offset, size] = *columnSlice(slice);
    b.setInsertionPoint(slice);
    Value cut = cutColumns(b, v, offset, size);
    slice.getOutput().replaceAllUsesWith(cut);
    slice.erase();
  }
}

/// Erases the ops of `root`'s computation left without users (the wide MatMul and its epilogue).
void eraseDead(Operation *root) {
  SmallVector<Operation *> work{root};
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!op || !op->use_empty() || isa<func::FuncOp>(op) || !isPure(op))
      continue;
    SmallVector<Operation *> defs;
    for (Value operand : op->getOperands())
      defs.push_back(operand.getDefiningOp());
    op->erase();
    llvm::append_range(work, defs);
  }
}

struct LinearEpiloguePass : tx8be::impl::LinearEpiloguePassBase<LinearEpiloguePass> {
  PassStatistic numSunk{this, "sunk", "Elementwise ops moved before a row Reshape, next to their MatMul"};
  PassStatistic numCut{this, "cut", "Linear layers read only by column Slices, cut into one layer per Slice"};
  void runOnOperation() override {
    OpBuilder b(&getContext());
    // Program order: a sunk epilogue's users come later, so a chain sinks op by op.
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) { ops.push_back(op); });
    llvm::DenseSet<Operation *> erased;
    SmallVector<Operation *> justErased;
    for (Operation *op : ops) {
      if (erased.contains(op) || isa<ReshapeOp, MatMulOp>(op))
        continue;
      justErased.clear();
      if (sinkEpilogue(b, op, justErased))
        ++numSunk;
      erased.insert(justErased.begin(), justErased.end());
    }
    // Column Slices, at the value they cut (a value's Slices are rewritten together). One rewrite per walk: it
    // erases Slices and the wide layer, which a list made beforehand could still name (a Slice of a Slice).
    while (true) {
      Value found;
      getOperation().walk([&](SliceOp slice) {
        if (columnSlice(slice) && canSliceColumns(slice.getInput())) {
          found = slice.getInput();
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
      if (!found)
        break;
      Operation *def = found.getDefiningOp();
      sliceColumnsOf(b, found);
      ++numCut;
      eraseDead(def);
    }
    // Reshapes left without users by the sinking
    SmallVector<ReshapeOp> reshapes;
    getOperation().walk([&](ReshapeOp reshape) { reshapes.push_back(reshape); });
    for (ReshapeOp reshape : reshapes)
      if (reshape->use_empty())
        eraseDead(reshape);
  }
};

} // namespace
