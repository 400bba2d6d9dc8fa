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

FailureOr<SmallVector<IOTensor>> collectIO(func::FuncOp func, bool inputs) {
  SmallVector<IOTensor> result;
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
    result.push_back(std::move(t));
  }
  return result;
}

} // namespace

LogicalResult tx8::codegen::generateBundle(ModuleOp module, const BundleOptions &options, BundleFiles &files) {
  auto func = module.lookupSymbol<func::FuncOp>("main");
  if (!func)
    return module.emitError() << "has no @main function";
  if (failed(checkDeviceRanks(func)))
    return failure();
  FailureOr<SmallVector<IOTensor>> inputs = collectIO(func, true);
  FailureOr<SmallVector<IOTensor>> outputs = collectIO(func, false);
  if (failed(inputs) || failed(outputs))
    return failure();
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
  llvm::json::Object description = describeBundle(module, options, *inputs, *outputs, entries, sources);
  unsigned first = 0, count = 0;
  files["main.c"] = emitMain(options, getHwConfig(module), *inputs, *outputs, consts.size(),
                             groupCode(0, first, count), groups, bundleTiles(module));
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
