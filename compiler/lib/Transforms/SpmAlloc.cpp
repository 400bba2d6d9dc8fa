//===- SpmAlloc.cpp - SPM addresses inside each Group (tx8be-spm-alloc) ----===//
#include "tx8/Transforms/BufferAllocator.h"
#include "tx8/Transforms/GroupPlan.h"
#include "tx8/Transforms/Passes.h"

namespace tx8be {
#define GEN_PASS_DEF_SPMALLOCPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

/// A buffer of the group: the op whose result it is (null: the compute op's scratch) and its request.
struct GroupBuffer {
  Operation *def;
  BufferRequest request;
};

/// Buffer lifetimes of one group: each SPM value from its definition to its last use inside the body.
SmallVector<GroupBuffer> collectBuffers(GroupOp group, const GroupPlan &plan) {
  DenseMap<Operation *, int64_t> position;
  int64_t index = 0;
  for (Operation &op : group.getBody().front())
    position[&op] = index++;

  SmallVector<GroupBuffer> buffers;
  for (Operation &op : group.getBody().front()) {
    if (isa<StoreVarOp, ReturnOp>(op) || op.getNumResults() != 1)
      continue; // a StoreVar's result is the DDR tensor
    if (op.hasAttr("bypasscodegen"))
      continue; // read in place from DDR
    uint64_t bytes = 0;
    if (&op == plan.compute)
      bytes = plan.resultBytes;
    for (OpOperand &use : op.getResult(0).getUses())
      if (use.getOwner() == plan.compute)
        bytes = std::max(bytes, plan.operandBytes[use.getOperandNumber()]);
    int64_t last = position[&op];
    for (Operation *user : op.getResult(0).getUsers())
      if (!isa<ReturnOp>(user))
        last = std::max(last, position[user]);
    buffers.push_back({&op, {position[&op], last, bytes}});
  }
  int64_t at = position[plan.compute];
  buffers.push_back({nullptr, {at, at, plan.immBytes}});
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
      FailureOr<Operation *> compute = getGroupComputeOp(group);
      if (failed(compute))
        return WalkResult::interrupt();
      GroupPlan plan = planGroup(*compute, hw);
      SmallVector<GroupBuffer> buffers = collectBuffers(group, plan);
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
      for (auto [b, offset] : llvm::zip(buffers, alloc.offsets)) {
        if (!b.def) {
          (*compute)->setAttr("dev_info", withImm(getOrCreateDevInfo(*compute), b.request.bytes,
                                                  b.request.bytes ? static_cast<int64_t>(offset) : -1));
          continue;
        }
        b.def->setAttr("dev_info", withMemAddr(getOrCreateDevInfo(b.def), {static_cast<int64_t>(offset)}));
      }
      group.setSpmAllocSizeAttr(
          IntegerAttr::get(IntegerType::get(&getContext(), 32, IntegerType::Unsigned), alloc.totalBytes));
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
