//===- ONNXShapeInferenceTest.cpp - libonnx inference behind guards and a fork ------------===//
//
// inferShapes must infer well-formed graphs as libonnx does and leave the nodes libonnx 1.12 would crash on
// uninferred (guards); inferShapesIsolated must also turn a crash or a hang of an inference function with no
// guard into an error naming what happened (the forked child).
//
//===----------------------------------------------------------------------===//
#include "ShapeInference.h"

#include <gtest/gtest.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>

#include <csignal>
#include <initializer_list>
#include <string>

using tx8be::onnx_import::inferShapes;
using tx8be::onnx_import::inferShapesIsolated;

namespace {

void setType(onnx::ValueInfoProto *vi, const std::string &name, std::initializer_list<int64_t> dims) {
  vi->set_name(name);
  auto *tensor = vi->mutable_type()->mutable_tensor_type();
  tensor->set_elem_type(onnx::TensorProto::FLOAT);
  auto *shape = tensor->mutable_shape();
  for (int64_t d : dims)
    shape->add_dim()->set_dim_value(d);
}

/// One node `op(inputs) -> Y` over float inputs of the given shapes; Y's type is left to inference.
onnx::ModelProto oneNodeModel(const std::string &op, const std::string &domain,
                              std::initializer_list<std::pair<std::string, std::initializer_list<int64_t>>> inputs) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  auto *opset = model.add_opset_import();
  opset->set_domain("");
  opset->set_version(13);
  if (!domain.empty()) {
    auto *custom = model.add_opset_import();
    custom->set_domain(domain);
    custom->set_version(1);
  }
  auto *graph = model.mutable_graph();
  auto *node = graph->add_node();
  node->set_op_type(op);
  node->set_domain(domain);
  for (const auto &[name, dims] : inputs) {
    node->add_input(name);
    setType(graph->add_input(), name, dims);
  }
  node->add_output("Y");
  graph->add_output()->set_name("Y");
  return model;
}

void addInts(onnx::NodeProto *node, const std::string &name, std::initializer_list<int64_t> values) {
  auto *attr = node->add_attribute();
  attr->set_name(name);
  attr->set_type(onnx::AttributeProto::INTS);
  for (int64_t v : values)
    attr->add_ints(v);
}

std::vector<int64_t> outputDims(const onnx::ModelProto &model) {
  std::vector<int64_t> dims;
  const auto &type = model.graph().output(0).type();
  if (!type.has_tensor_type() || !type.tensor_type().has_shape())
    return {-1};
  for (const auto &d : type.tensor_type().shape().dim())
    dims.push_back(d.dim_value());
  return dims;
}

TEST(ONNXShapeInference, InfersAWellFormedConv) {
  auto model = oneNodeModel("Conv", "", {{"X", {1, 2, 7, 7}}, {"W", {4, 2, 3, 3}}});
  addInts(model.mutable_graph()->mutable_node(0), "strides", {2, 2});
  std::string error;
  ASSERT_TRUE(inferShapesIsolated(model, error)) << error;
  EXPECT_EQ(outputDims(model), (std::vector<int64_t>{1, 4, 3, 3}));
}

// The guards, in-process (a missing one crashes the test). libonnx 1.12 indexes the data's shape by the
// kernel's rank: SEGV (fuzz/crashes/fuzz_onnx_import).
TEST(ONNXShapeInference, ConvKernelOfAnotherRankIsLeftUninferred) {
  auto model = oneNodeModel("Conv", "", {{"X", {1, 7, 7}}, {"W", {1, 1, 1, 1}}});
  std::string error;
  ASSERT_TRUE(inferShapes(model, error)) << error;
  EXPECT_EQ(outputDims(model), (std::vector<int64_t>{-1}));
}

TEST(ONNXShapeInference, ConvTransposeOnRank2IsLeftUninferred) {
  auto model = oneNodeModel("ConvTranspose", "", {{"X", {1, 1}}, {"W", {1, 2, 3}}});
  std::string error;
  ASSERT_TRUE(inferShapes(model, error)) << error;
  EXPECT_EQ(outputDims(model), (std::vector<int64_t>{-1}));
}

// Stride 0 divides by zero (SIGFPE) in libonnx 1.12.
TEST(ONNXShapeInference, PoolWithStrideZeroIsLeftUninferred) {
  auto model = oneNodeModel("MaxPool", "", {{"X", {2, 10, 4}}});
  auto *node = model.mutable_graph()->mutable_node(0);
  addInts(node, "kernel_shape", {2});
  addInts(node, "strides", {0});
  std::string error;
  ASSERT_TRUE(inferShapes(model, error)) << error;
  EXPECT_EQ(outputDims(model), (std::vector<int64_t>{-1}));
  node->mutable_attribute(1)->set_ints(0, 2);
  ASSERT_TRUE(inferShapes(model, error)) << error;
  EXPECT_EQ(outputDims(model), (std::vector<int64_t>{2, 10, 2}));
}

/// Operators of a test-only domain whose inference functions crash or never return: what the fork is for.
void registerHostileSchemas() {
  static bool done = [] {
    onnx::OpSchemaRegistry::DomainToVersionRange::Instance().AddDomainToVersion("tx8.test", 1, 1);
    auto define = [](const char *name, onnx::InferenceFunction inference) {
      onnx::OpSchema schema;
      schema.SetName(name).SetDomain("tx8.test").SinceVersion(1).SetLocation(__FILE__, __LINE__);
      schema.Input(0, "X", "any", "T").Output(0, "Y", "same", "T");
      schema.TypeConstraint("T", {"tensor(float)"}, "float");
      schema.TypeAndShapeInferenceFunction(std::move(inference));
      onnx::OpSchemaRegistry::OpSchemaRegisterOnce once(schema);
    };
    define("Crash", [](onnx::InferenceContext &) { std::raise(SIGSEGV); });
    define("Hang", [](onnx::InferenceContext &) {
      for (;;)
        pause();
    });
    return true;
  }();
  (void)done;
}

TEST(ONNXShapeInference, ACrashingInferenceFunctionIsAnError) {
  registerHostileSchemas();
  auto model = oneNodeModel("Crash", "tx8.test", {{"X", {4}}});
  std::string error;
  EXPECT_FALSE(inferShapesIsolated(model, error));
  EXPECT_NE(error.find("crashed (signal 11"), std::string::npos) << error;
  EXPECT_NE(error.find("malformed"), std::string::npos) << error;
}

TEST(ONNXShapeInference, AHangingInferenceFunctionIsStopped) {
  registerHostileSchemas();
  auto model = oneNodeModel("Hang", "tx8.test", {{"X", {4}}});
  std::string error;
  EXPECT_FALSE(inferShapesIsolated(model, error, /*timeoutSeconds=*/1));
  EXPECT_NE(error.find("did not finish in 1 s"), std::string::npos) << error;
}

} // namespace
