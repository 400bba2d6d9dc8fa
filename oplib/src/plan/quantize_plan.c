/* op_quantize_linear / op_dequantize_linear: the imm plan and the argument checks (tx8/ops.h, tx8/check.h). */
#include "check_internal.h"
#include "plan.h"

static uint64_t round_up(uint64_t x, uint64_t a) { return a ? (x + a - 1) / a * a : x; }

/* Elements of t's shape_real: dim 2..4, extents >= 1, below 2^30 elements (a broadcast run is one instruction:
 * ELTWISE_MAX_ELEMS / 4, as the binary kernels); 0 otherwise. */
static uint64_t elements(const TSR *t) {
    if (!t || !t->shape || t->shape->dim < 2 || t->shape->dim > 4) return 0;
    uint64_t n = 1;
    for (int32_t d = 0; d < t->shape->dim; ++d) {
        if (t->shape->shape_real[d] < 1) return 0;
        n *= (uint64_t)t->shape->shape_real[d];
        if (n > ELTWISE_MAX_ELEMS / 4) return 0;
    }
    return n;
}

int tx8_plan_quantize(const tx8_hw_config *hw, int dequantize, const TSR *x, const TSR *scale, quant_plan *pl) {
    pl->x_elems = elements(x);
    pl->scale_elems = elements(scale);
    if (!pl->x_elems || !pl->scale_elems) return -1;
    const uint64_t align = tx8_hw_batch_align_bytes(hw);
    pl->work_off = 0;
    pl->zp_off = dequantize ? 0 : round_up(pl->x_elems * 4, align);
    pl->imm_bytes = pl->zp_off + round_up(pl->scale_elems * 4, align);
    return 0;
}

static uint64_t imm_size(const tx8_hw_config *hw, int dequantize, const QUANTIZE_PARAM *param, const TSR *x,
                         const TSR *scale) {
    quant_plan pl;
    if (!hw || !param || tx8_plan_quantize(hw, dequantize, x, scale, &pl) != 0) return 0;
    return pl.imm_bytes;
}

uint64_t op_quantize_linear_imm_size(const tx8_hw_config *hw, const QUANTIZE_PARAM *param, const TSR *x,
                                     const TSR *scale) {
    return imm_size(hw, 0, param, x, scale);
}

uint64_t op_dequantize_linear_imm_size(const tx8_hw_config *hw, const QUANTIZE_PARAM *param, const TSR *x,
                                       const TSR *scale) {
    return imm_size(hw, 1, param, x, scale);
}

static const char *const kNames[5] = {"x", "scale", "zero_point", "imm", "out"};

static int check(const tx8_hw_config *hw, int dequantize, const QUANTIZE_PARAM *param, const TSR *x,
                 const TSR *scale, const TSR *zero_point, const TSR *imm, const TSR *out, char *why,
                 size_t why_size) {
    const char *op = dequantize ? "op_dequantize_linear" : "op_quantize_linear";
    const TSR *const t[5] = {x, scale, zero_point, imm, out};
    if (!param) return tx8_why(why, why_size, "%s: param is NULL", op);
    for (int i = 0; i < 5; ++i) {
        if (!t[i]) return tx8_why(why, why_size, "%s: %s is NULL", op, kNames[i]);
        if (!t[i]->shape) return tx8_why(why, why_size, "%s: %s->shape is NULL", op, kNames[i]);
    }
    if (param->layout != LAYOUT_TENSOR && param->layout != LAYOUT_NTENSOR)
        return tx8_why(why, why_size, "%s: param->layout = %d, must be Tensor or NTensor (compact)", op,
                       (int)param->layout);
    /* x and out: one shape, valid in the layout (out's format differs from x's). */
    const TSR *const xo[2] = {x, out};
    static const char *const xo_names[2] = {"x", "out"};
    const uint32_t q8 = ELTWISE_FMT(Fmt_INT8) | ELTWISE_FMT(Fmt_UINT8);
    const uint32_t xo_sets[2] = {dequantize ? q8 | ELTWISE_FMT(Fmt_INT32) : ELTWISE_FMT(Fmt_FP32),
                                 dequantize ? ELTWISE_FMT(Fmt_FP32) : q8};
    if (tx8_check_eltwise_formats(hw, op, param->layout, RND_NEAREST_EVEN, xo, xo_names, xo_sets, 2, NULL, why,
                                  why_size) != 0)
        return -1;
    /* scale and zero_point: one shape, x's dim count, each extent x's or 1. */
    const TSR *const sz[2] = {scale, zero_point};
    static const char *const sz_names[2] = {"scale", "zero_point"};
    const Data_Format zp_fmt = dequantize ? x->format : out->format;
    const uint32_t sz_sets[2] = {ELTWISE_FMT(Fmt_FP32), ELTWISE_FMT(zp_fmt)};
    if (tx8_check_eltwise_formats(hw, op, LAYOUT_NTENSOR, RND_NEAREST_EVEN, sz, sz_names, sz_sets, 2, NULL, why,
                                  why_size) != 0)
        return -1;
    if (scale->shape->dim != x->shape->dim)
        return tx8_why(why, why_size, "%s: scale->shape->dim = %d, x->shape->dim = %d; they must match", op,
                       scale->shape->dim, x->shape->dim);
    for (int32_t d = 0; d < x->shape->dim; ++d) {
        const int32_t s = scale->shape->shape_real[d], e = x->shape->shape_real[d];
        if (s != e && s != 1)
            return tx8_why(why, why_size,
                           "%s: scale->shape->shape_real[%d] = %d, x->shape->shape_real[%d] = %d; must be equal or 1 "
                           "(broadcast)", op, d, s, d, e);
    }
    quant_plan pl;
    if (tx8_plan_quantize(hw, dequantize, x, scale, &pl) != 0)
        return tx8_why(why, why_size, "%s: x has 2^30 elements or more", op);
    if (imm->format != Fmt_INT8 || imm->shape->dim != 1 || imm->shape->shape_real[0] < 0 ||
        (uint64_t)imm->shape->shape_real[0] < pl.imm_bytes)
        return tx8_why(why, why_size, "%s: imm must be an int8 [bytes] buffer of at least %llu bytes (%s_imm_size)",
                       op, (unsigned long long)pl.imm_bytes, op);
    /* Every tensor in SPM, none overlapping another: several instructions run, and a fault must write nothing. */
    uint64_t bytes[5];
    for (int i = 0; i < 5; ++i) {
        bytes[i] = i == 3 ? pl.imm_bytes : tx8_tsr_compact_bytes(t[i]);
        if (tx8_check_range_in_spm(hw, op, kNames[i], t[i]->addr, bytes[i], why, why_size) != 0) return -1;
    }
    for (int i = 0; i < 5; ++i)
        for (int j = i + 1; j < 5; ++j)
            if (ranges_overlap(t[i]->addr, bytes[i], t[j]->addr, bytes[j]))
                return tx8_why(why, why_size, "%s: %s overlaps %s", op, kNames[j], kNames[i]);
    return 0;
}

int tx8_check_quantize_linear(const tx8_hw_config *hw, const QUANTIZE_PARAM *param, const TSR *x, const TSR *scale,
                              const TSR *zero_point, const TSR *imm, const TSR *out, char *why, size_t why_size) {
    return check(hw, 0, param, x, scale, zero_point, imm, out, why, why_size);
}

int tx8_check_dequantize_linear(const tx8_hw_config *hw, const QUANTIZE_PARAM *param, const TSR *x, const TSR *scale,
                                const TSR *zero_point, const TSR *imm, const TSR *out, char *why, size_t why_size) {
    return check(hw, 1, param, x, scale, zero_point, imm, out, why, why_size);
}
