//===- NewerOpsets.cpp - Models newer than the linked ONNX 1.12 knows ------------===//
//
// See NewerOpsets.h. The table below lists every default-domain operator whose schema changed in opsets 18-21
// (ONNX's operator_sets.h, versions 18-21) and what the legacy view does with it.
//
//===----------------------------------------------------------------------===//
#include "NewerOpsets.h"

#include "tx8/Reference/Convert.h"
#include "tx8/Reference/TensorIO.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <set>

using namespace tx8be::onnx_import;
using tx8::ref::Tensor;

namespace {

/// What the legacy view does with a node of an operator that changed after opset 17.
enum class Form {
  Same,        ///< new element types only (refused by the importer itself) or new attribute values the converter
               ///< checks (ScatterND/ScatterElements-18 max/min, Pad-19 wrap): the opset-17 schema checks it
  Reduce,      ///< Reduce*-18 (and ReduceMax/Min-20): axes as input #1 -> ReduceSum-13, which takes them so
  Split,       ///< Split-18: num_outputs -> equal parts, or explicit sizes when they do not divide the extent
  Pad,         ///< Pad-18: an axes input #3 -> pads for every axis
  Resize,      ///< Resize-18/19: antialias, keep_aspect_ratio_policy, axes, half_pixel_symmetric
  Cast,        ///< Cast/CastLike-19: saturate (float8 only)
  AveragePool, ///< AveragePool-19: dilations -> MaxPool-12 (the same output shape)
  Unary,       ///< new elementwise operators the importer lowers (Mish-18, Gelu-20): Identity stands in
  NoLowering,  ///< changed or new operators the importer has no lowering for
};

struct Change {
  const char *op;
  int version;
  Form form;
};

constexpr Change kChanges[] = {
    // opset 18
    {"Pad", 18, Form::Pad},
    {"CenterCropPad", 18, Form::NoLowering},
    {"Resize", 18, Form::Resize},
    {"Mish", 18, Form::Unary},
    {"OptionalGetElement", 18, Form::NoLowering},
    {"OptionalHasElement", 18, Form::NoLowering},
    {"Split", 18, Form::Split},
    {"Col2Im", 18, Form::NoLowering},
    {"ScatterND", 18, Form::Same},
    {"ScatterElements", 18, Form::Same},
    {"ReduceSumSquare", 18, Form::Reduce},
    {"ReduceLogSum", 18, Form::Reduce},
    {"ReduceLogSumExp", 18, Form::Reduce},
    {"ReduceL1", 18, Form::Reduce},
    {"ReduceL2", 18, Form::Reduce},
    {"ReduceMax", 18, Form::Reduce},
    {"ReduceMin", 18, Form::Reduce},
    {"ReduceMean", 18, Form::Reduce},
    {"ReduceProd", 18, Form::Reduce},
    {"BitwiseAnd", 18, Form::NoLowering},
    {"BitwiseOr", 18, Form::NoLowering},
    {"BitwiseXor", 18, Form::NoLowering},
    {"BitwiseNot", 18, Form::NoLowering},
    {"GroupNormalization", 18, Form::NoLowering},
    {"LpPool", 18, Form::NoLowering},
    // opset 19
    {"Equal", 19, Form::Same},
    {"AveragePool", 19, Form::AveragePool},
    {"Cast", 19, Form::Cast},
    {"CastLike", 19, Form::Cast},
    {"Constant", 19, Form::Same},
    {"DeformConv", 19, Form::NoLowering},
    {"DequantizeLinear", 19, Form::NoLowering},
    {"Identity", 19, Form::Same},
    {"If", 19, Form::NoLowering},
    {"Loop", 19, Form::NoLowering},
    {"Pad", 19, Form::Pad},
    {"QuantizeLinear", 19, Form::NoLowering},
    {"Reshape", 19, Form::Same},
    {"Resize", 19, Form::Resize},
    {"Scan", 19, Form::NoLowering},
    {"Shape", 19, Form::Same},
    {"Size", 19, Form::Same},
    // opset 20
    {"AffineGrid", 20, Form::NoLowering},
    {"ConstantOfShape", 20, Form::Same},
    {"DFT", 20, Form::NoLowering},
    {"Gelu", 20, Form::Unary},
    {"GridSample", 20, Form::NoLowering},
    {"ImageDecoder", 20, Form::NoLowering},
    {"IsInf", 20, Form::Same},
    {"IsNaN", 20, Form::Same},
    {"ReduceMax", 20, Form::Reduce},
    {"ReduceMin", 20, Form::Reduce},
    {"RegexFullMatch", 20, Form::NoLowering},
    {"StringConcat", 20, Form::NoLowering},
    {"StringSplit", 20, Form::NoLowering},
    // opset 21 (int4/uint4 and float8 element types, blocked quantization, GroupNormalization's per-channel scale)
    {"Cast", 21, Form::Cast},
    {"CastLike", 21, Form::Cast},
    {"Constant", 21, Form::Same},
    {"ConstantOfShape", 21, Form::Same},
    {"DequantizeLinear", 21, Form::NoLowering},
    {"Flatten", 21, Form::Same},
    {"GroupNormalization", 21, Form::NoLowering},
    {"Identity", 21, Form::Same},
    {"If", 21, Form::NoLowering},
    {"Loop", 21, Form::NoLowering},
    {"Pad", 21, Form::Pad},
    {"QLinearMatMul", 21, Form::NoLowering},
    {"QuantizeLinear", 21, Form::NoLowering},
    {"Reshape", 21, Form::Same},
    {"Scan", 21, Form::NoLowering},
    {"Shape", 21, Form::Same},
    {"Size", 21, Form::Same},
    {"Squeeze", 21, Form::Same},
    {"Transpose", 21, Form::Same},
    {"Unsqueeze", 21, Form::Same},
};

constexpr int64_t kCheckerOpset = 17;

/// The newest change of `op` in opsets (17, opset]; null when its opset-17 schema still holds.
const Change *latestChange(llvm::StringRef op, int64_t opset) {
  const Change *latest = nullptr;
  for (const Change &c : kChanges)
    if (op == c.op && c.version <= opset && (!latest || c.version > latest->version))
      latest = &c;
  return latest;
}

bool isDefaultDomain(const std::string &domain) { return domain.empty() || domain == "ai.onnx"; }

void removeAttr(onnx::NodeProto &node, llvm::StringRef name) {
  auto *attrs = node.mutable_attribute();
  for (int i = attrs->size(); i-- > 0;)
    if (attrs->Get(i).name() == name)
      attrs->DeleteSubrange(i, 1);
}

const onnx::AttributeProto *findAttr(const onnx::NodeProto &node, llvm::StringRef name) {
  for (const auto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

bool hasInput(const onnx::NodeProto &node, int i) { return i < node.input_size() && !node.input(i).empty(); }

/// What refine() reads: the types ONNX inferred and the constant tensors.
struct Lookup {
  std::map<std::string, const onnx::TypeProto *> types;
  std::map<std::string, const onnx::TensorProto *> constants;

  explicit Lookup(const onnx::GraphProto &g) {
    for (const auto *list : {&g.input(), &g.value_info(), &g.output()})
      for (const auto &vi : *list)
        if (vi.has_type())
          types[vi.name()] = &vi.type();
    for (const auto &init : g.initializer())
      constants[init.name()] = &init;
    for (const auto &node : g.node())
      if (node.op_type() == "Constant" && isDefaultDomain(node.domain()) && node.output_size() == 1)
        if (const auto *value = findAttr(node, "value"); value && value->has_t())
          constants[node.output(0)] = &value->t();
  }

  /// The static shape of `name` (rank and every extent), if ONNX knows it; `rankOnly`: extents may be unknown (-1).
  std::optional<std::vector<int64_t>> shape(const std::string &name, bool rankOnly) const {
    auto it = types.find(name);
    if (it == types.end() || !it->second->has_tensor_type() || !it->second->tensor_type().has_shape())
      return std::nullopt;
    std::vector<int64_t> dims;
    for (const auto &d : it->second->tensor_type().shape().dim()) {
      if (!(d.has_dim_value() && d.dim_value() >= 0) && !rankOnly)
        return std::nullopt;
      dims.push_back(d.has_dim_value() ? d.dim_value() : -1);
    }
    return dims;
  }

  std::optional<Tensor> constant(const std::string &name) const {
    auto it = constants.find(name);
    if (it == constants.end())
      return std::nullopt;
    std::string bytes = it->second->SerializeAsString();
    Tensor t;
    if (!tx8::ref::parseTensorProto(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size(), name, t).ok())
      return std::nullopt;
    return t;
  }
};

std::vector<int64_t> intsOf(const Tensor &t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.numElements(); ++i)
    v.push_back(tx8::ref::elementAsInt64(t, i));
  return v;
}

} // namespace

LegacyView::LegacyView(onnx::ModelProto &model) : model(model) {}

bool LegacyView::needed() const {
  if (model.ir_version() > kCheckerIrVersion)
    return true;
  for (const auto &o : model.opset_import())
    if (isDefaultDomain(o.domain()) && o.version() > kCheckerOpset)
      return true;
  for (const auto &f : model.functions())
    for (const auto &o : f.opset_import())
      if (isDefaultDomain(o.domain()) && o.version() > kCheckerOpset)
        return true;
  return false;
}

void LegacyView::enter(const NodeLabeler &label, Findings &findings) {
  if (entered)
    return;
  entered = true;
  int64_t opset = -1;
  for (const auto &o : model.opset_import())
    if (isDefaultDomain(o.domain()))
      opset = o.version();
  if (opset > kCheckerOpset)
    rewriteNodes(opset, label, findings); // (first: the labels name the model's own opset)
  savedIrVersion = model.ir_version();
  if (model.ir_version() > kCheckerIrVersion)
    model.set_ir_version(kCheckerIrVersion);
  for (int i = 0; i < model.opset_import_size(); ++i) {
    auto *o = model.mutable_opset_import(i);
    if (isDefaultDomain(o->domain()) && o->version() > kCheckerOpset) {
      savedOpsets.push_back({i, o->version()});
      o->set_version(kCheckerOpset);
    }
  }
  for (int f = 0; f < model.functions_size(); ++f)
    for (int i = 0; i < model.functions(f).opset_import_size(); ++i) {
      auto *o = model.mutable_functions(f)->mutable_opset_import(i);
      if (isDefaultDomain(o->domain()) && o->version() > kCheckerOpset) {
        savedFunctionOpsets.push_back({{f, i}, o->version()});
        o->set_version(kCheckerOpset);
      }
    }
}

void LegacyView::rewriteNodes(int64_t opset, const NodeLabeler &label, Findings &findings) {
  onnx::GraphProto &graph = *model.mutable_graph();
  for (int i = 0; i < graph.node_size(); ++i) {
    onnx::NodeProto &node = *graph.mutable_node(i);
    if (!isDefaultDomain(node.domain()))
      continue;
    const Change *change = latestChange(node.op_type(), opset);
    if (!change || change->form == Form::Same)
      continue;
    if (change->form == Form::NoLowering) {
      findings.problems.push_back(label(node, i) + ": no tx8be lowering for " + node.op_type());
      continue;
    }
    onnx::NodeProto original = node;
    switch (change->form) {
    case Form::Reduce:
      // ReduceSum-13: (data, axes), keepdims, noop_with_empty_axes, the output type of the input's element type.
      if (findAttr(node, "axes")) {
        findings.problems.push_back(label(node, i) + ": attribute 'axes' is not " + node.op_type() + "-" +
                                    std::to_string(change->version) + "'s: since opset 18 the axes are input #1");
        continue;
      }
      node.set_op_type("ReduceSum");
      break;
    case Form::Split:
      if (findAttr(node, "num_outputs")) {
        removeAttr(node, "num_outputs");
        if (!hasInput(node, 1))
          pending.push_back({i, Pending::SplitSizes});
      }
      break;
    case Form::Pad:
      if (hasInput(node, 3))
        pending.push_back({i, Pending::PadAxes});
      if (node.input_size() > 3)
        node.mutable_input()->DeleteSubrange(3, node.input_size() - 3);
      break;
    case Form::Resize:
      if (findAttr(node, "axes"))
        pending.push_back({i, Pending::ResizeAxes});
      for (const char *name : {"antialias", "keep_aspect_ratio_policy", "axes"})
        removeAttr(node, name);
      for (auto &a : *node.mutable_attribute())
        if (a.name() == "coordinate_transformation_mode" && a.s() == "half_pixel_symmetric")
          a.set_s("half_pixel"); // the same output shape
      break;
    case Form::Cast: removeAttr(node, "saturate"); break;
    case Form::AveragePool:
      if (findAttr(node, "dilations")) {
        node.set_op_type("MaxPool");
        removeAttr(node, "count_include_pad");
      }
      break;
    case Form::Unary:
      node.set_op_type("Identity");
      node.clear_attribute();
      break;
    case Form::Same:
    case Form::NoLowering: break;
    }
    if (node.SerializeAsString() != original.SerializeAsString())
      savedNodes.push_back({i, std::move(original)});
  }
}

std::string LegacyView::freshName(const std::string &base) {
  std::set<std::string> names;
  const onnx::GraphProto &g = model.graph();
  for (const auto &init : g.initializer())
    names.insert(init.name());
  for (const auto &node : g.node()) {
    names.insert(node.input().begin(), node.input().end());
    names.insert(node.output().begin(), node.output().end());
  }
  for (const auto &in : g.input())
    names.insert(in.name());
  std::string name = base + "__tx8_opset17";
  for (int k = 1; names.count(name); ++k)
    name = base + "__tx8_opset17_" + std::to_string(k);
  return name;
}

bool LegacyView::refine() {
  bool changed = false;
  for (size_t k = 0; k < pending.size();) {
    if (refineNode(pending[k])) {
      changed = true;
      pending.erase(pending.begin() + k);
      continue;
    }
    ++k;
  }
  return changed;
}

/// One pending rewrite; true when it was made. A rewrite that cannot be made (an operand computed at run time, a
/// malformed node) is dropped: the legacy node then has no inferred output types and the converter says why.
bool LegacyView::refineNode(const Pending &p) {
  onnx::GraphProto &graph = *model.mutable_graph();
  onnx::NodeProto &node = *graph.mutable_node(p.node);
  const onnx::NodeProto *original = nullptr;
  for (const auto &[index, saved] : savedNodes)
    if (index == p.node)
      original = &saved;
  if (!original || node.input_size() == 0)
    return false;
  Lookup lookup(graph);
  auto addInitializer = [&](const std::string &base, int dataType, const std::vector<int64_t> &ints,
                            const std::vector<float> &floats) {
    onnx::TensorProto *t = graph.add_initializer();
    ++addedInitializers;
    t->set_name(freshName(base));
    t->set_data_type(dataType);
    t->add_dims(static_cast<int64_t>(dataType == onnx::TensorProto::FLOAT ? floats.size() : ints.size()));
    for (int64_t v : ints)
      t->add_int64_data(v);
    for (float v : floats)
      t->add_float_data(v);
    return t->name();
  };
  auto rank = lookup.shape(node.input(0), /*rankOnly=*/true);
  switch (p.kind) {
  case Pending::SplitSizes: {
    auto shape = lookup.shape(node.input(0), /*rankOnly=*/true);
    const auto *axisAttr = findAttr(node, "axis");
    int64_t axis = axisAttr ? axisAttr->i() : 0, outputs = node.output_size();
    if (!shape || outputs < 1)
      return false;
    int64_t r = static_cast<int64_t>(shape->size());
    axis = axis < 0 ? axis + r : axis;
    if (axis < 0 || axis >= r || (*shape)[axis] < 0)
      return false;
    int64_t extent = (*shape)[axis], part = (extent + outputs - 1) / outputs;
    if (extent % outputs == 0 || extent - part * (outputs - 1) < 0)
      return false; // equal parts (what the legacy node says already), or a split the converter refuses
    std::vector<int64_t> sizes(outputs - 1, part);
    sizes.push_back(extent - part * (outputs - 1));
    std::string name = addInitializer(node.output(0) + "_split", onnx::TensorProto::INT64, sizes, {});
    if (node.input_size() < 2)
      node.add_input(name);
    else
      node.set_input(1, name);
    return true;
  }
  case Pending::PadAxes: {
    auto pads = hasInput(*original, 1) ? lookup.constant(original->input(1)) : std::nullopt;
    auto axes = lookup.constant(original->input(3));
    if (!rank || !pads || !axes)
      return false;
    int64_t r = static_cast<int64_t>(rank->size());
    std::vector<int64_t> p = intsOf(*pads), a = intsOf(*axes), full(2 * r, 0);
    if (p.size() != 2 * a.size())
      return false;
    for (size_t i = 0; i < a.size(); ++i) {
      int64_t axis = a[i] < 0 ? a[i] + r : a[i];
      if (axis < 0 || axis >= r)
        return false;
      full[axis] = p[i];
      full[axis + r] = p[i + a.size()];
    }
    node.set_input(1, addInitializer(node.output(0) + "_pads", onnx::TensorProto::INT64, full, {}));
    return true;
  }
  case Pending::ResizeAxes: {
    const auto *axesAttr = findAttr(*original, "axes");
    auto shape = lookup.shape(node.input(0), /*rankOnly=*/false);
    if (!axesAttr || !shape)
      return false;
    int64_t r = static_cast<int64_t>(shape->size());
    std::vector<int64_t> axes;
    for (int64_t a : axesAttr->ints()) {
      int64_t axis = a < 0 ? a + r : a;
      if (axis < 0 || axis >= r)
        return false;
      axes.push_back(axis);
    }
    bool made = false;
    if (hasInput(*original, 2)) // scales: 1 on the other axes
      if (auto scales = lookup.constant(original->input(2));
          scales && scales->numElements() == static_cast<int64_t>(axes.size())) {
        std::vector<float> full(r, 1.0f);
        for (size_t i = 0; i < axes.size(); ++i)
          full[axes[i]] = static_cast<float>(tx8::ref::elementAsDouble(*scales, static_cast<int64_t>(i)));
        node.set_input(2, addInitializer(node.output(0) + "_scales", onnx::TensorProto::FLOAT, {}, full));
        made = true;
      }
    if (hasInput(*original, 3)) // sizes: the input's extents on the other axes
      if (auto sizes = lookup.constant(original->input(3));
          sizes && sizes->numElements() == static_cast<int64_t>(axes.size())) {
        std::vector<int64_t> full = *shape, given = intsOf(*sizes);
        for (size_t i = 0; i < axes.size(); ++i)
          full[axes[i]] = given[i];
        node.set_input(3, addInitializer(node.output(0) + "_sizes", onnx::TensorProto::INT64, full, {}));
        made = true;
      }
    return made;
  }
  }
  return false;
}

void LegacyView::leave() {
  if (!entered)
    return;
  entered = false;
  onnx::GraphProto &graph = *model.mutable_graph();
  for (auto &[index, node] : savedNodes)
    graph.mutable_node(index)->Swap(&node);
  savedNodes.clear();
  for (; addedInitializers > 0; --addedInitializers)
    graph.mutable_initializer()->RemoveLast();
  for (auto [index, version] : savedOpsets)
    model.mutable_opset_import(index)->set_version(version);
  for (auto [at, version] : savedFunctionOpsets)
    model.mutable_functions(at.first)->mutable_opset_import(at.second)->set_version(version);
  savedOpsets.clear();
  savedFunctionOpsets.clear();
  model.set_ir_version(savedIrVersion);
  pending.clear();
}
