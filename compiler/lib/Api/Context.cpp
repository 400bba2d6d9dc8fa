//===- Context.cpp - The API's MLIR context and diagnostic formatting -----===//
#include "tx8/Api/Context.h"

#include "tx8/Dialect/Tx8be/ComputeModels/ComputeModels.h"
#include "tx8/Driver/Model.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

using namespace mlir;

const char *tx8::api::severityName(Severity severity) {
  return severity == Severity::Error ? "error" : severity == Severity::Warning ? "warning" : "note";
}

std::unique_ptr<MLIRContext> tx8::api::createContext() {
  auto context = std::make_unique<MLIRContext>();
  context->printOpOnDiagnostic(false);
  DialectRegistry registry;
  tx8be::registerModelDialects(registry);
  tx8be::registerComputeInterfaceExternalModels(registry); // the reference, tx8be-fold-constants
  context->appendDialectRegistry(registry);
  return context;
}

namespace {

/// A line of a diagnostic, at most 1,000 characters: a model can put anything in a name.
std::string clip(llvm::StringRef line) {
  constexpr size_t kMax = 1000;
  if (line.size() <= kMax)
    return line.str();
  return line.take_front(kMax).str() + "... (" + std::to_string(line.size() - kMax) + " more characters)";
}

/// Where a diagnostic is, for a user: "file:line:col" for a text location, else the model file and the ONNX
/// node the op came from ("model.onnx: node 'conv1' (onnx.Conv)").
std::string describeLocation(Location loc, const std::string &model) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return file.getLine() == 0 ? std::string() // an error about the whole file names it itself
                               : (file.getFilename().str() + ":" + std::to_string(file.getLine()) + ":" +
                                  std::to_string(file.getColumn()));
  std::string names, kind;
  loc->walk([&](Location inner) {
    if (auto name = dyn_cast<NameLoc>(inner))
      names += (names.empty() ? "'" : ", '") + name.getName().str() + "'";
    if (auto fused = dyn_cast<FusedLoc>(inner))
      if (auto meta = dyn_cast_or_null<StringAttr>(fused.getMetadata()))
        kind = meta.getValue().str();
    return WalkResult::advance();
  });
  std::string where = model;
  if (!names.empty())
    where += std::string(where.empty() ? "" : ": ") + "node " + names + (kind.empty() ? "" : " (" + kind + ")");
  return where;
}

} // namespace

void tx8::api::attachDiagnostics(MLIRContext &context, const std::string &model, DiagnosticHandler handler,
                                 std::string *firstError) {
  context.getDiagEngine().registerHandler([model, handler, firstError](mlir::Diagnostic &d) {
    Diagnostic out;
    out.severity = d.getSeverity() == DiagnosticSeverity::Error     ? Severity::Error
                   : d.getSeverity() == DiagnosticSeverity::Warning ? Severity::Warning
                                                                    : Severity::Note;
    std::string where = describeLocation(d.getLocation(), model);
    std::string text = d.str();
    llvm::SmallVector<llvm::StringRef> lines;
    llvm::StringRef(text).split(lines, '\n');
    out.line = (where.empty() ? "" : where + ": ") + clip(lines.front());
    for (llvm::StringRef line : llvm::ArrayRef(lines).drop_front())
      out.more.push_back(clip(line));
    for (const mlir::Diagnostic &note : d.getNotes())
      out.more.push_back("  note: " + describeLocation(note.getLocation(), model) + ": " + clip(note.str()));
    if (firstError && firstError->empty() && out.severity == Severity::Error)
      *firstError = out.line;
    if (handler)
      handler(out);
    return success();
  });
}
