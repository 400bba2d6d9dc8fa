/* op_compare: out = (a kind b) as an int8 0/1 mask on the CT, broadcasting as eltwise_binary says (see ops.h). */
#include "eltwise_common.h"

#include "tx8/hal.h"

/* One compare kind per COMPARE_KIND: a and b fp32, fp16, bf16, int8 or int32, out the int8 mask. */
static const eltwise_binary_kind kKinds[] = {
    [COMPARE_EQ] = {"op_compare", NULL, NULL, 1, 0, ELTWISE_NUMBERS, CT_OP_CMP_EQ},
    [COMPARE_NE] = {"op_compare", NULL, NULL, 1, 0, ELTWISE_NUMBERS, CT_OP_CMP_NE},
    [COMPARE_LT] = {"op_compare", NULL, NULL, 1, 0, ELTWISE_NUMBERS, CT_OP_CMP_LT},
    [COMPARE_LE] = {"op_compare", NULL, NULL, 1, 0, ELTWISE_NUMBERS, CT_OP_CMP_LE},
    [COMPARE_GT] = {"op_compare", NULL, NULL, 1, 0, ELTWISE_NUMBERS, CT_OP_CMP_GT},
    [COMPARE_GE] = {"op_compare", NULL, NULL, 1, 0, ELTWISE_NUMBERS, CT_OP_CMP_GE},
};

uint64_t op_compare(COMPARE_PARAM *param, TSR *a, TSR *b, TSR *out) {
    if (!param) return tx8_hal_fault("op_compare: param is NULL"), TX8_CYCLES_INVALID;
    if ((unsigned)param->kind >= sizeof kKinds / sizeof kKinds[0])
        return tx8_hal_fault("op_compare: param->kind = %d is not a COMPARE_KIND (0..5)", (int)param->kind),
               TX8_CYCLES_INVALID;
    const ELTWISE_PARAM common = {param->layout, RND_NEAREST_EVEN};
    return eltwise_binary(&kKinds[param->kind], &common, a, b, out);
}
