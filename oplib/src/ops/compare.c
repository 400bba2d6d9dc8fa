/* op_compare: out = (a kind b) as an int8 0/1 mask on the CT, broadcasting as eltwise_binary says (see ops.h). */
#include "eltwise_common.h"

#include "tx8/hal.h"

/* One compare kind per COMPARE_KIND (the contract names the CT_OP_CMP_* it issues). */
static const eltwise_binary_kind kKinds[] = {
    [COMPARE_EQ] = {&tx8_binary_compare[COMPARE_EQ], NULL, NULL},
    [COMPARE_NE] = {&tx8_binary_compare[COMPARE_NE], NULL, NULL},
    [COMPARE_LT] = {&tx8_binary_compare[COMPARE_LT], NULL, NULL},
    [COMPARE_LE] = {&tx8_binary_compare[COMPARE_LE], NULL, NULL},
    [COMPARE_GT] = {&tx8_binary_compare[COMPARE_GT], NULL, NULL},
    [COMPARE_GE] = {&tx8_binary_compare[COMPARE_GE], NULL, NULL},
};

uint64_t op_compare(COMPARE_PARAM *param, TSR *a, TSR *b, TSR *out) {
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_compare(tx8_hal_config(), param, a, b, out, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    return eltwise_binary_issue(&kKinds[param->kind], param->layout, RND_NEAREST_EVEN, a, b, out);
}
