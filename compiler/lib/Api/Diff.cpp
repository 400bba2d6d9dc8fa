//===- Diff.cpp - tx8 API: every ONNX node's output, device against reference ---===//
#include "tx8/Api/Diff.h"

#include "Internal.h"
#include "tx8/Api/Bundle.h"
#include "tx8/Api/Context.h"
#include "tx8/Driver/Compile.h"
#include "tx8/Driver/Diff.h"
#include "tx8/Driver/Model.h"
#include "tx8/Driver/Trace.h"
#include "tx8/Interpreter/ReferenceRunner.h"
#include "tx8/Reference/TensorIO.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using mlir::MLIRContext;
using mlir::ModuleOp;
using mlir::OwningOpRef;
using mlir::TimingScope;
using mlir::failed;
using namespace tx8::api;

struct DiffResult::Impl {
  std::vector<tx8be::DiffRow> rows;
};

DiffResult::DiffResult() : impl_(std::make_unique<Impl>()) {}
DiffResult::~DiffResult() = default;
DiffResult::DiffResult(DiffResult &&) noexcept = default;
DiffResult &DiffResult::operator=(DiffResult &&) noexcept = default;

std::string DiffResult::table(bool tsv) const {
  std::string text;
  llvm::raw_string_ostream os(text);
  tx8be::printDiffTable(impl_->rows, tsv, os);
  return text;
}

std::string DiffResult::summary() const { return tx8be::diffSummary(impl_->rows); }

Status DiffResult::writeFiles(const std::string &dir) const {
  tx8::ref::Status s = tx8be::writeDiffFiles(dir, impl_->rows, device, reference);
  return s.ok() ? Status() : Status::error(ErrorKind::Run, s.message());
}

Status tx8::api::checkDiffOptions(const ModelSource &model, const DiffInputs &inputs, const DiffOptions &options) {
  // tx8-aot diff's order.
  Status s = detail::checkTarget(options.target);
  if (s.ok())
    s = detail::checkPrecision(options.compile.precision);
  if (s.ok() && (!(options.rtol >= 0) || !(options.atol >= 0)))
    s = detail::usage("--rtol and --atol must be >= 0");
  if (s.ok())
    s = detail::checkPlanOptions(options.compile);
  if (s.ok())
    s = checkInputFiles(inputs.files, inputs.dir);
  if (s.ok() && inputs.files.empty() && inputs.dir.empty() && inputs.tensors.empty())
    s = detail::usage("no inputs: give --input NAME=FILE ... or --inputs-dir DIR");
  if (s.ok() && !inputs.names.empty() && inputs.names.size() != inputs.tensors.size())
    s = detail::usage(std::to_string(inputs.tensors.size()) + " input tensors and " +
                      std::to_string(inputs.names.size()) + " names");
  if (s.ok() && !model.path.empty() && tx8be::isMLIRModel(model.path))
    s = detail::usage("diff compares the output of each ONNX node: " + model.path + " is an MLIR model");
  std::vector<tx8be::InputShape> shapes;
  if (s.ok())
    s = detail::checkInputShapes(model, options.compile, shapes);
  return s;
}

/// The inputs of `specs` from `given`: files, or tensors in order, or tensors by name (each checked).
static Status readDiffInputs(const std::vector<tx8be::TensorSpec> &specs, const DiffInputs &given,
                             std::vector<tx8::ref::Tensor> &inputs) {
  if (given.tensors.empty()) {
    tx8::ref::Status s = tx8be::readInputs(specs, given.files, given.dir, inputs);
    return s.ok() ? Status() : Status::error(ErrorKind::Run, s.message());
  }
  std::vector<std::string> sources;
  if (given.names.empty()) {
    if (given.tensors.size() != specs.size())
      return Status::error(ErrorKind::Usage, std::to_string(given.tensors.size()) + " inputs given, the model has " +
                                               std::to_string(specs.size()));
    inputs = given.tensors;
    for (size_t i = 0; i < inputs.size(); ++i)
      sources.push_back("inputs[" + std::to_string(i) + "]");
  } else {
    inputs.assign(specs.size(), tx8::ref::Tensor());
    std::vector<bool> seen(specs.size());
    for (size_t k = 0; k < given.names.size(); ++k) {
      auto it = std::find_if(specs.begin(), specs.end(),
                             [&](const tx8be::TensorSpec &spec) { return spec.name == given.names[k]; });
      std::string names;
      for (const tx8be::TensorSpec &spec : specs)
        names += (names.empty() ? "" : ", ") + spec.name;
      if (it == specs.end())
        return Status::error(ErrorKind::Usage, "the model has no input '" + given.names[k] + "' (its inputs: " +
                                                 names + ")");
      size_t i = it - specs.begin();
      if (seen[i])
        return Status::error(ErrorKind::Usage, "input '" + given.names[k] + "' is given twice");
      seen[i] = true;
      inputs[i] = given.tensors[k];
    }
    for (size_t i = 0; i < specs.size(); ++i)
      if (!seen[i])
        return Status::error(ErrorKind::Usage, "no value for input '" + specs[i].name + "'");
    for (const tx8be::TensorSpec &spec : specs)
      sources.push_back("inputs['" + spec.name + "']");
  }
  for (size_t i = 0; i < inputs.size(); ++i)
    if (tx8::ref::Status s = tx8be::checkTensorMatches(inputs[i], specs[i], sources[i]); !s.ok())
      return Status::error(ErrorKind::Usage, s.message());
  return Status();
}

namespace {
/// A directory under the system's temporary one, removed with everything in it when this goes.
struct ScratchDir {
  llvm::SmallString<256> path;
  ~ScratchDir() {
    if (!path.empty())
      llvm::sys::fs::remove_directories(path);
  }
};
} // namespace

Status tx8::api::diff(const ModelSource &model, const DiffInputs &given, const DiffOptions &options,
                      DiffResult &result, const DiagnosticHandler &diagnostics) {
  Status s = checkDiffOptions(model, given, options);
  if (!s.ok())
    return s;
  CompileOptions compile = options.compile;
  compile.target = options.target;
  compile.debugOutputs = true;
  std::vector<tx8be::InputShape> shapes;
  (void)detail::checkInputShapes(model, compile, shapes); // checked above

  std::unique_ptr<MLIRContext> context = createContext();
  std::string firstError;
  attachDiagnostics(*context, model.displayName(), diagnostics, &firstError);
  auto reported = [&](ErrorKind kind) {
    return Status::error(kind, firstError.empty() ? model.displayName() + ": cannot import the model" : firstError,
                         /*reported=*/true);
  };
  OwningOpRef<ModuleOp> module = detail::importModel(model, *context, shapes, /*debugOutputs=*/true);
  if (!module)
    return reported(ErrorKind::Import);
  mlir::func::FuncOp func = tx8be::getEntryFunction(*module);
  if (!func)
    return reported(ErrorKind::Import);
  std::vector<tx8be::DebugTensor> tensors;
  std::vector<tx8::ref::Tensor> inputs, reference;
  if (tx8::ref::Status d = tx8be::getDebugTensors(func, tensors); !d.ok())
    return Status::error(ErrorKind::Import, d.message());
  if (s = readDiffInputs(tx8be::getInputSpecs(func), given, inputs); !s.ok())
    return s;
  // The reference first: the compile changes the module in place.
  std::string error;
  if (failed(tx8be::runReference(func, inputs, reference, error)))
    return Status::error(ErrorKind::Run, "the reference: " + error);

  // The bundle: in keepBundle, else in a scratch directory.
  tx8_hw_config hw;
  if (s = detail::readHw(compile.hwFile, hw); !s.ok())
    return s;
  std::string dir = options.keepBundle;
  ScratchDir scratch;
  if (dir.empty()) {
    llvm::SmallString<256> prefix;
    llvm::sys::path::system_temp_directory(true, prefix);
    llvm::sys::path::append(prefix, "tx8-test");
    if (auto ec = llvm::sys::fs::createUniqueDirectory(prefix, scratch.path))
      return Status::error(ErrorKind::Compile, "cannot create a scratch directory: " + ec.message());
    dir = (scratch.path + "/bundle").str();
  }
  CompileOptions silent = compile; // no progress, untimed, nothing printed of the pipeline
  silent.progress = nullptr;
  silent.timing = nullptr;
  silent.printIRAfterAll = silent.statistics = false;
  silent.printIRAfter.clear();
  silent.dumpDir.clear();
  silent.dumpIR.clear();
  TimingScope untimed;
  uint64_t constBytes = 0;
  if (s = detail::compileLoaded(*module, model.displayName(), hw, dir, silent, untimed, &firstError, constBytes);
      !s.ok())
    return s;
  Bundle bundle;
  if (s = Bundle::load(dir, bundle); !s.ok())
    return Status::error(ErrorKind::Run, s.message());
  RunResult run;
  RunOptions runOptions;
  runOptions.target = options.target;
  runOptions.trace = !options.trace.empty();
  if (s = bundle.run(inputs, runOptions, run); !s.ok())
    return s;
  std::string traceSummary;
  if (runOptions.trace) // the debug build's: every node's output is stored, so it moves more bytes
    if (s = bundle.writeTrace(run, options.trace, traceSummary); !s.ok())
      return s;

  DiffResult out;
  if (tx8::ref::Status d = tx8be::diffDebugOutputs(tensors, run.outputs, reference, {options.rtol, options.atol},
                                                   compile.precision, out.impl_->rows);
      !d.ok())
    return Status::error(ErrorKind::Run, d.message());
  for (const tx8be::DiffRow &r : out.impl_->rows) {
    DiffRow row;
    row.node = r.tensor.node, row.opType = r.tensor.opType, row.tensor = r.tensor.tensor, row.kind = r.tensor.kind;
    row.dtype = r.dtype, row.shape = r.shape;
    row.compared = r.diff.compared, row.ok = r.diff.ok, row.mismatches = r.diff.mismatches;
    row.maxAbsError = r.diff.maxAbsError, row.maxRelError = r.diff.maxRelError, row.cosine = r.diff.cosine;
    row.rtol = r.tol.rtol, row.atol = r.tol.atol;
    row.problem = r.diff.problem, row.file = r.file;
    out.rows.push_back(std::move(row));
  }
  out.firstDivergence = tx8be::firstDivergence(out.impl_->rows);
  out.cycles = run.cycles;
  out.nodeOutputs = tensors.size();
  out.computed = llvm::count_if(tensors, [](const tx8be::DebugTensor &t) { return t.kind == "computed"; });
  out.traceSummary = std::move(traceSummary);
  out.device = std::move(run.outputs);
  out.reference = std::move(reference);
  result = std::move(out);
  return Status();
}
