//===- Bundle.h - Firmware bundles: main.c, model.h, consts.bin, manifest -*- C++ -*-===//
//
// Codegen (DESIGN §6). Input: a module that has been through the backend pipeline (buildBackendPipeline):
// every compute op sits alone in a Group whose schedule (tx8be.Steps with LoadBox / StoreBox) says what each step
// moves, with SPM (dev_info.mem_addr) and DDR (tx8be.ddr_addr / tx8be.ddr_addrs / tx8be.const_addrs) addresses. Output: a
// directory that builds on its own against the tx8 SDK for TX8_TARGET=cmodel|riscv:
//
//   main.c         load -> compute -> store per temporal step, one C function per Group, comments naming the
//                  source ops; reads consts.bin and input_<i>.bin, writes output_<i>.bin (device images)
//   model.h        the inputs and outputs as the device sees them (name, format, shape, layout, DDR range)
//   consts.bin     the constant region of DDR, each container entry in its device layout at its bank
//   manifest.json  format version, compiler version, target, hardware config, tensors, const table, checksums
//   CMakeLists.txt find_package(tx8) + tx8_add_bundle
//
// Everything is a function of the module and the options only (no time stamps, no absolute paths), so the
// same input gives byte-identical bundles.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_CODEGEN_BUNDLE_H
#define TX8_CODEGEN_BUNDLE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>
#include <vector>

#include "tx8/hw_config.h"

#include "llvm/Support/JSON.h"

namespace tx8::codegen {

/// Bumped whenever the bundle's files change meaning; `tx8-aot run` refuses other versions. 2: model.h
/// records the manifest's digest (manifestDigest), and the checked files are kChecksummedFiles. 3: the group
/// functions past the first kGroupsPerSource are in groups_<k>.c, listed in the manifest's "sources".
inline constexpr int kBundleFormatVersion = 3;

/// The files every bundle consists of besides manifest.json, each with its checksum in the manifest's "files":
/// fixed by the format, so that a manifest cannot leave one out of the check. The other C sources are
/// bundleSources(n): their names are fixed by the format, their count is in the manifest's "sources", which
/// its digest covers.
inline constexpr const char *kChecksummedFiles[] = {"CMakeLists.txt", "consts.bin", "main.c", "model.h"};

/// main.c holds the first kGroupsPerSource group functions, groups_1.c the next kGroupsPerSource, and so on:
/// the C of a long model compiles in parallel, in files of at most about 0.5 MB.
inline constexpr unsigned kGroupsPerSource = 256;

/// The C sources of a bundle with `groups` group functions: main.c, then groups_1.c, groups_2.c, ...
std::vector<std::string> bundleSources(unsigned groups);

struct BundleOptions {
  std::string target = "cmodel"; ///< cmodel | riscv: recorded in the manifest, the default of `run`
  std::string modelName;         ///< the graph's name (module attr tx8be.graph_name) or the file's stem
  std::string sourceFile;        ///< the model's file name (no directory), for comments and the manifest
  std::string compilerVersion;
  std::string precision = "fp32"; ///< --precision: the NE's input format (tx8be-ne-precision); in the manifest
                                  ///< only when not fp32, so fp32 bundles are unchanged
  unsigned tiles = 0;   ///< --tiles: the tiles the plan may use (module tx8be.tile_dx x tx8be.tile_dy); 0: the
                        ///< chip's whole mesh (hardware config mesh_x x mesh_y)
  int optSearch = 1;    ///< --opt-search: how much of the sharding space tx8be-group-cost searches (0, 1, 2)
  bool swPipeline = true; ///< tx8be-sw-pipeline: overlap each step's copies with its neighbours' compute
  bool fuse = true;       ///< --fuse: tx8be-group-fuse merges an op and the elementwise ops after it into a Group
  bool prefetchWeights = true; ///< --prefetch-weights: tx8be-prefetch-weights copies a Group's constant boxes
                               ///< during the Group before it
  bool blockWeights = true;    ///< --block-weights: tx8be-block-weights stores a constant read by column blocks
                               ///< block by block (ColumnBlocks.h)
  bool transposedLoads = true; ///< --transposed-loads: tx8be-transposed-loads reads a Transpose's input through
                               ///< the loads of the Groups after it
  bool profile = false;   ///< --profile: main.c prints each group's simulated cycles ("tx8: group G cycles C"),
                          ///< with a barrier after every group (its barrier_cycles counted in the group)
  std::string testInjectError; ///< test only (tx8-aot --test-inject-error=NODE): main.c perturbs element 0 of the
                               ///< value of node NODE in DDR right after the group that computes it, as a wrong
                               ///< kernel would (needs the importer's debug outputs, which name the nodes; see
                               ///< emitMain); recorded in the manifest. Empty (the default): no effect
  // The hardware config is the module's (tx8be.hw_config, tx8/Dialect/Tx8be/IR/HwConfig.h), not an option.
};

/// The generated files, by name (main.c, model.h, consts.bin, manifest.json, CMakeLists.txt).
using BundleFiles = std::map<std::string, std::string>;

/// Generates every file of the bundle. Fails with an error at the op that codegen cannot handle (an op with
/// no OpLib kernel for its types or attributes, a missing address).
mlir::LogicalResult generateBundle(mlir::ModuleOp module, const BundleOptions &options, BundleFiles &files);

/// Writes `files` to `dir` all or nothing: into a fresh sibling temporary directory, then renamed over `dir`
/// (an existing bundle there is replaced only once the new one is complete). On failure `error` says why.
mlir::LogicalResult writeBundleDir(const BundleFiles &files, llvm::StringRef dir, std::string &error);

/// FNV-1a 64 of `data` as 16 hex digits (the manifest's checksums).
std::string checksum(llvm::StringRef data);

/// The digest of a manifest's content without its "files" checksums: the checksum of its canonical JSON (keys
/// sorted, no spaces). model.h records it as TX8_MANIFEST_DIGEST, and model.h's checksum is in "files", so an
/// edit of the manifest's description (a shape, an order, the hardware) shows.
std::string manifestDigest(const llvm::json::Object &manifest);

} // namespace tx8::codegen

#endif // TX8_CODEGEN_BUNDLE_H
