/*
 * op_dequantize_linear: out = fp32((fp32(x) - fp32(zero_point)) * scale) on the CT, scale and zero_point
 * broadcasting to x (contract in tx8/ops.h; ONNX DequantizeLinear). Instructions:
 *   1  out  = fp32(x)             convert (exact for int8 / uint8; int32 rounds to nearest even)
 *   2  zpf  = fp32(zero_point)    convert                                                  -> imm.zp
 *   3  out  = out - zpf           fp32, in place; per broadcast run as op_sub (exact for 8-bit x)
 *   4  out  = out * scale         fp32, nearest even, in place; per broadcast run as op_mul
 * The layout of imm: tx8_plan_quantize.
 */
#include "eltwise_common.h"

#include "tx8/hal.h"
#include "tx8/tsm.h"
#include "issue.h"

static const eltwise_binary_kind kSub = {&tx8_binary_sub, CGRATensor_ArithOp_V_V_sub, CGRATensor_ArithOp_V_VuV_sub};
static const eltwise_binary_kind kMul = {&tx8_binary_mul, CGRATensor_ArithOp_V_V_mul, CGRATensor_ArithOp_V_VuV_mul};

uint64_t op_dequantize_linear(QUANTIZE_PARAM *param, TSR *x, TSR *scale, TSR *zero_point, TSR *imm, TSR *out) {
    const tx8_hw_config *hw = tx8_hal_config();
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_dequantize_linear(hw, param, x, scale, zero_point, imm, out, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    quant_plan pl;
    tx8_plan_quantize(hw, 1, x, scale, &pl);
    L_SHAPE zp_shape;
    tx8_lshape_init(&zp_shape, scale->shape->shape_real, scale->shape->dim);
    TSR zpf = {Fmt_FP32, imm->addr + pl.zp_off, &zp_shape};
    uint64_t total = 0;
    ISSUE(total, eltwise_issue_convert(x->addr, x->format, out->addr, Fmt_FP32, pl.x_elems, RNE));
    ISSUE(total, eltwise_issue_convert(zero_point->addr, zero_point->format, zpf.addr, Fmt_FP32, pl.scale_elems,
                                       RNE));
    ISSUE(total, eltwise_binary_issue(&kSub, param->layout, RNE, out, &zpf, out));
    ISSUE(total, eltwise_binary_issue(&kMul, param->layout, RNE, out, scale, out));
    return total;
}
