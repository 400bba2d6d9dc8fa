//===- ComputeTest.cpp - ComputeInterface ---------------------------------===//
//
// The ops' host execution through the reference kernels, against values worked out by hand, including the
// attribute translations that live in the compiler (BatchNorm's channel-last layout, Slice's negative
// strides, pads) and the input checks; the external models' registration (every compute op has its models,
// a tool without them gets an error from the reference runner and tx8be-fold-constants).
//
//===----------------------------------------------------------------------===//
#include "TestUtils.h"

#include "tx8/Interpreter/ReferenceRunner.h"
#include "tx8/Reference/Convert.h"
#include "tx8/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"

#include <cmath>

using namespace mlir;
using tx8test::IRTest;
namespace ref = tx8::ref;

namespace {

class ComputeTest : public IRTest {
protected:
  /// Runs the first OpT on `inputs`; returns the output as floats, or the error as `error`.
  template <typename OpT>
  std::vector<float> run(std::vector<ref::Tensor> inputs, std::string *error = nullptr,
                         std::vector<int64_t> *shape = nullptr) {
    tx8be::ComputeParam param;
    for (const ref::Tensor &t : inputs)
      param.inputs.push_back(&t);
    auto op = first<OpT>();
    if (failed(cast<tx8be::ComputeInterface>(op.getOperation()).compute(param))) {
      if (error)
        *error = param.error;
      else
        ADD_FAILURE() << param.error;
      return {};
    }
    EXPECT_EQ(param.outputs.size(), 1u);
    if (shape)
      *shape = param.outputs[0].shape;
    return ref::toFloatVector(param.outputs[0]);
  }
};

ref::Tensor f32(std::vector<int64_t> shape, std::vector<float> values) {
  return ref::makeTensor(ref::DType::F32, shape, values);
}

void expectNear(const std::vector<float> &got, const std::vector<float> &want, float tol = 1e-5f) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
}

// y = scale * (x - mean) / sqrt(var + eps) + offset, channel c: scale {2, 3}, offset {1, -1}, mean {0.5, 1},
// var {4, 0.25}, eps 0: channel 0 -> (x - 0.5) + 1, channel 1 -> 6 (x - 1) - 1.
const std::vector<float> kScale{2, 3}, kOffset{1, -1}, kMean{0.5f, 1}, kVar{4, 0.25f};

TEST_F(ComputeTest, BatchNormNchw) {
  parse("%x: tensor<1x2x1x3xf32>, %s: tensor<2xf32>",
        "%0 = tx8be.BatchNorm_Inference %x, %s, %s, %s, %s {epsilon = 0.0 : f32} : (tensor<1x2x1x3xf32>, "
        "tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x1x3xf32>");
  auto y = run<tx8be::BatchNorm_InferenceOp>({f32({1, 2, 1, 3}, {0, 1, 2, 0, 1, 2}), f32({2}, kScale),
                                              f32({2}, kOffset), f32({2}, kMean), f32({2}, kVar)});
  expectNear(y, {0.5f, 1.5f, 2.5f, -7, -1, 5});
}

TEST_F(ComputeTest, BatchNormChannelLastImageWithSeedShapedVectors) {
  // The same numbers with 1xCx1x1 per-channel vectors (the seed's 1x1x1xC in its NHWC view) and a
  // channel-last device image: layout_str moves bytes on the device, never the channel, so the values are
  // those of BatchNormNchw.
  parse("%x: tensor<1x2x1x3xf32>, %s: tensor<1x2x1x1xf32>",
        "%0 = tx8be.BatchNorm_Inference %x, %s, %s, %s, %s {epsilon = 0.0 : f32, layout_str = \"NHWC\"} : "
        "(tensor<1x2x1x3xf32>, tensor<1x2x1x1xf32>, tensor<1x2x1x1xf32>, tensor<1x2x1x1xf32>, tensor<1x2x1x1xf32>)"
        " -> tensor<1x2x1x3xf32>");
  std::vector<int64_t> shape;
  auto y = run<tx8be::BatchNorm_InferenceOp>({f32({1, 2, 1, 3}, {0, 1, 2, 0, 1, 2}), f32({1, 2, 1, 1}, kScale),
                                              f32({1, 2, 1, 1}, kOffset), f32({1, 2, 1, 1}, kMean),
                                              f32({1, 2, 1, 1}, kVar)},
                                             nullptr, &shape);
  EXPECT_EQ(shape, (std::vector<int64_t>{1, 2, 1, 3}));
  expectNear(y, {0.5f, 1.5f, 2.5f, -7, -1, 5});
}

TEST_F(ComputeTest, ReluAndBroadcastingAdd) {
  parse("%a: tensor<2x3xf32>, %b: tensor<3xf32>",
        "%0 = tx8be.Relu %a : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
        "%1 = tx8be.Add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>");
  ref::Tensor a = f32({2, 3}, {-1, 0.5f, -0.0f, 2, -3, 4});
  expectNear(run<tx8be::ReluOp>({a}), {0, 0.5f, 0, 2, 0, 4});
  expectNear(run<tx8be::AddOp>({a, f32({3}, {10, 20, 30})}), {9, 20.5f, 30, 12, 17, 34});
}

TEST_F(ComputeTest, NegativeStrideSliceReachesIndexZero) {
  // Row 1 reversed, every element: offsets (1, 3), sizes (1, 4), strides (1, -1) reads 7 6 5 4.
  parse("%x: tensor<2x4xf32>",
        "%0 = tx8be.Slice %x {offsets = array<i64: 1, 3>, sizes = array<i64: 1, 4>, strides = array<i64: 1, -1>} : "
        "(tensor<2x4xf32>) -> tensor<1x4xf32>");
  expectNear(run<tx8be::SliceOp>({f32({2, 4}, {0, 1, 2, 3, 4, 5, 6, 7})}), {7, 6, 5, 4});
}

TEST_F(ComputeTest, ConvWithPadsAndBias) {
  // 1x1x2x2 input, 1x1x2x2 ones kernel, pad 1 on top/left only, bias 10: out 2x2 of window sums + 10.
  parse("%x: tensor<1x1x2x2xf32>, %w: tensor<1x1x2x2xf32>, %b: tensor<1xf32>",
        "%0 = tx8be.Conv %x, %w, %b {pads = array<i64: 1, 1, 0, 0>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, "
        "tensor<1xf32>) -> tensor<1x1x2x2xf32>");
  auto y = run<tx8be::ConvOp>({f32({1, 1, 2, 2}, {1, 2, 3, 4}), f32({1, 1, 2, 2}, {1, 1, 1, 1}), f32({1}, {10})});
  expectNear(y, {11, 13, 14, 20});
}

TEST_F(ComputeTest, ReflectPadAndGather) {
  parse("%x: tensor<1x3xf32>, %i: tensor<2xi64>",
        "%0 = tx8be.Pad %x {pads = array<i64: 0, 2, 0, 1>, mode = #tx8be.pad_mode<reflect>} : (tensor<1x3xf32>) -> "
        "tensor<1x6xf32>\n"
        "%1 = tx8be.Gather %x, %i {axis = 1 : i64} : (tensor<1x3xf32>, tensor<2xi64>) -> tensor<1x2xf32>");
  ref::Tensor x = f32({1, 3}, {1, 2, 3});
  expectNear(run<tx8be::PadOp>({x}), {3, 2, 1, 2, 3, 2});
  expectNear(run<tx8be::GatherOp>({x, ref::makeTensor<int64_t>(ref::DType::I64, {2}, {2, -3})}), {3, 1});
}

TEST_F(ComputeTest, RsqrtAndErfWithoutAKernelOfTheirOwn) {
  parse("%x: tensor<3xf32>",
        "%0 = tx8be.Rsqrt %x : (tensor<3xf32>) -> tensor<3xf32>\n"
        "%1 = tx8be.Erf %x : (tensor<3xf32>) -> tensor<3xf32>");
  ref::Tensor x = f32({3}, {0.25f, 1, 4});
  expectNear(run<tx8be::RsqrtOp>({x}), {2, 1, 0.5f});
  expectNear(run<tx8be::ErfOp>({x}), {std::erf(0.25f), std::erf(1.0f), std::erf(4.0f)});
}

TEST_F(ComputeTest, InputsMustMatchTheOperands) {
  parse("%a: tensor<2x3xf32>", "%0 = tx8be.Relu %a : (tensor<2x3xf32>) -> tensor<2x3xf32>");
  std::string error;
  EXPECT_TRUE(run<tx8be::ReluOp>({f32({3, 2}, {0, 0, 0, 0, 0, 0})}, &error).empty());
  EXPECT_NE(error.find("input #0 is a f32 tensor of shape [3,2], the operand is tensor<2x3xf32>"), std::string::npos)
      << error;
  EXPECT_TRUE(run<tx8be::ReluOp>({}, &error).empty());
  EXPECT_NE(error.find("compute got 0 inputs, the op has 1 operands"), std::string::npos) << error;
}

TEST_F(ComputeTest, LoadConstHasNoDataToCompute) {
  parse("", "%0 = tx8be.LoadConst {const_map_id = 5 : ui32} : tensor<2xf32>");
  std::string error;
  run<tx8be::LoadConstOp>({}, &error);
  EXPECT_NE(error.find("constant 5 lives in the constant container"), std::string::npos) << error;
}

TEST_F(ComputeTest, EveryComputeOpHasItsExternalModels) {
  int computeOps = 0;
  for (mlir::RegisteredOperationName name : ctx.getRegisteredOperations()) {
    if (name.getDialectNamespace() != "tx8be" || !name.hasInterface<tx8be::ShapeInferenceOpInterface>())
      continue;
    ++computeOps;
    EXPECT_TRUE(name.hasInterface<tx8be::ComputeInterface>()) << name.getStringRef().str();
    EXPECT_TRUE(name.hasInterface<tx8be::ShardingInterface>()) << name.getStringRef().str();
  }
  EXPECT_GT(computeOps, 50);
}

/// A context whose tool did not register the ComputeInterface models (ShardingInterface comes with the
/// dialect).
class NoComputeModelsTest : public ::testing::Test {
protected:
  NoComputeModelsTest() {
    ctx.loadDialect<tx8be::Tx8beDialect, mlir::func::FuncDialect>();
    handler.emplace(&ctx, [this](mlir::Diagnostic &diag) {
      diagnostics += diag.str() + "\n";
      return mlir::success();
    });
    module = mlir::parseSourceString<mlir::ModuleOp>(
        "func.func @f() -> tensor<3x2xf32> {\n"
        "  %w = tx8be.Constant dense<1.0> : tensor<2x3xf32>\n"
        "  %t = tx8be.Transpose %w {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
        "  return %t : tensor<3x2xf32>\n"
        "}\n",
        &ctx);
  }

  mlir::MLIRContext ctx;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string diagnostics;
  std::optional<mlir::ScopedDiagnosticHandler> handler;
};

TEST_F(NoComputeModelsTest, ShardingIsThereComputeIsPromised) {
  ASSERT_TRUE(module) << diagnostics;
  auto name = mlir::RegisteredOperationName::lookup(tx8be::TransposeOp::getOperationName(), &ctx);
  ASSERT_TRUE(name);
  EXPECT_TRUE(name->hasInterface<tx8be::ShardingInterface>());
  EXPECT_FALSE(name->hasInterface<tx8be::ComputeInterface>());
  EXPECT_TRUE(tx8be::isComputeInterfacePromised(*name));
}

TEST_F(NoComputeModelsTest, ReferenceRunnerSaysWhatIsMissing) {
  ASSERT_TRUE(module);
  std::vector<ref::Tensor> outputs;
  std::string error;
  auto func = *module->getOps<mlir::func::FuncOp>().begin();
  EXPECT_TRUE(failed(tx8be::runReference(func, {}, outputs, error)));
  EXPECT_NE(error.find("'tx8be.Transpose'"), std::string::npos) << error;
  EXPECT_NE(error.find("no ComputeInterface model is registered for it (the tool must call "
                       "tx8be::registerComputeInterfaceExternalModels)"),
            std::string::npos)
      << error;
}

TEST_F(NoComputeModelsTest, FoldConstantsFailsWithAnError) {
  ASSERT_TRUE(module);
  mlir::PassManager pm(&ctx);
  pm.addNestedPass<mlir::func::FuncOp>(tx8be::createFoldConstantsPass());
  EXPECT_TRUE(failed(pm.run(*module)));
  EXPECT_NE(diagnostics.find("'tx8be.Transpose' op cannot be evaluated at compile time: 'tx8be.Transpose' has no "
                             "ComputeInterface model (the tool must call "
                             "tx8be::registerComputeInterfaceExternalModels)"),
            std::string::npos)
      << diagnostics;

  // Registering them afterwards attaches them to the loaded dialect: the same pass folds.
  mlir::DialectRegistry registry;
  tx8be::registerComputeInterfaceExternalModels(registry);
  ctx.appendDialectRegistry(registry);
  mlir::PassManager again(&ctx);
  again.addNestedPass<mlir::func::FuncOp>(tx8be::createFoldConstantsPass());
  EXPECT_TRUE(succeeded(again.run(*module)));
  int transposes = 0;
  module->walk([&](tx8be::TransposeOp) { ++transposes; });
  EXPECT_EQ(transposes, 0);
}

} // namespace
