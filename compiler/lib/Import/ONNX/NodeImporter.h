//===- NodeImporter.h - What an ONNX node converter sees ----------*- C++ -*-===//
//
// The graph importer (ONNXImporter.cpp) walks the nodes in order and hands each to the converter registered
// for its op_type (Converters.cpp) through a NodeImporter: typed access to the node's inputs, attributes
// and compile-time constant inputs, op creation with tx8be's shape rules, and the way to say "unsupported,
// because ...". A converter either binds every used output with setOutput() or returns unsupported().
//
//===----------------------------------------------------------------------===//
#ifndef TX8_LIB_IMPORT_ONNX_NODEIMPORTER_H
#define TX8_LIB_IMPORT_ONNX_NODEIMPORTER_H

#include "tx8/Dialect/Tx8be/IR/Tx8be.h"
#include "tx8/Reference/Tensor.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

#include <onnx/onnx_pb.h>

#include <optional>
#include <string>

namespace tx8be::onnx_import {

/// A value of the ONNX graph: an SSA value, a compile-time tensor (initializer, Constant node), or both.
struct GraphValue {
  mlir::Value value;                       ///< null until a constant is needed as an operand
  std::optional<tx8::ref::Tensor> constant; ///< set for initializers and Constant outputs
};

class GraphImporter;

class NodeImporter {
public:
  NodeImporter(GraphImporter &graph, const onnx::NodeProto &node, mlir::Location loc, int64_t opset)
      : graph(graph), node(node), loc(loc), opset(opset) {}

  const onnx::NodeProto &getNode() const { return node; }
  mlir::Location getLoc() const { return loc; }
  /// The opset version of the node's domain in the model.
  int64_t getOpset() const { return opset; }
  mlir::OpBuilder &builder();

  // ---- inputs ----
  /// Input i is given (present and not the empty name ONNX uses for a skipped optional input).
  bool hasInput(int i) const;
  int numInputs() const { return node.input_size(); }
  /// Input i as an SSA value (a constant is materialised as tx8be.Constant); fails if absent.
  mlir::FailureOr<mlir::Value> input(int i);
  /// Input i as a ranked tensor type; fails if absent.
  mlir::FailureOr<mlir::RankedTensorType> inputType(int i);
  /// Input i's compile-time tensor, or nullptr when it is absent or computed at run time.
  const tx8::ref::Tensor *constantInput(int i) const;
  /// Input i as compile-time integers; fails ("... must be a constant") when it is not one.
  mlir::FailureOr<llvm::SmallVector<int64_t>> constantInts(int i, llvm::StringRef what);
  /// Input i as one compile-time float (a scalar or one-element tensor).
  mlir::FailureOr<float> constantFloat(int i, llvm::StringRef what);

  // ---- attributes ----
  const onnx::AttributeProto *attr(llvm::StringRef name) const;
  bool hasAttr(llvm::StringRef name) const { return attr(name) != nullptr; }
  int64_t attrInt(llvm::StringRef name, int64_t dflt) const;
  float attrFloat(llvm::StringRef name, float dflt) const;
  std::string attrString(llvm::StringRef name, llvm::StringRef dflt) const;
  llvm::SmallVector<int64_t> attrInts(llvm::StringRef name) const;
  /// The element type an attribute naming an ONNX TensorProto.DataType gives (Cast's `to`, EyeLike's `dtype`):
  /// such an output's type follows from the node itself, whether or not ONNX shape inference recorded it. Fails
  /// naming the attribute when it is absent or names a type tx8be does not have.
  mlir::FailureOr<mlir::Type> attrElementType(llvm::StringRef name);
  /// Fails with a message if the node has an attribute not in `known` (so nothing is ignored silently).
  mlir::LogicalResult onlyAttrs(llvm::ArrayRef<llvm::StringRef> known);

  // ---- outputs ----
  int numOutputs() const { return node.output_size(); }
  /// Output i is consumed by a later node or is a graph output.
  bool outputUsed(int i) const;
  /// ONNX shape inference's type for output i, when it is a static ranked tensor type.
  std::optional<mlir::RankedTensorType> onnxOutputType(int i) const;
  void setOutput(int i, mlir::Value v);
  void setConstantOutput(int i, tx8::ref::Tensor t);

  // ---- building ----
  /// Creates OpT with the given operands and attributes; its result types come from tx8be's shape rules
  /// (computeResultTypes), or are `resultTypes` when the op takes its shape from the result (Reshape).
  /// An op whose rules reject the operands is erased and the rule's message becomes the failure reason.
  template <typename OpT>
  mlir::FailureOr<mlir::Value> create(mlir::ValueRange operands, llvm::ArrayRef<mlir::NamedAttribute> attrs = {},
                                      mlir::TypeRange resultTypes = {}) {
    mlir::OpBuilder &b = builder();
    llvm::SmallVector<mlir::Type> types(resultTypes.begin(), resultTypes.end());
    if (types.empty())
      types.push_back(placeholderType(operands));
    auto op = b.create<OpT>(loc, types, operands, attrs);
    if (mlir::failed(finishOp(op.getOperation(), /*computeTypes=*/resultTypes.empty())))
      return mlir::failure();
    return op->getResult(0);
  }
  /// A tx8be.Constant holding `t` (a dtype tx8be has), at the node's location.
  mlir::FailureOr<mlir::Value> constant(const tx8::ref::Tensor &t);
  /// A tx8be.Constant of `shape` whose every element is `element`'s one element: a splat DenseElementsAttr, which
  /// stores the one value whatever the size (nothing of `shape`'s size is allocated here).
  mlir::FailureOr<mlir::Value> splat(const tx8::ref::Tensor &element, llvm::ArrayRef<int64_t> shape);
  /// A Reshape of v to `shape` (no op when the shape is already v's).
  mlir::FailureOr<mlir::Value> reshape(mlir::Value v, llvm::ArrayRef<int64_t> shape);
  /// v broadcast (numpy rules) to `shape`: a Reshape adding leading 1s, then a tx8be.Expand (each no op when
  /// not needed); fails when v does not broadcast to `shape`.
  mlir::FailureOr<mlir::Value> broadcastTo(mlir::Value v, llvm::ArrayRef<int64_t> shape);

  /// Records why the node cannot be imported; always returns failure().
  mlir::LogicalResult unsupported(const llvm::Twine &reason);
  const std::string &getReason() const { return reason; }

  // ---- attribute helpers for converters ----
  mlir::NamedAttribute i64Array(llvm::StringRef name, llvm::ArrayRef<int64_t> values);
  mlir::NamedAttribute i64(llvm::StringRef name, int64_t value);
  mlir::NamedAttribute f32(llvm::StringRef name, float value);
  mlir::NamedAttribute boolean(llvm::StringRef name, bool value);

private:
  mlir::Type placeholderType(mlir::ValueRange operands);
  mlir::LogicalResult finishOp(mlir::Operation *op, bool computeTypes);

  GraphImporter &graph;
  const onnx::NodeProto &node;
  mlir::Location loc;
  int64_t opset;
  std::string reason;
};

/// A converter imports one ONNX node (see NodeImporter).
using NodeConverter = mlir::LogicalResult (*)(NodeImporter &);

/// op_type (default ONNX domain) -> converter.
const llvm::StringMap<NodeConverter> &getNodeConverters();

/// Normalises a possibly negative axis for `rank`; nullopt when out of range.
std::optional<int64_t> checkedAxis(int64_t axis, int64_t rank);

} // namespace tx8be::onnx_import

#endif // TX8_LIB_IMPORT_ONNX_NODEIMPORTER_H
