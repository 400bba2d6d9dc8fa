/*
 * Element formats and rounding: decode any format to an exact double, round a double to any format with any
 * RND_MODE. Pure integer/bit manipulation, so the result never depends on the host's FPU state or libm.
 */
#include "numerics/cm_bits.h"
#include <string.h>

#include "tx8/cm_numerics.h"

typedef struct float_spec {
    int p;          /* precision in bits, hidden bit included */
    int emin, emax; /* unbiased exponent range of normal numbers */
    int mant_shift; /* where the stored mantissa starts in the bit pattern (tf32 keeps fp32's position) */
    int exp_pos;    /* bit position of the exponent field */
    int sign_pos;
    uint32_t qnan;  /* canonical quiet NaN */
} float_spec;

static const float_spec kFP32 = {24, -126, 127, 0, 23, 31, 0x7FC00000u};
static const float_spec kTF32 = {11, -126, 127, 13, 23, 31, 0x7FC00000u};
static const float_spec kFP16 = {11, -14, 15, 0, 10, 15, 0x7E00u};
static const float_spec kBF16 = {8, -126, 127, 0, 7, 15, 0x7FC0u};


/* Decides whether to add one ulp to the truncated magnitude n, given the discarded part. */
static int round_up(RND_MODE rnd, int negative, uint64_t n, int above_half, int exactly_half, int inexact) {
    switch (rnd) {
    case RND_NEAREST_EVEN: return above_half || (exactly_half && (n & 1));
    case RND_NEAREST_AWAY: return above_half || exactly_half;
    case RND_POS_INF: return inexact && !negative;
    case RND_NEG_INF: return inexact && negative;
    case RND_ZERO:
    default: return 0;
    }
}

/* |x| = m * 2^e2 with m < 2^53; returns floor(log2|x|) (x finite, non-zero). */
static int decompose(uint64_t bits, uint64_t *m, int *e2) {
    int dexp = (int)((bits >> 52) & 0x7FF);
    *m = bits & ((1ull << 52) - 1);
    if (dexp) {
        *m |= 1ull << 52;
        *e2 = dexp - 1075;
        return dexp - 1023;
    }
    *e2 = -1074;
    int lg = 51;
    while (!((*m >> lg) & 1)) --lg;
    return -1074 + lg;
}

/* Splits m * 2^e2 at quantum 2^q: returns the truncated integer and the rounding facts of the remainder. */
static uint64_t shift_out(uint64_t m, int e2, int q, int *above, int *half, int *inexact) {
    int shift = q - e2;
    *above = *half = *inexact = 0;
    if (shift <= 0) return m << -shift; /* exact; callers guarantee the result is < 2^p */
    if (shift > 54) { *inexact = 1; return 0; } /* m < 2^53 < half an ulp */
    uint64_t r = m & ((1ull << shift) - 1), h = 1ull << (shift - 1);
    *inexact = r != 0;
    *above = r > h;
    *half = r == h;
    return m >> shift;
}

static uint32_t round_float(double x, const float_spec *s, RND_MODE rnd) {
    uint64_t bits = cm_double_to_bits(x);
    const int neg = (int)(bits >> 63);
    const uint32_t sign = (uint32_t)neg << s->sign_pos;
    const uint32_t exp_all = (1u << (s->sign_pos - s->exp_pos)) - 1u;
    const uint32_t inf = sign | (exp_all << s->exp_pos);
    if (x != x) return s->qnan;
    if (((bits >> 52) & 0x7FF) == 0x7FF) return inf;
    if ((bits << 1) == 0) return sign;

    uint64_t m;
    int e2;
    const int e = decompose(bits, &m, &e2);
    int q = (e > s->emin ? e : s->emin) - (s->p - 1);
    int above, half, inexact;
    uint64_t n = shift_out(m, e2, q, &above, &half, &inexact);
    if (round_up(rnd, neg, n, above, half, inexact)) ++n;
    if (n >> s->p) { n >>= 1; ++q; } /* carried into a new binade: n was exactly 2^p */

    const int exp_unbiased = q + s->p - 1;
    if (n >> (s->p - 1) && exp_unbiased > s->emax) {
        int to_inf = rnd == RND_NEAREST_EVEN || rnd == RND_NEAREST_AWAY || (rnd == RND_POS_INF && !neg) ||
                     (rnd == RND_NEG_INF && neg);
        if (to_inf) return inf;
        uint32_t max_mant = (1u << (s->p - 1)) - 1u;
        return sign | ((exp_all - 1u) << s->exp_pos) | (max_mant << s->mant_shift);
    }
    uint32_t biased = (n >> (s->p - 1)) ? (uint32_t)(exp_unbiased - s->emin + 1) : 0u; /* 0: subnormal */
    uint32_t mant = (uint32_t)(n & ((1ull << (s->p - 1)) - 1));
    return sign | (biased << s->exp_pos) | (mant << s->mant_shift);
}

/* x (finite, |x| < 2^63) rounded to an integer by rnd. */
static int64_t round_integer(double x, RND_MODE rnd) {
    uint64_t bits = cm_double_to_bits(x);
    const int neg = (int)(bits >> 63);
    if ((bits << 1) == 0) return 0;
    uint64_t m;
    int e2, above, half, inexact;
    decompose(bits, &m, &e2);
    uint64_t n = shift_out(m, e2, 0, &above, &half, &inexact);
    if (round_up(rnd, neg, n, above, half, inexact)) ++n;
    return neg ? -(int64_t)n : (int64_t)n;
}

static uint32_t round_int(double x, RND_MODE rnd, int64_t lo, int64_t hi) {
    if (x != x) return 0;
    if (x >= (double)hi) return (uint32_t)hi;
    if (x <= (double)lo) return (uint32_t)lo;
    int64_t v = round_integer(x, rnd);
    if (v > hi) v = hi;
    if (v < lo) v = lo;
    return (uint32_t)v;
}

int64_t cm_round_to_int64(double x, RND_MODE rnd) {
    const double two63 = 9223372036854775808.0;
    if (x != x) return 0;
    if (x >= two63) return INT64_MAX;
    if (x <= -two63) return INT64_MIN;
    return round_integer(x, rnd); /* |x| < 2^63: from 2^52 up x is an integer already, so nothing rounds past */
}

uint32_t cm_int64_to_format(int64_t v, Data_Format fmt, RND_MODE rnd) {
    switch (fmt) {
    case Fmt_INT8: return (uint32_t)(v > 127 ? 127 : v < -128 ? -128 : v) & 0xFFu;
    case Fmt_UINT8: return (uint32_t)(v > 255 ? 255 : v < 0 ? 0 : v);
    case Fmt_INT32: return (uint32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
    case Fmt_FP32: case Fmt_TF32: case Fmt_FP16: case Fmt_BF16: break;
    default: return 0;
    }
    const uint64_t mag = v < 0 ? 0u - (uint64_t)v : (uint64_t)v;
    if (mag <= (1ull << 53)) return cm_round_to_format((double)v, fmt, rnd); /* exact in double */
    /* Round to odd at 53 bits: truncate, and set the last bit when anything was cut off. The result is exact or
     * strictly between two 52-bit numbers, so one more rounding to p <= 24 bits, in any mode, is the correct
     * rounding of v itself. */
    int len = 64;
    while (!(mag >> (len - 1))) --len;
    const int shift = len - 53;
    uint64_t t = mag >> shift;
    if (mag & ((1ull << shift) - 1)) t |= 1u;
    const double d = (double)t * (double)(1ull << shift); /* t < 2^53 and a power of two: exact */
    return cm_round_to_format(v < 0 ? -d : d, fmt, rnd);
}

uint32_t cm_round_to_format(double x, Data_Format fmt, RND_MODE rnd) {
    switch (fmt) {
    case Fmt_FP32:
        if (rnd == RND_NEAREST_EVEN && x == x) return cm_float_to_bits((float)x); /* the FPU's conversion is RNE */
        return round_float(x, &kFP32, rnd);
    case Fmt_TF32: return round_float(x, &kTF32, rnd);
    case Fmt_FP16: return round_float(x, &kFP16, rnd);
    case Fmt_BF16: return round_float(x, &kBF16, rnd);
    case Fmt_INT8: return round_int(x, rnd, -128, 127) & 0xFFu;
    case Fmt_UINT8: return round_int(x, rnd, 0, 255);
    case Fmt_INT32: return round_int(x, rnd, INT32_MIN, INT32_MAX);
    default: return 0;
    }
}

double cm_format_to_double(uint32_t bits, Data_Format fmt) {
    switch (fmt) {
    case Fmt_FP32:
    case Fmt_TF32: return (double)cm_bits_to_float(bits);
    case Fmt_BF16: return (double)cm_bits_to_float((bits & 0xFFFFu) << 16);
    case Fmt_FP16: {
        uint32_t e = (bits >> 10) & 0x1F, m = bits & 0x3FF;
        double mag = e == 0 ? m * cm_pow2(-24) : e == 31 ? (m ? cm_bits_to_double(0x7FF8000000000000ull)
                                                           : cm_bits_to_double(0x7FF0000000000000ull))
                                                : (double)(m | 0x400u) * cm_pow2((int)e - 25);
        return (bits & 0x8000u) ? -mag : mag;
    }
    case Fmt_INT8: return (double)(int8_t)(bits & 0xFFu);
    case Fmt_UINT8: return (double)(bits & 0xFFu);
    case Fmt_INT32: return (double)(int32_t)bits;
    default: return 0.0;
    }
}

double cm_load_element(const uint8_t *p, Data_Format fmt) {
    uint32_t bits = 0;
    if (fmt == Fmt_INT64) {
        uint64_t u = 0;
        for (int i = 7; i >= 0; --i) u = u << 8 | p[i];
        return (double)(int64_t)u; /* the nearest double (the FPU's conversion rounds to nearest even) */
    }
    switch (tx8_format_bytes(fmt)) {
    case 1: bits = p[0]; break;
    case 2: bits = (uint32_t)p[0] | (uint32_t)p[1] << 8; break;
    case 4: bits = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; break;
    default: return 0.0;
    }
    return cm_format_to_double(bits, fmt);
}

void cm_store_element(uint8_t *p, Data_Format fmt, double x, RND_MODE rnd) {
    if (fmt == Fmt_INT64) {
        const uint64_t u = (uint64_t)cm_round_to_int64(x, rnd);
        for (int i = 0; i < 8; ++i) p[i] = (uint8_t)(u >> (8 * i));
        return;
    }
    uint32_t bits = cm_round_to_format(x, fmt, rnd);
    uint32_t n = tx8_format_bytes(fmt);
    for (uint32_t i = 0; i < n; ++i) p[i] = (uint8_t)(bits >> (8 * i));
}

uint16_t cm_fp32_to_fp16(float x) { return (uint16_t)cm_round_to_format(x, Fmt_FP16, RND_NEAREST_EVEN); }
uint16_t cm_fp32_to_bf16(float x) { return (uint16_t)cm_round_to_format(x, Fmt_BF16, RND_NEAREST_EVEN); }
float cm_fp16_to_fp32(uint16_t h) { return (float)cm_format_to_double(h, Fmt_FP16); }
float cm_bf16_to_fp32(uint16_t h) { return (float)cm_format_to_double(h, Fmt_BF16); }
float cm_fp32_to_tf32(float x) { return cm_bits_to_float(cm_round_to_format(x, Fmt_TF32, RND_NEAREST_EVEN)); }
