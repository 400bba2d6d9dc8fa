/* op_not: out = (in == 0) on int8 booleans, one CT compare EQ against the scalar 0 per chunk (see ops.h). */
#include "eltwise_common.h"

#include "tx8/hal.h"

typedef struct not_chunks {
    const TSR *in, *out;
} not_chunks;

static void fill_not(CT_Param *p, const void *ctx, uint64_t offset, uint32_t n) {
    const not_chunks *c = ctx; /* int8: element offsets are byte offsets */
    CGRATensor_RelationOp_V_S_cmp(p, CT_OP_CMP_EQ, c->in->addr + offset, 0, c->out->addr + offset, n, Fmt_INT8);
}

uint64_t op_not(ELTWISE_PARAM *param, TSR *in, TSR *out) {
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_not(tx8_hal_config(), param, in, out, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    const not_chunks c = {in, out};
    return eltwise_issue_chunks(fill_not, &c, eltwise_elems(param->layout, in));
}
