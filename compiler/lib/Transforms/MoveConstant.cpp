//===- MoveConstant.cpp - Constants into the ConstContainer (tx8be-move-constant) ===//
#include "tx8/Transforms/ConstContainer.h"
#include "tx8/Transforms/Passes.h"

#include "tx8/Dialect/Tx8be/IR/HwConfig.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tx8be {
#define GEN_PASS_DEF_MOVECONSTANTPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

/// Seed ConstantToLoadConst: the constant's data goes to the container; each use gets its own LoadConst.
struct ConstantToLoadConst : OpRewritePattern<ConstantOp> {
  ConstantToLoadConst(MLIRContext *ctx, ConstContainer &container)
      : OpRewritePattern<ConstantOp>(ctx), container(container) {}

  LogicalResult matchAndRewrite(ConstantOp op, PatternRewriter &rewriter) const override {
    uint32_t id = container.add(cast<ElementsAttr>(op.getValue()));
    for (OpOperand &use : llvm::make_early_inc_range(op.getOutput().getUses())) {
      // Does this user load it? (A user without OpLib properties, e.g. func.return, reads it from DDR.) Decided
      // per use, each with its own LoadConst: an embedding table op_gather_rows reads in place stays in DDR even
      // when another op (a tied output projection) loads boxes of it.
      auto lib = dyn_cast<OpLibInterface>(use.getOwner());
      bool needLoad = lib && lib.queryOpAttr().loads(use.getOperandNumber());
      rewriter.setInsertionPoint(use.getOwner());
      auto load = rewriter.create<LoadConstOp>(op.getLoc(), TypeRange{op.getOutput().getType()}, ValueRange{},
                                               ArrayRef<NamedAttribute>{rewriter.getNamedAttr(
                                                   "const_map_id", rewriter.getUI32IntegerAttr(id))});
      load->setAttr("layout_str", op.getLayoutStrAttr());
      if (!needLoad)
        load->setAttr("bypasscodegen", rewriter.getBoolAttr(true));
      rewriter.modifyOpInPlace(use.getOwner(), [&] { use.set(load.getOutput()); });
    }
    rewriter.eraseOp(op);
    return success();
  }

  ConstContainer &container;
};

struct MoveConstantPass : tx8be::impl::MoveConstantPassBase<MoveConstantPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    ConstContainer container(module);
    // Dead ops go first (nothing computes what nothing reads, and a dead constant takes no entry); then each
    // constant in program order (ids in first-use order). Not through the greedy driver: its folder would merge
    // equal constants into one before the pattern sees them, and with it their layout_str (a conv's weight that is
    // also a graph output lives in two layouts: tx8be-layout-align-opt made a HWIO copy of it).
    ConstantToLoadConst pattern(&getContext(), container);
    PatternRewriter rewriter(&getContext());
    for (auto func : module.getOps<func::FuncOp>()) {
      SmallVector<Operation *> ops;
      func.walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (op != func.getOperation())
          ops.push_back(op);
      });
      for (Operation *op : llvm::reverse(ops)) // readers before what they read
        if (isOpTriviallyDead(op))
          op->erase();
      SmallVector<ConstantOp> constants;
      func.walk<WalkOrder::PreOrder>([&](ConstantOp op) { constants.push_back(op); });
      for (ConstantOp op : constants)
        if (failed(pattern.matchAndRewrite(op, rewriter)))
          return signalPassFailure();
    }
    // updateConstContainer: constants above DDR_BANK_SIZE (bank bytes x tiles) first.
    uint64_t threshold = uint64_t{getHwConfig(module).ddr_bank_bytes} * getTileInfo(module).tileNum();
    auto newId = container.reorderBySize(threshold);
    module.walk([&](LoadConstOp load) {
      load.setConstMapIdAttr(
          Builder(load).getUI32IntegerAttr(newId.lookup(static_cast<uint32_t>(load.getConstMapId()))));
    });
    container.save();
  }
};

} // namespace
