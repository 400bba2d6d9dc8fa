//===- Trace.h - A bundle run's timeline: the binary trace, as Perfetto JSON ----*- C++ -*-===//
//
// A bundle asked for a trace (tx8-aot run --trace) writes what the chip model did, record by record
// (tx8/trace_format.h). parseTrace checks and reads those bytes; writeTraceJson prints them as a Chrome / Perfetto
// trace-event file: one process per tile, a track per engine, the barrier waits and the groups, the SPM in use
// per tile and the DDR bandwidth of the chip as counters (the format is in docs/debugging.md).
//
//===----------------------------------------------------------------------===//
#ifndef TX8_DRIVER_TRACE_H
#define TX8_DRIVER_TRACE_H

#include "tx8/Driver/Compile.h"
#include "tx8/Reference/Status.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tx8be {

/// The engines of a tile, by OP_INSTR_TYPE (tx8/isa.h).
constexpr unsigned kTraceEngines = 8;

/// One record of the binary trace (tx8/trace_format.h); times in cycles.
struct TraceRecord {
  uint32_t kind = 0, tile = 0, engine = 0, op = 0, tag = 0, flags = 0;
  uint64_t start = 0, ready = 0, end = 0, bytes = 0, macs = 0;
  uint32_t dims[4] = {0, 0, 0, 0};
};

struct TraceData {
  uint32_t tiles = 0;               ///< the chip's
  std::vector<TraceRecord> events;  ///< instructions, marks and barrier waits, as reported
  std::vector<std::array<uint64_t, kTraceEngines>> busy; ///< per tile: each engine's busy cycles (the model's count)
  uint64_t cycles = 0;              ///< tile 0's time at the end: the run's simulated cycles
};

/// Checks and reads a binary trace; `where` names it in errors (a truncated file, a record naming a tile or an
/// engine that does not exist, an instruction that ends before it starts).
tx8::ref::Status parseTrace(llvm::StringRef bytes, const std::string &where, TraceData &trace);

/// The group of a trace tag (main.c marks group g with tag g + 1); -1 for the tag 0 of "no group yet".
inline int64_t traceGroup(uint32_t tag) { return static_cast<int64_t>(tag) - 1; }

/// Short engine names by OP_INSTR_TYPE ("CT", "NE", "RDMA", ...).
const char *traceEngineName(uint32_t engine);

/// Prints the trace of a run of `bundle` on `target` as Chrome trace-event JSON (deterministic).
void writeTraceJson(const TraceData &trace, const BundleInfo &bundle, const std::string &target,
                    llvm::raw_ostream &os);

/// Reads the binary trace of a run (RunResult::trace) and writes it as JSON to `path`; `summary` gets a line
/// for the user ("trace: 1234 slices, 56 KiB -> path").
tx8::ref::Status saveTraceJson(const std::string &binary, const BundleInfo &bundle, const std::string &target,
                               const std::string &path, std::string &summary);

} // namespace tx8be

#endif // TX8_DRIVER_TRACE_H
