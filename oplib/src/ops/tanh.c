/* op_tanh: out = tanh(in) elementwise on the CT (one tanh per chunk over the whole layout image). */
#include "eltwise_common.h"

#include "tx8/hal.h"

uint64_t op_tanh(ELTWISE_PARAM *param, TSR *in, TSR *out) {
    return eltwise_unary(tx8_check_tanh, CGRATensor_ActOp_V_V_tanh, param, in, out);
}
