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
    const char *op = "op_where";
    TSR *const t[4] = {cond, x, y, out};
    static const char *const names[4] = {"cond", "x", "y", "out"};
    static const uint32_t formats[4] = {ELTWISE_FMT(Fmt_INT8), ELTWISE_NUMBERS,
                                        ELTWISE_NUMBERS | ELTWISE_SAME_AS(1), ELTWISE_NUMBERS | ELTWISE_SAME_AS(1)};
    uint64_t elems;
    if (!param) return tx8_hal_fault("%s: param is NULL", op), TX8_CYCLES_INVALID;
    if (eltwise_prepare_formats(op, param->layout, RND_NEAREST_EVEN, t, names, formats, 4, &elems) != 0)
        return TX8_CYCLES_INVALID;
    const uint32_t align = tx8_hw_batch_align_bytes(tx8_hal_config());
    tx8_layout l[4];
    for (int i = 0; i < 4; ++i)
        tx8_layout_init(&l[i], param->layout, t[i]->format, t[i]->shape->shape_real, t[i]->shape->dim, align);
    if (eltwise_check_images(op, t, names, l, 4) != 0) return TX8_CYCLES_INVALID;
    const where_chunks c = {cond, x, y, out};
    return eltwise_issue_pairs(fill_where, &c, &l[0], &l[3]);
}
