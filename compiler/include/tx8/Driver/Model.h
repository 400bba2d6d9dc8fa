//===- Model.h - Loading models and their data for tx8-aot ---------*- C++ -*-===//
//
// What the tx8-aot subcommands share: a model file in any supported form becomes a tx8be module with an
// entry function @main; tensors for its inputs come from .npy / TensorProto files; results go to .npy.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_DRIVER_MODEL_H
#define TX8_DRIVER_MODEL_H

#include "tx8/Import/ONNX.h"
#include "tx8/Reference/Status.h"
#include "tx8/Reference/Tensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace tx8be {

/// Registers everything a model file may contain (tx8be, func, tosa, arith, tensor).
void registerModelDialects(mlir::DialectRegistry &registry);

/// Loads `path`: ONNX (".onnx", or text format ".onnxtxt" / ".textproto") through the ONNX importer, or
/// MLIR (".mlir") in tx8be or TOSA (converted with convert-tosa-to-tx8be). `inputShapes` fix an ONNX model's
/// symbolic input extents (an MLIR model has its types: giving any is an error). `debugOutputs`: an ONNX model's
/// @main also returns every node output (ONNXImportOptions::debugOutputs; an error for an MLIR model).
/// `constantInputs`: ONNX graph inputs compiled as constants (ONNXImportOptions::constantInputs; an error for an
/// MLIR model). Errors go to the context's diagnostic handler; the result is null on failure.
mlir::OwningOpRef<mlir::ModuleOp> loadModel(llvm::StringRef path, mlir::MLIRContext &context,
                                            const std::vector<InputShape> &inputShapes = {},
                                            bool debugOutputs = false,
                                            const std::vector<ConstantInput> &constantInputs = {});

/// Whether `path` names an MLIR model (the others are ONNX).
bool isMLIRModel(llvm::StringRef path);

/// Parses `--input-shape` values "NAME=D0xD1x..." (the last '=' ends the name; extents are decimal, 0 to 2^31 - 1;
/// each name once). The error is one line naming the value.
tx8::ref::Status parseInputShapes(const std::vector<std::string> &args, std::vector<InputShape> &shapes);

/// Parses MLIR model text (the dialects of registerModelDialects loaded into `context`), `name` naming it in
/// errors. A text that spells a sparse elements attribute is refused before parsing: MLIR 19's
/// SparseElementsAttr verifier reads out of bounds on malformed ones, and tx8be has no use for them.
mlir::OwningOpRef<mlir::ModuleOp> parseModelText(llvm::StringRef text, mlir::MLIRContext &context,
                                                 llvm::StringRef name, bool verifyAfterParse = true);

/// The entry function (@main, else the only function); null with an error if there is none.
mlir::func::FuncOp getEntryFunction(mlir::ModuleOp module);

/// An entry-function input or output: its name (tx8be.name, else "input_<i>" / "output_<i>") and type.
struct TensorSpec {
  std::string name;
  mlir::RankedTensorType type;
};
std::vector<TensorSpec> getInputSpecs(mlir::func::FuncOp func);
std::vector<TensorSpec> getOutputSpecs(mlir::func::FuncOp func);

/// Checks `t` against `spec` (dtype and shape); the message names the input and both types.
tx8::ref::Status checkTensorMatches(const tx8::ref::Tensor &t, const TensorSpec &spec, const std::string &source);

/// Inputs for `specs`, in order, from "NAME=FILE" pairs (every input named once) or from a directory
/// (ONNX test layout input_<k>.pb, in order, else <name>.npy / <name>.pb per input).
tx8::ref::Status readInputs(const std::vector<TensorSpec> &specs, const std::vector<std::string> &nameEqualsFile,
                            const std::string &inputsDir, std::vector<tx8::ref::Tensor> &inputs);

/// Writes each output as DIR/<name>.npy (characters other than [A-Za-z0-9._-] in the name become '_').
tx8::ref::Status writeOutputs(const std::vector<TensorSpec> &specs, const std::vector<tx8::ref::Tensor> &outputs,
                              const std::string &outDir, std::vector<std::string> *paths = nullptr);

/// The test_data_set_* directories of an ONNX backend test directory, sorted.
std::vector<std::string> listTestDataSets(const std::string &testDir);

/// Reads DIR/<prefix>_0.pb, <prefix>_1.pb, ... until the first missing index (and, given `names`, each
/// TensorProto's name).
tx8::ref::Status readNumberedTensors(const std::string &dir, const std::string &prefix,
                                     std::vector<tx8::ref::Tensor> &tensors, std::vector<std::string> *names = nullptr);

} // namespace tx8be

#endif // TX8_DRIVER_MODEL_H
