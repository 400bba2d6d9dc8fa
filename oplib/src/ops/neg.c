/* op_neg: out = -in elementwise on the CT (one neg per chunk over the whole layout image). */
#include "eltwise_common.h"

#include "tx8/hal.h"

uint64_t op_neg(ELTWISE_PARAM *param, TSR *in, TSR *out) {
    TSR *const t[2] = {in, out};
    static const char *const names[2] = {"in", "out"};
    uint64_t elems;
    if (eltwise_prepare("op_neg", param, t, names, 2, &elems) != 0) return TX8_CYCLES_INVALID;
    return eltwise_issue_unary(CGRATensor_ArithOp_V_V_neg, in, out, elems, param->rnd);
}
