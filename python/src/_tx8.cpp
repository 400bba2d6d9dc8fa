//===- _tx8.cpp - The tx8 Python module's C++ extension -------------------===//
//
// Thin bindings of the public API (tx8/Api/): the same calls tx8-aot makes, the GIL released while they compile or
// run. Tensors cross as (dtype name, shape, bytes); tx8/__init__.py turns them into numpy arrays, turns models into
// ONNX bytes and maps the errors (raised here as _tx8.Failure(kind, message, diagnostics)) to tx8's exception
// classes.
//
//===----------------------------------------------------------------------===//
#include "tx8/Api/Bundle.h"
#include "tx8/Api/Compile.h"
#include "tx8/Api/Diff.h"
#include "tx8/Reference/TensorIO.h"

#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <mutex>

namespace py = pybind11;
using namespace tx8::api;

namespace {

/// An API error on its way to Python: kind, the one-line message, every diagnostic line ("warning: ...").
struct Failure {
  Status status;
  std::vector<std::string> diagnostics;
};

const char *kindName(ErrorKind kind) {
  switch (kind) {
  case ErrorKind::Usage: return "usage";
  case ErrorKind::Import: return "import";
  case ErrorKind::Compile: return "compile";
  case ErrorKind::Bundle: return "bundle";
  case ErrorKind::Run: return "run";
  case ErrorKind::None: break;
  }
  return "error";
}

void check(const Status &s, std::vector<std::string> diagnostics = {}) {
  if (!s.ok())
    throw Failure{s, std::move(diagnostics)};
}

/// Diagnostics collected while the GIL is released (MLIR may emit them from its worker threads).
struct Collected {
  std::mutex mutex;
  std::vector<std::string> lines;
  DiagnosticHandler handler() {
    return [this](const Diagnostic &d) {
      std::lock_guard<std::mutex> lock(mutex);
      lines.push_back(std::string(severityName(d.severity)) + ": " + d.line);
      for (const std::string &more : d.more)
        lines.push_back(more);
    };
  }
};

/// A tensor from Python: (dtype name, shape, bytes).
Tensor toTensor(const std::string &dtype, const std::vector<int64_t> &shape, const py::bytes &data) {
  auto type = tx8::ref::dtypeFromName(dtype);
  if (!type)
    check(Status::error(ErrorKind::Usage, "unknown dtype '" + dtype + "'"));
  Tensor t;
  t.dtype = *type;
  t.shape = shape;
  std::string_view bytes = data;
  if (bytes.size() != static_cast<size_t>(t.numElements()) * tx8::ref::dtypeBytes(t.dtype))
    check(Status::error(ErrorKind::Usage, "tensor data of " + std::to_string(bytes.size()) +
                                              " bytes does not match its dtype and shape"));
  t.bytes.assign(bytes.begin(), bytes.end());
  return t;
}

using PyTensor = std::tuple<std::string, std::vector<int64_t>, py::bytes>;

std::vector<Tensor> toTensors(const std::vector<PyTensor> &tensors) {
  std::vector<Tensor> out;
  for (const auto &[dtype, shape, data] : tensors)
    out.push_back(toTensor(dtype, shape, data));
  return out;
}

/// A tensor to Python: (dtype name, shape, bytearray), writable once numpy wraps it.
py::tuple fromTensor(const Tensor &t) {
  return py::make_tuple(tx8::ref::dtypeName(t.dtype), t.shape,
                        py::bytearray(reinterpret_cast<const char *>(t.bytes.data()), t.bytes.size()));
}

py::list fromTensors(const std::vector<Tensor> &tensors) {
  py::list out;
  for (const Tensor &t : tensors)
    out.append(fromTensor(t));
  return out;
}

ModelSource modelSource(const std::string &path, const py::bytes &bytes, const std::string &name) {
  return path.empty() ? ModelSource::onnxBytes(std::string(bytes), name) : ModelSource::file(path);
}

py::list infos(const std::vector<TensorInfo> &list) {
  py::list out;
  for (const TensorInfo &t : list)
    out.append(py::make_tuple(t.name, tx8::ref::dtypeName(t.dtype), t.shape));
  return out;
}

/// The progress handler for a Python callable (called with the GIL taken again; its errors are reported as
/// unraisable, not thrown into the compile).
ProgressHandler progressHandler(const py::object &callback) {
  if (callback.is_none())
    return nullptr;
  return [callback](const std::string &step, double seconds) {
    py::gil_scoped_acquire gil;
    try {
      callback(step, seconds);
    } catch (py::error_already_set &e) {
      e.discard_as_unraisable("tx8 progress callback");
    }
  };
}

} // namespace

PYBIND11_MODULE(_tx8, m) {
  m.doc() = "tx8's C++ extension: the tx8 API (compile, bundles, diff). Use the tx8 package, not this.";
  static py::exception<Failure> failure(m, "Failure"); // args: (kind, message, diagnostics)
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const Failure &f) {
      py::list diagnostics;
      for (const std::string &line : f.diagnostics)
        diagnostics.append(line);
      PyErr_SetObject(failure.ptr(),
                      py::make_tuple(kindName(f.status.kind()), f.status.message(), diagnostics).ptr());
    }
  });

  m.def("version", &compilerVersion);
  m.def("set_tool_directory", &setToolDirectory, py::arg("bin_dir"));

  py::class_<CompileOptions>(m, "CompileOptions")
      .def(py::init<>())
      .def_readwrite("target", &CompileOptions::target)
      .def_readwrite("precision", &CompileOptions::precision)
      .def_readwrite("tiles", &CompileOptions::tiles)
      .def_readwrite("opt_search", &CompileOptions::optSearch)
      .def_readwrite("sw_pipeline", &CompileOptions::swPipeline)
      .def_readwrite("fuse", &CompileOptions::fuse)
      .def_readwrite("prefetch_weights", &CompileOptions::prefetchWeights)
      .def_readwrite("block_weights", &CompileOptions::blockWeights)
      .def_readwrite("transposed_loads", &CompileOptions::transposedLoads)
      .def_readwrite("profile", &CompileOptions::profile)
      .def_readwrite("hw_file", &CompileOptions::hwFile)
      .def_readwrite("input_shapes", &CompileOptions::inputShapes)
      .def_readwrite("debug_outputs", &CompileOptions::debugOutputs)
      .def_readwrite("progress_min_seconds", &CompileOptions::progressMinSeconds);

  // compile(path, bytes, name, dir, options, progress) -> (model name, consts bytes, seconds, diagnostics)
  m.def(
      "compile",
      [](const std::string &path, const py::bytes &bytes, const std::string &name, const std::string &dir,
         CompileOptions options, const py::object &progress) {
        ModelSource model = modelSource(path, bytes, name);
        options.progress = progressHandler(progress);
        Collected diagnostics;
        CompileResult result;
        Status s;
        {
          py::gil_scoped_release release;
          s = compile(model, dir, options, result, diagnostics.handler());
        }
        check(s, diagnostics.lines);
        return py::make_tuple(result.modelName, result.constBytes, result.seconds, diagnostics.lines,
                              compileSummary(model, result));
      },
      py::arg("path"), py::arg("bytes"), py::arg("name"), py::arg("dir"), py::arg("options"),
      py::arg("progress") = py::none());

  py::class_<RunResult>(m, "RunResult")
      .def_readonly("cycles", &RunResult::cycles)
      .def_readonly("target", &RunResult::target)
      .def_readonly("output_names", &RunResult::outputNames)
      .def_readonly("group_cycles", &RunResult::groupCycles)
      .def_readonly("build_seconds", &RunResult::buildSeconds)
      .def_readonly("run_seconds", &RunResult::runSeconds)
      .def_property_readonly("traced", [](const RunResult &r) { return !r.trace.empty(); })
      .def_property_readonly("outputs", [](const RunResult &r) { return fromTensors(r.outputs); });

  py::class_<Bundle>(m, "Bundle")
      .def_static(
          "load",
          [](const std::string &dir) {
            auto bundle = std::make_unique<Bundle>();
            check(Bundle::load(dir, *bundle));
            return bundle;
          },
          py::arg("dir"))
      .def_property_readonly("dir", &Bundle::dir)
      .def_property_readonly("target", &Bundle::target)
      .def_property_readonly("model_name", &Bundle::modelName)
      .def_property_readonly("precision", &Bundle::precision)
      .def_property_readonly("tiles", &Bundle::tiles)
      .def_property_readonly("clock_mhz", &Bundle::clockMhz)
      .def_property_readonly("inputs", [](const Bundle &b) { return infos(b.inputs()); })
      .def_property_readonly("outputs", [](const Bundle &b) { return infos(b.outputs()); })
      .def(
          "run",
          [](const Bundle &b, const std::vector<PyTensor> &inputs, const std::vector<std::string> &sources,
             const std::string &target, bool trace) {
            std::vector<Tensor> tensors = toTensors(inputs);
            check(b.checkInputs(tensors, sources));
            RunOptions options;
            options.target = target;
            options.trace = trace;
            auto result = std::make_unique<RunResult>();
            Status s;
            {
              py::gil_scoped_release release;
              s = b.run(tensors, options, *result);
            }
            check(s);
            return result;
          },
          py::arg("inputs"), py::arg("sources"), py::arg("target") = "", py::arg("trace") = false)
      .def("run_summary", [](const Bundle &b, const RunResult &r) { return runSummaryLine(b, r); })
      .def("write_trace",
           [](const Bundle &b, const RunResult &r, const std::string &path) {
             std::string summary;
             check(b.writeTrace(r, path, summary));
             return summary;
           })
      .def("write_report",
           [](const Bundle &b, const RunResult &r, const std::string &path) {
             Bundle::ReportSummary summary;
             Status s;
             {
               py::gil_scoped_release release;
               s = b.writeReport(r, path, summary);
             }
             check(s);
             return reportSummaryLine(b, path, summary);
           })
      .def("write_report_from_trace_file", [](const Bundle &b, const std::string &trace, const std::string &path) {
        Bundle::ReportSummary summary;
        check(b.writeReportFromTraceFile(trace, path, summary));
        return reportSummaryLine(b, path, summary);
      });

  py::class_<DiffRow>(m, "DiffRow")
      .def_readonly("node", &DiffRow::node)
      .def_readonly("op_type", &DiffRow::opType)
      .def_readonly("tensor", &DiffRow::tensor)
      .def_readonly("kind", &DiffRow::kind)
      .def_readonly("dtype", &DiffRow::dtype)
      .def_readonly("shape", &DiffRow::shape)
      .def_readonly("compared", &DiffRow::compared)
      .def_readonly("ok", &DiffRow::ok)
      .def_readonly("mismatches", &DiffRow::mismatches)
      .def_readonly("max_abs_error", &DiffRow::maxAbsError)
      .def_readonly("max_rel_error", &DiffRow::maxRelError)
      .def_readonly("cosine", &DiffRow::cosine)
      .def_readonly("rtol", &DiffRow::rtol)
      .def_readonly("atol", &DiffRow::atol)
      .def_readonly("problem", &DiffRow::problem);

  py::class_<DiffResult>(m, "DiffResult")
      .def_readonly("rows", &DiffResult::rows)
      .def_readonly("first_divergence", &DiffResult::firstDivergence)
      .def_readonly("cycles", &DiffResult::cycles)
      .def_readonly("computed", &DiffResult::computed)
      .def_property_readonly("device", [](const DiffResult &r) { return fromTensors(r.device); })
      .def_property_readonly("reference", [](const DiffResult &r) { return fromTensors(r.reference); })
      .def("table", &DiffResult::table, py::arg("tsv") = false)
      .def("summary", &DiffResult::summary)
      .def("write_files", [](const DiffResult &r, const std::string &dir) { check(r.writeFiles(dir)); });

  // diff(path, bytes, name, tensors, names, options, target, rtol, atol, keep_bundle) -> (DiffResult, diagnostics)
  m.def(
      "diff",
      [](const std::string &path, const py::bytes &bytes, const std::string &name,
         const std::vector<PyTensor> &tensors, const std::vector<std::string> &names, const CompileOptions &compile,
         double rtol, double atol, const std::string &keepBundle) {
        ModelSource model = modelSource(path, bytes, name);
        DiffInputs inputs;
        inputs.tensors = toTensors(tensors);
        inputs.names = names;
        DiffOptions options;
        options.compile = compile;
        options.target = compile.target;
        options.rtol = rtol;
        options.atol = atol;
        options.keepBundle = keepBundle;
        Collected diagnostics;
        auto result = std::make_unique<DiffResult>();
        Status s;
        {
          py::gil_scoped_release release;
          s = diff(model, inputs, options, *result, diagnostics.handler());
        }
        check(s, diagnostics.lines);
        return py::make_tuple(std::move(result), diagnostics.lines);
      },
      py::arg("path"), py::arg("bytes"), py::arg("name"), py::arg("tensors"), py::arg("names"), py::arg("options"),
      py::arg("rtol"), py::arg("atol"), py::arg("keep_bundle"));
}
