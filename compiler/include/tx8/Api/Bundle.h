//===- Bundle.h - tx8 API: load a bundle, run it, trace it, report it -*- C++ -*-===//
//
// A compiled bundle directory, loaded (its manifest checked against every file's checksum), built for a target
// against the tx8 SDK (cmake + ninja, reused when up to date) and run on inputs: the outputs and the simulated
// cycles, and with a trace the run's timeline (a Perfetto JSON file) and the report page (one HTML file). What
// `tx8-aot run`, `tx8-aot report` and the Python module's tx8.Bundle call.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_API_BUNDLE_H
#define TX8_API_BUNDLE_H

#include "tx8/Api/Status.h"
#include "tx8/Reference/Tensor.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tx8be {
struct BundleInfo;
} // namespace tx8be

namespace tx8::api {

using tx8::ref::DType;
using tx8::ref::Tensor;

/// An input or output of a bundle.
struct TensorInfo {
  std::string name;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
};

struct RunOptions {
  std::string target; ///< cmodel or riscv; empty: the bundle's
  bool trace = false; ///< record the run's timeline (RunResult::trace)
};

struct RunResult {
  std::vector<Tensor> outputs; ///< in the bundle's output order
  std::vector<std::string> outputNames;
  std::string target;          ///< where it ran
  uint64_t cycles = 0;         ///< simulated cycles
  std::vector<std::string> groupCycles; ///< a --profile bundle's "tx8: group G cycles C" lines
  std::string trace;           ///< with RunOptions::trace: the binary trace (tx8/trace_format.h)
  double buildSeconds = 0, runSeconds = 0;
};

class Bundle {
public:
  Bundle();
  ~Bundle();
  Bundle(Bundle &&) noexcept;
  Bundle &operator=(Bundle &&) noexcept;

  /// Loads the bundle in `dir`: its manifest, checked (format and compiler version, every file's checksum, the
  /// digest model.h records). Errors are ErrorKind::Bundle.
  static Status load(const std::string &dir, Bundle &bundle);

  const std::string &dir() const;
  const std::string &target() const;    ///< what it was compiled for
  const std::string &modelName() const;
  const std::string &precision() const;
  uint64_t tiles() const;
  uint32_t clockMhz() const;
  const std::string &testInjectError() const; ///< a test-only bundle's perturbed node, else empty
  const std::vector<TensorInfo> &inputs() const;
  const std::vector<TensorInfo> &outputs() const;

  /// Reads inputs from files: "NAME=FILE" pairs (.npy or TensorProto .pb; every input named once) or a directory
  /// (input_<k>.pb, else <name>.npy / <name>.pb per input), checked against the bundle's. ErrorKind::Run.
  Status readInputFiles(const std::vector<std::string> &files, const std::string &dir,
                        std::vector<Tensor> &inputs) const;

  /// Checks `inputs` against the bundle's (one per input, in order; dtype and shape): ErrorKind::Usage naming the
  /// input, sources[i] naming where inputs[i] came from ("inputs[0]").
  Status checkInputs(const std::vector<Tensor> &inputs, const std::vector<std::string> &sources) const;

  /// Builds the bundle for `target` (empty: the bundle's) in <dir>/build-<target>, reused when up to date, once per
  /// Bundle object: run() builds if this was not called. ErrorKind::Run.
  Status build(const std::string &target, double &seconds) const;

  /// Builds the bundle for `options.target` (build()) and runs it on `inputs`, one per input in order (their
  /// dtypes and shapes checked; checkInputs says where a wrong one came from). Errors are ErrorKind::Run.
  Status run(const std::vector<Tensor> &inputs, const RunOptions &options, RunResult &result) const;

  /// Zeros for every input (the chip model's cycles do not depend on the values).
  std::vector<Tensor> zeroInputs() const;

  /// Writes the binary trace of `run` (RunOptions::trace) as Chrome / Perfetto trace-event JSON to `path`;
  /// `summary` gets "trace: N slices, K KiB -> path".
  Status writeTrace(const RunResult &run, const std::string &path, std::string &summary) const;

  /// What a report page holds, in short (tx8-aot report's line).
  struct ReportSummary {
    size_t groups = 0;
    uint64_t cycles = 0, clockMhz = 0, slices = 0;
  };
  /// Writes the report page (one self-contained HTML file; "-": stdout) of a traced run (`run`, RunOptions::trace)
  /// or of a trace file (`traceFile`, a `tx8-aot run --trace` JSON) of this bundle.
  Status writeReport(const RunResult &run, const std::string &path, ReportSummary &summary) const;
  Status writeReportFromTraceFile(const std::string &traceFile, const std::string &path,
                                  ReportSummary &summary) const;

  /// The Driver's view of the bundle (for the tx8-aot commands outside this API: memory, test-onnx).
  const tx8be::BundleInfo &info() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Where the tools are, for a front end that is not an executable beside them (the Python module): <prefix>/bin of
/// the build tree or an installed prefix. Bundles are built against the SDK found from there, as for tx8-aot
/// (<prefix>/lib/cmake/tx8, else the build tree's sdk/; TX8_SDK_DIR overrides), and run under its tx8-qemu-run.
void setToolDirectory(const std::string &binDir);

/// tx8-aot's --input NAME=FILE (well formed, each name once) and --inputs-dir, not both. ErrorKind::Usage.
Status checkInputFiles(const std::vector<std::string> &files, const std::string &dir);

/// "report of DIR -> PATH: N groups, C cycles (T us at F MHz), S slices": the line tx8-aot report prints.
std::string reportSummaryLine(const Bundle &bundle, const std::string &path, const Bundle::ReportSummary &summary);

/// "cmodel: C simulated cycles (T us at F MHz); build B s, run R s": the last line tx8-aot run prints.
std::string runSummaryLine(const Bundle &bundle, const RunResult &result);

} // namespace tx8::api

#endif // TX8_API_BUNDLE_H
