//===- ShapeInferenceTest.cpp - ShapeInferenceOpInterface -----------------===//
//
// inferShapes refines dynamic result extents from the operands (broadcasting, conv, pool, transpose, ...);
// computeResultTypes rejects inconsistent operands with a message; inferLayout propagates layout_str.
//
//===----------------------------------------------------------------------===//
#include "TestUtils.h"

#include "mlir/IR/Verifier.h"

using namespace mlir;
using tx8test::IRTest;

namespace {

using ShapeInferenceTest = IRTest;

std::string typeStr(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

/// Runs inferShapes on `op` and returns its (single) result type as a string.
template <typename OpT> std::string inferFirst(OpT op) {
  tx8be::DynamicShapeParam param;
  auto iface = cast<tx8be::ShapeInferenceOpInterface>(op.getOperation());
  if (failed(iface.inferShapes(param)))
    return "failure";
  return typeStr(op->getResult(0).getType());
}

TEST_F(ShapeInferenceTest, BroadcastingRefinesDynamicExtents) {
  parse("%a: tensor<2x1x4xf32>, %b: tensor<3x1xf32>",
        "%0 = tx8be.Add %a, %b : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<?x?x?xf32>");
  EXPECT_EQ(inferFirst(first<tx8be::AddOp>()), "tensor<2x3x4xf32>");
}

TEST_F(ShapeInferenceTest, BroadcastingKeepsKnownExtentsForDynamicOperands) {
  // The operand's dynamic dim gives no information: the result's static 5 is kept.
  parse("%a: tensor<?x4xf32>, %b: tensor<4xf32>",
        "%0 = tx8be.Mul %a, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<5x?xf32>");
  EXPECT_EQ(inferFirst(first<tx8be::MulOp>()), "tensor<5x4xf32>");
}

TEST_F(ShapeInferenceTest, IncompatibleBroadcastIsAnError) {
  // Built without verification so that the bad op exists; computeResultTypes must reject it.
  parse("%a: tensor<2x3xf32>, %b: tensor<4x3xf32>", "");
  OpBuilder b(&ctx);
  auto func = first<func::FuncOp>();
  b.setInsertionPointToStart(&func.getBody().front());
  auto add = b.create<tx8be::AddOp>(b.getUnknownLoc(), TypeRange{RankedTensorType::get({2, 3}, b.getF32Type())},
                                    func.getArguments(), ArrayRef<NamedAttribute>{});
  SmallVector<Type> types;
  EXPECT_TRUE(failed(cast<tx8be::ShapeInferenceOpInterface>(add.getOperation()).computeResultTypes(types)));
  EXPECT_NE(diagnostics.find("operand shapes 2x3 and 4x3 are not broadcast-compatible (result dim 0)"),
            std::string::npos)
      << diagnostics;
  EXPECT_TRUE(failed(verify(add)));
}

TEST_F(ShapeInferenceTest, Conv2dStridedPaddedDilatedGrouped) {
  // H: (9 + 1 + 1 - 3) / 2 + 1 = 5; W: (9 - (3 - 1) * 2 - 1) / 2 + 1 = 3; O = 6.
  parse("%x: tensor<1x4x9x9xf32>, %w: tensor<6x2x3x3xf32>",
        "%0 = tx8be.Conv %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 1, 0, 1, 0>, "
        "dilations = array<i64: 1, 2>, group = 2 : i64} : (tensor<1x4x9x9xf32>, tensor<6x2x3x3xf32>) -> "
        "tensor<?x?x?x?xf32>");
  EXPECT_EQ(inferFirst(first<tx8be::ConvOp>()), "tensor<1x6x5x3xf32>");
}

TEST_F(ShapeInferenceTest, Conv1dAndConv3d) {
  parse("%x: tensor<2x3x10xf16>, %w: tensor<5x3x4xf16>, %y: tensor<1x2x5x6x7xf32>, %v: tensor<4x2x3x3x3xf32>",
        "%0 = tx8be.Conv %x, %w {pads = array<i64: 2, 1>} : (tensor<2x3x10xf16>, tensor<5x3x4xf16>) -> tensor<?x?x?xf16>\n"
        "%1 = tx8be.Conv %y, %v {strides = array<i64: 1, 2, 3>} : (tensor<1x2x5x6x7xf32>, tensor<4x2x3x3x3xf32>) "
        "-> tensor<?x?x?x?x?xf32>");
  SmallVector<tx8be::ConvOp> convs;
  module->walk([&](tx8be::ConvOp op) { convs.push_back(op); });
  ASSERT_EQ(convs.size(), 2u);
  EXPECT_EQ(inferFirst(convs[0]), "tensor<2x5x10xf16>"); // 10 + 3 - 4 + 1
  EXPECT_EQ(inferFirst(convs[1]), "tensor<1x4x3x2x2xf32>");
}

TEST_F(ShapeInferenceTest, ConvTransposeOutputSize) {
  // (5 - 1) * 2 + (3 - 1) * 1 + 1 + 1 - 1 - 0 = 11; O = 3 * group 2.
  parse("%x: tensor<1x4x5x5xf32>, %w: tensor<4x3x3x3xf32>",
        "%0 = tx8be.ConvTranspose %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>, "
        "output_padding = array<i64: 1, 1>, group = 2 : i64} : (tensor<1x4x5x5xf32>, tensor<4x3x3x3xf32>) -> "
        "tensor<?x?x?x?xf32>");
  EXPECT_EQ(inferFirst(first<tx8be::ConvTransposeOp>()), "tensor<1x6x11x11xf32>");
}

TEST_F(ShapeInferenceTest, PoolFloorAndCeilMode) {
  // floor((8 + 0 - 3) / 2) + 1 = 3; ceil mode: ceil(5 / 2) + 1 = 4 (the last window starts at 6 < 8).
  parse("%x: tensor<1x3x8x8xf32>",
        "%0 = tx8be.MaxPool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>} : "
        "(tensor<1x3x8x8xf32>) -> tensor<?x?x?x?xf32>\n"
        "%1 = tx8be.AvgPool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, ceil_mode = true} : "
        "(tensor<1x3x8x8xf32>) -> tensor<?x?x?x?xf32>\n"
        "%2 = tx8be.GlobalAvgPool %x : (tensor<1x3x8x8xf32>) -> tensor<?x?x?x?xf32>");
  EXPECT_EQ(inferFirst(first<tx8be::MaxPoolOp>()), "tensor<1x3x3x3xf32>");
  EXPECT_EQ(inferFirst(first<tx8be::AvgPoolOp>()), "tensor<1x3x4x4xf32>");
  EXPECT_EQ(inferFirst(first<tx8be::GlobalAvgPoolOp>()), "tensor<1x3x1x1xf32>");
}

TEST_F(ShapeInferenceTest, CeilModeDropsAWindowStartingInThePadding) {
  // in 5, k 2, s 2, pad end 1: ceil((5 + 1 - 2) / 2) + 1 = 3 windows; the third starts at 4 < 5: kept.
  // in 4, k 2, s 2, pad end 1: ceil((4 + 1 - 2) / 2) + 1 = 3, but the third would start at 4 >= 4: dropped.
  parse("%x: tensor<1x1x5x4xf32>",
        "%0 = tx8be.MaxPool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, "
        "pads = array<i64: 0, 0, 1, 1>, ceil_mode = true} : (tensor<1x1x5x4xf32>) -> tensor<?x?x?x?xf32>");
  EXPECT_EQ(inferFirst(first<tx8be::MaxPoolOp>()), "tensor<1x1x3x2xf32>");
}

TEST_F(ShapeInferenceTest, TransposeReduceGatherConcatSlicePad) {
  parse("%x: tensor<2x3x4xf32>, %i: tensor<5xi32>, %y: tensor<2x7x4xf32>",
        "%0 = tx8be.Transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<?x?x?xf32>\n"
        "%1 = tx8be.ReduceSum %x {axes = array<i64: -1, 0>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<?xf32>\n"
        "%2 = tx8be.Gather %x, %i {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<5xi32>) -> tensor<?x?x?xf32>\n"
        "%3 = tx8be.Concat %x, %y {axis = -2 : i64} : (tensor<2x3x4xf32>, tensor<2x7x4xf32>) -> tensor<?x?x?xf32>\n"
        "%4 = tx8be.Slice %x {offsets = array<i64: 1, 2, 0>, sizes = array<i64: 1, 3, 2>, strides = array<i64: 1, -1, 3>}"
        " : (tensor<2x3x4xf32>) -> tensor<?x?x?xf32>\n"
        "%5 = tx8be.Pad %x {pads = array<i64: 1, 0, 2, 0, 3, 1>} : (tensor<2x3x4xf32>) -> tensor<?x?x?xf32>");
  EXPECT_EQ(inferFirst(first<tx8be::TransposeOp>()), "tensor<4x2x3xf32>");
  EXPECT_EQ(inferFirst(first<tx8be::ReduceSumOp>()), "tensor<3xf32>");
  EXPECT_EQ(inferFirst(first<tx8be::GatherOp>()), "tensor<2x5x4xf32>");
  EXPECT_EQ(inferFirst(first<tx8be::ConcatOp>()), "tensor<2x10x4xf32>");
  EXPECT_EQ(inferFirst(first<tx8be::SliceOp>()), "tensor<1x3x2xf32>");
  EXPECT_EQ(inferFirst(first<tx8be::PadOp>()), "tensor<3x6x7xf32>");
}

TEST_F(ShapeInferenceTest, ReshapeInfersTheOneDynamicExtent) {
  parse("%x: tensor<2x3x4xf32>", "%0 = tx8be.Reshape %x : (tensor<2x3x4xf32>) -> tensor<6x?xf32>");
  EXPECT_EQ(inferFirst(first<tx8be::ReshapeOp>()), "tensor<6x4xf32>");
}

TEST_F(ShapeInferenceTest, GemmAndMatMul) {
  parse("%a: tensor<5x3xf32>, %b: tensor<4x5xf32>, %c: tensor<1x4xf32>, %p: tensor<7x1x3x5xf32>, %q: tensor<2x5x6xf32>",
        "%0 = tx8be.Gemm %a, %b, %c {transA = true, transB = true} : (tensor<5x3xf32>, tensor<4x5xf32>, "
        "tensor<1x4xf32>) -> tensor<?x?xf32>\n"
        "%1 = tx8be.MatMul %p, %q : (tensor<7x1x3x5xf32>, tensor<2x5x6xf32>) -> tensor<?x?x?x?xf32>");
  EXPECT_EQ(inferFirst(first<tx8be::GemmOp>()), "tensor<3x4xf32>");
  EXPECT_EQ(inferFirst(first<tx8be::MatMulOp>()), "tensor<7x2x3x6xf32>");
}

TEST_F(ShapeInferenceTest, BatchNormKeepsTheInputType) {
  parse("%x: tensor<2x4x3xf16>, %s: tensor<4xf32>",
        "%0 = tx8be.BatchNorm_Inference %x, %s, %s, %s, %s : (tensor<2x4x3xf16>, tensor<4xf32>, tensor<4xf32>, "
        "tensor<4xf32>, tensor<4xf32>) -> tensor<?x?x?xf16>");
  EXPECT_EQ(inferFirst(first<tx8be::BatchNorm_InferenceOp>()), "tensor<2x4x3xf16>");
}

TEST_F(ShapeInferenceTest, InferLayoutPropagatesLayoutStrAndDevInfo) {
  parse("%x: tensor<1x4x8x8xf32>, %s: tensor<4xf32>",
        "%0 = tx8be.Relu %x {layout_str = \"NCHW\", dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = "
        "#tx8be.layout<NCx>, imm_addr = -1, mem_addr = []>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>\n"
        "%1 = tx8be.BatchNorm_Inference %0, %s, %s, %s, %s : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, "
        "tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>\n"
        "%2 = tx8be.Transpose %1 {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x8x8x4xf32>\n"
        "%3 = tx8be.Reshape %2 : (tensor<1x8x8x4xf32>) -> tensor<64x4xf32>\n"
        "%4 = tx8be.Sigmoid %3 : (tensor<64x4xf32>) -> tensor<64x4xf32>");
  auto bn = first<tx8be::BatchNorm_InferenceOp>();
  EXPECT_EQ(tx8be::getLayoutStr(bn), "Unknown");
  ASSERT_TRUE(succeeded(bn.inferLayout()));
  EXPECT_EQ(tx8be::getLayoutStr(bn), "NCHW");
  ASSERT_TRUE(tx8be::getDevInfoLayoutMode(bn).has_value());
  EXPECT_EQ(*tx8be::getDevInfoLayoutMode(bn), tx8be::LayoutMode::NCx);
  // NCHW --(0, 2, 3, 1)--> NHWC
  auto transpose = first<tx8be::TransposeOp>();
  ASSERT_TRUE(succeeded(transpose.inferLayout()));
  EXPECT_EQ(tx8be::getLayoutStr(transpose), "NHWC");
  // Reshape stops propagation (seed), and so the layout of its user cannot be derived either.
  EXPECT_TRUE(failed(first<tx8be::ReshapeOp>().inferLayout()));
  EXPECT_EQ(tx8be::getLayoutStr(first<tx8be::SigmoidOp>()), "Unknown");
}

TEST_F(ShapeInferenceTest, BatchNormChannelDimIsOneWhateverTheLayout) {
  // layout_str is the device image's dim order (DeviceLayout.h): a channel-last image keeps the ONNX shape,
  // channel dim 1, and so does the identity.
  parse("%x: tensor<2x3x5x5xf32>, %s: tensor<3xf32>, %t: tensor<1x3x1x1xf32>",
        "%0 = tx8be.BatchNorm_Inference %x, %s, %s, %s, %s {layout_str = \"NHWC\"} : (tensor<2x3x5x5xf32>, "
        "tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x5x5xf32>\n"
        "%1 = tx8be.BatchNorm_Inference %x, %t, %t, %t, %t {layout_str = \"NCHW\"} : (tensor<2x3x5x5xf32>, "
        "tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>) -> tensor<2x3x5x5xf32>");
  SmallVector<tx8be::BatchNorm_InferenceOp> bns;
  module->walk([&](tx8be::BatchNorm_InferenceOp op) { bns.push_back(op); });
  ASSERT_EQ(bns.size(), 2u);
  EXPECT_EQ(bns[0].getChannelDim(), 1);
  EXPECT_EQ(bns[1].getChannelDim(), 1);
}

} // namespace
