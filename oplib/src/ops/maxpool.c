/* op_maxpool: 2-D max pooling on the CT, one POOL_MAX per image group (pool_common.c; contract in tx8/ops.h). */
#include "pool_common.h"

#include "tx8/hal.h"

uint64_t op_maxpool(POOL_PARAM *param, TSR *in, TSR *out) {
    pool_plan pl;
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_pool_plan(tx8_hal_config(), "op_maxpool", 0, param, in, out, &pl, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    return pool_issue(&pl, CT_OP_POOL_MAX, in->addr, out->addr);
}
