/* op_avgpool: 2-D average pooling on the CT, one POOL_AVG per image group (pool_common.c; contract in tx8/ops.h). */
#include "pool_common.h"

#include "tx8/hal.h"

uint64_t op_avgpool(POOL_PARAM *param, TSR *in, TSR *out) {
    pool_plan pl;
    if (!param) return tx8_hal_fault("op_avgpool: param is NULL"), TX8_CYCLES_INVALID;
    if (pool_check_tensors("op_avgpool", param->layout, in, out, &pl) != 0 ||
        pool_check_window("op_avgpool", param, 1, &pl) != 0)
        return TX8_CYCLES_INVALID;
    return pool_issue(&pl, CT_OP_POOL_AVG, in->addr, out->addr);
}
