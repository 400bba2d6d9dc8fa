/* op_sqrt: out = sqrt(in) elementwise on the CT (one sqrt per chunk over the whole layout image). */
#include "eltwise_common.h"

#include "tx8/hal.h"

uint64_t op_sqrt(ELTWISE_PARAM *param, TSR *in, TSR *out) {
    return eltwise_unary(tx8_check_sqrt, CGRATensor_TranscOp_V_V_sqrt, param, in, out);
}
