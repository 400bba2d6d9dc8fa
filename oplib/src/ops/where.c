/* op_where: out = cond != 0 ? x : y on the CT, one select per chunk of the images cond and the data share (see
 * ops.h). */
#include "eltwise_common.h"

#include "tx8/hal.h"

typedef struct where_chunks {
    const TSR *cond, *x, *y, *out;
} where_chunks;

/* s: element offset in cond's (int8) image, d: in the data's */
static void fill_where(CT_Param *p, const void *ctx, uint64_t s, uint64_t d, uint32_t n) {
    const where_chunks *c = ctx;
    const Data_Format fmt = c->x->format;
    const uint64_t at = d * tx8_format_bytes(fmt);
    CGRATensor_LogicOp_V_V_select_mask(p, c->cond->addr + s, c->x->addr + at, c->y->addr + at, c->out->addr + at, n,
                                       Fmt_INT8, fmt);
}

uint64_t op_where(WHERE_PARAM *param, TSR *cond, TSR *x, TSR *y, TSR *out) {
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_where(tx8_hal_config(), param, cond, x, y, out, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    const uint32_t align = tx8_hw_batch_align_bytes(tx8_hal_config());
    tx8_layout l[2]; /* cond's image and the data's */
    tx8_layout_init(&l[0], param->layout, cond->format, cond->shape->shape_real, cond->shape->dim, align);
    tx8_layout_init(&l[1], param->layout, out->format, out->shape->shape_real, out->shape->dim, align);
    const where_chunks c = {cond, x, y, out};
    return eltwise_issue_pairs(fill_where, &c, &l[0], &l[1]);
}
