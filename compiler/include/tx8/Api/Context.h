//===- Context.h - tx8 API: the MLIR context the compiler runs in ----*- C++ -*-===//
//
// For the tx8-aot commands outside the API (import, reference, test-onnx), which work on a module themselves:
// the context every API call makes for itself, and the diagnostic formatting the API's calls use.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_API_CONTEXT_H
#define TX8_API_CONTEXT_H

#include "tx8/Api/Status.h"

#include <memory>
#include <string>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace tx8::api {

/// A context with the model dialects and the ComputeInterface models (the reference, constant folding) loaded,
/// printing no op into a diagnostic (the op's location names it; its generic form is noise to a user).
std::unique_ptr<mlir::MLIRContext> createContext();

/// Formats the context's diagnostics as Diagnostic (WHERE naming `model`, the file the command reads) and hands
/// them to `handler`; the first error's line also goes to *firstError when given (and still empty).
void attachDiagnostics(mlir::MLIRContext &context, const std::string &model, DiagnosticHandler handler,
                       std::string *firstError = nullptr);

} // namespace tx8::api

#endif // TX8_API_CONTEXT_H
