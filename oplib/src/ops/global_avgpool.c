/*
 * op_global_avgpool: mean over H x W per batch and channel, as one POOL_AVG whose window is the whole image
 * (kernel H x W, no padding, a 1 x 1 output): summed in double in (h, w) order, divided by H*W, rounded once.
 * Going through fp32 REDUCE + divide instead would round the sum (and overflow fp16 sums) before the divide.
 */
#include "pool_common.h"

#include "tx8/hal.h"

uint64_t op_global_avgpool(GLOBAL_POOL_PARAM *param, TSR *in, TSR *out) {
    pool_plan pl;
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_global_pool_plan(tx8_hal_config(), param, in, out, &pl, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    return pool_issue(&pl, CT_OP_POOL_AVG, in->addr, out->addr);
}
