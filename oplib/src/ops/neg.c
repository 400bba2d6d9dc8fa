/* op_neg: out = -in elementwise on the CT (one neg per chunk over the whole layout image; floats, int8, int32). */
#include "eltwise_common.h"

#include "tx8/hal.h"

uint64_t op_neg(ELTWISE_PARAM *param, TSR *in, TSR *out) {
    return eltwise_unary(tx8_check_neg, CGRATensor_ArithOp_V_V_neg, param, in, out);
}
