/*
 * Portable exp / expm1 / tanh in double using only + - * / and bit manipulation (no libm), so every backend
 * computes the same bits. Accuracy is a few double ulps, far below what an fp32 result can show.
 */
#include "numerics/cm_bits.h"
#include <string.h>

#include "tx8/cm_numerics.h"

static const double kLn2Hi = 6.93147180369123816490e-01; /* Cody-Waite split of ln 2 */
static const double kLn2Lo = 1.90821492927058770002e-10;
static const double kInvLn2 = 1.44269504088896338700e+00;

/* e^r - 1 for |r| <= 0.5 by its Taylor series (terms below 2^-60 relative are dropped). A zero is returned as is:
 * the loop would turn -0 into -0 + +0 = +0, and expm1(-0) = tanh(-0) = -0. */
static double expm1_small(double r) {
    if (r == 0.0) return r;
    double term = r, sum = r;
    for (int k = 2; k < 24; ++k) {
        term = term * r / k;
        sum += term;
        if (term == 0.0 || (term < 0 ? -term : term) < 1e-18 * (sum < 0 ? -sum : sum)) break;
    }
    return sum;
}

double cm_exp(double x) {
    if (x != x) return x;
    if (x > 709.782712893384) return cm_pow2(1023) * 2.0; /* +inf */
    if (x < -745.2) return 0.0;
    double t = x * kInvLn2;
    int k = (int)(t < 0 ? t - 0.5 : t + 0.5); /* nearest integer */
    double r = (x - k * kLn2Hi) - k * kLn2Lo;  /* |r| <= ~0.347 */
    double er = 1.0 + expm1_small(r);
    if (k > 1023) return er * cm_pow2(1023) * cm_pow2(k - 1023);
    if (k < -1021) return er * cm_pow2(k + 1000) * cm_pow2(-1000);
    return er * cm_pow2(k);
}

double cm_expm1(double x) {
    if (x > -0.5 && x < 0.5) return expm1_small(x);
    return cm_exp(x) - 1.0;
}

double cm_tanh(double x) {
    if (x != x) return x;
    double a = x < 0 ? -x : x;
    double t;
    if (a > 22.0) {
        t = 1.0;
    } else {
        double e = cm_expm1(2.0 * a); /* tanh a = (e^2a - 1) / (e^2a + 1) */
        t = e / (e + 2.0);
    }
    return x < 0 ? -t : t;
}
