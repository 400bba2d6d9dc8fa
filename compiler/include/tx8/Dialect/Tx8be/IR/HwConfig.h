//===- HwConfig.h - The hardware config a module is compiled for -*- C++ -*-===//
//
// One source for the hardware numbers the compiler plans with: the module attribute `tx8be.hw_config`, a
// dictionary of the tx8/hw_config.def fields that differ from tx8_hw_config_default() (no attribute: the
// defaults). tx8-aot writes it from --hw before the backend pipeline; every pass reads it once from the module
// and hands the struct down explicitly (planners, OpLib queries, cost estimates), and codegen writes the same
// numbers into the bundle, so passes, packing and the run cannot disagree.
//
//   module attributes {tx8be.hw_config = {spm_bytes = 32768 : i64, batch_align_bits = 4096 : i64}} { ... }
//
//===----------------------------------------------------------------------===//
#ifndef TX8_DIALECT_TX8BE_IR_HWCONFIG_H
#define TX8_DIALECT_TX8BE_IR_HWCONFIG_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

#include "tx8/hw_config.h"

namespace tx8be {

inline constexpr llvm::StringLiteral kHwConfigAttrName = "tx8be.hw_config";

/// The config recorded on the module that holds `op` (`op` may be the module); the defaults where none is.
/// The attribute has been verified (Tx8beDialect::verifyOperationAttribute), so this cannot fail.
tx8_hw_config getHwConfig(mlir::Operation *op);

/// Records `hw` on `module`: the fields that differ from the defaults (none: the attribute is removed).
void setHwConfig(mlir::ModuleOp module, const tx8_hw_config &hw);

/// Sets field `name` of `hw` to `value` (nullopt: the value is not an integer). Returns why it cannot, "" when
/// set: an unknown field, or a value that is not a non-negative integer fitting the field (its type and unit).
/// The one check of a config field, for the module attribute, --hw files and manifests alike; the whole config
/// is then checked by tx8_hw_config_check (ranges and rules across fields, shared with the chip model).
std::string setHwConfigField(tx8_hw_config &hw, llvm::StringRef name, std::optional<int64_t> value);

/// Reads a `tx8be.hw_config` dictionary into `hw` (fields absent from it keep their value). Every key must be a
/// hw_config.def field holding an integer that fits the field, and the result must pass tx8_hw_config_check;
/// otherwise `emitError()` says which.
mlir::LogicalResult parseHwConfig(mlir::DictionaryAttr dict, tx8_hw_config &hw,
                                  llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

/// A rectangle of the chip's tile mesh: columns x0..x1, rows y0..y1 (inclusive), as a DTE multicast names it.
struct MeshRect {
  uint32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

/// The rectangle tiles `members` fill exactly (tile t at column t % mesh_x, row t / mesh_x of `hw`'s mesh);
/// nullopt when they leave a hole, repeat a tile or lie outside the mesh.
std::optional<MeshRect> meshRectangleOf(llvm::ArrayRef<int64_t> members, const tx8_hw_config &hw);

/// The rectangle of the tiles that name `leader` in `leaders` (a LoadBox multicast: one entry per tile, the tile
/// that brings its box), as meshRectangleOf; nullopt when none names it or they are no rectangle.
std::optional<MeshRect> multicastRectangle(llvm::ArrayRef<int64_t> leaders, int64_t leader, const tx8_hw_config &hw);

} // namespace tx8be

#endif // TX8_DIALECT_TX8BE_IR_HWCONFIG_H
