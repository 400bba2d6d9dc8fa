//===- Internal.h - What the API's implementation files share -----*- C++ -*-===//
#ifndef TX8_API_INTERNAL_H
#define TX8_API_INTERNAL_H

#include "tx8/Api/Compile.h"
#include "tx8/Api/Status.h"
#include "tx8/Codegen/Bundle.h"
#include "tx8/Import/ONNX.h"
#include "tx8/hw_config.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace tx8::api::detail {

Status usage(std::string message);

/// printf-style text (llvm::format), for the one-line summaries the front ends print.
template <typename... Ts> std::string formatted(const char *format, Ts... args) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format(format, args...);
  return text;
}

Status checkTarget(const std::string &target);
Status checkPrecision(const std::string &precision);
Status checkPlanOptions(const CompileOptions &options);
/// --input-shape parsed into `shapes`, and for an ONNX model.
Status checkInputShapes(const ModelSource &model, const CompileOptions &options,
                        std::vector<tx8be::InputShape> &shapes);
Status checkPrintIRAfter(const CompileOptions &options);
/// The defaults, changed by the --hw file `path` if one is given.
Status readHw(const std::string &path, tx8_hw_config &hw);
/// The BundleOptions the pipeline depends on (bundleOptions adds the model's name).
tx8::codegen::BundleOptions pipelineOptions(const CompileOptions &options);

/// The model file (loadModel) or ONNX bytes, imported; null after diagnostics on failure.
mlir::OwningOpRef<mlir::ModuleOp> importModel(const ModelSource &model, mlir::MLIRContext &context,
                                              const std::vector<tx8be::InputShape> &shapes, bool debugOutputs);

/// The pipeline, codegen and the bundle's files for an imported `module`, each step timed under `root`. A failure
/// diagnosed through the context is reported (its message *firstError when known).
Status compileLoaded(mlir::ModuleOp module, const std::string &sourcePath, const tx8_hw_config &hw,
                     const std::string &dir, const CompileOptions &options, mlir::TimingScope &root,
                     const std::string *firstError, uint64_t &constBytes);

} // namespace tx8::api::detail

#endif // TX8_API_INTERNAL_H
