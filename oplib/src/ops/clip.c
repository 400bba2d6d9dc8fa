/* op_clip: out = min(max(in, min), max) elementwise on the CT: a V_S max into out, then a V_S min in place (both
 * exact: the bounds are fp32 values and the result is one of the inputs, rounded to the format). */
#include "eltwise_common.h"

#include <math.h>

#include "tx8/hal.h"

uint64_t op_clip(CLIP_PARAM *param, TSR *in, TSR *out) {
    if (!param) return tx8_hal_fault("op_clip: param is NULL"), TX8_CYCLES_INVALID;
    uint64_t elems;
    if (eltwise_prepare_unary("op_clip", param->layout, param->rnd, in, out, &elems) != 0)
        return TX8_CYCLES_INVALID;
    /* max(x, -inf) and min(x, +inf) are x (NaN too): a missing bound still costs its pass, which also copies in. */
    const float lo = param->has_min ? param->min : -INFINITY, hi = param->has_max ? param->max : INFINITY;
    const eltwise_scalar_step steps[2] = {{CGRATensor_ArithOp_V_S_max, lo}, {CGRATensor_ArithOp_V_S_min, hi}};
    return eltwise_issue_scalar_chain(steps, 2, in, out, elems, param->rnd);
}
