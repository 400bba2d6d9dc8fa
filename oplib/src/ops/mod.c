/* op_mod: out = a mod b on the CT, Python's % (param->fmod 0) or C's fmod (1), broadcasting as op_div (see ops.h). */
#include "eltwise_common.h"

#include "tx8/hal.h"

static const eltwise_binary_kind kKinds[2] = {
    {&tx8_binary_mod, CGRATensor_ArithOp_V_V_mod, CGRATensor_ArithOp_V_VuV_mod},
    {&tx8_binary_fmod, CGRATensor_ArithOp_V_V_fmod, CGRATensor_ArithOp_V_VuV_fmod},
};

uint64_t op_mod(MOD_PARAM *param, TSR *a, TSR *b, TSR *out) {
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_mod(tx8_hal_config(), param, a, b, out, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    /* The remainder is exact, so rnd plays no part. */
    return eltwise_binary_issue(&kKinds[param->fmod], param->layout, RND_NEAREST_EVEN, a, b, out);
}
