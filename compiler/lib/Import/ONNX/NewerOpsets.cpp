//===- NewerOpsets.cpp - Models newer than the linked ONNX 1.12 knows ------------===//
//
// See NewerOpsets.h. The table below lists every default-domain operator whose schema changed in opsets 18-21
// (ONNX's operator_sets.h, versions 18-21) and what the legacy view does with it.
//
//===----------------------------------------------------------------------===//
#include "NewerOpsets.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

using namespace tx8be::onnx_import;

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
  Quantize,    ///< Quantize/DequantizeLinear-19/21: saturate (float8 only), block_size 0, output_dtype (that of the
               ///< zero point, or uint8 without one: what the opset-13 schema infers) dropped; blocked quantization
               ///< and another output_dtype without a zero point are refused
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
    {"DequantizeLinear", 19, Form::Quantize},
    {"Identity", 19, Form::Same},
    {"If", 19, Form::NoLowering},
    {"Loop", 19, Form::NoLowering},
    {"Pad", 19, Form::Pad},
    {"QuantizeLinear", 19, Form::Quantize},
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
    {"DequantizeLinear", 21, Form::Quantize},
    {"Flatten", 21, Form::Same},
    {"GroupNormalization", 21, Form::NoLowering},
    {"Identity", 21, Form::Same},
    {"If", 21, Form::NoLowering},
    {"Loop", 21, Form::NoLowering},
    {"Pad", 21, Form::Pad},
    {"QLinearMatMul", 21, Form::Same},
    {"QuantizeLinear", 21, Form::Quantize},
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
    // Split, Pad and Resize keep their opset-13 op types: inference sees their own nodes (ShapeInference.cpp
    // infers the new forms), only the checker the legacy ones.
    bool inferOriginal = change->form == Form::Split || change->form == Form::Pad || change->form == Form::Resize;
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
      removeAttr(node, "num_outputs");
      break;
    case Form::Pad:
      if (node.input_size() > 3)
        node.mutable_input()->DeleteSubrange(3, node.input_size() - 3);
      break;
    case Form::Resize:
      for (const char *name : {"antialias", "keep_aspect_ratio_policy", "axes"})
        removeAttr(node, name);
      for (auto &a : *node.mutable_attribute())
        if (a.name() == "coordinate_transformation_mode" && a.s() == "half_pixel_symmetric")
          a.set_s("half_pixel"); // the same output shape
      break;
    case Form::Cast: removeAttr(node, "saturate"); break;
    case Form::Quantize: {
      const onnx::AttributeProto *block = findAttr(node, "block_size");
      if (block && block->i() != 0) {
        findings.problems.push_back(label(node, i) + ": blocked quantization (block_size = " +
                                    std::to_string(block->i()) + ") has no tx8be lowering");
        continue;
      }
      const onnx::AttributeProto *dtype = findAttr(node, "output_dtype");
      bool hasZeroPoint = node.input_size() > 2 && !node.input(2).empty();
      if (dtype && dtype->i() != 0 && !hasZeroPoint && dtype->i() != onnx::TensorProto::UINT8) {
        findings.problems.push_back(label(node, i) + ": output_dtype = " + std::to_string(dtype->i()) +
                                    " without a zero point is not supported (give a zero point of that type)");
        continue;
      }
      for (const char *name : {"saturate", "block_size", "output_dtype"})
        removeAttr(node, name);
      break;
    }
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
      savedNodes.push_back({i, std::move(original), inferOriginal, false});
  }
}

void LegacyView::forInference() {
  for (auto &saved : savedNodes)
    if (saved.inferOriginal && !saved.swapped) {
      model.mutable_graph()->mutable_node(saved.index)->Swap(&saved.node);
      saved.swapped = true;
    }
}

void LegacyView::leave() {
  if (!entered)
    return;
  entered = false;
  onnx::GraphProto &graph = *model.mutable_graph();
  for (auto &saved : savedNodes)
    if (!saved.swapped)
      graph.mutable_node(saved.index)->Swap(&saved.node);
  savedNodes.clear();
  for (auto [index, version] : savedOpsets)
    model.mutable_opset_import(index)->set_version(version);
  for (auto [at, version] : savedFunctionOpsets)
    model.mutable_functions(at.first)->mutable_opset_import(at.second)->set_version(version);
  savedOpsets.clear();
  savedFunctionOpsets.clear();
  model.set_ir_version(savedIrVersion);
}
