/* op_unary: out = f(in) elementwise on the CT for the UNARY_KIND in param->kind (one CT instruction per chunk over
 * the whole layout image, rounded once; definitions in cmodel/src/ct/ct_unary.c). */
#include "eltwise_common.h"

#include "tx8/hal.h"
#include "tx8/tsm.h"

/* The kinds without parameters, by their wrapper; the others (NULL here) are filled in fill_kind. */
static const eltwise_unary_fn kPlain[UNARY_KIND_COUNT] = {
    [UNARY_LOG] = CGRATensor_TranscOp_V_V_log,       [UNARY_ERF] = CGRATensor_TranscOp_V_V_erf,
    [UNARY_GELU_ERF] = CGRATensor_ActOp_V_V_gelu_erf, [UNARY_SOFTPLUS] = CGRATensor_ActOp_V_V_softplus,
    [UNARY_SOFTSIGN] = CGRATensor_ActOp_V_V_softsign, [UNARY_HARD_SWISH] = CGRATensor_ActOp_V_V_hard_swish,
    [UNARY_MISH] = CGRATensor_ActOp_V_V_mish,         [UNARY_SIN] = CGRATensor_TranscOp_V_V_sin,
    [UNARY_COS] = CGRATensor_TranscOp_V_V_cos,        [UNARY_TAN] = CGRATensor_TranscOp_V_V_tan,
    [UNARY_ASIN] = CGRATensor_TranscOp_V_V_asin,      [UNARY_ACOS] = CGRATensor_TranscOp_V_V_acos,
    [UNARY_ATAN] = CGRATensor_TranscOp_V_V_atan,      [UNARY_SINH] = CGRATensor_TranscOp_V_V_sinh,
    [UNARY_COSH] = CGRATensor_TranscOp_V_V_cosh,      [UNARY_ASINH] = CGRATensor_TranscOp_V_V_asinh,
    [UNARY_ACOSH] = CGRATensor_TranscOp_V_V_acosh,    [UNARY_ATANH] = CGRATensor_TranscOp_V_V_atanh,
    [UNARY_FLOOR] = CGRATensor_ArithOp_V_V_floor,     [UNARY_CEIL] = CGRATensor_ArithOp_V_V_ceil,
    [UNARY_ROUND] = CGRATensor_ArithOp_V_V_round,     [UNARY_SIGN] = CGRATensor_ArithOp_V_V_sign,
    [UNARY_RSQRT] = CGRATensor_TranscOp_V_V_rsqrt,     [UNARY_GELU_TANH] = CGRATensor_ActOp_V_V_gelu,
};

typedef struct unary_kind_chunks {
    const UNARY_PARAM *prm;
    const TSR *in, *out;
} unary_kind_chunks;

static void fill_kind(CT_Param *p, const void *ctx, uint64_t offset, uint32_t n) {
    const unary_kind_chunks *c = ctx;
    const UNARY_PARAM *prm = c->prm;
    const Data_Format fmt = c->in->format;
    const uint64_t at = offset * tx8_format_bytes(fmt), src = c->in->addr + at, dst = c->out->addr + at;
    const RND_MODE r = prm->rnd;
    switch (prm->kind) {
    case UNARY_ELU: CGRATensor_ActOp_V_V_elu(p, src, dst, prm->alpha, n, r, fmt); break;
    case UNARY_CELU: CGRATensor_ActOp_V_V_celu(p, src, dst, prm->alpha, n, r, fmt); break;
    case UNARY_SELU: CGRATensor_ActOp_V_V_selu(p, src, dst, prm->alpha, prm->beta, n, r, fmt); break;
    case UNARY_THRESHOLDED_RELU: CGRATensor_ActOp_V_V_thresholded_relu(p, src, dst, prm->alpha, n, r, fmt); break;
    case UNARY_SHRINK: CGRATensor_ActOp_V_V_shrink(p, src, dst, prm->alpha, prm->beta, n, r, fmt); break;
    default: kPlain[prm->kind](p, src, dst, n, r, fmt); break;
    }
}

uint64_t op_unary(UNARY_PARAM *param, TSR *in, TSR *out) {
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_unary(tx8_hal_config(), param, in, out, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    const unary_kind_chunks c = {param, in, out};
    return eltwise_issue_chunks(fill_kind, &c, eltwise_elems(param->layout, in));
}
