/*
 * Portable sin / cos / tan in double (no libm, no FMA: the same bits on every backend).
 *
 * The argument is reduced to x = q pi/2 + y with |y| <= pi/4 (+ an ulp), y kept as hi + lo:
 *   |x| <  2^20 pi/2   Cody-Waite: q = nearest(x 2/pi), y = x - q P1 - q P2 - q P3 - q P4, pi/2 = P1 + P2 + P3 + P4
 *                      (three 33-bit heads, so each q Pi is exact, and a 53-bit tail: 152 bits of pi/2), every
 *                      subtraction tracked exactly in double-double.
 *   |x| >= 2^20 pi/2   Payne-Hanek: x = M 2^e (M < 2^53) times the 256 bits of 2/pi that matter for it (earlier bits
 *                      only add multiples of 4 to x 2/pi) in 32-bit limbs; q = the integer part mod 4, the fraction
 *                      (>= 223 bits) times pi/2 in double-double. The bits dropped past the 256 are < 2^-160 of a
 *                      quadrant, far below the ~2^-62 that the closest double comes to a multiple of pi/2, so every
 *                      finite double reduces accurately and deterministically.
 * Kernels on |y| <= pi/4: Taylor polynomials of sin (to y^21) and cos (to y^20), truncation below 2^-70, each result
 * as hi + lo; tan = sin / cos (or -cos / sin) divided in double-double.
 */
#include "numerics/cm_dd.h"

#include "tx8/cm_numerics.h"

static const double kInvPio2 = 0.63661977236758138; /* 2/pi */
/* pi/2 = kPio2_1 + kPio2_2 + kPio2_3 + kPio2_3t (33 + 33 + 33 + 53 bits) and as hi + lo. */
static const double kPio2_1 = 1.5707963267341256, kPio2_2 = 6.077100506303966e-11;
static const double kPio2_3 = 2.0222662487111665e-21, kPio2_3t = 8.4784276603688996e-32;
static const double kPio2Hi = 1.5707963267948966, kPio2Lo = 6.123233995736766e-17;
static const double kMediumLimit = 1647099.3291652855; /* 2^20 pi/2 */

/* The first 1280 bits of 2/pi, 32 per word, most significant first: 2/pi = sum kTwoOverPi[j] 2^(-32(j+1)). */
static const uint32_t kTwoOverPi[40] = {
    0xA2F9836E, 0x4E441529, 0xFC2757D1, 0xF534DDC0, 0xDB629599, 0x3C439041, 0xFE5163AB, 0xDEBBC561,
    0xB7246E3A, 0x424DD2E0, 0x06492EEA, 0x09D1921C, 0xFE1DEB1C, 0xB129A73E, 0xE88235F5, 0x2EBB4484,
    0xE99C7026, 0xB45F7E41, 0x3991D639, 0x835339F4, 0x9C845F8B, 0xBDF9283B, 0x1FF897FF, 0xDE05980F,
    0xEF2F118B, 0x5A0A6D1F, 0x6D367ECF, 0x27CB09B7, 0x4F463F66, 0x9E5FEA2D, 0x7527BAC7, 0xEBE5F17B,
    0x3D0739F7, 0x8A5292EA, 0x6BFB5FB1, 0x1F8D5D08, 0x56033046, 0xFC7B6BAB, 0xF0CFBC20, 0x9AF4361D,
};

/* (-1)^n / (2n+1)! for n = 1..10 and (-1)^n / (2n)! for n = 2..10. */
static const double kSin[10] = {
    -0.16666666666666666, 0.0083333333333333332, -0.00019841269841269841, 2.7557319223985893e-06,
    -2.505210838544172e-08, 1.6059043836821613e-10, -7.6471637318198164e-13, 2.8114572543455206e-15,
    -8.2206352466243295e-18, 1.9572941063391263e-20,
};
static const double kCos[9] = {
    0.041666666666666664, -0.0013888888888888889, 2.4801587301587302e-05, -2.7557319223985888e-07,
    2.08767569878681e-09, -1.1470745597729725e-11, 4.7794773323873853e-14, -1.5619206968586225e-16,
    4.1103176233121648e-19,
};

static int reduce_medium(double x, double *yh, double *yl) {
    const double t = x * kInvPio2;
    const double q = (double)(int)(t < 0.0 ? t - 0.5 : t + 0.5);
    const double r = x - q * kPio2_1; /* exact: q P1 is, and it is within a factor 2 of x */
    double h, l, h2, l2;
    cm_two_sum(r, -(q * kPio2_2), &h, &l);
    cm_two_sum(h, -(q * kPio2_3), &h2, &l2);
    cm_two_sum(h2, (l + l2) - q * kPio2_3t, yh, yl);
    return (int)q;
}

static uint32_t limb_bit(const uint32_t *p, int i) { return p[i >> 5] >> (i & 31) & 1u; }

static int reduce_large(double x, double *yh, double *yl) {
    const uint64_t b = cm_double_to_bits(x);
    const int e = (int)(b >> 52 & 0x7FF) - 1075; /* |x| = m 2^e */
    const uint64_t m = (b & 0xFFFFFFFFFFFFFull) | 1ull << 52;
    const int j0 = e >= 34 ? (e - 2) / 32 : 0; /* words j < j0 have 32(j+1) <= e - 2: they add multiples of 4 */
    const int s = 32 * (j0 + 8) - e;           /* x 2/pi = p 2^-s (mod 4); s in [223, 288] */
    uint32_t w[8], p[10] = {0};
    for (int i = 0; i < 8; ++i) w[i] = kTwoOverPi[j0 + 7 - i]; /* little-endian limbs */
    const uint32_t mm[2] = {(uint32_t)m, (uint32_t)(m >> 32)};
    for (int a = 0; a < 2; ++a) { /* p = m * w, schoolbook: each step fits in 64 bits */
        uint64_t carry = 0;
        for (int i = 0; i < 8; ++i) {
            const uint64_t t = (uint64_t)mm[a] * w[i] + p[a + i] + carry;
            p[a + i] = (uint32_t)t;
            carry = t >> 32;
        }
        p[a + 8] = (uint32_t)carry;
    }
    int q = (int)(limb_bit(p, s) | limb_bit(p, s + 1) << 1);
    for (int i = s >> 5; i < 10; ++i) p[i] &= i == s >> 5 ? (1u << (s & 31)) - 1u : 0u; /* keep the fraction */
    const int negate = (int)limb_bit(p, s - 1); /* fraction >= 1/2: take fraction - 1 and the next quadrant */
    if (negate) {
        ++q;
        uint64_t borrow = 1; /* two's complement of the s-bit fraction: 2^s - f */
        for (int i = 0; i < 10; ++i) {
            const uint64_t t = (uint64_t)(uint32_t)~p[i] + borrow;
            p[i] = (uint32_t)t;
            borrow = t >> 32;
        }
        for (int i = s >> 5; i < 10; ++i) p[i] &= i == s >> 5 ? (1u << (s & 31)) - 1u : 0u;
    }
    double fh = 0.0, fl = 0.0; /* the fraction as a double-double, its largest limb first */
    for (int i = (s - 1) >> 5; i >= 0; --i) {
        double err;
        cm_two_sum(fh, (double)p[i] * cm_pow2(32 * i - s), &fh, &err);
        fl += err;
    }
    cm_fast_two_sum(fh, fl, &fh, &fl);
    double ph, pe;
    cm_two_prod(fh, kPio2Hi, &ph, &pe);
    pe += fh * kPio2Lo + fl * kPio2Hi;
    cm_fast_two_sum(ph, pe, yh, yl);
    if (negate) *yh = -*yh, *yl = -*yl;
    if (x < 0.0) *yh = -*yh, *yl = -*yl, q = -q;
    return q;
}

/* x = q pi/2 + (yh + yl); returns q mod 4. */
static unsigned reduce(double x, double *yh, double *yl) {
    const double a = x < 0.0 ? -x : x;
    if (a <= 0.78539816339744828) { /* pi/4 */
        *yh = x, *yl = 0.0;
        return 0;
    }
    return (unsigned)(a < kMediumLimit ? reduce_medium(x, yh, yl) : reduce_large(x, yh, yl)) & 3u;
}

/* sin(x + y) as hi + lo for |x| <= pi/4 + an ulp, |y| <= ulp(x): x + v (S1 + z r) + y (1 - z/2), v = x^3. */
static void sin_kernel(double x, double y, double *sh, double *sl) {
    const double z = x * x, v = z * x;
    double r = kSin[9];
    for (int i = 8; i >= 1; --i) r = kSin[i] + z * r;
    cm_fast_two_sum(x, v * (kSin[0] + z * r) + y * (1.0 - 0.5 * z), sh, sl);
}

/* cos(x + y) as hi + lo: 1 - (x^2)/2 with x^2 exact in double-double, + x^4 r - x y. */
static void cos_kernel(double x, double y, double *ch, double *cl) {
    double zh, zl;
    cm_two_prod(x, x, &zh, &zl);
    double r = kCos[8];
    for (int i = 7; i >= 0; --i) r = kCos[i] + zh * r;
    const double hz = 0.5 * zh, w = 1.0 - hz;
    cm_fast_two_sum(w, (((1.0 - w) - hz) - 0.5 * zl) + (zh * zh * r - x * y), ch, cl); /* (1 - w) - hz: exact */
}

double cm_sin(double x) {
    if (x - x != 0.0) return x - x; /* NaN, +-inf: NaN */
    if ((x < 0.0 ? -x : x) < 7.4505805969238281e-09) return x; /* |x| < 2^-27: x - x^3/6 rounds to x */
    double yh, yl, h, l;
    const unsigned q = reduce(x, &yh, &yl);
    if (q & 1u) cos_kernel(yh, yl, &h, &l);
    else sin_kernel(yh, yl, &h, &l);
    return q >= 2u ? -h : h;
}

double cm_cos(double x) {
    if (x - x != 0.0) return x - x;
    if ((x < 0.0 ? -x : x) < 7.4505805969238281e-09) return 1.0;
    double yh, yl, h, l;
    const unsigned q = reduce(x, &yh, &yl);
    if (q & 1u) sin_kernel(yh, yl, &h, &l);
    else cos_kernel(yh, yl, &h, &l);
    return q == 1u || q == 2u ? -h : h;
}

double cm_tan(double x) {
    if (x - x != 0.0) return x - x;
    if ((x < 0.0 ? -x : x) < 7.4505805969238281e-09) return x; /* x + x^3/3 rounds to x */
    double yh, yl, sh, sl, ch, cl, th, tl;
    const unsigned q = reduce(x, &yh, &yl);
    sin_kernel(yh, yl, &sh, &sl);
    cos_kernel(yh, yl, &ch, &cl);
    if (q & 1u) { /* tan(y + pi/2) = -cos y / sin y */
        cm_dd_div(ch, cl, sh, sl, &th, &tl);
        return -th;
    }
    cm_dd_div(sh, sl, ch, cl, &th, &tl);
    return th;
}
