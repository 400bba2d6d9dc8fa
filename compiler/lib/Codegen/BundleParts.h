//===- BundleParts.h - One writer per bundle file (private) --*- C++ -*-===//
//
// Bundle.cpp collects what the files describe (the graph's inputs and outputs) and asks each file's writer
// for its text: ConstsBin.cpp (consts.bin), MainC.cpp (main.c around EmitMain.cpp's group functions),
// ModelHeader.cpp (model.h), Manifest.cpp (manifest.json). BundleWriter.cpp puts them on disk.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_LIB_CODEGEN_BUNDLEPARTS_H
#define TX8_LIB_CODEGEN_BUNDLEPARTS_H

#include "tx8/Codegen/Bundle.h"
#include "tx8/Reference/Tensor.h"

#include "llvm/Support/JSON.h"
#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace tx8::codegen {

/// A graph input or output as the device sees it: main.c's I/O file, model.h's and the manifest's tables.
struct IOTensor {
  std::string name;
  mlir::Type elementType;
  llvm::SmallVector<int64_t> shape;
  tx8be::DeviceLayout layout;
  std::string layoutStr;
  uint64_t ddrAddr = 0, bytes = 0;
  std::string file;
  std::string debugNode, debugOpType; ///< a debug output's ONNX node (tx8be.debug_node): in the manifest
};

/// BundleOptions::testInjectError: where main.c perturbs a node's value (a test-only hook).
struct InjectSite {
  std::string node, tensor;    ///< the node and its output (the first debug output of the node)
  unsigned group = 0;          ///< the group function that computes it (main.c's order)
  uint64_t ddrAddr = 0;        ///< its device image in DDR; element 0 is its first bytes
  tx8::ref::DType dtype = tx8::ref::DType::F32;
};

/// A constant container entry as consts.bin holds it (the manifest's const table).
struct ConstEntry {
  uint32_t id;
  std::string name, layoutStr;
  mlir::Type elementType;
  llvm::SmallVector<int64_t> shape;
  tx8be::DeviceLayout layout;
  uint64_t offset = 0, bytes = 0;
  std::string checksum;
};

/// consts.bin: every constant container entry in its device layout at its DDR offset (tx8be.const_addrs).
mlir::LogicalResult buildConsts(mlir::ModuleOp module, std::string &blob, std::vector<ConstEntry> &entries);

/// main.c: `groupCode` (EmitMain.cpp's static functions group_0 ... up to kGroupsPerSource) and a main() that
/// opens the chip with `hw`, loads consts.bin and the inputs, runs the `groups` groups in order (on `tiles`
/// tiles at once when more than one: tx8_hal_run_tiles) and writes the outputs.
/// With `inject`, main.c perturbs element 0 of its tensor after its group (on tile 0, between two barriers when
/// the groups run on several tiles or with --profile).
std::string emitMain(const BundleOptions &options, const tx8_hw_config &hw, llvm::ArrayRef<IOTensor> inputs,
                     llvm::ArrayRef<IOTensor> outputs, uint64_t constBytes, llvm::StringRef groupCode,
                     unsigned groups, unsigned tiles, const InjectSite *inject = nullptr);

/// The tiles the bundle runs on: the largest dev_region of its Groups (1 without any).
unsigned bundleTiles(mlir::ModuleOp module);

/// groups_<k>.c (`name`): `groupCode`, the functions of `groups` groups from `firstGroup` on.
std::string emitGroupSource(const BundleOptions &options, llvm::StringRef name, unsigned firstGroup, unsigned groups,
                            llvm::StringRef groupCode);

/// model.h: the inputs and outputs as C tables, and the manifest's digest (TX8_MANIFEST_DIGEST).
std::string emitModelH(const BundleOptions &options, llvm::ArrayRef<IOTensor> inputs,
                       llvm::ArrayRef<IOTensor> outputs, llvm::StringRef manifestDigest);

/// The manifest's content but its "files" checksums: format, compiler, model, target, hardware, C sources,
/// tensors, const table.
llvm::json::Object describeBundle(mlir::ModuleOp module, const BundleOptions &options,
                                  llvm::ArrayRef<IOTensor> inputs, llvm::ArrayRef<IOTensor> outputs,
                                  llvm::ArrayRef<ConstEntry> consts, llvm::ArrayRef<std::string> sources,
                                  const InjectSite *inject = nullptr);

/// manifest.json: `description` with the checksums of `files` (the bundle's other files: kChecksummedFiles and
/// the description's "sources").
std::string emitManifest(llvm::json::Object description, const BundleFiles &files);

/// `s` as a C string literal: quotes and backslashes escaped, other bytes outside printable ASCII in octal.
std::string cString(llvm::StringRef s);

} // namespace tx8::codegen

#endif // TX8_LIB_CODEGEN_BUNDLEPARTS_H
