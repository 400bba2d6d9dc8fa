//===- EmitMain.cpp - main.c's group functions, printed from the schedule IR -===//
//
// One static function per Group, printed op by op from its schedule (Tx8beScheduleOps.td): the LoadConsts
// before the Steps load once; the Steps become a C loop over the steps, whose body has one statement group
// per op of the Steps region (LoadBox -> op_loadVar of this step's box, the compute op -> its OpLib call
// (genOpCode's OpCall, printed by printOpCall), StoreBox -> op_dma_store); a Barrier -> tx8_hal_barrier().
// The per-step values of the box tables (boxes in device order, OpLib view shapes, border pads) become const
// tables indexed by the step, so the loop body stays small and the plan the passes made is the plan that
// runs. Nothing here decides anything: every value printed is read from an op.
//
// Every compute call is checked before it is printed: at every step of every tile, the TSRs the loop builds (format,
// this step's buffer address, the L_SHAPE of the view table's row) and the *_PARAM of the OpCall go through OpLib's
// own check of the kernel (checkKernelCall, tx8/check.h). A call the kernel would fault on is an error naming the
// node, the op, the tile, the step and the kernel's reason: such a plan never becomes a bundle.
//
// A Steps with sp_stage_num 1 prints the synchronous loop: the HAL's DMA calls complete before they return, so a
// tx8be.Wait prints nothing. A pipelined one (tx8be-sw-pipeline) issues its copies asynchronously
// (op_loadVar_async / op_dma_store_async, one token array per buffer) and waits where the schedule says: the
// loads of a step before its compute, a buffer's last store before the compute writes it again; with
// sp_stage_num 3 the loop issues the loads of step s + 1 before the compute of step s. On more than one tile
// every tile runs the group function: a table gives each tile its range of rows of the box tables, and a
// tile with none goes straight to the barrier.
//
//===----------------------------------------------------------------------===//
#include "CodegenUtils.h"

#include "tx8/Dialect/Tx8be/IR/ColumnBlocks.h"
#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"
#include "tx8/Dialect/Tx8be/IR/KernelContract.h"
#include "tx8/Transforms/GroupPlan.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tx8be;
using namespace tx8::codegen;

namespace {

/// `text` with `indent` before every line.
std::string indentBy(const std::string &text, const std::string &indent) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    end = end == std::string::npos ? text.size() : end + 1;
    out += indent + text.substr(start, end - start);
    start = end;
  }
  return out;
}

std::string ints(ArrayRef<int64_t> values) {
  std::string s = "{";
  for (auto [i, v] : llvm::enumerate(values))
    s += (i ? ", " : "") + std::to_string(v);
  return s + "}";
}

/// `shape` (logical dims) in device order, as the C side takes it: a rank-0 value is one element of rank 1 (an
/// L_SHAPE has 1 to MAX_SHAPE_DIM dims).
SmallVector<int64_t, 6> deviceDims(ArrayRef<int64_t> shape, const DeviceLayout &layout) {
  if (shape.empty())
    return {1};
  return toDeviceOrder(shape, layout.order);
}

/// The whole device-order shape of `value`.
SmallVector<int64_t, 6> deviceShapeOf(Value value) {
  return deviceDims(cast<ShapedType>(value.getType()).getShape(), getDeviceLayout(value));
}

std::string layoutName(Value value) { return tx8be::layoutModeCName(getDeviceLayout(value).mode); }

/// A tensor in SPM (or read in place in DDR) that the compute op reads or writes.
struct CTensor {
  std::string name;   ///< C identifier of its TSR
  std::string format; ///< Fmt_*
  uint64_t addr = 0;
  BoxTableAttr boxes; ///< the box it holds at each step (a LoadBox's); null: the whole tensor, every step
  std::string addrs;  ///< C array of its buffers' addresses when it has more than one (multi_buf)
  Data_Format fmt = Fmt_FP32;        ///< `format` as OpLib's enum (the contract checks)
  SmallVector<uint64_t, 2> addrList; ///< the values of `addrs`, by buffer
};

/// A TSR of a compute call, step by step: its tensor and its view table's rows.
struct CallTensor {
  CTensor tensor;
  Data_Format format = Fmt_FP32; ///< as the call passes it (tf32 for the NE's inputs)
  std::vector<SmallVector<int64_t>> views;
};

/// The text of one group function, in the order C wants it.
struct GroupText {
  std::string tables;  ///< static const per-step tables
  std::string shared;  ///< before the tiles part: the loads every tile shares (LoadBox once, multicast)
  std::string once;    ///< declarations and the loads before the loop
  std::string load;    ///< the loop body's loads of step `l` (pipelined; synchronous ones are in `compute`)
  std::string compute; ///< the loop body's compute of step `s` (with its loads and stores when synchronous)
  std::string store;   ///< the loop body's stores of step `s` (pipelined)
  std::string after;   ///< after the loop (barriers)
  unsigned loads = 0, stores = 0; ///< asynchronous copies per step (token slots)
  unsigned multicasts = 0;        ///< LoadBox multicast per step: the tiles run the steps in lockstep
  bool prefetched = false;        ///< a LoadBox the previous group copied: waited for before the steps
};

/// A LoadBox another group prefetches (tx8be-prefetch-weights) and the index of its group.
struct Prefetch {
  LoadBoxOp load;
  unsigned group;
};

class GroupPrinter {
public:
  GroupPrinter(GroupOp group, unsigned index, bool isStatic, ArrayRef<Prefetch> prefetches, raw_ostream &os)
      : group(group), index(index), isStatic(isStatic), prefetches(prefetches), os(os) {}

  LogicalResult print();

private:
  LogicalResult printView();
  LogicalResult printLoadConst(LoadConstOp load);
  LogicalResult printSteps(StepsOp steps, Operation *compute);
  LogicalResult printLoadBox(LoadBoxOp load);
  /// The copy of a later group's prefetched LoadBox, issued by every tile with a box of it.
  LogicalResult printPrefetch(const Prefetch &prefetch, unsigned k, std::string &out);
  /// The per-step copy of a LoadBox multicast `n` (its DDR and SPM TSRs printed): its leader's DTE multicast.
  LogicalResult printMulticast(LoadBoxOp load, const std::string &n, ArrayRef<int64_t> leaders,
                               const std::string &addrTable, size_t rank);
  /// Op `position` of the group's chain (0: the anchor); `last`: its result is the one stored, by `store`.
  LogicalResult printCompute(Operation *compute, StepsOp steps, unsigned position, bool last, StoreBoxOp store);
  LogicalResult printStoreBox(StoreBoxOp store);
  /// `name`_view[count][rank]: the OpLib view of tensor `tensorIndex` of `compute` at each step; returns the rows.
  std::vector<SmallVector<int64_t>> printViewTable(const std::string &name, Operation *compute, unsigned tensorIndex,
                                                   Value value, BoxTableAttr boxes, int64_t count);
  /// OpLib's contract of `call` (the op at `position` of the chain) at every step of every tile: the TSRs main.c
  /// builds from `operands`, `result`, `imm` and the step's `pads`; an error on `compute` if the kernel would fault.
  LogicalResult checkCall(Operation *compute, const OpCall &call, StepsOp steps, unsigned position,
                          ArrayRef<CallTensor> operands, const CallTensor &result, std::optional<KernelTensor> imm,
                          ArrayRef<std::array<int64_t, 4>> pads);
  std::string nextName() { return "t" + std::to_string(counter++); }
  bool pipelined() const { return stages > 1; }
  /// The SPM address of `op`'s buffer(s): one, or a C table of multi_buf addresses named `name`_addr (their values
  /// in `list`).
  FailureOr<uint64_t> bufferAddresses(Operation *op, const std::string &name, std::string &table,
                                      SmallVector<uint64_t, 2> &list);
  void printLoop(StepsOp steps, llvm::raw_ostream &os);

  GroupOp group;
  unsigned index;
  bool isStatic;
  ArrayRef<Prefetch> prefetches; ///< the later groups' boxes this group copies
  raw_ostream &os;
  GroupText text;
  DenseMap<Value, CTensor> tensors;
  unsigned counter = 0;
  int64_t stages = 1, buffers = 1;
};

/// The SPM address the allocator gave the buffer `op` defines.
FailureOr<uint64_t> spmAddressOf(Operation *op) {
  auto dev = op->getAttrOfType<DevAttr>("dev_info");
  if (!dev || dev.getMemAddr().empty())
    return op->emitOpError() << "has no SPM address; run tx8be-spm-alloc first";
  return static_cast<uint64_t>(dev.getMemAddr()[0]);
}

FailureOr<uint64_t> GroupPrinter::bufferAddresses(Operation *op, const std::string &name, std::string &table,
                                                   SmallVector<uint64_t, 2> &list) {
  FailureOr<uint64_t> first = spmAddressOf(op);
  if (failed(first))
    return failure();
  ArrayRef<int64_t> addrs = op->getAttrOfType<DevAttr>("dev_info").getMemAddr();
  // An intermediate result of a chain has one buffer whatever the Steps' multi_buf.
  if (pipelined() && buffers > 1 && op->getParentOfType<StepsOp>() && addrs.size() != 1) {
    if (static_cast<int64_t>(addrs.size()) != buffers)
      return op->emitOpError() << "has " << addrs.size() << " SPM addresses, its Steps multi_buf " << buffers;
    std::string values;
    for (auto [i, a] : llvm::enumerate(addrs)) {
      values += (i ? ", " : "") + hex(static_cast<uint64_t>(a));
      list.push_back(static_cast<uint64_t>(a));
    }
    text.tables += "    static const uint64_t " + name + "_addr[" + std::to_string(buffers) + "] = {" + values + "};\n";
    table = name + "_addr";
  }
  return first;
}

/// Step k's box of `value` (logical dims) as a C tx8_box in device order.
std::string boxLiteral(const TensorBox &box, Value value, int64_t columnBlock = 0) {
  DeviceLayout layout = getDeviceLayout(value);
  if (box.size.empty()) // rank 0: the one element
    return "{{0}, {1}}";
  if (columnBlock) { // a box of a constant stored in column blocks (identity order): its block's image
    TensorBox blocked = columnBlockedBox(box, columnBlock);
    return "{" + ints(blocked.start) + ", " + ints(blocked.size) + "}";
  }
  return "{" + ints(toDeviceOrder(box.start, layout.order)) + ", " + ints(toDeviceOrder(box.size, layout.order)) +
         "}";
}

/// The box of `value` at each of the `count` steps (a rank-0 table has no rows: the one element every step).
std::string boxTable(const std::string &name, BoxTableAttr boxes, Value value, int64_t count,
                     int64_t columnBlock = 0) {
  std::string s = "    static const tx8_box " + name + "[" + std::to_string(count) + "] = {";
  for (int64_t k = 0; k < count; ++k)
    s += (k ? ", " : "") + boxLiteral(boxes.getRank() == 0 ? TensorBox{} : boxes.getBox(k), value, columnBlock);
  return s + "};\n";
}

/// A table of the same rank and rows as `boxes`, row k `row(k)` (a transposed copy's other side).
BoxTableAttr mapBoxes(BoxTableAttr boxes, llvm::function_ref<TensorBox(int64_t)> row) {
  SmallVector<TensorBox> rows;
  for (int64_t k = 0; k < boxes.getCount(); ++k)
    rows.push_back(row(k));
  return BoxTableAttr::get(boxes.getContext(), boxes.getRank(), rows);
}

/// The column block of the constant a LoadBox reads (tx8be-block-weights), 0 when it is stored row by row, and
/// the shape codegen addresses the constant's image with.
std::pair<int64_t, SmallVector<int64_t, 6>> loadBoxImage(LoadBoxOp load) {
  SmallVector<int64_t, 6> whole = deviceShapeOf(load.getOutput());
  auto constant = load.getSource().getDefiningOp<LoadConstOp>();
  if (!constant || !constant.getColumnBlock())
    return {0, whole};
  int64_t w = *constant.getColumnBlock();
  return {w, columnBlockedShape(whole, w)};
}

LogicalResult GroupPrinter::printView() {
  // A DDR view (Reshape): the DDR allocator gave the result its operand's bytes; nothing runs.
  os << "/* ---- group " << index << ": " << opSummary(&group.getBody().front().front())
     << "\n *      a view of its operand's bytes in DDR: nothing to run ---- */\n";
  os << (isStatic ? "static " : "") << "uint64_t group_" << index << "(void) { return 0; }\n\n";
  return success();
}

LogicalResult GroupPrinter::printLoadConst(LoadConstOp load) {
  Value result = load.getOutput();
  auto fmt = formatName(result.getType());
  std::optional<Data_Format> dfmt = tx8be::detail::dataFormatOf(result.getType());
  if (!fmt || !dfmt)
    return load.emitOpError() << "has an element type with no device format";
  uint64_t ddr = 0;
  if (failed(constAddressOf(load, ddr)))
    return failure();
  std::string n = nextName();
  SmallVector<int64_t, 6> whole = deviceShapeOf(result);
  llvm::raw_string_ostream once(text.once);
  bool loadedByBoxes = !load->use_empty() && llvm::all_of(load->getUsers(), [](Operation *user) {
    return isa<LoadBoxOp>(user);
  });
  if (load->hasAttr("bypasscodegen") && loadedByBoxes) { // each step loads its box (printLoadBox)
    once << "    /* constant " << load.getConstMapId() << " " << commentText(locName(load.getLoc())) << ": "
         << ints(cast<ShapedType>(result.getType()).getShape()) << " at DDR " << hex(ddr)
         << ", loaded per step */\n";
    return success();
  }
  if (load->hasAttr("bypasscodegen")) { // read in place
    once << "    static const int32_t " << n << "_shape[" << whole.size() << "] = " << ints(whole) << ";\n";
    once << "    L_SHAPE " << n << "_s;\n    tx8_lshape_init(&" << n << "_s, " << n << "_shape, " << whole.size()
         << ");\n";
    once << "    TSR " << n << " = {" << *fmt << ", " << hex(ddr) << ", &" << n << "_s}; /* DDR, in place */\n";
    tensors[result] = {n, *fmt, ddr, {}, {}, *dfmt, {}};
    return success();
  }
  FailureOr<uint64_t> addr = spmAddressOf(load);
  if (failed(addr))
    return failure();
  once << "    /* constant " << load.getConstMapId() << " " << commentText(locName(load.getLoc())) << ": "
       << ints(cast<ShapedType>(result.getType()).getShape()) << " "
       << (getDeviceLayout(result).isIdentityOrder() ? "row-major" : commentText(getLayoutStr(load))) << " */\n";
  once << "    static const int32_t " << n << "_shape[" << whole.size() << "] = " << ints(whole) << ";\n";
  once << "    L_SHAPE " << n << "_ds;\n    tx8_lshape_init(&" << n << "_ds, " << n << "_shape, " << whole.size()
       << ");\n";
  once << "    TSR " << n << "_ddr = {" << *fmt << ", " << hex(ddr) << ", &" << n << "_ds};\n";
  once << "    TSR " << n << "_spm = {" << *fmt << ", " << hex(*addr) << ", NULL};\n";
  once << "    LOAD_PARAM " << n << "_ld = {" << layoutName(result) << "};\n";
  once << "    cycles = ADD_VALID_CYCLE(cycles, op_loadConst(&" << n << "_ld, &" << n << "_ddr, &" << n << "_spm));\n";
  tensors[result] = {n, *fmt, *addr, {}, {}, *dfmt, {}};
  return success();
}

LogicalResult GroupPrinter::printLoadBox(LoadBoxOp load) {
  Value result = load.getOutput();
  auto fmt = formatName(result.getType());
  std::optional<Data_Format> dfmt = tx8be::detail::dataFormatOf(result.getType());
  if (!fmt || !dfmt)
    return load.emitOpError() << "has an element type with no device format";
  std::string n = nextName(), addrTable;
  SmallVector<uint64_t, 2> addrList;
  FailureOr<uint64_t> addr = bufferAddresses(load, n, addrTable, addrList);
  if (failed(addr))
    return failure();
  // A Group input, or a constant read in place that each step loads part of.
  uint64_t ddr = 0;
  if (auto constant = load.getSource().getDefiningOp<LoadConstOp>()) {
    if (failed(constAddressOf(constant, ddr)))
      return failure();
  } else {
    auto arg = dyn_cast<BlockArgument>(load.getSource());
    if (!arg || arg.getOwner()->getParentOp() != group)
      return load.emitOpError() << "loads a value that is neither a Group input nor a constant";
    FailureOr<uint64_t> addr = ddrAddressOf(group->getOperand(arg.getArgNumber()), group);
    if (failed(addr))
      return failure();
    ddr = *addr;
  }
  auto [columnBlock, whole] = loadBoxImage(load);
  auto steps = load->getParentOfType<StepsOp>();
  if (load.getPrefetched()) {
    // Copied during the previous group (printPrefetch there) into its one buffer; waited for before the steps.
    text.once += "    /* " + n + ": each tile's box of constant " + hex(ddr) + ", prefetched by the group before */\n";
    text.prefetched = true;
    tensors[result] = {n, *fmt, *addr, load.getBoxes(), "", *dfmt, addrList};
    return success();
  }
  // The DMA reads the source's boxes: through perm, a transposed read's (the same bytes, tx8be-transposed-loads).
  BoxTableAttr dmaBoxes = load.getBoxes();
  Value dmaValue = result;
  if (load.getPerm()) {
    dmaBoxes = mapBoxes(dmaBoxes, [&](int64_t k) { return load.getSourceBox(k); });
    dmaValue = load.getSource();
    whole = deviceShapeOf(dmaValue);
  }
  text.tables += "    static const int32_t " + n + "_whole[" + std::to_string(whole.size()) + "] = " + ints(whole) +
                 ";\n" + boxTable(n + "_box", dmaBoxes, dmaValue, load.getOnce() ? 1 : steps.getCount(), columnBlock);
  if (load.getOnce()) {
    // The same box every step: loaded before the loop into one buffer. On several tiles, tile 0 copies it from
    // DDR into every tile's SPM with one DTE multicast, and the barrier after the shared loads (print) makes it
    // visible to all.
    std::string common = "    L_SHAPE " + n + "_ds;\n    TSR " + n + "_ddr = {" + *fmt + ", " + hex(ddr) + ", &" + n +
                         "_ds};\n    TSR " + n + "_spm = {" + *fmt + ", " + hex(*addr) + ", NULL};\n" +
                         "    tx8_lshape_box(&" + n + "_ds, " + n + "_whole, " + std::to_string(whole.size()) + ", &" + n +
                         "_box[0]);\n";
    int64_t tiles = static_cast<int64_t>(steps.getTiles().size());
    if (tiles > 1) {
      auto [x1, y1] = multicastCorner(tiles, getHwConfig(group));
      text.shared += "    { /* " + n + ": the same box on every tile: one DDR read, multicast to each tile's SPM */\n" +
                     indentBy(common, "    ") + "        if (tile == 0) {\n            NOC_COPY_PARAM " + n + "_nc = {" +
                     layoutName(result) + ", 1, 0, 0, " + std::to_string(x1) + ", " + std::to_string(y1) +
                     "};\n            cycles = ADD_VALID_CYCLE(cycles, op_noc_copy(&" + n + "_nc, &" + n + "_ddr, &" +
                     n + "_spm));\n        }\n    }\n";
    } else {
      text.once += "    /* " + n + ": the same box every step, loaded once */\n" + common + "    LOAD_PARAM " + n +
                   "_ld = {" + layoutName(result) + "};\n    cycles = ADD_VALID_CYCLE(cycles, op_loadVar(&" + n +
                   "_ld, &" + n + "_ddr, &" + n + "_spm));\n";
    }
    tensors[result] = {n, *fmt, *addr, load.getBoxes(), "", *dfmt, {}};
    return success();
  }
  llvm::raw_string_ostream once(text.once);
  once << "    L_SHAPE " << n << "_ds;\n";
  once << "    TSR " << n << "_ddr = {" << *fmt << ", " << hex(ddr) << ", &" << n << "_ds};\n";
  once << "    TSR " << n << "_spm = {" << *fmt << ", " << hex(*addr) << ", NULL};\n";
  if (std::optional<ArrayRef<int64_t>> leaders = load.getMulticast()) {
    if (failed(printMulticast(load, n, *leaders, addrTable, whole.size())))
      return failure();
    tensors[result] = {n, *fmt, *addr, load.getBoxes(), addrTable, *dfmt, addrList};
    return success();
  }
  once << "    LOAD_PARAM " << n << "_ld = {" << layoutName(result) << "};\n";
  if (!pipelined()) {
    llvm::raw_string_ostream step(text.compute);
    step << "        tx8_lshape_box(&" << n << "_ds, " << n << "_whole, " << whole.size() << ", &" << n << "_box[s]);\n";
    step << "        cycles = ADD_VALID_CYCLE(cycles, op_loadVar(&" << n << "_ld, &" << n << "_ddr, &" << n
         << "_spm));\n";
  } else {
    // Issued for step l into buffer lb; the compute of step s waits for it (printLoop).
    std::string slot = "loaded[lb][" + std::to_string(text.loads++) + "]";
    llvm::raw_string_ostream step(text.load);
    step << "            tx8_lshape_box(&" << n << "_ds, " << n << "_whole, " << whole.size() << ", &" << n
         << "_box[l]);\n";
    if (!addrTable.empty())
      step << "            " << n << "_spm.addr = " << addrTable << "[lb];\n";
    step << "            " << slot << " = op_loadVar_async(&" << n << "_ld, &" << n << "_ddr, &" << n
         << "_spm, NULL, 0);\n";
    step << "            if (!" << slot << ") return TX8_CYCLES_INVALID;\n";
  }
  tensors[result] = {n, *fmt, *addr, load.getBoxes(), addrTable, *dfmt, addrList};
  return success();
}

LogicalResult GroupPrinter::printPrefetch(const Prefetch &prefetch, unsigned k, std::string &out) {
  LoadBoxOp load = prefetch.load;
  Value result = load.getOutput();
  auto fmt = formatName(result.getType());
  auto constant = load.getSource().getDefiningOp<LoadConstOp>();
  auto steps = load->getParentOfType<StepsOp>();
  uint64_t ddr = 0;
  FailureOr<uint64_t> addr = spmAddressOf(load);
  if (!fmt || !constant || !steps || failed(addr) || failed(constAddressOf(constant, ddr)))
    return load.emitOpError() << "is prefetched, but is not a constant box with an SPM buffer";
  std::string n = "p" + std::to_string(k);
  auto [columnBlock, whole] = loadBoxImage(load);
  ArrayRef<int64_t> counts = steps.getTiles();
  std::string has, boxes;
  for (unsigned t = 0; t < counts.size(); ++t) {
    has += (t ? ", " : "") + std::to_string(counts[t] > 0 ? 1 : 0);
    // A tile without steps copies nothing; its row is any box.
    boxes += (t ? ", " : "") +
             boxLiteral(load.getBoxes().getBox(counts[t] > 0 ? steps.getFirstStep(t) : 0), result, columnBlock);
  }
  uint32_t meshX = std::max<uint32_t>(getHwConfig(group).mesh_x, 1);
  std::string tiles = std::to_string(counts.size()), x = "(pt % " + std::to_string(meshX) + ")",
              y = "(pt / " + std::to_string(meshX) + ")";
  out += "    { /* " + n + ": group " + std::to_string(prefetch.group) + "'s box of constant " +
         std::to_string(constant.getConstMapId()) + ", copied by each tile's DTE from DDR into SPM this group leaves "
         "free (tx8be-prefetch-weights) */\n";
  out += "        const uint32_t pt = tx8_hal_tile_id();\n";
  out += "        static const uint8_t " + n + "_has[" + tiles + "] = {" + has + "};\n";
  out += "        static const int32_t " + n + "_whole[" + std::to_string(whole.size()) + "] = " + ints(whole) + ";\n";
  out += "        static const tx8_box " + n + "_box[" + tiles + "] = {" + boxes + "};\n";
  out += "        if (pt < " + tiles + " && " + n + "_has[pt]) {\n";
  out += "            L_SHAPE " + n + "_ds;\n";
  out += "            TSR " + n + "_ddr = {" + *fmt + ", " + hex(ddr) + ", &" + n + "_ds};\n";
  out += "            TSR " + n + "_spm = {" + *fmt + ", " + hex(*addr) + ", NULL};\n";
  out += "            tx8_lshape_box(&" + n + "_ds, " + n + "_whole, " + std::to_string(whole.size()) + ", &" + n +
         "_box[pt]);\n";
  out += "            NOC_COPY_PARAM " + n + "_nc = {" + layoutName(result) + ", 1, " + x + ", " + y + ", " + x + ", " +
         y + "};\n";
  out += "            if (!op_noc_copy_async(&" + n + "_nc, &" + n + "_ddr, &" + n + "_spm, NULL, 0)) return "
         "TX8_CYCLES_INVALID;\n";
  out += "        }\n    }\n";
  return success();
}

LogicalResult GroupPrinter::printMulticast(LoadBoxOp load, const std::string &n, ArrayRef<int64_t> leaders,
                                           const std::string &addrTable, size_t rank) {
  tx8_hw_config hw = getHwConfig(group);
  std::string lead, rects;
  for (auto [t, leader] : llvm::enumerate(leaders)) {
    std::optional<MeshRect> rect = multicastRectangle(leaders, leader, hw);
    if (!rect)
      return load.emitOpError() << "multicast: the tiles led by tile " << leader << " are not a mesh rectangle";
    lead += (t ? ", " : "") + std::to_string(leader);
    rects += (t ? ", " : "") + ints({int64_t{rect->x0}, int64_t{rect->y0}, int64_t{rect->x1}, int64_t{rect->y1}});
  }
  std::string tiles = std::to_string(leaders.size()), r = std::to_string(rank);
  text.tables += "    /* " + n + ": the tile that multicasts each tile's box, and the rectangle of its group */\n" +
                 "    static const uint16_t " + n + "_lead[" + tiles + "] = {" + lead + "};\n" +
                 "    static const uint32_t " + n + "_rect[" + tiles + "][4] = {" + rects + "};\n";
  text.once += "    NOC_COPY_PARAM " + n + "_nc = {" + layoutName(load.getOutput()) + ", 1, " + n + "_rect[tile][0], " +
               n + "_rect[tile][1], " + n + "_rect[tile][2], " + n + "_rect[tile][3]};\n";
  if (!pipelined()) { // copied before the Wait after the loads, which prints the barrier
    ++text.multicasts;
    text.compute += "        if (" + n + "_lead[tile] == tile) { /* from DDR to every tile of its rectangle */\n" +
                    "            tx8_lshape_box(&" + n + "_ds, " + n + "_whole, " + r + ", &" + n + "_box[s]);\n" +
                    "            cycles = ADD_VALID_CYCLE(cycles, op_noc_copy(&" + n + "_nc, &" + n + "_ddr, &" + n +
                    "_spm));\n        }\n";
    return success();
  }
  // Issued for step l into buffer lb; the barrier after the leader has waited for it (printLoop) makes it visible.
  std::string slot = "mcast[" + std::to_string(text.multicasts++) + "]";
  text.load += "            if (" + n + "_lead[tile] == tile) { /* from DDR to every tile of its rectangle */\n" +
               "                tx8_lshape_box(&" + n + "_ds, " + n + "_whole, " + r + ", &" + n + "_box[l]);\n";
  if (!addrTable.empty())
    text.load += "                " + n + "_spm.addr = " + addrTable + "[lb];\n";
  text.load += "                " + slot + " = op_noc_copy_async(&" + n + "_nc, &" + n + "_ddr, &" + n +
               "_spm, NULL, 0);\n                if (!" + slot + ") return TX8_CYCLES_INVALID;\n            }\n";
  return success();
}

std::vector<SmallVector<int64_t>> GroupPrinter::printViewTable(const std::string &name, Operation *compute,
                                                               unsigned tensorIndex, Value value, BoxTableAttr boxes,
                                                               int64_t count) {
  SmallVector<int64_t, 6> whole(cast<ShapedType>(value.getType()).getShape());
  std::vector<SmallVector<int64_t>> views;
  size_t rank = 0;
  std::string rows;
  for (int64_t k = 0; k < count; ++k) {
    SmallVector<int64_t, 6> size = boxes ? boxes.getBox(k).size : whole;
    views.push_back(opLibBoxView(compute, tensorIndex, size));
    rank = views.back().size();
    rows += (k ? ", " : "") + ints(views.back());
  }
  text.tables += "    static const int32_t " + name + "_view[" + std::to_string(count) + "][" + std::to_string(rank) +
                 "] = {" + rows + "};\n";
  text.once += "    L_SHAPE " + name + "_vs;\n";
  text.compute += "        tx8_lshape_init(&" + name + "_vs, " + name + "_view[s], " + std::to_string(rank) + ");\n";
  return views;
}

LogicalResult GroupPrinter::checkCall(Operation *compute, const OpCall &call, StepsOp steps, unsigned position,
                                      ArrayRef<CallTensor> operands, const CallTensor &result,
                                      std::optional<KernelTensor> imm, ArrayRef<std::array<int64_t, 4>> pads) {
  tx8_hw_config hw = getHwConfig(group);
  int64_t count = steps.getCount(), tiles = static_cast<int64_t>(steps.getTiles().size());
  int64_t parts = static_cast<int64_t>(steps.getReduceSteps());
  SmallVector<int64_t, 4> reduceDims = parts > 1 ? reductionDims(compute) : SmallVector<int64_t, 4>{};
  // This step's buffer of a tensor with several (the pipelined loop's b for inputs, ob for the result).
  auto at = [](const CTensor &t, int64_t buffer) {
    return t.addrs.empty() ? t.addr : t.addrList[static_cast<size_t>(buffer) % t.addrList.size()];
  };
  KernelCallArgs args;
  args.operands.resize(operands.size());
  args.results.resize(1);
  args.imm = imm;
  std::string why, error;
  for (int64_t tile = 0; tile < std::max<int64_t>(tiles, 1); ++tile) {
    int64_t s0 = tiles > 1 ? steps.getFirstStep(static_cast<unsigned>(tile)) : 0;
    int64_t s1 = tiles > 1 ? steps.getFirstStep(static_cast<unsigned>(tile + 1)) : count;
    for (int64_t s = s0; s < s1; ++s) {
      bool lastPart = parts <= 1 || s % parts == parts - 1;
      if (position > 0 && !lastPart) // the tail runs once per output slice, after its last part
        continue;
      int64_t b = (s - s0) % buffers, ob = ((s - s0) / std::max<int64_t>(parts, 1)) % buffers;
      for (auto [k, operand] : llvm::enumerate(operands))
        args.operands[k] = KernelTensor{operand.format, at(operand.tensor, b), operand.views[s]};
      args.results[0] = KernelTensor{result.format, at(result.tensor, ob), result.views[s]};
      args.pads = pads.empty() ? std::array<int64_t, 4>{0, 0, 0, 0} : pads[s];
      args.accumulate = false;
      if (position == 0) // the tail runs at the last part only, as the whole slice
        applyReducePart(args, reduceDims, s % std::max<int64_t>(parts, 1), parts);
      if (failed(checkKernelCall(call, args, hw, why, error)))
        return compute->emitOpError() << "cannot be checked against its OpLib kernel's contract: " << error;
      if (!why.empty())
        return compute->emitOpError() << "would fault in OpLib on tile " << tile << " at step " << s << ": " << why;
    }
  }
  return success();
}

LogicalResult GroupPrinter::printCompute(Operation *compute, StepsOp steps, unsigned position, bool last,
                                         StoreBoxOp store) {
  auto oplib = dyn_cast<OpLibInterface>(compute);
  if (!oplib)
    return compute->emitOpError() << "has no OpLib kernel";
  if (compute->getNumResults() != 1)
    return compute->emitOpError() << "has " << compute->getNumResults() << " results; codegen handles one";
  // The anchor's tensors are in0.., out; tail op j's fj_in0..; an intermediate result is midj.
  std::string prefix = position ? "f" + std::to_string(position) + "_" : "";
  std::string outName = last ? "out" : "mid" + std::to_string(position);
  std::string outTable;
  SmallVector<uint64_t, 2> outList;
  FailureOr<uint64_t> outAddr = bufferAddresses(compute, outName, outTable, outList);
  if (failed(outAddr))
    return failure();
  OpCall call;
  if (failed(oplib.genOpCode(call)))
    return failure();
  int64_t count = steps.getCount();
  CallSite site;
  if (position)
    site.prefix = prefix + "op";
  SmallVector<CallTensor, 4> checked; // the operands as the contract check sees them
  for (auto [k, operand] : llvm::enumerate(compute->getOperands())) {
    auto it = tensors.find(operand);
    if (it == tensors.end())
      return compute->emitOpError() << "reads operand " << k << ", which no load of its group provides";
    std::string v = prefix + "in" + std::to_string(k);
    CallTensor &c = checked.emplace_back();
    c.tensor = it->second;
    c.format = it->second.fmt;
    c.views = printViewTable(v, compute, k, operand, it->second.boxes, count);
    // tx8be-ne-precision's tf32: the NE reads the fp32-stored A and B (operands 0, 1) as tf32 (its in_fmt).
    c.format = kernelOperandFormat(compute, static_cast<unsigned>(k), it->second.fmt);
    std::string format = c.format == it->second.fmt ? it->second.format : std::string("Fmt_TF32");
    text.once += "    TSR " + v + " = {" + format + ", " + hex(it->second.addr) + ", &" + v + "_vs};\n";
    if (!it->second.addrs.empty()) // this step's buffer of a double-buffered load
      text.compute += "        " + v + ".addr = " + it->second.addrs + "[b];\n";
    site.operands.push_back("&" + v);
  }

  // The result: each step computes the box the chain's StoreBox writes.
  Value result = compute->getResult(0);
  auto outFmt = formatName(result.getType());
  std::optional<Data_Format> outDfmt = tx8be::detail::dataFormatOf(result.getType());
  if (!outFmt || !outDfmt)
    return compute->emitOpError() << "has a result type with no device format";
  if (!store)
    return compute->emitOpError() << "result is not stored; codegen needs the box each step computes";
  CallTensor out;
  out.views = printViewTable(outName, compute, compute->getNumOperands(), result, store.getBoxes(), count);
  text.once += "    TSR " + outName + " = {" + *outFmt + ", " + hex(*outAddr) + ", &" + outName + "_vs};\n";
  if (!outTable.empty())
    text.compute += "        " + outName + ".addr = " + outTable + "[ob];\n";
  site.results.push_back("&" + outName);
  tensors[result] = {outName, *outFmt, *outAddr, store.getBoxes(), outTable, *outDfmt, outList};
  out.tensor = tensors[result];
  out.format = *outDfmt;

  auto dev = compute->getAttrOfType<DevAttr>("dev_info");
  std::optional<KernelTensor> immTensor;
  if (dev && dev.getImmSize() > 0) {
    immTensor = KernelTensor{Fmt_INT8, static_cast<uint64_t>(dev.getImmAddr()), {static_cast<int64_t>(dev.getImmSize())}};
    std::string imm = prefix + "imm";
    text.once += "    static const int32_t " + imm + "_shape[1] = {" + std::to_string(dev.getImmSize()) + "};\n";
    text.once += "    L_SHAPE " + imm + "_s;\n    tx8_lshape_init(&" + imm + "_s, " + imm + "_shape, 1);\n";
    text.once += "    TSR " + imm + " = {Fmt_INT8, " + hex(static_cast<uint64_t>(dev.getImmAddr())) + ", &" + imm +
                 "_s};\n";
    site.imm = "&" + imm;
  }
  if (call.usesStepPads() && position > 0)
    return compute->emitOpError() << "takes per-step pads; it cannot run in the tail of a chain";
  std::vector<std::array<int64_t, 4>> padRows;
  if (call.usesStepPads()) {
    // The border pads of this step: where the first operand's box reaches into the op's padding.
    auto in = tensors.find(compute->getOperand(0));
    if (in == tensors.end() || !in->second.boxes)
      return compute->emitOpError() << "takes per-step pads, but its first operand is not loaded per step";
    int64_t rank = cast<ShapedType>(compute->getOperand(0).getType()).getRank();
    std::string rows;
    for (int64_t k = 0; k < count; ++k) { // top, left, bottom, right
      std::array<int64_t, 4> p = stepPads(in->second.boxes.getBox(k), rank);
      padRows.push_back(p);
      rows += (k ? ", " : "") + ints(p);
    }
    text.tables += "    static const int32_t pads[" + std::to_string(count) + "][4] = {" + rows + "};\n";
    site.pads = "pads[s]";
  }
  // The call is printed only if the kernel accepts it at every step of every tile.
  if (failed(checkCall(compute, call, steps, position, checked, out, immTensor, padRows)))
    return failure();
  int64_t parts = static_cast<int64_t>(steps.getReduceSteps());
  if (parts > 1 && position > 0) { // the tail runs once per output slice, after its last part
    llvm::raw_string_ostream step(text.compute);
    step << "        if (s % " << parts << " == " << parts - 1 << ") {\n";
    if (failed(printOpCall(compute, call, site, "            ", step)))
      return failure();
    step << "        }\n";
    return success();
  }
  if (parts > 1) {
    // A split reduction: steps after the first of a run add to the output; operands without a reduction dim
    // (a bias) are applied once, by the last.
    std::string r = std::to_string(parts);
    site.accumulate = "(s % " + r + " != 0)";
    SmallVector<int64_t, 4> reduceDims = reductionDims(compute);
    for (auto [k, name] : llvm::enumerate(site.operands))
      if (k >= reduceDims.size() || reduceDims[k] < 0)
        name = "(s % " + r + " == " + std::to_string(parts - 1) + " ? " + name + " : NULL)";
  }
  llvm::raw_string_ostream step(text.compute);
  return printOpCall(compute, call, site, "        ", step);
}

LogicalResult GroupPrinter::printStoreBox(StoreBoxOp store) {
  Value value = store.getInput();
  auto it = tensors.find(value);
  if (it == tensors.end())
    return store.emitOpError() << "stores a value that is not in SPM";
  FailureOr<uint64_t> ddr = groupResultAddress(group, store.getResultIndex());
  if (failed(ddr))
    return failure();
  std::string y = store.getResultIndex() == 0 ? "y" : "y" + std::to_string(store.getResultIndex());
  // The DMA writes the result's boxes: through perm, a transposed write's (the same bytes, tx8be-transposed-loads).
  BoxTableAttr dmaBoxes = store.getBoxes();
  Value dmaValue = value;
  if (store.getPerm()) {
    dmaBoxes = mapBoxes(dmaBoxes, [&](int64_t k) { return store.getResultBox(k); });
    dmaValue = store->getParentOfType<StepsOp>()->getResult(store.getResultIndex());
  }
  SmallVector<int64_t, 6> whole = deviceShapeOf(dmaValue);
  text.tables += "    static const int32_t " + y + "_whole[" + std::to_string(whole.size()) + "] = " + ints(whole) +
                 ";\n" + boxTable(y + "_box", dmaBoxes, dmaValue, store->getParentOfType<StepsOp>().getCount());
  llvm::raw_string_ostream once(text.once);
  once << "    L_SHAPE " << y << "_ds;\n";
  once << "    TSR " << y << "_ddr = {" << it->second.format << ", " << hex(*ddr) << ", &" << y << "_ds};\n";
  once << "    TSR " << y << "_spm = {" << it->second.format << ", " << hex(it->second.addr) << ", NULL};\n";
  once << "    STORE_PARAM " << y << "_st = {" << layoutName(value) << "};\n";
  // A split reduction stores each output slice once, after the last part of its run.
  auto steps = store->getParentOfType<StepsOp>();
  int64_t parts = static_cast<int64_t>(steps.getReduceSteps());
  std::string indent = parts > 1 ? "            " : "        ";
  llvm::raw_string_ostream step(pipelined() ? text.store : text.compute);
  if (parts > 1)
    step << "        if (s % " << parts << " == " << parts - 1 << ") {\n";
  step << indent << "tx8_lshape_box(&" << y << "_ds, " << y << "_whole, " << whole.size() << ", &" << y
       << "_box[s]);\n";
  if (!pipelined()) {
    step << indent << "cycles = ADD_VALID_CYCLE(cycles, op_dma_store(&" << y << "_st, &" << y << "_spm, &" << y
         << "_ddr));\n";
  } else {
    // The compute of the step that next writes this buffer waits for it (printLoop).
    std::string slot = "stored[ob][" + std::to_string(text.stores++) + "]";
    if (!it->second.addrs.empty())
      step << indent << y << "_spm.addr = " << it->second.addrs << "[ob];\n";
    step << indent << slot << " = op_dma_store_async(&" << y << "_st, &" << y << "_spm, &" << y << "_ddr, NULL, 0);\n";
    step << indent << "if (!" << slot << ") return TX8_CYCLES_INVALID;\n";
  }
  if (parts > 1)
    step << "        }\n";
  return success();
}

LogicalResult GroupPrinter::printSteps(StepsOp steps, Operation *compute) {
  stages = static_cast<int64_t>(steps.getSpStageNum());
  buffers = static_cast<int64_t>(steps.getMultiBuf());
  SmallVector<Operation *, 4> chain = groupChain(compute);
  StoreBoxOp chainStore = steps.getStoreOf(0); // the chain's last result: the group's one stored value
  for (Operation &op : steps.getBody().front()) {
    LogicalResult printed = success();
    if (auto load = dyn_cast<LoadBoxOp>(op))
      printed = printLoadBox(load);
    else if (auto store = dyn_cast<StoreBoxOp>(op))
      printed = printStoreBox(store);
    else if (auto wait = dyn_cast<WaitOp>(op)) {
      // The HAL's copies have completed when their call returns; in lockstep the leaders' multicasts are visible
      // to the other tiles after a barrier.
      bool afterLoads = llvm::any_of(wait.getTokens(), [](Value t) { return t.getDefiningOp<LoadBoxOp>(); });
      if (text.multicasts && !pipelined() && afterLoads)
        text.compute += "        tx8_hal_barrier(); /* the multicast boxes are in every tile's SPM */\n";
      continue;
    }
    else if (auto *at = llvm::find(chain, &op); at != chain.end())
      printed = printCompute(&op, steps, static_cast<unsigned>(at - chain.begin()), &op == chain.back(),
                             chainStore);
    else
      return op.emitOpError() << "cannot be printed inside a tx8be.Steps";
    if (failed(printed))
      return failure();
  }
  return success();
}

void GroupPrinter::printLoop(StepsOp steps, llvm::raw_ostream &os) {
  int64_t tiles = static_cast<int64_t>(steps.getTiles().size());
  std::string s0 = tiles > 1 ? "first_step[tile]" : "0", s1 = tiles > 1 ? "first_step[tile + 1]"
                                                                        : std::to_string(steps.getCount());
  // In lockstep (LoadBox multicast) a barrier at the top of a step makes every tile done with the buffers the
  // leaders overwrite next.
  std::string lockstepTop = "        tx8_hal_barrier(); /* every tile is done with the buffers the next multicast "
                            "fills */\n";
  if (!pipelined()) {
    os << "    for (int32_t s = " << s0 << "; s < " << s1 << "; ++s) {\n"
       << (text.multicasts ? lockstepTop : "") << text.compute << "    }\n";
    return;
  }
  // Step l's loads go into buffer lb; the compute of step s = l - ahead reads buffer b and writes output
  // buffer ob (a split reduction's run keeps one); each waits for the copies of its buffers first.
  int64_t ahead = stages >= 3 ? 1 : 0, parts = static_cast<int64_t>(steps.getReduceSteps());
  std::string nb = std::to_string(buffers);
  os << "    const int32_t s0 = " << s0 << ", s1 = " << s1 << ";\n";
  if (text.loads)
    os << "    tx8_token loaded[" << nb << "][" << text.loads << "] = {{0}};\n";
  if (text.stores)
    os << "    tx8_token stored[" << nb << "][" << text.stores << "] = {{0}};\n";
  // Lockstep: the leaders wait for their multicasts, then every tile meets at a barrier: before the compute of
  // the step they fill (at the top of the next iteration when its loads run a step ahead, which also frees the
  // buffers the next loads fill; else right after the loads, and with one buffer also at the top).
  std::string sync;
  if (text.multicasts) {
    os << "    tx8_token mcast[" << text.multicasts << "] = {0};\n";
    sync = "        for (int32_t k = 0; k < " + std::to_string(text.multicasts) +
           "; ++k) if (mcast[k]) tx8_hal_wait(mcast[k]), mcast[k] = 0;\n"
           "        tx8_hal_barrier(); /* the multicast boxes are in every tile's SPM */\n";
  }
  os << "    for (int32_t l = s0; l < s1 + " << ahead << "; ++l) {\n";
  if (text.multicasts && (ahead || buffers == 1))
    os << (ahead ? sync : lockstepTop);
  if (text.loads || text.multicasts)
    os << "        if (l < s1) {\n            const int32_t lb = (l - s0) % " << nb << ";\n" << (text.multicasts ? "            (void)lb;\n" : "")
       << text.load << "        }\n";
  if (text.multicasts && !ahead)
    os << sync;
  os << "        const int32_t s = l - " << ahead << ";\n        if (s < s0) continue;\n";
  os << "        const int32_t b = (s - s0) % " << nb << ", ob = ((s - s0) / " << parts << ") % " << nb
     << ";\n        (void)b;\n        (void)ob;\n";
  for (unsigned k = 0; k < text.loads; ++k)
    os << "        tx8_hal_wait(loaded[b][" << k << "]);\n";
  if (text.stores) {
    os << "        if ((s - s0) % " << parts << " == 0) { /* the output buffer's last store is done */\n";
    for (unsigned k = 0; k < text.stores; ++k)
      os << "            if (stored[ob][" << k << "]) tx8_hal_wait(stored[ob][" << k << "]);\n";
    os << "        }\n";
  }
  os << text.compute << text.store << "    }\n";
  os << "    tx8_hal_wait_all();\n";
}

LogicalResult GroupPrinter::print() {
  if (group.getGroupTag().value_or(0) == 2)
    return printView();
  auto allSteps = group.getBody().front().getOps<StepsOp>();
  if (allSteps.empty())
    return group.emitOpError() << "has no schedule (tx8be.Steps); run tx8be-group-cost first";
  if (std::next(allSteps.begin()) != allSteps.end())
    return group.emitOpError() << "has more than one tx8be.Steps; codegen prints one per group";
  StepsOp steps = *allSteps.begin();
  FailureOr<Operation *> compute = getGroupComputeOp(group);
  if (failed(compute))
    return failure();

  for (Operation &op : group.getBody().front()) {
    LogicalResult printed = success();
    if (auto load = dyn_cast<LoadConstOp>(op))
      printed = printLoadConst(load);
    else if (auto s = dyn_cast<StepsOp>(op))
      printed = printSteps(s, *compute);
    else if (isa<BarrierOp>(op))
      text.after += "    tx8_hal_barrier(); /* every tile of the group has stored its part */\n";
    else if (!isa<ReturnOp>(op))
      return op.emitOpError() << "cannot be printed in a planned group";
    if (failed(printed))
      return failure();
  }

  int64_t count = steps.getCount(), tiles = static_cast<int64_t>(steps.getTiles().size());
  os << "/* ---- group " << index << ": " << opSummary(*compute);
  for (Operation *op : groupTail(*compute))
    os << " -> " << opSummary(op);
  os << "\n";
  os << " *      " << count << (count == 1 ? " step" : " steps");
  if (int64_t parts = static_cast<int64_t>(steps.getReduceSteps()); parts > 1)
    os << " (" << count / parts << " slices x " << parts << " parts of the reduction)";
  if (tiles > 1) {
    os << " on " << steps.getActiveTiles() << " of " << tiles << " tiles";
    if (std::optional<ArrayRef<int64_t>> sharding = steps.getSharding())
      os << " (sharding " << ints(*sharding) << ")";
  } else {
    os << " on tile 0";
  }
  os << ", output slice " << ints(steps.getSlice()) << " (logical dims)";
  if (pipelined())
    os << ", " << stages << " pipeline stages, " << buffers << (buffers == 1 ? " buffer" : " buffers");
  os << ", SPM " << group.getSpmAllocSize().value_or(0) << " bytes ---- */\n";
  os << (isStatic ? "static " : "") << "uint64_t group_" << index << "(void) {\n";
  os << "    uint64_t cycles = 0;\n";
  if (tiles > 1) {
    std::string firsts;
    for (int64_t t = 0; t <= tiles; ++t)
      firsts += (t ? ", " : "") + std::to_string(steps.getFirstStep(static_cast<unsigned>(t)));
    os << "    /* tile t runs rows [first_step[t], first_step[t + 1]) of the tables */\n";
    os << "    static const int32_t first_step[" << tiles + 1 << "] = {" << firsts << "};\n";
    os << "    const uint32_t tile = tx8_hal_tile_id();\n";
  }
  os << text.tables;
  if (!text.shared.empty())
    os << text.shared << "    tx8_hal_barrier(); /* the shared boxes are in every tile's SPM */\n";
  // The boxes the group before prefetched, waited for before this group issues its own prefetches: the wait
  // takes every copy the tile issued, and a later group's copies belong beside this group's work, not before it.
  // (The shared loads' barrier waits for everything already.)
  if (text.prefetched && text.shared.empty())
    os << "    tx8_hal_wait_all(); /* the boxes the group before prefetched */\n";
  // After the shared loads' barrier (which waits for everything a tile issued), beside this group's work.
  for (auto [k, prefetch] : llvm::enumerate(prefetches)) {
    std::string block;
    if (failed(printPrefetch(prefetch, static_cast<unsigned>(k), block)))
      return failure();
    os << block;
  }
  if (tiles > 1)
    os << "    if (tile < " << tiles << " && first_step[tile] < first_step[tile + 1]) {\n";
  std::string body;
  llvm::raw_string_ostream bodyOs(body);
  bodyOs << text.once;
  printLoop(steps, bodyOs);
  if (tiles > 1) // one level deeper
    body = indentBy(body, "    ");
  os << body;
  if (tiles > 1)
    os << "    }\n";
  os << text.after;
  os << "    return cycles;\n}\n\n";
  return success();
}

} // namespace

LogicalResult tx8::codegen::emitGroups(func::FuncOp func, unsigned staticGroups, std::vector<std::string> &texts) {
  texts.clear();
  // Each group's index, and the prefetched LoadBoxes of later groups each group copies.
  DenseMap<Operation *, SmallVector<Prefetch>> prefetchesOf;
  unsigned index = 0;
  for (auto group : func.getBody().front().getOps<GroupOp>()) {
    if (StepsOp steps = getGroupSteps(group))
      for (auto load : steps.getBody().front().getOps<LoadBoxOp>())
        if (load.getPrefetched()) {
          GroupOp host = getPrefetchHost(group);
          if (!host)
            return load.emitOpError() << "is prefetched, but no group before its own runs something";
          prefetchesOf[host].push_back({load, index});
        }
    ++index;
  }
  for (auto group : func.getBody().front().getOps<GroupOp>()) {
    unsigned index = texts.size();
    llvm::raw_string_ostream os(texts.emplace_back());
    SmallVector<Prefetch> prefetches = prefetchesOf.lookup(group);
    if (failed(GroupPrinter(group, index, index < staticGroups, prefetches, os).print()))
      return failure();
  }
  return success();
}
