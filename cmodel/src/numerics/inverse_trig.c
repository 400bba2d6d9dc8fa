/*
 * Portable atan / asin / acos in double (no libm, no FMA: the same bits on every backend), on the classic
 * reductions (as in fdlibm) with Taylor series in place of fitted polynomials:
 *   atan  |x| < 7/16 directly; else atan x = atan c + atan t for c = 1/2, 1, 3/2, inf and t = (x - c)/(1 + c x)
 *         (t = -1/x for c = inf), |t| <= 0.44, t as hi + lo; the series of atan t to t^45 (truncation < 2^-60).
 *   asin  |x| < 1/2: x + x R(x^2); else pi/2 - 2 asin(sqrt((1 - |x|)/2)) with the square root split in two so that
 *         the doubling loses nothing; R(t) = asin(sqrt t)/sqrt t - 1 from its series to t^26 (t <= 1/4).
 *   acos  from the same pieces: pi/2 - asin x for |x| < 1/2, 2 asin(sqrt((1 - x)/2)) above, pi - that below.
 * pi/2, pi/4, pi and atan c are used as hi + lo.
 */
#include "numerics/cm_dd.h"

#include "tx8/cm_numerics.h"

static const double kPio2Hi = 1.5707963267948966, kPio2Lo = 6.123233995736766e-17;
static const double kPio4Hi = 0.78539816339744828;
static const double kPiHi = 3.1415926535897931;
/* atan(1/2), atan(1), atan(3/2), atan(inf) as hi + lo */
static const double kAtanHi[4] = {0.46364760900080609, 0.78539816339744828, 0.98279372324732905, 1.5707963267948966};
static const double kAtanLo[4] = {2.2698777452961687e-17, 3.061616997868383e-17, 1.3903311031230998e-17,
                                  6.123233995736766e-17};

/* (-1)^n / (2n+1) for n = 1..22: atan t = t + t z (sum kAtan[n-1] z^(n-1)), z = t^2. */
static const double kAtan[22] = {
    -0.33333333333333331, 0.20000000000000001, -0.14285714285714285, 0.1111111111111111, -0.090909090909090912,
    0.076923076923076927, -0.066666666666666666, 0.058823529411764705, -0.052631578947368418, 0.047619047619047616,
    -0.043478260869565216, 0.040000000000000001, -0.037037037037037035, 0.034482758620689655, -0.032258064516129031,
    0.030303030303030304, -0.028571428571428571, 0.027027027027027029, -0.02564102564102564, 0.024390243902439025,
    -0.023255813953488372, 0.022222222222222223,
};
/* (2n)! / (4^n (n!)^2 (2n+1)) for n = 1..26: asin s = s + s R(s^2), R(t) = sum kAsin[n-1] t^n. */
static const double kAsin[26] = {
    0.16666666666666666, 0.074999999999999997, 0.044642857142857144, 0.030381944444444444, 0.022372159090909092,
    0.017352764423076924, 0.013964843750000001, 0.011551800896139705, 0.0097616095291940784, 0.0083903358096168151,
    0.0073125258735988454, 0.0064472103118896487, 0.0057400376708419236, 0.0051533096823199046,
    0.0046601434869150962, 0.0042409070936793632, 0.0038809645588376691, 0.0035692053938259347,
    0.0032970595034734849, 0.0030578216492580306, 0.0028461784011089421, 0.0026578706382072901,
    0.0024894486782468836, 0.002338091892111975, 0.0022014739737101384, 0.0020776610325181676,
};

/* t z P(z) = atan t - t for |t| <= 0.44 */
static double atan_tail(double t) {
    const double z = t * t;
    double p = kAtan[21];
    for (int i = 20; i >= 0; --i) p = kAtan[i] + z * p;
    return t * z * p;
}

/* R(t) = asin(sqrt t)/sqrt t - 1 for 0 <= t <= 1/4 */
static double asin_r(double t) {
    double p = kAsin[25];
    for (int i = 24; i >= 0; --i) p = kAsin[i] + t * p;
    return t * p;
}

double cm_atan(double x) {
    if (x != x) return x;
    const double a = x < 0.0 ? -x : x;
    if (a < 7.4505805969238281e-09) return x; /* |x| < 2^-27: x - x^3/3 rounds to x */
    if (a < 0.4375) return x + atan_tail(x);
    int id;
    double nh, dh, dl = 0.0; /* t = nh / (dh + dl), the numerator exact */
    if (a < 0.6875) { /* c = 1/2: (2a - 1) / (2 + a) */
        id = 0, nh = 2.0 * a - 1.0;
        cm_two_sum(2.0, a, &dh, &dl);
    } else if (a < 1.1875) { /* c = 1: (a - 1) / (a + 1) */
        id = 1, nh = a - 1.0;
        cm_two_sum(a, 1.0, &dh, &dl);
    } else if (a < 2.4375) { /* c = 3/2: (a - 3/2) / (1 + 3a/2) */
        double p, pe, e;
        id = 2, nh = a - 1.5;
        cm_two_prod(1.5, a, &p, &pe);
        cm_two_sum(1.0, p, &dh, &e);
        dl = e + pe;
    } else if (a < 9.2233720368547758e18) { /* c = inf: -1/a */
        id = 3, nh = -1.0, dh = a;
    } else { /* 2^63 and up (inf too): atan = pi/2 - 1/a rounds to pi/2 */
        return x < 0.0 ? -(kPio2Hi + kPio2Lo) : kPio2Hi + kPio2Lo;
    }
    double th, tl;
    cm_dd_div(nh, 0.0, dh, dl, &th, &tl);
    /* atan c + atan(th + tl) = hi + (th + ((tail(th) + tl/(1 + th^2)) + lo)) */
    const double r = kAtanHi[id] + (th + ((atan_tail(th) + tl / (1.0 + th * th)) + kAtanLo[id]));
    return x < 0.0 ? -r : r;
}

/* s = sqrt t as df + c: df is s with its low 32 bits cleared (so df^2 is exact), c the rest (to an ulp of c). The
 * |x| >= 1/2 paths double s next to pi/2 or pi/4 and keep its low bits this way. */
static void sqrt_split(double t, double s, double *df, double *c) {
    *df = cm_bits_to_double(cm_double_to_bits(s) & 0xFFFFFFFF00000000ull);
    *c = (t - *df * *df) / (s + *df); /* s = df + c up to an ulp of c: df^2 is exact (26-bit halves) */
}

double cm_asin(double x) {
    const double a = x < 0.0 ? -x : x;
    if (!(a <= 1.0)) return x != x ? x : cm_bits_to_double(0x7FF8000000000000ull);
    if (a < 7.4505805969238281e-09) return x; /* x + x^3/6 rounds to x */
    if (a < 0.5) return x + x * asin_r(x * x);
    double r;
    if (a == 1.0) {
        r = kPio2Hi + kPio2Lo;
    } else {
        const double t = (1.0 - a) * 0.5, s = cm_sqrt(t), w = asin_r(t); /* 1 - a and the halving are exact */
        if (a >= 0.975) { /* pi/2 - 2 (s + s w): 2s is far below pi/2 */
            r = kPio2Hi - (2.0 * (s + s * w) - kPio2Lo);
        } else { /* pi/4 - (2 s w - (lo - 2c)) + (pi/4 - 2 df): keeps the bits of 2s that pi/2 - 2s would lose */
            double df, c;
            sqrt_split(t, s, &df, &c);
            const double p = 2.0 * s * w - (kPio2Lo - 2.0 * c), q = kPio4Hi - 2.0 * df;
            r = kPio4Hi - (p - q);
        }
    }
    return x < 0.0 ? -r : r;
}

double cm_acos(double x) {
    const double a = x < 0.0 ? -x : x;
    if (!(a <= 1.0)) return x != x ? x : cm_bits_to_double(0x7FF8000000000000ull);
    if (x == 1.0) return 0.0;
    if (x == -1.0) return kPiHi + 2.0 * kPio2Lo;
    if (a < 0.5) { /* pi/2 - (x + x R) */
        if (a < 2.7755575615628914e-17) return kPio2Hi + kPio2Lo; /* |x| < 2^-55 */
        return kPio2Hi - (x - (kPio2Lo - x * asin_r(x * x)));
    }
    const double t = (1.0 - a) * 0.5, s = cm_sqrt(t), w = asin_r(t);
    if (x < 0.0) return kPiHi - 2.0 * (s + (s * w - kPio2Lo)); /* pi - 2 asin(s) */
    double df, c;
    sqrt_split(t, s, &df, &c);
    return 2.0 * (df + (s * w + c)); /* 2 asin(s) */
}
