/* op_mul: out = a * b elementwise on the CT, broadcasting as eltwise_binary says. */
#include "eltwise_common.h"

#include "tx8/hal.h"

static const eltwise_binary_kind kKind = {&tx8_binary_mul, CGRATensor_ArithOp_V_V_mul, CGRATensor_ArithOp_V_VuV_mul};

uint64_t op_mul(ELTWISE_PARAM *param, TSR *a, TSR *b, TSR *out) {
    return eltwise_binary(tx8_check_mul, &kKind, param, a, b, out);
}
