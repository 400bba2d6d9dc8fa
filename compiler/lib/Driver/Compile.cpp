//===- Compile.cpp - The backend pipeline and tx8-aot compile -------------===//
#include "tx8/Reference/BoundedFile.h"
#include "tx8/Driver/Compile.h"

#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"
#include "tx8/Dialect/Tx8be/IR/HwConfig.h"
#include "tx8/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using tx8::ref::Status;

void tx8be::buildBackendPipeline(OpPassManager &pm, const tx8::codegen::BundleOptions &options) {
  buildLayoutPipeline(pm, options.precision); // NE precision, constant folding, shapes, layout
  pm.addPass(createMoveConstantPass());
  pm.addPass(createConstNormPass());
  pm.addNestedPass<func::FuncOp>(createGroupOptimizationPass());
  GroupFusePassOptions fuse;
  fuse.enable = options.fuse;
  pm.addNestedPass<func::FuncOp>(createGroupFusePass(fuse));
  pm.addNestedPass<func::FuncOp>(createGroupLdStPass());
  pm.addPass(createGroupMappingPass());
  GroupCostPassOptions cost;
  cost.optSearch = options.optSearch;
  cost.transposedLoads = options.transposedLoads;
  cost.blockWeights = options.blockWeights;
  cost.prefetchWeights = options.prefetchWeights;
  pm.addNestedPass<func::FuncOp>(createGroupCostPass(cost));
  TransposedLoadsPassOptions transposed;
  transposed.enable = options.transposedLoads;
  pm.addNestedPass<func::FuncOp>(createTransposedLoadsPass(transposed));
  SwPipelinePassOptions pipeline;
  pipeline.enable = options.swPipeline;
  pm.addNestedPass<func::FuncOp>(createSwPipelinePass(pipeline));
  pm.addNestedPass<func::FuncOp>(createSpmAllocPass());
  PrefetchWeightsPassOptions prefetch;
  prefetch.enable = options.prefetchWeights;
  pm.addNestedPass<func::FuncOp>(createPrefetchWeightsPass(prefetch));
  BlockWeightsPassOptions block;
  block.enable = options.blockWeights;
  pm.addPass(createBlockWeightsPass(block));
  pm.addPass(createDdrAllocPass());
  pm.addNestedPass<func::FuncOp>(createGroupDAGPass());
}

std::optional<std::pair<int32_t, int32_t>> tx8be::tileMeshFor(unsigned tiles, const tx8_hw_config &hw) {
  std::optional<std::pair<int32_t, int32_t>> best;
  for (uint32_t x = 1; x <= hw.mesh_x; ++x)
    if (tiles % x == 0 && tiles / x <= hw.mesh_y && tiles / x >= 1) {
      auto y = static_cast<int32_t>(tiles / x);
      auto gap = [](std::pair<int32_t, int32_t> m) { return std::abs(m.first - m.second); };
      std::pair<int32_t, int32_t> mesh{static_cast<int32_t>(x), y};
      if (!best || gap(mesh) < gap(*best) || (gap(mesh) == gap(*best) && mesh.first > best->first))
        best = mesh;
    }
  return best;
}

Status tx8be::readHwConfig(const std::string &path, tx8_hw_config &config) {
  std::string text;
  Status s = tx8::ref::readBoundedFile(path, tx8::ref::kMaxTextFileBytes, "the hardware config", text);
  if (s.ok())
    s = tx8::ref::checkJsonDepth(text, path);
  if (!s.ok())
    return s;
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json)
    return Status::error(path + ": not valid JSON: " + llvm::toString(json.takeError()));
  const llvm::json::Object *object = json->getAsObject();
  if (!object)
    return Status::error(path + ": expected a JSON object of hardware config fields");
  return parseHwConfigJson(*object, path, config);
}

Status tx8be::parseHwConfigJson(const llvm::json::Object &object, const std::string &where, tx8_hw_config &config) {
  for (const auto &[key, value] : object) {
    std::string why = setHwConfigField(config, key, value.getAsInteger());
    if (!why.empty())
      return Status::error(where + ": " + why);
  }
  if (const char *why = tx8_hw_config_check(&config))
    return Status::error(where + ": " + why);
  return Status();
}

/// Every tensor of the model must fit the chip's DDR (its compact image; sizes overflow-checked), before any
/// pass computes with its size.
static LogicalResult checkTensorSizes(ModuleOp module) {
  tx8_hw_config hw = tx8be::getHwConfig(module);
  auto check = [&](Value value, Location loc) -> LogicalResult {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || !type.hasStaticShape())
      return success();
    std::optional<uint64_t> bytes = tx8be::deviceImageBytes(type.getShape(), type.getElementType(),
                                                            tx8be::defaultCompactLayout(type), tx8_hw_batch_align_bytes(&hw));
    if (!bytes)
      return emitError(loc) << "a " << type << " is too large: its size in bytes overflows 64 bits";
    if (*bytes > hw.ddr_bytes)
      return emitError(loc) << "a " << type << " needs " << *bytes << " bytes, more than the chip's DDR ("
                            << hw.ddr_bytes << " bytes)";
    return success();
  };
  WalkResult walk = module.walk([&](Operation *op) {
    if (auto func = dyn_cast<func::FuncOp>(op))
      for (BlockArgument arg : func.getArguments())
        if (failed(check(arg, func.getLoc())))
          return WalkResult::interrupt();
    for (Value result : op->getResults())
      if (failed(check(result, op->getLoc())))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult tx8be::runBackendPipeline(ModuleOp module, const tx8::codegen::BundleOptions &options,
                                        const PipelineIntrospection &introspection) {
  if (failed(checkTensorSizes(module)))
    return failure();
  tx8_hw_config hw = tx8be::getHwConfig(module);
  unsigned tiles = options.tiles ? options.tiles : hw.mesh_x * hw.mesh_y;
  std::optional<std::pair<int32_t, int32_t>> mesh = tileMeshFor(tiles, hw);
  if (!mesh)
    return module.emitError() << "--tiles " << tiles << ": not a rectangle of the chip's " << hw.mesh_x << "x"
                              << hw.mesh_y << " tile mesh";
  Builder b(module.getContext());
  module->setAttr("tx8be.tile_dx", b.getI32IntegerAttr(mesh->first));
  module->setAttr("tx8be.tile_dy", b.getI32IntegerAttr(mesh->second));
  MLIRContext *context = module.getContext();
  bool threaded = context->isMultithreadingEnabled();
  if (introspection.printsIR())
    context->disableMultithreading(); // the printer reads the whole module after a pass on one function
  bool dumpFailed = false;
  LogicalResult result = [&] {
    PassManager pm(context);
    buildBackendPipeline(pm, options);
    instrumentPipeline(pm, introspection, dumpFailed);
    return pm.run(module);
  }(); // the pass manager is gone: its timing and statistics reports are out
  if (introspection.printsIR() && threaded)
    context->enableMultithreading();
  return failure(failed(result) || dumpFailed);
}

LogicalResult tx8be::compileModule(ModuleOp module, const tx8::codegen::BundleOptions &options,
                                   tx8::codegen::BundleFiles &files) {
  if (failed(runBackendPipeline(module, options)))
    return failure();
  return tx8::codegen::generateBundle(module, options, files);
}
