/* op_maxpool: 2-D max pooling on the CT, one POOL_MAX per image group (pool_common.c; contract in tx8/ops.h). */
#include "pool_common.h"

#include "tx8/hal.h"

uint64_t op_maxpool(POOL_PARAM *param, TSR *in, TSR *out) {
    pool_plan pl;
    if (!param) return tx8_hal_fault("op_maxpool: param is NULL"), TX8_CYCLES_INVALID;
    if (pool_check_tensors("op_maxpool", param->layout, in, out, &pl) != 0 ||
        pool_check_window("op_maxpool", param, 0, &pl) != 0)
        return TX8_CYCLES_INVALID;
    return pool_issue(&pl, CT_OP_POOL_MAX, in->addr, out->addr);
}
