/*
 * The exact double operations of the numerics: the correctly rounded square root, and rounding to an integral value
 * (floor, ceil, round half to even). No libm: the rounding uses the FPU's own round-to-nearest-even on a sum with
 * 2^52, which every IEEE host does alike.
 */
#include "numerics/cm_bits.h"

#include "tx8/cm_numerics.h"

/* sqrt through the hardware instruction: IEEE correctly rounded on x86-64 (SSE2) and RISC-V (D extension).
 * __builtin_sqrt alone would also emit a libm call for negative inputs (errno), which the cmodel must not link;
 * other hosts use it anyway. Negative inputs give NaN (stored as the format's canonical NaN). */
double cm_sqrt(double x) {
    if (!(x >= 0.0)) return x != x ? x : cm_bits_to_double(0x7FF8000000000000ull);
#if defined(__GNUC__) && defined(__x86_64__)
    double r;
    __asm__("sqrtsd %1, %0" : "=x"(r) : "x"(x));
    return r;
#elif defined(__GNUC__) && defined(__riscv) && defined(__riscv_d)
    double r;
    __asm__("fsqrt.d %0, %1" : "=f"(r) : "f"(x));
    return r;
#else
    return __builtin_sqrt(x);
#endif
}

double cm_roundeven(double x) {
    const double two52 = 4503599627370496.0; /* from 2^52 up every double is an integer */
    const double a = x < 0.0 ? -x : x;
    if (!(a < two52)) return x; /* NaN, +-inf, integers */
    const double r = (a + two52) - two52; /* a + 2^52 has no fraction bits left: the FPU rounded a, ties to even */
    return cm_double_to_bits(x) >> 63 ? -r : r; /* the sign of x, also on a zero result (round(-0.3) = -0) */
}

double cm_floor(double x) {
    const double r = cm_roundeven(x);
    return r > x ? r - 1.0 : r; /* r is within 1/2 of x: at most one step down; floor(-0) = -0 */
}

double cm_ceil(double x) {
    const double r = cm_roundeven(x);
    if (!(r < x)) return r;
    return r + 1.0 == 0.0 ? -0.0 : r + 1.0; /* ceil(-0.7) = -0, as C's ceil */
}

/* |x| = m * 2^e with m an integer < 2^53 (x finite, non-zero; subnormals too). */
static uint64_t integer_mantissa(double x, int *e) {
    const uint64_t b = cm_double_to_bits(x) & 0x7FFFFFFFFFFFFFFFull;
    const int biased = (int)(b >> 52);
    if (biased == 0) { *e = -1074; return b; }
    *e = biased - 1075;
    return (b & ((1ull << 52) - 1)) | 1ull << 52;
}

/* x = mx 2^ex, y = my 2^ey with ex >= ey (|x| >= |y|), so |x| mod |y| = ((mx 2^(ex-ey)) mod my) 2^ey: the integer
 * remainder, taken 11 doubling steps at a time (r < my < 2^53 keeps r << 11 inside 64 bits). The result is below
 * |y| and a multiple of y's quantum 2^ey, so it is a double: the scaling below is exact. */
double cm_fmod(double x, double y) {
    const double ax = x < 0.0 ? -x : x, ay = y < 0.0 ? -y : y;
    if (x != x || y != y || ax - ax != 0.0 || ay == 0.0) return cm_bits_to_double(0x7FF8000000000000ull);
    if (ax < ay) return x; /* y infinite included; fmod(+-0, y) = +-0 */
    int ex, ey;
    const uint64_t mx = integer_mantissa(ax, &ex), my = integer_mantissa(ay, &ey);
    uint64_t r = mx % my;
    for (int d = ex - ey; d > 0 && r != 0;) {
        const int s = d > 11 ? 11 : d;
        r = (r << s) % my;
        d -= s;
    }
    const double m = (double)r;
    const double res = ey >= -1022 ? m * cm_pow2(ey) : m * cm_pow2(ey + 128) * cm_pow2(-128);
    return x < 0.0 ? -res : res;
}
