//===- fuzz_trace.cpp - libFuzzer: a trace -> tx8-aot report's page --------===//
//
// `tx8-aot report BUNDLE --trace trace.json` on hostile bytes: tx8be::summarizeTraceText (what readTraceFile does
// after reading the file: the depth check, the scanner that splits the events, llvm::json::parse of each, the
// aggregation and the time series), then, for a trace it accepts, the join with a manifest made to match it (its
// tiles, a group for each of the trace's) and the page. Every input must give a Status; a page must hold exactly
// the two script elements it opens (no name may end one).
//
//===----------------------------------------------------------------------===//
#include "tx8/Driver/Report.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  tx8be::TraceSummary trace;
  if (!tx8be::summarizeTraceText(text, "fuzz.json", trace).ok())
    return 0;
  llvm::json::Array groups;
  for (const auto &entry : trace.groups)
    groups.push_back(llvm::json::Object{{"group", entry.first}, {"op", "Conv"}, {"tiles", 1}, {"estimate_cycles", 100}});
  groups.push_back(llvm::json::Object{{"group", -5}, {"op", "view"}});
  llvm::json::Object manifest{{"tiles", trace.tiles}, {"groups", std::move(groups)}};
  tx8be::BundleInfo bundle;
  bundle.dir = "fuzz-bundle";
  bundle.modelName = trace.model;
  tx8be::ReportData report;
  tx8::ref::Status s = tx8be::buildReportData(bundle, manifest, trace, report);
  if (!s.ok()) {
    std::fprintf(stderr, "fuzz_trace: a manifest made to match the trace is refused: %s\n", s.message().c_str());
    std::abort();
  }
  std::string page;
  llvm::raw_string_ostream os(page);
  tx8be::printReportHtml(report, os);
  std::string lower = llvm::StringRef(os.str()).lower(); // HTML ends a script element at any case of </script
  if (llvm::StringRef(lower).count("</script") != 2 || llvm::StringRef(lower).count("<script") != 2) {
    std::fprintf(stderr, "fuzz_trace: the page does not hold exactly its two script elements\n");
    std::abort();
  }
  return 0;
}
