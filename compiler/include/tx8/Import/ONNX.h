//===- ONNX.h - Import ONNX models as tx8be -----------------------*- C++ -*-===//
//
// An ONNX ModelProto becomes a module with one `func.func @main`: graph inputs (without initializers) are
// its arguments, graph outputs its results, both named by a `tx8be.name` argument/result attribute.
// Initializers and Constant nodes become tx8be.Constant ops where a tensor operand needs them; operands that
// must be compile-time values (Reshape's shape, Slice's starts, Pad's pads, ...) are read from them directly.
// Every op gets the location fused<"onnx.<op_type>">["<node name>"] (unnamed nodes: their first output's
// name), so diagnostics and later passes can name the source node.
//
// The model is run through the ONNX checker and ONNX shape inference first; tx8be's own shape rules then
// recompute every result type and must agree with ONNX's. A model with unsupported nodes gets one error
// listing each of them (name, op_type, domain, opset, why). Models of IR versions up to 10 and default-domain
// opsets 6-21 are taken (lib/Import/ONNX/NewerOpsets.h: how opsets the linked ONNX 1.12 does not know are
// checked); graph inputs get static shapes from InputShape (or a batch of 1); unsorted nodes are sorted.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_IMPORT_ONNX_H
#define TX8_IMPORT_ONNX_H

#include "tx8/Reference/Tensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tx8be {

/// `--input-shape NAME=D0xD1x...`: the extents of graph input NAME.
struct InputShape {
  std::string name;
  std::vector<int64_t> dims;
};

/// A graph input compiled as a constant: it becomes an initializer (no longer an argument of @main). The ONNX
/// node tests feed as graph inputs what a model holds constant (Dropout's ratio and training_mode):
/// `tx8-aot test-onnx --constant-input NAME` compiles the test data's value in.
struct ConstantInput {
  std::string name;
  tx8::ref::Tensor value;
};

struct ONNXImportOptions {
  /// Run onnx::checker::check_model before importing.
  bool runChecker = true;
  /// Run libonnx's shape inference in a forked child, so that a crash of the library on a malformed model is
  /// an import error (see lib/Import/ONNX/ShapeInference.h). The fuzzer runs it in-process: 50 times faster
  /// under ASan, and a crash there is a finding (a guard the importer lacks).
  bool isolateShapeInference = true;
  /// Fixes the symbolic or unknown extents of graph inputs (each given extent must equal a static one the model
  /// declares). Without one, a symbolic or unknown dim 0 of an input of rank >= 2 (a batch) is compiled as 1 with
  /// one warning; any other symbolic extent is an error that names the input, the dim and the option.
  std::vector<InputShape> inputShapes;
  /// Graph inputs compiled as these constants (each must name a graph input of that element type and shape).
  std::vector<ConstantInput> constantInputs;
  /// Debug mode (`tx8-aot compile --debug-outputs`, `tx8-aot diff`): after the graph's own outputs, @main also
  /// returns the value of every node output the model computes, node by node in topological order, each named by
  /// its tensor name (`tx8be.name`) and marked with its node (`tx8be.debug_node`, `tx8be.debug_op_type`); the
  /// function's `tx8be.debug_tensors` lists every node output, computed or not (debugTensorsAttrName).
  bool debugOutputs = false;
};

/// Imports the model at `path`: a binary ModelProto, or protobuf text format if the name ends in ".onnxtxt"
/// or ".textproto" (handy for hand-written test models). On failure the errors have been emitted through
/// the context's diagnostic engine and the result is null.
mlir::OwningOpRef<mlir::ModuleOp> importONNXFile(llvm::StringRef path, mlir::MLIRContext &context,
                                                 const ONNXImportOptions &options = {});

/// Same, from bytes in memory; `sourceName` names the model in locations and messages.
mlir::OwningOpRef<mlir::ModuleOp> importONNXBytes(llvm::StringRef bytes, bool textFormat, llvm::StringRef sourceName,
                                                  mlir::MLIRContext &context, const ONNXImportOptions &options = {});

/// The name attribute put on the entry function's arguments and results ("tx8be.name").
llvm::StringRef getIONameAttrName();

/// Debug mode (ONNXImportOptions::debugOutputs). The entry function's attribute "tx8be.debug_tensors": one
/// dictionary per ONNX node output (named, in node order, then output order) with "node" (the node's name, or
/// its first output's when it has none), "op_type", "tensor" (the output's name), "kind" ("computed": @main
/// returns it as result "result"; "constant": evaluated at import; "unused": nothing reads it and the importer
/// did not compute it) and "result" (the result index, -1 unless computed). Its debug results carry the result
/// attributes "tx8be.debug_node" and "tx8be.debug_op_type".
llvm::StringRef getDebugTensorsAttrName();
llvm::StringRef getDebugNodeAttrName();
llvm::StringRef getDebugOpTypeAttrName();

} // namespace tx8be

#endif // TX8_IMPORT_ONNX_H
