/* op_reciprocal: out = 1 / in elementwise on the CT (one reciprocal per chunk over the whole layout image). */
#include "eltwise_common.h"

#include "tx8/hal.h"

uint64_t op_reciprocal(ELTWISE_PARAM *param, TSR *in, TSR *out) {
    return eltwise_unary(tx8_check_reciprocal, CGRATensor_TranscOp_V_V_reciprocal, param, in, out);
}
