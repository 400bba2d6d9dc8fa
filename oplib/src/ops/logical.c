/* op_logical: AND / OR / XOR of int8 booleans on the CT (min, max, compare NE), broadcasting as eltwise_binary
 * says (see ops.h). */
#include "eltwise_common.h"

#include "tx8/hal.h"

static const eltwise_binary_kind kKinds[] = {
    [LOGICAL_AND] = {&tx8_binary_logical[LOGICAL_AND], CGRATensor_ArithOp_V_V_min, CGRATensor_ArithOp_V_VuV_min},
    [LOGICAL_OR] = {&tx8_binary_logical[LOGICAL_OR], CGRATensor_ArithOp_V_V_max, CGRATensor_ArithOp_V_VuV_max},
    [LOGICAL_XOR] = {&tx8_binary_logical[LOGICAL_XOR], NULL, NULL}, /* the contract's compare NE */
};

uint64_t op_logical(LOGICAL_PARAM *param, TSR *a, TSR *b, TSR *out) {
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_logical(tx8_hal_config(), param, a, b, out, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    return eltwise_binary_issue(&kKinds[param->kind], param->layout, RND_NEAREST_EVEN, a, b, out);
}
