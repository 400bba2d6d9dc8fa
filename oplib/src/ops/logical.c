/* op_logical: AND / OR / XOR of int8 booleans on the CT (min, max, compare NE), broadcasting as eltwise_binary
 * says (see ops.h). */
#include "eltwise_common.h"

#include "tx8/hal.h"

static const eltwise_binary_kind kKinds[] = {
    [LOGICAL_AND] = {"op_logical", CGRATensor_ArithOp_V_V_min, CGRATensor_ArithOp_V_VuV_min, 1, 0,
                     ELTWISE_FMT(Fmt_INT8), 0},
    [LOGICAL_OR] = {"op_logical", CGRATensor_ArithOp_V_V_max, CGRATensor_ArithOp_V_VuV_max, 1, 0,
                    ELTWISE_FMT(Fmt_INT8), 0},
    [LOGICAL_XOR] = {"op_logical", NULL, NULL, 1, 0, ELTWISE_FMT(Fmt_INT8), CT_OP_CMP_NE},
};

uint64_t op_logical(LOGICAL_PARAM *param, TSR *a, TSR *b, TSR *out) {
    if (!param) return tx8_hal_fault("op_logical: param is NULL"), TX8_CYCLES_INVALID;
    if ((unsigned)param->kind >= sizeof kKinds / sizeof kKinds[0])
        return tx8_hal_fault("op_logical: param->kind = %d is not a LOGICAL_KIND (0..2)", (int)param->kind),
               TX8_CYCLES_INVALID;
    const ELTWISE_PARAM common = {param->layout, RND_NEAREST_EVEN};
    return eltwise_binary(&kKinds[param->kind], &common, a, b, out);
}
