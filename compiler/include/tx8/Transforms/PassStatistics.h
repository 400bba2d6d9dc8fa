//===- PassStatistics.h - Counts the tx8be passes keep --------*- C++ -*-===//
//
// What a pass counts (BatchNorms folded, Groups merged, searches saved by the cache) for
// `tx8-aot compile --mlir-pass-statistics`, declared and used like MLIR's Pass::Statistic:
//
//   PassStatistic numFolded{this, "folded", "BatchNorms folded into the Conv before them"};
//   ++numFolded;
//
// Why not Pass::Statistic (Passes.td `let statistics`): it is an llvm::Statistic, which counts only in an LLVM
// built with assertions or LLVM_FORCE_ENABLE_STATS. The distribution's LLVM 19 is neither, so its statistics
// are NoopStatistics and `--mlir-pass-statistics` would print none. A PassStatistic always counts: into one
// process-wide slot per pass argument and name, shared by every instance of the pass (the pass manager
// clones a pass per thread), as LLVM's own statistics are process-wide. The report takes the difference over
// one run.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_TRANSFORMS_PASSSTATISTICS_H
#define TX8_TRANSFORMS_PASSSTATISTICS_H

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cstdint>

namespace tx8be {

class PassStatistic {
public:
  /// A count of `owner` (a member of the pass: its argument names the slot), `name` a word or two, `description`
  /// what is counted.
  PassStatistic(mlir::Pass *owner, llvm::StringRef name, llvm::StringRef description);

  PassStatistic &operator++() { return *this += 1; }
  PassStatistic &operator+=(uint64_t n) {
    slot->fetch_add(n, std::memory_order_relaxed);
    return *this;
  }

private:
  std::atomic<uint64_t> *slot;
};

/// Adds to `pm` an instrumentation that prints, when `pm` is destroyed after having run, what each pass with
/// PassStatistics counted during the runs: one block per pass in the order they first ran, in the form of MLIR's
/// "Pass statistics report" (`(S) <value> <name> - <description>`).
void enablePassStatisticsReport(mlir::PassManager &pm, llvm::raw_ostream &os = llvm::errs());

} // namespace tx8be

#endif // TX8_TRANSFORMS_PASSSTATISTICS_H
