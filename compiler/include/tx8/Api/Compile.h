//===- Compile.h - tx8 API: a model into a firmware bundle ----------*- C++ -*-===//
//
// compile(): a model (an ONNX file or ONNX bytes, or an MLIR file in TOSA or tx8be) -> import -> the backend
// pipeline -> codegen -> a bundle directory (DESIGN §6). What `tx8-aot compile` and the Python module's
// tx8.compile call.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_API_COMPILE_H
#define TX8_API_COMPILE_H

#include "tx8/Api/Status.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
class TimingScope;
} // namespace mlir

namespace tx8::api {

/// The model: a file (ONNX; .mlir for MLIR), or the bytes of an ONNX ModelProto (`name` names it in messages and
/// in the bundle's manifest: "model.onnx").
struct ModelSource {
  std::string path;
  std::string bytes; ///< used when `path` is empty
  std::string name;

  static ModelSource file(std::string path) { return {std::move(path), {}, {}}; }
  static ModelSource onnxBytes(std::string bytes, std::string name) { return {{}, std::move(bytes), std::move(name)}; }
  /// The name messages use: the path, else `name`.
  const std::string &displayName() const { return path.empty() ? name : path; }
};

/// The options of `tx8-aot compile` (its flags in brackets; the defaults are its defaults).
struct CompileOptions {
  std::string target = "cmodel";    ///< [--target] cmodel or riscv
  std::string precision = "fp32";   ///< [--precision] fp32, tf32, bf16 or fp16: the format the NE reads
  std::optional<unsigned> tiles;    ///< [--tiles] 1..16, a rectangle of the mesh; none: every tile
  int optSearch = 1;                ///< [--opt-search] 0, 1 or 2
  bool swPipeline = true, fuse = true, prefetchWeights = true, blockWeights = true, transposedLoads = true;
  bool profile = false;             ///< [--profile] main.c prints each group's cycles
  std::string hwFile;               ///< [--hw] JSON file of hardware config fields to change
  std::vector<std::string> inputShapes; ///< [--input-shape] "NAME=D0xD1x..." each
  bool debugOutputs = false;        ///< [--debug-outputs] @main also returns every ONNX node's output
  std::string testInjectError;      ///< [--test-inject-error] (tests only; needs debugOutputs)
  std::string dumpIR;               ///< [--dump-ir] the module after the pipeline, to this file

  // Looking into the compile (LLVM-style; reports on stderr, through MLIR's pass manager).
  /// [--mlir-timing] called once, after the options are checked, for the scope each step's and pass's timer nests
  /// in (so that a command line refused makes no timing report); null: untimed.
  std::function<mlir::TimingScope *()> timing;
  bool printIRAfterAll = false;          ///< [--mlir-print-ir-after-all]
  std::vector<std::string> printIRAfter; ///< [--mlir-print-ir-after]
  std::string dumpDir;                   ///< [--dump-dir]
  bool statistics = false;               ///< [--mlir-pass-statistics]

  /// Progress: `progress` is called for each step (Import, the passes, codegen, writing the bundle) that took at
  /// least `progressMinSeconds`.
  ProgressHandler progress;
  double progressMinSeconds = 1;
};

struct CompileResult {
  std::string dir;           ///< the bundle directory written
  std::string modelName;     ///< the manifest's model name (the graph's, else the file's stem)
  uint64_t constBytes = 0;   ///< the size of consts.bin
  double seconds = 0;        ///< wall time of the whole compile
};

/// Checks `options` without reading anything (the checks of `tx8-aot compile`'s command line, in its order, with
/// its messages): the target, the precision, --tiles and --opt-search ranges, the --input-shape values (and that
/// they are for an ONNX model), --test-inject-error's need of --debug-outputs, and --mlir-print-ir-after's pass
/// names. Errors are ErrorKind::Usage.
Status checkCompileOptions(const ModelSource &model, const CompileOptions &options);

/// Compiles `model` into the bundle directory `dir` (replaced if it holds an older bundle). Diagnostics go to
/// `diagnostics` as they are emitted (null: dropped); an error that was one of them is `reported`.
Status compile(const ModelSource &model, const std::string &dir, const CompileOptions &options,
               CompileResult &result, const DiagnosticHandler &diagnostics = nullptr);

/// For a tool that already holds the imported model (tx8-aot test-onnx: the module it runs the reference of):
/// compiles `module` (in place) into `dir` with `options` (the hardware config of options.hwFile; the checks and
/// import options unused). `sourcePath` names the model in the bundle. Diagnostics go to the module's context.
Status compileModule(mlir::ModuleOp module, const std::string &sourcePath, const std::string &dir,
                     const CompileOptions &options, CompileResult &result);

/// "compiled MODEL -> DIR (N bytes of constants) in T s": the line tx8-aot compile prints.
std::string compileSummary(const ModelSource &model, const CompileResult &result);

/// The compiler's version ("0.1.0"), as bundles record it.
const char *compilerVersion();

} // namespace tx8::api

#endif // TX8_API_COMPILE_H
