//===- GraphPreparation.cpp - What the importer fixes in a model before checking it ----------===//
//
// See GraphPreparation.h: new element types refused, nodes sorted, constant inputs bound, graph input extents
// fixed.
//
//===----------------------------------------------------------------------===//
#include "GraphPreparation.h"

#include "tx8/Reference/TensorIO.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <queue>
#include <set>

using namespace tx8be;
using namespace tx8be::onnx_import;

const char *tx8be::onnx_import::elementTypeName(int onnxType) {
  static const char *const names[] = {
      "UNDEFINED", "FLOAT",     "UINT8",      "INT8",         "UINT16",         "INT16",      "INT32",
      "INT64",     "STRING",    "BOOL",       "FLOAT16",      "DOUBLE",         "UINT32",     "UINT64",
      "COMPLEX64", "COMPLEX128", "BFLOAT16",  "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ",
      "UINT4",     "INT4",      "FLOAT4E2M1"};
  if (onnxType >= 0 && onnxType < static_cast<int>(std::size(names)))
    return names[onnxType];
  return "unknown";
}

namespace {

//===----------------------------------------------------------------------===//
// Element types of IR 9 and 10
//===----------------------------------------------------------------------===//

/// The IR version that added element type `t` when it is newer than IR 8's (BFLOAT16 = 16 is the last of those);
/// 0 for the older ones.
int newInIrVersion(int64_t t) {
  if (t >= 17 && t <= 20) // the float8 types
    return 9;
  if (t == 21 || t == 22) // UINT4, INT4
    return 10;
  if (t > 22)
    return 11;
  return 0;
}

std::string describeNewType(int64_t t) {
  return llvm::formatv("{0} (new in IR version {1}), which tx8 does not support",
                       elementTypeName(static_cast<int>(t)), newInIrVersion(t))
      .str();
}

void refuseInGraph(const onnx::GraphProto &graph, const NodeLabeler &label, Findings &f, bool nested);

void refuseInNode(const onnx::NodeProto &node, const std::string &where, const NodeLabeler &label, Findings &f) {
  for (const auto &a : node.attribute()) {
    auto checkTensor = [&](const onnx::TensorProto &t) {
      if (newInIrVersion(t.data_type()))
        f.problems.push_back(where + ": attribute '" + a.name() + "' holds a tensor of element type " +
                             describeNewType(t.data_type()));
    };
    if (a.has_t())
      checkTensor(a.t());
    for (const auto &t : a.tensors())
      checkTensor(t);
    // Cast/CastLike's `to`, EyeLike's and the Random* ops' `dtype`, QuantizeLinear's `output_dtype`.
    bool typeAttr = a.name() == "to" || a.name() == "dtype" || a.name() == "output_dtype";
    if (typeAttr && a.type() == onnx::AttributeProto::INT && newInIrVersion(a.i()))
      f.problems.push_back(where + ": attribute '" + a.name() + "' is element type " + describeNewType(a.i()));
    if (a.has_g())
      refuseInGraph(a.g(), label, f, /*nested=*/true);
    for (const auto &g : a.graphs())
      refuseInGraph(g, label, f, /*nested=*/true);
  }
}

void refuseInGraph(const onnx::GraphProto &graph, const NodeLabeler &label, Findings &f, bool nested) {
  std::string prefix = nested ? "subgraph '" + graph.name() + "': " : "";
  auto checkValues = [&](const auto &list, const char *kind) {
    for (const auto &vi : list)
      if (vi.type().has_tensor_type() && newInIrVersion(vi.type().tensor_type().elem_type()))
        f.problems.push_back(prefix + kind + " '" + vi.name() + "' has element type " +
                             describeNewType(vi.type().tensor_type().elem_type()));
  };
  checkValues(graph.input(), "graph input");
  checkValues(graph.output(), "graph output");
  checkValues(graph.value_info(), "value");
  for (const auto &init : graph.initializer())
    if (newInIrVersion(init.data_type()))
      f.problems.push_back(prefix + "initializer '" + init.name() + "' has element type " +
                           describeNewType(init.data_type()));
  for (auto [index, node] : llvm::enumerate(graph.node()))
    refuseInNode(node, nested ? prefix + "node '" + node.name() + "' (" + node.op_type() + ")"
                              : label(node, static_cast<int>(index)),
                 label, f);
}

//===----------------------------------------------------------------------===//
// Topological order
//===----------------------------------------------------------------------===//

/// Every name a node of `graph` (or of a graph nested in it) reads.
void collectReads(const onnx::GraphProto &graph, std::set<std::string> &names) {
  for (const auto &node : graph.node()) {
    names.insert(node.input().begin(), node.input().end());
    for (const auto &a : node.attribute()) {
      if (a.has_g())
        collectReads(a.g(), names);
      for (const auto &g : a.graphs())
        collectReads(g, names);
    }
  }
  for (const auto &out : graph.output())
    names.insert(out.name());
}

std::string shortName(const onnx::NodeProto &node, int index) {
  std::string name = node.name().empty() ? llvm::formatv("#{0}", index).str() : "'" + node.name() + "'";
  return "node " + name + " (" + node.op_type() + ")";
}

} // namespace

void tx8be::onnx_import::refuseNewElementTypes(const onnx::GraphProto &graph, const NodeLabeler &label,
                                               Findings &findings) {
  refuseInGraph(graph, label, findings, /*nested=*/false);
}

void tx8be::onnx_import::sortNodes(onnx::GraphProto &graph, const NodeLabeler &label, Findings &findings) {
  const int count = graph.node_size();
  std::set<std::string> available;
  for (const auto &in : graph.input())
    available.insert(in.name());
  for (const auto &init : graph.initializer())
    available.insert(init.name());
  for (const auto &sparse : graph.sparse_initializer())
    available.insert(sparse.values().name());
  std::map<std::string, int> producer; // the first node writing each name (a second one is the checker's to refuse)
  for (int i = 0; i < count; ++i)
    for (const auto &out : graph.node(i).output())
      if (!out.empty())
        producer.emplace(out, i);

  // deps[i]: the nodes i reads from, each with the first value it reads from it.
  std::vector<std::map<int, std::string>> deps(count);
  std::vector<std::vector<int>> readers(count);
  std::set<std::string> reported;
  bool sorted = true;
  std::string firstLate; // the first node reading a value produced after it
  for (int i = 0; i < count; ++i) {
    const onnx::NodeProto &node = graph.node(i);
    std::set<std::string> reads(node.input().begin(), node.input().end());
    for (const auto &a : node.attribute()) { // values the node's subgraphs take from this graph
      std::set<std::string> inner;
      if (a.has_g())
        collectReads(a.g(), inner);
      for (const auto &g : a.graphs())
        collectReads(g, inner);
      for (const auto &name : inner)
        if (producer.count(name))
          reads.insert(name);
    }
    for (const auto &in : node.input()) {
      if (in.empty() || available.count(in) || producer.count(in) || !reported.insert(in).second)
        continue;
      findings.problems.push_back(label(node, i) + ": reads '" + in +
                                  "', which no node, initializer or graph input produces");
    }
    for (const auto &name : reads) {
      auto it = producer.find(name);
      if (name.empty() || available.count(name) || it == producer.end())
        continue;
      if (deps[i].emplace(it->second, name).second)
        readers[it->second].push_back(i);
      if (sorted && it->second >= i)
        firstLate = shortName(node, i) + " reads '" + name + "', which " +
                    shortName(graph.node(it->second), it->second) + " after it produces";
      sorted = sorted && it->second < i;
    }
  }
  if (!findings.problems.empty() || sorted)
    return;

  // Kahn's algorithm, the earliest ready node first.
  std::vector<int> pending(count), order;
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  for (int i = 0; i < count; ++i) {
    pending[i] = static_cast<int>(deps[i].size());
    if (pending[i] == 0)
      ready.push(i);
  }
  while (!ready.empty()) {
    int i = ready.top();
    ready.pop();
    order.push_back(i);
    for (int r : readers[i])
      if (--pending[r] == 0)
        ready.push(r);
  }
  if (static_cast<int>(order.size()) != count) {
    // Walk from the first node left back through producers that are left too until one repeats: a cycle.
    std::vector<int> path, seen(count, -1);
    int at = 0;
    while (pending[at] == 0)
      ++at;
    while (seen[at] < 0) {
      seen[at] = static_cast<int>(path.size());
      path.push_back(at);
      for (const auto &[from, name] : deps[at])
        if (pending[from] > 0) {
          at = from;
          break;
        }
    }
    std::vector<int> cycle(path.begin() + seen[at], path.end());
    std::string text = "the graph has a cycle: " + shortName(graph.node(cycle[0]), cycle[0]);
    for (size_t k = 0; k < cycle.size(); ++k) {
      int reader = cycle[k], from = cycle[(k + 1) % cycle.size()];
      text += std::string(k ? ", which" : "") + " reads '" + deps[reader].at(from) + "' from " +
              shortName(graph.node(from), from);
    }
    findings.problems.push_back(text);
    return;
  }
  google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
  for (int i : order)
    nodes.Add()->Swap(graph.mutable_node(i));
  graph.mutable_node()->Swap(&nodes);
  findings.warnings.push_back("the nodes are not in topological order (" + firstLate + "); imported sorted");
}

//===----------------------------------------------------------------------===//
// Graph input extents
//===----------------------------------------------------------------------===//

namespace {

std::string dimsText(const std::vector<int64_t> &dims) {
  std::string s;
  for (int64_t d : dims)
    s += (s.empty() ? "" : "x") + std::to_string(d);
  return s;
}

/// The declared shape as text: "[batch_size, 3, 224, 224]" ("?" for an unknown extent).
std::string shapeText(const onnx::TensorShapeProto &shape) {
  std::string s = "[";
  for (int k = 0; k < shape.dim_size(); ++k) {
    const auto &d = shape.dim(k);
    s += (k ? ", " : "") +
         (d.has_dim_value() && d.dim_value() >= 0 ? std::to_string(d.dim_value())
                                                  : d.has_dim_param() ? d.dim_param() : std::string("?"));
  }
  return s + "]";
}

bool isStatic(const onnx::TensorShapeProto::Dimension &d) { return d.has_dim_value() && d.dim_value() >= 0; }

} // namespace

void tx8be::onnx_import::bindConstantInputs(onnx::GraphProto &graph, const std::vector<ConstantInput> &given,
                                            Findings &findings) {
  std::set<std::string> initializers;
  for (const auto &init : graph.initializer())
    initializers.insert(init.name());
  for (const ConstantInput &c : given) {
    std::string what = "constant input '" + c.name + "'";
    const onnx::ValueInfoProto *in = nullptr;
    std::string known;
    for (const auto &i : graph.input()) {
      if (initializers.count(i.name()))
        continue;
      known += (known.empty() ? "'" : ", '") + i.name() + "'";
      if (i.name() == c.name)
        in = &i;
    }
    if (!in) {
      findings.problems.push_back(what + ": the model has no graph input '" + c.name + "' (its inputs: " + known + ")");
      continue;
    }
    std::vector<uint8_t> bytes;
    tx8::ref::Status s = tx8::ref::encodeTensorProto(c.value, c.name, bytes);
    onnx::TensorProto value;
    if (!s.ok() || !value.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
      findings.problems.push_back(what + ": " + (s.ok() ? std::string("the value cannot be encoded") : s.message()));
      continue;
    }
    // The value must be one the input could take: its element type, its rank, its static extents.
    const onnx::TypeProto::Tensor &type = in->type().tensor_type();
    bool fits = in->type().has_tensor_type() && type.elem_type() == value.data_type() &&
                (!type.has_shape() || type.shape().dim_size() == value.dims_size());
    for (int k = 0; fits && type.has_shape() && k < value.dims_size(); ++k)
      fits = !isStatic(type.shape().dim(k)) || type.shape().dim(k).dim_value() == value.dims(k);
    if (!fits) {
      findings.problems.push_back(what + ": graph input '" + c.name + "' is " + elementTypeName(type.elem_type()) + " " +
                                  (type.has_shape() ? shapeText(type.shape()) : std::string("(no shape)")) +
                                  ", the value " + elementTypeName(value.data_type()) + " " +
                                  tx8::ref::shapeToString(c.value.shape));
      continue;
    }
    *graph.add_initializer() = std::move(value); // (the input stays listed: an initializer of that name shadows it)
    initializers.insert(c.name);
  }
}

void tx8be::onnx_import::fixInputShapes(onnx::GraphProto &graph, const std::vector<InputShape> &given,
                                        Findings &findings) {
  std::set<std::string> initializers;
  for (const auto &init : graph.initializer())
    initializers.insert(init.name());
  std::vector<onnx::ValueInfoProto *> inputs;
  for (auto &in : *graph.mutable_input())
    if (!initializers.count(in.name()))
      inputs.push_back(&in);
  auto tensorShape = [](onnx::ValueInfoProto *in) -> onnx::TensorShapeProto * {
    if (!in->type().has_tensor_type())
      return nullptr;
    return in->mutable_type()->mutable_tensor_type()->mutable_shape();
  };

  // --input-shape: the named inputs' extents; their symbols bind the same symbols elsewhere.
  std::map<std::string, int64_t> symbols;
  std::set<std::string> fixed;
  for (const InputShape &g : given) {
    std::string option = "--input-shape " + g.name + "=" + dimsText(g.dims);
    auto it = llvm::find_if(inputs, [&](onnx::ValueInfoProto *in) { return in->name() == g.name; });
    if (it == inputs.end()) {
      std::string known;
      for (auto *in : inputs)
        known += (known.empty() ? "'" : ", '") + in->name() + "'";
      findings.problems.push_back(option + ": the model has no graph input '" + g.name + "' (its inputs: " + known +
                                  ")");
      continue;
    }
    if (!(*it)->type().has_tensor_type()) {
      findings.problems.push_back(option + ": graph input '" + g.name + "' is not a tensor");
      continue;
    }
    bool hadShape = (*it)->type().tensor_type().has_shape();
    onnx::TensorShapeProto *shape = tensorShape(*it);
    if (!hadShape) {
      for (int64_t d : g.dims)
        shape->add_dim()->set_dim_value(d);
      fixed.insert(g.name);
      continue;
    }
    if (shape->dim_size() != static_cast<int>(g.dims.size())) {
      findings.problems.push_back(llvm::formatv("{0}: graph input '{1}' is {2}, of rank {3}, not {4}", option,
                                                g.name, shapeText(*shape), shape->dim_size(), g.dims.size())
                                      .str());
      continue;
    }
    bool agrees = true;
    for (int k = 0; k < shape->dim_size() && agrees; ++k)
      if (isStatic(shape->dim(k)) && shape->dim(k).dim_value() != g.dims[k]) {
        findings.problems.push_back(llvm::formatv("{0}: graph input '{1}' is {2}: its dim {3} is {4}, not {5}",
                                                  option, g.name, shapeText(*shape), k, shape->dim(k).dim_value(),
                                                  g.dims[k])
                                        .str());
        agrees = false;
      }
    if (!agrees)
      continue;
    for (int k = 0; k < shape->dim_size(); ++k) {
      if (shape->dim(k).has_dim_param() && !shape->dim(k).dim_param().empty())
        symbols.emplace(shape->dim(k).dim_param(), g.dims[k]);
      shape->mutable_dim(k)->set_dim_value(g.dims[k]);
    }
    fixed.insert(g.name);
  }
  if (!findings.problems.empty())
    return;

  // The others: bound symbols, then a batch of one, else an error.
  struct Defaulted {
    onnx::ValueInfoProto *input;
    std::string symbol;
  };
  std::vector<Defaulted> defaulted;
  std::set<std::string> defaultedSymbols;
  for (int pass = 0; pass < 2; ++pass) { // (a symbol a later input's default binds fixes earlier inputs too)
    for (onnx::ValueInfoProto *in : inputs) {
      if (fixed.count(in->name()) || !in->type().has_tensor_type() || !in->type().tensor_type().has_shape())
        continue;
      onnx::TensorShapeProto *shape = tensorShape(in);
      for (int k = 0; k < shape->dim_size(); ++k) {
        auto *dim = shape->mutable_dim(k);
        if (isStatic(*dim))
          continue;
        std::string symbol = dim->has_dim_param() ? dim->dim_param() : std::string();
        if (auto it = symbols.find(symbol); !symbol.empty() && it != symbols.end()) {
          dim->set_dim_value(it->second);
          if (k == 0 && defaultedSymbols.count(symbol)) // the same batch: named in the warning too
            defaulted.push_back({in, symbol});
        } else if (pass == 0 && k == 0 && shape->dim_size() >= 2) {
          defaulted.push_back({in, symbol});
          if (!symbol.empty()) {
            symbols.emplace(symbol, 1);
            defaultedSymbols.insert(symbol);
          }
          dim->set_dim_value(1);
        }
      }
    }
  }
  for (onnx::ValueInfoProto *in : inputs) {
    if (!in->type().has_tensor_type())
      continue; // the importer refuses it as it is
    if (!in->type().tensor_type().has_shape()) {
      findings.problems.push_back("graph input '" + in->name() +
                                  "' has no shape, and tx8 compiles static shapes: give it with --input-shape " +
                                  in->name() + "=D0xD1x...");
      continue;
    }
    const onnx::TensorShapeProto &shape = in->type().tensor_type().shape();
    auto open = llvm::find_if(shape.dim(), [](const auto &d) { return !isStatic(d); });
    if (open == shape.dim().end())
      continue;
    int k = static_cast<int>(open - shape.dim().begin());
    std::string what = open->has_dim_param() && !open->dim_param().empty()
                           ? llvm::formatv("a symbolic extent '{0}' (dim {1})", open->dim_param(), k).str()
                           : llvm::formatv("an unknown extent (dim {0})", k).str();
    std::string example;
    for (const auto &d : shape.dim())
      example += (example.empty() ? "" : "x") +
                 (isStatic(d) ? std::to_string(d.dim_value())
                              : "<" + (d.has_dim_param() && !d.dim_param().empty() ? d.dim_param() : "?") + ">");
    findings.problems.push_back("graph input '" + in->name() + "' has " + what +
                                ", and tx8 compiles static shapes: give its shape with --input-shape " + in->name() +
                                "=" + example);
  }
  if (defaulted.empty() || !findings.problems.empty())
    return;
  auto describe = [](const Defaulted &d) {
    return "'" + d.input->name() + "' (dim 0" + (d.symbol.empty() ? std::string(", unknown") : ", '" + d.symbol + "'") +
           ")";
  };
  if (defaulted.size() == 1) {
    // The option that sets it, the other extents filled in: --input-shape input=Nx3x224x224
    std::string example = "N";
    const onnx::TensorShapeProto &shape = defaulted[0].input->type().tensor_type().shape();
    for (int k = 1; k < shape.dim_size(); ++k)
      example += "x" + std::to_string(shape.dim(k).dim_value());
    findings.warnings.push_back("graph input " + describe(defaulted[0]) +
                                " has a symbolic batch extent: compiled for a batch of 1 (--input-shape " +
                                defaulted[0].input->name() + "=" + example + " sets it)");
    return;
  }
  std::string list;
  for (size_t i = 0; i < defaulted.size(); ++i)
    list += (i == 0 ? "" : i + 1 == defaulted.size() ? " and " : ", ") + describe(defaulted[i]);
  findings.warnings.push_back("graph inputs " + list +
                              " have symbolic batch extents: compiled for a batch of 1 (--input-shape NAME=DIMS "
                              "sets them)");
}
