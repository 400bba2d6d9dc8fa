//===- Bundle.cpp - Generating a module's bundle --------------------------===//
//
// The orchestration: the graph's inputs and outputs, then consts.bin, the group functions, main.c, model.h,
// CMakeLists.txt and, last, manifest.json (one writer per file; BundleParts.h).
//
//===----------------------------------------------------------------------===//
#include "tx8/Codegen/Bundle.h"

#include "BundleCMakeTemplate.h"
#include "BundleParts.h"
#include "CodegenUtils.h"

#include "tx8/Dialect/Tx8be/IR/HwConfig.h"
#include "tx8/Interfaces/ComputeInterface.h"
#include "tx8/tensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <cstring>

using namespace mlir;
using namespace tx8be;
using namespace tx8::codegen;

namespace {

std::string orderName(Value v, const DeviceLayout &layout) {
  int64_t rank = cast<ShapedType>(v.getType()).getRank();
  if (layout.isIdentityOrder())
    return featureMapLayoutName(rank, false);
  if (rank >= 3 && layout.order.back() == 1)
    return featureMapLayoutName(rank, true);
  std::string s = "order(";
  for (auto [i, d] : llvm::enumerate(layout.order))
    s += (i ? "," : "") + std::to_string(d);
  return s + ")";
}

/// OpLib's tensors (TSR / L_SHAPE) have at most MAX_SHAPE_DIM dims: a value of a higher rank that a group loads,
/// computes or stores in SPM is refused here, naming its op, not truncated into a bundle that faults. (A DDR
/// view, e.g. a graph input reshaped before any load, is not an OpLib tensor.)
LogicalResult checkDeviceRanks(func::FuncOp func) {
  WalkResult walk = func.walk([&](GroupOp group) {
    if (group.getGroupTag().value_or(0) == 2) // works in DDR
      return WalkResult::advance();
    WalkResult inner = group.getBody().walk([&](Operation *op) {
      for (Value result : op->getResults())
        if (auto shaped = dyn_cast<ShapedType>(result.getType());
            shaped && shaped.hasRank() && shaped.getRank() > MAX_SHAPE_DIM) {
          op->emitOpError() << "has a result of rank " << shaped.getRank()
                            << "; OpLib takes tensors of at most " << MAX_SHAPE_DIM << " dims";
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    });
    return inner.wasInterrupted() ? WalkResult::interrupt() : WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

FailureOr<std::vector<IOTensor>> collectIO(func::FuncOp func, bool inputs) {
  std::vector<IOTensor> result;
  tx8_hw_config hw = getHwConfig(func);
  unsigned count = inputs ? func.getNumArguments() : func.getNumResults();
  Operation *ret = func.getBody().front().getTerminator();
  for (unsigned i = 0; i < count; ++i) {
    Value v = inputs ? Value(func.getArgument(i)) : ret->getOperand(i);
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.hasStaticShape())
      return func.emitError() << (inputs ? "input " : "output ") << i << " has no static shape";
    IOTensor t;
    auto name = inputs ? func.getArgAttrOfType<StringAttr>(i, "tx8be.name")
                       : func.getResultAttrOfType<StringAttr>(i, "tx8be.name");
    t.name = name ? name.getValue().str() : (inputs ? "input_" : "output_") + std::to_string(i);
    t.elementType = type.getElementType();
    t.shape.assign(type.getShape().begin(), type.getShape().end());
    t.layout = getDeviceLayout(v);
    t.layoutStr = orderName(v, t.layout);
    auto addr = inputs ? func.getArgAttrOfType<IntegerAttr>(i, "tx8be.ddr_addr")
                       : func.getResultAttrOfType<IntegerAttr>(i, "tx8be.ddr_addr");
    if (!addr)
      return func.emitError() << (inputs ? "input " : "output ") << i << " has no DDR address; run tx8be-ddr-alloc";
    t.ddrAddr = addr.getValue().getZExtValue();
    t.bytes = deviceImageBytes(toDeviceOrder(t.shape, t.layout.order), t.elementType, t.layout.mode,
                               tx8_hw_batch_align_bytes(&hw))
                  .value_or(0);
    t.file = (inputs ? "input_" : "output_") + std::to_string(i) + ".bin";
    if (!inputs) {
      if (auto node = func.getResultAttrOfType<StringAttr>(i, "tx8be.debug_node"))
        t.debugNode = node.getValue().str();
      if (auto opType = func.getResultAttrOfType<StringAttr>(i, "tx8be.debug_op_type"))
        t.debugOpType = opType.getValue().str();
    }
    result.push_back(std::move(t));
  }
  return result;
}

/// BundleOptions::testInjectError: the group that computes the first debug output of `node`, and where that output
/// is in DDR. None when `node` is empty; an error naming the node when nothing computes it on the device.
FailureOr<std::optional<InjectSite>> findInjectSite(func::FuncOp func, const std::string &node) {
  if (node.empty())
    return std::optional<InjectSite>();
  auto fail = [&](const Twine &why) -> FailureOr<std::optional<InjectSite>> {
    return func.emitError() << "--test-inject-error " << node << ": " << why;
  };
  Operation *ret = func.getBody().front().getTerminator();
  for (unsigned i = 0; i < func.getNumResults(); ++i) {
    auto debugNode = func.getResultAttrOfType<StringAttr>(i, "tx8be.debug_node");
    if (!debugNode || debugNode.getValue() != node)
      continue;
    InjectSite site;
    site.node = node;
    auto name = func.getResultAttrOfType<StringAttr>(i, "tx8be.name");
    site.tensor = name ? name.getValue().str() : "output_" + std::to_string(i);
    Value value = ret->getOperand(i);
    // A node whose output is another node's value (Identity, Dropout in inference): perturbing it would make
    // that node the first to diverge.
    for (unsigned j = 0; j < i; ++j)
      if (auto other = func.getResultAttrOfType<StringAttr>(j, "tx8be.debug_node");
          other && other != debugNode && ret->getOperand(j) == value) {
        auto otherName = func.getResultAttrOfType<StringAttr>(j, "tx8be.name");
        return fail("its output '" + site.tensor + "' is the value of node '" + other.getValue() + "' (output '" +
                    (otherName ? otherName.getValue() : StringRef("?")) + "'): inject the error there");
      }
    auto group = value.getDefiningOp<GroupOp>();
    if (!group || group.getGroupTag().value_or(0) == 2) {
      const char *what = isa<BlockArgument>(value) ? "a graph input"
                         : group                   ? "a view of another tensor's bytes"
                                                   : "a constant";
      return fail("its output '" + site.tensor + "' is " + what + ": no group computes it");
    }
    for (auto g : func.getBody().front().getOps<GroupOp>()) {
      if (g == group)
        break;
      ++site.group;
    }
    auto addr = func.getResultAttrOfType<IntegerAttr>(i, "tx8be.ddr_addr");
    std::optional<tx8::ref::DType> dtype =
        tx8be::detail::refDTypeOf(cast<ShapedType>(value.getType()).getElementType());
    if (!addr || !dtype)
      return fail("its output '" + site.tensor + "' has no DDR address or no element type the device stores");
    site.ddrAddr = addr.getValue().getZExtValue();
    site.dtype = *dtype;
    return std::optional<InjectSite>(site);
  }
  auto rows = func->getAttrOfType<ArrayAttr>("tx8be.debug_tensors");
  if (!rows)
    return fail("the module has no debug outputs (compile with --debug-outputs), which name the nodes");
  bool known = llvm::any_of(rows, [&](Attribute row) {
    auto dict = dyn_cast<DictionaryAttr>(row);
    auto rowNode = dict ? dict.getAs<StringAttr>("node") : StringAttr();
    return rowNode && rowNode.getValue() == node;
  });
  return fail(known ? "its outputs are constants or unused: nothing computes them on the device"
                    : "the model has no node of that name");
}

} // namespace

LogicalResult tx8::codegen::generateBundle(ModuleOp module, const BundleOptions &options, BundleFiles &files) {
  auto func = module.lookupSymbol<func::FuncOp>("main");
  if (!func)
    return module.emitError() << "has no @main function";
  if (failed(checkDeviceRanks(func)))
    return failure();
  FailureOr<std::vector<IOTensor>> inputs = collectIO(func, true);
  FailureOr<std::vector<IOTensor>> outputs = collectIO(func, false);
  FailureOr<std::optional<InjectSite>> inject = findInjectSite(func, options.testInjectError);
  if (failed(inputs) || failed(outputs) || failed(inject))
    return failure();
  const InjectSite *site = *inject ? &**inject : nullptr;
  std::string consts;
  std::vector<ConstEntry> entries;
  if (failed(buildConsts(module, consts, entries)))
    return failure();
  std::vector<std::string> groupTexts;
  if (failed(emitGroups(func, kGroupsPerSource, groupTexts)))
    return failure();
  unsigned groups = groupTexts.size();
  std::vector<std::string> sources = bundleSources(groups);
  // The group functions of sources[k]: [k * kGroupsPerSource, (k + 1) * kGroupsPerSource).
  auto groupCode = [&](size_t k, unsigned &first, unsigned &count) {
    first = std::min<size_t>(k * kGroupsPerSource, groups);
    count = std::min<size_t>(groups - first, kGroupsPerSource);
    std::string code;
    for (unsigned g = first; g < first + count; ++g)
      code += groupTexts[g];
    return code;
  };

  files.clear();
  llvm::json::Object description = describeBundle(module, options, *inputs, *outputs, entries, sources, site);
  unsigned first = 0, count = 0;
  files["main.c"] = emitMain(options, getHwConfig(module), *inputs, *outputs, consts.size(),
                             groupCode(0, first, count), groups, bundleTiles(module), site);
  for (size_t k = 1; k < sources.size(); ++k) {
    std::string code = groupCode(k, first, count);
    files[sources[k]] = emitGroupSource(options, sources[k], first, count, code);
  }
  files["model.h"] = emitModelH(options, *inputs, *outputs, manifestDigest(description));
  files["consts.bin"] = std::move(consts);
  std::string cmake = kBundleCMakeTemplate;
  std::string project;
  for (char c : options.modelName)
    project += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  auto substitute = [&](StringRef key, const std::string &value) {
    size_t at = cmake.find(key.str());
    if (at != std::string::npos)
      cmake.replace(at, key.size(), value);
  };
  substitute("@TX8_BUNDLE_NAME@", "tx8_bundle_" + project);
  substitute("@TX8_BUNDLE_SOURCES@", llvm::join(sources, " "));
  substitute("@TX8_BUNDLE_HARTS@", std::to_string(bundleTiles(module)));
  files["CMakeLists.txt"] = cmake;
  // The manifest lists the others' checksums, so it comes last.
  files["manifest.json"] = emitManifest(std::move(description), files);
  return success();
}
