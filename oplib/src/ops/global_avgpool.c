/*
 * op_global_avgpool: mean over H x W per batch and channel, as one POOL_AVG whose window is the whole image
 * (kernel H x W, no padding, a 1 x 1 output): summed in double in (h, w) order, divided by H*W, rounded once.
 * Going through fp32 REDUCE + divide instead would round the sum (and overflow fp16 sums) before the divide.
 */
#include "pool_common.h"

#include "tx8/hal.h"

uint64_t op_global_avgpool(GLOBAL_POOL_PARAM *param, TSR *in, TSR *out) {
    pool_plan pl;
    if (!param) return tx8_hal_fault("op_global_avgpool: param is NULL"), TX8_CYCLES_INVALID;
    if (pool_check_tensors("op_global_avgpool", param->layout, in, out, &pl) != 0) return TX8_CYCLES_INVALID;
    if (pl.geom.out_h != 1 || pl.geom.out_w != 1)
        return tx8_hal_fault("op_global_avgpool: out->shape->shape_real = [%d][%d][%d][%d], must be [N][1][1][C]",
                             out->shape->shape_real[0], out->shape->shape_real[1], out->shape->shape_real[2],
                             out->shape->shape_real[3]), TX8_CYCLES_INVALID;
    Ncc_CT_GR_Pool_Regs *g = &pl.geom;
    g->kernel_h = g->in_h;
    g->kernel_w = g->in_w;
    g->stride_h = g->stride_w = g->dilation_h = g->dilation_w = 1;
    return pool_issue(&pl, CT_OP_POOL_AVG, in->addr, out->addr);
}
