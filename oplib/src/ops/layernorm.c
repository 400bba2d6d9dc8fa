/*
 * op_layernorm: layer (or RMS) normalisation of each row of a compact tensor viewed as [R][n], statistics in fp32 on
 * the CT (contract and error bound in tx8/ops.h). One CT instruction per step over the whole tensor (d is the
 * fp32 work tensor: imm.work for fp16/bf16, out for fp32):
 *   0  fp16/bf16: convert in -> imm.work (fp32; exact). fp32: step 1-3 read in directly
 *   1  layer: s = REDUCE_INNER sum of x          -> imm.row [R]
 *   2  layer: m = s / n                          imm.row in place
 *   3  layer: d = x - m                          R == 1: V_VuV sub with a 1-element unit; R > 1: TDMA broadcast of
 *                                                imm.row into imm.sq [R][n] (source stride 0), then V_V sub
 *      rms: d is x
 *   4  sq = d * d                                -> imm.sq
 *   5  v = REDUCE_INNER sum of sq                -> imm.row
 *   6  v = v / n;  7  v = v + epsilon;  8  q = rsqrt(v)     imm.row in place
 *   9  d = d * q                                 as step 3 (rms: reads x, writes d)
 *  10  fp16/bf16: convert scale (and bias) -> imm.coef (fp32)
 *  11  d = d * scale + bias (V_VuV fma, an n-element unit; no bias: V_VuV mul)
 *  12  fp16/bf16: convert imm.work -> out (nearest even)
 * The division by n (steps 2, 6) runs on the R row values only, so it costs little and rounds once.
 */
#include <string.h>

#include "tx8/cgra.h"
#include "tx8/hal.h"
#include "tx8/lsu.h"
#include "tx8/ops.h"
#include "tx8/tsm.h"

#include "../plan/check_internal.h"
#include "row_common.h"
#include "issue.h"

static uint32_t f32_bits(float f) {
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

uint64_t op_layernorm(LAYERNORM_PARAM *param, TSR *in, TSR *scale, TSR *bias, TSR *imm, TSR *out) {
    const tx8_hw_config *hw = tx8_hal_config();
    ln_plan pl;
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_layernorm_plan(hw, param, in, scale, bias, imm, out, &pl, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    const int narrow = in->format != Fmt_FP32;
    const uint32_t n = pl.rows * pl.len;
    const uint64_t work = narrow ? imm->addr + pl.work_off : out->addr;
    const uint64_t sq = imm->addr + pl.sq_off, row = imm->addr + pl.row_off;
    const uint32_t len_bits = f32_bits((float)pl.len);
    uint64_t x = in->addr, total = 0;
    uint64_t scale_addr = scale->addr, bias_addr = bias ? bias->addr : 0;
    CT_Param ct;

    if (narrow) { /* step 0 */
        CGRATensor_ConvertOp_V_V_convert(&ct, in->addr, work, n, in->format, Fmt_FP32, RNE);
        ISSUE(total, TsmExecute(&ct));
        x = work;
    }
    if (!param->rms) { /* steps 1-3 */
        CGRATensor_ReduceOp_T_inner_sum(&ct, x, row, pl.rows, pl.len, RNE, Fmt_FP32);
        ISSUE(total, TsmExecute(&ct));
        CGRATensor_ArithOp_V_S_div(&ct, row, len_bits, row, pl.rows, RNE, Fmt_FP32);
        ISSUE(total, TsmExecute(&ct));
        ISSUE(total, tx8_row_apply(pl.rows, pl.len, 0, x, work, row, sq));
        x = work;
    }
    CGRATensor_ArithOp_V_V_mul(&ct, x, x, sq, n, RNE, Fmt_FP32); /* step 4 */
    ISSUE(total, TsmExecute(&ct));
    CGRATensor_ReduceOp_T_inner_sum(&ct, sq, row, pl.rows, pl.len, RNE, Fmt_FP32); /* step 5 */
    ISSUE(total, TsmExecute(&ct));
    CGRATensor_ArithOp_V_S_div(&ct, row, len_bits, row, pl.rows, RNE, Fmt_FP32); /* steps 6-8 */
    ISSUE(total, TsmExecute(&ct));
    CGRATensor_ArithOp_V_S_add(&ct, row, f32_bits(param->epsilon), row, pl.rows, RNE, Fmt_FP32);
    ISSUE(total, TsmExecute(&ct));
    CGRATensor_TranscOp_V_V_rsqrt(&ct, row, row, pl.rows, RNE, Fmt_FP32);
    ISSUE(total, TsmExecute(&ct));
    ISSUE(total, tx8_row_apply(pl.rows, pl.len, 1, x, work, row, sq)); /* step 9 */
    if (narrow) { /* step 10 */
        scale_addr = imm->addr + pl.coef_off;
        CGRATensor_ConvertOp_V_V_convert(&ct, scale->addr, scale_addr, pl.len, in->format, Fmt_FP32, RNE);
        ISSUE(total, TsmExecute(&ct));
        if (bias) {
            bias_addr = scale_addr + (pl.imm_bytes - pl.coef_off) / 2;
            CGRATensor_ConvertOp_V_V_convert(&ct, bias->addr, bias_addr, pl.len, in->format, Fmt_FP32, RNE);
            ISSUE(total, TsmExecute(&ct));
        }
    }
    if (bias) /* step 11 */
        CGRATensor_ArithOp_V_VuV_fma(&ct, work, work, scale_addr, bias_addr, RNE, n, pl.len, Fmt_FP32, Fmt_FP32);
    else
        CGRATensor_ArithOp_V_VuV_mul(&ct, work, work, scale_addr, RNE, n, pl.len, Fmt_FP32);
    ISSUE(total, TsmExecute(&ct));
    if (narrow) { /* step 12 */
        CGRATensor_ConvertOp_V_V_convert(&ct, work, out->addr, n, Fmt_FP32, out->format, RNE);
        ISSUE(total, TsmExecute(&ct));
    }
    return total;
}
