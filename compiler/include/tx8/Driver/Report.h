//===- Report.h - tx8-aot report: a bundle's run as one HTML page -*- C++ -*-===//
//
// `tx8-aot report BUNDLE --trace trace.json -o report.html`: the manifest (the compiler's plan and estimate of
// each group) joined with a trace of a run (`tx8-aot run --trace`: Chrome trace events, the "tx8-trace" format)
// into one self-contained HTML page: per-group simulated cycles against the estimate, a roofline, engine
// utilisation per tile, SPM and DDR over time, the top groups and the graph of groups.
//
// Three steps, each testable alone: a trace becomes a TraceSummary (aggregated as it is read: no slice is kept,
// so a trace of hundreds of thousands of slices costs its text and a few MB), the summary and the manifest
// become ReportData (every number the page shows), and ReportData is printed as HTML whose script draws the
// charts from the aggregated data embedded as JSON.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_DRIVER_REPORT_H
#define TX8_DRIVER_REPORT_H

#include "tx8/Driver/Compile.h"
#include "tx8/Reference/Status.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tx8be {

/// A trace at most this large is read (its text is held while its events are read one at a time).
constexpr uint64_t kMaxTraceFileBytes = uint64_t{4} << 30;
/// Time series are cut into at most this many buckets, one value each.
constexpr size_t kMaxSeriesPoints = 1000;

/// The engines the report computes with, recognised by their name in the trace's "engines" (case-insensitive;
/// the ISA's names CGRA and NEUR too). Others (SCALAR, CSR, ...) are shown, not interpreted.
enum class EngineKind { CT, NE, RDMA, WDMA, TDMA, DTE, Other };
EngineKind engineKindOf(llvm::StringRef name);

/// A quantity over the run, one value per bucket of `bucketCycles` cycles (the last bucket may end after the
/// run's last cycle).
struct Series {
  uint64_t bucketCycles = 1;
  std::vector<double> values;
};

/// One group as the trace saw it (slices whose args.group is its index).
struct TraceGroup {
  uint64_t start = UINT64_MAX, end = 0; ///< the earliest start and latest end of its "group" spans
  int64_t spans = 0;                    ///< "group" spans (one per tile that ran it)
  std::string nodes;                    ///< the spans' args.nodes: its ONNX nodes, comma-separated
  uint64_t macs = 0;                    ///< NE slices' args.macs
  std::map<std::string, uint64_t> macsByFormat; ///< by the NE slices' args.in_fmt ("bf16", ...; "" without one)
  uint64_t rdmaBytes = 0, wdmaBytes = 0, dteBytes = 0, dteDdrBytes = 0; ///< dteDdrBytes: from_ddr DTE slices
  std::vector<uint64_t> engineCycles;   ///< busy cycles per trace engine, summed over tiles
  uint64_t ddrBytes() const { return rdmaBytes + wdmaBytes + dteDdrBytes; }
  uint64_t cycles() const { return spans ? end - start : 0; }
};

/// A trace, aggregated.
struct TraceSummary {
  std::string name; ///< the file (errors name it)
  std::string model, target;
  uint64_t clockMhz = 0, cycles = 0;
  int64_t tiles = 0;     ///< otherData.tiles: the tiles the bundle runs on
  int64_t chipTiles = 0; ///< otherData.chip_tiles (else tiles): the tiles the trace has tracks of
  std::vector<std::string> engines;                ///< by engine index (a slice's tid)
  std::vector<std::vector<uint64_t>> engineBusy;   ///< [tile][engine]: otherData.engine_busy, else the slices' sum
  std::vector<uint64_t> barrierCycles;             ///< per tile: its barrier slices
  std::map<int64_t, TraceGroup> groups;            ///< by group index (args.group >= 0)
  uint64_t macs = 0;                               ///< every NE slice's
  std::map<std::string, uint64_t> macsByFormat;    ///< every NE slice's, by its in_fmt
  uint64_t slices = 0;                             ///< "X" events read
  std::vector<Series> spm;                         ///< per tile: the largest SPM occupancy in each bucket
  Series ddrBytesPerCycle;                         ///< the chip's DDR traffic: mean bytes/cycle in each bucket
  bool ddrFromCounter = false; ///< from the "DDR bandwidth" counter (else spread from the DMA/DTE slices)
};

/// Aggregates a parsed trace (`name` names it in errors): it must be a "tx8-trace" of version 1; unknown fields
/// are ignored and missing optional ones count as 0.
tx8::ref::Status summarizeTrace(const llvm::json::Object &trace, const std::string &name, TraceSummary &summary);

/// Reads and aggregates the trace file at `path` (bounded; its events parsed one at a time, never as one tree).
tx8::ref::Status readTraceFile(const std::string &path, TraceSummary &summary);
/// The same for a trace's text (`name` names it in errors).
tx8::ref::Status summarizeTraceText(llvm::StringRef text, const std::string &name, TraceSummary &summary);

/// One group of the page: the manifest's plan and estimate, the trace's time and traffic, and what they give.
struct ReportGroup {
  int64_t index = 0;
  std::string op;                 ///< "Conv+Relu"; "view" for a DDR view (no plan, no time)
  std::vector<std::string> nodes; ///< the manifest's "nodes", else the trace's
  bool view = false, inTrace = false;
  int64_t tiles = 0, estimateCycles = 0, spmBytes = 0;
  std::vector<int64_t> sharding, steps;
  uint64_t start = 0, cycles = 0; ///< simulated: the span of its "group" slices over all tiles
  uint64_t macs = 0, ddrBytes = 0;
  double share = 0;               ///< of the run's cycles
  double ratio = 0;               ///< simulated / estimate (0 without an estimate)
  double intensity = 0;           ///< ops (2 per MAC) per DDR byte; 0 without DDR bytes
  double opsPerCycle = 0;         ///< achieved: 2 * MACs / simulated cycles
  std::string neFormat;           ///< the format its NE reads (most MACs' in_fmt; else the bundle's precision)
  int64_t peakTiles = 0;          ///< the tiles of its NE peak: its plan's (else the tiles the trace saw run it)
  double peakOpsPerCycle = 0;     ///< 2 * NE MACs/cycle of neFormat * peakTiles
  double roofOpsPerCycle = 0;     ///< min(peak, intensity * DDR bytes/cycle); the peak without DDR bytes
  double ddrBytesPerCycle = 0;    ///< achieved DDR traffic over its simulated cycles
  std::string busiestEngine;      ///< the engine with the most busy cycles in it
};

/// Every number of the page.
struct ReportData {
  std::string model, target, precision;
  std::string neFormat;             ///< the format of most of the run's MACs (else the precision)
  int64_t tiles = 0, chipTiles = 0; ///< the bundle's tiles; the chip's
  uint64_t cycles = 0, clockMhz = 0, macs = 0;
  int64_t neMacsPerCycle = 0;       ///< per tile, for neFormat
  int64_t ddrBytesPerCycle = 0, spmBytes = 0;
  double chipPeakUtilisation = 0;   ///< MACs / (cycles * chip tiles * NE MACs/cycle of neFormat)
  std::vector<ReportGroup> groups;  ///< manifest order
  std::vector<size_t> top;          ///< up to 10 indices into groups, by simulated cycles
  std::vector<std::string> engines;
  std::vector<std::vector<uint64_t>> engineBusy; ///< per tile of the trace up to the last one with work
  std::vector<uint64_t> barrierCycles;
  std::vector<Series> spm;
  Series ddr;
  bool ddrFromCounter = false;
  struct Ddr {
    int64_t bytes = 0, constBytes = 0, inputBytes = 0, outputBytes = 0, intermediates = 0, intermediateBytes = 0;
    uint64_t chipBytes = 0;
  } ddrUse;
  uint64_t slices = 0;
};

/// Joins a bundle (checked by loadBundle), its manifest and a trace summary. The trace must be of this bundle:
/// its tiles the bundle's (or the chip's) and its groups the manifest's. NE peaks are those of the format the NE
/// slices read (their in_fmt), else of the bundle's --precision.
tx8::ref::Status buildReportData(const BundleInfo &bundle, const llvm::json::Object &manifest,
                                 const TraceSummary &trace, ReportData &data);

/// The page: self-contained (inline CSS, script and SVG; nothing fetched), the same bytes for the same data.
void printReportHtml(const ReportData &data, llvm::raw_ostream &os);

/// summarizeTrace, buildReportData, printReportHtml.
tx8::ref::Status writeReport(const BundleInfo &bundle, const llvm::json::Object &manifest,
                             const llvm::json::Object &trace, llvm::raw_ostream &os);

/// A bundle's manifest.json as JSON (bounded; the bundle checked by loadBundle first).
tx8::ref::Status readBundleManifest(const BundleInfo &bundle, llvm::json::Value &manifest);

} // namespace tx8be

#endif // TX8_DRIVER_REPORT_H
