//===- SpmAlloc.cpp - SPM addresses inside each Group (tx8be-spm-alloc) ----===//
#include "tx8/Transforms/BufferAllocator.h"
#include "tx8/Transforms/GroupPlan.h"
#include "tx8/Transforms/Passes.h"

#include "llvm/ADT/MapVector.h"

namespace tx8be {
#define GEN_PASS_DEF_SPMALLOCPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

/// A buffer of the group: the op whose result it is (null: the compute op's scratch), its request, and which of
/// the op's multi_buf buffers it is.
struct GroupBuffer {
  Operation *def;
  BufferRequest request;
  unsigned copy = 0;
  Operation *scratchOf = nullptr; ///< the op whose scratch it is (def null)
};

/// SPM bytes of the buffer `op` defines: a constant whole, a LoadBox its largest box, a chain op's result the
/// largest slice the chain's StoreBox writes (`store`).
FailureOr<uint64_t> bufferBytes(Operation *op, StoreBoxOp store, const tx8_hw_config &hw) {
  if (auto load = dyn_cast<LoadBoxOp>(op))
    return loadBoxBufferBytes(load, hw);
  Value result = op->getResult(0);
  if (isa<LoadConstOp>(op))
    return spmBoxBytes(result, cast<ShapedType>(result.getType()).getShape(), hw);
  if (!store)
    return op->emitOpError() << "result is not stored by a StoreBox; its SPM buffer has no size";
  uint64_t bytes = 0;
  for (int64_t k = 0; k < store.getBoxes().getCount(); ++k)
    bytes = std::max(bytes, spmBoxBytes(result, store.getBoxes().getBox(k).size, hw));
  return bytes;
}

/// Buffer lifetimes of one planned group, in program order with the Steps region's ops as one step: each SPM
/// value lives from its definition to its last use; one defined before the Steps and read inside lives to
/// the Steps' end (every step reads it again). With multi_buf 2, each value a step loads or stores has two
/// buffers, both live through the whole Steps (step i + 1 fills one while step i reads the other); an
/// intermediate result of the chain has one, live from its op to the next (the ops of a step run in order).
FailureOr<SmallVector<GroupBuffer>> collectBuffers(GroupOp group, StepsOp steps, Operation *compute,
                                                   const tx8_hw_config &hw) {
  SmallVector<Operation *, 4> chain = groupChain(compute);
  StoreBoxOp store = steps.getStoreOf(0); // the chain's last result: the group's one stored value
  DenseMap<Operation *, int64_t> position;
  int64_t index = 0;
  group.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) { position[op] = index++; });
  Operation *afterSteps = steps->getNextNode();
  int64_t stepsEnd = afterSteps ? position[afterSteps] : index;

  SmallVector<GroupBuffer> buffers;
  auto add = [&](Operation *op) -> LogicalResult {
    if (op->hasAttr("bypasscodegen"))
      return success(); // read in place from DDR
    FailureOr<uint64_t> bytes = bufferBytes(op, store, hw);
    if (failed(bytes))
      return failure();
    Value value = op->getResult(0);
    int64_t first = position[op], last = position[op];
    bool intermediate = llvm::is_contained(chain, op) && op != chain.back();
    auto loadBox = dyn_cast<LoadBoxOp>(op);
    bool once = loadBox && loadBox.getOnce(); // one buffer, filled before the first step
    bool perStep = steps->isProperAncestor(op) && !intermediate && !once;
    // A split reduction's output keeps its partial sum from one step to the next, and double buffers are
    // filled and read across steps: they live across the Steps.
    // The stored result of a chain too: the next step's loads, issued before its compute, must not land on it
    // while its store may still read it (its op runs after the loads' buffers are free).
    bool storedAfterTail = op == chain.back() && chain.size() > 1;
    if ((op == compute && steps.getReduceSteps() > 1) || (perStep && steps.getMultiBuf() > 1) || storedAfterTail ||
        once) {
      first = position[steps];
      last = stepsEnd;
    }
    for (Operation *user : value.getUsers()) {
      bool readEachStep = steps->isProperAncestor(user) && !steps->isProperAncestor(op);
      last = std::max(last, readEachStep ? stepsEnd : position[user]);
    }
    unsigned copies = perStep ? static_cast<unsigned>(steps.getMultiBuf()) : 1;
    for (unsigned c = 0; c < copies; ++c)
      buffers.push_back({op, {first, last, *bytes}, c});
    return success();
  };
  for (Operation &op : group.getBody().front())
    if (isa<LoadConstOp>(op) && failed(add(&op)))
      return failure();
  for (Operation &op : steps.getBody().front())
    if ((isa<LoadBoxOp>(op) || llvm::is_contained(chain, &op)) && failed(add(&op)))
      return failure();
  // Each op's scratch, while it runs.
  for (Operation *op : chain) {
    int64_t at = position[op];
    uint64_t imm = 0;
    if (auto oplib = dyn_cast<OpLibInterface>(op))
      imm = oplib.getImmSpSize(hw, steps.getSlice());
    buffers.push_back({nullptr, {at, at, imm}, 0, op});
  }
  return buffers;
}

struct SpmAllocPass : tx8be::impl::SpmAllocPassBase<SpmAllocPass> {
  using SpmAllocPassBase::SpmAllocPassBase;

  void runOnOperation() override {
    tx8_hw_config hw = getHwConfig(getOperation());
    uint64_t capacity = hw.spm_bytes, align = spmBufferAlign(hw);
    WalkResult walk = getOperation().walk([&](GroupOp group) {
      if (group.getGroupTag().value_or(0) == 2)
        return WalkResult::advance();
      StepsOp steps = getGroupSteps(group);
      if (!steps) {
        group.emitOpError() << "has no schedule (tx8be.Steps); run tx8be-group-cost first";
        return WalkResult::interrupt();
      }
      FailureOr<Operation *> compute = getGroupComputeOp(group);
      if (failed(compute))
        return WalkResult::interrupt();
      FailureOr<SmallVector<GroupBuffer>> collected = collectBuffers(group, steps, *compute, hw);
      if (failed(collected))
        return WalkResult::interrupt();
      SmallVector<GroupBuffer> &buffers = *collected;
      SmallVector<BufferRequest> requests;
      for (const GroupBuffer &b : buffers)
        requests.push_back(b.request);
      BufferPlan alloc = allocateBuffers(requests, align);
      if (alloc.totalBytes > capacity) {
        InFlightDiagnostic diag = group.emitError() << "needs " << alloc.totalBytes << " bytes of SPM, the tile has "
                                                    << capacity << ":";
        for (const GroupBuffer &b : buffers)
          diag << " " << (b.def ? b.def->getName().getStringRef() : StringRef("scratch")) << " "
               << b.request.bytes;
        return WalkResult::interrupt();
      }
      llvm::MapVector<Operation *, SmallVector<int64_t, 2>> addresses; // each op's buffers, in copy order
      for (auto [b, offset] : llvm::zip(buffers, alloc.offsets)) {
        if (!b.def) {
          b.scratchOf->setAttr("dev_info", withImm(getOrCreateDevInfo(b.scratchOf), b.request.bytes,
                                                   b.request.bytes ? static_cast<int64_t>(offset) : -1));
          continue;
        }
        addresses[b.def].push_back(static_cast<int64_t>(offset));
      }
      for (auto &[def, addrs] : addresses)
        def->setAttr("dev_info", withMemAddr(getOrCreateDevInfo(def), addrs));
      group.setSpmAllocSizeAttr(
          IntegerAttr::get(IntegerType::get(&getContext(), 32, IntegerType::Unsigned), alloc.totalBytes));
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
