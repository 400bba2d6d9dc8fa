/* op_max: out = max(a, b) elementwise on the CT, broadcasting as eltwise_binary says; NaN
 * propagates, as in ONNX Max. */
#include "eltwise_common.h"

#include "tx8/hal.h"

static const eltwise_binary_kind kKind = {&tx8_binary_max, CGRATensor_ArithOp_V_V_max, CGRATensor_ArithOp_V_VuV_max};

uint64_t op_max(ELTWISE_PARAM *param, TSR *a, TSR *b, TSR *out) {
    return eltwise_binary(tx8_check_max, &kKind, param, a, b, out);
}
