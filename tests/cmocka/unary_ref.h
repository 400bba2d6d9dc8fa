/*
 * The CT's appended unary ops (their contract: cmodel/src/ct/ct_unary.c) written out again for test_ct_unary.c and
 * test_op_unary.c, indexed like UNARY_KIND (tx8/ops.h): kind k < 27 is CT opcode CT_OP_LOG + k, kind 27 is RSQRT,
 * kind 28 GELU_TANH (the CT's gelu).
 *   unary_ref_cm    the contract itself, in double with the cm_* routines: rounded once to the format with the
 *                   instruction's mode it must give the device's bits exactly
 *   unary_ref_libm  the same maths through libm: the device's result must be within an ulp of the format of it
 * with, per kind, the CT cost class, the parameters it takes and a domain for random inputs.
 */
#ifndef TX8_UNARY_REF_H
#define TX8_UNARY_REF_H

#include <math.h>

#include "tx8/cm_numerics.h"

enum { UREF_KINDS = 29, UREF_RSQRT = 27, UREF_GELU_TANH = 28 };

static const struct unary_ref_info {
    const char *name; /* the CT opcode's name (tx8_ct_opcode_name) */
    int multi_pass;   /* 1: costs ct_transcendental_passes (tx8/cm_cycles.h) */
    int params;       /* 0; 1: alpha; 2: alpha and beta */
    double lo, hi;    /* random inputs (partly outside the domain where the function has one) */
} kUnaryRef[UREF_KINDS] = {
    {"log", 1, 0, -1.0, 60.0},          {"erf", 1, 0, -4.0, 4.0},          {"gelu_erf", 1, 0, -9.0, 9.0},
    {"softplus", 1, 0, -20.0, 20.0},    {"softsign", 1, 0, -50.0, 50.0},   {"elu", 1, 1, -8.0, 8.0},
    {"celu", 1, 1, -8.0, 8.0},          {"selu", 1, 2, -8.0, 8.0},         {"thresholded_relu", 0, 1, -3.0, 3.0},
    {"shrink", 0, 2, -3.0, 3.0},        {"hard_swish", 0, 0, -5.0, 5.0},   {"mish", 1, 0, -12.0, 12.0},
    {"sin", 1, 0, -100.0, 100.0},       {"cos", 1, 0, -100.0, 100.0},      {"tan", 1, 0, -4.0, 4.0},
    {"asin", 1, 0, -1.1, 1.1},          {"acos", 1, 0, -1.1, 1.1},         {"atan", 1, 0, -30.0, 30.0},
    {"sinh", 1, 0, -12.0, 12.0},        {"cosh", 1, 0, -12.0, 12.0},       {"asinh", 1, 0, -100.0, 100.0},
    {"acosh", 1, 0, 0.5, 100.0},        {"atanh", 1, 0, -1.1, 1.1},        {"floor", 0, 0, -10.0, 10.0},
    {"ceil", 0, 0, -10.0, 10.0},        {"round", 0, 0, -10.0, 10.0},      {"sign", 0, 0, -3.0, 3.0},
    {"rsqrt", 1, 0, 0.01, 100.0},       {"gelu", 1, 0, -5.0, 9.0},
};
/* gelu (tanh): below about -5, 1 + tanh(...) cancels to fewer correct bits than fp32 has, in the contract and in
 * libm alike (the two differ there in relative terms); the contract itself is checked bit for bit everywhere. */

static inline double uref_max0(double t) { return t > 0.0 ? t : 0.0; }
static inline double uref_min0(double t) { return t < 0.0 ? t : 0.0; }

/* The contract: a = alpha (scalar), b = beta (scalar1), both fp32 values. */
static inline double unary_ref_cm(int k, double x, double a, double b) {
    if (k == UREF_RSQRT) return 1.0 / cm_sqrt(x);
    if (k == UREF_GELU_TANH) return 0.5 * x * (1.0 + cm_tanh(0.79788456080286535588 * (x + 0.044715 * x * x * x)));
    if (x != x) return x; /* the appended ops map NaN to NaN first */
    const double softplus = uref_max0(x) + cm_log1p(cm_exp(-fabs(x)));
    switch (k) {
    case 0: return cm_log(x);
    case 1: return cm_erf(x);
    case 2: return (0.5 * x) * cm_erfc(-x * 0.70710678118654757);
    case 3: return softplus;
    case 4: return x / (1.0 + fabs(x));
    case 5: return x > 0.0 ? x : a * cm_expm1(x);
    case 6: return uref_max0(x) + uref_min0(a * cm_expm1(x / a));
    case 7: return x > 0.0 ? b * x : (b * a) * cm_expm1(x);
    case 8: return x > a ? x : 0.0;
    case 9: return x < -a ? x + b : x > a ? x - b : 0.0;
    case 10: {
        const double t = x / 6.0 + 0.5;
        return x * uref_max0(t < 1.0 ? t : 1.0);
    }
    case 11: return x * cm_tanh(softplus);
    case 12: return cm_sin(x);
    case 13: return cm_cos(x);
    case 14: return cm_tan(x);
    case 15: return cm_asin(x);
    case 16: return cm_acos(x);
    case 17: return cm_atan(x);
    case 18: return cm_sinh(x);
    case 19: return cm_cosh(x);
    case 20: return cm_asinh(x);
    case 21: return cm_acosh(x);
    case 22: return cm_atanh(x);
    case 23: return cm_floor(x);
    case 24: return cm_ceil(x);
    case 25: return cm_roundeven(x);
    default: return x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : x;
    }
}

/* The same functions through libm (an independent check of the cm_* routines at the format's precision). */
static inline double unary_ref_libm(int k, double x, double a, double b) {
    if (k == UREF_RSQRT) return 1.0 / sqrt(x);
    if (k == UREF_GELU_TANH) return 0.5 * x * (1.0 + tanh(sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
    if (x != x) return x;
    const double softplus = fmax(x, 0.0) + log1p(exp(-fabs(x)));
    switch (k) {
    case 0: return log(x);
    case 1: return erf(x);
    case 2: return 0.5 * x * erfc(-x / sqrt(2.0));
    case 3: return softplus;
    case 4: return x / (1.0 + fabs(x));
    case 5: return x > 0.0 ? x : a * expm1(x);
    case 6: return fmax(x, 0.0) + fmin(a * expm1(x / a), 0.0);
    case 7: return x > 0.0 ? b * x : b * a * expm1(x);
    case 8: return x > a ? x : 0.0;
    case 9: return x < -a ? x + b : x > a ? x - b : 0.0;
    case 10: return x * fmax(0.0, fmin(1.0, x / 6.0 + 0.5));
    case 11: return x * tanh(softplus);
    case 12: return sin(x);
    case 13: return cos(x);
    case 14: return tan(x);
    case 15: return asin(x);
    case 16: return acos(x);
    case 17: return atan(x);
    case 18: return sinh(x);
    case 19: return cosh(x);
    case 20: return asinh(x);
    case 21: return acosh(x);
    case 22: return atanh(x);
    case 23: return floor(x);
    case 24: return ceil(x);
    case 25: return nearbyint(x);
    default: return x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : x;
    }
}

/* Values every random input set gets a few of: zeros, infinities, NaN, the domain edges, ties of round. */
static const double kUnarySpecials[12] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 0.5, -0.5, 2.5, -2.5, 1.5};

#endif /* TX8_UNARY_REF_H */
