/* op_clip: out = min(max(in, min), max) elementwise on the CT: a V_S max into out, then a V_S min in place (both
 * exact: the bounds are fp32 values and the result is one of the inputs, rounded to the format). */
#include "eltwise_common.h"

#include <math.h>

#include "tx8/hal.h"

uint64_t op_clip(CLIP_PARAM *param, TSR *in, TSR *out) {
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_clip(tx8_hal_config(), param, in, out, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    const uint64_t elems = eltwise_elems(param->layout, in);
    /* max(x, -inf) and min(x, +inf) are x (NaN too): a missing bound still costs its pass, which also copies in. */
    const float lo = param->has_min ? param->min : -INFINITY, hi = param->has_max ? param->max : INFINITY;
    const eltwise_scalar_step steps[2] = {{CGRATensor_ArithOp_V_S_max, lo}, {CGRATensor_ArithOp_V_S_min, hi}};
    return eltwise_issue_scalar_chain(steps, 2, in, out, elems, param->rnd);
}
