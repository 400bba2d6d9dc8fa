/* op_sigmoid: out = 1 / (1 + exp(-in)) elementwise on the CT (one sigmoid per chunk over the whole layout image). */
#include "eltwise_common.h"

#include "tx8/hal.h"

uint64_t op_sigmoid(ELTWISE_PARAM *param, TSR *in, TSR *out) {
    return eltwise_unary(tx8_check_sigmoid, CGRATensor_ActOp_V_V_sigmoid, param, in, out);
}
