/* op_min: out = min(a, b) elementwise on the CT, broadcasting as eltwise_binary says; NaN
 * propagates, as in ONNX Min. */
#include "eltwise_common.h"

#include "tx8/hal.h"

static const eltwise_binary_kind kKind = {&tx8_binary_min, CGRATensor_ArithOp_V_V_min, CGRATensor_ArithOp_V_VuV_min};

uint64_t op_min(ELTWISE_PARAM *param, TSR *a, TSR *b, TSR *out) {
    return eltwise_binary(tx8_check_min, &kKind, param, a, b, out);
}
