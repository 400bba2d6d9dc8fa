//===- test_data_movement.cpp - Transpose, slice, gather, pad, ... vs naive ===//

#include "NaiveRef.h"
#include "RefTestUtil.h"
#include "tx8/Reference/Kernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>

using namespace reftest;
using namespace tx8::ref;

namespace {

int64_t pick(std::mt19937 &rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

const DType kAllTypes[] = {DType::F32, DType::F16, DType::BF16, DType::F64, DType::I8,
                           DType::U8,  DType::I32, DType::I64,  DType::Bool};

// Random values that every dtype represents exactly (small integers), so comparisons are exact.
Tensor randomExact(DType dt, const Shape &s, std::mt19937 &rng) {
  Tensor t(dt, s);
  for (int64_t i = 0; i < t.numElements(); ++i)
    setElementFromInt64(t, i, dt == DType::Bool ? pick(rng, 0, 1) : pick(rng, dt == DType::U8 ? 0 : -100, 100));
  return t;
}

} // namespace

TEST(Transpose, RandomPermutationsEveryDtype) {
  std::mt19937 rng(1);
  for (DType dt : kAllTypes)
    for (int iter = 0; iter < 10; ++iter) {
      const size_t r = static_cast<size_t>(pick(rng, 1, 5));
      Shape s, perm(r);
      for (size_t i = 0; i < r; ++i)
        s.push_back(pick(rng, 1, 4));
      std::iota(perm.begin(), perm.end(), 0);
      std::shuffle(perm.begin(), perm.end(), rng);
      Tensor x = randomExact(dt, s, rng), y;
      ASSERT_OK(transpose(x, perm, y));
      EXPECT_EQ(y.dtype, dt);
      naive::Arr ref = naive::transpose(naive::arr(x), perm);
      EXPECT_TRUE(allClose(y, ref.shape, ref.v, Tol{0, 0})) << str(s) << " perm " << str(perm);
    }
  Tensor x(DType::F32, {2, 3, 4}), y;
  ASSERT_OK(transpose(x, {}, y));
  EXPECT_EQ(y.shape, (Shape{4, 3, 2}));
  EXPECT_EQ(transpose(x, {0, 0, 1}, y).message(), "Transpose: perm (0, 0, 1) is not a permutation of the 3 dims");
}

TEST(Reshape, ResolveZeroAndMinusOne) {
  Shape out;
  ASSERT_OK(resolveReshape({2, 3, 4}, {0, -1}, false, out));
  EXPECT_EQ(out, (Shape{2, 12}));
  ASSERT_OK(resolveReshape({2, 3, 4}, {-1, 0, 2, 2}, false, out));
  EXPECT_EQ(out, (Shape{2, 3, 2, 2}));
  ASSERT_OK(resolveReshape({0, 3, 4}, {3, 4, 0}, true, out)); // allowzero keeps a literal 0
  EXPECT_EQ(out, (Shape{3, 4, 0}));
  EXPECT_FALSE(resolveReshape({2, 3, 4}, {-1, -1}, false, out).ok());
  EXPECT_FALSE(resolveReshape({2, 3, 4}, {5, -1}, false, out).ok());
  EXPECT_FALSE(resolveReshape({2, 3, 4}, {2, 3}, false, out).ok());
  std::mt19937 rng(2);
  Tensor x = randomExact(DType::I32, {2, 3, 4}, rng), y;
  ASSERT_OK(reshape(x, {4, 6}, y));
  EXPECT_EQ(y.shape, (Shape{4, 6}));
  EXPECT_EQ(y.bytes, x.bytes);
  EXPECT_EQ(reshape(x, {5, 5}, y).message(), "Reshape: cannot reshape (2, 3, 4) (24 elements) to (5, 5)");
}

TEST(Concat, AxesAndDtypes) {
  std::mt19937 rng(3);
  for (DType dt : kAllTypes)
    for (int64_t axis = -3; axis < 3; ++axis) {
      const size_t ax = static_cast<size_t>(axis < 0 ? axis + 3 : axis);
      std::vector<Tensor> parts;
      Shape base{2, 3, 4};
      for (int k = 0; k < 3; ++k) {
        Shape s = base;
        s[ax] = pick(rng, 0, 3); // zero-sized parts included
        parts.push_back(randomExact(dt, s, rng));
      }
      Tensor y;
      ASSERT_OK(concat({&parts[0], &parts[1], &parts[2]}, axis, y));
      // Naive: the output element at index i along `ax` comes from the part covering i.
      Shape ys = base;
      ys[ax] = parts[0].shape[ax] + parts[1].shape[ax] + parts[2].shape[ax];
      std::vector<double> ref(static_cast<size_t>(numel(ys)));
      for (int64_t o = 0; o < numel(ys); ++o) {
        Shape oi = unravel(o, ys);
        size_t k = 0;
        while (oi[ax] >= parts[k].shape[ax]) {
          oi[ax] -= parts[k].shape[ax];
          ++k;
        }
        ref[static_cast<size_t>(o)] = elementAsDouble(parts[k], ravel(oi, parts[k].shape));
      }
      EXPECT_TRUE(allClose(y, ys, ref, Tol{0, 0})) << dtypeName(dt) << " axis " << axis;
    }
  Tensor a(DType::F32, {2, 3}), b(DType::F32, {3, 3}), c(DType::I32, {2, 3}), y;
  EXPECT_EQ(concat({&a, &b}, 1, y).message(),
            "Concat: input 1 shape (3, 3) does not match input 0 shape (2, 3) outside axis 1");
  EXPECT_EQ(concat({&a, &c}, 0, y).message(), "Concat: input 1 has dtype i32, input 0 has f32");
}

TEST(Slice, RandomStartsEndsStepsAgainstPythonSemantics) {
  std::mt19937 rng(4);
  const int64_t big = std::numeric_limits<int64_t>::max(), small = std::numeric_limits<int64_t>::min();
  for (int iter = 0; iter < 300; ++iter) {
    const size_t r = static_cast<size_t>(pick(rng, 1, 4));
    Shape s;
    for (size_t i = 0; i < r; ++i)
      s.push_back(pick(rng, 0, 6));
    Shape axes(r), starts, ends, steps;
    std::iota(axes.begin(), axes.end(), 0);
    std::shuffle(axes.begin(), axes.end(), rng);
    axes.resize(static_cast<size_t>(pick(rng, 1, static_cast<int64_t>(r))));
    for (int64_t &a : axes)
      if (pick(rng, 0, 1))
        a -= static_cast<int64_t>(r); // negative axis
    auto bound = [&]() {
      switch (pick(rng, 0, 5)) {
      case 0: return big;
      case 1: return small;
      default: return pick(rng, -9, 9); // negative and out of range included
      }
    };
    for (size_t i = 0; i < axes.size(); ++i) {
      starts.push_back(bound());
      ends.push_back(bound());
      int64_t st = pick(rng, -3, 3);
      steps.push_back(st == 0 ? 1 : st);
    }
    Tensor x = randomExact(DType::F32, s, rng), y;
    const bool defaultSteps = pick(rng, 0, 4) == 0;
    if (defaultSteps)
      std::fill(steps.begin(), steps.end(), 1);
    ASSERT_OK(slice(x, starts, ends, axes, defaultSteps ? Shape{} : steps, y));
    naive::Arr ref = naive::slice(naive::arr(x), starts, ends, axes, steps);
    EXPECT_TRUE(allClose(y, ref.shape, ref.v, Tol{0, 0}))
        << str(s) << " starts " << str(starts) << " ends " << str(ends) << " axes " << str(axes) << " steps "
        << str(steps);
  }
  // ONNX (unlike Python) clamps a backward start before the beginning to 0: one element.
  Tensor v = makeTensor<float>(DType::F32, {3}, {1, 2, 3}), yv;
  ASSERT_OK(slice(v, {-100}, {small}, {0}, {-1}, yv));
  EXPECT_TRUE(allClose(yv, Shape{1}, {1}, Tol{0, 0}));
  Tensor x(DType::F32, {4, 4}), y;
  EXPECT_EQ(slice(x, {0}, {2}, {0}, {0}, y).message(), "Slice: step 0 on axis 0");
  EXPECT_EQ(slice(x, {0, 0}, {2, 2}, {1, -1}, {}, y).message(), "Slice: axis 1 is sliced twice");
}

TEST(Gather, AxesNegativeIndicesIndexTypes) {
  std::mt19937 rng(5);
  for (int iter = 0; iter < 60; ++iter) {
    const size_t r = static_cast<size_t>(pick(rng, 1, 4));
    Shape s;
    for (size_t i = 0; i < r; ++i)
      s.push_back(pick(rng, 1, 5));
    const int64_t axis = pick(rng, -static_cast<int64_t>(r), static_cast<int64_t>(r) - 1);
    const int64_t dim = s[static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(r) : axis)];
    Shape is;
    for (int64_t i = pick(rng, 0, 2); i > 0; --i) // rank-0 indices included
      is.push_back(pick(rng, 1, 3));
    const DType it = pick(rng, 0, 1) ? DType::I64 : DType::I32;
    Tensor ind(it, is);
    std::vector<int64_t> iv;
    for (int64_t i = 0; i < ind.numElements(); ++i) {
      iv.push_back(pick(rng, -dim, dim - 1));
      setElementFromInt64(ind, i, iv.back());
    }
    Tensor data = randomExact(kAllTypes[iter % 9], s, rng), y;
    ASSERT_OK(gather(data, ind, axis, y));
    naive::Arr ref = naive::gather(naive::arr(data), iv, is, axis);
    EXPECT_TRUE(allClose(y, ref.shape, ref.v, Tol{0, 0})) << str(s) << " axis " << axis << " indices " << str(iv);
  }
  Tensor data(DType::F32, {3, 4}), ind = makeTensor<int64_t>(DType::I64, {2}, {1, 4}), y;
  EXPECT_EQ(gather(data, ind, 1, y).message(), "Gather: index 4 is out of range for axis 1 of size 4");
  Tensor fi(DType::F32, {1});
  EXPECT_EQ(gather(data, fi, 0, y).message(), "Gather: indices have dtype f32, expected i32 or i64");
}

TEST(Pad, ModesLargeAndNegativePads) {
  std::mt19937 rng(6);
  for (PadMode mode : {PadMode::Constant, PadMode::Reflect, PadMode::Edge})
    for (int iter = 0; iter < 60; ++iter) {
      const size_t r = static_cast<size_t>(pick(rng, 1, 4));
      Shape s, pads(2 * r);
      for (size_t i = 0; i < r; ++i)
        s.push_back(pick(rng, 1, 5));
      for (size_t i = 0; i < r; ++i) {
        // Pads up to 2x the dim (reflect must bounce more than once), negative ones crop.
        pads[i] = pick(rng, -s[i] / 2, 2 * s[i]);
        pads[r + i] = pick(rng, -s[i] / 2, 2 * s[i]);
      }
      Tensor x = randomExact(kAllTypes[iter % 9], s, rng), y;
      const double value = x.dtype == DType::Bool ? 1 : (x.dtype == DType::U8 ? 7 : -7);
      ASSERT_OK(pad(x, pads, mode, value, y));
      naive::Arr ref = naive::pad(naive::arr(x), pads, mode, value);
      EXPECT_TRUE(allClose(y, ref.shape, ref.v, Tol{0, 0}))
          << str(s) << " pads " << str(pads) << " mode " << static_cast<int>(mode) << " " << dtypeName(x.dtype);
    }
  // NumPy reflect of [1 2 3] by 2 on both sides: 3 2 [1 2 3] 2 1 (the edge is not repeated).
  Tensor x = makeTensor<float>(DType::F32, {3}, {1, 2, 3}), y;
  ASSERT_OK(pad(x, {2, 2}, PadMode::Reflect, 0, y));
  naive::Arr ref = naive::pad(naive::arr(x), {2, 2}, PadMode::Reflect, 0);
  EXPECT_EQ(ref.v, (std::vector<double>{3, 2, 1, 2, 3, 2, 1}));
  EXPECT_TRUE(allClose(y, ref.shape, ref.v, Tol{0, 0}));
  EXPECT_EQ(pad(x, {1}, PadMode::Edge, 0, y).message(), "Pad: pads has 1 values, expected 2 for rank 1");
  EXPECT_FALSE(pad(x, {-2, -2}, PadMode::Constant, 0, y).ok());
}

TEST(Expand, Bidirectional) {
  std::mt19937 rng(7);
  Tensor x = randomExact(DType::I64, {3, 1}, rng), y;
  ASSERT_OK(expand(x, {2, 1, 6}, y));
  naive::Arr ones{{2, 1, 6}, std::vector<double>(12, 0.0)};
  naive::Arr ref = naive::binary([](double a, double b) { return a + b; }, naive::arr(x), ones);
  EXPECT_EQ(y.shape, (Shape{2, 3, 6}));
  EXPECT_TRUE(allClose(y, ref.shape, ref.v, Tol{0, 0}));
  EXPECT_FALSE(expand(x, {2, 4}, y).ok());
}

TEST(Cast, MatrixOfDtypes) {
  std::mt19937 rng(8);
  for (DType from : kAllTypes)
    for (DType to : kAllTypes) {
      Tensor x = randomExact(from, {4, 5}, rng), y;
      ASSERT_OK(cast(x, to, y));
      EXPECT_EQ(y.dtype, to);
      std::vector<double> ref = values(x);
      if (to == DType::Bool)
        for (double &v : ref)
          v = v != 0;
      if (to == DType::U8 && from != DType::Bool && isIntegerType(from))
        for (double &v : ref)
          v = static_cast<uint8_t>(static_cast<int64_t>(v)); // two's-complement wrap, as numpy
      if (to == DType::U8 && isFloatType(from))
        for (double &v : ref)
          v = std::max(0.0, v); // saturating
      EXPECT_TRUE(allClose(y, x.shape, ref, Tol{0, 0})) << dtypeName(from) << " -> " << dtypeName(to);
    }
  // float -> int truncates toward zero and saturates; NaN -> 0.
  Tensor f = makeTensor<double>(DType::F64, {5}, {2.9, -2.9, 1e20, -1e20, NAN}), y;
  ASSERT_OK(cast(f, DType::I32, y));
  EXPECT_TRUE(allClose(y, Shape{5}, {2, -2, 2147483647.0, -2147483648.0, 0}, Tol{0, 0}));
  // i64 beyond 2^53 survives i64 -> i64 and wraps exactly in i64 -> i32.
  Tensor big = makeTensor<int64_t>(DType::I64, {1}, {(int64_t{1} << 53) + 1}), yb;
  ASSERT_OK(cast(big, DType::I64, yb));
  EXPECT_EQ(yb.data<int64_t>()[0], (int64_t{1} << 53) + 1);
  ASSERT_OK(cast(big, DType::I32, yb));
  EXPECT_EQ(yb.data<int32_t>()[0], 1);
}
