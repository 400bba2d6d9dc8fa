/* op_cast: one float format to another on the CT (one convert per chunk over the tensor; see ops.h). */
#include "eltwise_common.h"

#include "tx8/hal.h"
#include "tx8/tsm.h"

#include "tsr_checks.h"

static int is_float_format(Data_Format f) { return f == Fmt_FP32 || f == Fmt_FP16 || f == Fmt_BF16; }

uint64_t op_cast(ELTWISE_PARAM *param, TSR *in, TSR *out) {
    const char *op = "op_cast";
    if (!param) return tx8_hal_fault("%s: param is NULL", op), TX8_CYCLES_INVALID;
    if (param->layout != LAYOUT_TENSOR && param->layout != LAYOUT_NTENSOR)
        return tx8_hal_fault("%s: param->layout = %d, must be Tensor or NTensor (compact)", op, (int)param->layout),
               TX8_CYCLES_INVALID;
    if ((unsigned)param->rnd >= RND_COUNT)
        return tx8_hal_fault("%s: param->rnd = %d is not a RND_MODE", op, (int)param->rnd), TX8_CYCLES_INVALID;
    const TSR *t[2] = {in, out};
    static const char *const names[2] = {"in", "out"};
    for (int i = 0; i < 2; ++i) {
        if (!t[i] || !t[i]->shape)
            return tx8_hal_fault("%s: %s or its shape is NULL", op, names[i]), TX8_CYCLES_INVALID;
        if (!is_float_format(t[i]->format))
            return tx8_hal_fault("%s: %s->format = %s, must be fp32, fp16 or bf16", op, names[i],
                                 tx8_format_name(t[i]->format)), TX8_CYCLES_INVALID;
        if (t[i]->shape->dim < 2 || t[i]->shape->dim > 4)
            return tx8_hal_fault("%s: %s->shape->dim = %d, must be 2..4", op, names[i], t[i]->shape->dim),
                   TX8_CYCLES_INVALID;
    }
    if (in->shape->dim != out->shape->dim)
        return tx8_hal_fault("%s: in has %d dims, out %d", op, in->shape->dim, out->shape->dim), TX8_CYCLES_INVALID;
    for (int32_t d = 0; d < in->shape->dim; ++d)
        if (in->shape->shape_real[d] != out->shape->shape_real[d] || in->shape->shape_real[d] < 1)
            return tx8_hal_fault("%s: in->shape->shape_real[%d] = %d, out's is %d; they must be equal and > 0", op, d,
                                 in->shape->shape_real[d], out->shape->shape_real[d]), TX8_CYCLES_INVALID;
    const uint64_t ib = tx8_format_bytes(in->format), ob = tx8_format_bytes(out->format);
    const uint64_t in_bytes = tx8_tsr_compact_bytes(in), out_bytes = tx8_tsr_compact_bytes(out), n = in_bytes / ib;
    if (tx8_check_in_spm(op, "in", in->addr, in_bytes) != 0 || tx8_check_in_spm(op, "out", out->addr, out_bytes) != 0)
        return TX8_CYCLES_INVALID;
    const int same = in->addr == out->addr && ib == ob;
    if (!same && ranges_overlap(in->addr, in_bytes, out->addr, out_bytes))
        return tx8_hal_fault("%s: out overlaps in (only the same buffer of the same element size may be)", op),
               TX8_CYCLES_INVALID;
    uint64_t total = 0;
    for (uint64_t done = 0; done < n && total != TX8_CYCLES_INVALID;) {
        const uint32_t m = n - done > ELTWISE_MAX_ELEMS ? ELTWISE_MAX_ELEMS : (uint32_t)(n - done);
        CT_Param p;
        CGRATensor_ConvertOp_V_V_convert(&p, in->addr + done * ib, out->addr + done * ob, m, in->format, out->format,
                                         param->rnd);
        total = ADD_VALID_CYCLE(total, TsmExecute(&p));
        done += m;
    }
    return total;
}
