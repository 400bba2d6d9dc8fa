//===- Bundle.cpp - tx8 API: load a bundle, run it, trace it, report it ---===//
#include "tx8/Api/Bundle.h"

#include "Internal.h"
#include "tx8/Driver/Compile.h"
#include "tx8/Driver/Model.h"
#include "tx8/Driver/Report.h"
#include "tx8/Driver/Trace.h"
#include "tx8/Interfaces/ComputeInterface.h"
#include "tx8/Reference/TensorIO.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/ToolOutputFile.h"

#include <map>
#include <set>

using namespace tx8::api;

struct Bundle::Impl {
  tx8be::BundleInfo info;
  std::vector<TensorInfo> inputs, outputs;
  /// The built program per target: a bundle is built once per Bundle (and cmake skips an up-to-date tree).
  mutable std::map<std::string, std::string> programs;
};

Bundle::Bundle() : impl_(std::make_unique<Impl>()) {}
Bundle::~Bundle() = default;
Bundle::Bundle(Bundle &&) noexcept = default;
Bundle &Bundle::operator=(Bundle &&) noexcept = default;

Status Bundle::load(const std::string &dir, Bundle &bundle) {
  auto impl = std::make_unique<Impl>();
  if (tx8::ref::Status s = tx8be::loadBundle(dir, impl->info); !s.ok())
    return Status::error(ErrorKind::Bundle, s.message());
  for (auto [ios, infos] : {std::make_pair(&impl->info.inputs, &impl->inputs),
                            std::make_pair(&impl->info.outputs, &impl->outputs)})
    for (const tx8be::BundleInfo::IO &io : *ios)
      infos->push_back({io.name, *tx8::ref::dtypeFromName(io.dtype), io.shape}); // loadBundle checked the name
  bundle.impl_ = std::move(impl);
  return Status();
}

const std::string &Bundle::dir() const { return impl_->info.dir; }
const std::string &Bundle::target() const { return impl_->info.target; }
const std::string &Bundle::modelName() const { return impl_->info.modelName; }
const std::string &Bundle::precision() const { return impl_->info.precision; }
uint64_t Bundle::tiles() const { return impl_->info.tiles; }
uint32_t Bundle::clockMhz() const { return impl_->info.hw.clock_mhz; }
const std::string &Bundle::testInjectError() const { return impl_->info.testInjectError; }
const std::vector<TensorInfo> &Bundle::inputs() const { return impl_->inputs; }
const std::vector<TensorInfo> &Bundle::outputs() const { return impl_->outputs; }
const tx8be::BundleInfo &Bundle::info() const { return impl_->info; }

void tx8::api::setToolDirectory(const std::string &binDir) { tx8be::setToolDirectory(binDir); }

Status tx8::api::checkInputFiles(const std::vector<std::string> &files, const std::string &dir) {
  if (!files.empty() && !dir.empty())
    return detail::usage("give either --input NAME=FILE ... or --inputs-dir DIR, not both");
  std::set<std::string> names;
  for (const std::string &arg : files) {
    size_t eq = arg.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == arg.size())
      return detail::usage("--input " + arg + ": expected NAME=FILE");
    if (!names.insert(arg.substr(0, eq)).second)
      return detail::usage("--input " + arg + ": input '" + arg.substr(0, eq) + "' is given twice");
  }
  return Status();
}

Status Bundle::readInputFiles(const std::vector<std::string> &files, const std::string &dir,
                              std::vector<Tensor> &inputs) const {
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED); // for the inputs' types only
  std::vector<tx8be::TensorSpec> specs;
  for (const TensorInfo &io : impl_->inputs)
    specs.push_back({io.name, mlir::RankedTensorType::get(io.shape, tx8be::detail::mlirTypeOf(io.dtype, &context))});
  tx8::ref::Status s = tx8be::readInputs(specs, files, dir, inputs);
  return s.ok() ? Status() : Status::error(ErrorKind::Run, s.message());
}

/// "2x3" ("scalar" for rank 0), as tx8-aot's messages write shapes.
static std::string dims(const std::vector<int64_t> &shape) {
  std::string text;
  for (int64_t d : shape)
    text += (text.empty() ? "" : "x") + std::to_string(d);
  return text.empty() ? "scalar" : text;
}

Status Bundle::checkInputs(const std::vector<Tensor> &inputs, const std::vector<std::string> &sources) const {
  if (inputs.size() != impl_->inputs.size())
    return Status::error(ErrorKind::Usage, std::to_string(inputs.size()) + " inputs given, the model has " +
                                               std::to_string(impl_->inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorInfo &io = impl_->inputs[i];
    if (inputs[i].dtype == io.dtype && inputs[i].shape == io.shape)
      continue;
    std::string source = i < sources.size() ? sources[i] + ": " : std::string();
    return Status::error(ErrorKind::Usage, source + "input '" + io.name + "' is a " +
                                               tx8::ref::dtypeName(inputs[i].dtype) + " tensor of shape " +
                                               dims(inputs[i].shape) + ", the model expects " +
                                               tx8::ref::dtypeName(io.dtype) + " " + dims(io.shape));
  }
  return Status();
}

std::vector<Tensor> Bundle::zeroInputs() const {
  std::vector<Tensor> inputs;
  for (const TensorInfo &io : impl_->inputs)
    inputs.emplace_back(io.dtype, io.shape);
  return inputs;
}

/// The target to run on: `requested`, else the bundle's.
static Status runTarget(const tx8be::BundleInfo &info, const std::string &requested, std::string &target) {
  target = requested.empty() ? info.target : requested;
  if (!requested.empty())
    if (Status s = detail::checkTarget(target); !s.ok())
      return s;
  if (target != "cmodel" && target != "riscv") // loadBundle checks the manifest's; this is a guard
    return Status::error(ErrorKind::Run, "bundle target " + target + ": expected cmodel or riscv");
  return Status();
}

Status Bundle::build(const std::string &requested, double &seconds) const {
  std::string target, program;
  seconds = 0;
  if (Status s = runTarget(impl_->info, requested, target); !s.ok())
    return s;
  if (impl_->programs.count(target))
    return Status();
  if (tx8::ref::Status s = tx8be::buildBundle(impl_->info, target, program, seconds); !s.ok())
    return Status::error(ErrorKind::Run, s.message());
  impl_->programs[target] = program;
  return Status();
}

Status Bundle::run(const std::vector<Tensor> &inputs, const RunOptions &options, RunResult &result) const {
  std::string target;
  if (Status s = runTarget(impl_->info, options.target, target); !s.ok())
    return s;
  result = RunResult();
  result.target = target;
  tx8be::RunResult run;
  if (Status s = build(target, run.buildSeconds); !s.ok())
    return s;
  tx8::ref::Status s = tx8be::runBundle(impl_->info, target, impl_->programs[target], inputs, run, options.trace);
  if (!s.ok())
    return Status::error(ErrorKind::Run, s.message());
  result.outputs = std::move(run.outputs);
  result.outputNames = std::move(run.outputNames);
  result.cycles = run.cycles;
  result.groupCycles = std::move(run.groupCycles);
  result.trace = std::move(run.trace);
  result.buildSeconds = run.buildSeconds;
  result.runSeconds = run.runSeconds;
  return Status();
}

Status Bundle::writeTrace(const RunResult &run, const std::string &path, std::string &summary) const {
  if (run.trace.empty())
    return Status::error(ErrorKind::Usage, "the run recorded no trace (run it with a trace)");
  tx8::ref::Status s = tx8be::saveTraceJson(run.trace, impl_->info, run.target, path, summary);
  return s.ok() ? Status() : Status::error(ErrorKind::Run, s.message());
}

namespace {

/// Writes the page of `bundle` for `trace` to `path` ("-": stdout).
Status writeReportPage(const tx8be::BundleInfo &bundle, const tx8be::TraceSummary &trace, const std::string &path,
                       Bundle::ReportSummary &summary) {
  llvm::json::Value manifest(nullptr);
  tx8::ref::Status s = tx8be::readBundleManifest(bundle, manifest);
  tx8be::ReportData data;
  if (s.ok())
    s = tx8be::buildReportData(bundle, *manifest.getAsObject(), trace, data);
  if (!s.ok())
    return Status::error(ErrorKind::Run, s.message());
  std::string error;
  auto out = mlir::openOutputFile(path, &error);
  if (!out)
    return Status::error(ErrorKind::Run, error);
  tx8be::printReportHtml(data, out->os());
  out->os().flush();
  if (out->os().has_error())
    return Status::error(ErrorKind::Run, path + ": " + out->os().error().message());
  out->keep();
  summary.groups = data.groups.size();
  summary.cycles = data.cycles;
  summary.clockMhz = data.clockMhz;
  summary.slices = data.slices;
  return Status();
}

} // namespace

Status Bundle::writeReport(const RunResult &run, const std::string &path, ReportSummary &summary) const {
  if (run.trace.empty())
    return Status::error(ErrorKind::Usage, "the run recorded no trace (run it with a trace)");
  tx8be::TraceData data;
  tx8be::TraceSummary trace;
  tx8::ref::Status s = tx8be::parseTrace(run.trace, "the trace of the run", data);
  if (s.ok()) {
    std::string json;
    llvm::raw_string_ostream os(json);
    tx8be::writeTraceJson(data, impl_->info, run.target, os);
    s = tx8be::summarizeTraceText(json, "the trace of the run", trace);
  }
  if (!s.ok())
    return Status::error(ErrorKind::Run, s.message());
  return writeReportPage(impl_->info, trace, path, summary);
}

Status Bundle::writeReportFromTraceFile(const std::string &traceFile, const std::string &path,
                                        ReportSummary &summary) const {
  tx8be::TraceSummary trace;
  if (tx8::ref::Status s = tx8be::readTraceFile(traceFile, trace); !s.ok())
    return Status::error(ErrorKind::Run, s.message());
  return writeReportPage(impl_->info, trace, path, summary);
}

std::string tx8::api::reportSummaryLine(const Bundle &bundle, const std::string &path,
                                        const Bundle::ReportSummary &summary) {
  return detail::formatted("report of %s -> %s: %zu groups, %llu cycles (%.1f us at %llu MHz), "
                                           "%llu slices",
                                           bundle.dir().c_str(), path.c_str(), summary.groups,
                                           static_cast<unsigned long long>(summary.cycles),
                                           summary.cycles / static_cast<double>(std::max<uint64_t>(summary.clockMhz, 1)),
                                           static_cast<unsigned long long>(summary.clockMhz),
                                           static_cast<unsigned long long>(summary.slices));
}

std::string tx8::api::runSummaryLine(const Bundle &bundle, const RunResult &result) {
  return detail::formatted("%s: %llu simulated cycles (%.1f us at %u MHz); build %.2f s, run %.2f s",
                                           result.target.c_str(), static_cast<unsigned long long>(result.cycles),
                                           result.cycles / static_cast<double>(bundle.clockMhz()), bundle.clockMhz(),
                                           result.buildSeconds, result.runSeconds);
}
