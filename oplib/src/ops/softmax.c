/*
 * op_softmax: softmax along the last dim of a compact tensor viewed as [R][L], in fp32 on the CT (contract and
 * error bound in tx8/ops.h). One CT instruction per step over the whole tensor:
 *   0  fp16/bf16: convert in -> imm.work (fp32; exact). fp32: out is the work tensor and step 2 reads in directly
 *   1  m = REDUCE_INNER max of x               -> imm.row [R]
 *   2  work = x - m                            R == 1: V_VuV sub with a 1-element unit (the row value itself);
 *                                              R > 1: TDMA broadcast of imm.row into imm.bcast [R][L] (source
 *                                              stride 0), then V_V sub: one instruction each instead of R
 *   3  work = exp(work)                        in place
 *   4  s = REDUCE_INNER sum of work            -> imm.row (double accumulation in index order, rounded once)
 *   5  q = 1 / s                               imm.row in place (s >= 1: the max element contributes exp(0) = 1)
 *   6  work = work * q                         as step 2
 *   7  fp16/bf16: convert imm.work -> out (nearest even)
 * Everything rounds to nearest even. Reciprocal + multiply instead of a divide: R transcendental elements instead
 * of R*L, for one more fp32 rounding. The [R][L] view and the layout of imm: tx8_plan_softmax (plan/plan.h).
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

uint64_t op_softmax(SOFTMAX_PARAM *param, TSR *in, TSR *imm, TSR *out) {
    const tx8_hw_config *hw = tx8_hal_config();
    sm_plan pl;
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_softmax_plan(hw, param, in, imm, out, &pl, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    const int narrow = in->format != Fmt_FP32;
    const uint32_t n = pl.rows * pl.len;
    const uint64_t work = narrow ? imm->addr + pl.work_off : out->addr;
    const uint64_t bcast = imm->addr + pl.bcast_off, row = imm->addr + pl.row_off;
    uint64_t x = in->addr, total = 0;
    CT_Param ct;

    if (narrow) { /* step 0 */
        CGRATensor_ConvertOp_V_V_convert(&ct, in->addr, work, n, in->format, Fmt_FP32, RNE);
        ISSUE(total, TsmExecute(&ct));
        x = work;
    }
    CGRATensor_ReduceOp_T_inner_max(&ct, x, row, pl.rows, pl.len, RNE, Fmt_FP32); /* step 1 */
    ISSUE(total, TsmExecute(&ct));
    ISSUE(total, tx8_row_apply(pl.rows, pl.len, 0, x, work, row, bcast)); /* step 2 */
    CGRATensor_TranscOp_V_V_exp(&ct, work, work, n, RNE, Fmt_FP32); /* step 3 */
    ISSUE(total, TsmExecute(&ct));
    CGRATensor_ReduceOp_T_inner_sum(&ct, work, row, pl.rows, pl.len, RNE, Fmt_FP32); /* step 4 */
    ISSUE(total, TsmExecute(&ct));
    CGRATensor_TranscOp_V_V_reciprocal(&ct, row, row, pl.rows, RNE, Fmt_FP32); /* step 5 */
    ISSUE(total, TsmExecute(&ct));
    ISSUE(total, tx8_row_apply(pl.rows, pl.len, 1, work, work, row, bcast)); /* step 6 */
    if (narrow) { /* step 7 */
        CGRATensor_ConvertOp_V_V_convert(&ct, work, out->addr, n, Fmt_FP32, out->format, RNE);
        ISSUE(total, TsmExecute(&ct));
    }
    return total;
}
