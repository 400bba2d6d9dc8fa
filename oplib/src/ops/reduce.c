/* op_reduce: sum / mean / max / min over the middle dim of an [A][R][B] view on the CT (see ops.h). */
#include "eltwise_common.h"

#include "tx8/hal.h"
#include "tx8/tsm.h"

#include "tsr_checks.h"

typedef void (*reduce_fn)(CT_Param *, uint64_t, uint64_t, uint32_t, uint32_t, RND_MODE, Data_Format);

uint64_t op_reduce(REDUCE_PARAM *param, TSR *in, TSR *out) {
    const char *op = "op_reduce";
    if (!param) return tx8_hal_fault("%s: param is NULL", op), TX8_CYCLES_INVALID;
    if ((unsigned)param->kind >= REDUCE_KIND_COUNT)
        return tx8_hal_fault("%s: param->kind = %d is not a REDUCE_KIND", op, (int)param->kind), TX8_CYCLES_INVALID;
    if ((unsigned)param->rnd >= RND_COUNT)
        return tx8_hal_fault("%s: param->rnd = %d is not a RND_MODE", op, (int)param->rnd), TX8_CYCLES_INVALID;
    const TSR *t[2] = {in, out};
    static const char *const names[2] = {"in", "out"};
    for (int i = 0; i < 2; ++i) {
        if (!t[i]) return tx8_hal_fault("%s: %s is NULL", op, names[i]), TX8_CYCLES_INVALID;
        if (!t[i]->shape) return tx8_hal_fault("%s: %s->shape is NULL", op, names[i]), TX8_CYCLES_INVALID;
        if (t[i]->shape->dim != 3)
            return tx8_hal_fault("%s: %s->shape->dim = %d, must be 3 ([A][R][B] / [A][1][B])", op, names[i],
                                 t[i]->shape->dim), TX8_CYCLES_INVALID;
        if (t[i]->format != Fmt_FP32 && t[i]->format != Fmt_FP16 && t[i]->format != Fmt_BF16)
            return tx8_hal_fault("%s: %s->format = %s, must be fp32, fp16 or bf16", op, names[i],
                                 tx8_format_name(t[i]->format)), TX8_CYCLES_INVALID;
    }
    const int32_t *s = in->shape->shape_real, *o = out->shape->shape_real;
    if (out->format != in->format)
        return tx8_hal_fault("%s: out->format = %s, in->format = %s; they must match", op,
                             tx8_format_name(out->format), tx8_format_name(in->format)), TX8_CYCLES_INVALID;
    if (s[0] < 1 || s[1] < 1 || s[2] < 1 || o[0] != s[0] || o[1] != 1 || o[2] != s[2])
        return tx8_hal_fault("%s: in is [%d][%d][%d], out [%d][%d][%d]; out must be [A][1][B] of in's [A][R][B]", op,
                             s[0], s[1], s[2], o[0], o[1], o[2]), TX8_CYCLES_INVALID;
    const uint64_t eb = tx8_format_bytes(in->format);
    const uint64_t a = (uint64_t)s[0], r = (uint64_t)s[1], b = (uint64_t)s[2];
    const uint64_t in_bytes = tx8_tsr_compact_bytes(in), out_bytes = tx8_tsr_compact_bytes(out);
    if (tx8_check_in_spm(op, "in", in->addr, in_bytes) != 0 || tx8_check_in_spm(op, "out", out->addr, out_bytes) != 0)
        return TX8_CYCLES_INVALID;
    if (ranges_overlap(in->addr, in_bytes, out->addr, out_bytes))
        return tx8_hal_fault("%s: out overlaps in", op), TX8_CYCLES_INVALID;

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
