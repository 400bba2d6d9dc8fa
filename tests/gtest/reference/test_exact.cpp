//===- test_exact.cpp - Exact elementwise ops and ArgMax/ArgMin, by hand ------===//
//
// The rules of tx8/Reference/ExactEltwise.h on the values where they matter (wrap-around, division by zero,
// the signs of Mod, negative integer powers, NaN in comparisons) and argReduce's ties and NaNs.

#include "tx8/Reference/Convert.h"
#include "tx8/Reference/ExactEltwise.h"
#include "tx8/Reference/Kernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

using namespace tx8::ref;

namespace {

template <typename T> std::vector<int64_t> ints(const Tensor &t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.numElements(); ++i)
    v.push_back(static_cast<int64_t>(t.data<T>()[i]));
  return v;
}

Tensor run(ExactOp op, const Tensor &a, const Tensor &b) {
  Tensor y;
  Status s = exactElementwise(op, a, &b, y);
  EXPECT_TRUE(s.ok()) << s.message();
  return y;
}

} // namespace

TEST(ExactEltwise, IntegersWrapInTheirType) {
  Tensor a = makeTensor<int>(DType::I8, {3}, {127, -128, 100});
  Tensor b = makeTensor<int>(DType::I8, {3}, {1, -1, 2});
  EXPECT_EQ(ints<int8_t>(run(ExactOp::Add, a, b)), (std::vector<int64_t>{-128, 127, 102}));
  EXPECT_EQ(ints<int8_t>(run(ExactOp::Mul, a, b)), (std::vector<int64_t>{127, -128, -56}));
  Tensor u = makeTensor<int>(DType::U8, {2}, {250, 3}), v = makeTensor<int>(DType::U8, {2}, {10, 5});
  EXPECT_EQ(ints<uint8_t>(run(ExactOp::Add, u, v)), (std::vector<int64_t>{4, 8}));
  EXPECT_EQ(ints<uint8_t>(run(ExactOp::Sub, v, u)), (std::vector<int64_t>{16, 2}));
}

TEST(ExactEltwise, DivisionTruncatesAndByZeroIsZero) {
  Tensor a = makeTensor<int64_t>(DType::I64, {4}, {7, -7, std::numeric_limits<int64_t>::min(), 5});
  Tensor b = makeTensor<int64_t>(DType::I64, {4}, {2, 2, -1, 0});
  EXPECT_EQ(ints<int64_t>(run(ExactOp::Div, a, b)),
            (std::vector<int64_t>{3, -3, std::numeric_limits<int64_t>::min(), 0}));
}

TEST(ExactEltwise, ModTakesTheDivisorsSignFModTheDividends) {
  Tensor a = makeTensor<int>(DType::I32, {4}, {-4, 7, -7, 9});
  Tensor b = makeTensor<int>(DType::I32, {4}, {3, -3, -3, 0});
  EXPECT_EQ(ints<int32_t>(run(ExactOp::Mod, a, b)), (std::vector<int64_t>{2, -2, -1, 0}));
  EXPECT_EQ(ints<int32_t>(run(ExactOp::FMod, a, b)), (std::vector<int64_t>{-1, 1, -1, 0}));
  Tensor x = makeTensor<float>(DType::F32, {2}, {-4.5f, 5.f}), y = makeTensor<float>(DType::F32, {2}, {2.f, 0.f});
  Tensor r = run(ExactOp::Mod, x, y);
  EXPECT_EQ(r.data<float>()[0], 1.5f);
  EXPECT_TRUE(std::isnan(r.data<float>()[1]));
}

TEST(ExactEltwise, IntegerPowers) {
  Tensor a = makeTensor<int>(DType::I32, {5}, {3, -2, 2, -1, 5});
  Tensor b = makeTensor<int>(DType::I32, {5}, {4, 3, -1, -3, 0});
  EXPECT_EQ(ints<int32_t>(run(ExactOp::Pow, a, b)), (std::vector<int64_t>{81, -8, 0, -1, 1}));
}

TEST(ExactEltwise, ComparisonsBroadcastAndNaNIsUnordered) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor a = makeTensor<float>(DType::F32, {2, 2}, {1.f, nan, 3.f, 2.f});
  Tensor b = makeTensor<float>(DType::F32, {2}, {1.f, 2.f});
  Tensor eq = run(ExactOp::Equal, a, b), lt = run(ExactOp::Less, a, b), ge = run(ExactOp::GreaterOrEqual, a, b);
  EXPECT_EQ(eq.dtype, DType::Bool);
  EXPECT_EQ(ints<uint8_t>(eq), (std::vector<int64_t>{1, 0, 0, 1}));
  EXPECT_EQ(ints<uint8_t>(lt), (std::vector<int64_t>{0, 0, 0, 0}));
  EXPECT_EQ(ints<uint8_t>(ge), (std::vector<int64_t>{1, 0, 1, 1}));
}

TEST(ExactEltwise, LogicTakesBoolsOnly) {
  Tensor t = makeTensor<int>(DType::Bool, {4}, {0, 0, 1, 1}), u = makeTensor<int>(DType::Bool, {4}, {0, 1, 0, 1});
  EXPECT_EQ(ints<uint8_t>(run(ExactOp::Xor, t, u)), (std::vector<int64_t>{0, 1, 1, 0}));
  Tensor y;
  Tensor i = makeTensor<int>(DType::I32, {1}, {1});
  EXPECT_FALSE(exactElementwise(ExactOp::And, i, &i, y).ok());
  EXPECT_FALSE(exactElementwise(ExactOp::Add, i, &t, y).ok()); // dtypes differ
  EXPECT_FALSE(exactElementwise(ExactOp::Add, i, nullptr, y).ok());
}

TEST(ArgReduce, TiesAndNaNs) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor x = makeTensor<float>(DType::F32, {3, 4}, {1, 5, 5, 2, /**/ 0, nan, 3, nan, /**/ 4, 4, 1, 1});
  Tensor y;
  ASSERT_TRUE(argReduce(true, x, 1, false, false, y).ok());
  EXPECT_EQ(ints<int64_t>(y), (std::vector<int64_t>{1, 1, 0}));
  ASSERT_TRUE(argReduce(true, x, -1, true, true, y).ok());
  EXPECT_EQ(y.shape, (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(ints<int64_t>(y), (std::vector<int64_t>{2, 3, 1}));
  ASSERT_TRUE(argReduce(false, x, 1, false, true, y).ok());
  EXPECT_EQ(ints<int64_t>(y), (std::vector<int64_t>{0, 3, 3}));
  ASSERT_TRUE(argReduce(false, x, 0, false, false, y).ok());
  EXPECT_EQ(ints<int64_t>(y), (std::vector<int64_t>{1, 1, 2, 1}));
  EXPECT_FALSE(argReduce(true, x, 2, false, false, y).ok());
}
