//===- GraphPreparation.h - What the importer fixes in a model before checking it -*- C++ -*-===//
//
// Real exported models are not always what the ONNX checker and tx8's static shapes want: a symbolic batch,
// nodes out of topological order, element types newer than the linked ONNX 1.12 knows. Before the checker runs,
// the importer
//  - refuses the element types of IR versions 9 and 10 (float8, int4) with one clear line each,
//  - sorts the nodes topologically (a value nothing produces, or a cycle, is an error naming it),
//  - makes the graph inputs ONNXImportOptions::constantInputs names initializers with the given values,
//  - gives every graph input static extents: from `--input-shape NAME=DIMS` (InputShape), else a symbolic or
//    unknown dim 0 of an input of rank >= 2 becomes 1 (a batch of one; one warning); any other symbolic extent is
//    an error naming the input, the dim and the option.
// Each step adds one-line problems (the import fails, listing them) or warnings to a Findings.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_LIB_IMPORT_ONNX_GRAPHPREPARATION_H
#define TX8_LIB_IMPORT_ONNX_GRAPHPREPARATION_H

#include "tx8/Import/ONNX.h"

#include <onnx/onnx_pb.h>

#include <functional>
#include <string>
#include <vector>

namespace tx8be::onnx_import {

struct Findings {
  std::vector<std::string> problems; ///< one line each; any makes the import fail
  std::vector<std::string> warnings; ///< one line each
};

/// How a node is named in messages: "node 'name' (Op, domain d, opset n)" (the importer's nodeLabel).
using NodeLabeler = std::function<std::string(const onnx::NodeProto &node, int index)>;

/// The name of an ONNX TensorProto.DataType, including the IR 9/10 ones ("FLOAT8E4M3FN", "INT4", ...).
const char *elementTypeName(int onnxType);

/// A problem for every initializer, graph input/output/value_info, tensor attribute or Cast/EyeLike/... `to`/`dtype`
/// attribute of `graph` (and of its subgraphs) whose element type is one IR versions 9 and 10 added.
void refuseNewElementTypes(const onnx::GraphProto &graph, const NodeLabeler &label, Findings &findings);

/// Orders the nodes so that each comes after the producers of what it reads (stable: among the nodes ready, the
/// one earliest in the file first; values a subgraph reads from the outer graph count). A reordering is one
/// warning; a value read by a node that no node, initializer or graph input produces, or a cycle, is a problem.
void sortNodes(onnx::GraphProto &graph, const NodeLabeler &label, Findings &findings);

/// Makes each of `given` (a graph input, not an initializer) an initializer holding its value, after checking that
/// the input could take it (element type, rank, static extents); each mismatch or unknown name is a problem.
void bindConstantInputs(onnx::GraphProto &graph, const std::vector<ConstantInput> &given, Findings &findings);

/// Gives the graph inputs (not initializers) static extents as the header comment says. A symbol fixed on one input
/// (by `given` or the batch default) fixes the same symbol on the others.
void fixInputShapes(onnx::GraphProto &graph, const std::vector<InputShape> &given, Findings &findings);

} // namespace tx8be::onnx_import

#endif // TX8_LIB_IMPORT_ONNX_GRAPHPREPARATION_H
