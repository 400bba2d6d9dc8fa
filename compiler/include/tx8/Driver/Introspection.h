//===- Introspection.h - What tx8-aot compile shows of its pipeline -*- C++ -*-===//
//
// LLVM-style looks into a compile (`tx8-aot compile --mlir-timing`, `--mlir-print-ir-after[-all]`,
// `--dump-dir`, `--mlir-pass-statistics`), all through MLIR's pass manager: its timing instrumentation, its IR
// printer (on stderr, or through an IRPrinterConfig writing one file per pass) and the tx8be passes'
// PassStatistics report.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_DRIVER_INTROSPECTION_H
#define TX8_DRIVER_INTROSPECTION_H

#include "tx8/Reference/Status.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"

#include <string>
#include <vector>

namespace tx8be {

struct PipelineIntrospection {
  mlir::TimingScope *timing = nullptr;   ///< --mlir-timing: every pass's timer nests in this scope
  bool printIRAfterAll = false;          ///< --mlir-print-ir-after-all: the module after every pass, on stderr
  std::vector<std::string> printIRAfter; ///< --mlir-print-ir-after: ... after the passes of these arguments
  std::string dumpDir;                   ///< --dump-dir: the module after each pass in DIR/NN_<pass>.mlir
  bool statistics = false;               ///< --mlir-pass-statistics: the passes' PassStatistics, on stderr

  /// Whether the module is printed during the run (which needs the context single-threaded: a pass on one
  /// function would change the module while the printer reads it after a pass on another).
  bool printsIR() const { return printIRAfterAll || !printIRAfter.empty() || !dumpDir.empty(); }
};

/// The arguments of the passes `pm` runs, nested pipelines included, in pipeline order.
std::vector<std::string> pipelinePassArguments(const mlir::OpPassManager &pm);

/// An error naming the first of `requested` (--mlir-print-ir-after) that is not one of the `pipeline`'s
/// passes, with the list of those; ok if all are.
tx8::ref::Status checkPassArguments(const std::vector<std::string> &requested,
                                    const std::vector<std::string> &pipeline);

/// Makes `dir` (and its parents) ready for --dump-dir: created if need be, the NN_<pass>.mlir files of an
/// earlier dump removed (so that it holds one run's).
tx8::ref::Status prepareDumpDir(const std::string &dir);

/// Adds to `pm` the instrumentations `introspection` asks for (the pass timers last, so they time the passes
/// and not the printing). IR printing is at module scope: the caller disables the context's multithreading.
/// A dump file that cannot be written is an error at `pm`'s operation and sets `dumpFailed`, which must
/// outlive `pm`.
void instrumentPipeline(mlir::PassManager &pm, const PipelineIntrospection &introspection, bool &dumpFailed);

} // namespace tx8be

#endif // TX8_DRIVER_INTROSPECTION_H
