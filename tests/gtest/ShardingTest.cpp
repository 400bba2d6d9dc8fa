//===- ShardingTest.cpp - ShardingInterface -------------------------------===//
//
// BatchNorm_Inference's tileShardingSplit on the seed's cases (shard only C, split only outside C, the four
// per-channel operands never split), temporalSliceShape and backWindow; the generic rules of other ops.
//
//===----------------------------------------------------------------------===//
#include "TestUtils.h"

using namespace mlir;
using tx8test::IRTest;

namespace {

using V = std::vector<int32_t>;
using V64 = std::vector<int64_t>;

class ShardingTest : public IRTest {
protected:
  /// The seed's case: its NHWC 4 x 112 x 2 x 30 (C = 30) in ONNX order, 4 x 30 x 112 x 2, with a channel-last
  /// device image and the seed's per-channel vectors (1x1x1xC there, 1xCx1x1 here). Sharding and split
  /// factors are per logical (NCHW) dim.
  tx8be::BatchNorm_InferenceOp seedBatchNorm() {
    parse("%x: tensor<4x30x112x2xf32>, %s: tensor<1x30x1x1xf32>",
          "%0 = tx8be.BatchNorm_Inference %x, %s, %s, %s, %s {layout_str = \"NHWC\"} : (tensor<4x30x112x2xf32>, "
          "tensor<1x30x1x1xf32>, tensor<1x30x1x1xf32>, tensor<1x30x1x1xf32>, tensor<1x30x1x1xf32>) -> "
          "tensor<4x30x112x2xf32>");
    return first<tx8be::BatchNorm_InferenceOp>();
  }

  std::vector<tx8be::ShardingSplitParam> split(Operation *op, V sharding, V splitFactors) {
    tx8be::ShardingSplitParam p{std::move(sharding), std::move(splitFactors)};
    return cast<tx8be::ShardingInterface>(op).tileShardingSplit(p);
  }
};

TEST_F(ShardingTest, BatchNormShardingOnChannelIsKept) {
  auto bn = seedBatchNorm();
  auto r = split(bn, {1, 2, 1, 1}, {2, 1, 4, 1});
  ASSERT_EQ(r.size(), 5u); // input, scale, shift, mean, var
  EXPECT_EQ(r[0].outSharding, V({1, 2, 1, 1}));
  EXPECT_EQ(r[0].outSplit, V({2, 1, 4, 1}));
  for (int i = 1; i <= 4; ++i) {
    EXPECT_EQ(r[i].outSharding, V({1, 2, 1, 1})) << "param " << i;
    EXPECT_EQ(r[i].outSplit, V({1, 1, 1, 1})) << "param " << i;
  }
}

TEST_F(ShardingTest, BatchNormShardingOnNHWIsCleared) {
  auto bn = seedBatchNorm();
  for (V sharding : {V{2, 1, 1, 1}, V{1, 1, 2, 1}, V{1, 1, 1, 2}, V{2, 2, 1, 1}}) {
    auto r = split(bn, sharding, {1, 1, 1, 1});
    ASSERT_EQ(r.size(), 5u);
    EXPECT_TRUE(r[0].outSharding.empty()) << "sharding " << sharding[0] << sharding[1] << sharding[2] << sharding[3];
    EXPECT_EQ(r[0].outSplit, V({1, 1, 1, 1}));
    for (int i = 1; i <= 4; ++i) {
      EXPECT_TRUE(r[i].outSharding.empty());
      EXPECT_EQ(r[i].outSplit, V({1, 1, 1, 1}));
    }
  }
}

TEST_F(ShardingTest, BatchNormSplitOnChannelIsCleared) {
  auto bn = seedBatchNorm();
  auto r = split(bn, {1, 3, 1, 1}, {1, 2, 2, 1});
  ASSERT_EQ(r.size(), 5u);
  EXPECT_TRUE(r[0].outSplit.empty());
  EXPECT_EQ(r[0].outSharding, V({1, 3, 1, 1})); // the sharding alone is fine
  for (int i = 1; i <= 4; ++i)
    EXPECT_EQ(r[i].outSplit, V({1, 1, 1, 1}));
}

TEST_F(ShardingTest, BatchNormNchwShardsDimOne) {
  parse("%x: tensor<2x8x4x4xf32>, %s: tensor<8xf32>",
        "%0 = tx8be.BatchNorm_Inference %x, %s, %s, %s, %s : (tensor<2x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, "
        "tensor<8xf32>, tensor<8xf32>) -> tensor<2x8x4x4xf32>");
  auto bn = first<tx8be::BatchNorm_InferenceOp>();
  auto kept = split(bn, {1, 4, 1, 1}, {2, 1, 1, 2});
  EXPECT_EQ(kept[0].outSharding, V({1, 4, 1, 1}));
  EXPECT_EQ(kept[0].outSplit, V({2, 1, 1, 2}));
  auto cleared = split(bn, {1, 1, 1, 4}, {1, 2, 1, 1});
  EXPECT_TRUE(cleared[0].outSharding.empty());
  EXPECT_TRUE(cleared[0].outSplit.empty());
  // Factors of the wrong rank are not a request.
  EXPECT_TRUE(split(bn, {1, 4}, {1, 1}).empty());
}

TEST_F(ShardingTest, BatchNormTemporalSliceShape) {
  auto bn = seedBatchNorm();
  tx8be::SliceParam p{{1, 2, 1, 1}, {2, 1, 8, 1}, {}};
  auto r = bn.temporalSliceShape(p);
  ASSERT_EQ(r.size(), 6u); // 5 operands + output
  EXPECT_EQ(r[0].sliceShape, V64({2, 15, 14, 2}));
  for (int i = 1; i <= 4; ++i)
    EXPECT_EQ(r[i].sliceShape, V64({1, 15, 1, 1})) << "param " << i;
  EXPECT_EQ(r[5].sliceShape, V64({2, 15, 14, 2}));
  // An illegal request (split on C) has no slice shape.
  tx8be::SliceParam bad{{1, 1, 1, 1}, {1, 2, 1, 1}, {}};
  EXPECT_TRUE(bn.temporalSliceShape(bad).empty());
}

TEST_F(ShardingTest, BatchNormBackWindowReadsItsChannels) {
  auto bn = seedBatchNorm();
  tx8be::WindowParam out{{1, 8, 10, 0}, {2, 7, 20, 2}, {}, {}};
  auto r = bn.backWindow(out);
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[0].start, out.start);
  EXPECT_EQ(r[0].size, out.size);
  EXPECT_EQ(r[1].start, V64({0, 8, 0, 0}));
  EXPECT_EQ(r[1].size, V64({1, 7, 1, 1}));
}

TEST_F(ShardingTest, ElementwiseBroadcastOperandsTakeOnlyTheirOwnDims) {
  parse("%a: tensor<4x6x8xf32>, %b: tensor<6x1xf32>",
        "%0 = tx8be.Add %a, %b : (tensor<4x6x8xf32>, tensor<6x1xf32>) -> tensor<4x6x8xf32>");
  auto add = first<tx8be::AddOp>();
  auto r = split(add, {2, 3, 2}, {1, 1, 4});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].outSharding, V({2, 3, 2}));
  EXPECT_EQ(r[0].outSplit, V({1, 1, 4}));
  EXPECT_EQ(r[1].outSharding, V({3, 1})); // [6, 1] follows output dims 1 and (broadcast) none
  EXPECT_EQ(r[1].outSplit, V({1, 1}));

  tx8be::SliceParam p{{2, 3, 2}, {1, 1, 4}, {}};
  auto slices = cast<tx8be::ShardingInterface>(add.getOperation()).temporalSliceShape(p);
  ASSERT_EQ(slices.size(), 3u);
  EXPECT_EQ(slices[0].sliceShape, V64({2, 2, 1}));
  EXPECT_EQ(slices[1].sliceShape, V64({2, 1}));
  EXPECT_EQ(slices[2].sliceShape, V64({2, 2, 1}));
}

TEST_F(ShardingTest, SoftmaxAxisCannotBeDivided) {
  parse("%a: tensor<4x16xf32>", "%0 = tx8be.Softmax %a {axis = 1 : i64} : (tensor<4x16xf32>) -> tensor<4x16xf32>");
  auto softmax = first<tx8be::SoftmaxOp>();
  auto ok = split(softmax, {4, 1}, {1, 1});
  EXPECT_EQ(ok[0].outSharding, V({4, 1}));
  auto bad = split(softmax, {1, 2}, {1, 1});
  EXPECT_TRUE(bad[0].outSharding.empty());
  EXPECT_EQ(bad[0].outSplit, V({1, 1}));
}

TEST_F(ShardingTest, GemmShardsRowsOfAAndColumnsOfB) {
  parse("%a: tensor<8x16xf32>, %b: tensor<32x16xf32>, %c: tensor<32xf32>",
        "%0 = tx8be.Gemm %a, %b, %c {transB = true} : (tensor<8x16xf32>, tensor<32x16xf32>, tensor<32xf32>) -> "
        "tensor<8x32xf32>");
  auto r = split(first<tx8be::GemmOp>(), {2, 4}, {1, 2});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].outSharding, V({2, 1})); // A: M x K
  EXPECT_EQ(r[1].outSharding, V({4, 1})); // B^T: N x K
  EXPECT_EQ(r[1].outSplit, V({2, 1}));
  EXPECT_EQ(r[2].outSharding, V({4}));    // bias: N
}

TEST_F(ShardingTest, ConvShardsBatchAndOutputChannelsOnly) {
  parse("%x: tensor<2x4x9x9xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<8xf32>",
        "%0 = tx8be.Conv %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : "
        "(tensor<2x4x9x9xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>) -> tensor<2x8x5x5xf32>");
  auto conv = first<tx8be::ConvOp>();
  auto r = split(conv, {2, 4, 1, 1}, {1, 1, 1, 1});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].outSharding, V({2, 1, 1, 1}));
  EXPECT_EQ(r[1].outSharding, V({4, 1, 1, 1}));
  EXPECT_EQ(r[2].outSharding, V({4}));
  EXPECT_TRUE(split(conv, {1, 1, 2, 1}, {1, 1, 1, 1})[0].outSharding.empty());

  // Output rows 1..2 (stride 2, kernel 3, pad 1) read input rows 1..5; row 0 at the top needs one pad row.
  tx8be::WindowParam out{{0, 0, 1, 0}, {2, 8, 2, 1}, {}, {}};
  auto w = cast<tx8be::ShardingInterface>(conv.getOperation()).backWindow(out);
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0].start, V64({0, 0, 1, 0}));
  EXPECT_EQ(w[0].size, V64({2, 4, 5, 2}));
  EXPECT_EQ(w[0].padLow, V64({0, 0, 0, 1}));
  EXPECT_EQ(w[0].padHigh, V64({0, 0, 0, 0}));
  EXPECT_EQ(w[1].start, V64({0, 0, 0, 0}));
  EXPECT_EQ(w[1].size, V64({8, 4, 3, 3}));
}

TEST_F(ShardingTest, PoolWindowAtTheBottomBorderOverlapsThePadding) {
  parse("%x: tensor<1x3x7x7xf32>",
        "%0 = tx8be.MaxPool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, "
        "pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x7x7xf32>) -> tensor<1x3x4x4xf32>");
  auto pool = first<tx8be::MaxPoolOp>();
  tx8be::WindowParam out{{0, 1, 3, 0}, {1, 2, 1, 4}, {}, {}};
  auto w = cast<tx8be::ShardingInterface>(pool.getOperation()).backWindow(out);
  ASSERT_EQ(w.size(), 1u);
  // Row 3 reads padded rows 6..8 = input rows 5, 6 and the bottom pad row; cols 0..3 read padded -1..7 + 1:
  // the whole input and one pad column on each side. N and C follow the output window.
  EXPECT_EQ(w[0].start, V64({0, 1, 5, 0}));
  EXPECT_EQ(w[0].size, V64({1, 2, 2, 7}));
  EXPECT_EQ(w[0].padLow, V64({0, 0, 0, 1}));
  EXPECT_EQ(w[0].padHigh, V64({0, 0, 1, 1}));
}

TEST_F(ShardingTest, TransposeAndReduceMapDims) {
  parse("%x: tensor<2x3x4xf32>",
        "%0 = tx8be.Transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>\n"
        "%1 = tx8be.ReduceSum %x {axes = array<i64: 1>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>");
  auto t = split(first<tx8be::TransposeOp>(), {4, 2, 1}, {1, 1, 3});
  EXPECT_EQ(t[0].outSharding, V({2, 1, 4}));
  EXPECT_EQ(t[0].outSplit, V({1, 3, 1}));
  auto r = split(first<tx8be::ReduceSumOp>(), {2, 4}, {1, 1});
  EXPECT_EQ(r[0].outSharding, V({2, 1, 4}));
}

TEST_F(ShardingTest, OpsWithoutARuleAcceptOnlyTrivialFactors) {
  parse("%x: tensor<2x3x4xf32>", "%0 = tx8be.Reshape %x : (tensor<2x3x4xf32>) -> tensor<6x4xf32>");
  auto reshape = first<tx8be::ReshapeOp>();
  EXPECT_EQ(split(reshape, {1, 1}, {1, 1})[0].outSharding, V({1, 1, 1}));
  EXPECT_TRUE(split(reshape, {2, 1}, {1, 1})[0].outSharding.empty());
  tx8be::WindowParam out{{2, 0}, {2, 4}, {}, {}};
  auto w = cast<tx8be::ShardingInterface>(reshape.getOperation()).backWindow(out);
  EXPECT_EQ(w[0].start, V64({0, 0, 0}));
  EXPECT_EQ(w[0].size, V64({2, 3, 4}));
}

} // namespace
