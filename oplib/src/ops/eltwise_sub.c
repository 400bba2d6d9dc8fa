/* op_sub: out = a - b elementwise on the CT, broadcasting as eltwise_binary says. */
#include "eltwise_common.h"

#include "tx8/hal.h"

static const eltwise_binary_kind kKind = {&tx8_binary_sub, CGRATensor_ArithOp_V_V_sub, CGRATensor_ArithOp_V_VuV_sub};

uint64_t op_sub(ELTWISE_PARAM *param, TSR *a, TSR *b, TSR *out) {
    return eltwise_binary(tx8_check_sub, &kKind, param, a, b, out);
}
