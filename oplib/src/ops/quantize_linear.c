/*
 * op_quantize_linear: out = saturate(rint(fp32(x / scale)) + zero_point) on the CT, scale and zero_point
 * broadcasting to x (contract in tx8/ops.h; ONNX QuantizeLinear, rounding half to even). Instructions:
 *   1  work = x / scale           fp32, nearest even; per broadcast run as op_div          -> imm.work
 *   2  work = int32(work)         convert in place, nearest even (NaN -> 0), saturating
 *   3  zp32 = int32(zero_point)   convert (exact)                                          -> imm.zp
 *   4  work = work + zp32         int32, saturating; per broadcast run as op_add
 *   5  out  = fmt(work)           convert, saturating to int8 [-128, 127] or uint8 [0, 255]
 * Rounding to an integer before the zero point is added is what ONNX specifies (round(x / scale) + zp, not
 * round(x / scale + zp), which differs at halves: 0.5 + 1 is 1, not 2). The layout of imm: tx8_plan_quantize.
 */
#include "eltwise_common.h"

#include "tx8/hal.h"
#include "tx8/tsm.h"
#include "issue.h"

static const eltwise_binary_kind kDiv = {&tx8_binary_div, CGRATensor_ArithOp_V_V_div, CGRATensor_ArithOp_V_VuV_div};
static const eltwise_binary_kind kAdd = {&tx8_binary_add, CGRATensor_ArithOp_V_V_add, CGRATensor_ArithOp_V_VuV_add};

uint64_t op_quantize_linear(QUANTIZE_PARAM *param, TSR *x, TSR *scale, TSR *zero_point, TSR *imm, TSR *out) {
    const tx8_hw_config *hw = tx8_hal_config();
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_quantize_linear(hw, param, x, scale, zero_point, imm, out, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    quant_plan pl;
    tx8_plan_quantize(hw, 0, x, scale, &pl);
    L_SHAPE work_shape, zp_shape;
    tx8_lshape_init(&work_shape, x->shape->shape_real, x->shape->dim);
    tx8_lshape_init(&zp_shape, scale->shape->shape_real, scale->shape->dim);
    TSR work = {Fmt_FP32, imm->addr + pl.work_off, &work_shape};
    TSR zp32 = {Fmt_INT32, imm->addr + pl.zp_off, &zp_shape};
    uint64_t total = 0;
    ISSUE(total, eltwise_binary_issue(&kDiv, param->layout, RNE, x, scale, &work));
    ISSUE(total, eltwise_issue_convert(work.addr, Fmt_FP32, work.addr, Fmt_INT32, pl.x_elems, RNE));
    work.format = Fmt_INT32;
    ISSUE(total, eltwise_issue_convert(zero_point->addr, zero_point->format, zp32.addr, Fmt_INT32, pl.scale_elems,
                                       RNE));
    ISSUE(total, eltwise_binary_issue(&kAdd, param->layout, RNE, &work, &zp32, &work));
    ISSUE(total, eltwise_issue_convert(work.addr, Fmt_INT32, out->addr, out->format, pl.x_elems, RNE));
    return total;
}
