/*
 * CT unary ops (format V): abs neg rsqrt sqrt exp reciprocal relu leaky_relu sigmoid tanh gelu silu, and the appended
 * log erf gelu_erf softplus softsign elu celu selu thresholded_relu shrink hard_swish mish sin cos tan asin acos atan
 * sinh cosh asinh acosh atanh floor ceil round sign (float formats only).
 *
 * Definitions in double, rounded once to dst_fmt (the order of operations below is the contract):
 *   rsqrt x = 1 / sqrt(x)              sigmoid x = 1 / (1 + exp(-x))         silu x = x / (1 + exp(-x))
 *   relu x  = x > 0 ? x : 0 (NaN stays NaN)         leaky_relu x = x > 0 ? x : alpha * x
 *   gelu x  = 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x*x*x)))     (tanh form)
 * The appended ops give NaN for a NaN x; otherwise, with a = alpha = scalar and b = scalar1 as fp32 values,
 * max(x, 0) = x > 0 ? x : 0 and min(t, 0) = t < 0 ? t : 0:
 *   log erf sin cos tan asin acos atan sinh cosh asinh acosh atanh x = cm_<name>(x)
 *   gelu_erf x = (0.5 * x) * erfc(-x * 0.70710678118654757)   (0.5 x (1 + erf(x / sqrt 2)), exact-erf GELU, with
 *                erfc so that x << 0 does not cancel)
 *   softplus x = max(x, 0) + log1p(exp(-|x|))         softsign x = x / (1 + |x|)
 *   elu x      = x > 0 ? x : a * expm1(x)             celu x = max(x, 0) + min(a * expm1(x / a), 0)
 *   selu x     = x > 0 ? b * x : (b * a) * expm1(x)   (b = gamma)
 *   thresholded_relu x = x > a ? x : 0
 *   shrink x   = x < -a ? x + b : x > a ? x - b : 0  (a = lambd, b = bias)
 *   hard_swish x = x * max(min(x / 6 + 0.5, 1), 0)    mish x = x * tanh(softplus x)
 *   floor x = cm_floor(x), ceil x = cm_ceil(x), round x = cm_roundeven(x) (half to even: round(2.5) = 2)
 *   sign x  = x > 0 ? 1 : x < 0 ? -1 : x              (+-0 stays +-0)
 * The formulas hold at +-inf as written, as numpy evaluates them: softsign(+-inf), and mish, hard_swish and gelu_erf
 * of -inf, are NaN (inf / inf, -inf * 0).
 * exp/expm1/tanh/log/... are the cmodel's cm_* (tx8/cm_numerics.h), sqrt is the correctly rounded cm_sqrt: no libm,
 * same bits on every host.
 */
#include "ct_internal.h"
#include "tx8/cm_numerics.h"

static const double kSqrt2OverPi = 0.79788456080286535588; /* sqrt(2/pi) */
static const double kSqrtHalf = 0.70710678118654757;       /* sqrt(1/2), the nearest double */

static double max0(double t) { return t > 0.0 ? t : 0.0; }
static double min0(double t) { return t < 0.0 ? t : 0.0; }
static double softplus(double v) { return max0(v) + cm_log1p(cm_exp(-(v < 0.0 ? -v : v))); }

/* The appended ops, each of one non-NaN x with the parameters a (scalar) and b (scalar1). */
typedef double (*unary_fn)(double v, double a, double b);
static double f_log(double v, double a, double b) { (void)a, (void)b; return cm_log(v); }
static double f_erf(double v, double a, double b) { (void)a, (void)b; return cm_erf(v); }
static double f_gelu_erf(double v, double a, double b) { (void)a, (void)b; return (0.5 * v) * cm_erfc(-v * kSqrtHalf); }
static double f_softplus(double v, double a, double b) { (void)a, (void)b; return softplus(v); }
static double f_softsign(double v, double a, double b) { (void)a, (void)b; return v / (1.0 + (v < 0.0 ? -v : v)); }
static double f_elu(double v, double a, double b) { (void)b; return v > 0.0 ? v : a * cm_expm1(v); }
static double f_celu(double v, double a, double b) { (void)b; return max0(v) + min0(a * cm_expm1(v / a)); }
static double f_selu(double v, double a, double b) { return v > 0.0 ? b * v : (b * a) * cm_expm1(v); }
static double f_thresholded_relu(double v, double a, double b) { (void)b; return v > a ? v : 0.0; }
static double f_shrink(double v, double a, double b) { return v < -a ? v + b : v > a ? v - b : 0.0; }
static double f_hard_swish(double v, double a, double b) {
    (void)a, (void)b;
    const double t = v / 6.0 + 0.5;
    return v * max0(t < 1.0 ? t : 1.0);
}
static double f_mish(double v, double a, double b) { (void)a, (void)b; return v * cm_tanh(softplus(v)); }
static double f_sin(double v, double a, double b) { (void)a, (void)b; return cm_sin(v); }
static double f_cos(double v, double a, double b) { (void)a, (void)b; return cm_cos(v); }
static double f_tan(double v, double a, double b) { (void)a, (void)b; return cm_tan(v); }
static double f_asin(double v, double a, double b) { (void)a, (void)b; return cm_asin(v); }
static double f_acos(double v, double a, double b) { (void)a, (void)b; return cm_acos(v); }
static double f_atan(double v, double a, double b) { (void)a, (void)b; return cm_atan(v); }
static double f_sinh(double v, double a, double b) { (void)a, (void)b; return cm_sinh(v); }
static double f_cosh(double v, double a, double b) { (void)a, (void)b; return cm_cosh(v); }
static double f_asinh(double v, double a, double b) { (void)a, (void)b; return cm_asinh(v); }
static double f_acosh(double v, double a, double b) { (void)a, (void)b; return cm_acosh(v); }
static double f_atanh(double v, double a, double b) { (void)a, (void)b; return cm_atanh(v); }
static double f_floor(double v, double a, double b) { (void)a, (void)b; return cm_floor(v); }
static double f_ceil(double v, double a, double b) { (void)a, (void)b; return cm_ceil(v); }
static double f_round(double v, double a, double b) { (void)a, (void)b; return cm_roundeven(v); }
static double f_sign(double v, double a, double b) { (void)a, (void)b; return v > 0.0 ? 1.0 : v < 0.0 ? -1.0 : v; }

/* Indexed by opcode - CT_OP_LOG, in CT_OPCODE order. */
static const unary_fn kAppended[CT_OP_SIGN - CT_OP_LOG + 1] = {
    f_log,    f_erf,        f_gelu_erf, f_softplus, f_softsign, f_elu,   f_celu,   f_selu,  f_thresholded_relu,
    f_shrink, f_hard_swish, f_mish,     f_sin,      f_cos,      f_tan,   f_asin,   f_acos,  f_atan,
    f_sinh,   f_cosh,       f_asinh,    f_acosh,    f_atanh,    f_floor, f_ceil,   f_round, f_sign,
};

static void run_op(uint32_t op, double *x, size_t n, double alpha, double beta) {
    size_t i;
    if (op >= CT_OP_LOG) {
        const unary_fn f = kAppended[op - CT_OP_LOG];
        for (i = 0; i < n; ++i) x[i] = x[i] != x[i] ? x[i] : f(x[i], alpha, beta);
        return;
    }
    switch (op) {
    case CT_OP_ABS: for (i = 0; i < n; ++i) x[i] = x[i] < 0.0 ? -x[i] : x[i] + 0.0; break; /* -0 + 0 = +0 */
    case CT_OP_NEG: for (i = 0; i < n; ++i) x[i] = -x[i]; break;
    case CT_OP_RSQRT: for (i = 0; i < n; ++i) x[i] = 1.0 / cm_sqrt(x[i]); break;
    case CT_OP_SQRT: for (i = 0; i < n; ++i) x[i] = cm_sqrt(x[i]); break;
    case CT_OP_EXP: for (i = 0; i < n; ++i) x[i] = cm_exp(x[i]); break;
    case CT_OP_RECIPROCAL: for (i = 0; i < n; ++i) x[i] = 1.0 / x[i]; break;
    case CT_OP_RELU: for (i = 0; i < n; ++i) x[i] = (x[i] > 0.0 || x[i] != x[i]) ? x[i] : 0.0; break;
    case CT_OP_LEAKY_RELU: for (i = 0; i < n; ++i) x[i] = x[i] > 0.0 ? x[i] : alpha * x[i]; break;
    case CT_OP_SIGMOID: for (i = 0; i < n; ++i) x[i] = 1.0 / (1.0 + cm_exp(-x[i])); break;
    case CT_OP_TANH: for (i = 0; i < n; ++i) x[i] = cm_tanh(x[i]); break;
    case CT_OP_GELU:
        for (i = 0; i < n; ++i) {
            const double v = x[i];
            x[i] = 0.5 * v * (1.0 + cm_tanh(kSqrt2OverPi * (v + 0.044715 * v * v * v)));
        }
        break;
    default: /* CT_OP_SILU */
        for (i = 0; i < n; ++i) x[i] = x[i] / (1.0 + cm_exp(-x[i]));
        break;
    }
}

void ct_unary_run(const ct_job *j) {
    const uint64_t n = j->p->param.src_elem_num;
    const double alpha = ct_scalar_value(j->p->param.scalar, j->sf);
    const double beta = ct_scalar_value(j->p->param.scalar1, j->sf);
    double x[CT_BLOCK];
    for (uint64_t i = 0; i < n; i += CT_BLOCK) {
        const size_t m = (size_t)(n - i < CT_BLOCK ? n - i : CT_BLOCK);
        ct_load_block(j->src0 + i * j->sb, j->sf, x, m);
        run_op(j->op, x, m, alpha, beta);
        ct_store_block(j->dst + i * j->db, j->df, j->rnd, x, m);
    }
}
