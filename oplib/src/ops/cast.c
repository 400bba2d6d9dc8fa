/* op_cast: in converted to out's format, or to an int8 boolean, on the CT (one instruction per chunk; see ops.h). */
#include "eltwise_common.h"

#include "tx8/hal.h"
#include "tx8/tsm.h"

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
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_cast(tx8_hal_config(), param, in, out, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    const uint64_t elems = eltwise_elems(param->layout, in);
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
