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
//    ReduceSum-13, Split's num_outputs -> equal parts or explicit sizes, Pad's and Resize's axes -> full-rank
//    operands, Cast's saturate dropped, AveragePool-19 with dilations -> MaxPool-12, Mish/Gelu -> Identity), or
//    refused (an operator the importer has no lowering for: one problem naming the node);
//  - after shape inference the nodes, opsets and ir_version are put back; the inferred types stay.
// Rewrites that need an input's shape (an axes operand, num_outputs that does not divide the extent) are made
// between inference passes, once ONNX has inferred it.
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
  /// After an inference pass (the model holds its value_info): the rewrites that needed input types and have
  /// them now. True when one was made (another inference pass is due).
  bool refine();
  /// Restores the model's own nodes, opsets and ir_version (the types inference wrote stay). Idempotent.
  void leave();

private:
  struct Pending {
    int node;
    enum Kind { SplitSizes, PadAxes, ResizeAxes } kind;
  };
  void rewriteNodes(int64_t opset, const NodeLabeler &label, Findings &findings);
  bool refineNode(const Pending &p);
  std::string freshName(const std::string &base);

  onnx::ModelProto &model;
  bool entered = false;
  int64_t savedIrVersion = 0;
  std::vector<std::pair<int, int64_t>> savedOpsets;                 // model opset_import index -> version
  std::vector<std::pair<std::pair<int, int>, int64_t>> savedFunctionOpsets; // (function, index) -> version
  std::vector<std::pair<int, onnx::NodeProto>> savedNodes;          // node index -> the model's own node
  int addedInitializers = 0;
  std::vector<Pending> pending;
};

} // namespace tx8be::onnx_import

#endif // TX8_LIB_IMPORT_ONNX_NEWEROPSETS_H
