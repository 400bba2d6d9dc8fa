/* op_cast: in converted to out's format, or to an int8 boolean, on the CT (one instruction per chunk; see ops.h). */
#include "eltwise_common.h"

#include "tx8/hal.h"
#include "tx8/tsm.h"

#define CAST_FORMATS (ELTWISE_NUMBERS | ELTWISE_FMT(Fmt_INT64))

typedef struct cast_chunks {
    const TSR *in, *out;
    Data_Format from; /* the source of this pass: in's format, or int8 for a pass over out in place */
    uint64_t src;     /* its address */
    RND_MODE rnd;
} cast_chunks;

/* Compact images: element i is at the same index in both. */
static void fill_convert(CT_Param *p, const void *ctx, uint64_t offset, uint32_t n) {
    const cast_chunks *c = ctx;
    CGRATensor_ConvertOp_V_V_convert(p, c->src + offset * tx8_format_bytes(c->from),
                                     c->out->addr + offset * tx8_format_bytes(c->out->format), n, c->from,
                                     c->out->format, c->rnd);
}

static void fill_nonzero(CT_Param *p, const void *ctx, uint64_t offset, uint32_t n) {
    const cast_chunks *c = ctx; /* out is int8: element offsets are byte offsets */
    CGRATensor_RelationOp_V_S_cmp_to(p, CT_OP_CMP_NE, c->src + offset * tx8_format_bytes(c->from), 0,
                                     c->out->addr + offset, n, c->from, Fmt_INT8);
}

uint64_t op_cast(CAST_PARAM *param, TSR *in, TSR *out) {
    const char *op = "op_cast";
    if (!param) return tx8_hal_fault("%s: param is NULL", op), TX8_CYCLES_INVALID;
    if (param->layout != LAYOUT_TENSOR && param->layout != LAYOUT_NTENSOR)
        return tx8_hal_fault("%s: param->layout = %d, must be Tensor or NTensor (compact)", op, (int)param->layout),
               TX8_CYCLES_INVALID;
    if (param->to_bool > 1)
        return tx8_hal_fault("%s: param->to_bool = %u, must be 0 or 1", op, param->to_bool), TX8_CYCLES_INVALID;
    TSR *const t[2] = {in, out};
    static const char *const names[2] = {"in", "out"};
    const uint32_t sets[2] = {CAST_FORMATS, param->to_bool ? ELTWISE_FMT(Fmt_INT8) : CAST_FORMATS};
    uint64_t elems;
    if (eltwise_prepare_formats(op, param->layout, RND_NEAREST_EVEN, t, names, sets, 2, &elems) != 0)
        return TX8_CYCLES_INVALID;
    const uint32_t align = tx8_hw_batch_align_bytes(tx8_hal_config());
    tx8_layout l[2];
    for (int i = 0; i < 2; ++i)
        tx8_layout_init(&l[i], param->layout, t[i]->format, t[i]->shape->shape_real, t[i]->shape->dim, align);
    if (eltwise_check_images(op, t, names, l, 2) != 0) return TX8_CYCLES_INVALID;
    const int float_in = tx8_format_is_float(in->format), float_out = tx8_format_is_float(out->format);
    cast_chunks c = {in, out, in->format, in->addr, float_in && !float_out ? RND_ZERO : RND_NEAREST_EVEN};
    if (!param->to_bool) return eltwise_issue_chunks(fill_convert, &c, elems);
    if (in->format != Fmt_INT64) return eltwise_issue_chunks(fill_nonzero, &c, elems);
    /* No compare takes int64: narrow it to int8 first (saturating keeps every non-zero value non-zero), then
     * compare that in place. */
    const uint64_t total = eltwise_issue_chunks(fill_convert, &c, elems);
    if (total == TX8_CYCLES_INVALID) return total;
    c.from = Fmt_INT8, c.src = out->addr;
    return ADD_VALID_CYCLE(total, eltwise_issue_chunks(fill_nonzero, &c, elems));
}
