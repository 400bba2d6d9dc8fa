//===- OpLibTest.cpp - OpLibInterface -------------------------------------===//
//
// queryOpAttr (BatchNorm exactly as the seed), getImmSpSize (must equal OpLib's own
// op_batchnorm_inference_imm_size), getOpClockCycle (from the hardware config) and genOpCode (the C call).
//
//===----------------------------------------------------------------------===//
#include "TestUtils.h"

#include "tx8/ops.h"

using namespace mlir;
using tx8test::IRTest;

namespace {

using OpLibTest = IRTest;

tx8be::OpLibInterface oplib(Operation *op) { return cast<tx8be::OpLibInterface>(op); }

std::string bnIR(const std::string &inType, const std::string &vecType, const std::string &attrs = "") {
  return "%0 = tx8be.BatchNorm_Inference %x, %s, %s, %s, %s " + attrs + " : (" + inType + ", " + vecType + ", " +
         vecType + ", " + vecType + ", " + vecType + ") -> " + inType;
}

const tx8_hw_config kDefaultHw = tx8_hw_config_default();

/// What OpLib itself says for `shape` (its own [N][HW][C] view, C last), format and layout.
uint64_t opLibImmSize(std::vector<int32_t> shape, Data_Format format, LAYOUT_MODE layout, float epsilon,
                      const tx8_hw_config &hw = kDefaultHw) {
  L_SHAPE s;
  EXPECT_EQ(tx8_lshape_init(&s, shape.data(), static_cast<int32_t>(shape.size())), 0);
  TSR in{format, 0, &s};
  BATCHNORM_INFER_PARAM param{layout, epsilon};
  return op_batchnorm_inference_imm_size(&hw, &param, &in);
}

TEST_F(OpLibTest, BatchNormQueryOpAttrFollowsTheSeed) {
  parse("%x: tensor<1x4x8x8xf32>, %s: tensor<4xf32>, %y: tensor<3x4x8x8xf32>",
        bnIR("tensor<1x4x8x8xf32>", "tensor<4xf32>") + "\n" +
            "%1 = tx8be.BatchNorm_Inference %y, %s, %s, %s, %s : (tensor<3x4x8x8xf32>, tensor<4xf32>, "
            "tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<3x4x8x8xf32>");
  SmallVector<tx8be::BatchNorm_InferenceOp> bns;
  module->walk([&](tx8be::BatchNorm_InferenceOp op) { bns.push_back(op); });
  ASSERT_EQ(bns.size(), 2u);
  tx8be::OpAttr one = bns[0].queryOpAttr(), three = bns[1].queryOpAttr();
  EXPECT_EQ(one.alignMode, tx8be::NPU_ALIGN);
  EXPECT_TRUE(one.needPresetToNPU);
  EXPECT_EQ(one.defaultLayout, "Tensor");  // batch 1
  EXPECT_EQ(three.defaultLayout, "NTensor"); // batch 3
  // The rest keeps the seed's defaults.
  EXPECT_EQ(one.engine, tx8be::NPU_ENGINE_CT);
  EXPECT_FALSE(one.memInplace);
  EXPECT_EQ(one.needLoad, ~uint64_t{0});
  EXPECT_EQ(one.needStore, ~uint64_t{0});
  EXPECT_TRUE(one.parallel);
  EXPECT_TRUE(one.alignCx);
}

TEST_F(OpLibTest, QueryOpAttrOfOtherOps) {
  parse("%a: tensor<2x8xf32>, %b: tensor<8x4xf32>, %e: tensor<10x8xf32>, %i: tensor<3xi32>, %x: tensor<1x3x8x8xf32>, "
        "%w: tensor<4x3x3x3xf32>",
        "%0 = tx8be.Gemm %a, %b : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>\n"
        "%1 = tx8be.Gather %e, %i : (tensor<10x8xf32>, tensor<3xi32>) -> tensor<3x8xf32>\n"
        "%2 = tx8be.Reshape %a : (tensor<2x8xf32>) -> tensor<16xf32>\n"
        "%3 = tx8be.Conv %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>\n"
        "%4 = tx8be.Add %a, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>");
  auto gemm = oplib(first<tx8be::GemmOp>()).queryOpAttr();
  EXPECT_EQ(gemm.engine, tx8be::NPU_ENGINE_NE);
  EXPECT_EQ(gemm.alignMode, tx8be::NPU_COMPACT);
  EXPECT_EQ(gemm.defaultLayout, "NTensor");
  auto gather = oplib(first<tx8be::GatherOp>()).queryOpAttr();
  EXPECT_EQ(gather.needLoad & 1u, 0u) << "an embedding table is read in place";
  EXPECT_EQ(gather.needLoad & 2u, 2u) << "the indices are loaded";
  auto reshape = oplib(first<tx8be::ReshapeOp>()).queryOpAttr();
  EXPECT_EQ(reshape.needLoad, 0u);
  EXPECT_EQ(reshape.needStore, 0u);
  auto conv = oplib(first<tx8be::ConvOp>()).queryOpAttr();
  EXPECT_EQ(conv.alignMode, tx8be::NPU_COMPACT) << "op_conv reads compact NHWC";
  EXPECT_TRUE(conv.needPresetToNPU);
  EXPECT_EQ(conv.defaultLayout, "Tensor");
  auto add = oplib(first<tx8be::AddOp>()).queryOpAttr();
  EXPECT_EQ(add.alignMode, tx8be::NPU_BOTH);
  EXPECT_TRUE(add.memInplace);
}

TEST_F(OpLibTest, BatchNormImmSizeIsOpLibs) {
  // fp16 NCHW 2x40x4x4 in a channel-last image, N = 2: OpLib's view is the image, [2][4x4][40].
  parse("%x: tensor<2x40x4x4xf16>, %s: tensor<40xf32>",
        bnIR("tensor<2x40x4x4xf16>", "tensor<40xf32>", "{layout_str = \"NHWC\"}"));
  auto bn = first<tx8be::BatchNorm_InferenceOp>();
  uint32_t size = bn.getImmSpSize(kDefaultHw, {});
  EXPECT_EQ(size, opLibImmSize({2, 4, 4, 40}, Fmt_FP16, LAYOUT_NTENSOR, 1e-5f));
  EXPECT_GT(size, 0u);
  // fp16 needs an fp32 work copy in imm: more than fp32 input would.
  parse("%x: tensor<2x40x4x4xf32>, %s: tensor<40xf32>",
        bnIR("tensor<2x40x4x4xf32>", "tensor<40xf32>", "{layout_str = \"NHWC\"}"));
  uint32_t size32 = first<tx8be::BatchNorm_InferenceOp>().getImmSpSize(kDefaultHw, {});
  EXPECT_EQ(size32, opLibImmSize({2, 4, 4, 40}, Fmt_FP32, LAYOUT_NTENSOR, 1e-5f));
  EXPECT_LT(size32, size);
}

TEST_F(OpLibTest, BatchNormImmSizeBeforeTheLayoutPassesUsesTheChannelLastView) {
  // No layout chosen yet (Unknown): OpLib will read the channel-last image tx8be-layout-init gives the op, so
  // NCHW 1x40x3x5 is OpLib's 1x3x5x40; then dev_info says Cx and a step covers the slice 1x40x3x2 (ONNX order).
  parse("%x: tensor<1x40x3x5xbf16>, %s: tensor<40xf32>", bnIR("tensor<1x40x3x5xbf16>", "tensor<40xf32>"));
  auto bn = first<tx8be::BatchNorm_InferenceOp>();
  EXPECT_EQ(bn.getImmSpSize(kDefaultHw, {}), opLibImmSize({1, 3, 5, 40}, Fmt_BF16, LAYOUT_TENSOR, 1e-5f));
  tx8be::setDevInfoWithLayout(&ctx, bn, tx8be::LayoutMode::Cx);
  EXPECT_EQ(bn.getImmSpSize(kDefaultHw, {1, 40, 3, 2}), opLibImmSize({1, 3, 2, 40}, Fmt_BF16, LAYOUT_CX, 1e-5f));
  EXPECT_NE(bn.getImmSpSize(kDefaultHw, {1, 40, 3, 2}), opLibImmSize({1, 3, 5, 40}, Fmt_BF16, LAYOUT_CX, 1e-5f));
}

TEST_F(OpLibTest, ImmSizeIsForTheHardwareAsked) {
  // OpLib rounds its scratch buffers to the batch alignment: asking for a chip with 4096-bit alignment gives
  // OpLib's answer for that chip, not the default's.
  parse("%x: tensor<1x40x3x5xf16>, %s: tensor<40xf32>",
        bnIR("tensor<1x40x3x5xf16>", "tensor<40xf32>", "{layout_str = \"NHWC\"}"));
  auto bn = first<tx8be::BatchNorm_InferenceOp>();
  tx8_hw_config wide = tx8_hw_config_default();
  wide.batch_align_bits = 4096;
  uint32_t atDefault = bn.getImmSpSize(kDefaultHw, {}), atWide = bn.getImmSpSize(wide, {});
  EXPECT_EQ(atWide, opLibImmSize({1, 3, 5, 40}, Fmt_FP16, LAYOUT_TENSOR, 1e-5f, wide));
  EXPECT_EQ(atWide % 512, 0u);
  EXPECT_GT(atWide, atDefault);
}

TEST_F(OpLibTest, ClockCyclesComeFromTheHardwareConfig) {
  parse("%a: tensor<64x128xf32>, %b: tensor<128x32xf32>, %h: tensor<64x128xf16>",
        "%0 = tx8be.Relu %a : (tensor<64x128xf32>) -> tensor<64x128xf32>\n"
        "%1 = tx8be.Exp %a : (tensor<64x128xf32>) -> tensor<64x128xf32>\n"
        "%2 = tx8be.Gemm %a, %b : (tensor<64x128xf32>, tensor<128x32xf32>) -> tensor<64x32xf32>\n"
        "%3 = tx8be.Relu %h : (tensor<64x128xf16>) -> tensor<64x128xf16>");
  const tx8_hw_config &hw = kDefaultHw;
  uint64_t bytesPerCycle = hw.ct_datapath_bits / 8;
  SmallVector<tx8be::ReluOp> relus;
  module->walk([&](tx8be::ReluOp op) { relus.push_back(op); });
  // One CT pass: start-up + bytes / datapath width.
  EXPECT_EQ(oplib(relus[0]).getOpClockCycle(hw), hw.ct_startup_cycles + 64 * 128 * 4 / bytesPerCycle);
  EXPECT_EQ(oplib(relus[1]).getOpClockCycle(hw), hw.ct_startup_cycles + 64 * 128 * 2 / bytesPerCycle);
  EXPECT_EQ(oplib(first<tx8be::ExpOp>()).getOpClockCycle(hw),
            hw.ct_startup_cycles + hw.ct_transcendental_passes * (64 * 128 * 4 / bytesPerCycle));
  // NE: M*N*K MACs at the fp32 rate.
  uint64_t macs = 64ull * 32 * 128;
  EXPECT_EQ(oplib(first<tx8be::GemmOp>()).getOpClockCycle(hw),
            hw.ne_startup_cycles + (macs + hw.ne_macs_per_cycle_fp32 - 1) / hw.ne_macs_per_cycle_fp32);
}

TEST_F(OpLibTest, GenOpCodeBatchNorm) {
  parse("%x: tensor<2x40x4x4xf32>, %s: tensor<40xf32>",
        bnIR("tensor<2x40x4x4xf32>", "tensor<40xf32>", "{layout_str = \"NHWC\", epsilon = 1.0e-3 : f32}"));
  auto bn = first<tx8be::BatchNorm_InferenceOp>();
  tx8be::OpCodeParam p;
  p.inputs = {"&in", "&scale", "&shift", "&mean", "&var"};
  p.outputs = {"&out"};
  p.imm = "&imm";
  p.name = "bn7";
  p.cycles = "total";
  std::string code = bn.genOpCode(p);
  EXPECT_NE(code.find("BATCHNORM_INFER_PARAM bn7_param = {LAYOUT_NTENSOR, 0.00100000005f};"), std::string::npos)
      << code;
  EXPECT_NE(code.find("total = ADD_VALID_CYCLE(total, op_batchnorm_inference(&bn7_param, &in, &scale, &shift, "
                      "&mean, &var, &imm, &out));"),
            std::string::npos)
      << code;
  EXPECT_NE(code.find("/* tx8be.BatchNorm_Inference at "), std::string::npos) << code;
  // dev_info's layout wins over the default.
  tx8be::setDevInfoWithLayout(&ctx, bn, tx8be::LayoutMode::NCx);
  EXPECT_NE(bn.genOpCode(p).find("{LAYOUT_NCX, "), std::string::npos);
  // A malformed request makes the generated C fail to compile rather than call with garbage.
  p.inputs.pop_back();
  EXPECT_EQ(bn.genOpCode(p).rfind("#error", 0), 0u);
}

TEST_F(OpLibTest, GenOpCodeGemmAndElementwise) {
  parse("%a: tensor<2x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4xf32>, %r: tensor<8xf32>",
        "%0 = tx8be.Gemm %a, %b, %c : (tensor<2x8xf32>, tensor<8x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>\n"
        "%1 = tx8be.Gemm %a, %b {alpha = 2.0 : f32} : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>\n"
        "%2 = tx8be.Add %a, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>\n"
        "%3 = tx8be.Add %a, %r : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>\n"
        "%4 = tx8be.Relu %a : (tensor<2x8xf32>) -> tensor<2x8xf32>\n"
        "%5 = tx8be.Mul %a, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>\n"
        "%6 = tx8be.Sigmoid %a : (tensor<2x8xf32>) -> tensor<2x8xf32>\n"
        "%7 = tx8be.Erf %a : (tensor<2x8xf32>) -> tensor<2x8xf32>");
  SmallVector<tx8be::GemmOp> gemms;
  module->walk([&](tx8be::GemmOp op) { gemms.push_back(op); });
  tx8be::OpCodeParam p;
  p.inputs = {"a", "b", "c"};
  p.outputs = {"y"};
  p.name = "g";
  std::string gemm = oplib(gemms[0]).genOpCode(p);
  EXPECT_NE(gemm.find("GEMM_PARAM g_param = {0, 0};"), std::string::npos) << gemm;
  EXPECT_NE(gemm.find("cycles = ADD_VALID_CYCLE(cycles, op_gemm(&g_param, a, b, c, y));"), std::string::npos) << gemm;
  p.inputs = {"a", "b"};
  EXPECT_EQ(oplib(gemms[1]).genOpCode(p), "") << "alpha != 1 has no single op_gemm call";

  SmallVector<tx8be::AddOp> adds;
  module->walk([&](tx8be::AddOp op) { adds.push_back(op); });
  p.inputs = {"a", "b"};
  std::string add = oplib(adds[0]).genOpCode(p);
  EXPECT_NE(add.find("ELTWISE_PARAM g_param = {LAYOUT_NTENSOR, RND_NEAREST_EVEN};"), std::string::npos) << add;
  EXPECT_NE(add.find("op_add(&g_param, a, b, y)"), std::string::npos) << add;
  EXPECT_EQ(oplib(adds[1]).genOpCode(p), "") << "OpLib's op_add does not broadcast";
  EXPECT_NE(oplib(first<tx8be::MulOp>()).genOpCode(p).find("op_mul(&g_param, a, b, y)"), std::string::npos);
  p.inputs = {"a"};
  EXPECT_NE(oplib(first<tx8be::ReluOp>()).genOpCode(p).find("op_relu(&g_param, a, y)"), std::string::npos);
  EXPECT_NE(oplib(first<tx8be::SigmoidOp>()).genOpCode(p).find("op_sigmoid(&g_param, a, y)"), std::string::npos);
  EXPECT_EQ(oplib(first<tx8be::ErfOp>()).genOpCode(p), "") << "no OpLib erf";
}

TEST_F(OpLibTest, GenOpCodeConvPoolSoftmax) {
  parse("%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>, %s: tensor<2x5xf32>",
        "%0 = tx8be.Conv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 1>} : "
        "(tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x8xf32>\n"
        "%1 = tx8be.AvgPool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, count_include_pad = true} : "
        "(tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>\n"
        "%2 = tx8be.Softmax %s : (tensor<2x5xf32>) -> tensor<2x5xf32>\n"
        "%3 = tx8be.Softmax %s {axis = 0 : i64} : (tensor<2x5xf32>) -> tensor<2x5xf32>");
  tx8be::OpCodeParam p;
  p.name = "g";
  p.inputs = {"x", "w", "b"};
  p.outputs = {"y"};
  std::string conv = oplib(first<tx8be::ConvOp>()).genOpCode(p);
  // layout, strides (h, w), dilations, pads (top, left, bottom, right), group, accumulate, relu
  EXPECT_NE(conv.find("CONV_PARAM g_param = {LAYOUT_TENSOR, 2, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0};"), std::string::npos)
      << conv;
  EXPECT_NE(conv.find("op_conv(&g_param, x, w, b, y)"), std::string::npos) << conv;
  p.pads = "pads[s]"; // a temporal step's own border pads
  conv = oplib(first<tx8be::ConvOp>()).genOpCode(p);
  EXPECT_NE(conv.find("pads[s][0], pads[s][1], pads[s][2], pads[s][3], 1, 0, 0}"), std::string::npos) << conv;
  p.pads.clear();
  p.inputs = {"x"};
  std::string pool = oplib(first<tx8be::AvgPoolOp>()).genOpCode(p);
  EXPECT_NE(pool.find("POOL_PARAM g_param = {LAYOUT_TENSOR, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0, 1};"), std::string::npos)
      << pool;
  EXPECT_NE(pool.find("op_avgpool(&g_param, x, y)"), std::string::npos) << pool;
  SmallVector<tx8be::SoftmaxOp> softmaxes;
  module->walk([&](tx8be::SoftmaxOp op) { softmaxes.push_back(op); });
  p.imm = "&imm";
  EXPECT_NE(oplib(softmaxes[0]).genOpCode(p).find("op_softmax(&g_param, x, &imm, y)"), std::string::npos);
  EXPECT_GT(oplib(softmaxes[0]).getImmSpSize(kDefaultHw, {}), 0u) << "OpLib's op_softmax_imm_size";
  EXPECT_EQ(oplib(softmaxes[1]).genOpCode(p), "") << "op_softmax normalises the innermost dim only";
}

} // namespace
