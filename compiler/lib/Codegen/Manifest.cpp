//===- Manifest.cpp - manifest.json --------------------------------------===//
#include "BundleParts.h"
#include "CodegenUtils.h"

#include "tx8/Dialect/Tx8be/IR/HwConfig.h"
#include "tx8/Dialect/Tx8be/IR/Tx8be.h"
#include "tx8/Interfaces/ComputeInterface.h"
#include "tx8/Reference/TensorIO.h"
#include "tx8/Transforms/GroupPlan.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include "tx8/tensor.h"

using namespace mlir;
using namespace tx8be;
using namespace tx8::codegen;

namespace {

/// The source (ONNX) node names of a group's ops, in order, each once: the compute op and its fused tail, or for
/// a view group every op but its loads and stores (a constant load is named after the constant, not a node).
llvm::json::Array sourceNodes(GroupOp group, Operation *compute) {
  std::vector<std::string> names;
  auto add = [&](Operation *op) {
    std::string name = locName(op->getLoc());
    if (!name.empty() && !llvm::is_contained(names, name))
      names.push_back(name);
  };
  if (compute) {
    add(compute);
    for (Operation *t : groupTail(compute))
      add(t);
  } else {
    group.walk([&](Operation *op) {
      if (op != group.getOperation() && op->getNumRegions() == 0 && op->getNumResults() > 0 &&
          !isa<LoadBoxOp, StoreBoxOp, LoadConstOp, LoadVarOp, StoreVarOp>(op))
        add(op);
    });
  }
  llvm::json::Array a;
  for (std::string &n : names)
    a.push_back(std::move(n));
  return a;
}


/// The element type's name in ElementTypes.def ("f32", "bool", ...), which `tx8-aot run` reads back.
std::string dtypeName(Type e) {
  if (std::optional<tx8::ref::DType> dtype = tx8be::detail::refDTypeOf(e))
    return tx8::ref::dtypeName(*dtype);
  std::string s;
  llvm::raw_string_ostream os(s);
  os << e;
  return s;
}

llvm::json::Object ioJson(const IOTensor &t) {
  llvm::json::Array shape, order;
  for (int64_t d : t.shape)
    shape.push_back(d);
  for (int64_t d : t.layout.order)
    order.push_back(d);
  llvm::json::Object io{{"name", t.name},
                        {"dtype", dtypeName(t.elementType)},
                        {"shape", std::move(shape)},
                        {"layout", t.layoutStr},
                        {"order", std::move(order)},
                        {"mem_layout", std::string(tx8_layout_name(static_cast<LAYOUT_MODE>(t.layout.mode)))},
                        {"ddr_offset", static_cast<int64_t>(t.ddrAddr)},
                        {"bytes", static_cast<int64_t>(t.bytes)},
                        {"file", t.file}};
  if (!t.debugNode.empty()) { // a debug output (tx8-aot compile --debug-outputs): the ONNX node computing it
    io["node"] = t.debugNode;
    io["op_type"] = t.debugOpType;
  }
  return io;
}

/// The tensors between Groups in DDR: the results of the Groups that compute (a view's is its operand's bytes)
/// that are not graph outputs. Their count and the bytes of their device images, each counted once (DDR
/// allocation lets tensors whose lifetimes do not overlap share bytes).
std::pair<int64_t, int64_t> intermediateTensors(func::FuncOp func, const tx8_hw_config &hw) {
  Operation *ret = func.getBody().front().getTerminator();
  int64_t count = 0, bytes = 0;
  for (auto group : func.getBody().front().getOps<GroupOp>()) {
    if (group.getGroupTag().value_or(0) == 2)
      continue;
    for (Value v : group->getResults()) {
      if (llvm::is_contained(ret->getOperands(), v))
        continue;
      auto type = cast<ShapedType>(v.getType());
      DeviceLayout layout = getDeviceLayout(v);
      ++count;
      bytes += static_cast<int64_t>(deviceImageBytes(toDeviceOrder(type.getShape(), layout.order),
                                                     type.getElementType(), layout.mode,
                                                     tx8_hw_batch_align_bytes(&hw))
                                        .value_or(0));
    }
  }
  return {count, bytes};
}

} // namespace

llvm::json::Object tx8::codegen::describeBundle(ModuleOp module, const BundleOptions &options,
                                                ArrayRef<IOTensor> inputs, ArrayRef<IOTensor> outputs,
                                                ArrayRef<ConstEntry> consts, ArrayRef<std::string> sources,
                                                const InjectSite *inject) {
  tx8_hw_config config = getHwConfig(module);
  llvm::json::Object hw;
#define TX8_HW(type, name, dflt, lo, hi, unit, desc) hw[#name] = static_cast<int64_t>(config.name);
#include "tx8/hw_config.def"
#undef TX8_HW
  llvm::json::Array ins, outs, table;
  for (const IOTensor &t : inputs)
    ins.push_back(ioJson(t));
  for (const IOTensor &t : outputs)
    outs.push_back(ioJson(t));
  for (const ConstEntry &e : consts) {
    llvm::json::Array shape;
    for (int64_t d : e.shape)
      shape.push_back(d);
    table.push_back(llvm::json::Object{{"id", static_cast<int64_t>(e.id)},
                                       {"name", e.name},
                                       {"dtype", dtypeName(e.elementType)},
                                       {"shape", std::move(shape)},
                                       {"layout", e.layoutStr},
                                       {"mem_layout", std::string(tx8_layout_name(static_cast<LAYOUT_MODE>(e.layout.mode)))},
                                       {"ddr_offset", static_cast<int64_t>(e.offset)},
                                       {"bytes", static_cast<int64_t>(e.bytes)},
                                       {"checksum", e.checksum}});
  }
  auto i64 = [&](StringRef attr) {
    auto a = module->getAttrOfType<IntegerAttr>(attr);
    return a ? a.getValue().getSExtValue() : 0;
  };
  int64_t tiles = bundleTiles(module);
  // Each group's plan (tx8be-group-cost, tx8be-sw-pipeline), in main.c's order.
  llvm::json::Array plans;
  if (auto func = module.lookupSymbol<func::FuncOp>("main"))
    for (auto group : func.getBody().front().getOps<GroupOp>()) {
      llvm::json::Object plan{{"group", static_cast<int64_t>(plans.size())}};
      StepsOp steps = getGroupSteps(group);
      FailureOr<Operation *> compute = steps ? getGroupComputeOp(group) : FailureOr<Operation *>(failure());
      if (!steps || failed(compute)) {
        plan["op"] = "view";
        plan["nodes"] = sourceNodes(group, nullptr);
        plans.push_back(std::move(plan));
        continue;
      }
      auto ints = [](ArrayRef<int64_t> values) {
        llvm::json::Array a;
        for (int64_t v : values)
          a.push_back(v);
        return a;
      };
      // A fused chain (tx8be-group-fuse): its ops joined by '+', the anchor first.
      std::string op = (*compute)->getName().stripDialect().str();
      for (Operation *t : groupTail(*compute))
        op += "+" + t->getName().stripDialect().str();
      plan["op"] = op;
      plan["nodes"] = sourceNodes(group, *compute);
      plan["tiles"] = static_cast<int64_t>(steps.getActiveTiles());
      plan["sharding"] = ints(steps.getSharding().value_or(ArrayRef<int64_t>()));
      plan["slice"] = ints(steps.getSlice());
      plan["steps"] = ints(steps.getTiles());
      plan["reduce_steps"] = static_cast<int64_t>(steps.getReduceSteps());
      plan["multi_buf"] = static_cast<int64_t>(steps.getMultiBuf());
      plan["sp_stage_num"] = static_cast<int64_t>(steps.getSpStageNum());
      plan["estimate_cycles"] = static_cast<int64_t>(steps.getEstimate().value_or(0));
      plan["spm_bytes"] = static_cast<int64_t>(group.getSpmAllocSize().value_or(0));
      plans.push_back(std::move(plan));
    }
  std::pair<int64_t, int64_t> intermediates{0, 0};
  if (auto func = module.lookupSymbol<func::FuncOp>("main"))
    intermediates = intermediateTensors(func, config);
  llvm::json::Object root{{"format", "tx8-bundle"},
                          {"format_version", kBundleFormatVersion},
                          {"compiler", llvm::json::Object{{"name", "tx8-aot"}, {"version", options.compilerVersion}}},
                          {"model", llvm::json::Object{{"name", options.modelName}, {"source", options.sourceFile}}},
                          {"target", options.target},
                          {"tiles", tiles},
                          {"opt_search", static_cast<int64_t>(options.optSearch)},
                          {"groups", std::move(plans)},
                          {"sources", llvm::json::Array(sources)},
                          {"hardware", std::move(hw)},
                          {"ddr", llvm::json::Object{{"bytes", i64("tx8be.ddr_bytes")},
                                                     {"const_bytes", i64("tx8be.const_bytes")},
                                                     {"intermediates", intermediates.first},
                                                     {"intermediate_bytes", intermediates.second}}},
                          {"inputs", std::move(ins)},
                          {"outputs", std::move(outs)},
                          {"consts", llvm::json::Object{{"file", "consts.bin"}, {"entries", std::move(table)}}}};
  if (options.precision != "fp32")
    root["precision"] = options.precision;
  if (inject) // a test-only bundle: its results are wrong on purpose
    root["test_inject_error"] = llvm::json::Object{{"node", inject->node},
                                                   {"tensor", inject->tensor},
                                                   {"group", static_cast<int64_t>(inject->group)}};
  return root;
}

unsigned tx8::codegen::bundleTiles(ModuleOp module) {
  int64_t tiles = 1;
  module.walk([&](GroupOp g) { tiles = std::max(tiles, regionTiles(g)); });
  return static_cast<unsigned>(tiles);
}

std::string tx8::codegen::emitManifest(llvm::json::Object description, const BundleFiles &files) {
  llvm::json::Object checksums;
  for (const char *name : kChecksummedFiles)
    checksums[name] = checksum(files.at(name));
  if (const llvm::json::Array *sources = description.getArray("sources"))
    for (const llvm::json::Value &name : *sources)
      checksums[*name.getAsString()] = checksum(files.at(name.getAsString()->str()));
  description["files"] = std::move(checksums);
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(description))) << "\n";
  return s;
}
