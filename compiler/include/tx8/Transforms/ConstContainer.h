//===- ConstContainer.h - The module's constant table --------------*- C++ -*-===//
//
// Seed "Const Management": every constant the device reads lives in the ConstContainer under an id
// (LoadConst's const_map_id); codegen lays the entries out in consts.bin. The container is kept in the IR,
// as the module attribute `tx8be.const_container` (an array of ElementsAttr, index = id), so that it
// survives printing and parsing between passes; this class is the seed's interface over it.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_TRANSFORMS_CONSTCONTAINER_H
#define TX8_TRANSFORMS_CONSTCONTAINER_H

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace tx8be {

class ConstContainer {
public:
  /// The container of `module` (empty if it has none yet).
  explicit ConstContainer(mlir::ModuleOp module);

  /// Registers a constant's value and returns its id. The same attribute registered twice gets one id.
  uint32_t add(mlir::ElementsAttr value);
  mlir::ElementsAttr get(uint32_t id) const { return entries[id]; }
  size_t size() const { return entries.size(); }
  /// Bytes of entry `id` (elements x element bytes; i1 counts one byte).
  static uint64_t byteSize(mlir::ElementsAttr value);

  /// Seed updateConstContainer: renumbers so that entries larger than `thresholdBytes` come first and the
  /// rest after, each part keeping its order. Returns old id -> new id.
  llvm::DenseMap<uint32_t, uint32_t> reorderBySize(uint64_t thresholdBytes);

  /// Writes the container back to the module attribute.
  void save();

  static llvm::StringRef getAttrName() { return "tx8be.const_container"; }

private:
  mlir::ModuleOp module;
  llvm::SmallVector<mlir::ElementsAttr> entries;
  llvm::DenseMap<mlir::Attribute, uint32_t> ids;
};

/// The tile mesh the module is compiled for (module attributes tx8be.tile_dx / tx8be.tile_dy, default 1).
struct TileInfo {
  int32_t dx = 1, dy = 1;
  int32_t tileNum() const { return dx * dy; }
};
TileInfo getTileInfo(mlir::ModuleOp module);

} // namespace tx8be

#endif // TX8_TRANSFORMS_CONSTCONTAINER_H
