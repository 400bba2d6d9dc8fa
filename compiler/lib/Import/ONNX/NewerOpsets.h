//===- NewerOpsets.h - Models newer than the linked ONNX 1.12 knows ---*- C++ -*-===//
//
// The linked libonnx (Debian's 1.12) checks IR versions up to 8 and knows default-domain opsets up to 17. The
// importer takes IR versions up to 10 and opsets up to 21: the converters own the semantics of the newer
// opsets (they read NodeImporter::getOpset()), and the ONNX checker and shape inference run on a *legacy view*
// of the model:
//  - ir_version clamped to 8 and the default-domain opset to 17;
//  - each node whose operator changed in opsets 18-21 (a table of every change) either kept (the change only
//    adds element types, which the importer refuses itself, or attribute values the converter checks),
//    rewritten in place to an opset-17 form with the same output types (Reduce* with axes as an input ->
//    ReduceSum-13, Cast's saturate dropped, AveragePool-19 with dilations -> MaxPool-12, Mish/Gelu -> Identity;
//    for the checker only: Split without num_outputs, Pad without its axes input, Resize without axes), or
//    refused (an operator the importer has no lowering for: one problem naming the node);
//  - Split, Pad and Resize get their own nodes back for shape inference, whose functions for them are wrapped to
//    infer the new forms (num_outputs, an axes operand: ShapeInference.cpp);
//  - after shape inference the nodes, opsets and ir_version are put back; the inferred types stay.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_LIB_IMPORT_ONNX_NEWEROPSETS_H
#define TX8_LIB_IMPORT_ONNX_NEWEROPSETS_H

#include "GraphPreparation.h"

#include <onnx/onnx_pb.h>

#include <string>
#include <utility>
#include <vector>

namespace tx8be::onnx_import {

/// The newest IR version and default-domain opset the importer takes, and the newest the linked checker knows.
constexpr int64_t kNewestIrVersion = 10;
constexpr int64_t kNewestOpset = 21;
constexpr int64_t kCheckerIrVersion = 8;

class LegacyView {
public:
  explicit LegacyView(onnx::ModelProto &model);
  ~LegacyView() { leave(); }
  LegacyView(const LegacyView &) = delete;
  LegacyView &operator=(const LegacyView &) = delete;

  /// Whether the model is newer than the linked ONNX knows (ir_version > 8 or a default-domain opset > 17).
  bool needed() const;
  /// Rewrites the model in place into its legacy view; a problem for each node the importer cannot lower.
  void enter(const NodeLabeler &label, Findings &findings);
  /// After the checker: the nodes whose new form ONNX's (wrapped) inference functions take (Split, Pad, Resize)
  /// are the model's own again.
  void forInference();
  /// Restores the model's own nodes, opsets and ir_version (the types inference wrote stay). Idempotent.
  void leave();

private:
  void rewriteNodes(int64_t opset, const NodeLabeler &label, Findings &findings);

  struct SavedNode {
    int index;           ///< in the graph
    onnx::NodeProto node; ///< the model's own (while the graph holds the legacy one)
    bool inferOriginal;  ///< forInference puts it back
    bool swapped;        ///< it is back in the graph
  };

  onnx::ModelProto &model;
  bool entered = false;
  int64_t savedIrVersion = 0;
  std::vector<std::pair<int, int64_t>> savedOpsets;                         // opset_import index -> version
  std::vector<std::pair<std::pair<int, int>, int64_t>> savedFunctionOpsets; // (function, index) -> version
  std::vector<SavedNode> savedNodes;
};

} // namespace tx8be::onnx_import

#endif // TX8_LIB_IMPORT_ONNX_NEWEROPSETS_H
