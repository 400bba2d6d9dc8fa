/* op_conv's NE tiling (plan.h; the loops that walk it are in ops/conv.c). */
#include "plan.h"

#include "tx8/ne.h"

static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

void tx8_plan_conv(const tx8_hw_config *hw, const conv_dims *d, uint32_t groups, conv_steps *s) {
    (void)hw;
    const uint64_t row_terms = (uint64_t)d->kw * d->cg;
    s->kh = d->kh, s->kw = d->kw, s->c = d->cg;
    if ((uint64_t)d->kh * row_terms > TSM_NE_CONV_MAX_K) {
        if (row_terms <= TSM_NE_CONV_MAX_K) {
            s->kh = (uint32_t)(TSM_NE_CONV_MAX_K / row_terms);
        } else if (d->cg <= TSM_NE_CONV_MAX_K) {
            s->kh = 1, s->kw = TSM_NE_CONV_MAX_K / d->cg;
        } else {
            s->kh = 1, s->kw = 1, s->c = TSM_NE_CONV_MAX_K;
        }
    }
    const uint64_t per_image = (uint64_t)d->oh * d->ow;
    s->n = 1, s->y = d->oh, s->x = d->ow;
    if (per_image <= TSM_NE_CONV_MAX_M)
        s->n = min_u32(d->n, (uint32_t)(TSM_NE_CONV_MAX_M / per_image));
    else if (d->ow <= TSM_NE_CONV_MAX_M)
        s->y = TSM_NE_CONV_MAX_M / d->ow;
    else
        s->y = 1, s->x = TSM_NE_CONV_MAX_M;
    /* several groups per instruction only when their channels are whole (the engine places group g's channels at
     * g * (in_c/groups) of the instruction) */
    if (d->og <= TSM_NE_CONV_MAX_N && s->c == d->cg)
        s->g = min_u32(groups, TSM_NE_CONV_MAX_N / d->og), s->oc = d->og;
    else
        s->g = 1, s->oc = min_u32(d->og, TSM_NE_CONV_MAX_N);
}
