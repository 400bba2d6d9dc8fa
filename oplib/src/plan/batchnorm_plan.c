/* op_batchnorm_inference's plan: the layouts of in and of its fp32 work image, and the layout of imm (plan.h; the
 * steps are in ops/batchnorm_inference.c). */
#include <string.h>

#include "plan.h"

static uint64_t round_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

int tx8_plan_batchnorm(const tx8_hw_config *hw, const BATCHNORM_INFER_PARAM *param, const TSR *in, bn_plan *pl) {
    memset(pl, 0, sizeof(*pl));
    const uint32_t align = tx8_hw_batch_align_bytes(hw);
    const L_SHAPE *s = in->shape;
    if (tx8_layout_init(&pl->io, param->layout, in->format, s->shape_real, s->dim, align) != 0) return -1;
    if (tx8_layout_init(&pl->work, param->layout, Fmt_FP32, s->shape_real, s->dim, align) != 0) return -1;
    const tx8_layout *w = &pl->work;
    pl->c_lanes = w->c_split ? w->cx * w->unit + w->c0_aligned : w->c0_aligned;
    const int narrow = in->format != Fmt_FP32;
    const uint64_t work_bytes = narrow ? round_up(w->total_bytes, align) : 0;
    const uint64_t stage_bytes = narrow ? round_up(w->total_bytes / 2, align) : 0;
    pl->stage_off = work_bytes;
    pl->rstd_off = work_bytes + stage_bytes;
    pl->imm_bytes = pl->rstd_off + round_up((uint64_t)pl->c_lanes * 4, align);
    return 0;
}

uint64_t op_batchnorm_inference_imm_size(const tx8_hw_config *hw, const BATCHNORM_INFER_PARAM *param,
                                         const TSR *in) {
    bn_plan pl;
    if (!hw || !param || !in || !in->shape || tx8_plan_batchnorm(hw, param, in, &pl) != 0) return 0;
    return pl.imm_bytes;
}
