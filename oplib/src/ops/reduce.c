/* op_reduce: sum / mean / max / min over the middle dim of an [A][R][B] view on the CT (see ops.h). */
#include "eltwise_common.h"

#include "tx8/hal.h"
#include "tx8/tsm.h"

typedef void (*reduce_fn)(CT_Param *, uint64_t, uint64_t, uint32_t, uint32_t, RND_MODE, Data_Format);

uint64_t op_reduce(REDUCE_PARAM *param, TSR *in, TSR *out) {
    char why[TX8_CHECK_WHY_BYTES];
    if (tx8_check_reduce(tx8_hal_config(), param, in, out, why, sizeof why) != 0)
        return tx8_hal_fault("%s", why), TX8_CYCLES_INVALID;
    const int32_t *s = in->shape->shape_real;
    const uint64_t eb = tx8_format_bytes(in->format);
    const uint64_t a = (uint64_t)s[0], r = (uint64_t)s[1], b = (uint64_t)s[2];

    reduce_fn inner = param->kind == REDUCE_MAX   ? CGRATensor_ReduceOp_T_inner_max
                      : param->kind == REDUCE_MIN ? CGRATensor_ReduceOp_T_inner_min
                                                  : CGRATensor_ReduceOp_T_inner_sum;
    reduce_fn outer = param->kind == REDUCE_MAX   ? CGRATensor_ReduceOp_T_outer_max
                      : param->kind == REDUCE_MIN ? CGRATensor_ReduceOp_T_outer_min
                                                  : CGRATensor_ReduceOp_T_outer_sum;
    uint64_t total = 0;
    CT_Param p;
    if (b == 1) {
        inner(&p, in->addr, out->addr, (uint32_t)a, (uint32_t)r, param->rnd, in->format);
        total = TsmExecute(&p);
    } else {
        for (uint64_t i = 0; i < a && total != TX8_CYCLES_INVALID; ++i) {
            outer(&p, in->addr + i * r * b * eb, out->addr + i * b * eb, (uint32_t)r, (uint32_t)b, param->rnd,
                  in->format);
            total = ADD_VALID_CYCLE(total, TsmExecute(&p));
        }
    }
    if (param->kind == REDUCE_MEAN && total != TX8_CYCLES_INVALID)
        total = ADD_VALID_CYCLE(total, eltwise_issue_scalar(CGRATensor_ArithOp_V_S_div, out, (float)r, out, a * b,
                                                            param->rnd));
    return total;
}
