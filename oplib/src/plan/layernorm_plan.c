/* op_layernorm's plan: the [R][n] view of in and the layout of imm (plan.h; the steps are in ops/layernorm.c). */
#include <string.h>

#include "plan.h"

static uint64_t round_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

int tx8_plan_layernorm(const tx8_hw_config *hw, const TSR *in, ln_plan *pl) {
    memset(pl, 0, sizeof *pl);
    const L_SHAPE *s = in->shape;
    if (s->dim < 2 || s->dim > 4) return -1;
    for (int32_t d = 0; d < s->dim; ++d)
        if (s->shape_real[d] < 1) return -1;
    uint64_t rows = 1;
    for (int32_t d = 0; d < s->dim - 1; ++d) rows *= (uint64_t)s->shape_real[d];
    const uint64_t len = (uint64_t)s->shape_real[s->dim - 1];
    if (rows * len > (1u << 30)) return -1;
    pl->rows = (uint32_t)rows;
    pl->len = (uint32_t)len;
    const int narrow = in->format != Fmt_FP32;
    const uint64_t align = tx8_hw_batch_align_bytes(hw);
    const uint64_t image = round_up(rows * len * 4, align);
    pl->work_off = 0;
    pl->sq_off = narrow ? image : 0;
    pl->row_off = pl->sq_off + image;
    pl->coef_off = pl->row_off + round_up(rows * 4, align);
    pl->imm_bytes = pl->coef_off + (narrow ? 2 * round_up(len * 4, align) : 0);
    return 0;
}

uint64_t op_layernorm_imm_size(const tx8_hw_config *hw, const LAYERNORM_PARAM *param, const TSR *in) {
    ln_plan pl;
    if (!hw || !param || !in || !in->shape || tx8_plan_layernorm(hw, in, &pl) != 0) return 0;
    return pl.imm_bytes;
}
