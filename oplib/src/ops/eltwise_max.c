/* op_max: out = max(a, b) elementwise on the CT (one max V_V per chunk over the whole layout image); NaN
 * propagates, as in ONNX Max. */
#include "eltwise_common.h"

#include "tx8/hal.h"

uint64_t op_max(ELTWISE_PARAM *param, TSR *a, TSR *b, TSR *out) {
    TSR *const t[3] = {a, b, out};
    static const char *const names[3] = {"a", "b", "out"};
    uint64_t elems;
    if (eltwise_prepare("op_max", param, t, names, 3, &elems) != 0) return TX8_CYCLES_INVALID;
    return eltwise_issue_binary(CGRATensor_ArithOp_V_V_max, a, b, out, elems, param->rnd);
}
