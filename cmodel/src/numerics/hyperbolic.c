/*
 * Portable sinh / cosh / asinh / acosh / atanh in double (no libm, no FMA: the same bits on every backend), through
 * the double-double kernels of cm_dd.h so that each result is rounded once from ~2^-60 relative:
 *   sinh  |x| < 1/2: its Taylor series (to x^17); else F - 1/(4F) with F = e^(|x| - ln 2) = e^|x|/2 in
 *         double-double (F alone from |x| > 40 on: 1/(4F) < 2^-110 F). cosh = F + 1/(4F) likewise, for all x.
 *   asinh log(|x| + sqrt(x^2 + 1)), acosh log(x + sqrt(x^2 - 1)), every step in double-double (log(2|x|) from
 *         |x| > 2^28 on); atanh = (log1p(|x|) - log1p(-|x|)) / 2, both logs in double-double.
 */
#include "numerics/cm_dd.h"

#include "tx8/cm_numerics.h"

/* 1/(2n+1)! for n = 1..8: sinh x = x + x z (sum kSinh[n-1] z^(n-1)), z = x^2. */
static const double kSinh[8] = {
    0.16666666666666666, 0.0083333333333333332, 0.00019841269841269841, 2.7557319223985893e-06,
    2.505210838544172e-08, 1.6059043836821613e-10, 7.6471637318198164e-13, 2.8114572543455206e-15,
};

/* sinh (sign -1) or cosh (+1) of a = |x| >= 0: F -+ 1/(4F) with F = e^(a - ln 2) (no overflow below 710.5). */
static double exp_pair(double a, double sign) {
    if (a > 710.5) return cm_pow2(1023) * 2.0;
    double zh, zl, fh, fl;
    cm_two_sum(a, -CM_LN2_HI, &zh, &zl);
    const int k = cm_exp_parts(zh, zl - CM_LN2_LO, &fh, &fl);
    if (a > 40.0) return cm_scale2(fh + fl, k);
    cm_fast_two_sum(fh, fl, &fh, &fl);
    fh = cm_scale2(fh, k), fl = cm_scale2(fl, k); /* 2^k with k <= 57: exact */
    double gh, gl, s, e;
    cm_dd_div(0.25, 0.0, fh, fl, &gh, &gl);
    cm_two_sum(fh, sign * gh, &s, &e);
    return s + (e + (fl + sign * gl));
}

double cm_sinh(double x) {
    if (x - x != 0.0) return x; /* NaN, +-inf */
    const double a = x < 0.0 ? -x : x;
    if (a < 7.4505805969238281e-09) return x; /* x + x^3/6 rounds to x */
    double r;
    if (a < 0.5) {
        const double z = a * a;
        double p = kSinh[7];
        for (int i = 6; i >= 0; --i) p = kSinh[i] + z * p;
        r = a + a * z * p;
    } else {
        r = exp_pair(a, -1.0);
    }
    return x < 0.0 ? -r : r;
}

double cm_cosh(double x) {
    if (x != x) return x;
    const double a = x < 0.0 ? -x : x;
    if (a < 7.4505805969238281e-09) return 1.0; /* 1 + x^2/2 rounds to 1 */
    return exp_pair(a, 1.0);
}

/* log(ah + al) for ah > 0 with |al| <= ulp(ah), as hi + lo */
static void log_of_dd(double ah, double al, double *hi, double *lo) {
    double h, l;
    cm_log_dd(ah, &h, &l);
    cm_fast_two_sum(h, l + al / ah, hi, lo); /* log(ah + al) = log ah + al/ah - (al/ah)^2/2 */
}

double cm_asinh(double x) {
    if (x - x != 0.0) return x;
    const double a = x < 0.0 ? -x : x;
    if (a < 7.4505805969238281e-09) return x; /* x - x^3/6 rounds to x */
    double h, l;
    if (a > 268435456.0) { /* 2^28: sqrt(x^2 + 1) = |x| (1 + 2^-57): log(2|x|) */
        double s, e;
        cm_log_dd(a, &h, &l);
        cm_two_sum(h, CM_LN2_HI, &s, &e);
        return (x < 0.0 ? -1.0 : 1.0) * (s + (e + (l + CM_LN2_LO)));
    }
    double ph, pl, wh, sh, sl, ah, al, e;
    cm_two_prod(a, a, &ph, &pl);
    cm_two_sum(ph, 1.0, &wh, &e);
    cm_dd_sqrt(wh, e + pl, &sh, &sl);
    cm_two_sum(a, sh, &ah, &e);
    cm_fast_two_sum(ah, e + sl, &ah, &al);
    log_of_dd(ah, al, &h, &l);
    return x < 0.0 ? -h : h;
}

double cm_acosh(double x) {
    if (!(x >= 1.0)) return x != x ? x : cm_bits_to_double(0x7FF8000000000000ull);
    if (x == 1.0) return 0.0;
    if (x - x != 0.0) return x; /* +inf */
    double h, l;
    if (x > 268435456.0) { /* 2^28: log(2x) */
        double s, e;
        cm_log_dd(x, &h, &l);
        cm_two_sum(h, CM_LN2_HI, &s, &e);
        return s + (e + (l + CM_LN2_LO));
    }
    double ph, pl, wh, wl, sh, sl, ah, al, e;
    cm_two_prod(x, x, &ph, &pl);
    cm_two_sum(ph, -1.0, &wh, &e); /* x^2 - 1 exactly as wh + wl: no cancellation lost near x = 1 */
    wl = e + pl;
    cm_fast_two_sum(wh, wl, &wh, &wl);
    cm_dd_sqrt(wh, wl, &sh, &sl);
    cm_two_sum(x, sh, &ah, &e);
    cm_fast_two_sum(ah, e + sl, &ah, &al);
    log_of_dd(ah, al, &h, &l);
    return h;
}

double cm_atanh(double x) {
    const double a = x < 0.0 ? -x : x;
    if (!(a <= 1.0)) return x != x ? x : cm_bits_to_double(0x7FF8000000000000ull);
    if (a == 1.0) return (x < 0.0 ? -2.0 : 2.0) * cm_pow2(1023); /* +-inf */
    if (a < 7.4505805969238281e-09) return x; /* x + x^3/3 rounds to x */
    double uh, ul, vh, vl, h1, l1, h2, l2, s, e;
    cm_two_sum(1.0, a, &uh, &ul);
    cm_two_sum(1.0, -a, &vh, &vl);
    log_of_dd(uh, ul, &h1, &l1); /* log(1 + a) */
    log_of_dd(vh, vl, &h2, &l2); /* log(1 - a) */
    cm_two_sum(h1, -h2, &s, &e);
    const double r = 0.5 * (s + (e + (l1 - l2)));
    return x < 0.0 ? -r : r;
}
