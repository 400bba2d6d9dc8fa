/* op_hard_sigmoid: out = max(0, min(1, alpha * in + beta)) elementwise on the CT: V_S mul into out, then V_S add,
 * V_S min and V_S max in place (alpha * in and + beta each rounded to the format, as ONNX computes them). */
#include "eltwise_common.h"

#include "tx8/hal.h"

uint64_t op_hard_sigmoid(HARD_SIGMOID_PARAM *param, TSR *in, TSR *out) {
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_hard_sigmoid(tx8_hal_config(), param, in, out, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    const uint64_t elems = eltwise_elems(param->layout, in);
    const eltwise_scalar_step steps[4] = {{CGRATensor_ArithOp_V_S_mul, param->alpha},
                                          {CGRATensor_ArithOp_V_S_add, param->beta},
                                          {CGRATensor_ArithOp_V_S_min, 1.0f},
                                          {CGRATensor_ArithOp_V_S_max, 0.0f}};
    return eltwise_issue_scalar_chain(steps, 4, in, out, elems, param->rnd);
}
