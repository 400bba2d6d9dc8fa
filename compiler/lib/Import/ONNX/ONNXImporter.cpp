//===- ONNXImporter.cpp - ONNX ModelProto to tx8be ------------------------===//
//
// Loading, checking and shape-inferring the model, the graph walk, constants, and the one diagnostic for a
// model that cannot be imported. The per-op work is in Converters.cpp.
//
//===----------------------------------------------------------------------===//
#include "tx8/Interpreter/ReferenceRunner.h"
#include "tx8/Import/ONNX.h"

#include "ConstantFolding.h"
#include "GraphPreparation.h"
#include "NewerOpsets.h"
#include "NodeImporter.h"
#include "ShapeInference.h"

#include "tx8/Reference/BoundedFile.h"
#include "tx8/Reference/TensorIO.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Support/DebugStringHelper.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>
#include <onnx/checker.h>
#include <onnx/defs/schema.h>

#include <limits>
#include <map>

using namespace mlir;
using namespace tx8be;
using namespace tx8be::onnx_import;
using tx8::ref::DType;
using tx8::ref::Tensor;

StringRef tx8be::getIONameAttrName() { return "tx8be.name"; }
StringRef tx8be::getDebugTensorsAttrName() { return "tx8be.debug_tensors"; }
StringRef tx8be::getDebugNodeAttrName() { return "tx8be.debug_node"; }
StringRef tx8be::getDebugOpTypeAttrName() { return "tx8be.debug_op_type"; }

namespace {

/// ONNX TensorProto.DataType -> MLIR element type (null: not one tx8be has).
Type elementTypeOf(int onnxType, MLIRContext *ctx) {
  for (DType t : tx8::ref::kAllDTypes)
    if (tx8::ref::onnxDataType(t) == onnxType)
      return tx8be::detail::mlirTypeOf(t, ctx);
  return nullptr;
}

/// A static ranked tensor type from an ONNX TypeProto, or an explanation of why there is none.
FailureOr<RankedTensorType> tensorTypeOf(const onnx::TypeProto &type, MLIRContext *ctx, std::string &why) {
  if (!type.has_tensor_type()) {
    why = "is not a tensor";
    return failure();
  }
  const auto &tt = type.tensor_type();
  Type elt = elementTypeOf(tt.elem_type(), ctx);
  if (!elt) {
    why = std::string("has element type ") + tx8::ref::onnxDataTypeName(tt.elem_type()) + ", which tx8be does not have";
    return failure();
  }
  if (!tt.has_shape()) {
    why = "has no known shape";
    return failure();
  }
  SmallVector<int64_t> shape;
  for (auto [i, dim] : llvm::enumerate(tt.shape().dim())) {
    if (dim.has_dim_value() && dim.dim_value() >= 0) {
      shape.push_back(dim.dim_value());
      continue;
    }
    why = dim.has_dim_param() ? llvm::formatv("has a symbolic extent '{0}' (dim {1}); tx8 compiles static shapes",
                                              dim.dim_param(), i)
                                    .str()
                              : llvm::formatv("has an unknown extent (dim {0}); tx8 compiles static shapes", i).str();
    return failure();
  }
  return RankedTensorType::get(shape, elt);
}


/// ONNX's exception texts span lines; diagnostics are one line.
std::string oneLine(const std::string &text) {
  std::string out;
  for (char c : text) {
    bool space = c == '\n' || c == '\r' || c == '\t' || c == ' ';
    if (!space)
      out += c;
    else if (!out.empty() && out.back() != ' ')
      out += ' ';
  }
  while (!out.empty() && out.back() == ' ')
    out.pop_back();
  return out;
}

/// Collects protobuf text-format parse errors with their line and column.
class TextErrors : public google::protobuf::io::ErrorCollector {
public:
  void AddError(int line, google::protobuf::io::ColumnNumber column, const std::string &message) override {
    if (text.empty())
      text = llvm::formatv("line {0}, column {1}: {2}", line + 1, column + 1, message).str();
  }
  std::string text;
};

} // namespace

namespace tx8be::onnx_import {

class GraphImporter {
public:
  GraphImporter(MLIRContext &ctx, onnx::ModelProto &model, StringRef sourceName)
      : ctx(ctx), model(model), sourceName(sourceName.str()), b(&ctx) {}

  OwningOpRef<ModuleOp> run(const ONNXImportOptions &options);

  // ---- used by NodeImporter ----
  OpBuilder &builder() { return b; }
  MLIRContext &context() { return ctx; }
  GraphValue *lookup(const std::string &name) {
    auto it = values.find(name);
    return it == values.end() ? nullptr : &it->second;
  }
  /// The SSA value of `v`, creating a tx8be.Constant (located at the ONNX name) for a constant.
  FailureOr<Value> materialize(const std::string &name, GraphValue &v, std::string &why);
  void bind(const std::string &name, GraphValue v) { values[name] = std::move(v); }
  bool isUsedLater(const std::string &name) const { return usedNames.count(name) != 0; }
  std::optional<RankedTensorType> onnxType(const std::string &name);

private:
  Location fileLoc() { return FileLineColLoc::get(&ctx, sourceName, 0, 0); }
  LogicalResult fail(const Twine &message) {
    emitError(fileLoc()) << sourceName << ": " << message;
    return failure();
  }
  LogicalResult checkAndInferShapes(const ONNXImportOptions &options);
  /// The one error listing `list` (and how many nodes were not looked at).
  LogicalResult reportProblems(ArrayRef<std::string> list, int skipped = 0);
  LogicalResult checkOpset();
  void importInitializers();
  func::FuncOp createEntryFunction();
  void importNodes();
  LogicalResult finishEntryFunction(func::FuncOp func, bool debugOutputs);
  /// A computed node output, returned in debug mode.
  struct DebugResult {
    Value value;
    std::string node, opType, tensor;
  };
  /// Debug mode: every computed node output in node order (@main returns them from result `firstResult` on), and
  /// on `func` the list of all node outputs (ONNX.h, getDebugTensorsAttrName).
  std::vector<DebugResult> collectDebugOutputs(func::FuncOp func, size_t firstResult);
  std::string nodeLabel(const onnx::NodeProto &node, int index) const;
  /// The name that locations and debug outputs give a node: its own, else its first output's.
  static std::string nodeName(const onnx::NodeProto &node, const std::string &label);
  int64_t opsetOf(const std::string &domain) const;

  MLIRContext &ctx;
  onnx::ModelProto &model;
  std::string sourceName;
  OpBuilder b;
  std::map<std::string, GraphValue> values;            // ONNX value name -> its value
  std::map<std::string, const onnx::TypeProto *> types; // ONNX value name -> declared/inferred type
  std::set<std::string> usedNames;                      // names some node or the graph output reads
  std::vector<std::string> problems;                    // one line per input/node that cannot be imported
  int skippedNodes = 0;                                 // nodes that depend on a failed one
};

} // namespace tx8be::onnx_import

int64_t GraphImporter::opsetOf(const std::string &domain) const {
  std::string d = domain == "ai.onnx" ? "" : domain;
  for (const auto &o : model.opset_import())
    if ((o.domain() == "ai.onnx" ? "" : o.domain()) == d)
      return o.version();
  return -1;
}

std::string GraphImporter::nodeLabel(const onnx::NodeProto &node, int index) const {
  std::string label = node.name().empty() ? llvm::formatv("node #{0}", index).str()
                                          : llvm::formatv("node '{0}'", node.name()).str();
  std::string domain = node.domain().empty() ? "ai.onnx" : node.domain();
  int64_t opset = opsetOf(node.domain());
  label += llvm::formatv(" ({0}, domain {1}, opset {2}", node.op_type(), domain,
                         opset < 0 ? std::string("not imported") : std::to_string(opset));
  if (node.name().empty() && node.output_size() > 0)
    label += llvm::formatv(", output '{0}'", node.output(0)).str();
  return label + ")";
}

/// The oldest default-domain opset the converters follow; older models import only where every node's
/// operator is the same there as at this opset (ops unchanged since, e.g. Softplus-1, GlobalAveragePool-1).
constexpr int64_t kOldestOpset = 6;

LogicalResult GraphImporter::checkOpset() {
  if (model.ir_version() > kNewestIrVersion)
    return fail(llvm::formatv("IR version {0} is newer than this importer supports (up to {1})", model.ir_version(),
                              kNewestIrVersion));
  int64_t opset = opsetOf("");
  if (opset < 0)
    return success(); // no default-domain operators; each node is checked by its domain
  if (opset > kNewestOpset)
    return fail(llvm::formatv("opset {0} of ai.onnx is newer than this importer supports ({1}-{2})", opset,
                              kOldestOpset, kNewestOpset));
  if (opset >= kOldestOpset)
    return success(); // (opsets newer than the linked ONNX's: NewerOpsets.h)
  for (auto [index, node] : llvm::enumerate(model.graph().node())) {
    if (!node.domain().empty() && node.domain() != "ai.onnx")
      continue;
    const onnx::OpSchema *there = onnx::OpSchemaRegistry::Schema(node.op_type(), static_cast<int>(opset), "");
    const onnx::OpSchema *oldest = onnx::OpSchemaRegistry::Schema(node.op_type(), kOldestOpset, "");
    if (there && oldest && there->since_version() == oldest->since_version())
      continue;
    std::string version = there ? node.op_type() + "-" + std::to_string(there->since_version()) : "unknown";
    return fail(llvm::formatv("{0}: opset {1} of ai.onnx makes it {2}; this importer supports opsets {3}-{4}, "
                              "older ones only for operators unchanged since opset {3}",
                              nodeLabel(node, static_cast<int>(index)), opset, version, kOldestOpset, kNewestOpset));
  }
  return success();
}

LogicalResult GraphImporter::checkAndInferShapes(const ONNXImportOptions &options) {
  if (!model.has_graph())
    return fail("not an ONNX model (no graph)");
  if (model.graph().output_size() == 0)
    return fail("the graph has no outputs: nothing to compute");
  if (model.graph().node_size() == 0)
    return fail("the graph has no nodes: nothing to compute");
  if (failed(checkOpset()))
    return failure();
  // What the importer fixes or refuses before the checker sees the model (GraphPreparation.h).
  NodeLabeler label = [this](const onnx::NodeProto &node, int index) { return nodeLabel(node, index); };
  Findings findings;
  refuseNewElementTypes(model.graph(), label, findings);
  if (findings.problems.empty())
    sortNodes(*model.mutable_graph(), label, findings);
  if (findings.problems.empty())
    bindConstantInputs(*model.mutable_graph(), options.constantInputs, findings);
  if (findings.problems.empty())
    fixInputShapes(*model.mutable_graph(), options.inputShapes, findings);
  // A model newer than the linked ONNX knows is checked and inferred in its legacy view (NewerOpsets.h).
  LegacyView legacy(model);
  if (findings.problems.empty() && legacy.needed())
    legacy.enter(label, findings);
  if (!findings.problems.empty())
    return reportProblems(findings.problems);
  for (const std::string &w : findings.warnings)
    emitWarning(fileLoc()) << sourceName << ": " << w;

  // The checker and shape inference report problems by throwing; nothing may escape the importer.
  if (options.runChecker) {
    // A graph output without a (complete) type takes the one inference gives it; the checker wants one declared.
    std::vector<std::pair<int, onnx::ValueInfoProto>> untyped;
    for (int i = 0; i < model.graph().output_size(); ++i) {
      onnx::ValueInfoProto &out = *model.mutable_graph()->mutable_output(i);
      const auto &tt = out.type().tensor_type();
      if (out.has_type() && (!out.type().has_tensor_type() || (tt.elem_type() != 0 && tt.has_shape())))
        continue;
      untyped.push_back({i, out});
      auto *placeholder = out.mutable_type()->mutable_tensor_type();
      if (placeholder->elem_type() == 0)
        placeholder->set_elem_type(onnx::TensorProto::FLOAT);
      placeholder->mutable_shape();
    }
    std::string rejected;
    try {
      onnx::checker::check_model(model);
    } catch (const std::exception &e) {
      rejected = oneLine(e.what());
    }
    for (auto &[i, out] : untyped)
      model.mutable_graph()->mutable_output(i)->Swap(&out);
    if (!rejected.empty())
      return fail("the ONNX checker rejects the model: " + rejected);
  }
  legacy.forInference();
  std::string why;
  if (!(options.isolateShapeInference ? inferShapesIsolated(model, why) : inferShapes(model, why)))
    return fail(oneLine(why));
  legacy.leave();
  const auto &g = model.graph();
  for (const auto &list : {&g.input(), &g.value_info(), &g.output()})
    for (const auto &vi : *list)
      if (vi.has_type())
        types[vi.name()] = &vi.type();
  for (const auto &node : g.node())
    for (const auto &in : node.input())
      usedNames.insert(in);
  for (const auto &out : g.output())
    usedNames.insert(out.name());
  return success();
}

LogicalResult GraphImporter::reportProblems(ArrayRef<std::string> list, int skipped) {
  std::string message;
  llvm::raw_string_ostream os(message);
  // One problem: one line. Several: a header and one line each, each naming the file.
  if (list.size() == 1 && !skipped) {
    os << sourceName << ": cannot import the model: " << list.front();
  } else {
    os << sourceName << ": cannot import the model; " << list.size() << (list.size() == 1 ? " problem" : " problems")
       << ":";
    for (const auto &p : list)
      os << "\n  " << sourceName << ": " << p;
  }
  if (skipped)
    os << "\n  (" << skipped << " node(s) reading their results were not checked)";
  emitError(fileLoc()) << message;
  return failure();
}

std::optional<RankedTensorType> GraphImporter::onnxType(const std::string &name) {
  auto it = types.find(name);
  if (it == types.end())
    return std::nullopt;
  std::string why;
  auto type = tensorTypeOf(*it->second, &ctx, why);
  if (failed(type))
    return std::nullopt;
  return *type;
}

void GraphImporter::importInitializers() {
  for (const auto &init : model.graph().initializer()) {
    std::string bytes = init.SerializeAsString();
    Tensor t;
    tx8::ref::Status s = tx8::ref::parseTensorProto(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size(),
                                                    "initializer '" + init.name() + "'", t);
    if (!s.ok()) {
      problems.push_back(s.message());
      continue;
    }
    values[init.name()] = GraphValue{Value(), std::move(t)};
  }
  for (const auto &sparse : model.graph().sparse_initializer())
    problems.push_back("sparse initializer '" + sparse.values().name() + "': sparse tensors are not supported");
}

func::FuncOp GraphImporter::createEntryFunction() {
  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames;
  for (const auto &in : model.graph().input()) {
    if (values.count(in.name())) // IR < 4 lists initializers as inputs too
      continue;
    std::string why;
    auto type = tensorTypeOf(in.type(), &ctx, why);
    if (failed(type)) {
      problems.push_back("graph input '" + in.name() + "' " + why);
      continue;
    }
    argTypes.push_back(*type);
    argNames.push_back(in.name());
  }
  auto func = b.create<func::FuncOp>(fileLoc(), "main", b.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  for (auto [i, name] : llvm::enumerate(argNames)) {
    func.setArgAttr(i, getIONameAttrName(), b.getStringAttr(name));
    values[name] = GraphValue{entry->getArgument(i), std::nullopt};
  }
  b.setInsertionPointToStart(entry);
  return func;
}

FailureOr<Value> GraphImporter::materialize(const std::string &name, GraphValue &v, std::string &why) {
  if (v.value)
    return v.value;
  if (!v.constant) {
    why = "has no value";
    return failure();
  }
  Type elt = tx8be::detail::mlirTypeOf(v.constant->dtype, &ctx);
  if (!elt) {
    why = std::string("is a ") + tx8::ref::dtypeName(v.constant->dtype) + " constant, which tx8be does not have";
    return failure();
  }
  auto type = RankedTensorType::get(v.constant->shape, elt);
  Location constantLoc = NameLoc::get(b.getStringAttr(name));
  v.value = b.create<tx8be::ConstantOp>(constantLoc, type, tx8be::elementsAttrFromTensor(*v.constant, type)).getResult();
  return v.value;
}

void GraphImporter::importNodes() {
  const auto &converters = getNodeConverters();
  for (auto [index, node] : llvm::enumerate(model.graph().node())) {
    std::string label = nodeLabel(node, index);
    // A node that reads a value a failed node should have produced is not looked at: its problem, if any,
    // is reported once the earlier one is fixed.
    bool inputsAvailable = llvm::all_of(node.input(), [&](const std::string &n) { return n.empty() || lookup(n); });
    if (!inputsAvailable) {
      ++skippedNodes;
      continue;
    }
    std::string name = nodeName(node, label);
    Location loc = FusedLoc::get(&ctx, {NameLoc::get(b.getStringAttr(name))},
                                 b.getStringAttr("onnx." + node.op_type()));
    bool defaultDomain = node.domain().empty() || node.domain() == "ai.onnx";
    auto it = converters.find(node.op_type());
    std::string reason;
    NodeImporter importer(*this, node, loc, opsetOf(node.domain()));
    FailureOr<bool> folded = defaultDomain ? foldConstantNode(importer) : FailureOr<bool>(false);
    if (!defaultDomain)
      reason = "operators of domain '" + node.domain() + "' are not supported";
    else if (succeeded(folded) && !*folded && it == converters.end())
      reason = "no tx8be lowering for " + node.op_type();
    else {
      if (failed(folded) || (!*folded && failed(it->second(importer))))
        reason = importer.getReason().empty() ? "cannot be imported" : importer.getReason();
      // Every output a later node or the graph reads must now be bound, with the type ONNX inferred.
      for (int i = 0; reason.empty() && i < node.output_size(); ++i) {
        const std::string &out = node.output(i);
        if (out.empty() || !isUsedLater(out))
          continue;
        GraphValue *v = lookup(out);
        if (!v) {
          reason = "output #" + std::to_string(i) + " is used but not produced by the importer";
          break;
        }
        auto expected = onnxType(out);
        Type actual = v->value ? v->value.getType() : Type();
        if (expected && actual && actual != *expected)
          reason = "tx8be computes " + debugString(actual) + " for output '" + out + "', ONNX infers " +
                   debugString(*expected);
      }
    }
    if (reason.empty())
      continue;
    problems.push_back(label + ": " + reason);
    // Stand-ins with ONNX's types let the walk go on and report the later nodes too.
    for (const auto &out : node.output()) {
      if (auto type = onnxType(out)) {
        auto cast = b.create<UnrealizedConversionCastOp>(loc, TypeRange{*type}, ValueRange{});
        values[out] = GraphValue{cast.getResult(0), std::nullopt};
      } else {
        values.erase(out);
      }
    }
  }
}

std::string GraphImporter::nodeName(const onnx::NodeProto &node, const std::string &label) {
  return node.name().empty() ? (node.output_size() ? node.output(0) : label) : node.name();
}

std::vector<GraphImporter::DebugResult> GraphImporter::collectDebugOutputs(func::FuncOp func, size_t firstResult) {
  std::vector<DebugResult> computed;
  SmallVector<Attribute> rows;
  for (auto [index, node] : llvm::enumerate(model.graph().node())) {
    std::string name = nodeName(node, nodeLabel(node, static_cast<int>(index)));
    for (const std::string &out : node.output()) {
      if (out.empty())
        continue;
      GraphValue *v = lookup(out);
      StringRef kind = "computed";
      int64_t result = -1;
      if (!v || (!v->value && !v->constant))
        kind = "unused";
      else if (v->constant || v->value.getDefiningOp<tx8be::ConstantOp>())
        kind = "constant";
      else {
        result = static_cast<int64_t>(firstResult + computed.size());
        computed.push_back({v->value, name, node.op_type(), out});
      }
      rows.push_back(b.getDictionaryAttr({b.getNamedAttr("node", b.getStringAttr(name)),
                                          b.getNamedAttr("op_type", b.getStringAttr(node.op_type())),
                                          b.getNamedAttr("tensor", b.getStringAttr(out)),
                                          b.getNamedAttr("kind", b.getStringAttr(kind)),
                                          b.getNamedAttr("result", b.getI64IntegerAttr(result))}));
    }
  }
  func->setAttr(getDebugTensorsAttrName(), b.getArrayAttr(rows));
  return computed;
}

LogicalResult GraphImporter::finishEntryFunction(func::FuncOp func, bool debugOutputs) {
  SmallVector<Value> results;
  for (const auto &out : model.graph().output()) {
    GraphValue *v = lookup(out.name());
    if (!v) {
      if (problems.empty()) // else it is missing because of an earlier problem
        problems.push_back("graph output '" + out.name() + "' is not produced by any node");
      continue;
    }
    std::string why;
    auto value = materialize(out.name(), *v, why);
    if (failed(value)) {
      problems.push_back("graph output '" + out.name() + "' " + why);
      continue;
    }
    results.push_back(*value);
  }
  if (!problems.empty())
    return failure();
  size_t graphOutputs = results.size();
  std::vector<DebugResult> debug;
  if (debugOutputs)
    debug = collectDebugOutputs(func, graphOutputs);
  for (const DebugResult &d : debug)
    results.push_back(d.value);
  b.create<func::ReturnOp>(fileLoc(), results);
  func.setFunctionType(b.getFunctionType(func.getArgumentTypes(), ValueRange(results).getTypes()));
  for (auto [i, out] : llvm::enumerate(model.graph().output()))
    func.setResultAttr(i, getIONameAttrName(), b.getStringAttr(out.name()));
  for (auto [k, d] : llvm::enumerate(debug)) {
    auto i = static_cast<unsigned>(graphOutputs + k);
    func.setResultAttr(i, getIONameAttrName(), b.getStringAttr(d.tensor));
    func.setResultAttr(i, getDebugNodeAttrName(), b.getStringAttr(d.node));
    func.setResultAttr(i, getDebugOpTypeAttrName(), b.getStringAttr(d.opType));
  }
  return success();
}

OwningOpRef<ModuleOp> GraphImporter::run(const ONNXImportOptions &options) {
  if (failed(checkAndInferShapes(options)))
    return nullptr;
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc());
  b.setInsertionPointToEnd(module->getBody());
  importInitializers();
  func::FuncOp func = createEntryFunction();
  if (problems.empty())
    importNodes();
  if (failed(finishEntryFunction(func, options.debugOutputs)) || !problems.empty()) {
    (void)reportProblems(problems, skippedNodes);
    return nullptr;
  }
  if (!model.graph().name().empty())
    (*module)->setAttr("tx8be.graph_name", b.getStringAttr(model.graph().name()));
  if (failed(verify(*module)))
    return nullptr;
  return module;
}

//===----------------------------------------------------------------------===//
// NodeImporter
//===----------------------------------------------------------------------===//

OpBuilder &NodeImporter::builder() { return graph.builder(); }

bool NodeImporter::hasInput(int i) const { return i < node.input_size() && !node.input(i).empty(); }

FailureOr<Value> NodeImporter::input(int i) {
  if (!hasInput(i))
    return unsupported("input #" + Twine(i) + " is required");
  GraphValue *v = graph.lookup(node.input(i));
  if (!v)
    return unsupported("input '" + node.input(i) + "' is not defined");
  std::string why;
  auto value = graph.materialize(node.input(i), *v, why);
  if (failed(value))
    return unsupported("input '" + node.input(i) + "' " + why);
  return *value;
}

FailureOr<RankedTensorType> NodeImporter::inputType(int i) {
  if (hasInput(i)) {
    GraphValue *v = graph.lookup(node.input(i));
    if (v && !v->value && v->constant) {
      Type elt = tx8be::detail::mlirTypeOf(v->constant->dtype, &graph.context());
      if (elt)
        return RankedTensorType::get(v->constant->shape, elt);
    }
  }
  auto value = input(i);
  if (failed(value))
    return failure();
  return cast<RankedTensorType>(value->getType());
}

const Tensor *NodeImporter::constantInput(int i) const {
  if (!hasInput(i))
    return nullptr;
  GraphValue *v = graph.lookup(node.input(i));
  return v && v->constant ? &*v->constant : nullptr;
}

FailureOr<SmallVector<int64_t>> NodeImporter::constantInts(int i, StringRef what) {
  const Tensor *t = constantInput(i);
  if (!t)
    return unsupported(what + " (input #" + Twine(i) + ") must be a constant");
  if (t->dtype != DType::I64 && t->dtype != DType::I32)
    return unsupported(what + " must be int64 or int32, not " + tx8::ref::dtypeName(t->dtype));
  SmallVector<int64_t> values;
  for (int64_t k = 0; k < t->numElements(); ++k)
    values.push_back(t->dtype == DType::I64 ? t->data<int64_t>()[k] : t->data<int32_t>()[k]);
  return values;
}

FailureOr<float> NodeImporter::constantFloat(int i, StringRef what) {
  const Tensor *t = constantInput(i);
  if (!t)
    return unsupported(what + " (input #" + Twine(i) + ") must be a constant");
  if (t->numElements() != 1)
    return unsupported(what + " must have one element");
  switch (t->dtype) {
  case DType::F32: return t->data<float>()[0];
  case DType::F64: return static_cast<float>(t->data<double>()[0]);
  default: return unsupported(what + " must be a float constant");
  }
}

const onnx::AttributeProto *NodeImporter::attr(StringRef name) const {
  for (const auto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

int64_t NodeImporter::attrInt(StringRef name, int64_t dflt) const {
  const auto *a = attr(name);
  return a ? a->i() : dflt;
}

float NodeImporter::attrFloat(StringRef name, float dflt) const {
  const auto *a = attr(name);
  return a ? a->f() : dflt;
}

std::string NodeImporter::attrString(StringRef name, StringRef dflt) const {
  const auto *a = attr(name);
  return a ? a->s() : dflt.str();
}

SmallVector<int64_t> NodeImporter::attrInts(StringRef name) const {
  SmallVector<int64_t> values;
  if (const auto *a = attr(name))
    values.append(a->ints().begin(), a->ints().end());
  return values;
}

FailureOr<Type> NodeImporter::attrElementType(StringRef name) {
  const auto *a = attr(name);
  if (!a)
    return unsupported("attribute '" + name + "' is required");
  // (a code past int's range is no ONNX type: it must not wrap around onto one)
  int code = a->i() >= 0 && a->i() <= std::numeric_limits<int>::max() ? static_cast<int>(a->i()) : -1;
  Type elt = elementTypeOf(code, &graph.context());
  if (!elt)
    return unsupported("attribute '" + name + "' is element type " + tx8::ref::onnxDataTypeName(code) +
                       ", which tx8be does not have");
  return elt;
}

LogicalResult NodeImporter::onlyAttrs(ArrayRef<StringRef> known) {
  for (const auto &a : node.attribute())
    if (!llvm::is_contained(known, a.name()))
      return unsupported("attribute '" + a.name() + "' is not supported");
  return success();
}

bool NodeImporter::outputUsed(int i) const {
  return i < node.output_size() && !node.output(i).empty() && graph.isUsedLater(node.output(i));
}

std::optional<RankedTensorType> NodeImporter::onnxOutputType(int i) const {
  if (i >= node.output_size() || node.output(i).empty())
    return std::nullopt;
  return graph.onnxType(node.output(i));
}

void NodeImporter::setOutput(int i, Value v) { graph.bind(node.output(i), GraphValue{v, std::nullopt}); }

void NodeImporter::setConstantOutput(int i, Tensor t) { graph.bind(node.output(i), GraphValue{Value(), std::move(t)}); }

FailureOr<Value> NodeImporter::constant(const Tensor &t) {
  Type elt = tx8be::detail::mlirTypeOf(t.dtype, builder().getContext());
  if (!elt)
    return unsupported(std::string("a ") + tx8::ref::dtypeName(t.dtype) + " constant, which tx8be does not have");
  auto type = RankedTensorType::get(t.shape, elt);
  return builder().create<tx8be::ConstantOp>(loc, type, tx8be::elementsAttrFromTensor(t, type)).getResult();
}

FailureOr<Value> NodeImporter::splat(const Tensor &element, ArrayRef<int64_t> shape) {
  Type elt = tx8be::detail::mlirTypeOf(element.dtype, builder().getContext());
  if (!elt)
    return unsupported(std::string("a ") + tx8::ref::dtypeName(element.dtype) + " constant, which tx8be does not have");
  if (element.numElements() != 1)
    return unsupported("a splat constant needs one value, not " + Twine(element.numElements()));
  if (llvm::is_contained(shape, 0)) // no elements: no value to splat
    return constant(Tensor(element.dtype, std::vector<int64_t>(shape.begin(), shape.end())));
  auto type = RankedTensorType::get(shape, elt);
  // One element's bytes for a type of any size: MLIR stores a splat.
  Tensor one = element;
  one.shape.clear();
  return builder().create<tx8be::ConstantOp>(loc, type, tx8be::elementsAttrFromTensor(one, type)).getResult();
}

FailureOr<Value> NodeImporter::reshape(Value v, ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getShape() == shape)
    return v;
  return create<tx8be::ReshapeOp>(v, {}, RankedTensorType::get(shape, type.getElementType()));
}

FailureOr<Value> NodeImporter::broadcastTo(Value v, ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getShape() == shape)
    return v;
  auto str = [](ArrayRef<int64_t> s) { return tx8::ref::shapeToString(std::vector<int64_t>(s.begin(), s.end())); };
  int64_t rank = static_cast<int64_t>(shape.size()), lead = rank - type.getRank();
  if (lead < 0)
    return unsupported("cannot broadcast " + str(type.getShape()) + " to the lower rank " + str(shape));
  SmallVector<int64_t> aligned(lead, 1);
  llvm::append_range(aligned, type.getShape());
  for (int64_t d = 0; d < rank; ++d)
    if (aligned[d] != 1 && aligned[d] != shape[d])
      return unsupported("cannot broadcast " + str(type.getShape()) + " to " + str(shape));
  auto reshaped = reshape(v, aligned);
  if (failed(reshaped) || aligned == SmallVector<int64_t>(shape))
    return reshaped;
  return create<tx8be::ExpandOp>(*reshaped, {}, RankedTensorType::get(shape, type.getElementType()));
}

LogicalResult NodeImporter::unsupported(const Twine &why) {
  if (reason.empty())
    reason = why.str();
  return failure();
}

Type NodeImporter::placeholderType(ValueRange operands) {
  // Replaced by computeResultTypes before anyone looks at it.
  return operands.empty() ? Type(RankedTensorType::get({}, builder().getF32Type())) : operands[0].getType();
}

LogicalResult NodeImporter::finishOp(Operation *op, bool computeTypes) {
  std::string messages;
  ScopedDiagnosticHandler capture(&graph.context(), [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error)
      messages += (messages.empty() ? "" : "; ") + d.str();
    return success();
  });
  bool ok = true;
  if (computeTypes) {
    SmallVector<Type> types;
    auto shapeOp = cast<ShapeInferenceOpInterface>(op);
    ok = succeeded(shapeOp.computeResultTypes(types));
    for (auto [result, type] : llvm::zip(op->getResults(), types))
      result.setType(type);
  }
  ok = ok && succeeded(verify(op));
  if (ok)
    return success();
  op->erase();
  return unsupported(messages.empty() ? "tx8be rejects the op" : messages);
}

NamedAttribute NodeImporter::i64Array(StringRef name, ArrayRef<int64_t> values) {
  return builder().getNamedAttr(name, builder().getDenseI64ArrayAttr(values));
}
NamedAttribute NodeImporter::i64(StringRef name, int64_t value) {
  return builder().getNamedAttr(name, builder().getI64IntegerAttr(value));
}
NamedAttribute NodeImporter::f32(StringRef name, float value) {
  return builder().getNamedAttr(name, builder().getF32FloatAttr(value));
}
NamedAttribute NodeImporter::boolean(StringRef name, bool value) {
  return builder().getNamedAttr(name, builder().getBoolAttr(value));
}

std::optional<int64_t> tx8be::onnx_import::checkedAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> tx8be::importONNXBytes(StringRef bytes, bool textFormat, StringRef sourceName,
                                             MLIRContext &context, const ONNXImportOptions &options) {
  context.loadDialect<tx8be::Tx8beDialect, func::FuncDialect>();
  Location loc = FileLineColLoc::get(&context, sourceName, 0, 0);
  onnx::ModelProto model;
  if (textFormat) {
    google::protobuf::TextFormat::Parser parser;
    TextErrors errors;
    parser.RecordErrorsTo(&errors);
    if (!parser.ParseFromString(bytes.str(), &model)) {
      emitError(loc) << sourceName << ": not an ONNX model in protobuf text format: " << errors.text;
      return nullptr;
    }
  } else if (bytes.empty() || !model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    emitError(loc) << sourceName << ": not an ONNX model (" << (bytes.empty() ? "empty file" : "protobuf parse failed")
                   << ")";
    return nullptr;
  }
  GraphImporter importer(context, model, sourceName);
  return importer.run(options);
}

OwningOpRef<ModuleOp> tx8be::importONNXFile(StringRef path, MLIRContext &context, const ONNXImportOptions &options) {
  std::string bytes;
  tx8::ref::Status s = tx8::ref::readBoundedFile(path.str(), tx8::ref::kMaxModelFileBytes, "the model", bytes);
  if (!s.ok()) {
    emitError(FileLineColLoc::get(&context, path, 0, 0)) << s.message();
    return nullptr;
  }
  bool text = path.ends_with(".onnxtxt") || path.ends_with(".textproto");
  return importONNXBytes(bytes, text, path, context, options);
}
