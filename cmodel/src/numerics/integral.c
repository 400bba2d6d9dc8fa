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
