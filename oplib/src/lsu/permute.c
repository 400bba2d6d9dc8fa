/*
 * op_permute: reorders the dims of a compact (row-major) SPM tensor with TDMA box copies.
 *
 * The copy is described in output order: output dim k walks input dim perm[k], so it has count S[perm[k]], the
 * destination stride of the compact output and the source stride of input dim perm[k]. Then, as in lsu_slice.c:
 * dims of count 1 are dropped, neighbouring dims that are contiguous on both sides (a run of input dims that stays
 * together and in order) are merged, and an innermost dim contiguous on both sides is folded into the TDMA
 * element (one "element" = the contiguous run, as gatherScatter does). NHWC -> NCHW thus becomes
 * [C][HW] <- [HW][C]: one instruction. What is left has at most 6 dims; the 4 with the largest counts go into the
 * instruction (kept in output order, innermost first) and the others, if any, are looped over.
 *
 * Everything is checked before the first instruction (tx8_check_permute, tx8/check.h); cycles are the sum of what the
 * TDMA instructions return. The dims are planned by tx8_plan_permute (plan/plan.h).
 */
#include "tx8/check.h"
#include "tx8/hal.h"
#include "tx8/lsu.h"
#include "tx8/tsm.h"

#include "../plan/plan.h"

/* Issues the box: the dims with in_instr[i] go into each instruction, the others are looped over (odometer). */
static uint64_t issue(const permute_dim *d, int nd, const int *in_instr, uint64_t src, uint64_t dst, uint32_t eb) {
    uint32_t shape[4] = {1, 1, 1, 1}, ss[4] = {0, 0, 0, 0}, ds[4] = {0, 0, 0, 0};
    int loop[MAX_SHAPE_DIM], nl = 0, k = 0;
    for (int i = 0; i < nd; ++i) {
        if (in_instr[i]) {
            shape[k] = (uint32_t)d[i].count, ss[k] = (uint32_t)d[i].src_stride, ds[k] = (uint32_t)d[i].dst_stride;
            ++k;
        } else {
            loop[nl++] = i;
        }
    }
    uint64_t idx[MAX_SHAPE_DIM] = {0}, total = 0;
    for (;;) {
        uint64_t so = 0, dof = 0;
        for (int j = 0; j < nl; ++j) so += idx[j] * d[loop[j]].src_stride, dof += idx[j] * d[loop[j]].dst_stride;
        TD_Param p;
        LSU_TDMA_box(&p, TD_OP_RESHAPE, src + so, dst + dof, eb, shape, ss, ds);
        total = ADD_VALID_CYCLE(total, TsmExecute(&p));
        if (total == TX8_CYCLES_INVALID) return total;
        int j = 0;
        while (j < nl && ++idx[j] == d[loop[j]].count) idx[j++] = 0;
        if (j == nl) return total;
    }
}

uint64_t op_permute(PERMUTE_PARAM *param, TSR *in, TSR *out) {
    const tx8_hw_config *hw = tx8_hal_config();
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_permute(hw, param, in, out, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    /* every count and stride of the plan is <= the tensor's bytes <= spm_bytes, and fits the TDMA's fields */
    permute_plan pl;
    tx8_plan_permute(hw, in->shape->shape_real, in->shape->dim, param->perm, tx8_format_bytes(in->format), &pl);
    return issue(pl.d, pl.nd, pl.in_instr, in->addr, out->addr, (uint32_t)pl.elem_bytes);
}
