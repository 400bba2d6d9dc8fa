/* The batchnorm argument contract (batchnorm_common.h). */
#include <string.h>

#include "tx8/hal.h"

#include "batchnorm_common.h"

static int is_supported_format(Data_Format f) { return f == Fmt_FP32 || f == Fmt_FP16 || f == Fmt_BF16; }

/* Channels of a per-channel vector: the last dim of its local shape, all other dims 1; -1 otherwise. */
static int32_t vector_channels(const TSR *t) {
    for (int32_t i = 0; i < t->shape->dim - 1; ++i)
        if (t->shape->shape_real[i] != 1) return -1;
    return t->shape->shape_real[t->shape->dim - 1];
}

#define BN_FAIL(...) (tx8_hal_fault(__VA_ARGS__), -1)

int tx8_bn_check_tensors(const char *op, const BATCHNORM_INFER_PARAM *param, TSR *in, TSR *scale, TSR *shift,
                         TSR *mean, TSR *var, TSR *imm, TSR *out) {
    TSR *all[7] = {in, scale, shift, mean, var, imm, out};
    static const char *const names[7] = {"in", "scale", "shift", "mean", "var", "imm", "out"};
    if (!param) return BN_FAIL("%s: param is NULL", op);
    for (int i = 0; i < 7; ++i) {
        if (!all[i] || !all[i]->shape) return BN_FAIL("%s: %s (or its shape) is NULL", op, names[i]);
        if (all[i]->shape->dim < 1 || all[i]->shape->dim > MAX_SHAPE_DIM)
            return BN_FAIL("%s: %s->shape->dim = %d", op, names[i], all[i]->shape->dim);
    }
    const int32_t dim = in->shape->dim;
    if (dim < 2 || dim > 4) return BN_FAIL("%s: in->shape->dim = %d, supported 2..4", op, dim);
    if (!is_supported_format(in->format))
        return BN_FAIL("%s: in->format = %s, supported fp32, fp16, bf16", op, tx8_format_name(in->format));
    if (out->format != in->format)
        return BN_FAIL("%s: out->format = %s differs from in->format = %s", op, tx8_format_name(out->format),
                       tx8_format_name(in->format));
    if (out->shape->dim != dim || memcmp(out->shape->shape_real, in->shape->shape_real, sizeof(int32_t) * dim))
        return BN_FAIL("%s: out->shape->shape_real differs from in's", op);
    const int32_t c = in->shape->shape_real[dim - 1];
    for (int i = 1; i <= 4; ++i) {
        if (all[i]->format != Fmt_FP32)
            return BN_FAIL("%s: %s->format = %s, must be fp32", op, names[i], tx8_format_name(all[i]->format));
        if (vector_channels(all[i]) != c)
            return BN_FAIL("%s: %s must be a 1x..x%d per-channel vector", op, names[i], c);
    }
    return 0;
}
