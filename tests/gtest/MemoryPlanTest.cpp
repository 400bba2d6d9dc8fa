//===- MemoryPlanTest.cpp - Buffer allocation and device images -----------===//
//
// BufferAllocator (SPM / DDR offsets from lifetimes) and DeviceImage (host tensors to device images and back),
// the two pieces of the backend that are plain arithmetic.
//
//===----------------------------------------------------------------------===//
#include "tx8/Codegen/DeviceImage.h"
#include "tx8/Transforms/BufferAllocator.h"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <random>

using namespace tx8be;
using namespace tx8::codegen;

namespace {

/// No two buffers live at the same time may overlap in memory.
void expectNoConflicts(const std::vector<BufferRequest> &r, const BufferPlan &plan) {
  for (size_t i = 0; i < r.size(); ++i)
    for (size_t j = i + 1; j < r.size(); ++j) {
      bool live = r[i].first <= r[j].last && r[j].first <= r[i].last;
      bool overlap = plan.offsets[i] < plan.offsets[j] + r[j].bytes && plan.offsets[j] < plan.offsets[i] + r[i].bytes;
      EXPECT_FALSE(live && overlap && r[i].bytes && r[j].bytes) << "buffers " << i << " and " << j;
    }
}

TEST(BufferAllocatorTest, OverlappingLifetimesGetDisjointRanges) {
  std::vector<BufferRequest> r = {{0, 2, 1000}, {1, 3, 300}, {2, 2, 256}};
  BufferPlan plan = allocateBuffers(r, 256);
  // Largest first at 0; 300 bytes at the next 256 boundary after 1000; 256 bytes after that.
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{0, 1024, 1536}));
  EXPECT_EQ(plan.totalBytes, 1792u);
  expectNoConflicts(r, plan);
}

TEST(BufferAllocatorTest, DisjointLifetimesShareMemory) {
  std::vector<BufferRequest> r = {{0, 1, 4096}, {2, 3, 4096}, {1, 2, 100}};
  BufferPlan plan = allocateBuffers(r, 4096);
  EXPECT_EQ(plan.offsets[0], 0u);
  EXPECT_EQ(plan.offsets[1], 0u) << "dead by the time the second is born";
  EXPECT_EQ(plan.offsets[2], 4096u);
  EXPECT_EQ(plan.totalBytes, 4196u);
}

TEST(BufferAllocatorTest, FillsAGapBeforeALaterBuffer) {
  // 0 holds [0, 512), 1 holds [1024, 2048) and 2 (256 bytes) fits in between.
  std::vector<BufferRequest> r = {{0, 5, 1024}, {0, 5, 512}, {0, 0, 256}, {1, 5, 1024}};
  BufferPlan plan = allocateBuffers(r, 256);
  expectNoConflicts(r, plan);
  EXPECT_EQ(plan.totalBytes, 1024u + 1024u + 512u);
}

TEST(BufferAllocatorTest, RandomPlansAreValidAndDeterministic) {
  std::mt19937 rng(7);
  for (int round = 0; round < 50; ++round) {
    std::vector<BufferRequest> r;
    for (int i = 0; i < 30; ++i) {
      int64_t a = rng() % 20, b = a + rng() % 5;
      r.push_back({a, b, rng() % 5000});
    }
    BufferPlan plan = allocateBuffers(r, 64);
    expectNoConflicts(r, plan);
    for (uint64_t o : plan.offsets)
      EXPECT_EQ(o % 64, 0u);
    EXPECT_EQ(allocateBuffers(r, 64).offsets, plan.offsets);
  }
}

TEST(DeviceImageTest, ChannelLastPermutesNCHW) {
  // 1x2x2x3 NCHW -> NHWC: element (c, h, w) = 100c + 10h + w.
  ImageDesc d{{1, 2, 2, 3}, {0, 2, 3, 1}, 4, LAYOUT_TENSOR, Fmt_FP32};
  std::vector<float> x;
  for (int c = 0; c < 2; ++c)
    for (int h = 0; h < 2; ++h)
      for (int w = 0; w < 3; ++w)
        x.push_back(100.0f * c + 10.0f * h + w);
  std::vector<uint8_t> logical(x.size() * 4), image, back;
  std::memcpy(logical.data(), x.data(), logical.size());
  std::string error;
  ASSERT_TRUE(packImage(d, logical, image, error)) << error;
  std::vector<float> y(x.size());
  std::memcpy(y.data(), image.data(), image.size());
  EXPECT_EQ(y, (std::vector<float>{0, 100, 1, 101, 2, 102, 10, 110, 11, 111, 12, 112}));
  ASSERT_TRUE(unpackImage(d, image, back, error)) << error;
  EXPECT_EQ(back, logical);
}

TEST(DeviceImageTest, ConvWeightsToHWIO) {
  // O=2, I=1, 1x2 kernel: weight[o][0][0][kw] = 10o + kw -> [KH][KW][I][O].
  ImageDesc d{{2, 1, 1, 2}, {2, 3, 1, 0}, 4, LAYOUT_NTENSOR, Fmt_FP32};
  std::vector<float> w = {0, 1, 10, 11}, got(4);
  std::vector<uint8_t> logical(16), image;
  std::memcpy(logical.data(), w.data(), 16);
  std::string error;
  ASSERT_TRUE(packImage(d, logical, image, error)) << error;
  std::memcpy(got.data(), image.data(), 16);
  EXPECT_EQ(got, (std::vector<float>{0, 10, 1, 11}));
}

TEST(DeviceImageTest, CxPadsChannels) {
  // 1x1x3 (N, W, C) fp32 in Cx: C = 3 aligned to 4, padding zero.
  ImageDesc d{{1, 1, 3}, {0, 1, 2}, 4, LAYOUT_CX, Fmt_FP32, /*batchAlignBytes=*/256};
  ASSERT_TRUE(imageBytes(d).has_value());
  EXPECT_GE(*imageBytes(d), 16u);
  std::vector<float> x = {1, 2, 3};
  std::vector<uint8_t> logical(12), image, back;
  std::memcpy(logical.data(), x.data(), 12);
  std::string error;
  ASSERT_TRUE(packImage(d, logical, image, error)) << error;
  float fourth;
  std::memcpy(&fourth, image.data() + 12, 4);
  EXPECT_EQ(fourth, 0.0f);
  ASSERT_TRUE(unpackImage(d, image, back, error)) << error;
  EXPECT_EQ(back, logical);
}

TEST(DeviceImageTest, NCxBatchesStartOnTheConfiguredAlignment) {
  // 2 batches of 1x3 fp32 (12 bytes, C padded): each batch starts on the batch alignment of the config.
  ImageDesc d{{2, 1, 3}, {0, 1, 2}, 4, LAYOUT_NCX, Fmt_FP32, /*batchAlignBytes=*/256};
  EXPECT_EQ(imageBytes(d), std::optional<uint64_t>(512));
  d.batchAlignBytes = 512; // batch_align_bits 4096
  EXPECT_EQ(imageBytes(d), std::optional<uint64_t>(1024));
  d.batchAlignBytes = 0; // not given: an aligned layout cannot be sized
  EXPECT_FALSE(imageBytes(d).has_value());
}

TEST(DeviceImageTest, RejectsBadDescriptionsAndSizes) {
  std::string error;
  std::vector<uint8_t> image;
  EXPECT_FALSE(imageBytes(ImageDesc{{2, 3}, {0, 0}, 4, LAYOUT_NTENSOR, Fmt_FP32}).has_value()) << "not a permutation";
  EXPECT_FALSE(packImage(ImageDesc{{2, 3}, {0, 1}, 4, LAYOUT_NTENSOR, Fmt_FP32}, std::vector<uint8_t>(20), image,
                         error));
  EXPECT_NE(error.find("data has 20 bytes, the tensor 24"), std::string::npos) << error;
  std::vector<uint8_t> logical;
  EXPECT_FALSE(unpackImage(ImageDesc{{2, 3}, {0, 1}, 4, LAYOUT_NTENSOR, Fmt_FP32}, std::vector<uint8_t>(8), logical,
                           error));
}

} // namespace
