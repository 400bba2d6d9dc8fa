/* Validation and chunked issue for the elementwise ops; see eltwise_common.h. */
#include "eltwise_common.h"

#include "tx8/hal.h"
#include "tx8/layout.h"
#include "tx8/tsm.h"

static int is_eltwise_format(Data_Format f) { return f == Fmt_FP32 || f == Fmt_FP16 || f == Fmt_BF16; }

int eltwise_prepare(const char *op, const ELTWISE_PARAM *param, TSR *const *t, const char *const *names, int count,
                    uint64_t *elems) {
    const tx8_hw_config *hw = tx8_hal_config();
    if (!param) return tx8_hal_fault("%s: param is NULL", op), -1;
    for (int i = 0; i < count; ++i) {
        if (!t[i]) return tx8_hal_fault("%s: %s is NULL", op, names[i]), -1;
        if (!t[i]->shape) return tx8_hal_fault("%s: %s->shape is NULL", op, names[i]), -1;
        const int32_t dim = t[i]->shape->dim;
        if (dim < 2 || dim > 4) return tx8_hal_fault("%s: %s->shape->dim = %d, must be 2..4", op, names[i], dim), -1;
        if (!is_eltwise_format(t[i]->format))
            return tx8_hal_fault("%s: %s->format = %s, must be fp32, fp16 or bf16", op, names[i],
                                 tx8_format_name(t[i]->format)), -1;
    }
    for (int i = 1; i < count; ++i) {
        if (t[i]->format != t[0]->format)
            return tx8_hal_fault("%s: %s->format = %s, %s->format = %s; they must match", op, names[i],
                                 tx8_format_name(t[i]->format), names[0], tx8_format_name(t[0]->format)), -1;
        if (t[i]->shape->dim != t[0]->shape->dim)
            return tx8_hal_fault("%s: %s->shape->dim = %d, %s->shape->dim = %d; they must match", op, names[i],
                                 t[i]->shape->dim, names[0], t[0]->shape->dim), -1;
        for (int32_t d = 0; d < t[0]->shape->dim; ++d)
            if (t[i]->shape->shape_real[d] != t[0]->shape->shape_real[d])
                return tx8_hal_fault("%s: %s->shape->shape_real[%d] = %d, %s->shape->shape_real[%d] = %d; shapes "
                                     "must match", op, names[i], d, t[i]->shape->shape_real[d], names[0], d,
                                     t[0]->shape->shape_real[d]), -1;
    }
    if ((unsigned)param->layout >= LAYOUT_COUNT)
        return tx8_hal_fault("%s: param->layout = %d is not a LAYOUT_MODE", op, (int)param->layout), -1;
    if ((unsigned)param->rnd >= RND_COUNT)
        return tx8_hal_fault("%s: param->rnd = %d is not a RND_MODE", op, (int)param->rnd), -1;
    tx8_layout l;
    if (tx8_layout_init(&l, param->layout, t[0]->format, t[0]->shape->shape_real, t[0]->shape->dim,
                        tx8_hw_batch_align_bytes(hw)) != 0)
        return tx8_hal_fault("%s: %s->shape_real is not valid in layout %s (extents must be > 0; Tensor and Cx "
                             "need N == 1)", op, names[0], tx8_layout_name(param->layout)), -1;
    *elems = l.total_bytes / l.elem_bytes;
    return 0;
}

uint64_t eltwise_issue_binary(TsmArithVV f, const TSR *a, const TSR *b, const TSR *out, uint64_t elems, RND_MODE rnd) {
    const uint64_t eb = tx8_format_bytes(a->format);
    uint64_t total = 0;
    for (uint64_t done = 0; done < elems && total != TX8_CYCLES_INVALID;) {
        const uint32_t n = elems - done > ELTWISE_MAX_ELEMS ? ELTWISE_MAX_ELEMS : (uint32_t)(elems - done);
        CT_Param p;
        f(&p, a->addr + done * eb, b->addr + done * eb, out->addr + done * eb, n, rnd, a->format);
        total = ADD_VALID_CYCLE(total, TsmExecute(&p));
        done += n;
    }
    return total;
}

uint64_t eltwise_issue_unary(eltwise_unary_fn f, const TSR *in, const TSR *out, uint64_t elems, RND_MODE rnd) {
    const uint64_t eb = tx8_format_bytes(in->format);
    uint64_t total = 0;
    for (uint64_t done = 0; done < elems && total != TX8_CYCLES_INVALID;) {
        const uint32_t n = elems - done > ELTWISE_MAX_ELEMS ? ELTWISE_MAX_ELEMS : (uint32_t)(elems - done);
        CT_Param p;
        f(&p, in->addr + done * eb, out->addr + done * eb, n, rnd, in->format);
        total = ADD_VALID_CYCLE(total, TsmExecute(&p));
        done += n;
    }
    return total;
}
