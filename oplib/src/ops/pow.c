/* op_pow: out = pow(a, b) elementwise on the CT, broadcasting as eltwise_binary says: like op_div, not commutative,
 * so the base a broadcasts only where the exponent b does too (the exponent is the VuV unit). */
#include "eltwise_common.h"

#include "tx8/hal.h"

static const eltwise_binary_kind kKind = {&tx8_binary_pow, CGRATensor_ArithOp_V_V_pow, CGRATensor_ArithOp_V_VuV_pow};

uint64_t op_pow(ELTWISE_PARAM *param, TSR *a, TSR *b, TSR *out) {
    return eltwise_binary(tx8_check_pow, &kKind, param, a, b, out);
}
