//===- EmitMain.cpp - main.c: load -> compute -> store per Group step ------===//
//
// One static function per Group. Constants are loaded once; then, per temporal step of the GroupPlan, each
// LoadVar copies its box of the DDR tensor into SPM, the op runs on SPM through its genOpCode call, and the
// StoreVar writes the output slice back. The boxes, OpLib view shapes and border pads of every step are
// computed here (from GroupPlan) and emitted as const tables, so the C loop body stays small and the plan
// the passes made is the plan that runs.
//
//===----------------------------------------------------------------------===//
#include "CodegenUtils.h"

#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"
#include "tx8/Transforms/GroupPlan.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tx8be;
using namespace tx8::codegen;

namespace {

std::string ints(ArrayRef<int64_t> values) {
  std::string s = "{";
  for (auto [i, v] : llvm::enumerate(values))
    s += (i ? ", " : "") + std::to_string(v);
  return s + "}";
}

/// A tensor the group function touches: its C name and how it is described.
struct CTensor {
  std::string name;   ///< C identifier of the TSR
  std::string format; ///< Fmt_*
  uint64_t addr = 0;
};

class GroupEmitter {
public:
  GroupEmitter(GroupOp group, unsigned index, raw_ostream &os) : group(group), index(index), os(os) {}

  LogicalResult emit();

private:
  LogicalResult emitViewGroup();
  std::string box(const TensorBox &b, Value value);

  GroupOp group;
  unsigned index;
  raw_ostream &os;
};

std::string GroupEmitter::box(const TensorBox &b, Value value) {
  DeviceLayout layout = getDeviceLayout(value);
  return "{" + ints(toDeviceOrder(b.start, layout.order)) + ", " + ints(toDeviceOrder(b.size, layout.order)) + "}";
}

/// The whole device-order shape of `value`.
SmallVector<int64_t, 6> deviceShapeOf(Value value) {
  return toDeviceOrder(cast<ShapedType>(value.getType()).getShape(), getDeviceLayout(value).order);
}

std::string layoutName(Value value) { return tx8be::layoutModeCName(getDeviceLayout(value).mode); }

LogicalResult GroupEmitter::emitViewGroup() {
  // A DDR view (Reshape): the DDR allocator gave the result its operand's bytes; nothing runs.
  os << "/* ---- group " << index << ": " << opSummary(&group.getBody().front().front())
     << "\n *      a view of its operand's bytes in DDR: nothing to run ---- */\n";
  os << "static uint64_t group_" << index << "(void) { return 0; }\n\n";
  return success();
}

LogicalResult GroupEmitter::emit() {
  if (group.getGroupTag().value_or(0) == 2)
    return emitViewGroup();
  // Every step runs on tile 0 until the schedule says which tile runs which shard: refuse a plan for more.
  if (RegionAttr region = group.getDevRegionAttr(); region && region.getXDim() * region.getYDim() > 1)
    return group.emitOpError() << "is mapped to " << region.getXDim() << "x" << region.getYDim()
                             << " tiles (dev_region); codegen runs a group on one tile until multi-tile "
                                "schedules land: compile with tx8be.tile_dx = tx8be.tile_dy = 1";
  FailureOr<Operation *> computeOr = getGroupComputeOp(group);
  if (failed(computeOr))
    return failure();
  Operation *compute = *computeOr;
  GroupPlan plan = planGroup(compute, getHwConfig(group));
  size_t steps = plan.steps.size();

  os << "/* ---- group " << index << ": " << opSummary(compute) << "\n";
  os << " *      " << steps << (steps == 1 ? " step" : " steps") << ", output slice " << ints(plan.slice)
     << " (logical dims), SPM " << group.getSpmAllocSize().value_or(0) << " bytes ---- */\n";
  os << "static uint64_t group_" << index << "(void) {\n";
  os << "    uint64_t cycles = 0;\n";

  // Every SPM / DDR tensor the op reads or writes, by its value.
  DenseMap<Value, CTensor> spm;
  std::string body; // per-step statements
  std::string once; // statements before the loop
  llvm::raw_string_ostream bodyOs(body), onceOs(once);
  std::string tables;
  llvm::raw_string_ostream tablesOs(tables);
  auto ddrAddr = [&](Value groupOperand) -> FailureOr<uint64_t> {
    return ddrAddressOf(groupOperand, group);
  };

  Block &block = group.getBody().front();
  unsigned counter = 0;
  for (Operation &op : block) {
    if (isa<ReturnOp>(op) || &op == compute)
      continue;
    std::string n = "t" + std::to_string(counter++);
    Value result = op.getResult(0);
    auto fmt = formatName(result.getType());
    if (!fmt)
      return op.emitOpError() << "has an element type with no device format";
    auto dev = op.getAttrOfType<DevAttr>("dev_info");
    if (auto load = dyn_cast<LoadConstOp>(op)) {
      uint64_t ddr = 0;
      if (failed(constAddressOf(load, ddr)))
        return failure();
      SmallVector<int64_t, 6> whole = deviceShapeOf(result);
      if (load->hasAttr("bypasscodegen")) { // read in place
        onceOs << "    static const int32_t " << n << "_shape[" << whole.size() << "] = " << ints(whole) << ";\n";
        onceOs << "    L_SHAPE " << n << "_s;\n    tx8_lshape_init(&" << n << "_s, " << n << "_shape, " << whole.size()
               << ");\n";
        onceOs << "    TSR " << n << " = {" << *fmt << ", " << hex(ddr) << ", &" << n << "_s}; /* DDR, in place */\n";
        spm[result] = {n, *fmt, ddr};
        continue;
      }
      if (!dev || dev.getMemAddr().empty())
        return op.emitError() << "has no SPM address; run tx8be-spm-alloc first";
      uint64_t addr = static_cast<uint64_t>(dev.getMemAddr()[0]);
      onceOs << "    /* constant " << load.getConstMapId() << " " << commentText(locName(op.getLoc())) << ": "
             << ints(cast<ShapedType>(result.getType()).getShape()) << " "
             << (getDeviceLayout(result).isIdentityOrder() ? "row-major" : commentText(getLayoutStr(&op)))
             << " */\n";
      onceOs << "    static const int32_t " << n << "_shape[" << whole.size() << "] = " << ints(whole) << ";\n";
      onceOs << "    L_SHAPE " << n << "_ds;\n    tx8_lshape_init(&" << n << "_ds, " << n << "_shape, " << whole.size()
             << ");\n";
      onceOs << "    TSR " << n << "_ddr = {" << *fmt << ", " << hex(ddr) << ", &" << n << "_ds};\n";
      onceOs << "    TSR " << n << "_spm = {" << *fmt << ", " << hex(addr) << ", NULL};\n";
      onceOs << "    LOAD_PARAM " << n << "_ld = {" << layoutName(result) << "};\n";
      onceOs << "    cycles = ADD_VALID_CYCLE(cycles, op_loadConst(&" << n << "_ld, &" << n << "_ddr, &" << n
             << "_spm));\n";
      spm[result] = {n, *fmt, addr};
      continue;
    }
    if (isa<LoadVarOp>(op)) {
      if (!dev || dev.getMemAddr().empty())
        return op.emitError() << "has no SPM address; run tx8be-spm-alloc first";
      uint64_t addr = static_cast<uint64_t>(dev.getMemAddr()[0]);
      auto arg = dyn_cast<BlockArgument>(op.getOperand(0));
      if (!arg)
        return op.emitError() << "loads a value that is not a Group input";
      FailureOr<uint64_t> ddr = ddrAddr(group->getOperand(arg.getArgNumber()));
      if (failed(ddr))
        return failure();
      // The box this step reads: the compute op's operand box (all uses share it).
      int64_t operandIndex = -1;
      for (OpOperand &use : result.getUses())
        if (use.getOwner() == compute)
          operandIndex = use.getOperandNumber();
      if (operandIndex < 0)
        return op.emitError() << "is not read by the group's compute op";
      SmallVector<int64_t, 6> whole = deviceShapeOf(result);
      tablesOs << "    static const int32_t " << n << "_whole[" << whole.size() << "] = " << ints(whole) << ";\n";
      tablesOs << "    static const tx8_box " << n << "_box[" << steps << "] = {";
      for (auto [s, step] : llvm::enumerate(plan.steps))
        tablesOs << (s ? ", " : "") << box(step.operands[operandIndex], result);
      tablesOs << "};\n";
      onceOs << "    L_SHAPE " << n << "_ds;\n";
      onceOs << "    TSR " << n << "_ddr = {" << *fmt << ", " << hex(*ddr) << ", &" << n << "_ds};\n";
      onceOs << "    TSR " << n << "_spm = {" << *fmt << ", " << hex(addr) << ", NULL};\n";
      onceOs << "    LOAD_PARAM " << n << "_ld = {" << layoutName(result) << "};\n";
      bodyOs << "        tx8_lshape_box(&" << n << "_ds, " << n << "_whole, " << whole.size() << ", &" << n
             << "_box[s]);\n";
      bodyOs << "        cycles = ADD_VALID_CYCLE(cycles, op_loadVar(&" << n << "_ld, &" << n << "_ddr, &" << n
             << "_spm));\n";
      spm[result] = {n, *fmt, addr};
      continue;
    }
    if (isa<StoreVarOp>(op))
      continue; // after the compute op, below
    return op.emitError() << "is not a load or store next to the group's compute op";
  }

  // The compute op: its TSRs carry the OpLib view of this step's boxes.
  auto computeDev = compute->getAttrOfType<DevAttr>("dev_info");
  if (!computeDev || computeDev.getMemAddr().empty())
    return compute->emitError() << "has no SPM address; run tx8be-spm-alloc first";
  OpCall call;
  auto oplib = dyn_cast<OpLibInterface>(compute);
  if (!oplib)
    return compute->emitOpError() << "has no OpLib kernel";
  if (failed(oplib.genOpCode(call)))
    return failure();
  CallSite site;
  auto viewTable = [&](const std::string &name, unsigned tensorIndex, Value value, auto boxOf) {
    DeviceLayout layout = getDeviceLayout(value);
    size_t rank = 0;
    std::string rows;
    for (auto [s, step] : llvm::enumerate(plan.steps)) {
      SmallVector<int64_t> view =
          tx8be::detail::opLibViewShape(compute, tensorIndex, toDeviceOrder(boxOf(step).size, layout.order));
      rank = view.size();
      rows += (s ? ", " : "") + ints(view);
    }
    tablesOs << "    static const int32_t " << name << "_view[" << steps << "][" << rank << "] = {" << rows
             << "};\n";
    onceOs << "    L_SHAPE " << name << "_vs;\n";
    bodyOs << "        tx8_lshape_init(&" << name << "_vs, " << name << "_view[s], " << rank << ");\n";
  };
  for (auto [k, operand] : llvm::enumerate(compute->getOperands())) {
    auto it = spm.find(operand);
    if (it == spm.end())
      return compute->emitError() << "reads operand " << k << " that no load in its group provides";
    std::string v = "in" + std::to_string(k);
    viewTable(v, k, operand, [&](const GroupStep &step) -> const TensorBox & { return step.operands[k]; });
    onceOs << "    TSR " << v << " = {" << it->second.format << ", " << hex(it->second.addr) << ", &" << v
           << "_vs};\n";
    site.operands.push_back("&" + v);
  }
  Value result = compute->getResult(0);
  auto outFmt = formatName(result.getType());
  if (!outFmt)
    return compute->emitError() << "has a result type with no device format";
  uint64_t outAddr = static_cast<uint64_t>(computeDev.getMemAddr()[0]);
  viewTable("out", compute->getNumOperands(), result,
            [&](const GroupStep &step) -> const TensorBox & { return step.result; });
  onceOs << "    TSR out = {" << *outFmt << ", " << hex(outAddr) << ", &out_vs};\n";
  site.results.push_back("&out");
  if (computeDev.getImmSize() > 0) {
    onceOs << "    static const int32_t imm_shape[1] = {" << computeDev.getImmSize() << "};\n";
    onceOs << "    L_SHAPE imm_s;\n    tx8_lshape_init(&imm_s, imm_shape, 1);\n";
    onceOs << "    TSR imm = {Fmt_INT8, " << hex(static_cast<uint64_t>(computeDev.getImmAddr())) << ", &imm_s};\n";
    site.imm = "&imm";
  }
  if (call.usesStepPads()) {
    int64_t rank = cast<ShapedType>(compute->getOperand(0).getType()).getRank();
    tablesOs << "    static const int32_t pads[" << steps << "][4] = {"; // top, left, bottom, right
    for (auto [s, step] : llvm::enumerate(plan.steps)) {
      const TensorBox &in = step.operands[0];
      SmallVector<int64_t> p = rank == 4 ? SmallVector<int64_t>{in.padLow[2], in.padLow[3], in.padHigh[2], in.padHigh[3]}
                                         : SmallVector<int64_t>{0, in.padLow[2], 0, in.padHigh[2]};
      tablesOs << (s ? ", " : "") << ints(p);
    }
    tablesOs << "};\n";
    site.pads = "pads[s]";
  }
  if (failed(printOpCall(compute, call, site, "        ", bodyOs)))
    return failure();

  // Stores of the output slice.
  for (Operation &op : block) {
    auto store = dyn_cast<StoreVarOp>(op);
    if (!store)
      continue;
    unsigned resultIndex = 0;
    for (OpOperand &use : store.getOutput().getUses())
      if (isa<ReturnOp>(use.getOwner()))
        resultIndex = use.getOperandNumber();
    FailureOr<uint64_t> ddr = groupResultAddress(group, resultIndex);
    if (failed(ddr))
      return failure();
    SmallVector<int64_t, 6> whole = deviceShapeOf(result);
    tablesOs << "    static const int32_t y_whole[" << whole.size() << "] = " << ints(whole) << ";\n";
    tablesOs << "    static const tx8_box y_box[" << steps << "] = {";
    for (auto [s, step] : llvm::enumerate(plan.steps))
      tablesOs << (s ? ", " : "") << box(step.result, result);
    tablesOs << "};\n";
    onceOs << "    L_SHAPE y_ds;\n";
    onceOs << "    TSR y_ddr = {" << *outFmt << ", " << hex(*ddr) << ", &y_ds};\n";
    onceOs << "    TSR y_spm = {" << *outFmt << ", " << hex(outAddr) << ", NULL};\n";
    onceOs << "    STORE_PARAM y_st = {" << layoutName(result) << "};\n";
    bodyOs << "        tx8_lshape_box(&y_ds, y_whole, " << whole.size() << ", &y_box[s]);\n";
    bodyOs << "        cycles = ADD_VALID_CYCLE(cycles, op_dma_store(&y_st, &y_spm, &y_ddr));\n";
  }

  os << tables << once;
  os << "    for (int32_t s = 0; s < " << steps << "; ++s) {\n" << body << "    }\n";
  os << "    return cycles;\n}\n\n";
  return success();
}

} // namespace

LogicalResult tx8::codegen::emitGroups(func::FuncOp func, raw_ostream &os, unsigned &groupCount) {
  groupCount = 0;
  for (Operation &op : func.getBody().front()) {
    auto group = dyn_cast<GroupOp>(op);
    if (!group)
      continue;
    if (failed(GroupEmitter(group, groupCount++, os).emit()))
      return failure();
  }
  return success();
}
