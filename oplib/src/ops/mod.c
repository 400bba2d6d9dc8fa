/* op_mod: out = a mod b on the CT, Python's % (param->fmod 0) or C's fmod (1), broadcasting as op_div (see ops.h). */
#include "eltwise_common.h"

#include "tx8/hal.h"

/* Neither commutes: a may broadcast only where b does too. The remainder is exact, so rnd plays no part. */
static const eltwise_binary_kind kKinds[2] = {
    {"op_mod", CGRATensor_ArithOp_V_V_mod, CGRATensor_ArithOp_V_VuV_mod, 0, 0, ELTWISE_NUMBERS, 0},
    {"op_mod", CGRATensor_ArithOp_V_V_fmod, CGRATensor_ArithOp_V_VuV_fmod, 0, 0, ELTWISE_NUMBERS, 0},
};

uint64_t op_mod(MOD_PARAM *param, TSR *a, TSR *b, TSR *out) {
    if (!param) return tx8_hal_fault("op_mod: param is NULL"), TX8_CYCLES_INVALID;
    if (param->fmod > 1)
        return tx8_hal_fault("op_mod: param->fmod = %u, must be 0 (the divisor's sign) or 1 (the dividend's)",
                             param->fmod), TX8_CYCLES_INVALID;
    const ELTWISE_PARAM common = {param->layout, RND_NEAREST_EVEN};
    return eltwise_binary(&kKinds[param->fmod], &common, a, b, out);
}
