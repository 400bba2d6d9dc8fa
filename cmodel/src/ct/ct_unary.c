/*
 * CT unary ops (format V): abs neg rsqrt sqrt exp reciprocal relu leaky_relu sigmoid tanh gelu silu.
 *
 * Definitions in double, rounded once to dst_fmt (the order of operations below is the contract):
 *   rsqrt x = 1 / sqrt(x)              sigmoid x = 1 / (1 + exp(-x))         silu x = x / (1 + exp(-x))
 *   relu x  = x > 0 ? x : 0 (NaN stays NaN)         leaky_relu x = x > 0 ? x : alpha * x
 *   gelu x  = 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x*x*x)))     (tanh form)
 * exp/tanh are cm_exp/cm_tanh, sqrt is the correctly rounded ct_sqrt: no libm, same bits on every host.
 */
#include "ct_internal.h"
#include "tx8/cm_numerics.h"

static const double kSqrt2OverPi = 0.79788456080286535588; /* sqrt(2/pi) */

static void run_op(uint32_t op, double *x, size_t n, double alpha) {
    size_t i;
    switch (op) {
    case CT_OP_ABS: for (i = 0; i < n; ++i) x[i] = x[i] < 0.0 ? -x[i] : x[i] + 0.0; break; /* -0 + 0 = +0 */
    case CT_OP_NEG: for (i = 0; i < n; ++i) x[i] = -x[i]; break;
    case CT_OP_RSQRT: for (i = 0; i < n; ++i) x[i] = 1.0 / ct_sqrt(x[i]); break;
    case CT_OP_SQRT: for (i = 0; i < n; ++i) x[i] = ct_sqrt(x[i]); break;
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
    double x[CT_BLOCK];
    for (uint64_t i = 0; i < n; i += CT_BLOCK) {
        const size_t m = (size_t)(n - i < CT_BLOCK ? n - i : CT_BLOCK);
        ct_load_block(j->src0 + i * j->sb, j->sf, x, m);
        run_op(j->op, x, m, alpha);
        ct_store_block(j->dst + i * j->db, j->df, j->rnd, x, m);
    }
}
