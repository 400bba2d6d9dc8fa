//===- Diff.cpp - tx8-aot diff: every node's output, device against reference ===//
#include "tx8/Driver/Diff.h"

#include "tx8/Import/ONNX.h"
#include "tx8/Reference/Convert.h"
#include "tx8/Reference/TensorIO.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

using namespace mlir;
using namespace tx8be;
using tx8::ref::DType;
using tx8::ref::Status;
using tx8::ref::Tensor;
using tx8::ref::Tolerance;

double tx8be::precisionRelTolerance(llvm::StringRef precision) {
  if (precision == "tf32" || precision == "fp16")
    return 16.0 / 2048.0;
  if (precision == "bf16")
    return 16.0 / 256.0;
  return 0;
}

double tx8be::maxAbs(const Tensor &t) {
  double m = 0;
  if (t.dtype != DType::F32)
    return 0;
  for (int64_t i = 0; i < t.numElements(); ++i) {
    double v = tx8::ref::elementAsDouble(t, i);
    if (std::isfinite(v))
      m = std::max(m, std::fabs(v));
  }
  return m;
}

Tolerance tx8be::toleranceFor(const Tensor &expected, Tolerance base, llvm::StringRef precision) {
  double u16 = precisionRelTolerance(precision);
  if (u16 > 0) {
    base.rtol = std::max(base.rtol, u16);
    base.atol = std::max(base.atol, u16 * maxAbs(expected));
  }
  return base;
}

Status tx8be::getDebugTensors(func::FuncOp func, std::vector<DebugTensor> &tensors) {
  tensors.clear();
  auto rows = func->getAttrOfType<ArrayAttr>(getDebugTensorsAttrName());
  if (!rows)
    return Status::error("the model was not imported with its debug outputs (each node's output)");
  for (auto [i, row] : llvm::enumerate(rows)) {
    auto dict = dyn_cast<DictionaryAttr>(row);
    auto str = [&](StringRef key) {
      auto s = dict ? dict.getAs<StringAttr>(key) : StringAttr();
      return s ? s.getValue().str() : std::string();
    };
    auto result = dict ? dict.getAs<IntegerAttr>("result") : IntegerAttr();
    DebugTensor t{str("node"), str("op_type"), str("tensor"), str("kind"), result ? result.getInt() : -1};
    bool computed = t.kind == "computed";
    if (!result || (t.kind != "constant" && t.kind != "unused" && !computed) ||
        (computed && (t.result < 0 || t.result >= static_cast<int64_t>(func.getNumResults()))))
      return Status::error(getDebugTensorsAttrName().str() + "[" + std::to_string(i) + "] is malformed");
    tensors.push_back(std::move(t));
  }
  return Status();
}

TensorDiff tx8be::diffTensors(const Tensor &device, const Tensor &reference, const Tolerance &tol) {
  TensorDiff d;
  d.compared = true;
  if (device.dtype != reference.dtype || device.shape != reference.shape) {
    d.problem = std::string("device ") + tx8::ref::dtypeName(device.dtype) + " " +
                tx8::ref::shapeToString(device.shape) + ", reference " + tx8::ref::dtypeName(reference.dtype) + " " +
                tx8::ref::shapeToString(reference.shape);
    d.maxAbsError = d.maxRelError = INFINITY;
    d.cosine = 0;
    return d;
  }
  bool exact = !tx8::ref::isFloatType(reference.dtype);
  size_t width = tx8::ref::dtypeBytes(reference.dtype);
  double dot = 0, deviceNorm = 0, referenceNorm = 0;
  for (int64_t i = 0; i < reference.numElements(); ++i) {
    double a = tx8::ref::elementAsDouble(device, i), e = tx8::ref::elementAsDouble(reference, i), err;
    bool bad;
    if (exact) { // the bytes, so that i64 beyond 2^53 compares exactly too
      bad = std::memcmp(device.bytes.data() + i * width, reference.bytes.data() + i * width, width) != 0;
      err = bad ? std::max(std::fabs(a - e), 1.0) : 0;
    } else if (std::isnan(a) || std::isnan(e)) {
      bad = std::isnan(a) != std::isnan(e);
      err = bad ? INFINITY : 0;
    } else if (std::isinf(a) || std::isinf(e)) {
      bad = a != e;
      err = bad ? INFINITY : 0;
    } else {
      err = std::fabs(a - e);
      bad = err > tol.atol + tol.rtol * std::fabs(e);
    }
    d.mismatches += bad;
    d.maxAbsError = std::max(d.maxAbsError, err);
    if (std::isinf(err))
      d.maxRelError = INFINITY;
    else if (err > 0 && e != 0)
      d.maxRelError = std::max(d.maxRelError, err / std::fabs(e));
    if (std::isfinite(a) && std::isfinite(e)) {
      dot += a * e;
      deviceNorm += a * a;
      referenceNorm += e * e;
    }
  }
  if (deviceNorm == 0 || referenceNorm == 0)
    d.cosine = deviceNorm == referenceNorm ? 1 : 0;
  else
    d.cosine = std::clamp(dot / (std::sqrt(deviceNorm) * std::sqrt(referenceNorm)), -1.0, 1.0);
  d.ok = d.mismatches == 0;
  return d;
}

namespace {

/// `name` as a file name: [A-Za-z0-9._-] kept, anything else '_', no leading '.', at most 200 characters
/// (the .npy suffix and a disambiguating "_<k>" stay under NAME_MAX).
std::string fileStem(llvm::StringRef name) {
  std::string stem;
  for (char c : name.take_front(200))
    stem += llvm::isAlnum(c) || c == '.' || c == '_' || c == '-' ? c : '_';
  if (stem.empty() || stem[0] == '.')
    stem = "_" + stem;
  return stem;
}

/// A name from the model in a table cell: control characters (tabs, line breaks) become '?'.
std::string cell(llvm::StringRef text) {
  std::string s;
  for (char c : text)
    s += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? '?' : c;
  return s;
}

std::string shapeText(const std::vector<int64_t> &shape) {
  if (shape.empty())
    return "scalar";
  std::string s;
  for (int64_t d : shape)
    s += (s.empty() ? "" : "x") + std::to_string(d);
  return s;
}

std::string number(double v, const char *format) {
  if (std::isinf(v))
    return "inf";
  return llvm::formatv(format, v).str();
}

/// printf's %g: 1e-07, 0.001.
std::string shortNumber(double v) {
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format("%g", v);
  return s;
}

const char *verdict(const DiffRow &row) {
  if (!row.diff.compared)
    return row.tensor.kind == "constant" ? "const" : "unused";
  return row.diff.ok ? "ok" : "FAIL";
}

} // namespace

Status tx8be::diffDebugOutputs(const std::vector<DebugTensor> &tensors, const std::vector<Tensor> &device,
                               const std::vector<Tensor> &reference, Tolerance base, llvm::StringRef precision,
                               std::vector<DiffRow> &rows) {
  rows.clear();
  std::set<std::string> files;
  for (const DebugTensor &t : tensors) {
    DiffRow row;
    row.tensor = t;
    row.dtype = row.shape = "-";
    if (t.kind == "computed") {
      auto at = static_cast<size_t>(t.result);
      if (at >= device.size() || at >= reference.size())
        return Status::error("tensor '" + t.tensor + "' of node '" + t.node + "' is result " +
                             std::to_string(t.result) + ", the device gave " + std::to_string(device.size()) +
                             " and the reference " + std::to_string(reference.size()));
      const Tensor &expected = reference[at];
      row.dtype = tx8::ref::dtypeName(expected.dtype);
      row.shape = shapeText(expected.shape);
      row.tol = toleranceFor(expected, base, precision);
      row.diff = diffTensors(device[at], expected, row.tol);
      std::string stem = fileStem(t.tensor);
      row.file = stem + ".npy";
      for (int k = 2; !files.insert(row.file).second; ++k)
        row.file = stem + "_" + std::to_string(k) + ".npy";
    }
    rows.push_back(std::move(row));
  }
  return Status();
}

int64_t tx8be::firstDivergence(llvm::ArrayRef<DiffRow> rows) {
  for (auto [i, row] : llvm::enumerate(rows))
    if (row.diff.compared && !row.diff.ok)
      return static_cast<int64_t>(i);
  return -1;
}

void tx8be::printDiffTable(llvm::ArrayRef<DiffRow> rows, bool tsv, llvm::raw_ostream &os) {
  std::vector<std::vector<std::string>> table;
  if (tsv)
    table.push_back({"index", "node", "op_type", "tensor", "shape", "dtype", "max_abs_err", "max_rel_err", "cosine",
                     "verdict", "file"});
  else
    table.push_back({"#", "node", "op_type", "tensor", "shape", "dtype", "max|err|", "max rel", "cosine", "verdict"});
  int64_t first = firstDivergence(rows);
  for (auto [i, row] : llvm::enumerate(rows)) {
    const TensorDiff &d = row.diff;
    std::vector<std::string> line = {std::to_string(i),
                                     cell(row.tensor.node),
                                     cell(row.tensor.opType),
                                     cell(row.tensor.tensor),
                                     row.shape,
                                     row.dtype,
                                     d.compared ? number(d.maxAbsError, "{0:e3}") : "-",
                                     d.compared ? number(d.maxRelError, "{0:e3}") : "-",
                                     d.compared ? number(d.cosine, "{0:f6}") : "-",
                                     verdict(row)};
    if (tsv)
      line.push_back(row.file.empty() ? "-" : row.file);
    else if (static_cast<int64_t>(i) == first)
      line.back() += "  <- first divergence";
    table.push_back(std::move(line));
  }
  if (tsv) {
    for (const auto &line : table)
      os << llvm::join(line, "\t") << "\n";
    return;
  }
  // Aligned: text columns to the left, numbers to the right; the last column unpadded.
  std::vector<size_t> width(table.front().size(), 0);
  for (const auto &line : table)
    for (size_t c = 0; c < line.size(); ++c)
      width[c] = std::max(width[c], line[c].size());
  auto numeric = [](size_t c) { return c == 0 || (c >= 6 && c <= 8); };
  for (const auto &line : table) {
    std::string text;
    for (size_t c = 0; c < line.size(); ++c) {
      std::string pad(width[c] - line[c].size(), ' ');
      if (c + 1 == line.size())
        text += line[c];
      else
        text += (numeric(c) ? pad + line[c] : line[c] + pad) + "  ";
    }
    os << text << "\n";
  }
}

std::string tx8be::diffSummary(llvm::ArrayRef<DiffRow> rows) {
  int64_t compared = 0, failed = 0, constants = 0;
  for (const DiffRow &row : rows) {
    compared += row.diff.compared;
    failed += row.diff.compared && !row.diff.ok;
    constants += row.tensor.kind == "constant";
  }
  int64_t first = firstDivergence(rows);
  if (first < 0) {
    std::string s = "all " + std::to_string(compared) + " tensors within tolerance";
    if (constants)
      s += " (" + std::to_string(constants) + " constant" + (constants == 1 ? "" : "s") + " not compared)";
    return s;
  }
  const DiffRow &row = rows[first];
  const TensorDiff &d = row.diff;
  std::string s = "first divergence: node '" + cell(row.tensor.node) + "' (" + cell(row.tensor.opType) +
                  ") output '" + cell(row.tensor.tensor) + "': ";
  if (!d.problem.empty())
    s += d.problem;
  else
    s += "max|err| " + number(d.maxAbsError, "{0:e3}") + ", max rel " + number(d.maxRelError, "{0:e3}") +
         ", cosine " + number(d.cosine, "{0:f6}") + ", " + std::to_string(d.mismatches) +
         " element(s) beyond |err| <= " + shortNumber(row.tol.atol) + " + " + shortNumber(row.tol.rtol) +
         " * |reference|";
  return s + "; " + std::to_string(failed) + " of " + std::to_string(compared) + " tensors beyond tolerance";
}

Status tx8be::writeDiffFiles(const std::string &dir, llvm::ArrayRef<DiffRow> rows, const std::vector<Tensor> &device,
                             const std::vector<Tensor> &reference) {
  for (const char *side : {"device", "reference"}) {
    std::string sub = dir + "/" + side;
    if (std::error_code ec = llvm::sys::fs::create_directories(sub))
      return Status::error(sub + ": cannot create: " + ec.message());
    // A directory of one run: the .npy files of an earlier one go first.
    std::error_code ec;
    std::vector<std::string> stale;
    for (llvm::sys::fs::directory_iterator it(sub, ec), end; it != end && !ec; it.increment(ec))
      if (llvm::StringRef(it->path()).ends_with(".npy") && it->type() == llvm::sys::fs::file_type::regular_file)
        stale.push_back(it->path());
    if (ec)
      return Status::error(sub + ": cannot list: " + ec.message());
    for (const std::string &path : stale)
      if (std::error_code rm = llvm::sys::fs::remove(path))
        return Status::error(path + ": cannot remove: " + rm.message());
  }
  for (const DiffRow &row : rows) {
    if (!row.diff.compared)
      continue;
    auto at = static_cast<size_t>(row.tensor.result);
    for (auto [side, tensors] : {std::make_pair("device", &device), std::make_pair("reference", &reference)})
      if (Status s = tx8::ref::writeNpy(dir + "/" + side + "/" + row.file, (*tensors)[at]); !s.ok())
        return s;
  }
  std::string tsv;
  llvm::raw_string_ostream os(tsv);
  printDiffTable(rows, /*tsv=*/true, os);
  return tx8::ref::writeFileBytes(dir + "/diff.tsv", tsv.data(), tsv.size());
}
