//===- test_convert.cpp - f16 / bf16 conversions --------------------------===//
//
// Checked against the compiler's own _Float16 conversions (GCC, x86-64: IEEE round to nearest even)
// and, for bf16 and f64 inputs, against the defining property of round-to-nearest-even.

#include "RefTestUtil.h"
#include "tx8/Reference/Convert.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace tx8::ref;

namespace {

uint16_t bitsOf(_Float16 h) {
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
_Float16 halfOf(uint16_t b) {
  _Float16 h;
  std::memcpy(&h, &b, 2);
  return h;
}
float floatOf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Round to nearest even as a property: no representable neighbour is closer, and on a tie the
// mantissa is even. `decode` maps bits to value; `bits` is the candidate (finite, non-NaN).
template <typename Decode> bool isNearestEven(double x, uint16_t bits, Decode decode) {
  const double v = decode(bits);
  if (std::isinf(v))
    return true; // overflow handling is checked separately
  const double d = std::fabs(v - x);
  for (int delta : {-1, 1}) {
    const uint16_t nb = static_cast<uint16_t>(bits + delta);
    if ((nb & 0x7fff) == 0x7fff || ((bits ^ nb) & 0x8000))
      continue; // stepped across the sign or out of the finite range
    const double nv = decode(nb);
    if (std::isnan(nv) || std::isinf(nv))
      continue;
    const double nd = std::fabs(nv - x);
    if (nd < d || (nd == d && (bits & 1)))
      return false;
  }
  return true;
}

} // namespace

TEST(Convert, HalfToFloatAllPatternsAndRoundTrip) {
  for (uint32_t b = 0; b < 65536; ++b) {
    const uint16_t h = static_cast<uint16_t>(b);
    const float f = halfToFloat(h), ref = static_cast<float>(halfOf(h));
    if (std::isnan(ref)) {
      EXPECT_TRUE(std::isnan(f)) << std::hex << b;
      EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(f))));
      continue;
    }
    ASSERT_EQ(bitsOf(f), bitsOf(ref)) << std::hex << b;
    ASSERT_EQ(floatToHalf(f), h) << std::hex << b; // exact values convert back unchanged
  }
}

TEST(Convert, FloatToHalfMatchesCompilerOnRandomBits) {
  std::mt19937 rng(42);
  for (int i = 0; i < 2000000; ++i) {
    // Concentrate on exponents near the half range (normal, subnormal, overflow edges).
    uint32_t u = rng();
    if (i % 2)
      u = (u & 0x807fffffu) | ((static_cast<uint32_t>(rng() % 50) + 98) << 23);
    const float f = floatOf(u);
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(f))));
      continue;
    }
    ASSERT_EQ(floatToHalf(f), bitsOf(static_cast<_Float16>(f))) << std::hexfloat << f;
  }
  // Ties: 1 + 2^-11 lies halfway between 1 and 1 + 2^-10 and goes to the even one (1); 65520 is
  // halfway between the largest half 65504 and 65536, and rounds to infinity.
  EXPECT_EQ(floatToHalf(1.0f + 0x1p-11f), bitsOf(static_cast<_Float16>(1.0f + 0x1p-11f)));
  EXPECT_EQ(floatToHalf(65520.f), 0x7c00);
  EXPECT_EQ(floatToHalf(-65519.f), 0xfbff);
  EXPECT_EQ(floatToHalf(0x1p-25f), 0);      // half of the smallest subnormal: tie to even (0)
  EXPECT_EQ(floatToHalf(0x1.8p-25f), 1);    // above the tie
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
}

TEST(Convert, DoubleToHalfRoundsOnce) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mant(1.0, 2.0);
  for (int i = 0; i < 500000; ++i) {
    const double d = std::ldexp(mant(rng), static_cast<int>(rng() % 44) - 28) * ((rng() & 1) ? -1 : 1);
    const uint16_t h = doubleToHalf(d);
    ASSERT_EQ(h, bitsOf(static_cast<_Float16>(d))) << std::hexfloat << d;
  }
  // 1 + 2^-11 + 2^-40 is just above a half-way point: rounded once it goes up; rounded through f32
  // first (which lands exactly on the tie) it would go down to 1.
  const double x = 1.0 + 0x1p-11 + 0x1p-40;
  EXPECT_EQ(doubleToHalf(x), 0x3c01);
  EXPECT_EQ(floatToHalf(static_cast<float>(x)), 0x3c00);
}

TEST(Convert, BFloat16) {
  std::mt19937 rng(9);
  for (int i = 0; i < 2000000; ++i) {
    const uint32_t u = rng();
    const float f = floatOf(u);
    const uint16_t b = floatToBf16(f);
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(bf16ToFloat(b)));
      continue;
    }
    // The classic integer formulation of round-to-nearest-even on the top 16 bits.
    const uint16_t ref = static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
    ASSERT_EQ(b, ref) << std::hexfloat << f;
  }
  for (uint32_t b = 0; b < 65536; ++b) {
    const float f = bf16ToFloat(static_cast<uint16_t>(b));
    ASSERT_EQ(bitsOf(f), b << 16);
    if (!std::isnan(f)) {
      ASSERT_EQ(floatToBf16(f), b);
    }
  }
  EXPECT_EQ(floatToBf16(std::numeric_limits<float>::max()), 0x7f80); // rounds up to +inf
  // Once-rounded from double: same double-rounding trap as for f16.
  EXPECT_EQ(doubleToBf16(1.0 + 0x1p-8 + 0x1p-40), 0x3f81);
  EXPECT_EQ(floatToBf16(static_cast<float>(1.0 + 0x1p-8 + 0x1p-40)), 0x3f80);
  std::mt19937_64 r64(3);
  std::uniform_real_distribution<double> mant(1.0, 2.0);
  for (int i = 0; i < 200000; ++i) {
    const double d = std::ldexp(mant(r64), static_cast<int>(r64() % 250) - 125);
    ASSERT_TRUE(isNearestEven(d, doubleToBf16(d), [](uint16_t v) { return static_cast<double>(bf16ToFloat(v)); }))
        << std::hexfloat << d;
  }
}

TEST(Convert, TensorHelpers) {
  Tensor t = makeTensor<double>(DType::BF16, {3}, {1.0, -2.5, 1e-3});
  std::vector<float> v = toFloatVector(t);
  EXPECT_EQ(v[0], 1.0f);
  EXPECT_EQ(v[1], -2.5f);
  EXPECT_EQ(v[2], bf16ToFloat(doubleToBf16(1e-3)));
  Tensor back = fromFloatVector(v, {3}, DType::BF16);
  EXPECT_EQ(back.bytes, t.bytes);
  Tensor i8 = fromFloatVector({300.f, -300.f, -1.7f}, {3}, DType::I8);
  EXPECT_EQ(i8.data<int8_t>()[0], 127);
  EXPECT_EQ(i8.data<int8_t>()[1], -128);
  EXPECT_EQ(i8.data<int8_t>()[2], -1);
}
