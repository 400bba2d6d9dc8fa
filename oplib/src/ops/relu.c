/* op_relu: out = max(in, 0) elementwise on the CT (one relu per chunk over the whole layout image). */
#include "eltwise_common.h"

#include "tx8/hal.h"

uint64_t op_relu(ELTWISE_PARAM *param, TSR *in, TSR *out) {
    return eltwise_unary(tx8_check_relu, CGRATensor_ActOp_V_V_relu, param, in, out);
}
