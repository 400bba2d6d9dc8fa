//===- test_quantize.cpp - Quantization and the int8 matrix kernels ------===//
//
// ref::quantizeLinear / ref::dequantizeLinear on ONNX's rounding (half to even, before the zero point is added),
// saturation at both ends of int8 and uint8, NaN and infinities, per-axis broadcasting; int8 Conv and MatMul
// (int32 results) against naive loops in double, exactly.
//
//===----------------------------------------------------------------------===//
#include "NaiveRef.h"
#include "RefTestUtil.h"
#include "tx8/Reference/Kernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace reftest;
using namespace tx8::ref;

namespace {

Tensor floats(const Shape &shape, std::vector<float> v) {
  Tensor t(DType::F32, shape);
  std::copy(v.begin(), v.end(), t.data<float>());
  return t;
}

Tensor ints(DType dtype, const Shape &shape, const std::vector<int64_t> &v) {
  Tensor t(dtype, shape);
  for (size_t i = 0; i < v.size(); ++i)
    setElementFromDouble(t, static_cast<int64_t>(i), static_cast<double>(v[i]));
  return t;
}

int64_t pick(std::mt19937 &rng, int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); }

} // namespace

TEST(QuantizeLinear, HalvesRoundToEvenBeforeTheZeroPoint) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  // x / 2: 0.5 1.5 2.5 -0.5 -1.5 -2.5, then past both ends, inf, -inf, NaN
  Tensor x = floats({12}, {1, 3, 5, -1, -3, -5, 600, -600, 1e30f, inf, -inf, nan});
  Tensor s = floats({1}, {2});
  Tensor y;
  ASSERT_OK(quantizeLinear(x, s, ints(DType::U8, {1}, {1}), y));
  EXPECT_EQ(values(y), (std::vector<double>{1, 3, 3, 1, 0, 0, 255, 0, 255, 255, 0, 1}));
  ASSERT_OK(quantizeLinear(x, s, ints(DType::I8, {1}, {-1}), y));
  EXPECT_EQ(y.dtype, DType::I8);
  EXPECT_EQ(values(y), (std::vector<double>{-1, 1, 1, -1, -3, -3, 127, -128, 127, 127, -128, -1}));
}

TEST(QuantizeLinear, TheQuotientIsRoundedToFloatFirst) {
  // x / s is 19.4999995 in double but 19.5 in binary32 (ONNX divides in the input's type): half to even gives 20.
  const float x = 18.19801902770996f, s = 0.933231770992279f;
  ASSERT_LT(static_cast<double>(x) / s, 19.5);
  Tensor y;
  ASSERT_OK(quantizeLinear(floats({1}, {x}), floats({1}, {s}), ints(DType::U8, {1}, {0}), y));
  EXPECT_EQ(values(y), (std::vector<double>{20}));
}

TEST(QuantizeLinear, PerAxisBroadcastAndErrors) {
  Tensor x = floats({2, 3}, {1, 1, 1, -1, -1, -1});
  Tensor s = floats({3}, {1, 0.5f, 0.25f}), z = ints(DType::I8, {3}, {0, 10, -10});
  Tensor y;
  ASSERT_OK(quantizeLinear(x, s, z, y));
  EXPECT_EQ(values(y), (std::vector<double>{1, 12, -6, -1, 8, -14}));
  EXPECT_FALSE(quantizeLinear(x, floats({2}, {1, 1}), ints(DType::I8, {2}, {0, 0}), y).ok());
  EXPECT_FALSE(quantizeLinear(x, s, ints(DType::I8, {1}, {0}), y).ok()) << "zero point of another shape";
  EXPECT_FALSE(quantizeLinear(x, s, ints(DType::I32, {3}, {0, 0, 0}), y).ok()) << "an i32 zero point";
}

TEST(DequantizeLinear, Int8Uint8Int32) {
  Tensor y;
  ASSERT_OK(dequantizeLinear(ints(DType::U8, {4}, {0, 3, 128, 255}), floats({1}, {2}), ints(DType::U8, {1}, {128}),
                             y));
  EXPECT_EQ(values(y), (std::vector<double>{-256, -250, 0, 254}));
  ASSERT_OK(dequantizeLinear(ints(DType::I8, {2, 2}, {-128, 127, -128, 127}), floats({2, 1}, {0.5f, 0.25f}),
                             ints(DType::I8, {2, 1}, {1, -1}), y));
  EXPECT_EQ(values(y), (std::vector<double>{-64.5, 63, -31.75, 32}));
  // int32 is rounded to binary32 first, as numpy's astype
  ASSERT_OK(dequantizeLinear(ints(DType::I32, {1}, {16777217}), floats({1}, {1}), ints(DType::I32, {1}, {0}), y));
  EXPECT_EQ(values(y), (std::vector<double>{16777216}));
  EXPECT_FALSE(dequantizeLinear(ints(DType::U8, {1}, {0}), floats({1}, {1}), ints(DType::I8, {1}, {0}), y).ok());
}

TEST(Conv, Int8RandomConfigsMatchNaiveExactly) {
  std::mt19937 rng(36);
  for (int iter = 0; iter < 40; ++iter) {
    const size_t nsp = static_cast<size_t>(pick(rng, 1, 2));
    const int64_t g = pick(rng, 1, 3), cg = pick(rng, 1, 4), mg = pick(rng, 1, 3);
    Shape xs{pick(rng, 1, 2), g * cg}, ws{g * mg, cg}, st, dl, pb, pe;
    for (size_t d = 0; d < nsp; ++d) {
      ws.push_back(pick(rng, 1, 3));
      st.push_back(pick(rng, 1, 2));
      dl.push_back(pick(rng, 1, 2));
      pb.push_back(pick(rng, 0, 2));
      pe.push_back(pick(rng, 0, 2));
      xs.push_back(std::max<int64_t>(pick(rng, 1, 8), (ws.back() - 1) * dl.back() + 1));
    }
    Tensor x = randomTensor(DType::I8, xs, rng, -128, 127.99), w = randomTensor(DType::I8, ws, rng, -128, 127.99);
    Tensor b = randomTensor(DType::I32, {g * mg}, rng, -1e6, 1e6);
    const bool withBias = iter % 2;
    Tensor y;
    ASSERT_OK(conv(x, w, withBias ? &b : nullptr, ConvParams{st, dl, pb, pe, g}, y));
    EXPECT_EQ(y.dtype, DType::I32);
    naive::Arr bn = naive::arr(b);
    naive::Arr ref = naive::conv(naive::arr(x), naive::arr(w), withBias ? &bn : nullptr, st, dl, pb, pe, g);
    EXPECT_EQ(y.shape, ref.shape);
    EXPECT_EQ(values(y), ref.v);
  }
}

TEST(MatMul, Int8BatchedMatchesNaiveExactly) {
  std::mt19937 rng(37);
  Tensor a = randomTensor(DType::I8, {2, 1, 5, 70}, rng, -128, 127.99);
  Tensor b = randomTensor(DType::I8, {3, 70, 4}, rng, -128, 127.99);
  Tensor y;
  ASSERT_OK(matmul(a, b, y));
  ASSERT_EQ(y.shape, (Shape{2, 3, 5, 4}));
  EXPECT_EQ(y.dtype, DType::I32);
  std::vector<double> av = values(a), bv = values(b), yv = values(y);
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 3; ++j)
      for (int64_t r = 0; r < 5; ++r)
        for (int64_t c = 0; c < 4; ++c) {
          double acc = 0;
          for (int64_t k = 0; k < 70; ++k)
            acc += av[(i * 5 + r) * 70 + k] * bv[(j * 70 + k) * 4 + c];
          EXPECT_EQ(yv[((i * 3 + j) * 5 + r) * 4 + c], acc);
        }
}
