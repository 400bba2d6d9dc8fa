/* op_leaky_relu: out = in > 0 ? in : alpha * in elementwise on the CT (one leaky_relu per chunk over the whole layout
 * image, rounded once). */
#include "eltwise_common.h"

#include "tx8/hal.h"
#include "tx8/tsm.h"

typedef struct leaky_relu_chunks {
    const LEAKY_RELU_PARAM *prm;
    const TSR *in, *out;
} leaky_relu_chunks;

static void fill_leaky_relu(CT_Param *p, const void *ctx, uint64_t offset, uint32_t n) {
    const leaky_relu_chunks *c = ctx;
    const uint64_t at = offset * tx8_format_bytes(c->in->format);
    CGRATensor_ActOp_V_V_leaky_relu(p, c->in->addr + at, c->out->addr + at, c->prm->alpha, n, c->prm->rnd,
                                    c->in->format);
}

uint64_t op_leaky_relu(LEAKY_RELU_PARAM *param, TSR *in, TSR *out) {
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_leaky_relu(tx8_hal_config(), param, in, out, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    const leaky_relu_chunks c = {param, in, out};
    return eltwise_issue_chunks(fill_leaky_relu, &c, eltwise_elems(param->layout, in));
}
