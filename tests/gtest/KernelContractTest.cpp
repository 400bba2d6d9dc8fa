//===- KernelContractTest.cpp - OpLib's contracts evaluated by the compiler -===//
//
// checkKernelCall (tx8/Dialect/Tx8be/IR/KernelContract.h) builds the *_PARAM of an OpCall and the TSRs of a step and
// runs OpLib's own check of the kernel: the kernel's reasons come back word for word. And codegen refuses a plan
// whose call a kernel would fault on: a scheduled SE-block Mul whose input box is tampered with at one step (the
// operands of that step then cut differently, as in issue 33's faults) is a one-line compile error naming the
// node, the op, the tile, the step and op_mul's reason, and no bundle. The plan search asks the same contract
// of each candidate (planContractProblem): a plan whose step cuts the operands differently is named, with the step
// and the reason, before any code is made.
//
//===----------------------------------------------------------------------===//
#include "TestUtils.h"

#include "tx8/Codegen/Bundle.h"
#include "tx8/Dialect/Tx8be/IR/KernelContract.h"
#include "tx8/Driver/Compile.h"
#include "tx8/Transforms/GroupPlan.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace tx8be;

namespace {

KernelTensor tensor(Data_Format format, uint64_t addr, std::initializer_list<int64_t> view) {
  return KernelTensor{format, addr, SmallVector<int64_t, 6>(view)};
}

OpCall eltwise(const char *function) {
  OpCall call;
  call.function = function;
  call.paramType = "ELTWISE_PARAM";
  call.field("layout", OpCallValue::ofEnumerator("LAYOUT_TENSOR")).field("rnd", OpCallValue::ofEnumerator("RND_NEAREST_EVEN"));
  call.arg(OpCallArg::Kind::Operand, 0).arg(OpCallArg::Kind::Operand, 1).arg(OpCallArg::Kind::Result, 0);
  return call;
}

TEST(KernelContractTest, BroadcastingMulAcceptsAPerChannelScaleAndRefusesAMismatch) {
  tx8_hw_config hw = tx8_hw_config_default();
  OpCall call = eltwise("op_mul");
  KernelCallArgs args;
  args.operands = {tensor(Fmt_FP32, 0, {1, 4, 8, 24}), tensor(Fmt_FP32, 4096, {1, 1, 1, 24})};
  args.results = {tensor(Fmt_FP32, 8192, {1, 4, 8, 24})};
  std::string why, error;
  ASSERT_TRUE(succeeded(checkKernelCall(call, args, hw, why, error))) << error;
  EXPECT_EQ(why, "");
  // The scale cut like another step's output: op_mul's own message.
  args.results = {tensor(Fmt_FP32, 8192, {1, 4, 8, 4})};
  ASSERT_TRUE(succeeded(checkKernelCall(call, args, hw, why, error))) << error;
  EXPECT_EQ(why, "op_mul: a->shape->shape_real[3] = 24, out->shape->shape_real[3] = 4; must be equal or 1 "
                 "(broadcast)");
  // The SPM size is the config's: the same call past a small SPM.
  args.results = {tensor(Fmt_FP32, 8192, {1, 4, 8, 24})};
  hw.spm_bytes = 8192;
  ASSERT_TRUE(succeeded(checkKernelCall(call, args, hw, why, error))) << error;
  EXPECT_EQ(why, "op_mul: out = 0x2000 + 3072 bytes is outside SPM");
}

TEST(KernelContractTest, ParamsAreBuiltAsMainCInitialisesThem) {
  tx8_hw_config hw = tx8_hw_config_default();
  std::string why, error;
  // op_pad's arrays and float: a reflect pad wider than the input.
  OpCall pad;
  pad.function = "op_pad";
  pad.paramType = "PAD_PARAM";
  pad.field("mode", OpCallValue::ofEnumerator("PAD_REFLECT"))
      .field("begin", OpCallValue::ofInts({0, 3}))
      .field("end", OpCallValue::ofInts({0, 0}))
      .field("value", OpCallValue::ofFloat(0.f));
  pad.arg(OpCallArg::Kind::Operand, 0).arg(OpCallArg::Kind::Result, 0);
  KernelCallArgs args;
  args.operands = {tensor(Fmt_FP32, 0, {2, 3})};
  args.results = {tensor(Fmt_FP32, 1024, {2, 6})};
  ASSERT_TRUE(succeeded(checkKernelCall(pad, args, hw, why, error))) << error;
  EXPECT_EQ(why, "op_pad: PAD_REFLECT along dim 1: begin 3 and end 0 must be <= in's extent 3 - 1");

  // op_conv's step pads and accumulate, a NULL bias.
  OpCall conv;
  conv.function = "op_conv";
  conv.paramType = "CONV_PARAM";
  conv.field("layout", OpCallValue::ofEnumerator("LAYOUT_TENSOR"))
      .field("stride_h", OpCallValue::ofInt(1))
      .field("stride_w", OpCallValue::ofInt(1))
      .field("dilation_h", OpCallValue::ofInt(1))
      .field("dilation_w", OpCallValue::ofInt(1))
      .field("pad_top", OpCallValue::ofStepPad(0))
      .field("pad_left", OpCallValue::ofStepPad(1))
      .field("pad_bottom", OpCallValue::ofStepPad(2))
      .field("pad_right", OpCallValue::ofStepPad(3))
      .field("group", OpCallValue::ofInt(1))
      .field("accumulate", OpCallValue::ofStepAccumulate())
      .field("relu_en", OpCallValue::ofInt(0));
  conv.arg(OpCallArg::Kind::Operand, 0).arg(OpCallArg::Kind::Operand, 1).arg(OpCallArg::Kind::Null)
      .arg(OpCallArg::Kind::Result, 0);
  args.operands = {tensor(Fmt_FP32, 0, {1, 4, 4, 2}), tensor(Fmt_FP32, 1024, {3, 3, 2, 8})};
  args.results = {tensor(Fmt_FP32, 4096, {1, 4, 4, 8})};
  args.pads = {1, 1, 1, 1};
  ASSERT_TRUE(succeeded(checkKernelCall(conv, args, hw, why, error))) << error;
  EXPECT_EQ(why, "");
  args.pads = {1, 1, 0, 1}; // a step without its bottom pad computes 3 rows, not 4
  ASSERT_TRUE(succeeded(checkKernelCall(conv, args, hw, why, error))) << error;
  EXPECT_EQ(why, "op_conv: out shape [1,4,4,8], expected [N,OH,OW,O] = [1,3,4,8]");
}

TEST(KernelContractTest, GatherRowsReadsItsTableInDdrAndKeepsIndicesAndRowsInSpm) {
  tx8_hw_config hw = tx8_hw_config_default();
  std::string why, error;
  OpCall call;
  call.function = "op_gather_rows";
  call.paramType = "GATHER_ROWS_PARAM";
  call.field("layout", OpCallValue::ofEnumerator("LAYOUT_NTENSOR"));
  call.arg(OpCallArg::Kind::Operand, 0).arg(OpCallArg::Kind::Operand, 1).arg(OpCallArg::Kind::Result, 0);
  // A BERT-sized bf16 table far beyond the SPM, at a DDR address; 128 indices and their rows in SPM.
  KernelCallArgs args;
  args.operands = {tensor(Fmt_BF16, 0x10000000, {30522, 768}), tensor(Fmt_INT32, 0, {128})};
  args.results = {tensor(Fmt_BF16, 4096, {128, 768})};
  ASSERT_TRUE(succeeded(checkKernelCall(call, args, hw, why, error))) << error;
  EXPECT_EQ(why, "");
  // The rows over the indices.
  args.results = {tensor(Fmt_BF16, 256, {128, 768})};
  ASSERT_TRUE(succeeded(checkKernelCall(call, args, hw, why, error))) << error;
  EXPECT_EQ(why, "op_gather_rows: out [0x100, +196608) overlaps index [0x0, +512)");
  // A step's rows that are not its indices' count.
  args.results = {tensor(Fmt_BF16, 4096, {64, 768})};
  ASSERT_TRUE(succeeded(checkKernelCall(call, args, hw, why, error))) << error;
  EXPECT_EQ(why, "op_gather_rows: out is [64][768]; it must be [count][width] = [128][768]");
  // A table past the end of DDR.
  args.results = {tensor(Fmt_BF16, 4096, {128, 768})};
  hw.ddr_bytes = 0x10000000;
  ASSERT_TRUE(succeeded(checkKernelCall(call, args, hw, why, error))) << error;
  EXPECT_EQ(why, "op_gather_rows: table = 0x10000000 + 46881792 bytes is outside DDR");
}

TEST(KernelContractTest, WhatCannotBeCheckedIsAnError) {
  tx8_hw_config hw = tx8_hw_config_default();
  std::string why, error;
  KernelCallArgs args;
  args.operands = {tensor(Fmt_FP32, 0, {1, 4})};
  args.results = {tensor(Fmt_FP32, 1024, {1, 4})};
  OpCall call;
  call.function = "op_frobnicate";
  call.paramType = "ELTWISE_PARAM";
  EXPECT_TRUE(failed(checkKernelCall(call, args, hw, why, error)));
  EXPECT_EQ(error, "no contract for the OpLib kernel op_frobnicate");
  call = eltwise("op_relu");
  call.args.clear();
  call.arg(OpCallArg::Kind::Operand, 0).arg(OpCallArg::Kind::Result, 0);
  call.field("slope", OpCallValue::ofInt(2));
  EXPECT_TRUE(failed(checkKernelCall(call, args, hw, why, error)));
  EXPECT_EQ(error, "ELTWISE_PARAM.slope: no member slope");
}

/// A squeeze-and-excitation Mul ([1,C,H,W] x [1,C,1,1]) through the backend pipeline.
class PlannedCallTest : public tx8test::IRTest {
protected:
  void SetUp() override {
    // The diagnostics as before, and the node (NameLoc) each error is at.
    handler.emplace(&ctx, [this](Diagnostic &diag) {
      diagnostics += diag.str() + "\n";
      if (auto name = dyn_cast<NameLoc>(diag.getLocation()); name && diag.getSeverity() == DiagnosticSeverity::Error)
        errorLocations.push_back(name.getName().str());
      return success();
    });
    const char *src = R"mlir(
func.func @main(%x: tensor<1x24x8x8xf32> {tx8be.name = "x"}, %s: tensor<1x24x1x1xf32> {tx8be.name = "s"})
    -> (tensor<1x24x8x8xf32> {tx8be.name = "y"}) {
  %0 = tx8be.Mul %x, %s : (tensor<1x24x8x8xf32>, tensor<1x24x1x1xf32>) -> tensor<1x24x8x8xf32> loc("se.mul")
  return %0 : tensor<1x24x8x8xf32>
}
)mlir";
    module = parseSourceString<ModuleOp>(src, &ctx);
    ASSERT_TRUE(module) << diagnostics;
    options.modelName = "se";
    ASSERT_TRUE(succeeded(runBackendPipeline(*module, options))) << diagnostics;
  }
  tx8::codegen::BundleOptions options;
  std::vector<std::string> errorLocations;
};

TEST_F(PlannedCallTest, ThePlanAsMadeCompiles) {
  tx8::codegen::BundleFiles files;
  EXPECT_TRUE(succeeded(tx8::codegen::generateBundle(*module, options, files))) << diagnostics;
  EXPECT_TRUE(files.count("main.c"));
}

TEST_F(PlannedCallTest, AnInconsistentStepIsACompileErrorNamingNodeOpTileStepAndReason) {
  auto mul = first<MulOp>();
  auto load = mul.getLhs().getDefiningOp<LoadBoxOp>();
  ASSERT_TRUE(load);
  auto steps = load->getParentOfType<StepsOp>();
  ASSERT_TRUE(steps);
  // Tile 1's first step reads one row of x fewer than it computes (the output and the scale keep theirs).
  int64_t step = steps.getFirstStep(1);
  ASSERT_LT(step, static_cast<int64_t>(steps.getCount()));
  BoxTableAttr boxes = load.getBoxes();
  std::vector<TensorBox> rows;
  for (int64_t k = 0; k < boxes.getCount(); ++k)
    rows.push_back(boxes.getBox(k));
  int64_t dim = -1;
  for (int64_t d = 3; d >= 0 && dim < 0; --d)
    if (rows[step].size[d] >= 3)
      dim = d;
  ASSERT_GE(dim, 0) << "no dim of the box to shrink";
  int64_t kept = rows[step].size[dim];
  rows[step].size[dim] -= 1;
  load.setBoxesAttr(BoxTableAttr::get(&ctx, boxes.getRank(), rows));

  diagnostics.clear();
  tx8::codegen::BundleFiles files;
  EXPECT_TRUE(failed(tx8::codegen::generateBundle(*module, options, files)));
  EXPECT_FALSE(files.count("main.c"));
  // One line: the op at node se.mul, tile 1, that step, and op_mul's reason (the dim in memory order).
  EXPECT_EQ(std::count(diagnostics.begin(), diagnostics.end(), '\n'), 1) << diagnostics;
  std::string prefix = "'tx8be.Mul' op would fault in OpLib on tile 1 at step " + std::to_string(step) + ": op_mul: a->";
  EXPECT_EQ(diagnostics.rfind(prefix, 0), 0u) << diagnostics;
  EXPECT_NE(diagnostics.find(" = " + std::to_string(kept - 1) + ", out->shape->shape_real["), std::string::npos)
      << diagnostics;
  EXPECT_NE(diagnostics.find("] = " + std::to_string(kept) + "; must be equal or 1 (broadcast)"), std::string::npos)
      << diagnostics;
  EXPECT_EQ(errorLocations, std::vector<std::string>{"se.mul"});
}

TEST_F(PlannedCallTest, ThePlanSearchSeesACallTheKernelRefuses) {
  auto mul = first<MulOp>();
  tx8_hw_config hw = tx8_hw_config_default();
  // Two slices along H: the steps give x, the scale and the output matching boxes.
  GroupPlan plan = planGroupSizes(mul, {1, 24, 4, 8}, hw);
  ASSERT_GE(plan.steps.size(), 2u);
  EXPECT_EQ(planContractProblem(plan, hw), "");
  // The second sampled step reads one row of x fewer than it computes.
  TensorBox &x = plan.steps[1].operands[0];
  ASSERT_EQ(x.size[2], 4);
  x.size[2] = 3;
  std::string problem = planContractProblem(plan, hw);
  EXPECT_EQ(problem.rfind("tx8be.Mul at step 1: op_mul: a->shape->shape_real[", 0), 0u) << problem;
  EXPECT_NE(problem.find("must be equal or 1 (broadcast)"), std::string::npos) << problem;
}

} // namespace
