/*
 * Double-double helpers and the extra-precise kernels the portable transcendentals share (numerics/ only).
 *
 * A double-double is an unevaluated sum hi + lo with |lo| <= ulp(hi)/2 once normalised. Everything here is plain
 * + - * / in round-to-nearest double (no FMA: products are split exactly with Veltkamp/Dekker), so the low parts
 * are the same bits on every host.
 */
#ifndef TX8_CM_DD_H
#define TX8_CM_DD_H

#include "numerics/cm_bits.h"
#include "tx8/cm_numerics.h"

/* ln 2 as a double-double: the nearest double and the rest. */
#define CM_LN2_HI 0.69314718055994529
#define CM_LN2_LO 2.3190468138462996e-17

/* s + e = a + b exactly, for any a, b (Knuth's TwoSum; no overflow). */
static inline void cm_two_sum(double a, double b, double *s, double *e) {
    const double t = a + b, v = t - a;
    *s = t;
    *e = (a - (t - v)) + (b - v);
}

/* s + e = a + b exactly when |a| >= |b| or a == 0 (Dekker's Fast2Sum). */
static inline void cm_fast_two_sum(double a, double b, double *s, double *e) {
    const double t = a + b;
    *s = t;
    *e = b - (t - a);
}

/* p + e = a * b exactly (Dekker's product on Veltkamp halves of 26 bits), for |a|, |b| < 2^995 and no underflow
 * of e. */
static inline void cm_two_prod(double a, double b, double *p, double *e) {
    const double ca = 134217729.0 * a, cb = 134217729.0 * b; /* 2^27 + 1 */
    const double ah = ca - (ca - a), al = a - ah, bh = cb - (cb - b), bl = b - bh;
    const double t = a * b;
    *p = t;
    *e = ((ah * bh - t) + ah * bl + al * bh) + al * bl;
}

/* (rh, rl) ~ (ah + al) * (bh + bl) to ~2^-100 relative. */
static inline void cm_dd_mul(double ah, double al, double bh, double bl, double *rh, double *rl) {
    double p, e;
    cm_two_prod(ah, bh, &p, &e);
    cm_fast_two_sum(p, e + (ah * bl + al * bh), rh, rl);
}

/* (qh, ql) ~ (ah + al) / (bh + bl) to ~2^-100 relative (one correction step). */
static inline void cm_dd_div(double ah, double al, double bh, double bl, double *qh, double *ql) {
    const double q = ah / bh;
    double p, pe;
    cm_two_prod(q, bh, &p, &pe);
    const double r = (((ah - p) - pe) + al) - q * bl; /* ah - p is exact: p is within an ulp of ah */
    cm_fast_two_sum(q, r / bh, qh, ql);
}

/* (rh, rl) ~ sqrt(ah + al) for ah > 0 (one Newton correction of the correctly rounded sqrt). */
static inline void cm_dd_sqrt(double ah, double al, double *rh, double *rl) {
    const double s = cm_sqrt(ah);
    double p, pe;
    cm_two_prod(s, s, &p, &pe);
    cm_fast_two_sum(s, (((ah - p) - pe) + al) / (2.0 * s), rh, rl);
}

/* v * 2^k for any k in [-1200, 1100]: exact unless the result overflows (inf) or is subnormal (rounded once). */
static inline double cm_scale2(double v, int k) {
    if (k > 1023) return v * cm_pow2(1023) * cm_pow2(k - 1023 > 1023 ? 1023 : k - 1023);
    if (k < -1021) return v * cm_pow2(k + 1000 < -1021 ? -1021 : k + 1000) * cm_pow2(-1000);
    return v * cm_pow2(k);
}

/* log(x) for finite x > 0 as hi + lo (normalised; relative error ~2^-100, so hi is log x correctly rounded unless
 * log x lies that close to a midpoint between doubles). transcendental_log.c. */
void cm_log_dd(double x, double *hi, double *lo);

/* exp(hi + lo) = (rh + rl) * 2^k for |hi| <= 746 and |lo| <= 2^-40 (transcendental_log.c): rh is 2^(j/64) for
 * some j (in [1, 2)), |rl| < 2^-6, error ~2^-65 relative. Returns k. */
int cm_exp_parts(double hi, double lo, double *rh, double *rl);

/* exp(hi + lo) rounded once to double (overflow to +inf, underflow through the subnormals to +0; hi NaN: NaN). */
double cm_exp_dd(double hi, double lo);

#endif /* TX8_CM_DD_H */
