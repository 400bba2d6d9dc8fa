//===- OpLibTest.cpp - OpLibInterface -------------------------------------===//
//
// queryOpAttr (BatchNorm exactly as the seed), getImmSpSize (must equal OpLib's own
// op_batchnorm_inference_imm_size), getOpClockCycle (from the hardware config) and genOpCode (the C call).
//
//===----------------------------------------------------------------------===//
#include "TestUtils.h"

#include "tx8/Dialect/Tx8be/IR/DeviceLayout.h"
#include "tx8/ops.h"

#include "llvm/ADT/StringExtras.h"

#include <sstream>

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
  EXPECT_EQ(one.needLoad, ~uint64_t{0});
  EXPECT_EQ(one.needStore, ~uint64_t{0});
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

/// "name=value ..." of an OpCall's *_PARAM members (floats with %g, step pads as pad[i], arrays as {a,b}).
std::string fieldsOf(const tx8be::OpCall &call) {
  std::string s;
  for (const auto &[name, v] : call.fields) {
    s += (s.empty() ? "" : " ") + name + "=";
    switch (v.kind) {
    case tx8be::OpCallValue::Kind::Int:
      s += std::to_string(v.integer);
      break;
    case tx8be::OpCallValue::Kind::Float:
      s += (std::ostringstream() << v.real).str();
      break;
    case tx8be::OpCallValue::Kind::Enumerator:
      s += v.enumerator;
      break;
    case tx8be::OpCallValue::Kind::StepPad:
      s += "pad[" + std::to_string(v.integer) + "]";
      break;
    case tx8be::OpCallValue::Kind::StepAccumulate:
      s += "step-accumulate";
      break;
    case tx8be::OpCallValue::Kind::IntArray:
      s += "{" + llvm::join(llvm::map_range(v.ints, [](int64_t i) { return std::to_string(i); }), ",") + "}";
      break;
    }
  }
  return s;
}

/// "in0 in1 null imm out0": the call's TSR arguments after &param.
std::string argsOf(const tx8be::OpCall &call) {
  std::string s;
  for (const tx8be::OpCallArg &a : call.args) {
    s += s.empty() ? "" : " ";
    switch (a.kind) {
    case tx8be::OpCallArg::Kind::Operand:
      s += "in" + std::to_string(a.index);
      break;
    case tx8be::OpCallArg::Kind::Result:
      s += "out" + std::to_string(a.index);
      break;
    case tx8be::OpCallArg::Kind::Imm:
      s += "imm";
      break;
    case tx8be::OpCallArg::Kind::Null:
      s += "null";
      break;
    case tx8be::OpCallArg::Kind::OperandArray:
      s += "ins[]";
      break;
    }
  }
  return s;
}

TEST_F(OpLibTest, GenOpCodeBatchNorm) {
  parse("%x: tensor<2x40x4x4xf32>, %s: tensor<40xf32>",
        bnIR("tensor<2x40x4x4xf32>", "tensor<40xf32>", "{layout_str = \"NHWC\", epsilon = 1.0e-3 : f32}"));
  auto bn = first<tx8be::BatchNorm_InferenceOp>();
  tx8be::OpCall call;
  ASSERT_TRUE(succeeded(bn.genOpCode(call))) << diagnostics;
  EXPECT_EQ(call.function, "op_batchnorm_inference");
  EXPECT_EQ(call.paramType, "BATCHNORM_INFER_PARAM");
  EXPECT_EQ(fieldsOf(call), "layout=LAYOUT_NTENSOR epsilon=0.001");
  EXPECT_EQ(argsOf(call), "in0 in1 in2 in3 in4 imm out0");
  // dev_info's layout wins over the default.
  tx8be::setDevInfoWithLayout(&ctx, bn, tx8be::LayoutMode::NCx);
  tx8be::OpCall ncx;
  ASSERT_TRUE(succeeded(bn.genOpCode(ncx)));
  EXPECT_EQ(fieldsOf(ncx), "layout=LAYOUT_NCX epsilon=0.001");
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
        "%7 = tx8be.Erf %a : (tensor<2x8xf32>) -> tensor<2x8xf32>\n"
        "%8 = tx8be.Gemm %a, %b : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>\n"
        "%9 = tx8be.Div %r, %a : (tensor<8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>");
  SmallVector<tx8be::GemmOp> gemms;
  module->walk([&](tx8be::GemmOp op) { gemms.push_back(op); });
  auto gen = [&](Operation *op, tx8be::OpCall &call) { return succeeded(oplib(op).genOpCode(call)); };
  tx8be::OpCall gemm, noBias;
  ASSERT_TRUE(gen(gemms[0], gemm)) << diagnostics;
  EXPECT_EQ(gemm.function, "op_gemm");
  EXPECT_EQ(fieldsOf(gemm), "accumulate=step-accumulate relu_en=0");
  EXPECT_EQ(argsOf(gemm), "in0 in1 in2 out0");
  ASSERT_TRUE(gen(gemms[2], noBias));
  EXPECT_EQ(argsOf(noBias), "in0 in1 null out0") << "no C: a NULL bias";
  tx8be::OpCall unused;
  EXPECT_FALSE(gen(gemms[1], unused)) << "alpha != 1 has no single op_gemm call";
  EXPECT_NE(diagnostics.find("has no OpLib kernel: op_gemm takes no transposes and alpha 1"), std::string::npos)
      << diagnostics;

  SmallVector<tx8be::AddOp> adds;
  module->walk([&](tx8be::AddOp op) { adds.push_back(op); });
  tx8be::OpCall add, mul, relu, sigmoid;
  ASSERT_TRUE(gen(adds[0], add));
  EXPECT_EQ(add.function, "op_add");
  EXPECT_EQ(add.paramType, "ELTWISE_PARAM");
  EXPECT_EQ(fieldsOf(add), "layout=LAYOUT_NTENSOR rnd=RND_NEAREST_EVEN");
  EXPECT_EQ(argsOf(add), "in0 in1 out0");
  // op_add broadcasts: the row vector's view is one row of the result's (its extents in the result's order).
  tx8be::OpCall broadcast;
  ASSERT_TRUE(gen(adds[1], broadcast)) << diagnostics;
  EXPECT_EQ(argsOf(broadcast), "in0 in1 out0");
  EXPECT_EQ(oplib(adds[1]).getOpLibViewShape(1, {8}), (SmallVector<int64_t>{1, 8}));
  EXPECT_EQ(oplib(adds[1]).getOpLibViewShape(0, {2, 8}), (SmallVector<int64_t>{2, 8}));
  EXPECT_FALSE(gen(first<tx8be::DivOp>(), unused)) << "op_div does not broadcast its numerator";
  EXPECT_NE(diagnostics.find("op_div does not broadcast the numerator where the denominator is full"),
            std::string::npos)
      << diagnostics;
  ASSERT_TRUE(gen(first<tx8be::MulOp>(), mul));
  EXPECT_EQ(mul.function, "op_mul");
  ASSERT_TRUE(gen(first<tx8be::ReluOp>(), relu));
  EXPECT_EQ(relu.function, "op_relu");
  EXPECT_EQ(argsOf(relu), "in0 out0");
  ASSERT_TRUE(gen(first<tx8be::SigmoidOp>(), sigmoid));
  EXPECT_EQ(sigmoid.function, "op_sigmoid");
  tx8be::OpCall erf;
  ASSERT_TRUE(gen(first<tx8be::ErfOp>(), erf)) << diagnostics;
  EXPECT_EQ(erf.function, "op_unary");
  EXPECT_EQ(erf.paramType, "UNARY_PARAM");
  EXPECT_NE(fieldsOf(erf).find("kind=UNARY_ERF alpha=0 beta=0"), std::string::npos) << fieldsOf(erf);
}

// QuantizeLinear / DequantizeLinear (issue 36): op_quantize_linear / op_dequantize_linear with an imm TSR, the
// per-axis scale and zero point viewed as a broadcasting kernel's operands, imm as OpLib sizes it.
TEST_F(OpLibTest, GenOpCodeQuantizeLinear) {
  parse("%x: tensor<1x3x4xf32>, %s: tensor<3x1xf32>, %z: tensor<3x1xui8>, %q: tensor<1x3x4xi8>, %zi: tensor<3x1xi8>",
        "%0 = tx8be.QuantizeLinear %x, %s, %z : (tensor<1x3x4xf32>, tensor<3x1xf32>, tensor<3x1xui8>) -> "
        "tensor<1x3x4xui8>\n"
        "%1 = tx8be.DequantizeLinear %q, %s, %zi : (tensor<1x3x4xi8>, tensor<3x1xf32>, tensor<3x1xi8>) -> "
        "tensor<1x3x4xf32>");
  auto gen = [&](Operation *op, tx8be::OpCall &call) { return succeeded(oplib(op).genOpCode(call)); };
  tx8be::OpCall q, d;
  auto quantize = first<tx8be::QuantizeLinearOp>();
  ASSERT_TRUE(gen(quantize, q)) << diagnostics;
  EXPECT_EQ(q.function, "op_quantize_linear");
  EXPECT_EQ(q.paramType, "QUANTIZE_PARAM");
  EXPECT_EQ(fieldsOf(q), "layout=LAYOUT_TENSOR");
  EXPECT_EQ(argsOf(q), "in0 in1 in2 imm out0");
  EXPECT_EQ(oplib(quantize).getOpLibViewShape(1, {3, 1}), (SmallVector<int64_t>{1, 3, 1}));
  ASSERT_TRUE(gen(first<tx8be::DequantizeLinearOp>(), d)) << diagnostics;
  EXPECT_EQ(d.function, "op_dequantize_linear");
  EXPECT_EQ(argsOf(d), "in0 in1 in2 imm out0");
  // imm: the fp32 work image of x's 12 elements, then the int32 zero points, each batch-aligned (quantize); the
  // fp32 zero points only (dequantize).
  uint64_t align = tx8_hw_batch_align_bytes(&kDefaultHw);
  auto up = [&](uint64_t b) { return (b + align - 1) / align * align; };
  EXPECT_EQ(oplib(quantize).getImmSpSize(kDefaultHw, {1, 3, 4}), up(48) + up(12));
  EXPECT_EQ(oplib(first<tx8be::DequantizeLinearOp>()).getImmSpSize(kDefaultHw, {1, 3, 4}), up(12));
}

// A batched MatMul is one op_gemm call per step (issue 34): every operand's view has the result's rank (numpy
// aligns batch dims from the right, so a lower-rank operand gets leading 1s), each matrix costs an NE problem, and a
// rank above OpLib's MAX_SHAPE_DIM is refused naming op_gemm.
TEST_F(OpLibTest, GenOpCodeBatchedMatMul) {
  parse("%a: tensor<2x3x4x8xf32>, %b: tensor<3x8x5xf32>, %x: tensor<1x1x1x1x2x2x4xf32>, %y: tensor<1x1x1x1x2x4x2xf32>",
        "%0 = tx8be.MatMul %a, %b : (tensor<2x3x4x8xf32>, tensor<3x8x5xf32>) -> tensor<2x3x4x5xf32>\n"
        "%1 = tx8be.MatMul %x, %y : (tensor<1x1x1x1x2x2x4xf32>, tensor<1x1x1x1x2x4x2xf32>) -> "
        "tensor<1x1x1x1x2x2x2xf32>");
  SmallVector<tx8be::MatMulOp> mms;
  module->walk([&](tx8be::MatMulOp op) { mms.push_back(op); });
  ASSERT_EQ(mms.size(), 2u);
  tx8be::OpCall call, unused;
  ASSERT_TRUE(succeeded(oplib(mms[0]).genOpCode(call))) << diagnostics;
  EXPECT_EQ(call.function, "op_gemm");
  EXPECT_EQ(argsOf(call), "in0 in1 null out0");
  // A step's boxes: A [1,3,4,8] as it is, B [3,8,5] (rank 3) as [1,3,8,5], the result [1,3,4,5].
  EXPECT_EQ(oplib(mms[0]).getOpLibViewShape(0, {1, 3, 4, 8}), (SmallVector<int64_t>{1, 3, 4, 8}));
  EXPECT_EQ(oplib(mms[0]).getOpLibViewShape(1, {3, 8, 5}), (SmallVector<int64_t>{1, 3, 8, 5}));
  EXPECT_EQ(oplib(mms[0]).getOpLibViewShape(2, {1, 3, 4, 5}), (SmallVector<int64_t>{1, 3, 4, 5}));
  // 6 matrices of 4 x 5 x 8 MACs, each with the NE's start-up.
  const tx8_hw_config &hw = kDefaultHw;
  EXPECT_EQ(oplib(mms[0]).getOpClockCycle(hw),
            6 * (hw.ne_startup_cycles + (4 * 5 * 8 + hw.ne_macs_per_cycle_fp32 - 1) / hw.ne_macs_per_cycle_fp32));
  EXPECT_FALSE(succeeded(oplib(mms[1]).genOpCode(unused)));
  EXPECT_NE(diagnostics.find("has no OpLib kernel: op_gemm takes at most 6 dims"), std::string::npos) << diagnostics;
}

TEST_F(OpLibTest, GenOpCodeConvPoolSoftmaxPermute) {
  parse("%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>, %s: tensor<2x5xf32>",
        "%0 = tx8be.Conv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 1>} : "
        "(tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x8xf32>\n"
        "%1 = tx8be.AvgPool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, count_include_pad = true} : "
        "(tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>\n"
        "%2 = tx8be.Softmax %s : (tensor<2x5xf32>) -> tensor<2x5xf32>\n"
        "%3 = tx8be.Softmax %s {axis = 0 : i64} : (tensor<2x5xf32>) -> tensor<2x5xf32>\n"
        "%4 = tx8be.ChannelNorm %x {layout_str = \"NHWC\"} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>");
  auto gen = [&](Operation *op, tx8be::OpCall &call) { return succeeded(oplib(op).genOpCode(call)); };
  tx8be::OpCall conv, pool, softmax, permute, unused;
  ASSERT_TRUE(gen(first<tx8be::ConvOp>(), conv)) << diagnostics;
  EXPECT_EQ(conv.function, "op_conv");
  // Padding is the step's own: a slice at a border keeps the op's pads there, an inner slice has none.
  EXPECT_EQ(fieldsOf(conv), "layout=LAYOUT_TENSOR stride_h=2 stride_w=1 dilation_h=1 dilation_w=1 pad_top=pad[0] "
                            "pad_left=pad[1] pad_bottom=pad[2] pad_right=pad[3] group=1 accumulate=step-accumulate relu_en=0");
  EXPECT_TRUE(conv.usesStepPads());
  EXPECT_EQ(argsOf(conv), "in0 in1 in2 out0");
  ASSERT_TRUE(gen(first<tx8be::AvgPoolOp>(), pool));
  EXPECT_EQ(pool.function, "op_avgpool");
  EXPECT_EQ(fieldsOf(pool), "layout=LAYOUT_TENSOR kernel_h=2 kernel_w=2 stride_h=2 stride_w=2 dilation_h=1 "
                            "dilation_w=1 pad_top=pad[0] pad_left=pad[1] pad_bottom=pad[2] pad_right=pad[3] "
                            "count_include_pad=1");
  SmallVector<tx8be::SoftmaxOp> softmaxes;
  module->walk([&](tx8be::SoftmaxOp op) { softmaxes.push_back(op); });
  ASSERT_TRUE(gen(softmaxes[0], softmax));
  EXPECT_EQ(argsOf(softmax), "in0 imm out0");
  EXPECT_FALSE(softmax.usesStepPads());
  EXPECT_GT(oplib(softmaxes[0]).getImmSpSize(kDefaultHw, {}), 0u) << "OpLib's op_softmax_imm_size";
  EXPECT_FALSE(gen(softmaxes[1], unused)) << "op_softmax normalises the innermost dim only";
  EXPECT_NE(diagnostics.find("op_softmax normalises the innermost dim in memory, axis 0 is not"), std::string::npos)
      << diagnostics;
  // NCHW -> NHWC: output dim k is the input's dim perm[k].
  ASSERT_TRUE(gen(first<tx8be::ChannelNormOp>(), permute)) << diagnostics;
  EXPECT_EQ(permute.function, "op_permute");
  EXPECT_EQ(fieldsOf(permute), "perm={0,2,3,1}");
}

// OpLibInterface is attached per op family (OpLib.cpp): a compute op without a model would be skipped by every
// pass that asks isa<OpLibInterface> (grouping, loads/stores, layouts) and by codegen.
TEST_F(OpLibTest, EveryComputeOpHasItsOpLibModel) {
  int computeOps = 0;
  for (RegisteredOperationName name : ctx.getRegisteredOperations()) {
    if (name.getDialectNamespace() != "tx8be")
      continue;
    bool compute = name.hasInterface<tx8be::ShapeInferenceOpInterface>();
    computeOps += compute;
    EXPECT_EQ(name.hasInterface<tx8be::OpLibInterface>(), compute)
        << name.getStringRef().str() << (compute ? " has no OpLibInterface model" : " is no compute op");
  }
  EXPECT_GT(computeOps, 50);
}

// Each family's model: the elementwise ops are the layout-agnostic ones (isLayoutAgnostic), OpLib's view of a
// tensor is the family's, ops without a kernel fail with the one message.
TEST_F(OpLibTest, FamilyModels) {
  parse("%a: tensor<2x8xf32>, %x: tensor<1x2x3x4x5xf32>, %w: tensor<4x3x3x3xf32>, %i: tensor<1x3x8x8xf32>",
        "%0 = tx8be.HardSigmoid %a : (tensor<2x8xf32>) -> tensor<2x8xf32>\n"
        "%1 = tx8be.Pow %a, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>\n"
        "%2 = tx8be.LogSoftmax %x : (tensor<1x2x3x4x5xf32>) -> tensor<1x2x3x4x5xf32>\n"
        "%3 = tx8be.Conv %i, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>\n"
        "%4 = tx8be.ChannelNorm %x : (tensor<1x2x3x4x5xf32>) -> tensor<1x2x3x4x5xf32>\n"
        "%5 = tx8be.GlobalMaxPool %i : (tensor<1x3x8x8xf32>) -> tensor<1x3x1x1xf32>\n"
        "%6 = tx8be.Elu %a : (tensor<2x8xf32>) -> tensor<2x8xf32>");
  Operation *hardSigmoid = first<tx8be::HardSigmoidOp>(), *pow = first<tx8be::PowOp>();
  Operation *logSoftmax = first<tx8be::LogSoftmaxOp>(), *conv = first<tx8be::ConvOp>();
  Operation *channelNorm = first<tx8be::ChannelNormOp>(), *globalMax = first<tx8be::GlobalMaxPoolOp>();
  EXPECT_TRUE(oplib(hardSigmoid).queryOpAttr().anyDimOrder);
  EXPECT_TRUE(oplib(pow).queryOpAttr().anyDimOrder);
  EXPECT_TRUE(tx8be::isLayoutAgnostic(pow));
  EXPECT_FALSE(oplib(conv).queryOpAttr().anyDimOrder);
  EXPECT_FALSE(tx8be::isLayoutAgnostic(conv));
  EXPECT_EQ(tx8be::detail::opLibViewShape(logSoftmax, 0, {1, 2, 3, 4, 5}), (SmallVector<int64_t>{1, 24, 5}));
  EXPECT_EQ(tx8be::detail::opLibViewShape(channelNorm, 0, {1, 2, 3, 4, 5}), (SmallVector<int64_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(tx8be::detail::opLibViewShape(conv, 0, {1, 2, 3, 4, 5}), (SmallVector<int64_t>{1, 24, 5}));
  EXPECT_EQ(oplib(logSoftmax).getImmSpSize(kDefaultHw, {}), 0u);
  tx8be::OpCall hard;
  ASSERT_TRUE(succeeded(oplib(hardSigmoid).genOpCode(hard))) << diagnostics;
  EXPECT_EQ(hard.paramType, "HARD_SIGMOID_PARAM");
  EXPECT_EQ(fieldsOf(hard), "layout=LAYOUT_NTENSOR rnd=RND_NEAREST_EVEN alpha=0.2 beta=0.5");
  // Elu and Pow run as op_unary / op_pow; LogSoftmax and GlobalMaxPool only after tx8be-decompose.
  tx8be::OpCall elu, power, unused;
  ASSERT_TRUE(succeeded(oplib(first<tx8be::EluOp>()).genOpCode(elu))) << diagnostics;
  EXPECT_EQ(elu.function, "op_unary");
  EXPECT_NE(fieldsOf(elu).find("kind=UNARY_ELU alpha=1 beta=0"), std::string::npos) << fieldsOf(elu);
  ASSERT_TRUE(succeeded(oplib(pow).genOpCode(power))) << diagnostics;
  EXPECT_EQ(power.function, "op_pow");
  for (Operation *op : {logSoftmax, globalMax}) {
    diagnostics.clear();
    EXPECT_TRUE(failed(oplib(op).genOpCode(unused)));
    EXPECT_NE(diagnostics.find("has no OpLib kernel (codegen supports BatchNorm"), std::string::npos) << diagnostics;
  }
}

} // namespace
