//===- ReportTest.cpp - tx8-aot report: aggregation and the page ----------===//
//
// A hand-made manifest and trace of 2 tiles whose numbers are worked out below: per-group simulated cycles,
// engine utilisation, roofline points, time series, the checks that a trace belongs to the bundle, the file
// reader (event by event) against the parsed-object path, and the page's escaping and determinism.
//
//===----------------------------------------------------------------------===//
#include "tx8/Driver/Report.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace tx8be;
namespace json = llvm::json;

namespace {

// Groups: 0 = Conv+Relu on 2 tiles (estimate 500), 1 = Relu on tile 0 (estimate 400), 2 = a view. The manifest
// names group 0's nodes; group 1's come from the trace.
constexpr const char *kManifest = R"({
  "format": "tx8-bundle", "tiles": 2,
  "groups": [
    {"group": 0, "op": "Conv+Relu", "tiles": 2, "sharding": [1, 2], "steps": [1, 1], "estimate_cycles": 500,
     "spm_bytes": 3000, "nodes": ["conv1", "relu1"]},
    {"group": 1, "op": "Relu", "tiles": 1, "sharding": [1, 1], "steps": [2, 0], "estimate_cycles": 400,
     "spm_bytes": 1000},
    {"group": 2, "op": "view"}
  ],
  "ddr": {"bytes": 20480, "const_bytes": 4096, "intermediates": 1, "intermediate_bytes": 8192}
})";

// Engines in an order that is not the ISA's (the report goes by name). Group 0 runs 0-400 on tile 0 and 10-420
// on tile 1: 420 cycles. Its DDR bytes: RDMA 2000 + WDMA 1000 + DTE from DDR 500 (the DTE from SPM, 700, is not
// DDR traffic) = 3500; MACs 100000 + 50000. Group 1 runs 500-900 on tile 0: RDMA and WDMA 4000 bytes each.
constexpr const char *kEvents = R"([
  {"ph":"M","pid":0,"name":"process_name","args":{"name":"tile 0"}},
  {"ph":"M","pid":0,"tid":2,"name":"thread_name","args":{"name":"NE"}},
  {"ph":"X","pid":0,"tid":0,"name":"SCALAR setup","cat":"SCALAR","ts":0,"dur":0.005,
   "args":{"start_cycle":0,"cycles":5,"group":-1}},
  {"ph":"X","pid":0,"tid":101,"name":"group 0: Conv+Relu","cat":"group","ts":0,"dur":0.4,
   "args":{"group":0,"nodes":"ignored,because,the manifest names them","start_cycle":0,"cycles":400}},
  {"ph":"X","pid":1,"tid":101,"name":"group 0: Conv+Relu","cat":"group","ts":0.01,"dur":0.41,
   "args":{"group":0,"start_cycle":10,"cycles":410}},
  {"ph":"X","pid":0,"tid":3,"name":"RDMA load","cat":"RDMA","ts":0,"dur":0.05,
   "args":{"start_cycle":0,"cycles":50,"group":0,"bytes":2000}},
  {"ph":"X","pid":0,"tid":2,"name":"NE conv \"x]}\" {[","cat":"NE","ts":0.05,"dur":0.3,
   "args":{"start_cycle":50,"cycles":300,"group":0,"macs":100000,"note":"a ] and a } in a string"}},
  {"ph":"X","pid":1,"tid":2,"name":"NE conv","cat":"NE","ts":0.02,"dur":0.2,
   "args":{"start_cycle":20,"cycles":200,"group":0,"macs":50000}},
  {"ph":"X","pid":1,"tid":4,"name":"WDMA store","cat":"WDMA","ts":0.3,"dur":0.1,
   "args":{"start_cycle":300,"cycles":100,"group":0,"bytes":1000}},
  {"ph":"X","pid":0,"tid":6,"name":"DTE multicast","cat":"DTE","ts":0.35,"dur":0.02,
   "args":{"start_cycle":350,"cycles":20,"group":0,"bytes":500,"from_ddr":1}},
  {"ph":"X","pid":1,"tid":6,"name":"DTE copy","cat":"DTE","ts":0.4,"dur":0.01,
   "args":{"start_cycle":400,"cycles":10,"group":0,"bytes":700,"from_ddr":0}},
  {"ph":"X","pid":1,"tid":100,"name":"barrier","cat":"barrier","ts":0.42,"dur":0.01,
   "args":{"start_cycle":420,"cycles":10}},
  {"ph":"X","pid":0,"tid":101,"name":"group 1: Relu","cat":"group","ts":0.5,"dur":0.4,
   "args":{"group":1,"nodes":"relu2,id, with a comma","start_cycle":500,"cycles":400}},
  {"ph":"X","pid":0,"tid":3,"name":"RDMA load","cat":"RDMA","ts":0.5,"dur":0.1,
   "args":{"start_cycle":500,"cycles":100,"group":1,"bytes":4000}},
  {"ph":"X","pid":0,"tid":1,"name":"CT relu","cat":"CT","ts":0.6,"dur":0.2,
   "args":{"start_cycle":600,"cycles":200,"group":1,"bytes":4000}},
  {"ph":"X","pid":0,"tid":4,"name":"WDMA store","cat":"WDMA","ts":0.8,"dur":0.1,
   "args":{"start_cycle":800,"cycles":100,"group":1,"bytes":4000}},
  {"ph":"X","pid":5,"tid":1,"name":"on no tile of the trace","ts":0,"dur":1,"args":{"cycles":1000}},
  {"ph":"C","pid":0,"name":"SPM bytes","ts":0,"args":{"bytes":3000}},
  {"ph":"C","pid":0,"name":"SPM bytes","ts":0.4,"args":{"bytes":0}},
  {"ph":"C","pid":0,"name":"SPM bytes","ts":0.5,"args":{"bytes":1000}},
  {"ph":"C","pid":0,"name":"SPM bytes","ts":0.9,"args":{"bytes":0}},
  {"ph":"C","pid":2,"name":"DDR bandwidth","ts":0,"args":{"bytes_per_cycle":10.0}},
  {"ph":"C","pid":2,"name":"DDR bandwidth","ts":0.5,"args":{"bytes_per_cycle":20.0}},
  {"ph":"C","pid":2,"name":"DDR bandwidth","ts":0.9,"args":{"bytes_per_cycle":0}},
  "not an event", 42
])";

constexpr const char *kEngines = R"(["SCALAR","CT","NE","RDMA","WDMA","TDMA","DTE","CSR"])";

std::string otherData(const std::string &extra = "") {
  return std::string(R"({"format":"tx8-trace","version":1,"model":"tiny","target":"cmodel","clock_mhz":1000,)") +
         R"("tiles":2,"cycles":1000,"engines":)" + kEngines + extra + "}";
}

std::string traceText(const std::string &other = otherData()) {
  // otherData after the events: the file reader must not depend on the order of the keys.
  return std::string(R"({"displayTimeUnit":"ns","traceEvents":)") + kEvents + R"(,"otherData":)" + other + "}";
}

json::Value parse(const std::string &text) {
  llvm::Expected<json::Value> v = json::parse(text);
  EXPECT_TRUE(static_cast<bool>(v)) << llvm::toString(v.takeError());
  return v ? std::move(*v) : json::Value(nullptr);
}

BundleInfo tinyBundle() {
  BundleInfo b;
  b.dir = "tiny-bundle";
  b.target = "cmodel";
  b.modelName = "tiny";
  b.hw = tx8_hw_config_default(); // 16 tiles, 656 fp32 MAC/cycle per tile, 200 DDR bytes/cycle
  b.inputs.push_back({"x", "f32", "x.bin", "NCHW", {1, 2}, {0, 1}, "TENSOR", 4096});
  b.outputs.push_back({"y", "f32", "y.bin", "NCHW", {1, 2}, {0, 1}, "TENSOR", 4096});
  return b;
}

TraceSummary summarize(const std::string &text) {
  json::Value trace = parse(text);
  TraceSummary summary;
  tx8::ref::Status s = summarizeTrace(*trace.getAsObject(), "trace.json", summary);
  EXPECT_TRUE(s.ok()) << s.message();
  return summary;
}

ReportData report(const TraceSummary &trace, const BundleInfo &bundle = tinyBundle()) {
  json::Value manifest = parse(kManifest);
  ReportData data;
  tx8::ref::Status s = buildReportData(bundle, *manifest.getAsObject(), trace, data);
  EXPECT_TRUE(s.ok()) << s.message();
  return data;
}

TEST(Report, EngineKindsByName) {
  EXPECT_EQ(engineKindOf("NE"), EngineKind::NE);
  EXPECT_EQ(engineKindOf("neur"), EngineKind::NE);
  EXPECT_EQ(engineKindOf("CGRA"), EngineKind::CT);
  EXPECT_EQ(engineKindOf(" dte "), EngineKind::DTE);
  EXPECT_EQ(engineKindOf("SCALAR"), EngineKind::Other);
}

TEST(Report, GroupCyclesTrafficAndMacs) {
  TraceSummary t = summarize(traceText());
  ASSERT_EQ(t.groups.size(), 2u);
  const TraceGroup &g0 = t.groups.at(0), &g1 = t.groups.at(1);
  EXPECT_EQ(g0.start, 0u);
  EXPECT_EQ(g0.end, 420u);
  EXPECT_EQ(g0.cycles(), 420u);
  EXPECT_EQ(g0.spans, 2);
  EXPECT_EQ(g0.macs, 150000u);
  EXPECT_EQ(g0.rdmaBytes, 2000u);
  EXPECT_EQ(g0.wdmaBytes, 1000u);
  EXPECT_EQ(g0.dteBytes, 1200u);
  EXPECT_EQ(g0.dteDdrBytes, 500u);
  EXPECT_EQ(g0.ddrBytes(), 3500u);
  EXPECT_EQ(g1.cycles(), 400u);
  EXPECT_EQ(g1.ddrBytes(), 8000u);
  EXPECT_EQ(g1.nodes, "relu2,id, with a comma");
  EXPECT_EQ(t.macs, 150000u);
  EXPECT_EQ(t.slices, 14u); // the slice on pid 5 (no tile of a 2-tile trace) is not counted
  EXPECT_EQ(t.tiles, 2);
  EXPECT_EQ(t.cycles, 1000u);
}

TEST(Report, EngineUtilisationFromTheSlices) {
  TraceSummary t = summarize(traceText()); // no engine_busy: the slices' sums
  ASSERT_EQ(t.engineBusy.size(), 2u);
  ASSERT_EQ(t.engineBusy[0].size(), 8u);
  // tile 0: SCALAR 5, CT 200, NE 300, RDMA 50 + 100, WDMA 100, DTE 20; tile 1: NE 200, WDMA 100, DTE 10.
  EXPECT_EQ(t.engineBusy[0], (std::vector<uint64_t>{5, 200, 300, 150, 100, 0, 20, 0}));
  EXPECT_EQ(t.engineBusy[1], (std::vector<uint64_t>{0, 0, 200, 0, 100, 0, 10, 0}));
  EXPECT_EQ(t.barrierCycles, (std::vector<uint64_t>{0, 10}));
  // The busiest engine of each group: group 0's NE (500 cycles over both tiles), group 1's CT.
  ReportData d = report(t);
  EXPECT_EQ(d.groups[0].busiestEngine, "NE");
  EXPECT_EQ(d.groups[1].busiestEngine, "CT");
}

TEST(Report, EngineUtilisationFromTheHeader) {
  // engine_busy of the right shape wins over the slices; a malformed one is ignored.
  TraceSummary t = summarize(traceText(otherData(R"(,"engine_busy":[[1,2,3,4,5,6,7,8],[9,10,11,12,13,14,15,16]])")));
  EXPECT_EQ(t.engineBusy[1], (std::vector<uint64_t>{9, 10, 11, 12, 13, 14, 15, 16}));
  t = summarize(traceText(otherData(R"(,"engine_busy":[[1,2,3],[4,5,6]])")));
  EXPECT_EQ(t.engineBusy[1], (std::vector<uint64_t>{0, 0, 200, 0, 100, 0, 10, 0}));
}

TEST(Report, RooflinePoints) {
  ReportData d = report(summarize(traceText()));
  ASSERT_EQ(d.groups.size(), 3u);
  const ReportGroup &g0 = d.groups[0], &g1 = d.groups[1], &view = d.groups[2];
  EXPECT_EQ(g0.cycles, 420u);
  EXPECT_EQ(g0.estimateCycles, 500);
  EXPECT_DOUBLE_EQ(g0.ratio, 420.0 / 500.0);
  EXPECT_DOUBLE_EQ(g0.share, 420.0 / 1000.0);
  EXPECT_EQ(g0.nodes, (std::vector<std::string>{"conv1", "relu1"})); // the manifest's, not the trace's
  EXPECT_DOUBLE_EQ(g0.intensity, 300000.0 / 3500.0); // 2 ops per MAC over DDR bytes
  EXPECT_DOUBLE_EQ(g0.opsPerCycle, 300000.0 / 420.0);
  EXPECT_EQ(g0.peakTiles, 2);
  EXPECT_DOUBLE_EQ(g0.peakOpsPerCycle, 2.0 * 656 * 2);            // fp32, the plan's 2 tiles
  EXPECT_DOUBLE_EQ(g0.roofOpsPerCycle, 2.0 * 656 * 2);            // 85.7 ops/B x 200 B/cycle is above the peak
  EXPECT_DOUBLE_EQ(g0.ddrBytesPerCycle, 3500.0 / 420.0);
  // No MACs: not a roofline point, its DDR bandwidth instead.
  EXPECT_EQ(g1.macs, 0u);
  EXPECT_DOUBLE_EQ(g1.intensity, 0.0);
  EXPECT_DOUBLE_EQ(g1.ddrBytesPerCycle, 20.0);
  EXPECT_EQ(g1.nodes, (std::vector<std::string>{"relu2", "id", "with a comma"}));
  EXPECT_TRUE(view.view);
  EXPECT_FALSE(view.inTrace);
  EXPECT_EQ(d.top, (std::vector<size_t>{0, 1}));
  EXPECT_DOUBLE_EQ(d.chipPeakUtilisation, 150000.0 / (1000.0 * 16 * 656));
  EXPECT_EQ(d.ddrUse.constBytes, 4096);
  EXPECT_EQ(d.ddrUse.inputBytes, 4096);

  // bf16: 4096 MAC/cycle per tile; a DDR-bound group's roof is its intensity x 200 B/cycle.
  BundleInfo bf16 = tinyBundle();
  bf16.precision = "bf16";
  TraceSummary heavy = summarize(traceText());
  heavy.groups[0].rdmaBytes = 300000; // intensity 300000 / 301500 < 1 op/B
  d = report(heavy, bf16);
  EXPECT_DOUBLE_EQ(d.groups[0].peakOpsPerCycle, 2.0 * 4096 * 2);
  EXPECT_DOUBLE_EQ(d.groups[0].roofOpsPerCycle, 300000.0 / 301500.0 * 200.0);
}

TEST(Report, NeFormatOfTheSlices) {
  // The NE slices say bf16 (a bf16 model, or --precision bf16): the peaks are bf16's whatever the bundle says.
  std::string events = kEvents;
  for (size_t at = 0; (at = events.find("\"macs\":", at)) != std::string::npos; at += 20)
    events.insert(at, "\"in_fmt\":\"bf16\",");
  std::string text = std::string(R"({"traceEvents":)") + events + R"(,"otherData":)" + otherData() + "}";
  ReportData d = report(summarize(text));
  EXPECT_EQ(d.neFormat, "bf16");
  EXPECT_EQ(d.neMacsPerCycle, 4096);
  EXPECT_EQ(d.groups[0].neFormat, "bf16");
  EXPECT_DOUBLE_EQ(d.groups[0].peakOpsPerCycle, 2.0 * 4096 * 2);
  EXPECT_DOUBLE_EQ(d.chipPeakUtilisation, 150000.0 / (1000.0 * 16 * 4096));
  EXPECT_EQ(d.groups[1].neFormat, "fp32"); // no NE slice: the bundle's precision
}

TEST(Report, TracksOfMoreTilesThanTheBundle) {
  // A 2-tile bundle traced on a 4-tile chip: tile 2 idle, tile 3 busy. The heat map shows tiles 0-3; a slice on
  // tile 3 counts.
  std::string other = otherData(R"(,"chip_tiles":4,"engine_busy":[[1,0,0,0,0,0,0,0],[2,0,0,0,0,0,0,0],)"
                                R"([0,0,0,0,0,0,0,0],[0,0,0,0,5,0,0,0]])");
  TraceSummary t = summarize(traceText(other));
  EXPECT_EQ(t.tiles, 2);
  EXPECT_EQ(t.chipTiles, 4);
  ReportData d = report(t);
  ASSERT_EQ(d.engineBusy.size(), 4u);
  EXPECT_EQ(d.engineBusy[3][4], 5u);
  EXPECT_EQ(d.spm.size(), 4u);
  // Tile 3 idle as well: only the bundle's 2 tiles are shown.
  other = otherData(R"(,"chip_tiles":4)");
  d = report(summarize(traceText(other)));
  EXPECT_EQ(d.engineBusy.size(), 2u);
  EXPECT_EQ(d.barrierCycles.size(), 2u);
}

TEST(Report, TimeSeries) {
  TraceSummary t = summarize(traceText());
  // 1000 cycles: 1000 buckets of one cycle.
  ASSERT_EQ(t.spm.size(), 2u);
  ASSERT_EQ(t.spm[0].values.size(), 1000u);
  EXPECT_EQ(t.spm[0].bucketCycles, 1u);
  EXPECT_EQ(t.spm[0].values[0], 3000.0);
  EXPECT_EQ(t.spm[0].values[399], 3000.0);
  EXPECT_EQ(t.spm[0].values[400], 0.0); // the value set at a bucket's first cycle, not the one before
  EXPECT_EQ(t.spm[0].values[500], 1000.0);
  EXPECT_EQ(t.spm[0].values[900], 0.0);
  EXPECT_EQ(t.spm[1].values[0], 0.0);
  EXPECT_TRUE(t.ddrFromCounter);
  EXPECT_EQ(t.ddrBytesPerCycle.values[0], 10.0);
  EXPECT_EQ(t.ddrBytesPerCycle.values[500], 20.0);

  // 10,000 cycles: 1000 buckets of 10. A one-cycle SPM peak shows in its bucket (max); DDR is the mean.
  std::string text = R"({"otherData":{"format":"tx8-trace","tiles":1,"cycles":10000,"engines":["RDMA"]},
    "traceEvents":[{"ph":"C","pid":0,"name":"SPM bytes","ts":0.0,"args":{"bytes":100}},
                   {"ph":"C","pid":0,"name":"SPM bytes","ts":0.015,"args":{"bytes":900}},
                   {"ph":"C","pid":0,"name":"SPM bytes","ts":0.016,"args":{"bytes":100}},
                   {"ph":"X","pid":0,"tid":0,"ts":0,"dur":0,"args":{"start_cycle":20,"cycles":5,"bytes":1000}}]})";
  t = summarize(text);
  ASSERT_EQ(t.spm[0].values.size(), 1000u);
  EXPECT_EQ(t.spm[0].bucketCycles, 10u);
  EXPECT_EQ(t.spm[0].values[0], 100.0);
  EXPECT_EQ(t.spm[0].values[1], 900.0);
  EXPECT_EQ(t.spm[0].values[2], 100.0);
  // No DDR counter: the RDMA's 1000 bytes over cycles 20-25, i.e. 100 bytes/cycle on average in bucket 2.
  EXPECT_FALSE(t.ddrFromCounter);
  EXPECT_DOUBLE_EQ(t.ddrBytesPerCycle.values[2], 100.0);
  EXPECT_DOUBLE_EQ(t.ddrBytesPerCycle.values[3], 0.0);
}

TEST(Report, FileReaderMatchesTheParsedTrace) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("report-test", "json", path));
  {
    std::error_code ec;
    llvm::raw_fd_ostream out(path, ec);
    out << "  \n" << traceText() << "\n";
  }
  TraceSummary fromFile, parsed = summarize(traceText());
  tx8::ref::Status s = readTraceFile(path.str().str(), fromFile);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(fromFile.slices, parsed.slices);
  EXPECT_EQ(fromFile.engineBusy, parsed.engineBusy);
  EXPECT_EQ(fromFile.groups.at(0).ddrBytes(), parsed.groups.at(0).ddrBytes());
  EXPECT_EQ(fromFile.groups.at(0).cycles(), parsed.groups.at(0).cycles());
  EXPECT_EQ(fromFile.groups.at(1).nodes, parsed.groups.at(1).nodes);
  EXPECT_EQ(fromFile.spm[0].values, parsed.spm[0].values);
  llvm::sys::fs::remove(path);
}

/// readTraceFile's error for `text` written to a file.
std::string fileError(const std::string &text) {
  llvm::SmallString<128> path;
  EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("report-test", "json", path));
  {
    std::error_code ec;
    llvm::raw_fd_ostream out(path, ec);
    out << text;
  }
  TraceSummary summary;
  tx8::ref::Status s = readTraceFile(path.str().str(), summary);
  llvm::sys::fs::remove(path);
  return s.ok() ? "" : s.message().substr(path.size()); // after the file's name
}

TEST(Report, BadTraces) {
  EXPECT_EQ(fileError(R"({"traceEvents":[]})"), ": not a tx8 trace (no \"otherData\" object)");
  EXPECT_EQ(fileError(R"({"otherData":{"format":"chrome"},"traceEvents":[]})"),
            ": not a tx8 trace (otherData.format is not \"tx8-trace\")");
  EXPECT_EQ(fileError("[1, 2]"), ": not a tx8 trace (not a JSON object at byte 0)");
  EXPECT_EQ(fileError("garbage"), ": not a tx8 trace (not a JSON object at byte 0)");
  EXPECT_EQ(fileError(R"({"otherData":{"format":"tx8-trace","version":2,"tiles":1}})"),
            ": tx8 trace format version 2, this tx8-aot reads version 1");
  EXPECT_EQ(fileError(R"({"otherData":{"format":"tx8-trace","tiles":0}})"),
            ": corrupt trace (otherData.tiles is not 1 to 1024)");
  std::string broken = R"({"otherData":{"format":"tx8-trace","tiles":1},"traceEvents":[{"ph":"X"},{"ph":X}]})";
  EXPECT_EQ(fileError(broken), ": corrupt trace (an event is not valid JSON: Invalid JSON value at byte 72)");
  EXPECT_EQ(fileError(R"({"otherData":{"format":"tx8-trace","tiles":1},"traceEvents":[{"ph":"X"})"),
            ": not a tx8 trace (invalid JSON at byte 71)");
  EXPECT_EQ(fileError(R"({"otherData":{"format":"tx8-trace","tiles":1}} x)"),
            ": not a tx8 trace (text after the JSON object at byte 47)");
  TraceSummary summary;
  tx8::ref::Status s = readTraceFile("/nonexistent/trace.json", summary);
  EXPECT_EQ(s.message(), "/nonexistent/trace.json: cannot read the trace: No such file or directory");
}

TEST(Report, TraceOfAnotherBundle) {
  json::Value manifest = parse(kManifest);
  ReportData data;
  // 4 tiles: neither the bundle's 2 nor the chip's 16.
  std::string four = otherData();
  four.replace(four.find("\"tiles\":2"), 9, "\"tiles\":4");
  tx8::ref::Status s = buildReportData(tinyBundle(), *manifest.getAsObject(), summarize(traceText(four)), data);
  EXPECT_EQ(s.message(), "trace.json: a trace of 4 tiles, but bundle tiny-bundle runs on 2 (of the chip's 16): not "
                         "a trace of this bundle");
  // The chip's 16 tiles are fine (the others idle).
  std::string sixteen = otherData();
  sixteen.replace(sixteen.find("\"tiles\":2"), 9, "\"tiles\":16");
  s = buildReportData(tinyBundle(), *manifest.getAsObject(), summarize(traceText(sixteen)), data);
  EXPECT_TRUE(s.ok()) << s.message();
  // A group the manifest does not have.
  TraceSummary t = summarize(traceText());
  t.groups[7] = t.groups[0];
  s = buildReportData(tinyBundle(), *manifest.getAsObject(), t, data);
  EXPECT_EQ(s.message(), "trace.json: group 7 is not a group of bundle tiny-bundle (it has 3): not a trace of this "
                         "bundle");
}

TEST(Report, PageIsEscapedSelfContainedAndDeterministic) {
  BundleInfo bundle = tinyBundle();
  bundle.modelName = "m</script><script>alert(1)</script>&\"'";
  json::Value manifest = parse(kManifest), trace = parse(traceText());
  std::string first, second;
  llvm::raw_string_ostream a(first), b(second);
  tx8::ref::Status s = writeReport(bundle, *manifest.getAsObject(), *trace.getAsObject(), a);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_TRUE(writeReport(bundle, *manifest.getAsObject(), *trace.getAsObject(), b).ok());
  EXPECT_EQ(a.str(), b.str());
  llvm::StringRef page = a.str();
  // The page's own two script elements end; the name's never does.
  EXPECT_EQ(page.count("</script>"), 2u);
  EXPECT_EQ(page.count("<script"), 2u);
  EXPECT_TRUE(page.contains("<title>tx8-aot report: m&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;"
                            "&#39;</title>"));
  EXPECT_TRUE(page.contains(R"("model":"m\u003c/script\u003e\u003cscript\u003ealert(1)\u003c/script\u003e\u0026\"'")"));
  EXPECT_FALSE(page.contains("http:"));
  EXPECT_FALSE(page.contains("https:"));
  EXPECT_FALSE(page.contains("src="));
  for (size_t at = page.find("href="); at != llvm::StringRef::npos; at = page.find("href=", at + 1))
    EXPECT_TRUE(page.substr(at).starts_with("href=\"#")) << page.substr(at, 40).str(); // links within the page
}

} // namespace
