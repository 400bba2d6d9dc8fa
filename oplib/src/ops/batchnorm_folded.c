/*
 * op_batchnorm_inference_folded: out = in * a + b per channel, with a = scale * rsqrt(var + epsilon) and
 * b = shift - mean * a folded first: the second entry point beside the seed's 10-step flow (batchnorm_inference.c),
 * same arguments and contract.
 *
 * Steps (CT instructions; every per-channel vector is fp32 over the layout's aligned channel count c_lanes, so
 * lanes past C only feed the padding lanes of out, as in the 10-step flow):
 *   1  a = var + epsilon         V_S add into imm.a
 *   2  a = rsqrt(a)
 *   3  a = a * scale             V_V mul
 *   4  b = -mean                 V neg into imm.b (exact)
 *   5  b = b * a + shift         V_V fma: shift - mean * a rounded once
 *   6  out = in * a + b          ONE fma pass over the data, straight from in to out in their own format (fp32,
 *                                fp16 or bf16 data with the fp32 vectors as coefficients, rounded once to out's
 *                                format): VuV_fma per batch ([HW][Ca]: C <= 32 or compact; all batches at once when
 *                                no padding separates them), or VuV_fma_loop over the Cx blocks ([Cx][HW][64]) plus
 *                                VuV_fma over the C0 tail ([HW][C0a]) per batch
 * Nothing is converted and no fp32 image is made: in the 10-step flow a narrow format costs two gatherScatters, two
 * converts and four fp32 passes. Numerics (vs the exact value and vs the 10-step flow): tx8/ops.h.
 * Layouts and imm: tx8_plan_batchnorm_folded (plan/plan.h).
 */
#include <string.h>

#include "tx8/cgra.h"
#include "tx8/hal.h"
#include "tx8/layout.h"
#include "tx8/ops.h"
#include "tx8/tsm.h"

#include "../plan/plan.h"
#include "batchnorm_common.h"
#include "issue.h"

#define OP "op_batchnorm_inference_folded"

#define BN_FAIL(...) (tx8_hal_fault(OP ": " __VA_ARGS__), -1)

/* op_batchnorm_inference's argument contract, with this op's imm. */
static int check_args(const tx8_hw_config *hw, const BATCHNORM_INFER_PARAM *param, TSR *in, TSR *scale,
                      TSR *shift, TSR *mean, TSR *var, TSR *imm, TSR *out, bn_fold_plan *pl) {
    if (tx8_bn_check_tensors(OP, param, in, scale, shift, mean, var, imm, out) != 0) return -1;
    if (tx8_plan_batchnorm_folded(hw, param, in, pl) != 0)
        return BN_FAIL("in's shape does not fit layout %s (Tensor/Cx need dim 0 == 1; extents must be > 0)",
                       tx8_layout_name(param->layout));
    if (imm->format != Fmt_INT8 || imm->shape->dim != 1 || (uint64_t)imm->shape->shape_real[0] < pl->imm_bytes)
        return BN_FAIL("imm must be an int8 [bytes] buffer of at least %llu bytes "
                       "(op_batchnorm_inference_folded_imm_size)", (unsigned long long)pl->imm_bytes);
    if ((uint64_t)pl->io.n * pl->io.batch_stride_bytes / pl->io.elem_bytes > UINT32_MAX)
        return BN_FAIL("in holds more than 2^32 elements");
    return 0;
}

/* Step 6: out = in * a + b over every batch (a, b: fp32 vectors of c_lanes lanes). */
static uint64_t fma_pass(const bn_fold_plan *pl, uint64_t in, uint64_t out, uint64_t a, uint64_t b) {
    const tx8_layout *l = &pl->io;
    const Data_Format f = l->fmt;
    uint64_t total = 0;
    CT_Param ct;
    if (!l->c_split) { /* [HW][Ca] per batch: one instruction for all of them when they are back to back */
        const uint32_t per_batch = l->hw * l->c0_aligned;
        const int packed = l->batch_stride_bytes == (uint64_t)per_batch * l->elem_bytes;
        const uint32_t calls = packed ? 1 : l->n, elems = packed ? l->n * per_batch : per_batch;
        for (uint32_t k = 0; k < calls; ++k) {
            const uint64_t off = (uint64_t)k * l->batch_stride_bytes;
            CGRATensor_ArithOp_V_VuV_fma(&ct, in + off, out + off, a, b, RND_NEAREST_EVEN, elems, l->c0_aligned,
                                         Fmt_FP32, f);
            ISSUE(total, TsmExecute(&ct));
        }
        return total;
    }
    for (uint32_t k = 0; k < l->n; ++k) {
        const uint64_t s = in + (uint64_t)k * l->batch_stride_bytes, d = out + (uint64_t)k * l->batch_stride_bytes;
        if (l->cx) { /* [Cx][HW][64]: HW*64 elements per unit of 64 channels, looped over the Cx blocks */
            const uint32_t n = l->hw * l->unit;
            CGRATensor_ArithOp_V_VuV_fma_loop(&ct, s, d, a, b, RND_NEAREST_EVEN, n, l->unit, l->cx * n,
                                              l->cx * l->unit, Fmt_FP32, f);
            ISSUE(total, TsmExecute(&ct));
        }
        if (l->c0_aligned) { /* [HW][C0a]: the tail channels, their coefficients after the Cx*64 lanes */
            const uint64_t off = (uint64_t)l->cx * l->hw * l->unit * l->elem_bytes;
            const uint64_t voff = (uint64_t)l->cx * l->unit * 4;
            CGRATensor_ArithOp_V_VuV_fma(&ct, s + off, d + off, a + voff, b + voff, RND_NEAREST_EVEN,
                                         l->hw * l->c0_aligned, l->c0_aligned, Fmt_FP32, f);
            ISSUE(total, TsmExecute(&ct));
        }
    }
    return total;
}

uint64_t op_batchnorm_inference_folded(BATCHNORM_INFER_PARAM *param, TSR *in, TSR *scale, TSR *shift, TSR *mean,
                                       TSR *var, TSR *imm, TSR *out) {
    const tx8_hw_config *hw = tx8_hal_config();
    bn_fold_plan pl;
    if (check_args(hw, param, in, scale, shift, mean, var, imm, out, &pl) != 0) return TX8_CYCLES_INVALID;
    const uint64_t a = imm->addr + pl.a_off, b = imm->addr + pl.b_off;
    uint64_t total = 0;
    CT_Param ct;

    /* steps 1-3: a = scale * rsqrt(var + epsilon) */
    const float eps = param->epsilon;
    uint32_t eps_bits;
    memcpy(&eps_bits, &eps, sizeof eps_bits);
    CGRATensor_ArithOp_V_S_add(&ct, var->addr, eps_bits, a, pl.c_lanes, RND_NEAREST_EVEN, Fmt_FP32);
    ISSUE(total, TsmExecute(&ct));
    CGRATensor_TranscOp_V_V_rsqrt(&ct, a, a, pl.c_lanes, RND_NEAREST_EVEN, Fmt_FP32);
    ISSUE(total, TsmExecute(&ct));
    CGRATensor_ArithOp_V_V_mul(&ct, a, scale->addr, a, pl.c_lanes, RND_NEAREST_EVEN, Fmt_FP32);
    ISSUE(total, TsmExecute(&ct));
    /* steps 4-5: b = shift - mean * a, one rounding */
    CGRATensor_ArithOp_V_V_neg(&ct, mean->addr, b, pl.c_lanes, RND_NEAREST_EVEN, Fmt_FP32);
    ISSUE(total, TsmExecute(&ct));
    CGRATensor_ArithOp_V_V_fma(&ct, b, a, shift->addr, b, pl.c_lanes, RND_NEAREST_EVEN, Fmt_FP32, Fmt_FP32);
    ISSUE(total, TsmExecute(&ct));
    /* step 6 */
    ISSUE(total, fma_pass(&pl, in->addr, out->addr, a, b));
    return total;
}
