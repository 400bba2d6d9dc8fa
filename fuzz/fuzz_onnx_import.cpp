//===- fuzz_onnx_import.cpp - libFuzzer: binary ModelProto -> importONNXBytes ===//
//
// `tx8-aot import/compile model.onnx` on hostile bytes: protobuf parsing, the ONNX checker and shape inference
// (libonnx), then the importer's graph walk and converters. Every input must end in a module or in diagnostics,
// never a crash. A fresh context per input (no uniqued types or attributes pile up between inputs), single-threaded,
// with the model dialects loaded as tx8-aot's are (registerModelDialects); diagnostics are swallowed.
//
//===----------------------------------------------------------------------===//
#include "tx8/Driver/Model.h"
#include "tx8/Import/ONNX.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::DialectRegistry registry;
  tx8be::registerModelDialects(registry);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  context.getDiagEngine().registerHandler([](mlir::Diagnostic &) { return mlir::success(); });
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  // In-process shape inference: a crash in libonnx is a finding (the importer's guards miss a case), which
  // tx8-aot itself would report as an error of its forked inference.
  tx8be::ONNXImportOptions options;
  options.isolateShapeInference = false;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tx8be::importONNXBytes(bytes, /*textFormat=*/false, "fuzz.onnx", context, options);
  // An imported module is what every later stage trusts: it must verify.
  if (module && mlir::failed(mlir::verify(*module))) {
    std::fprintf(stderr, "fuzz_onnx_import: the importer returned a module that does not verify\n");
    std::abort();
  }
  return 0;
}
