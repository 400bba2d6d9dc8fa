/* op_exp: out = exp(in) elementwise on the CT (one exp per chunk over the whole layout image). */
#include "eltwise_common.h"

#include "tx8/hal.h"

uint64_t op_exp(ELTWISE_PARAM *param, TSR *in, TSR *out) {
    return eltwise_unary(tx8_check_exp, CGRATensor_TranscOp_V_V_exp, param, in, out);
}
