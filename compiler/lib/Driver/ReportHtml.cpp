//===- ReportHtml.cpp - tx8-aot report: ReportData -> one HTML page -------===//
//
// The page is static HTML (the sections, their headings and notes), the report's data as JSON in a
// <script type="application/json"> element, and a script (report/report.js, ReportAssets.h) that draws the
// tables and the SVG charts from it. Nothing is fetched: no URL appears in the page, and the SVG namespace the script needs is
// read from an inline <svg> element rather than spelt. Everything that comes from the model (names) reaches
// the page either HTML-escaped (the title) or inside the JSON, where '<', '>' and '&' are \u escapes, so no
// name can end the script element; the script puts names into the page as text nodes only.
//
//===----------------------------------------------------------------------===//
#include "tx8/Driver/Report.h"

#include "ReportAssets.h"

#include "llvm/Support/Format.h"

#include <cmath>

using namespace tx8be;
using llvm::StringRef;
namespace json = llvm::json;

namespace {

std::string htmlEscape(StringRef text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&#39;"; break;
    default: out += c;
    }
  }
  return out;
}

/// JSON text safe inside a <script> element: '<', '>' and '&' only occur in strings, where \u escapes mean
/// the same to JSON.parse (so no "</script>" or "<!--" can appear).
std::string scriptSafe(StringRef jsonText) {
  std::string out;
  out.reserve(jsonText.size());
  for (char c : jsonText) {
    if (c == '<')
      out += "\\u003c";
    else if (c == '>')
      out += "\\u003e";
    else if (c == '&')
      out += "\\u0026";
    else
      out += c;
  }
  return out;
}

std::string utf8(StringRef s) { return json::isUTF8(s) ? s.str() : json::fixUTF8(s); }

/// A number with 6 significant digits (the page shows 3; JSON's default 17 would double the data's size).
std::string realText(double v) {
  return std::isfinite(v) ? llvm::formatv("{0}", llvm::format("%.6g", v)).str() : std::string("0");
}

void real(json::OStream &j, StringRef key, double v) {
  j.attributeBegin(key);
  j.rawValue(realText(v));
  j.attributeEnd();
}

void integer(json::OStream &j, StringRef key, uint64_t v) { j.attribute(key, static_cast<int64_t>(v)); }

void integers(json::OStream &j, StringRef key, const std::vector<int64_t> &values) {
  j.attributeArray(key, [&] {
    for (int64_t v : values)
      j.value(v);
  });
}

void series(json::OStream &j, const Series &s, bool whole) {
  j.object([&] {
    integer(j, "bucket", s.bucketCycles);
    j.attributeArray("values", [&] {
      for (double v : s.values)
        if (whole) // SPM bytes
          j.value(static_cast<int64_t>(std::llround(v)));
        else
          j.rawValue(realText(v));
    });
  });
}

void group(json::OStream &j, const ReportGroup &g) {
  j.object([&] {
    j.attribute("index", g.index);
    j.attribute("op", utf8(g.op));
    j.attributeArray("nodes", [&] {
      for (const std::string &n : g.nodes)
        j.value(utf8(n));
    });
    j.attribute("view", g.view);
    j.attribute("inTrace", g.inTrace);
    j.attribute("tiles", g.tiles);
    integers(j, "sharding", g.sharding);
    integers(j, "steps", g.steps);
    j.attribute("estimate", g.estimateCycles);
    j.attribute("spm", g.spmBytes);
    integer(j, "start", g.start);
    integer(j, "cycles", g.cycles);
    integer(j, "macs", g.macs);
    integer(j, "ddrBytes", g.ddrBytes);
    real(j, "share", g.share);
    real(j, "ratio", g.ratio);
    real(j, "intensity", g.intensity);
    real(j, "opsPerCycle", g.opsPerCycle);
    j.attribute("neFormat", utf8(g.neFormat));
    j.attribute("peakTiles", g.peakTiles);
    real(j, "peak", g.peakOpsPerCycle);
    real(j, "roof", g.roofOpsPerCycle);
    real(j, "ddrBytesPerCycle", g.ddrBytesPerCycle);
    j.attribute("busiest", utf8(g.busiestEngine));
  });
}

/// The page's data, in the shape the script reads.
std::string dataJson(const ReportData &d) {
  std::string text;
  llvm::raw_string_ostream os(text);
  json::OStream j(os);
  j.object([&] {
    j.attribute("model", utf8(d.model));
    j.attribute("target", utf8(d.target));
    j.attribute("precision", utf8(d.precision));
    j.attribute("neFormat", utf8(d.neFormat));
    j.attribute("tiles", d.tiles);
    j.attribute("chipTiles", d.chipTiles);
    integer(j, "cycles", d.cycles);
    integer(j, "clockMhz", d.clockMhz);
    integer(j, "macs", d.macs);
    j.attribute("neMacsPerCycle", d.neMacsPerCycle);
    j.attribute("ddrBytesPerCycle", d.ddrBytesPerCycle);
    j.attribute("spmBytes", d.spmBytes);
    real(j, "chipPeakUtilisation", d.chipPeakUtilisation);
    integer(j, "slices", d.slices);
    j.attributeArray("groups", [&] {
      for (const ReportGroup &g : d.groups)
        group(j, g);
    });
    j.attributeArray("top", [&] {
      for (size_t i : d.top)
        j.value(static_cast<int64_t>(i));
    });
    j.attributeArray("engines", [&] {
      for (const std::string &e : d.engines)
        j.value(utf8(e));
    });
    j.attributeArray("busy", [&] {
      for (const std::vector<uint64_t> &tile : d.engineBusy)
        j.array([&] {
          for (uint64_t c : tile)
            j.value(static_cast<int64_t>(c));
        });
    });
    j.attributeArray("barrier", [&] {
      for (uint64_t c : d.barrierCycles)
        j.value(static_cast<int64_t>(c));
    });
    j.attributeArray("spmSeries", [&] {
      for (const Series &s : d.spm)
        series(j, s, /*whole=*/true);
    });
    j.attributeBegin("ddrSeries");
    series(j, d.ddr, /*whole=*/false);
    j.attributeEnd();
    j.attribute("ddrFromCounter", d.ddrFromCounter);
    j.attributeObject("ddrUse", [&] {
      j.attribute("bytes", d.ddrUse.bytes);
      j.attribute("constBytes", d.ddrUse.constBytes);
      j.attribute("inputBytes", d.ddrUse.inputBytes);
      j.attribute("outputBytes", d.ddrUse.outputBytes);
      j.attribute("intermediates", d.ddrUse.intermediates);
      j.attribute("intermediateBytes", d.ddrUse.intermediateBytes);
      integer(j, "chipBytes", d.ddrUse.chipBytes);
    });
  });
  return scriptSafe(os.str());
}

} // namespace

void tx8be::printReportHtml(const ReportData &data, llvm::raw_ostream &os) {
  std::string model = htmlEscape(data.model);
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
     << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
     << "<title>tx8-aot report: " << model << "</title>\n<style>\n\n" // the blank line: the page as before report/
     << reportCss() << "</style>\n</head>\n<body>\n"
     << "<svg id=\"svg-ns\" width=\"0\" height=\"0\" aria-hidden=\"true\"></svg>\n"
     << "<header><h1>tx8-aot report: " << model << "</h1></header>\n"
     << reportBody()
     << "<script type=\"application/json\" id=\"report-data\">" << dataJson(data) << "</script>\n"
     << "<script>\n\n" << reportJs() << "</script>\n</body>\n</html>\n";
}
