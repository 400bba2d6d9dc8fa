/*
 * Portable erf / erfc in double (no libm, no FMA: the same bits on every backend). For a = |x|:
 *   a < 1/2     erf x = x + x y with y = (2/sqrt(pi) - 1) + 2/sqrt(pi) z Q(z), Q the Taylor series of erf (to x^27);
 *               erfc x = 1 - (x + x y), or 1/2 - ((x - 1/2) + x y) from |x| = 1/4 on (as fdlibm: nothing cancels)
 *   1/2..2      the Taylor series of erf summed in double-double (its alternating terms reach 2.4 at a = 2, and
 *               erfc = 1 - erf is down to 0.0047 there), rounded once
 *   2..27.23    erfc a = e^(-a^2) / (sqrt(pi) K) with K = a + (1/2)/(a + 1/(a + (3/2)/(a + 2/(a + ...)))) the
 *               Laplace continued fraction cut after N = 10 + 260/a^2 levels (enough for 2^-60 from a = 2 on),
 *               evaluated from the bottom; its last level, a^2, e^(-a^2) and the quotient in double-double.
 *               erf a = 1 - erfc a (1 from a = 6 on: erfc 6 < 2^-54); erfc a underflows to +0 past 27.23.
 * Negative x: erf(-x) = -erf x, erfc(-x) = 2 - erfc x.
 */
#include "numerics/cm_dd.h"

#include "tx8/cm_numerics.h"

static const double kEfx = 0.12837916709551259; /* 2/sqrt(pi) - 1 */
static const double kTwoOverSqrtPiHi = 1.1283791670955126, kTwoOverSqrtPiLo = 1.5335459613165881e-17;
static const double kInvSqrtPiHi = 0.56418958354775628, kInvSqrtPiLo = 7.6677298065829406e-18;

/* (-1)^n / (n! (2n+1)) for n = 1..13: sqrt(pi)/2 erf x = x + x z (sum kErf[n-1] z^(n-1)), z = x^2. */
static const double kErf[13] = {
    -0.33333333333333331, 0.10000000000000001, -0.023809523809523808, 0.0046296296296296294,
    -0.00075757575757575758, 0.00010683760683760684, -1.3227513227513228e-05, 1.4589169000933706e-06,
    -1.4503852223150468e-07, 1.3122532963802806e-08, -1.0892221037148573e-09, 8.3507027951472397e-11,
    -5.9477940136376354e-12,
};

/* y with erf x = x + x y, |x| < 1/2 */
static double erf_small_y(double x) {
    const double z = x * x;
    double q = kErf[12];
    for (int i = 11; i >= 0; --i) q = kErf[i] + z * q;
    return kEfx + kTwoOverSqrtPiHi * (z * q);
}

/* erf a for 1/2 <= a < 2 as hi + lo: 2/sqrt(pi) sum (-1)^n a^(2n+1) / (n! (2n+1)), the terms and the sum in
 * double-double, until a term is below 2^-64 of the sum (at most ~45 terms). */
static void erf_series_dd(double a, double *hi, double *lo) {
    double zh, zl, th = a, tl = 0.0, sh = a, sl = 0.0;
    cm_two_prod(a, a, &zh, &zl);
    for (int n = 1; n < 64; ++n) {
        double uh, ul, e;
        cm_dd_mul(th, tl, zh, zl, &th, &tl);
        cm_dd_div(th, tl, (double)n, 0.0, &th, &tl); /* a^(2n+1) / n! */
        cm_dd_div(th, tl, (double)(2 * n + 1), 0.0, &uh, &ul);
        if (n & 1) uh = -uh, ul = -ul;
        cm_two_sum(sh, uh, &sh, &e);
        sl += e + ul;
        if ((uh < 0.0 ? -uh : uh) < 5.4210108624275222e-20 * sh) break; /* 2^-64 */
    }
    cm_fast_two_sum(sh, sl, &sh, &sl);
    cm_dd_mul(sh, sl, kTwoOverSqrtPiHi, kTwoOverSqrtPiLo, hi, lo);
}

/* erfc a for a >= 2 (continued fraction; see the top) */
static double erfc_cf(double a) {
    if (a > 27.23) return 0.0;
    const int levels = 10 + (int)(260.0 / (a * a));
    double k = a;
    for (int n = levels; n >= 2; --n) k = a + 0.5 * n / k;
    double kh, kl, ph, pl, eh, el, nh, nl, rh, rl;
    cm_two_sum(a, 0.5 / k, &kh, &kl); /* the error of k reaches K scaled by 1/(2 a^2) <= 1/8 */
    cm_two_prod(a, a, &ph, &pl);
    const int s = cm_exp_parts(-ph, -pl, &eh, &el);
    cm_dd_mul(eh, el, kInvSqrtPiHi, kInvSqrtPiLo, &nh, &nl);
    cm_dd_div(nh, nl, kh, kl, &rh, &rl);
    return cm_scale2(rh + rl, s);
}

double cm_erf(double x) {
    if (x != x) return x;
    const double a = x < 0.0 ? -x : x;
    if (a < 0.5) return x + x * erf_small_y(x); /* +-0 stays */
    double r;
    if (a < 2.0) {
        double h, l;
        erf_series_dd(a, &h, &l);
        r = h;
    } else {
        r = a < 6.0 ? 1.0 - erfc_cf(a) : 1.0;
    }
    return x < 0.0 ? -r : r;
}

double cm_erfc(double x) {
    if (x != x) return x;
    const double a = x < 0.0 ? -x : x;
    if (a < 0.5) {
        const double y = erf_small_y(x);
        if (x < 0.25) return 1.0 - (x + x * y); /* erfc >= 0.72: no cancellation */
        return 0.5 - ((x - 0.5) + x * y);        /* x - 1/2 is exact for x in [1/4, 1/2) */
    }
    if (a < 2.0) {
        double h, l, s, e;
        erf_series_dd(a, &h, &l);
        if (x < 0.0) h = -h, l = -l;
        cm_two_sum(1.0, -h, &s, &e); /* 1 - erf x */
        return s + (e - l);
    }
    if (x > 0.0) return erfc_cf(a);
    return a < 6.0 ? 2.0 - erfc_cf(a) : 2.0;
}
