//===- GroupMapping.cpp - Groups onto the tile mesh (tx8be-group-mapping) --===//
#include "tx8/Transforms/ConstContainer.h"
#include "tx8/Transforms/Passes.h"

#include "tx8/Dialect/Tx8be/IR/HwConfig.h"

namespace tx8be {
#define GEN_PASS_DEF_GROUPMAPPINGPASS
#include "tx8/Transforms/Passes.h.inc"
} // namespace tx8be

using namespace mlir;
using namespace tx8be;

namespace {

struct GroupMappingPass : tx8be::impl::GroupMappingPassBase<GroupMappingPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    TileInfo tiles = getTileInfo(module);
    tx8_hw_config hw = getHwConfig(module);
    if (tiles.dx < 1 || tiles.dy < 1 || tiles.dx > static_cast<int32_t>(hw.mesh_x) ||
        tiles.dy > static_cast<int32_t>(hw.mesh_y)) {
      module.emitError() << "tile mesh " << tiles.dx << "x" << tiles.dy << " (tx8be.tile_dx x tx8be.tile_dy) does "
                         << "not fit the chip's " << hw.mesh_x << "x" << hw.mesh_y;
      return signalPassFailure();
    }
    // Seed simpleGroupMapping: every group on the whole mesh.
    auto region = RegionAttr::get(&getContext(), tiles.dx, tiles.dy);
    module.walk([&](GroupOp group) { group.setDevRegionAttr(region); });
  }
};

} // namespace
