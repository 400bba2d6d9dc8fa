//===- Diff.h - tx8 API: every ONNX node's output, device against reference -*- C++ -*-===//
//
// diff(): compiles an ONNX model with its debug outputs (@main also returns every node's output), runs the bundle
// and the host reference model on the same inputs and compares them node output by node output, in topological
// order: the first row beyond the tolerance is where the device starts to go wrong (tx8/Driver/Diff.h has the
// numbers' definitions). What `tx8-aot diff` and the Python module's tx8.diff call.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_API_DIFF_H
#define TX8_API_DIFF_H

#include "tx8/Api/Compile.h"
#include "tx8/Api/Status.h"
#include "tx8/Reference/Tensor.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tx8::api {

/// The inputs of a diff: files (tx8-aot's --input NAME=FILE or --inputs-dir DIR), or tensors in the model's input
/// order, or tensors with their input names (any order, each input once).
struct DiffInputs {
  std::vector<std::string> files;
  std::string dir;
  std::vector<tx8::ref::Tensor> tensors;
  std::vector<std::string> names; ///< empty, or one per tensor
};

struct DiffOptions {
  std::string target = "cmodel";
  double rtol = 1e-3, atol = 1e-7;
  std::string keepBundle;    ///< write the bundle there and keep it (else a scratch directory)
  std::string trace;         ///< write the run's trace (Perfetto JSON) there
  /// Compile options (the target above wins; debugOutputs is always on; dumpIR and the introspection unused).
  CompileOptions compile;
};

/// One node output and how it compares.
struct DiffRow {
  std::string node, opType, tensor;
  std::string kind;        ///< "computed", "constant" (folded at import) or "unused" (not computed)
  std::string dtype, shape;///< the reference's ("-" when not compared)
  bool compared = false, ok = false;
  int64_t mismatches = 0;
  double maxAbsError = 0, maxRelError = 0, cosine = 1, rtol = 0, atol = 0;
  std::string problem;     ///< dtype or shape differ
  std::string file;        ///< its .npy name under writeFiles' DIR/device and DIR/reference
};

class DiffResult {
public:
  DiffResult();
  ~DiffResult();
  DiffResult(DiffResult &&) noexcept;
  DiffResult &operator=(DiffResult &&) noexcept;

  std::vector<DiffRow> rows;       ///< one per node output, topological order
  int64_t firstDivergence = -1;    ///< index into rows, -1: all within tolerance
  uint64_t cycles = 0;             ///< the debug build's simulated cycles
  size_t nodeOutputs = 0;          ///< the model's node outputs (rows)
  size_t computed = 0;             ///< of them, those the device computed
  std::string traceSummary;        ///< with DiffOptions::trace
  std::vector<tx8::ref::Tensor> device, reference; ///< @main's results, model outputs first

  /// The table as tx8-aot diff prints it: aligned text, or TSV.
  std::string table(bool tsv) const;
  /// "first divergence: node 'X' (Op) output 'Y': ..." or "all N tensors within tolerance".
  std::string summary() const;
  /// DIR/device/<file>, DIR/reference/<file> for every compared row and DIR/diff.tsv (ErrorKind::Run).
  Status writeFiles(const std::string &dir) const;

private:
  friend Status diff(const ModelSource &, const DiffInputs &, const DiffOptions &, DiffResult &,
                     const DiagnosticHandler &);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Checks the options, the inputs' form and the model kind (no reading), in tx8-aot diff's order: the target, the
/// precision, the tolerances, --tiles and --opt-search, the input files (checkInputFiles) or tensors (some), an
/// MLIR model (not diffable), the --input-shape values. Errors are ErrorKind::Usage.
Status checkDiffOptions(const ModelSource &model, const DiffInputs &inputs, const DiffOptions &options);

/// Compiles, runs and compares (checkDiffOptions first). The reference runs before the compile.
Status diff(const ModelSource &model, const DiffInputs &inputs, const DiffOptions &options, DiffResult &result,
            const DiagnosticHandler &diagnostics = nullptr);

} // namespace tx8::api

#endif // TX8_API_DIFF_H
