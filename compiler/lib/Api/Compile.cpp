//===- Compile.cpp - tx8 API: a model into a firmware bundle ---------------===//
//
// The steps of `tx8-aot compile` (checks, import, the backend pipeline, codegen, writing the bundle), each timed
// under the caller's --mlir-timing scope and reported as progress when long; the command line and the Python
// module only say what to compile and show what happened.
//
//===----------------------------------------------------------------------===//
#include "tx8/Api/Compile.h"

#include "Internal.h"
#include "tx8/Api/Context.h"
#include "tx8/Codegen/Bundle.h"
#include "tx8/Dialect/Tx8be/IR/HwConfig.h"
#include "tx8/Driver/Compile.h"
#include "tx8/Driver/Model.h"
#include "tx8/Import/ONNX.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>

using mlir::MLIRContext;
using mlir::ModuleOp;
using mlir::OpPassManager;
using mlir::OwningOpRef;
using mlir::StringAttr;
using mlir::TimingScope;
using mlir::openOutputFile;
using mlir::succeeded;
using namespace tx8::api;

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Runs step(scope), timed as `timer` in the --mlir-timing report, with a progress call saying `what` if it took
/// long.
template <typename Step>
auto runStep(const CompileOptions &options, TimingScope &root, llvm::StringRef timer, llvm::StringRef what,
             Step step) {
  TimingScope scope = root.nest(timer);
  auto start = std::chrono::steady_clock::now();
  auto result = step(scope);
  scope.stop();
  double seconds = secondsSince(start);
  if (options.progress && seconds >= options.progressMinSeconds)
    options.progress(what.str(), seconds);
  return result;
}

/// BundleOptions for a model `path` names: its name from the graph (or the file), the compiler's version.
tx8::codegen::BundleOptions bundleOptions(ModuleOp module, const std::string &path, const CompileOptions &o) {
  tx8::codegen::BundleOptions options = detail::pipelineOptions(o);
  options.sourceFile = llvm::sys::path::filename(path).str();
  auto graph = module->getAttrOfType<StringAttr>("tx8be.graph_name");
  options.modelName = graph && !graph.getValue().empty() ? graph.getValue().str()
                                                         : llvm::sys::path::stem(path).str();
  return options;
}

bool validTarget(const std::string &t) { return t == "cmodel" || t == "riscv"; }

} // namespace

const char *tx8::api::compilerVersion() { return TX8_COMPILER_VERSION; }

tx8::codegen::BundleOptions detail::pipelineOptions(const CompileOptions &o) {
  tx8::codegen::BundleOptions options;
  options.target = o.target;
  options.compilerVersion = TX8_COMPILER_VERSION;
  options.precision = o.precision;
  options.tiles = o.tiles.value_or(0);
  options.optSearch = o.optSearch;
  options.swPipeline = o.swPipeline;
  options.fuse = o.fuse;
  options.prefetchWeights = o.prefetchWeights;
  options.blockWeights = o.blockWeights;
  options.transposedLoads = o.transposedLoads;
  options.profile = o.profile;
  options.testInjectError = o.testInjectError;
  return options;
}

Status detail::usage(std::string message) { return Status::error(ErrorKind::Usage, std::move(message)); }

Status detail::checkTarget(const std::string &target) {
  return validTarget(target) ? Status() : usage("--target " + target + ": expected cmodel or riscv");
}

Status detail::checkPrecision(const std::string &p) {
  if (p == "fp32" || p == "tf32" || p == "bf16" || p == "fp16")
    return Status();
  return usage("--precision " + p + ": expected fp32, tf32, bf16 or fp16");
}

Status detail::checkPlanOptions(const CompileOptions &o) {
  if (o.tiles && (*o.tiles < 1 || *o.tiles > 16))
    return usage("--tiles " + std::to_string(*o.tiles) + ": expected 1 to 16");
  if (o.optSearch < 0 || o.optSearch > 2)
    return usage("--opt-search " + std::to_string(o.optSearch) + ": expected 0, 1 or 2");
  return Status();
}

Status detail::checkInputShapes(const ModelSource &model, const CompileOptions &o,
                                std::vector<tx8be::InputShape> &shapes) {
  tx8::ref::Status s = tx8be::parseInputShapes(o.inputShapes, shapes);
  if (!s.ok())
    return usage(s.message());
  if (!shapes.empty() && !model.path.empty() && tx8be::isMLIRModel(model.path))
    return usage("--input-shape is for ONNX models; " + model.path + " is MLIR, whose types are in its text");
  return Status();
}

Status detail::readHw(const std::string &path, tx8_hw_config &hw) {
  hw = tx8_hw_config_default();
  if (path.empty())
    return Status();
  tx8::ref::Status s = tx8be::readHwConfig(path, hw);
  return s.ok() ? Status() : Status::error(ErrorKind::Compile, s.message());
}

OwningOpRef<ModuleOp> detail::importModel(const ModelSource &model, MLIRContext &context,
                                          const std::vector<tx8be::InputShape> &shapes, bool debugOutputs) {
  if (!model.path.empty())
    return tx8be::loadModel(model.path, context, shapes, debugOutputs);
  tx8be::ONNXImportOptions options;
  options.inputShapes = shapes;
  options.debugOutputs = debugOutputs;
  return tx8be::importONNXBytes(model.bytes, /*textFormat=*/false, model.name, context, options);
}

Status detail::compileLoaded(ModuleOp module, const std::string &sourcePath, const tx8_hw_config &hw,
                             const std::string &dir, const CompileOptions &o, TimingScope &root,
                             const std::string *firstError, uint64_t &constBytes) {
  auto reported = [&] {
    return Status::error(ErrorKind::Compile, firstError && !firstError->empty() ? *firstError : "the compile failed",
                         /*reported=*/true);
  };
  tx8be::setHwConfig(module, hw);
  tx8::codegen::BundleOptions options = bundleOptions(module, sourcePath, o);
  bool compiled = runStep(o, root, "Pass pipeline", "running the passes", [&](TimingScope &scope) {
    tx8be::PipelineIntrospection introspection;
    introspection.timing = scope ? &scope : nullptr;
    introspection.printIRAfterAll = o.printIRAfterAll;
    introspection.printIRAfter = o.printIRAfter;
    introspection.dumpDir = o.dumpDir;
    introspection.statistics = o.statistics;
    return succeeded(tx8be::runBackendPipeline(module, options, introspection));
  });
  tx8::codegen::BundleFiles files;
  if (!compiled || !runStep(o, root, "Codegen", "generating code", [&](TimingScope &) {
        return succeeded(tx8::codegen::generateBundle(module, options, files));
      }))
    return reported();
  if (!o.dumpIR.empty()) {
    std::string error;
    auto out = openOutputFile(o.dumpIR, &error);
    if (!out)
      return Status::error(ErrorKind::Compile, error);
    module->print(out->os());
    out->keep();
  }
  std::string error;
  if (!runStep(o, root, "Write bundle", "writing the bundle", [&](TimingScope &) {
        return succeeded(tx8::codegen::writeBundleDir(files, dir, error));
      }))
    return Status::error(ErrorKind::Compile, error);
  constBytes = files["consts.bin"].size();
  return Status();
}

/// The checks of the command line before the hardware config is read.
static Status checkOptions(const ModelSource &model, const CompileOptions &options,
                           std::vector<tx8be::InputShape> &shapes) {
  Status s = detail::checkTarget(options.target);
  if (s.ok())
    s = detail::checkPrecision(options.precision);
  if (s.ok())
    s = detail::checkPlanOptions(options);
  if (s.ok())
    s = detail::checkInputShapes(model, options, shapes);
  if (s.ok() && !options.testInjectError.empty() && !options.debugOutputs)
    s = detail::usage("--test-inject-error needs --debug-outputs (the debug outputs name the nodes)");
  return s;
}

Status tx8::api::checkCompileOptions(const ModelSource &model, const CompileOptions &options) {
  std::vector<tx8be::InputShape> shapes;
  Status s = checkOptions(model, options, shapes);
  return s.ok() ? detail::checkPrintIRAfter(options) : s;
}

Status detail::checkPrintIRAfter(const CompileOptions &options) {
  if (options.printIRAfter.empty())
    return Status();
  OpPassManager pipeline(ModuleOp::getOperationName());
  tx8be::buildBackendPipeline(pipeline, pipelineOptions(options));
  tx8::ref::Status s = tx8be::checkPassArguments(options.printIRAfter, tx8be::pipelinePassArguments(pipeline));
  return s.ok() ? Status() : usage(s.message());
}

Status tx8::api::compile(const ModelSource &model, const std::string &dir, const CompileOptions &options,
                         CompileResult &result, const DiagnosticHandler &diagnostics) {
  auto start = std::chrono::steady_clock::now();
  // tx8-aot compile's order: the options, the hardware config, the passes named, the dump directory.
  std::vector<tx8be::InputShape> shapes;
  Status s = checkOptions(model, options, shapes);
  tx8_hw_config hw;
  if (s.ok())
    s = detail::readHw(options.hwFile, hw);
  if (s.ok())
    s = detail::checkPrintIRAfter(options);
  if (s.ok() && !options.dumpDir.empty())
    if (tx8::ref::Status d = tx8be::prepareDumpDir(options.dumpDir); !d.ok())
      s = Status::error(ErrorKind::Compile, d.message());
  if (!s.ok())
    return s;

  std::unique_ptr<MLIRContext> context = createContext();
  std::string firstError;
  attachDiagnostics(*context, model.displayName(), diagnostics, &firstError);
  TimingScope untimed;
  TimingScope *timed = options.timing ? options.timing() : nullptr;
  TimingScope &root = timed ? *timed : untimed;
  OwningOpRef<ModuleOp> module = runStep(options, root, "Import", "importing the model", [&](TimingScope &) {
    return detail::importModel(model, *context, shapes, options.debugOutputs);
  });
  if (!module || !tx8be::getEntryFunction(*module))
    return Status::error(ErrorKind::Import, firstError.empty() ? model.displayName() + ": cannot import the model"
                                                               : firstError,
                         /*reported=*/true);
  result = CompileResult();
  s = detail::compileLoaded(*module, model.displayName(), hw, dir, options, root, &firstError, result.constBytes);
  if (!s.ok())
    return s;
  result.dir = dir;
  result.modelName = bundleOptions(*module, model.displayName(), options).modelName;
  result.seconds = secondsSince(start);
  return Status();
}

Status tx8::api::compileModule(ModuleOp module, const std::string &sourcePath, const std::string &dir,
                               const CompileOptions &options, CompileResult &result) {
  auto start = std::chrono::steady_clock::now();
  tx8_hw_config hw;
  if (Status s = detail::readHw(options.hwFile, hw); !s.ok())
    return s;
  TimingScope untimed;
  result = CompileResult();
  if (Status s = detail::compileLoaded(module, sourcePath, hw, dir, options, untimed, nullptr, result.constBytes);
      !s.ok())
    return s;
  result.dir = dir;
  result.seconds = secondsSince(start);
  return Status();
}

std::string tx8::api::compileSummary(const ModelSource &model, const CompileResult &result) {
  return detail::formatted("compiled %s -> %s (%zu bytes of constants) in %.3f s",
                                           model.displayName().c_str(), result.dir.c_str(),
                                           static_cast<size_t>(result.constBytes), result.seconds);
}
