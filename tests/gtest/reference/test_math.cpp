//===- test_math.cpp - Eltwise, binary, normalization, reduction, GEMM vs naive ===//

#include "NaiveRef.h"
#include "RefTestUtil.h"
#include "tx8/Reference/Kernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <thread>

#include <omp.h>

using namespace reftest;
using namespace tx8::ref;

namespace {

int64_t pick(std::mt19937 &rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

Shape randomShape(std::mt19937 &rng, size_t rank, int64_t maxDim = 5) {
  Shape s;
  for (size_t i = 0; i < rank; ++i)
    s.push_back(pick(rng, 1, maxDim));
  return s;
}

naive::Arr mapArr(const naive::Arr &a, const std::function<double(double)> &f) {
  naive::Arr r = a;
  for (double &v : r.v)
    v = f(v);
  return r;
}

} // namespace

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

struct UnaryCase {
  UnaryOp op;
  UnaryParams params; // alpha / beta other than the ONNX defaults
  double lo, hi;      // input range (inside the op's domain)
  Tol tol;
};

class UnaryTest : public ::testing::TestWithParam<UnaryCase> {};

TEST_P(UnaryTest, MatchesNaive) {
  const UnaryCase &c = GetParam();
  std::mt19937 rng(static_cast<unsigned>(c.op) + 17);
  Tensor x = randomTensor(DType::F32, {3, 7, 11}, rng, c.lo, c.hi);
  Tensor y;
  ASSERT_OK(unary(c.op, x, c.params, y));
  naive::Arr ref =
      mapArr(naive::arr(x), [&](double v) { return naive::unary(c.op, v, c.params.alpha, c.params.beta); });
  EXPECT_TRUE(allClose(y, ref.shape, ref.v, c.tol)) << unaryOpName(c.op);
}

TEST_P(UnaryTest, DefaultsAndHalfPrecision) {
  const UnaryCase &c = GetParam();
  std::mt19937 rng(static_cast<unsigned>(c.op) + 99);
  UnaryParams d = onnxDefaultParams(c.op);
  for (DType dt : {DType::F16, DType::BF16}) {
    Tensor x = randomTensor(dt, {5, 9}, rng, c.lo, std::min(c.hi, 10.0)); // exp(x > 11) overflows f16
    Tensor y;
    ASSERT_OK(unary(c.op, x, y)); // ONNX default attributes
    EXPECT_EQ(y.dtype, dt);
    naive::Arr ref = mapArr(naive::arr(x), [&](double v) { return naive::unary(c.op, v, d.alpha, d.beta); });
    // One rounding of the f32 result to the 16-bit type.
    EXPECT_TRUE(allClose(y, ref.shape, ref.v, dt == DType::F16 ? Tol{1e-3, 1e-4} : Tol{8e-3, 1e-3}))
        << unaryOpName(c.op) << " " << dtypeName(dt);
  }
}

// Relative accuracy everywhere (a few f32 ulps, no absolute slack): the ranges include the regions
// where oneDNN 2.6's JIT approximations of log / soft_relu / elu / gelu / mish go wrong in relative
// terms (x near 1, x << 0, x near 0-), so computing those with oneDNN again would fail here.
constexpr Tol kTolUnary{1e-6, 1e-30};

INSTANTIATE_TEST_SUITE_P(
    AllOps, UnaryTest,
    ::testing::Values(
        UnaryCase{UnaryOp::Relu, {}, -3, 3, kTolUnary}, UnaryCase{UnaryOp::LeakyRelu, {0.15f, 0}, -3, 3, kTolUnary},
        UnaryCase{UnaryOp::Elu, {1.7f, 0}, -1, 0.5, kTolUnary},
        UnaryCase{UnaryOp::Selu, {2.f, 3.f}, -1, 0.5, kTolUnary},
        UnaryCase{UnaryOp::Sigmoid, {}, -15, 15, kTolUnary},
        UnaryCase{UnaryOp::Tanh, {}, -5, 5, kTolUnary},
        UnaryCase{UnaryOp::Softplus, {}, -20, 20, kTolUnary},
        UnaryCase{UnaryOp::Exp, {}, -20, 20, kTolUnary},
        UnaryCase{UnaryOp::Log, {}, 0.9, 1.1, kTolUnary},
        UnaryCase{UnaryOp::Abs, {}, -3, 3, kTolUnary}, UnaryCase{UnaryOp::Sqrt, {}, 0, 50, kTolUnary},
        UnaryCase{UnaryOp::Square, {}, -3, 3, kTolUnary},
        UnaryCase{UnaryOp::GeluErf, {}, -8, 5, kTolUnary},
        UnaryCase{UnaryOp::GeluTanh, {}, -8, 5, kTolUnary},
        UnaryCase{UnaryOp::HardSigmoid, {0.3f, 0.4f}, -5, 5, kTolUnary},
        UnaryCase{UnaryOp::HardSwish, {}, -5, 5, kTolUnary},
        UnaryCase{UnaryOp::Swish, {1.5f, 0}, -10, 6, kTolUnary},
        UnaryCase{UnaryOp::Mish, {}, -15, 6, kTolUnary},
        UnaryCase{UnaryOp::Clip, {-0.5f, 0.7f}, -2, 2, kTolUnary}, UnaryCase{UnaryOp::Round, {}, -5, 5, kTolUnary},
        UnaryCase{UnaryOp::Softsign, {}, -5, 5, kTolUnary}, UnaryCase{UnaryOp::Neg, {}, -5, 5, kTolUnary},
        UnaryCase{UnaryOp::Reciprocal, {}, 0.1, 5, kTolUnary},
        UnaryCase{UnaryOp::ThresholdedRelu, {0.4f, 0}, -2, 2, kTolUnary},
        UnaryCase{UnaryOp::Celu, {1.5f, 0}, -6, 4, kTolUnary}, UnaryCase{UnaryOp::Shrink, {0.2f, 0.6f}, -2, 2, kTolUnary},
        UnaryCase{UnaryOp::Sin, {}, -7, 7, kTolUnary}, UnaryCase{UnaryOp::Cos, {}, -7, 7, kTolUnary},
        UnaryCase{UnaryOp::Tan, {}, -1.4, 1.4, kTolUnary}, UnaryCase{UnaryOp::Asin, {}, -1, 1, kTolUnary},
        UnaryCase{UnaryOp::Acos, {}, -1, 1, kTolUnary}, UnaryCase{UnaryOp::Atan, {}, -9, 9, kTolUnary},
        UnaryCase{UnaryOp::Sinh, {}, -5, 5, kTolUnary}, UnaryCase{UnaryOp::Cosh, {}, -5, 5, kTolUnary},
        UnaryCase{UnaryOp::Asinh, {}, -9, 9, kTolUnary}, UnaryCase{UnaryOp::Acosh, {}, 1, 9, kTolUnary},
        UnaryCase{UnaryOp::Atanh, {}, -0.99, 0.99, kTolUnary}, UnaryCase{UnaryOp::Floor, {}, -5, 5, kTolUnary},
        UnaryCase{UnaryOp::Ceil, {}, -5, 5, kTolUnary}, UnaryCase{UnaryOp::Sign, {}, -5, 5, kTolUnary}),
    [](const ::testing::TestParamInfo<UnaryCase> &info) { return std::string(unaryOpName(info.param.op)); });

TEST(Unary, RoundIsHalfToEvenAndClipDefaultsAreOpen) {
  Tensor x = makeTensor<float>(DType::F32, {6}, {0.5f, 1.5f, 2.5f, -0.5f, -2.5f, 1e30f}), y;
  ASSERT_OK(unary(UnaryOp::Round, x, y));
  naive::Arr ref = mapArr(naive::arr(x), [](double v) { return std::nearbyint(v); });
  EXPECT_TRUE(allClose(y, ref.shape, ref.v, Tol{0, 0}));
  ASSERT_OK(unary(UnaryOp::Clip, x, y)); // -inf .. +inf: identity
  EXPECT_TRUE(allClose(y, x, Tol{0, 0}));
  EXPECT_FALSE(unary(UnaryOp::Clip, x, {1.f, 0.f}, y).ok());
}

TEST(Unary, RejectsNonFloatAndKeepsEmptyTensors) {
  Tensor xi(DType::I64, {3}), y;
  Status s = unary(UnaryOp::Relu, xi, y);
  EXPECT_EQ(s.message(), "Relu: input has dtype i64; the reference computes in f32 and accepts f32, f16 and bf16");
  Tensor empty(DType::F32, {2, 0, 3});
  ASSERT_OK(unary(UnaryOp::Exp, empty, y));
  EXPECT_EQ(y.shape, (Shape{2, 0, 3}));
  Tensor scalar = makeTensor<float>(DType::F32, {}, {-2.f});
  ASSERT_OK(unary(UnaryOp::Abs, scalar, y));
  EXPECT_TRUE(allClose(y, Shape{}, {2.0}, kTolF32));
}

// IEEE / ONNX (numpy): a NaN input gives a NaN output, whatever oneDNN's kernel does with it (relu gave 0); the
// chip computes the same.
TEST(Unary, NaNPropagates) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor x = makeTensor<float>(DType::F32, {3}, {nan, -1.f, 2.f}), y;
  for (UnaryOp op : {UnaryOp::Relu, UnaryOp::LeakyRelu, UnaryOp::Sigmoid, UnaryOp::Tanh, UnaryOp::Exp, UnaryOp::Abs,
                     UnaryOp::Clip, UnaryOp::HardSigmoid, UnaryOp::Elu}) {
    ASSERT_OK(unary(op, x, y));
    std::vector<float> v = toFloatVector(y);
    EXPECT_TRUE(std::isnan(v[0])) << unaryOpName(op);
    EXPECT_FALSE(std::isnan(v[1]) || std::isnan(v[2])) << unaryOpName(op);
  }
}

// numpy's max: a max-pool window holding a NaN is NaN (oneDNN skipped it); the others are untouched.
TEST(Pool, MaxPoolNaNWindow) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor x = makeTensor<float>(DType::F32, {1, 1, 2, 4}, {1, nan, 3, 4, 5, 6, 7, 8}), y;
  PoolParams p;
  p.kernel = {2, 2};
  p.strides = {2, 2};
  ASSERT_OK(pool(PoolKind::Max, x, p, y));
  std::vector<float> v = toFloatVector(y);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_EQ(v[1], 8.f);
}

// numpy's maximum / minimum and max / min reductions propagate NaN (oneDNN's returned the other operand).
TEST(Binary, MaxMinPropagateNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor a = makeTensor<float>(DType::F32, {2, 3}, {nan, 1, 2, 3, 4, 5}), b = makeTensor<float>(DType::F32, {3}, {0, nan, 3});
  for (BinaryOp op : {BinaryOp::Max, BinaryOp::Min})
    for (bool swap : {false, true}) {
      Tensor y;
      ASSERT_OK(swap ? binary(op, b, a, y) : binary(op, a, b, y));
      std::vector<float> v = toFloatVector(y);
      for (int i = 0; i < 6; ++i)
        EXPECT_EQ(std::isnan(v[i]), i == 0 || i % 3 == 1) << binaryOpName(op) << " element " << i;
    }
  Tensor y;
  ASSERT_OK(reduce(ReduceOp::Max, a, {1}, false, y));
  std::vector<float> v = toFloatVector(y);
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_EQ(v[1], 5.f);
}

TEST(PRelu, SlopeBroadcasts) {
  std::mt19937 rng(21);
  for (Shape ss : {Shape{5}, Shape{4, 1}, Shape{1, 5}, Shape{3, 4, 5}, Shape{}, Shape{1}}) {
    Tensor x = randomTensor(DType::F32, {3, 4, 5}, rng), slope = randomTensor(DType::F32, ss, rng), y;
    ASSERT_OK(prelu(x, slope, y));
    naive::Arr ref = naive::prelu(naive::arr(x), naive::arr(slope));
    EXPECT_TRUE(allClose(y, ref.shape, ref.v, kTolF32)) << str(ss);
  }
  Tensor x(DType::F32, {3, 4}), bad(DType::F32, {3}), y;
  EXPECT_NE(prelu(x, bad, y).message().find("slope shape (3,) does not broadcast to X shape (3, 4)"),
            std::string::npos);
}

//===----------------------------------------------------------------------===//
// Binary
//===----------------------------------------------------------------------===//

TEST(Binary, BroadcastingMatchesNaive) {
  std::mt19937 rng(33);
  const std::vector<std::pair<BinaryOp, std::function<double(double, double)>>> ops = {
      {BinaryOp::Add, [](double a, double b) { return a + b; }},
      {BinaryOp::Sub, [](double a, double b) { return a - b; }},
      {BinaryOp::Mul, [](double a, double b) { return a * b; }},
      {BinaryOp::Div, [](double a, double b) { return a / b; }},
      {BinaryOp::Max, [](double a, double b) { return std::max(a, b); }},
      {BinaryOp::Min, [](double a, double b) { return std::min(a, b); }},
      {BinaryOp::Pow, [](double a, double b) { return std::pow(a, b); }},
  };
  // Shape pairs: equal, B broadcast, A broadcast (src0 of oneDNN cannot), both, rank-0, rank mismatch.
  const std::vector<std::pair<Shape, Shape>> shapes = {
      {{3, 4, 5}, {3, 4, 5}}, {{3, 4, 5}, {5}},       {{5}, {3, 4, 5}},     {{3, 1, 5}, {1, 4, 1}},
      {{}, {2, 3}},           {{2, 3}, {}},           {{4, 1}, {3}},        {{2, 1, 3, 1}, {5, 1, 4}},
      {{1}, {1}},             {{6, 1, 1, 2}, {7, 1}}, {{0, 3}, {1, 3}},
  };
  for (auto &[op, f] : ops)
    for (auto &[sa, sb] : shapes) {
      const bool pw = op == BinaryOp::Pow;
      Tensor a = randomTensor(DType::F32, sa, rng, pw ? 0.1 : -2, 2);
      Tensor b = randomTensor(DType::F32, sb, rng, pw ? -2 : 0.5, 2); // keep Div away from 0
      Tensor y;
      ASSERT_OK(binary(op, a, b, y));
      naive::Arr ref = naive::binary(f, naive::arr(a), naive::arr(b));
      EXPECT_TRUE(allClose(y, ref.shape, ref.v, pw ? kTolUnary : kTolF32))
          << binaryOpName(op) << " " << str(sa) << " " << str(sb);
    }
}

TEST(Binary, NonCommutativeWithBroadcastFirstOperand) {
  // A [3] - B [2, 3] must not be computed as B - A by an operand swap.
  Tensor a = makeTensor<float>(DType::F32, {3}, {1, 2, 3});
  Tensor b = makeTensor<float>(DType::F32, {2, 3}, {10, 20, 30, 40, 50, 60});
  Tensor y;
  ASSERT_OK(binary(BinaryOp::Sub, a, b, y));
  naive::Arr ref = naive::binary([](double p, double q) { return p - q; }, naive::arr(a), naive::arr(b));
  EXPECT_TRUE(allClose(y, ref.shape, ref.v, Tol{0, 0}));
  EXPECT_LT(values(y)[0], 0);
}

TEST(Binary, Errors) {
  Tensor a(DType::F32, {3, 4}), b(DType::F32, {3}), y;
  EXPECT_EQ(binary(BinaryOp::Add, a, b, y).message(), "Add: shapes (3, 4) and (3,) do not broadcast");
  Tensor h(DType::F16, {3, 4});
  EXPECT_EQ(binary(BinaryOp::Mul, a, h, y).message(), "Mul: operand dtypes differ (f32 and f16)");
}

TEST(Where, BroadcastsAllThree) {
  std::mt19937 rng(4);
  Tensor cond(DType::Bool, {2, 1, 4});
  for (int64_t i = 0; i < cond.numElements(); ++i)
    cond.data<uint8_t>()[i] = static_cast<uint8_t>(rng() & 1);
  Tensor x = randomTensor(DType::I64, {3, 1}, rng, -100, 100), yv = randomTensor(DType::I64, {4}, rng, -100, 100);
  Tensor out;
  ASSERT_OK(where(cond, x, yv, out));
  naive::Arr cx = naive::binary([](double c, double v) { return c ? v : NAN; }, naive::arr(cond), naive::arr(x));
  naive::Arr ref = naive::binary([](double v, double e) { return std::isnan(v) ? e : v; }, cx, naive::arr(yv));
  EXPECT_EQ(out.dtype, DType::I64);
  EXPECT_TRUE(allClose(out, ref.shape, ref.v, Tol{0, 0}));
  EXPECT_FALSE(where(x, x, yv, out).ok()); // condition must be bool
}

//===----------------------------------------------------------------------===//
// Softmax, normalizations
//===----------------------------------------------------------------------===//

TEST(Softmax, EveryAxisIncludingNegative) {
  std::mt19937 rng(5);
  for (int iter = 0; iter < 20; ++iter) {
    const size_t rank = static_cast<size_t>(pick(rng, 1, 4));
    Shape s = randomShape(rng, rank, 6);
    Tensor x = randomTensor(DType::F32, s, rng, -20, 20); // wide range: needs the max shift
    for (int64_t axis = -static_cast<int64_t>(rank); axis < static_cast<int64_t>(rank); ++axis)
      for (bool log : {false, true}) {
        Tensor y;
        ASSERT_OK(log ? logSoftmax(x, axis, y) : softmax(x, axis, y));
        naive::Arr ref = naive::softmax(naive::arr(x), axis, log);
        EXPECT_TRUE(allClose(y, ref.shape, ref.v, kTolAccum)) << str(s) << " axis " << axis << (log ? " log" : "");
      }
  }
  Tensor x(DType::F32, {2, 3}), y;
  EXPECT_EQ(softmax(x, 2, y).message(), "Softmax: axis 2 is out of range for rank 2");
}

// IEEE / ONNX (numpy: x - max, exp, sum): a row holding a NaN or +inf, or only -inf, is NaN throughout (oneDNN
// gave 0 beside the NaN); a -inf next to finite values is an ordinary 0.
TEST(Softmax, NonFiniteRows) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  Tensor x = makeTensor<float>(DType::F32, {4, 3}, {1, nan, 2, 1, inf, 2, -inf, -inf, -inf, -inf, 0, 0});
  for (bool log : {false, true}) {
    Tensor y;
    ASSERT_OK(log ? logSoftmax(x, 1, y) : softmax(x, 1, y));
    std::vector<float> v = toFloatVector(y);
    for (int i = 0; i < 9; ++i)
      EXPECT_TRUE(std::isnan(v[i])) << "element " << i << (log ? " log" : "");
    EXPECT_EQ(v[9], log ? -inf : 0.f);
    EXPECT_NEAR(v[10], log ? std::log(0.5) : 0.5, 1e-5);
  }
}

TEST(BatchNorm, RanksTwoToSix) {
  std::mt19937 rng(6);
  for (size_t rank = 2; rank <= 6; ++rank) {
    Shape s = randomShape(rng, rank, 4);
    const int64_t c = s[1];
    Tensor x = randomTensor(DType::F32, s, rng, -3, 3), sc = randomTensor(DType::F32, {c}, rng),
           bi = randomTensor(DType::F32, {c}, rng), mean = randomTensor(DType::F32, {c}, rng),
           var = randomTensor(DType::F32, {c}, rng, 0.1, 2), y;
    ASSERT_OK(batchNormInference(x, sc, bi, mean, var, 1e-3f, y));
    naive::Arr ref = naive::batchNorm(naive::arr(x), naive::arr(sc), naive::arr(bi), naive::arr(mean),
                                      naive::arr(var), static_cast<double>(1e-3f));
    EXPECT_TRUE(allClose(y, ref.shape, ref.v, kTolAccum)) << str(s);
  }
  Tensor x(DType::F32, {2, 3, 4}), p3(DType::F32, {3}), p4(DType::F32, {4}), y;
  EXPECT_EQ(batchNormInference(x, p3, p3, p4, p3, 1e-5f, y).message(),
            "BatchNormalization: input_mean has shape (4,), expected (3,)");
}

TEST(LayerNorm, AxesScaleBroadcastAndOptionalBias) {
  std::mt19937 rng(7);
  for (int iter = 0; iter < 40; ++iter) {
    const size_t rank = static_cast<size_t>(pick(rng, 1, 4));
    Shape s = randomShape(rng, rank, 5);
    const int64_t axis = pick(rng, -static_cast<int64_t>(rank), static_cast<int64_t>(rank) - 1);
    const size_t ax = static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(rank) : axis);
    Shape norm(s.begin() + static_cast<std::ptrdiff_t>(ax), s.end());
    // Scale of the full normalized shape, or a broadcastable suffix with some dims set to 1.
    Shape ss(norm.begin() + pick(rng, 0, static_cast<int64_t>(norm.size()) - 1), norm.end());
    for (int64_t &d : ss)
      if (pick(rng, 0, 3) == 0)
        d = 1;
    const bool withBias = pick(rng, 0, 1);
    Tensor x = randomTensor(DType::F32, s, rng, -3, 3), sc = randomTensor(DType::F32, ss, rng),
           bi = randomTensor(DType::F32, norm, rng), y;
    ASSERT_OK(layerNorm(x, sc, withBias ? &bi : nullptr, axis, 1e-5f, y));
    naive::Arr bn = naive::arr(bi);
    naive::Arr ref =
        naive::layerNorm(naive::arr(x), naive::arr(sc), withBias ? &bn : nullptr, axis, static_cast<double>(1e-5f));
    EXPECT_TRUE(allClose(y, ref.shape, ref.v, kTolAccum)) << str(s) << " axis " << axis << " scale " << str(ss);
  }
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

TEST(Reduce, EveryOpRandomAxes) {
  std::mt19937 rng(8);
  const ReduceOp ops[] = {ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Max,    ReduceOp::Min,    ReduceOp::Prod,
                          ReduceOp::SumSquare, ReduceOp::L1, ReduceOp::L2, ReduceOp::LogSum, ReduceOp::LogSumExp};
  for (ReduceOp op : ops)
    for (int iter = 0; iter < 25; ++iter) {
      const size_t rank = static_cast<size_t>(pick(rng, 1, 4));
      Shape s = randomShape(rng, rank, 4);
      Shape axes;
      for (int64_t d = 0; d < static_cast<int64_t>(rank); ++d)
        if (pick(rng, 0, 1))
          axes.push_back(pick(rng, 0, 1) ? d : d - static_cast<int64_t>(rank)); // mix negative axes in
      const bool keep = pick(rng, 0, 1);
      const bool positive = op == ReduceOp::LogSum || op == ReduceOp::Prod;
      Tensor x = randomTensor(DType::F32, s, rng, positive ? 0.5 : -2, positive ? 1.5 : 2), y;
      ASSERT_OK(reduce(op, x, axes, keep, y));
      naive::Arr ref = naive::reduce(op, naive::arr(x), axes, keep);
      EXPECT_TRUE(allClose(y, ref.shape, ref.v, kTolAccum))
          << reduceOpName(op) << " " << str(s) << " axes " << str(axes) << (keep ? " keepdims" : "");
    }
}

TEST(Reduce, SizeOneAxesNoopAndEmpty) {
  std::mt19937 rng(9);
  Tensor x = randomTensor(DType::F32, {3, 1, 4}, rng, 0.5, 2), y;
  // Reducing only a size-1 axis is elementwise: L2 = |x|, SumSquare = x^2, LogSum = log x.
  ASSERT_OK(reduce(ReduceOp::SumSquare, x, {1}, false, y));
  naive::Arr ref = naive::reduce(ReduceOp::SumSquare, naive::arr(x), {1}, false);
  EXPECT_TRUE(allClose(y, ref.shape, ref.v, kTolF32));
  ASSERT_OK(reduce(ReduceOp::Sum, x, {}, true, y, /*noopWithEmptyAxes=*/true));
  EXPECT_TRUE(allClose(y, x, Tol{0, 0}));
  Tensor e(DType::F32, {2, 0}), ye;
  ASSERT_OK(reduce(ReduceOp::Sum, e, {1}, false, ye));
  EXPECT_TRUE(allClose(ye, Shape{2}, {0, 0}, Tol{0, 0}));
  ASSERT_OK(reduce(ReduceOp::Prod, e, {1}, true, ye));
  EXPECT_TRUE(allClose(ye, Shape{2, 1}, {1, 1}, Tol{0, 0}));
  EXPECT_EQ(reduce(ReduceOp::Sum, x, {0, -3}, false, y).message(), "ReduceSum: axis -3 is listed twice");
}

TEST(Reduce, LogSumExpIsStableForLargeInputs) {
  Tensor x = makeTensor<float>(DType::F32, {2, 2}, {1000.f, 1000.f, -1000.f, -999.f}), y;
  ASSERT_OK(reduce(ReduceOp::LogSumExp, x, {1}, false, y));
  EXPECT_TRUE(allClose(y, Shape{2}, {1000 + std::log(2.0), -999 + std::log1p(std::exp(-1.0))}, kTolF32));
}

//===----------------------------------------------------------------------===//
// MatMul, Gemm
//===----------------------------------------------------------------------===//

TEST(MatMul, NumpySemantics) {
  std::mt19937 rng(10);
  const std::vector<std::pair<Shape, Shape>> shapes = {
      {{3, 4}, {4, 5}},       {{4}, {4, 5}},          {{3, 4}, {4}},       {{4}, {4}},
      {{2, 3, 4}, {4, 5}},    {{4, 5}, {2, 5, 3}},    {{2, 1, 3, 4}, {5, 4, 2}}, {{1, 2, 3, 4}, {1, 2, 4, 3}},
      {{7, 1, 2, 3}, {1, 6, 3, 2}}, {{2, 3, 0}, {0, 4}}, {{5}, {2, 5, 3}},   {{2, 3, 5}, {5}},
  };
  for (auto &[sa, sb] : shapes) {
    Tensor a = randomTensor(DType::F32, sa, rng), b = randomTensor(DType::F32, sb, rng), y;
    ASSERT_OK(matmul(a, b, y));
    naive::Arr ref = naive::matmul(naive::arr(a), naive::arr(b));
    EXPECT_TRUE(allClose(y, ref.shape, ref.v, kTolAccum)) << str(sa) << " x " << str(sb);
  }
  Tensor a(DType::F32, {2, 3}), b(DType::F32, {4, 2}), y;
  EXPECT_EQ(matmul(a, b, y).message(), "MatMul: inner dims differ: A (2, 3), B (4, 2)");
}

TEST(Gemm, TransposesScalesAndBiasShapes) {
  std::mt19937 rng(11);
  int run = 0;
  for (bool ta : {false, true})
    for (bool tb : {false, true})
      for (int cshape = 0; cshape < 8; ++cshape) {
        const int64_t m = pick(rng, 1, 6), k = pick(rng, 1, 7), n = pick(rng, 1, 6);
        const Shape cs[] = {{}, {n}, {1, n}, {m, 1}, {m, n}, {1}, {1, 1}, {}};
        const bool noC = cshape == 7;
        const float alpha = run % 3 ? 0.75f : 1.f, beta = run % 4 ? -1.25f : 1.f;
        Tensor a = randomTensor(DType::F32, ta ? Shape{k, m} : Shape{m, k}, rng);
        Tensor b = randomTensor(DType::F32, tb ? Shape{n, k} : Shape{k, n}, rng);
        Tensor c = randomTensor(DType::F32, cs[cshape], rng), y;
        ASSERT_OK(gemm(a, b, noC ? nullptr : &c, {alpha, beta, ta, tb}, y));
        naive::Arr cn = naive::arr(c);
        naive::Arr ref = naive::gemm(naive::arr(a), naive::arr(b), noC ? nullptr : &cn, alpha, beta, ta, tb);
        EXPECT_TRUE(allClose(y, ref.shape, ref.v, kTolAccum))
            << "transA " << ta << " transB " << tb << " C " << (noC ? "none" : str(cs[cshape])) << " alpha " << alpha
            << " beta " << beta;
        ++run;
      }
  Tensor a(DType::F32, {2, 3}), b(DType::F32, {3, 4}), c(DType::F32, {3}), y;
  EXPECT_EQ(gemm(a, b, &c, {}, y).message(), "Gemm: C shape (3,) does not broadcast to (2, 4)");
}

//===----------------------------------------------------------------------===//
// Determinism
//===----------------------------------------------------------------------===//

// oneDNN runs on one thread per call whatever the caller's OpenMP setting (which is restored), so
// results are bit-identical across thread counts, repeated calls and concurrent callers.
TEST(Determinism, BitIdenticalAcrossThreadCountsAndThreads) {
  std::mt19937 rng(12);
  Tensor x = randomTensor(DType::F32, {2, 16, 20, 20}, rng), w = randomTensor(DType::F32, {32, 16, 3, 3}, rng);
  Tensor a = randomTensor(DType::F32, {64, 300}, rng), b = randomTensor(DType::F32, {300, 48}, rng);
  auto compute = [&](Tensor &yc, Tensor &ym, Tensor &yr) {
    ASSERT_OK(conv(x, w, nullptr, {{1, 1}, {}, {1, 1}, {1, 1}, 1}, yc));
    ASSERT_OK(matmul(a, b, ym));
    ASSERT_OK(reduce(ReduceOp::Sum, x, {1, 2, 3}, false, yr));
  };
  const int saved = omp_get_max_threads();
  Tensor c1, m1, r1, c2, m2, r2;
  omp_set_num_threads(1);
  compute(c1, m1, r1);
  omp_set_num_threads(4);
  compute(c2, m2, r2);
  EXPECT_EQ(omp_get_max_threads(), 4); // the caller's setting is left alone
  omp_set_num_threads(saved);
  EXPECT_EQ(c1.bytes, c2.bytes);
  EXPECT_EQ(m1.bytes, m2.bytes);
  EXPECT_EQ(r1.bytes, r2.bytes);
  Tensor c3, m3, r3, c4, m4, r4;
  std::thread t1([&] { compute(c3, m3, r3); }), t2([&] { compute(c4, m4, r4); });
  t1.join();
  t2.join();
  EXPECT_EQ(c3.bytes, c1.bytes);
  EXPECT_EQ(c4.bytes, c1.bytes);
  EXPECT_EQ(m4.bytes, m1.bytes);
  EXPECT_EQ(r3.bytes, r1.bytes);
}
