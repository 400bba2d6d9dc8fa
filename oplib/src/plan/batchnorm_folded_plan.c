/* op_batchnorm_inference_folded's plan (plan.h): tx8_plan_batchnorm's layout of in and its aligned channel count,
 * and imm's two fp32 coefficient vectors (the steps are in ops/batchnorm_folded.c). */
#include <string.h>

#include "plan.h"

static uint64_t round_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

int tx8_plan_batchnorm_folded(const tx8_hw_config *hw, const BATCHNORM_INFER_PARAM *param, const TSR *in,
                              bn_fold_plan *pl) {
    memset(pl, 0, sizeof(*pl));
    bn_plan bn;
    if (tx8_plan_batchnorm(hw, param, in, &bn) != 0) return -1;
    pl->io = bn.io;
    pl->c_lanes = bn.c_lanes;
    const uint64_t vec_bytes = round_up((uint64_t)bn.c_lanes * 4, tx8_hw_batch_align_bytes(hw));
    pl->a_off = 0;
    pl->b_off = vec_bytes;
    pl->imm_bytes = 2 * vec_bytes;
    return 0;
}

uint64_t op_batchnorm_inference_folded_imm_size(const tx8_hw_config *hw, const BATCHNORM_INFER_PARAM *param,
                                                const TSR *in) {
    bn_fold_plan pl;
    if (!hw || !param || !in || !in->shape || tx8_plan_batchnorm_folded(hw, param, in, &pl) != 0) return 0;
    return pl.imm_bytes;
}
