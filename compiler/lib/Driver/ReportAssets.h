//===- ReportAssets.h - The fixed text of tx8-aot report's page -*- C++ -*-===//
//
// The style sheet, the sections of the page and the script that draws them from the JSON in
// <script id="report-data"> (ReportHtml.cpp writes it; the fields are ReportData's) are the files in report/
// (report.css, report-body.html, report.js), embedded at build time (cmake/Tx8EmbedFiles.cmake). No URL anywhere:
// the page must work offline and fetch nothing. The script builds every element with createElement(NS) and sets
// text with textContent, never innerHTML, so a name in the model is only ever text. It marks <body> with
// data-rendered="yes" when every section is drawn, or data-error="..." (and a console error) when one failed:
// the ctest that loads the page in headless chromium checks both.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_DRIVER_REPORTASSETS_H
#define TX8_DRIVER_REPORTASSETS_H

#include "llvm/ADT/StringRef.h"

namespace tx8be {
namespace assets {
extern const unsigned char kReportCss[], kReportBody[], kReportJs[];
extern const unsigned long kReportCssSize, kReportBodySize, kReportJsSize;
} // namespace assets

inline llvm::StringRef reportCss() {
  return {reinterpret_cast<const char *>(assets::kReportCss), assets::kReportCssSize};
}
inline llvm::StringRef reportBody() {
  return {reinterpret_cast<const char *>(assets::kReportBody), assets::kReportBodySize};
}
inline llvm::StringRef reportJs() {
  return {reinterpret_cast<const char *>(assets::kReportJs), assets::kReportJsSize};
}

} // namespace tx8be

#endif // TX8_DRIVER_REPORTASSETS_H
