//===- Compile.h - The backend pipeline and tx8-aot compile / run -*- C++ -*-===//
//
// compileToBundle: model module -> backend pipeline (DESIGN §2) -> codegen -> bundle directory.
// runBundle: a bundle directory -> built for a target against the tx8 SDK -> run on inputs -> outputs.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_DRIVER_COMPILE_H
#define TX8_DRIVER_COMPILE_H

#include "tx8/Codegen/Bundle.h"
#include "tx8/Driver/Introspection.h"
#include "tx8/Reference/Status.h"
#include "tx8/Reference/Tensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace tx8be {

/// The passes from an imported tx8be graph to a module codegen takes, in the seed's order: constant
/// folding, shapes, layout, constant management, grouping, loads/stores, mapping, sharding and split search,
/// software pipelining, SPM and DDR allocation, barriers. From `options`: precision (tx8-aot --precision: the
/// format the NE reads an fp32 model's conv/gemm operands in, tx8be-ne-precision, in the layout stage before
/// the constant folding; fp32 adds no pass), optSearch (tx8be-group-cost), swPipeline and fuse
/// (tx8be-group-fuse).
void buildBackendPipeline(mlir::OpPassManager &pm, const tx8::codegen::BundleOptions &options = {});

/// The tile mesh for `tiles` tiles on the chip of `hw`: x * y == tiles, x <= mesh_x, y <= mesh_y, as square as
/// possible; nullopt when no such rectangle exists (e.g. 5 on a 4x4 mesh).
std::optional<std::pair<int32_t, int32_t>> tileMeshFor(unsigned tiles, const tx8_hw_config &hw);

/// Reads a --hw file: a JSON object of hardware config fields (tx8/hw_config.def names) to change, e.g.
/// {"spm_bytes": 1048576}. Unknown fields, non-integers and out-of-range values are errors.
tx8::ref::Status readHwConfig(const std::string &path, tx8_hw_config &config);
/// The fields of a JSON object (a --hw file, a manifest's "hardware") into `config`; errors start with `where`.
tx8::ref::Status parseHwConfigJson(const llvm::json::Object &object, const std::string &where, tx8_hw_config &config);

/// Runs the backend pipeline on `module` (in place), after checking that every tensor fits the chip's DDR and
/// setting the tile mesh of --tiles; `introspection` says what to show of the run (tx8-aot compile's
/// --mlir-timing, --mlir-print-ir-after, --dump-dir, --mlir-pass-statistics).
mlir::LogicalResult runBackendPipeline(mlir::ModuleOp module, const tx8::codegen::BundleOptions &options,
                                       const PipelineIntrospection &introspection = {});

/// Runs the backend pipeline on `module` (in place) and generates the bundle's files.
mlir::LogicalResult compileModule(mlir::ModuleOp module, const tx8::codegen::BundleOptions &options,
                                  tx8::codegen::BundleFiles &files);

/// Where bundles are built from. Found relative to this program's own executable, so a build tree and an
/// installed prefix both work without either being named in the binary: <exe>/../lib/cmake/tx8 (installed, both
/// targets), else the build tree's <exe>/../sdk (cmodel) or <exe>/../riscv-gcc/sdk (riscv). The environment
/// variable TX8_SDK_DIR replaces the search. A directory is an SDK for a target when it holds
/// tx8Target-<target>.cmake (cmake/Tx8Sdk.cmake).
struct SdkPaths {
  std::string sdkDir;        ///< the bundle's TX8_SDK_DIR
  std::string toolchainFile; ///< riscv only: <sdkDir>/riscv64-gcc.cmake
  std::string qemuRun;       ///< riscv only: tx8-qemu-run beside the executable
};
tx8::ref::Status findSdk(const std::string &target, SdkPaths &paths);
/// For a front end that is not an executable in <prefix>/bin (the Python module): the directory findSdk takes for
/// the executable's (<prefix>/bin of the build tree or the installed prefix).
void setToolDirectory(const std::string &binDir);

struct RunResult {
  std::vector<tx8::ref::Tensor> outputs; ///< in the manifest's output order, logical layout
  std::vector<std::string> outputNames;
  uint64_t cycles = 0;
  std::vector<std::string> groupCycles; ///< a --profile bundle's "tx8: group G cycles C" lines, in order
  std::string trace;                     ///< with `trace`: the binary trace the run wrote (tx8/trace_format.h)
  double buildSeconds = 0, runSeconds = 0;
};

/// A bundle's manifest, checked: format and compiler version, and every file's checksum.
struct BundleInfo {
  std::string dir, target, modelName;
  struct IO {
    std::string name, dtype, file, layout;
    std::vector<int64_t> shape, order;
    std::string memLayout;
    uint64_t bytes = 0;
  };
  std::vector<IO> inputs, outputs;
  /// The manifest's "groups", in main.c's order (what traces and reports name; absent fields are empty / 0).
  struct Group {
    std::string op; ///< "conv+relu", or "view"
    std::vector<std::string> nodes; ///< the source (ONNX) nodes
    uint64_t tiles = 0, spmBytes = 0, estimateCycles = 0;
  };
  std::vector<Group> groups;
  uint64_t tiles = 1; ///< the tiles the bundle runs on
  tx8_hw_config hw = tx8_hw_config_default(); ///< what the bundle was compiled for (its manifest's "hardware")
  std::string precision = "fp32";             ///< its manifest's "precision" (absent: fp32)
  std::string testInjectError;                ///< its manifest's "test_inject_error" node (a test-only bundle)
};
tx8::ref::Status loadBundle(const std::string &dir, BundleInfo &info);

/// `tx8-aot compile --print-memory` and `tx8-aot memory DIR`: one page on the memory of the bundle in `dir`
/// (checked by loadBundle), from its manifest: each tile's SPM peak (the largest spm_bytes of the groups with a
/// step on it), DDR for the constants and the activations (inputs, outputs, intermediates), the files' sizes.
tx8::ref::Status printBundleMemory(const std::string &dir, llvm::raw_ostream &os);

/// Builds the bundle for `target` (in <dir>/build-<target>, reused when up to date) and returns the program.
tx8::ref::Status buildBundle(const BundleInfo &bundle, const std::string &target, std::string &program,
                             double &seconds);

/// Runs a built bundle on `inputs` (one per manifest input, logical layout, dtype and shape checked); with
/// `trace` the bundle records its timeline into result.trace.
tx8::ref::Status runBundle(const BundleInfo &bundle, const std::string &target, const std::string &program,
                           const std::vector<tx8::ref::Tensor> &inputs, RunResult &result, bool trace = false);

} // namespace tx8be

#endif // TX8_DRIVER_COMPILE_H
