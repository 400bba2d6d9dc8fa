//===- test_conv_pool.cpp - Conv, ConvTranspose and pooling vs naive loops ===//

#include "NaiveRef.h"
#include "RefTestUtil.h"
#include "tx8/Reference/Kernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace reftest;
using namespace tx8::ref;

namespace {

std::string describe(const char *what, const Shape &x, const Shape &w, const Shape &st, const Shape &dl,
                     const Shape &pb, const Shape &pe, int64_t g) {
  return std::string(what) + " x" + str(x) + " w" + str(w) + " strides" + str(st) + " dil" + str(dl) + " pads" +
         str(pb) + "/" + str(pe) + " group " + std::to_string(g);
}

int64_t pick(std::mt19937 &rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

} // namespace

TEST(Conv, RandomConfigsMatchNaive) {
  std::mt19937 rng(1234);
  int run = 0;
  for (int iter = 0; run < 80 && iter < 1000; ++iter) {
    const size_t nsp = static_cast<size_t>(pick(rng, 1, 3));
    const int64_t g = pick(rng, 1, 3), cg = pick(rng, 1, 3), mg = pick(rng, 1, 3), n = pick(rng, 1, 2);
    Shape xs{n, g * cg}, ws{g * mg, cg}, st, dl, pb, pe;
    for (size_t d = 0; d < nsp; ++d) {
      xs.push_back(pick(rng, 1, nsp == 3 ? 5 : 9));
      ws.push_back(pick(rng, 1, 3));
      st.push_back(pick(rng, 1, 3));
      dl.push_back(pick(rng, 1, 2));
      pb.push_back(pick(rng, 0, 2));
      pe.push_back(pick(rng, 0, 2));
      if (xs.back() + pb.back() + pe.back() < (ws.back() - 1) * dl.back() + 1)
        xs.back() = (ws.back() - 1) * dl.back() + 1; // keep the padded input at least one window wide
    }
    const bool withBias = pick(rng, 0, 1);
    Tensor x = randomTensor(DType::F32, xs, rng), w = randomTensor(DType::F32, ws, rng);
    Tensor b = randomTensor(DType::F32, {g * mg}, rng);
    ConvParams p{st, dl, pb, pe, g};
    SCOPED_TRACE(describe("conv", xs, ws, st, dl, pb, pe, g) + (withBias ? " +bias" : ""));
    Tensor y;
    ASSERT_OK(conv(x, w, withBias ? &b : nullptr, p, y));
    naive::Arr bn = naive::arr(b);
    naive::Arr ref = naive::conv(naive::arr(x), naive::arr(w), withBias ? &bn : nullptr, st, dl, pb, pe, g);
    EXPECT_TRUE(allClose(y, ref.shape, ref.v, kTolAccum));
    ++run;
  }
  EXPECT_EQ(run, 80);
}

TEST(Conv, DefaultsAndDepthwise) {
  std::mt19937 rng(7);
  // Empty parameter vectors mean stride 1, dilation 1, no padding.
  Tensor x = randomTensor(DType::F32, {2, 6, 7, 5}, rng), w = randomTensor(DType::F32, {6, 1, 3, 3}, rng);
  Tensor y;
  ConvParams p;
  p.group = 6; // depthwise
  ASSERT_OK(conv(x, w, nullptr, p, y));
  naive::Arr ref = naive::conv(naive::arr(x), naive::arr(w), nullptr, {1, 1}, {1, 1}, {0, 0}, {0, 0}, 6);
  EXPECT_TRUE(allClose(y, ref.shape, ref.v, kTolAccum));
}

// The tests must be able to tell begin pads from end pads: with asymmetric pads the result computed
// with the pads swapped is different, and only the right assignment matches.
TEST(Conv, AsymmetricPadsAreNotInterchangeable) {
  std::mt19937 rng(11);
  Tensor x = randomTensor(DType::F32, {1, 2, 6, 6}, rng), w = randomTensor(DType::F32, {3, 2, 3, 2}, rng);
  Shape pb{2, 0}, pe{0, 1};
  Tensor y;
  ASSERT_OK(conv(x, w, nullptr, {{1, 2}, {1, 1}, pb, pe, 1}, y));
  naive::Arr right = naive::conv(naive::arr(x), naive::arr(w), nullptr, {1, 2}, {1, 1}, pb, pe, 1);
  naive::Arr swapped = naive::conv(naive::arr(x), naive::arr(w), nullptr, {1, 2}, {1, 1}, pe, pb, 1);
  EXPECT_TRUE(allClose(y, right.shape, right.v, kTolAccum));
  EXPECT_FALSE(allClose(y, swapped.shape, swapped.v, kTolAccum));
}

TEST(Conv, Float16AndBFloat16InputsKeepTheirDtype) {
  std::mt19937 rng(3);
  for (DType dt : {DType::F16, DType::BF16}) {
    Tensor x = randomTensor(dt, {1, 4, 6, 6}, rng), w = randomTensor(dt, {4, 2, 3, 3}, rng);
    Tensor y;
    ASSERT_OK(conv(x, w, nullptr, {{2, 1}, {}, {1, 0}, {1, 1}, 2}, y));
    EXPECT_EQ(y.dtype, dt);
    naive::Arr ref = naive::conv(naive::arr(x), naive::arr(w), nullptr, {2, 1}, {1, 1}, {1, 0}, {1, 1}, 2);
    // f32 compute then one rounding to the 16-bit type: half an ulp of that type.
    EXPECT_TRUE(allClose(y, ref.shape, ref.v, dt == DType::F16 ? Tol{1e-3, 1e-3} : Tol{8e-3, 8e-3}));
  }
}

TEST(Conv, Errors) {
  Tensor x(DType::F32, {1, 4, 5, 5}), w(DType::F32, {6, 3, 3, 3}), y;
  Status s = conv(x, w, nullptr, {}, y);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("group 1 does not fit X channels 4"), std::string::npos) << s.message();
  Tensor w2(DType::F32, {6, 2, 3, 3}), b(DType::F32, {5});
  s = conv(x, w2, &b, {{}, {}, {}, {}, 2}, y);
  EXPECT_NE(s.message().find("bias has shape (5,), expected (6,)"), std::string::npos) << s.message();
  s = conv(x, w2, nullptr, {{1}, {}, {}, {}, 2}, y);
  EXPECT_NE(s.message().find("strides has 1 values, expected 2"), std::string::npos) << s.message();
  s = conv(x, w2, nullptr, {{}, {0, 1}, {}, {}, 2}, y);
  EXPECT_NE(s.message().find("dilations value 0 must be >= 1"), std::string::npos) << s.message();
  Tensor xi(DType::I32, {1, 4, 5, 5});
  s = conv(xi, w2, nullptr, {{}, {}, {}, {}, 2}, y);
  EXPECT_NE(s.message().find("Conv: X has dtype i32"), std::string::npos) << s.message();
  Tensor big(DType::F32, {6, 2, 9, 9});
  s = conv(x, big, nullptr, {{}, {}, {}, {}, 2}, y);
  EXPECT_NE(s.message().find("smaller than the dilated kernel"), std::string::npos) << s.message();
  Tensor bad(DType::F32, {1, 4, 5, 5});
  bad.bytes.resize(7);
  s = conv(bad, w2, nullptr, {{}, {}, {}, {}, 2}, y);
  EXPECT_NE(s.message().find("X holds 7 bytes"), std::string::npos) << s.message();
}

TEST(ConvTranspose, RandomConfigsMatchNaive) {
  std::mt19937 rng(99);
  int run = 0, coreCases = 0;
  for (int iter = 0; run < 60 && iter < 1000; ++iter) {
    const size_t nsp = static_cast<size_t>(pick(rng, 1, 3));
    const int64_t g = pick(rng, 1, 3), cg = pick(rng, 1, 3), mg = pick(rng, 1, 3), n = pick(rng, 1, 2);
    Shape xs{n, g * cg}, ws{g * cg, mg}, st, dl, pb, pe, op;
    bool ok = true, core = false;
    for (size_t d = 0; d < nsp; ++d) {
      xs.push_back(pick(rng, 1, nsp == 3 ? 4 : 6));
      ws.push_back(pick(rng, 1, 3));
      st.push_back(pick(rng, 1, 3));
      dl.push_back(pick(rng, 1, 2));
      pb.push_back(pick(rng, 0, 2));
      pe.push_back(pick(rng, 0, 2));
      op.push_back(pick(rng, 0, std::max(st.back(), dl.back()) - 1)); // ONNX: output_padding < stride or dilation
      core = core || op.back() > pe.back();
      ok = ok && st.back() * (xs.back() - 1) + op.back() + (ws.back() - 1) * dl.back() + 1 - pb.back() - pe.back() > 0;
    }
    if (!ok)
      continue;
    coreCases += core;
    const bool withBias = pick(rng, 0, 1);
    Tensor x = randomTensor(DType::F32, xs, rng), w = randomTensor(DType::F32, ws, rng);
    Tensor b = randomTensor(DType::F32, {g * mg}, rng);
    SCOPED_TRACE(describe("deconv", xs, ws, st, dl, pb, pe, g) + " out_pad" + str(op) + (withBias ? " +bias" : ""));
    Tensor y;
    ASSERT_OK(convTranspose(x, w, withBias ? &b : nullptr, {st, dl, pb, pe, op, g}, y));
    naive::Arr bn = naive::arr(b);
    naive::Arr ref =
        naive::convTranspose(naive::arr(x), naive::arr(w), withBias ? &bn : nullptr, st, dl, pb, pe, op, g);
    EXPECT_TRUE(allClose(y, ref.shape, ref.v, kTolAccum));
    ++run;
  }
  EXPECT_EQ(run, 60);
  EXPECT_GT(coreCases, 5) << "output padding beyond the end pad should be exercised";
}

TEST(ConvTranspose, ResolvePadsFromOutputShape) {
  ConvTransposeParams p;
  p.strides = {3, 2};
  // Natural size 3*(3-1)+3 = 9 rows, 2*(3-1)+3 = 7 cols; ask for 10 x 8: one extra row / col at the end.
  ASSERT_OK(convTransposeResolvePads(AutoPad::NotSet, {3, 3}, {3, 3}, {10, 8}, p));
  EXPECT_EQ(p.padsBegin, (Shape{0, 0}));
  EXPECT_EQ(p.padsEnd, (Shape{0, 0}));
  EXPECT_EQ(p.outputPadding, (Shape{1, 1}));
  // SAME_UPPER, stride 2: out = 6 from a natural 7: total pad 1 goes to the end.
  ConvTransposeParams q;
  q.strides = {2, 2};
  ASSERT_OK(convTransposeResolvePads(AutoPad::SameUpper, {3, 3}, {3, 3}, {}, q));
  EXPECT_EQ(q.padsBegin, (Shape{0, 0}));
  EXPECT_EQ(q.padsEnd, (Shape{1, 1}));
  ASSERT_OK(convTransposeResolvePads(AutoPad::SameLower, {3, 3}, {3, 3}, {}, q));
  EXPECT_EQ(q.padsBegin, (Shape{1, 1}));
  EXPECT_EQ(q.padsEnd, (Shape{0, 0}));
}

TEST(AutoPad, SameUpperLowerValid) {
  Shape pb, pe;
  // in 5, k 3, stride 2 -> out 3, total pad (3-1)*2+3-5 = 2.
  ASSERT_OK(resolveAutoPad(AutoPad::SameUpper, {5, 6}, {3, 2}, {2, 1}, {}, pb, pe));
  EXPECT_EQ(pb, (Shape{1, 0}));
  EXPECT_EQ(pe, (Shape{1, 1})); // in 6, k 2, stride 1: total 1, odd unit at the end
  ASSERT_OK(resolveAutoPad(AutoPad::SameLower, {5, 6}, {3, 2}, {2, 1}, {}, pb, pe));
  EXPECT_EQ(pb, (Shape{1, 1}));
  EXPECT_EQ(pe, (Shape{1, 0}));
  ASSERT_OK(resolveAutoPad(AutoPad::Valid, {5, 6}, {3, 2}, {2, 1}, {}, pb, pe));
  EXPECT_EQ(pb, (Shape{0, 0}));
  EXPECT_EQ(pe, (Shape{0, 0}));
  Shape b, e;
  ASSERT_OK(splitOnnxPads({1, 2, 3, 4}, b, e));
  EXPECT_EQ(b, (Shape{1, 2}));
  EXPECT_EQ(e, (Shape{3, 4}));
  EXPECT_FALSE(splitOnnxPads({1, 2, 3}, b, e).ok());
}

TEST(Pool, RandomConfigsMatchNaive) {
  std::mt19937 rng(2024);
  int run = 0, ceilDrops = 0;
  for (int iter = 0; run < 150 && iter < 3000; ++iter) {
    const size_t nsp = static_cast<size_t>(pick(rng, 1, 3));
    const bool isMax = pick(rng, 0, 1), ceilMode = pick(rng, 0, 1), include = pick(rng, 0, 1);
    Shape xs{pick(rng, 1, 2), pick(rng, 1, 3)}, ks, st, dl, pb, pe;
    bool ok = true;
    for (size_t d = 0; d < nsp; ++d) {
      xs.push_back(pick(rng, 1, nsp == 3 ? 6 : 10));
      ks.push_back(pick(rng, 1, 4));
      st.push_back(pick(rng, 1, 3));
      dl.push_back(pick(rng, 1, 2));
      // ONNX requires pads smaller than the kernel; keep every window touching the input.
      pb.push_back(pick(rng, 0, ks.back() - 1));
      pe.push_back(pick(rng, 0, ks.back() - 1));
      const int64_t span = (ks.back() - 1) * dl.back() + 1;
      ok = ok && xs.back() + pb.back() + pe.back() >= span;
      if (ceilMode && (xs.back() + pb.back() + pe.back() - span) % st.back() != 0)
        ++ceilDrops;
    }
    if (!ok)
      continue;
    Tensor x = randomTensor(DType::F32, xs, rng);
    naive::Arr ref = naive::pool(isMax, naive::arr(x), ks, st, dl, pb, pe, ceilMode, include);
    // Skip the rare dilated configs where some window sees only padding (undefined in ONNX).
    if (std::any_of(ref.v.begin(), ref.v.end(), [](double v) { return !std::isfinite(v); }))
      continue;
    PoolParams p{ks, st, dl, pb, pe, ceilMode, include};
    SCOPED_TRACE(std::string(isMax ? "max" : "avg") + " x" + str(xs) + " k" + str(ks) + " s" + str(st) + " d" +
                 str(dl) + " pads" + str(pb) + "/" + str(pe) + (ceilMode ? " ceil" : "") +
                 (include ? " count_include_pad" : ""));
    Tensor y;
    ASSERT_OK(pool(isMax ? PoolKind::Max : PoolKind::Avg, x, p, y));
    EXPECT_TRUE(allClose(y, ref.shape, ref.v, kTolAccum));
    ++run;
  }
  EXPECT_EQ(run, 150);
  EXPECT_GT(ceilDrops, 10);
}

// count_include_pad and the begin/end assignment of pads must both be visible in the results.
TEST(Pool, CountIncludePadAndPadSidesMatter) {
  std::mt19937 rng(5);
  Tensor x = randomTensor(DType::F32, {1, 2, 5, 6}, rng, 0.5, 1.5);
  Shape ks{3, 3}, st{2, 2}, dl{1, 1}, pb{2, 1}, pe{0, 2};
  for (bool include : {false, true}) {
    Tensor y;
    ASSERT_OK(pool(PoolKind::Avg, x, {ks, st, dl, pb, pe, false, include}, y));
    naive::Arr right = naive::pool(false, naive::arr(x), ks, st, dl, pb, pe, false, include);
    naive::Arr flipped = naive::pool(false, naive::arr(x), ks, st, dl, pb, pe, false, !include);
    naive::Arr swapped = naive::pool(false, naive::arr(x), ks, st, dl, pe, pb, false, include);
    EXPECT_TRUE(allClose(y, right.shape, right.v, kTolAccum));
    EXPECT_FALSE(allClose(y, flipped.shape, flipped.v, kTolAccum));
    EXPECT_FALSE(allClose(y, swapped.shape, swapped.v, kTolAccum));
  }
}

// ceil_mode with count_include_pad: the overhang past the end pad is not counted (PyTorch rule).
TEST(Pool, CeilOverhangIsNotCountedAsPadding) {
  Tensor x = makeTensor<float>(DType::F32, {1, 1, 1, 5}, {1, 2, 3, 4, 5});
  Tensor y;
  // Windows of 3 with stride 2 over [pad][1 2 3 4 5]: ceil_mode starts them at -1, 1 and 3; the last
  // covers 4, 5 and one overhang column past the input.
  ASSERT_OK(pool(PoolKind::Avg, x, {{1, 3}, {1, 2}, {}, {0, 1}, {0, 0}, true, true}, y));
  naive::Arr ref = naive::pool(false, naive::arr(x), {1, 3}, {1, 2}, {1, 1}, {0, 1}, {0, 0}, true, true);
  ASSERT_EQ(ref.shape, (Shape{1, 1, 1, 3}));
  EXPECT_DOUBLE_EQ(ref.v[0], 1.0); // (0 + 1 + 2) / 3: the explicit pad counts
  EXPECT_DOUBLE_EQ(ref.v[2], 4.5); // (4 + 5) / 2: the overhang does not
  EXPECT_TRUE(allClose(y, ref.shape, ref.v, kTolF32));
}

TEST(Pool, GlobalPools) {
  std::mt19937 rng(8);
  for (Shape xs : {Shape{2, 3, 7}, Shape{1, 2, 4, 5}, Shape{1, 2, 3, 2, 4}}) {
    Tensor x = randomTensor(DType::F32, xs, rng), ymax, yavg;
    ASSERT_OK(globalPool(PoolKind::Max, x, ymax));
    ASSERT_OK(globalPool(PoolKind::Avg, x, yavg));
    Shape ks(xs.begin() + 2, xs.end()), ones(ks.size(), 1), zeros(ks.size(), 0);
    naive::Arr rmax = naive::pool(true, naive::arr(x), ks, ones, ones, zeros, zeros, false, false);
    naive::Arr ravg = naive::pool(false, naive::arr(x), ks, ones, ones, zeros, zeros, false, false);
    EXPECT_TRUE(allClose(ymax, rmax.shape, rmax.v, kTolF32));
    EXPECT_TRUE(allClose(yavg, ravg.shape, ravg.v, kTolAccum));
  }
}

TEST(Pool, Errors) {
  Tensor x(DType::F32, {1, 1, 4, 4}), y;
  Status s = pool(PoolKind::Max, x, {{3}, {}, {}, {}, {}, false, false}, y);
  EXPECT_NE(s.message().find("kernel_shape has 1 values, expected 2"), std::string::npos) << s.message();
  s = pool(PoolKind::Avg, x, {{5, 5}, {}, {}, {}, {}, false, false}, y);
  EXPECT_NE(s.message().find("AveragePool: spatial dim 0: padded input 4 is smaller"), std::string::npos)
      << s.message();
  Tensor x2(DType::F32, {4, 4});
  s = pool(PoolKind::Max, x2, {{2}, {}, {}, {}, {}, false, false}, y);
  EXPECT_NE(s.message().find("rank 3 to 5"), std::string::npos) << s.message();
}
