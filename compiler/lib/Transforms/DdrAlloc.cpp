//===- DdrAlloc.cpp - DDR addresses of the graph's tensors (tx8be-ddr-alloc) ===//
#include "tx8/Transforms/BufferAllocator.h"
#include "tx8/Transforms/ConstContainer.h"
#include "tx8/Transforms/Passes.h"

#include "tx8/Dialect/Tx8be/IR/HwConfig.h"

#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/MapVector.h"

namespace tx8be {
#define GEN_PASS_DEF_DDRALLOCPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

/// Bytes of the whole device image of `value`; nullopt (with an error on `at`) when they do not fit in 63 bits.
std::optional<uint64_t> imageBytes(Value value, const tx8_hw_config &hw, Operation *at) {
  auto type = cast<ShapedType>(value.getType());
  DeviceLayout layout = getDeviceLayout(value);
  std::optional<uint64_t> bytes = deviceImageBytes(toDeviceOrder(type.getShape(), layout.order),
                                                   type.getElementType(), layout.mode, tx8_hw_batch_align_bytes(&hw));
  if (!bytes || *bytes > uint64_t{INT64_MAX}) {
    at->emitError() << "the device image of a " << type << " has no 64-bit byte size";
    return std::nullopt;
  }
  return bytes;
}

/// Lays out the constant region: entry id at a bank multiple, in id order. Returns the region's size.
FailureOr<uint64_t> placeConstants(ModuleOp module, const tx8_hw_config &hw, SmallVectorImpl<int64_t> &addrs) {
  uint64_t bank = hw.ddr_bank_bytes;
  ConstContainer container(module);
  // Each entry's device image is that of the LoadConsts reading it (ConstNormPass made them agree).
  SmallVector<uint64_t> bytes(container.size(), 0);
  for (uint32_t id = 0; id < container.size(); ++id)
    bytes[id] = ConstContainer::byteSize(container.get(id));
  bool ok = true;
  module.walk([&](LoadConstOp load) {
    uint32_t id = load.getConstMapId();
    if (id >= container.size()) {
      load.emitError() << "const_map_id " << id << " is not in the constant container (" << container.size()
                       << " entries)";
      ok = false;
      return;
    }
    std::optional<uint64_t> image = imageBytes(load.getOutput(), hw, load);
    ok = ok && image;
    bytes[id] = std::max(bytes[id], image.value_or(0));
  });
  if (!ok)
    return failure();
  // Addresses are int64 (tx8be.const_addrs): every sum stays below 2^63.
  uint64_t offset = 0;
  for (uint64_t b : bytes) {
    addrs.push_back(static_cast<int64_t>(offset));
    if (b > uint64_t{INT64_MAX} - bank || __builtin_add_overflow(offset, alignTo(b, bank), &offset) ||
        offset > uint64_t{INT64_MAX}) {
      module.emitError() << "the constants need more than 2^63 bytes of DDR";
      return failure();
    }
  }
  return offset;
}

struct DdrAllocPass : tx8be::impl::DdrAllocPassBase<DdrAllocPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto func = module.lookupSymbol<func::FuncOp>("main");
    if (!func) {
      module.emitError() << "has no @main function to allocate";
      return signalPassFailure();
    }
    tx8_hw_config hw = getHwConfig(getOperation());
    uint64_t bank = hw.ddr_bank_bytes;
    MLIRContext *ctx = &getContext();

    SmallVector<int64_t> constAddrs;
    FailureOr<uint64_t> constBytes = placeConstants(module, hw, constAddrs);
    if (failed(constBytes))
      return signalPassFailure();

    // DDR tensors: @main's arguments and the Groups' results. A view Group (group_tag 2) result is its
    // operand's storage: `root` maps every tensor to the one that owns the bytes.
    llvm::MapVector<Value, BufferRequest> tensors;
    DenseMap<Value, Value> root;
    auto rootOf = [&](Value v) {
      while (root.count(v))
        v = root[v];
      return v;
    };
    Block &body = func.getBody().front();
    int64_t end = static_cast<int64_t>(body.getOperations().size()) + 1;
    bool ok = true;
    auto bytesOf = [&](Value v, Operation *at) {
      std::optional<uint64_t> bytes = imageBytes(v, hw, at);
      ok = ok && bytes;
      return bytes.value_or(0);
    };
    for (BlockArgument arg : body.getArguments())
      tensors[arg] = {0, 0, bytesOf(arg, func)};
    int64_t position = 1;
    for (Operation &op : body) {
      auto touch = [&](Value v) {
        Value r = rootOf(v);
        auto it = tensors.find(r);
        if (it != tensors.end())
          it->second.last = std::max(it->second.last, position);
      };
      if (auto group = dyn_cast<GroupOp>(op)) {
        for (Value in : group->getOperands())
          touch(in);
        bool view = group.getGroupTag().value_or(0) == 2;
        for (Value out : group->getResults()) {
          if (view && group->getNumOperands() >= 1 && isa<ShapedType>(group->getOperand(0).getType())) {
            root[out] = group->getOperand(0);
            touch(out);
          } else {
            tensors[out] = {position, position, bytesOf(out, group)};
          }
        }
      } else if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        // An output that is an input (or a view of one) is read back from the input's bytes, kept to the end;
        // one that is a constant, from the constant region (constOf).
        for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
          Value r = rootOf(v);
          if (r.getDefiningOp<LoadConstOp>())
            continue;
          auto it = tensors.find(r);
          if (it == tensors.end()) {
            ret.emitError() << "output " << i << " is neither a graph input, a constant nor a Group's result";
            ok = false;
            continue;
          }
          it->second.last = end;
        }
      } else if (!isa<LoadConstOp>(op)) {
        op.emitError() << "is outside any Group; run tx8be-group-optimization first";
        ok = false;
      }
      ++position;
    }
    if (!ok)
      return signalPassFailure();
    // Graph inputs are written before the first Group runs and must survive until their last reader.
    SmallVector<BufferRequest> requests;
    for (auto &[value, request] : tensors)
      requests.push_back(request);
    BufferPlan plan = allocateBuffers(requests, bank);
    uint64_t base = *constBytes;
    DenseMap<Value, int64_t> addr;
    for (auto [entry, offset] : llvm::zip(tensors, plan.offsets))
      addr[entry.first] = static_cast<int64_t>(base + offset);
    auto addrOf = [&](Value v) {
      Value r = rootOf(v);
      if (auto load = r.getDefiningOp<LoadConstOp>())
        return constAddrs[load.getConstMapId()];
      return addr.lookup(r);
    };

    auto i64 = IntegerType::get(ctx, 64);
    for (BlockArgument arg : body.getArguments())
      func.setArgAttr(arg.getArgNumber(), "tx8be.ddr_addr", IntegerAttr::get(i64, addrOf(arg)));
    for (Operation &op : body) {
      if (auto group = dyn_cast<GroupOp>(op)) {
        SmallVector<int64_t> addrs;
        for (Value out : group->getResults())
          addrs.push_back(addrOf(out));
        group->setAttr("tx8be.ddr_addrs", DenseI64ArrayAttr::get(ctx, addrs));
      } else if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        for (auto [i, v] : llvm::enumerate(ret.getOperands()))
          func.setResultAttr(i, "tx8be.ddr_addr", IntegerAttr::get(i64, addrOf(v)));
      }
    }
    uint64_t total = 0;
    if (__builtin_add_overflow(base, plan.totalBytes, &total))
      total = UINT64_MAX;
    if (total > hw.ddr_bytes) {
      module.emitError() << "needs " << total << " bytes of DDR, the chip has " << hw.ddr_bytes;
      return signalPassFailure();
    }
    module->setAttr("tx8be.const_addrs", DenseI64ArrayAttr::get(ctx, constAddrs));
    module->setAttr("tx8be.const_bytes", IntegerAttr::get(i64, *constBytes));
    module->setAttr("tx8be.ddr_bytes", IntegerAttr::get(i64, total));
  }
};

} // namespace
