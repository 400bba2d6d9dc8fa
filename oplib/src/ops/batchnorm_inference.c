/*
 * op_batchnorm_inference: out = scale * (in - mean) * rsqrt(var + epsilon) + shift, per channel.
 *
 * The seed's 10-step flow (§"BatchNorm Design"). For fp16/bf16 the work happens in fp32 inside imm:
 *   1  gatherScatter in -> imm.stage     each batch's elements placed at half the fp32 batch stride, so that
 *   2  convert fp16/bf16 -> fp32          one convert instruction produces the fp32 layout in imm.work
 *   3  work = x - mean                    VuV_sub per batch (C <= 32 or compact) / VuV_sub_loop + VuV_sub (C > 32)
 *   4  rstd = var + epsilon               V_S add into imm.rstd
 *   5  rstd = rsqrt(rstd)
 *   6  work *= rstd                       VuV_mul / VuV_mul_loop, as step 3
 *   7  work *= scale
 *   8  work += shift
 *   9  convert fp32 -> fp16/bf16 into imm.stage (round to nearest even)
 *   10 gatherScatter imm.stage -> out
 * For fp32, steps 1, 2, 9 and 10 vanish: step 3 reads `in` and writes `out`, which is then the work tensor.
 *
 * The per-channel vectors are fp32 and are read over the layout's aligned channel count (C rounded up as in
 * tx8/layout.h); lanes past C only feed the padding lanes of `out`. The layouts and the layout of imm:
 * tx8_plan_batchnorm (plan/plan.h).
 */
#include <string.h>

#include "tx8/cgra.h"
#include "tx8/hal.h"
#include "tx8/layout.h"
#include "tx8/lsu.h"
#include "tx8/ops.h"
#include "tx8/tsm.h"

#include "../plan/check_internal.h"
#include "issue.h"

typedef enum { BN_SUB, BN_MUL, BN_ADD } bn_vuv_op;

static void vuv(CT_Param *ct, bn_vuv_op op, uint64_t s, uint64_t d, uint64_t u, uint32_t n, uint32_t un) {
    if (op == BN_SUB) CGRATensor_ArithOp_V_VuV_sub(ct, s, d, u, RND_NEAREST_EVEN, n, un, Fmt_FP32);
    if (op == BN_MUL) CGRATensor_ArithOp_V_VuV_mul(ct, s, d, u, RND_NEAREST_EVEN, n, un, Fmt_FP32);
    if (op == BN_ADD) CGRATensor_ArithOp_V_VuV_add(ct, s, d, u, RND_NEAREST_EVEN, n, un, Fmt_FP32);
}

static void vuv_loop(CT_Param *ct, bn_vuv_op op, uint64_t s, uint64_t d, uint64_t u, uint32_t n, uint32_t un,
                     uint32_t full_n, uint32_t full_un) {
    if (op == BN_SUB) CGRATensor_ArithOp_V_VuV_sub_loop(ct, s, d, u, RND_NEAREST_EVEN, n, un, full_n, full_un, Fmt_FP32);
    if (op == BN_MUL) CGRATensor_ArithOp_V_VuV_mul_loop(ct, s, d, u, RND_NEAREST_EVEN, n, un, full_n, full_un, Fmt_FP32);
    if (op == BN_ADD) CGRATensor_ArithOp_V_VuV_add_loop(ct, s, d, u, RND_NEAREST_EVEN, n, un, full_n, full_un, Fmt_FP32);
}

/* One per-channel pass over every batch of the fp32 work tensor (src -> dst, vec = per-channel vector). */
static uint64_t per_channel_pass(const bn_plan *pl, bn_vuv_op op, uint64_t src, uint64_t dst, uint64_t vec) {
    const tx8_layout *w = &pl->work;
    uint64_t total = 0;
    CT_Param ct;
    for (uint32_t b = 0; b < w->n; ++b) {
        const uint64_t s = src + (uint64_t)b * w->batch_stride_bytes, d = dst + (uint64_t)b * w->batch_stride_bytes;
        if (!w->c_split) { /* [HW][Ca]: C <= 32 or compact; the unit vector is the whole channel vector */
            vuv(&ct, op, s, d, vec, w->hw * w->c0_aligned, w->c0_aligned);
            ISSUE(total, TsmExecute(&ct));
            continue;
        }
        if (w->cx) { /* [Cx][HW][64]: VuV of HW*64 with a 64-lane unit, looped over the Cx blocks */
            const uint32_t n = w->hw * w->unit;
            vuv_loop(&ct, op, s, d, vec, n, w->unit, w->cx * n, w->cx * w->unit);
            ISSUE(total, TsmExecute(&ct));
        }
        if (w->c0_aligned) { /* [HW][C0a]: the tail channels */
            const uint64_t off = (uint64_t)w->cx * w->hw * w->unit * 4, voff = (uint64_t)w->cx * w->unit * 4;
            vuv(&ct, op, s + off, d + off, vec + voff, w->hw * w->c0_aligned, w->c0_aligned);
            ISSUE(total, TsmExecute(&ct));
        }
    }
    return total;
}

uint64_t op_batchnorm_inference(BATCHNORM_INFER_PARAM *param, TSR *in, TSR *scale, TSR *shift, TSR *mean, TSR *var,
                                TSR *imm, TSR *out) {
    const tx8_hw_config *hw = tx8_hal_config();
    bn_plan pl;
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_batchnorm_inference_plan(hw, param, in, scale, shift, mean, var, imm, out, &pl, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    const int narrow = in->format != Fmt_FP32;
    const uint64_t work = narrow ? imm->addr : out->addr;
    const uint64_t stage = imm->addr + pl.stage_off, rstd = imm->addr + pl.rstd_off;
    const uint32_t image_elems = (uint32_t)(pl.work.n * pl.work.batch_stride_bytes / 4); /* whole fp32 image */
    const uint32_t batch_bytes = (uint32_t)(pl.io.batch_elems * pl.io.elem_bytes);
    const uint32_t io_stride = (uint32_t)pl.io.batch_stride_bytes;
    const uint32_t stage_stride = (uint32_t)(pl.work.batch_stride_bytes / 2);
    uint64_t total = 0;
    CT_Param ct;

    if (narrow) { /* steps 1-2 */
        ISSUE(total, op_gatherScatter(in->addr, stage, batch_bytes, pl.io.n, io_stride, stage_stride));
        CGRATensor_ConvertOp_V_V_convert(&ct, stage, work, image_elems, in->format, Fmt_FP32, RND_NEAREST_EVEN);
        ISSUE(total, TsmExecute(&ct));
    }
    /* step 3 */
    ISSUE(total, per_channel_pass(&pl, BN_SUB, narrow ? work : in->addr, work, mean->addr));
    /* steps 4-5 */
    const float eps = param->epsilon;
    uint32_t eps_bits;
    memcpy(&eps_bits, &eps, sizeof eps_bits);
    CGRATensor_ArithOp_V_S_add(&ct, var->addr, eps_bits, rstd, pl.c_lanes, RND_NEAREST_EVEN, Fmt_FP32);
    ISSUE(total, TsmExecute(&ct));
    CGRATensor_TranscOp_V_V_rsqrt(&ct, rstd, rstd, pl.c_lanes, RND_NEAREST_EVEN, Fmt_FP32);
    ISSUE(total, TsmExecute(&ct));
    /* steps 6-8 */
    ISSUE(total, per_channel_pass(&pl, BN_MUL, work, work, rstd));
    ISSUE(total, per_channel_pass(&pl, BN_MUL, work, work, scale->addr));
    ISSUE(total, per_channel_pass(&pl, BN_ADD, work, work, shift->addr));
    if (narrow) { /* steps 9-10 */
        CGRATensor_ConvertOp_V_V_convert(&ct, work, stage, image_elems, Fmt_FP32, in->format, RND_NEAREST_EVEN);
        ISSUE(total, TsmExecute(&ct));
        ISSUE(total, op_gatherScatter(stage, out->addr, batch_bytes, pl.io.n, stage_stride, io_stride));
    }
    return total;
}
