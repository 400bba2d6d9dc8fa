/* The contracts of op_reduce, op_softmax, op_layernorm, the pools, op_batchnorm_inference, op_gemm, op_conv,
 * op_attention and op_gather_rows (tx8/check.h). The ops issue what these accept. */
#include "check_internal.h"

#include "tx8/ne.h"

#include <string.h>

/* ---- op_reduce ---- */

int tx8_check_reduce(const tx8_hw_config *hw, const REDUCE_PARAM *param, const TSR *in, const TSR *out, char *why,
                     size_t why_size) {
    const char *op = "op_reduce";
    if (!param) return tx8_why(why, why_size, "%s: param is NULL", op);
    if ((unsigned)param->kind >= REDUCE_KIND_COUNT)
        return tx8_why(why, why_size, "%s: param->kind = %d is not a REDUCE_KIND", op, (int)param->kind);
    if ((unsigned)param->rnd >= RND_COUNT)
        return tx8_why(why, why_size, "%s: param->rnd = %d is not a RND_MODE", op, (int)param->rnd);
    const TSR *t[2] = {in, out};
    static const char *const names[2] = {"in", "out"};
    for (int i = 0; i < 2; ++i) {
        if (!t[i]) return tx8_why(why, why_size, "%s: %s is NULL", op, names[i]);
        if (!t[i]->shape) return tx8_why(why, why_size, "%s: %s->shape is NULL", op, names[i]);
        if (t[i]->shape->dim != 3)
            return tx8_why(why, why_size, "%s: %s->shape->dim = %d, must be 3 ([A][R][B] / [A][1][B])", op, names[i],
                           t[i]->shape->dim);
        if (t[i]->format != Fmt_FP32 && t[i]->format != Fmt_FP16 && t[i]->format != Fmt_BF16)
            return tx8_why(why, why_size, "%s: %s->format = %s, must be fp32, fp16 or bf16", op, names[i],
                           tx8_format_name(t[i]->format));
    }
    const int32_t *s = in->shape->shape_real, *o = out->shape->shape_real;
    if (out->format != in->format)
        return tx8_why(why, why_size, "%s: out->format = %s, in->format = %s; they must match", op,
                       tx8_format_name(out->format), tx8_format_name(in->format));
    if (s[0] < 1 || s[1] < 1 || s[2] < 1 || o[0] != s[0] || o[1] != 1 || o[2] != s[2])
        return tx8_why(why, why_size, "%s: in is [%d][%d][%d], out [%d][%d][%d]; out must be [A][1][B] of in's [A][R][B]",
                       op, s[0], s[1], s[2], o[0], o[1], o[2]);
    const uint64_t in_bytes = tx8_tsr_compact_bytes(in), out_bytes = tx8_tsr_compact_bytes(out);
    if (tx8_check_range_in_spm(hw, op, "in", in->addr, in_bytes, why, why_size) != 0 ||
        tx8_check_range_in_spm(hw, op, "out", out->addr, out_bytes, why, why_size) != 0)
        return -1;
    if (ranges_overlap(in->addr, in_bytes, out->addr, out_bytes)) return tx8_why(why, why_size, "%s: out overlaps in", op);
    return 0;
}

/* ---- op_softmax ---- */

static int is_ct_float(Data_Format f) { return f == Fmt_FP32 || f == Fmt_FP16 || f == Fmt_BF16; }

#define SM_WHY(...) tx8_why(why, why_size, "op_softmax: " __VA_ARGS__)

int tx8_check_softmax_plan(const tx8_hw_config *hw, const SOFTMAX_PARAM *param, const TSR *in, const TSR *imm,
                           const TSR *out, sm_plan *pl, char *why, size_t why_size) {
    const TSR *const all[3] = {in, imm, out};
    static const char *const names[3] = {"in", "imm", "out"};
    if (!param) return SM_WHY("param is NULL");
    for (int i = 0; i < 3; ++i)
        if (!all[i] || !all[i]->shape) return SM_WHY("%s (or its shape) is NULL", names[i]);
    const int32_t dim = in->shape->dim;
    if (dim < 2 || dim > 4) return SM_WHY("in->shape->dim = %d, supported 2..4", dim);
    if (!is_ct_float(in->format)) return SM_WHY("in->format = %s, supported fp32, fp16, bf16", tx8_format_name(in->format));
    if (out->format != in->format)
        return SM_WHY("out->format = %s differs from in->format = %s", tx8_format_name(out->format),
                      tx8_format_name(in->format));
    if (out->shape->dim != dim || memcmp(out->shape->shape_real, in->shape->shape_real, sizeof(int32_t) * dim))
        return SM_WHY("out->shape->shape_real differs from in's");
    if (param->layout != LAYOUT_TENSOR && param->layout != LAYOUT_NTENSOR)
        return SM_WHY("param->layout = %d (%s), must be Tensor or NTensor (compact rows)", (int)param->layout,
                      (unsigned)param->layout < LAYOUT_COUNT ? tx8_layout_name(param->layout) : "invalid");
    if (param->layout == LAYOUT_TENSOR && in->shape->shape_real[0] != 1)
        return SM_WHY("in->shape->shape_real[0] = %d, layout Tensor needs 1 (use NTensor)", in->shape->shape_real[0]);
    if (tx8_plan_softmax(hw, in, pl) != 0) return SM_WHY("in's extents must be >= 1 and hold at most 2^30 elements");
    if (imm->format != Fmt_INT8 || imm->shape->dim != 1 || imm->shape->shape_real[0] < 0 ||
        (uint64_t)imm->shape->shape_real[0] < pl->imm_bytes)
        return SM_WHY("imm must be an int8 [bytes] buffer of at least %llu bytes (op_softmax_imm_size)",
                      (unsigned long long)pl->imm_bytes);
    const uint64_t bytes = (uint64_t)pl->rows * pl->len * tx8_format_bytes(in->format);
    if (in->addr != out->addr && ranges_overlap(in->addr, bytes, out->addr, bytes))
        return SM_WHY("out [0x%llx, +%llu) partially overlaps in [0x%llx, +%llu); it must be in itself or disjoint",
                      (unsigned long long)out->addr, (unsigned long long)bytes, (unsigned long long)in->addr,
                      (unsigned long long)bytes);
    for (int i = 0; i < 3; i += 2)
        if (ranges_overlap(imm->addr, pl->imm_bytes, all[i]->addr, bytes))
            return SM_WHY("imm [0x%llx, +%llu) overlaps %s", (unsigned long long)imm->addr,
                          (unsigned long long)pl->imm_bytes, names[i]);
    return 0;
}

int tx8_check_softmax(const tx8_hw_config *hw, const SOFTMAX_PARAM *param, const TSR *in, const TSR *imm,
                      const TSR *out, char *why, size_t why_size) {
    sm_plan pl;
    return tx8_check_softmax_plan(hw, param, in, imm, out, &pl, why, why_size);
}

/* ---- op_layernorm ---- */

#define LN_WHY(...) tx8_why(why, why_size, "op_layernorm: " __VA_ARGS__)

static uint64_t tsr_elements(const TSR *t) {
    uint64_t e = 1;
    for (int32_t d = 0; d < t->shape->dim; ++d) e *= t->shape->shape_real[d] < 0 ? 0 : (uint64_t)t->shape->shape_real[d];
    return e;
}

int tx8_check_layernorm_plan(const tx8_hw_config *hw, const LAYERNORM_PARAM *param, const TSR *in, const TSR *scale,
                             const TSR *bias, const TSR *imm, const TSR *out, ln_plan *pl, char *why,
                             size_t why_size) {
    const TSR *const all[5] = {in, scale, bias, imm, out};
    static const char *const names[5] = {"in", "scale", "bias", "imm", "out"};
    memset(pl, 0, sizeof *pl);
    if (!param) return LN_WHY("param is NULL");
    for (int i = 0; i < 5; ++i)
        if (i != 2 ? !all[i] || !all[i]->shape : all[i] && !all[i]->shape)
            return LN_WHY("%s (or its shape) is NULL", names[i]);
    const int32_t dim = in->shape->dim;
    if (dim < 2 || dim > 4) return LN_WHY("in->shape->dim = %d, supported 2..4", dim);
    if (!is_ct_float(in->format)) return LN_WHY("in->format = %s, supported fp32, fp16, bf16", tx8_format_name(in->format));
    for (int i = 1; i < 5; ++i)
        if (i != 3 && all[i] && all[i]->format != in->format)
            return LN_WHY("%s->format = %s differs from in->format = %s", names[i], tx8_format_name(all[i]->format),
                          tx8_format_name(in->format));
    if (out->shape->dim != dim || memcmp(out->shape->shape_real, in->shape->shape_real, sizeof(int32_t) * dim))
        return LN_WHY("out->shape->shape_real differs from in's");
    if (param->layout != LAYOUT_TENSOR && param->layout != LAYOUT_NTENSOR)
        return LN_WHY("param->layout = %d (%s), must be Tensor or NTensor (compact rows)", (int)param->layout,
                      (unsigned)param->layout < LAYOUT_COUNT ? tx8_layout_name(param->layout) : "invalid");
    if (param->layout == LAYOUT_TENSOR && in->shape->shape_real[0] != 1)
        return LN_WHY("in->shape->shape_real[0] = %d, layout Tensor needs 1 (use NTensor)", in->shape->shape_real[0]);
    if (param->rms != 0 && param->rms != 1) return LN_WHY("param->rms = %d, must be 0 or 1", (int)param->rms);
    if (!(param->epsilon >= 0.0f && param->epsilon <= 3.4028235e38f))
        return LN_WHY("param->epsilon = %g, must be finite and >= 0", (double)param->epsilon);
    if (tx8_plan_layernorm(hw, in, pl) != 0) return LN_WHY("in's extents must be >= 1 and hold at most 2^30 elements");
    for (int i = 1; i < 3; ++i) {
        if (!all[i]) continue;
        const int32_t d = all[i]->shape->dim;
        if (d < 1 || d > 4 || tsr_elements(all[i]) != pl->len)
            return LN_WHY("%s must hold n = %u elements (in's last dim) in 1..4 dims, it has %llu in %d", names[i],
                          pl->len, (unsigned long long)tsr_elements(all[i]), d);
    }
    if (imm->format != Fmt_INT8 || imm->shape->dim != 1 || imm->shape->shape_real[0] < 0 ||
        (uint64_t)imm->shape->shape_real[0] < pl->imm_bytes)
        return LN_WHY("imm must be an int8 [bytes] buffer of at least %llu bytes (op_layernorm_imm_size)",
                      (unsigned long long)pl->imm_bytes);
    const uint64_t eb = tx8_format_bytes(in->format), bytes = (uint64_t)pl->rows * pl->len * eb;
    const uint64_t sizes[5] = {bytes, pl->len * eb, pl->len * eb, pl->imm_bytes, bytes};
    for (int i = 0; i < 5; ++i)
        if (all[i] && tx8_check_range_in_spm(hw, "op_layernorm", names[i], all[i]->addr, sizes[i], why, why_size) != 0)
            return -1;
    if (in->addr != out->addr && ranges_overlap(in->addr, bytes, out->addr, bytes))
        return LN_WHY("out [0x%llx, +%llu) partially overlaps in [0x%llx, +%llu); it must be in itself or disjoint",
                      (unsigned long long)out->addr, (unsigned long long)bytes, (unsigned long long)in->addr,
                      (unsigned long long)bytes);
    /* out is written while scale, bias and imm are still read: none may share a byte with it (or imm with any) */
    for (int i = 1; i < 4; ++i)
        if (all[i] && ranges_overlap(all[i]->addr, sizes[i], out->addr, bytes))
            return LN_WHY("%s [0x%llx, +%llu) overlaps out", names[i], (unsigned long long)all[i]->addr,
                          (unsigned long long)sizes[i]);
    for (int i = 0; i < 3; ++i)
        if (all[i] && ranges_overlap(imm->addr, pl->imm_bytes, all[i]->addr, sizes[i]))
            return LN_WHY("imm [0x%llx, +%llu) overlaps %s", (unsigned long long)imm->addr,
                          (unsigned long long)pl->imm_bytes, names[i]);
    return 0;
}

int tx8_check_layernorm(const tx8_hw_config *hw, const LAYERNORM_PARAM *param, const TSR *in, const TSR *scale,
                        const TSR *bias, const TSR *imm, const TSR *out, char *why, size_t why_size) {
    ln_plan pl;
    return tx8_check_layernorm_plan(hw, param, in, scale, bias, imm, out, &pl, why, why_size);
}

/* ---- pools ---- */

int tx8_check_pool_tensors(const tx8_hw_config *hw, const char *op, LAYOUT_MODE layout, const TSR *in,
                           const TSR *out, pool_plan *pl, char *why, size_t why_size) {
    const TSR *const t[2] = {in, out};
    static const char *const names[2] = {"in", "out"};
    memset(pl, 0, sizeof *pl);
    for (int i = 0; i < 2; ++i) {
        if (!t[i] || !t[i]->shape) return tx8_why(why, why_size, "%s: %s (or its shape) is NULL", op, names[i]);
        if (t[i]->shape->dim != 4)
            return tx8_why(why, why_size, "%s: %s->shape->dim = %d, must be 4 ([N][H][W][C])", op, names[i],
                           t[i]->shape->dim);
        if (!is_ct_float(t[i]->format))
            return tx8_why(why, why_size, "%s: %s->format = %s, must be fp32, fp16 or bf16", op, names[i],
                           tx8_format_name(t[i]->format));
    }
    if (out->format != in->format)
        return tx8_why(why, why_size, "%s: out->format = %s differs from in->format = %s", op,
                       tx8_format_name(out->format), tx8_format_name(in->format));
    const int32_t *si = in->shape->shape_real, *so = out->shape->shape_real;
    if (so[0] != si[0] || so[3] != si[3])
        return tx8_why(why, why_size, "%s: out is [%d][%d][%d][%d], in is [%d][%d][%d][%d]; N and C must match", op,
                       so[0], so[1], so[2], so[3], si[0], si[1], si[2], si[3]);
    if ((unsigned)layout >= LAYOUT_COUNT)
        return tx8_why(why, why_size, "%s: param->layout = %d is not a LAYOUT_MODE", op, (int)layout);
    const uint32_t align = tx8_hw_batch_align_bytes(hw);
    for (int i = 0; i < 2; ++i) {
        tx8_layout *l = i ? &pl->out : &pl->in;
        if (tx8_layout_init(l, layout, t[i]->format, t[i]->shape->shape_real, 4, align) != 0)
            return tx8_why(why, why_size,
                           "%s: %s->shape_real is not valid in layout %s (extents must be > 0; Tensor and Cx need "
                           "N == 1)", op, names[i], tx8_layout_name(layout));
        const int32_t *s = t[i]->shape->shape_real;
        if (s[1] > POOL_MAX_EXTENT || s[2] > POOL_MAX_EXTENT)
            return tx8_why(why, why_size, "%s: %s is %d x %d spatially, at most %d x %d", op, names[i], s[1], s[2],
                           POOL_MAX_EXTENT, POOL_MAX_EXTENT);
        const uint64_t spm = hw->spm_bytes;
        if (t[i]->addr > spm || l->total_bytes > spm - t[i]->addr)
            return tx8_why(why, why_size, "%s: %s [0x%llx, 0x%llx) is outside SPM [0, 0x%llx)", op, names[i],
                           (unsigned long long)t[i]->addr, (unsigned long long)(t[i]->addr + l->total_bytes),
                           (unsigned long long)spm);
    }
    if (in->addr < out->addr + pl->out.total_bytes && out->addr < in->addr + pl->in.total_bytes)
        return tx8_why(why, why_size, "%s: out [0x%llx, 0x%llx) overlaps in [0x%llx, 0x%llx)", op,
                       (unsigned long long)out->addr, (unsigned long long)(out->addr + pl->out.total_bytes),
                       (unsigned long long)in->addr, (unsigned long long)(in->addr + pl->in.total_bytes));
    pl->geom.in_h = (uint32_t)si[1];
    pl->geom.in_w = (uint32_t)si[2];
    pl->geom.out_h = (uint32_t)so[1];
    pl->geom.out_w = (uint32_t)so[2];
    return 0;
}

/* One spatial dim: the dilated kernel must fit the padded input and `out` must be the floor or ceil_mode extent
 * (tx8/ops.h). dim_name "H"/"W", axis 1/2 for messages. */
static int check_extent(const char *op, const char *dim_name, int axis, uint32_t in, uint32_t out, uint32_t k,
                        uint32_t s, uint32_t d, uint32_t pb, uint32_t pe, char *why, size_t why_size) {
    const int64_t span = ((int64_t)k - 1) * d + 1, padded = (int64_t)in + pb + pe;
    if (padded < span)
        return tx8_why(why, why_size,
                       "%s: the dilated kernel spans %lld along %s, more than the padded input %lld (%u + pads %u + "
                       "%u)", op, (long long)span, dim_name, (long long)padded, in, pb, pe);
    const int64_t fl = (padded - span) / s + 1;
    int64_t ce = (padded - span + s - 1) / s + 1;
    if ((ce - 1) * s >= (int64_t)in + pb) --ce; /* ceil_mode drops a last window starting in the end padding */
    if (out == fl || out == ce) return 0;
    if (ce == fl)
        return tx8_why(why, why_size,
                       "%s: out->shape->shape_real[%d] = %u, must be %lld for %s %u, kernel %u, stride %u, dilation "
                       "%u, pads %u + %u", op, axis, out, (long long)fl, dim_name, in, k, s, d, pb, pe);
    return tx8_why(why, why_size,
                   "%s: out->shape->shape_real[%d] = %u, must be %lld (floor) or %lld (ceil_mode) for %s %u, kernel "
                   "%u, stride %u, dilation %u, pads %u + %u", op, axis, out, (long long)fl, (long long)ce, dim_name,
                   in, k, s, d, pb, pe);
}

int tx8_check_pool_window(const char *op, const POOL_PARAM *param, int avg, pool_plan *pl, char *why,
                          size_t why_size) {
    const struct { const char *name; int64_t v, lo; } f[] = {
        {"kernel_h", param->kernel_h, 1},     {"kernel_w", param->kernel_w, 1},
        {"stride_h", param->stride_h, 1},     {"stride_w", param->stride_w, 1},
        {"dilation_h", param->dilation_h, 1}, {"dilation_w", param->dilation_w, 1},
        {"pad_top", param->pad_top, 0},       {"pad_left", param->pad_left, 0},
        {"pad_bottom", param->pad_bottom, 0}, {"pad_right", param->pad_right, 0},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; ++i)
        if (f[i].v < f[i].lo || f[i].v > POOL_MAX_EXTENT)
            return tx8_why(why, why_size, "%s: param->%s = %lld, must be %lld..%d", op, f[i].name, (long long)f[i].v,
                           (long long)f[i].lo, POOL_MAX_EXTENT);
    if (avg && param->count_include_pad > 1)
        return tx8_why(why, why_size, "%s: param->count_include_pad = %u, must be 0 or 1", op,
                       param->count_include_pad);
    Ncc_CT_GR_Pool_Regs *g = &pl->geom;
    g->kernel_h = param->kernel_h;
    g->kernel_w = param->kernel_w;
    g->stride_h = param->stride_h;
    g->stride_w = param->stride_w;
    g->dilation_h = param->dilation_h;
    g->dilation_w = param->dilation_w;
    g->pad_top = (uint32_t)param->pad_top;
    g->pad_left = (uint32_t)param->pad_left;
    g->pad_bottom = (uint32_t)param->pad_bottom;
    g->pad_right = (uint32_t)param->pad_right;
    g->count_include_pad = avg ? param->count_include_pad : 0;
    if (check_extent(op, "H", 1, g->in_h, g->out_h, g->kernel_h, g->stride_h, g->dilation_h, g->pad_top,
                     g->pad_bottom, why, why_size) != 0)
        return -1;
    return check_extent(op, "W", 2, g->in_w, g->out_w, g->kernel_w, g->stride_w, g->dilation_w, g->pad_left,
                        g->pad_right, why, why_size);
}

int tx8_check_pool_plan(const tx8_hw_config *hw, const char *op, int avg, const POOL_PARAM *param, const TSR *in,
                        const TSR *out, pool_plan *pl, char *why, size_t why_size) {
    if (!param) return tx8_why(why, why_size, "%s: param is NULL", op);
    if (tx8_check_pool_tensors(hw, op, param->layout, in, out, pl, why, why_size) != 0) return -1;
    return tx8_check_pool_window(op, param, avg, pl, why, why_size);
}

int tx8_check_maxpool(const tx8_hw_config *hw, const POOL_PARAM *param, const TSR *in, const TSR *out, char *why,
                      size_t why_size) {
    pool_plan pl;
    return tx8_check_pool_plan(hw, "op_maxpool", 0, param, in, out, &pl, why, why_size);
}

int tx8_check_avgpool(const tx8_hw_config *hw, const POOL_PARAM *param, const TSR *in, const TSR *out, char *why,
                      size_t why_size) {
    pool_plan pl;
    return tx8_check_pool_plan(hw, "op_avgpool", 1, param, in, out, &pl, why, why_size);
}

int tx8_check_global_pool_plan(const tx8_hw_config *hw, const GLOBAL_POOL_PARAM *param, const TSR *in,
                               const TSR *out, pool_plan *pl, char *why, size_t why_size) {
    const char *op = "op_global_avgpool";
    if (!param) return tx8_why(why, why_size, "%s: param is NULL", op);
    if (tx8_check_pool_tensors(hw, op, param->layout, in, out, pl, why, why_size) != 0) return -1;
    if (pl->geom.out_h != 1 || pl->geom.out_w != 1)
        return tx8_why(why, why_size, "%s: out->shape->shape_real = [%d][%d][%d][%d], must be [N][1][1][C]", op,
                       out->shape->shape_real[0], out->shape->shape_real[1], out->shape->shape_real[2],
                       out->shape->shape_real[3]);
    Ncc_CT_GR_Pool_Regs *g = &pl->geom;
    g->kernel_h = g->in_h;
    g->kernel_w = g->in_w;
    g->stride_h = g->stride_w = g->dilation_h = g->dilation_w = 1;
    return 0;
}

int tx8_check_global_avgpool(const tx8_hw_config *hw, const GLOBAL_POOL_PARAM *param, const TSR *in,
                             const TSR *out, char *why, size_t why_size) {
    pool_plan pl;
    return tx8_check_global_pool_plan(hw, param, in, out, &pl, why, why_size);
}

/* ---- op_batchnorm_inference ---- */

/* Channels of a per-channel vector: the last dim of its local shape, all other dims 1; -1 otherwise. */
static int32_t vector_channels(const TSR *t) {
    for (int32_t i = 0; i < t->shape->dim - 1; ++i)
        if (t->shape->shape_real[i] != 1) return -1;
    return t->shape->shape_real[t->shape->dim - 1];
}

int tx8_check_bn_tensors(const char *op, const BATCHNORM_INFER_PARAM *param, const TSR *in, const TSR *scale,
                         const TSR *shift, const TSR *mean, const TSR *var, const TSR *imm, const TSR *out,
                         char *why, size_t why_size) {
    const TSR *all[7] = {in, scale, shift, mean, var, imm, out};
    static const char *const names[7] = {"in", "scale", "shift", "mean", "var", "imm", "out"};
    if (!param) return tx8_why(why, why_size, "%s: param is NULL", op);
    for (int i = 0; i < 7; ++i) {
        if (!all[i] || !all[i]->shape) return tx8_why(why, why_size, "%s: %s (or its shape) is NULL", op, names[i]);
        if (all[i]->shape->dim < 1 || all[i]->shape->dim > MAX_SHAPE_DIM)
            return tx8_why(why, why_size, "%s: %s->shape->dim = %d", op, names[i], all[i]->shape->dim);
    }
    const int32_t dim = in->shape->dim;
    if (dim < 2 || dim > 4) return tx8_why(why, why_size, "%s: in->shape->dim = %d, supported 2..4", op, dim);
    if (!is_ct_float(in->format))
        return tx8_why(why, why_size, "%s: in->format = %s, supported fp32, fp16, bf16", op, tx8_format_name(in->format));
    if (out->format != in->format)
        return tx8_why(why, why_size, "%s: out->format = %s differs from in->format = %s", op,
                       tx8_format_name(out->format), tx8_format_name(in->format));
    if (out->shape->dim != dim || memcmp(out->shape->shape_real, in->shape->shape_real, sizeof(int32_t) * dim))
        return tx8_why(why, why_size, "%s: out->shape->shape_real differs from in's", op);
    const int32_t c = in->shape->shape_real[dim - 1];
    for (int i = 1; i <= 4; ++i) {
        if (all[i]->format != Fmt_FP32)
            return tx8_why(why, why_size, "%s: %s->format = %s, must be fp32", op, names[i],
                           tx8_format_name(all[i]->format));
        if (vector_channels(all[i]) != c)
            return tx8_why(why, why_size, "%s: %s must be a 1x..x%d per-channel vector", op, names[i], c);
    }
    return 0;
}

#define BN_WHY(...) tx8_why(why, why_size, "op_batchnorm_inference: " __VA_ARGS__)

int tx8_check_batchnorm_inference_plan(const tx8_hw_config *hw, const BATCHNORM_INFER_PARAM *param, const TSR *in,
                                       const TSR *scale, const TSR *shift, const TSR *mean, const TSR *var,
                                       const TSR *imm, const TSR *out, bn_plan *pl, char *why, size_t why_size) {
    if (tx8_check_bn_tensors("op_batchnorm_inference", param, in, scale, shift, mean, var, imm, out, why,
                             why_size) != 0)
        return -1;
    if (tx8_plan_batchnorm(hw, param, in, pl) != 0)
        return BN_WHY("in's shape does not fit layout %s (Tensor/Cx need dim 0 == 1; extents must be > 0)",
                      tx8_layout_name(param->layout));
    if (imm->format != Fmt_INT8 || imm->shape->dim != 1 || (uint64_t)imm->shape->shape_real[0] < pl->imm_bytes)
        return BN_WHY("imm must be an int8 [bytes] buffer of at least %llu bytes (op_batchnorm_inference_imm_size)",
                      (unsigned long long)pl->imm_bytes);
    if ((uint64_t)pl->work.n * pl->work.batch_stride_bytes / 4 > UINT32_MAX)
        return BN_WHY("in holds more than 2^32 elements");
    return 0;
}

int tx8_check_batchnorm_inference(const tx8_hw_config *hw, const BATCHNORM_INFER_PARAM *param, const TSR *in,
                                  const TSR *scale, const TSR *shift, const TSR *mean, const TSR *var,
                                  const TSR *imm, const TSR *out, char *why, size_t why_size) {
    bn_plan pl;
    return tx8_check_batchnorm_inference_plan(hw, param, in, scale, shift, mean, var, imm, out, &pl, why, why_size);
}

/* ---- op_gemm ---- */

static int gemm_shape(const char *name, const TSR *t, char *why, size_t why_size) {
    if (!t || !t->shape) return tx8_why(why, why_size, "op_gemm: %s or its shape is NULL", name);
    const L_SHAPE *s = t->shape;
    if (s->dim < 2 || s->dim > MAX_SHAPE_DIM)
        return tx8_why(why, why_size, "op_gemm: %s must have 2 to %d dims (dim %d)", name, MAX_SHAPE_DIM, (int)s->dim);
    for (int32_t i = 0; i < s->dim; ++i)
        if (s->shape_real[i] <= 0)
            return tx8_why(why, why_size, "op_gemm: %s must have positive extents (dim %d is %d)", name, (int)i,
                           (int)s->shape_real[i]);
    return 0;
}

int tx8_check_gemm(const tx8_hw_config *hw, const GEMM_PARAM *param, const TSR *a, const TSR *b, const TSR *bias,
                   const TSR *out, char *why, size_t why_size) {
    (void)hw;
    if (!param) return tx8_why(why, why_size, "op_gemm: param is NULL");
    if (gemm_shape("a", a, why, why_size) || gemm_shape("b", b, why, why_size) ||
        gemm_shape("out", out, why, why_size))
        return -1;
    const int32_t d = out->shape->dim;
    if (a->shape->dim != d || b->shape->dim != d)
        return tx8_why(why, why_size, "op_gemm: a, b and out must have the same number of dims (%d, %d, %d)",
                       (int)a->shape->dim, (int)b->shape->dim, (int)d);
    const int32_t *as = a->shape->shape_real, *bs = b->shape->shape_real, *os = out->shape->shape_real;
    const uint32_t M = (uint32_t)as[d - 2], K = (uint32_t)as[d - 1], K2 = (uint32_t)bs[d - 2], N = (uint32_t)bs[d - 1];
    const uint32_t M2 = (uint32_t)os[d - 2], N2 = (uint32_t)os[d - 1];
    if (K2 != K || M2 != M || N2 != N)
        return tx8_why(why, why_size, "op_gemm: shapes a [%u,%u] x b [%u,%u] -> out [%u,%u] do not match", M, K, K2, N,
                       M2, N2);
    /* Batch dims broadcast as numpy's matmul: each of a's and b's is out's or 1. */
    for (int32_t i = 0; i + 2 < d; ++i)
        if ((as[i] != os[i] && as[i] != 1) || (bs[i] != os[i] && bs[i] != 1))
            return tx8_why(why, why_size, "op_gemm: batch dim %d of a (%d) and b (%d) must each be out's (%d) or 1",
                           (int)i, (int)as[i], (int)bs[i], (int)os[i]);
    const Data_Format in = a->format;
    if (in != Fmt_FP32 && in != Fmt_TF32 && in != Fmt_BF16 && in != Fmt_FP16 && in != Fmt_INT8)
        return tx8_why(why, why_size, "op_gemm: a format %s is not fp32, tf32, bf16, fp16 or int8", tx8_format_name(in));
    if (b->format != in)
        return tx8_why(why, why_size, "op_gemm: b format %s differs from a format %s", tx8_format_name(b->format),
                       tx8_format_name(in));
    const Data_Format of = in == Fmt_INT8 ? Fmt_INT32 : Fmt_FP32;
    if (out->format != of)
        return tx8_why(why, why_size, "op_gemm: out format %s, expected %s for %s inputs", tx8_format_name(out->format),
                       tx8_format_name(of), tx8_format_name(in));
    if (bias) {
        const L_SHAPE *s = bias->shape;
        const int ok = s && ((s->dim == 1 && s->shape_real[0] == (int32_t)N) ||
                             (s->dim == 2 && s->shape_real[0] == 1 && s->shape_real[1] == (int32_t)N));
        if (!ok) return tx8_why(why, why_size, "op_gemm: bias must have shape [%u] or [1,%u]", N, N);
        if (bias->format != of)
            return tx8_why(why, why_size, "op_gemm: bias format %s, expected %s", tx8_format_name(bias->format),
                           tx8_format_name(of));
    }
    if (param->accumulate > 1 || param->relu_en > 1)
        return tx8_why(why, why_size, "op_gemm: param accumulate = %u / relu_en = %u, expected 0 or 1",
                       param->accumulate, param->relu_en);
    return 0;
}

/* ---- op_conv ---- */

#define CONV_WHY(...) tx8_why(why, why_size, "op_conv: " __VA_ARGS__)

static uint64_t sat_mul(uint64_t a, uint64_t b) { return a && b > UINT64_MAX / a ? UINT64_MAX : a * b; }

static uint64_t conv_tensor_bytes(const TSR *t, uint32_t elem_bytes) {
    uint64_t n = elem_bytes;
    for (int32_t i = 0; i < t->shape->dim; ++i) n = sat_mul(n, (uint64_t)t->shape->shape_real[i]);
    return n;
}

static int is_ne_format(Data_Format f) {
    return f == Fmt_FP32 || f == Fmt_TF32 || f == Fmt_BF16 || f == Fmt_FP16 || f == Fmt_INT8;
}

/* Output extent along one axis, or -1 (with the reason) when the dilated kernel does not fit the padded input. */
static int64_t conv_out_extent(const char *axis, uint32_t in, uint32_t k, uint32_t stride, uint32_t dil,
                               int32_t pad_lo, int32_t pad_hi, char *why, size_t why_size) {
    const int64_t padded = (int64_t)in + pad_lo + pad_hi;
    const int64_t span = (int64_t)dil * (k - 1) + 1; /* dilated kernel extent */
    if (padded >= INT32_MAX) return CONV_WHY("padded input %s %lld is too large", axis, (long long)padded);
    if (span > padded)
        return CONV_WHY("dilated kernel %s %lld is larger than the padded input %s %lld", axis, (long long)span, axis,
                        (long long)padded);
    return (padded - span) / stride + 1;
}

static int conv_check_tensor(const char *name, const TSR *t, char *why, size_t why_size) {
    if (!t || !t->shape) return CONV_WHY("%s (or its shape) is NULL", name);
    const int32_t dim = t->shape->dim;
    if (dim < 1 || dim > MAX_SHAPE_DIM) return CONV_WHY("%s->shape->dim = %d", name, dim);
    for (int32_t i = 0; i < dim; ++i)
        if (t->shape->shape_real[i] <= 0)
            return CONV_WHY("%s->shape->shape_real[%d] = %d, must be > 0", name, i, t->shape->shape_real[i]);
    return 0;
}

static int conv_check_in_spm(const char *name, const TSR *t, uint32_t elem_bytes, uint64_t spm, uint64_t *bytes,
                             char *why, size_t why_size) {
    *bytes = conv_tensor_bytes(t, elem_bytes);
    if (t->addr > spm || *bytes > spm - t->addr)
        return CONV_WHY("%s [0x%llx, +%llu bytes) is outside SPM [0, 0x%llx)", name, (unsigned long long)t->addr,
                        (unsigned long long)*bytes, (unsigned long long)spm);
    return 0;
}

int tx8_check_conv_dims(const tx8_hw_config *hw, const CONV_PARAM *p, const TSR *in, const TSR *weight,
                        const TSR *bias, const TSR *out, conv_dims *d, char *why, size_t why_size) {
    if (!p) return CONV_WHY("param is NULL");
    if (conv_check_tensor("in", in, why, why_size) || conv_check_tensor("weight", weight, why, why_size) ||
        conv_check_tensor("out", out, why, why_size))
        return -1;
    if (bias && conv_check_tensor("bias", bias, why, why_size)) return -1;
    const int32_t dim = in->shape->dim;
    if (dim != 4 && dim != 3) return CONV_WHY("in->shape->dim = %d, expected 4 [N,H,W,C] or 3 [N,W,C] (1-D)", dim);
    if (weight->shape->dim != dim)
        return CONV_WHY("weight->shape->dim = %d, expected %d (%s)", weight->shape->dim, dim,
                        dim == 4 ? "[KH,KW,C/group,O]" : "[KW,C/group,O]");
    if (out->shape->dim != dim) return CONV_WHY("out->shape->dim = %d, expected %d like in", out->shape->dim, dim);
    if (p->layout != LAYOUT_TENSOR && p->layout != LAYOUT_NTENSOR)
        return CONV_WHY("param->layout = %s, supported Tensor and NTensor (compact NHWC)", tx8_layout_name(p->layout));
    const int32_t *is = in->shape->shape_real, *ws = weight->shape->shape_real;
    const int one_d = dim == 3;
    d->n = (uint32_t)is[0], d->h = one_d ? 1u : (uint32_t)is[1];
    d->w = (uint32_t)is[dim - 2], d->c = (uint32_t)is[dim - 1];
    d->kh = one_d ? 1u : (uint32_t)ws[0], d->kw = (uint32_t)ws[dim - 3], d->o = (uint32_t)ws[dim - 1];
    if (p->layout == LAYOUT_TENSOR && d->n != 1) return CONV_WHY("layout Tensor needs N == 1, in has N = %u", d->n);

    d->in_fmt = in->format;
    if (!is_ne_format(d->in_fmt))
        return CONV_WHY("in->format = %s, supported fp32, tf32, bf16, fp16, int8", tx8_format_name(d->in_fmt));
    if (weight->format != d->in_fmt)
        return CONV_WHY("weight->format = %s differs from in->format = %s", tx8_format_name(weight->format),
                        tx8_format_name(d->in_fmt));
    d->out_fmt = d->in_fmt == Fmt_INT8 ? Fmt_INT32 : Fmt_FP32;
    if (out->format != d->out_fmt)
        return CONV_WHY("out->format = %s, expected %s for %s inputs", tx8_format_name(out->format),
                        tx8_format_name(d->out_fmt), tx8_format_name(d->in_fmt));

    if (p->stride_h == 0 || p->stride_w == 0)
        return CONV_WHY("param stride_h = %u, stride_w = %u, must be >= 1", p->stride_h, p->stride_w);
    if (p->dilation_h == 0 || p->dilation_w == 0)
        return CONV_WHY("param dilation_h = %u, dilation_w = %u, must be >= 1", p->dilation_h, p->dilation_w);
    if (p->pad_top < 0 || p->pad_left < 0 || p->pad_bottom < 0 || p->pad_right < 0)
        return CONV_WHY("param pads (top %d, left %d, bottom %d, right %d) must be >= 0", p->pad_top, p->pad_left,
                        p->pad_bottom, p->pad_right);
    if (one_d && (p->stride_h != 1 || p->dilation_h != 1 || p->pad_top != 0 || p->pad_bottom != 0))
        return CONV_WHY("1-D conv (rank-3 tensors) needs stride_h 1, dilation_h 1, pad_top 0, pad_bottom 0");
    if (p->accumulate > 1 || p->relu_en > 1)
        return CONV_WHY("param accumulate = %u / relu_en = %u, expected 0 or 1", p->accumulate, p->relu_en);
    if (p->group == 0) return CONV_WHY("param group = 0, must be >= 1");
    if (d->c % p->group || d->o % p->group)
        return CONV_WHY("group %u does not divide C = %u and O = %u", p->group, d->c, d->o);
    d->cg = d->c / p->group, d->og = d->o / p->group;
    if ((uint32_t)ws[dim - 2] != d->cg)
        return CONV_WHY("weight channels (dim %d) = %d, expected C/group = %u", dim - 2, ws[dim - 2], d->cg);

    const int64_t oh =
        conv_out_extent("height", d->h, d->kh, p->stride_h, p->dilation_h, p->pad_top, p->pad_bottom, why, why_size);
    if (oh < 0) return -1;
    const int64_t ow =
        conv_out_extent("width", d->w, d->kw, p->stride_w, p->dilation_w, p->pad_left, p->pad_right, why, why_size);
    if (ow < 0) return -1;
    d->oh = (uint32_t)oh, d->ow = (uint32_t)ow;
    const int32_t *os = out->shape->shape_real;
    const int out_ok = (uint32_t)os[0] == d->n && (one_d || (uint32_t)os[1] == d->oh) &&
                       (uint32_t)os[dim - 2] == d->ow && (uint32_t)os[dim - 1] == d->o;
    if (!out_ok) {
        if (one_d)
            return CONV_WHY("out shape [%d,%d,%d], expected [N,OW,O] = [%u,%u,%u]", os[0], os[1], os[2], d->n, d->ow,
                            d->o);
        return CONV_WHY("out shape [%d,%d,%d,%d], expected [N,OH,OW,O] = [%u,%u,%u,%u]", os[0], os[1], os[2], os[3],
                        d->n, d->oh, d->ow, d->o);
    }
    if (bias) {
        const L_SHAPE *s = bias->shape;
        const int ok = (s->dim == 1 && s->shape_real[0] == (int32_t)d->o) ||
                       (s->dim == 2 && s->shape_real[0] == 1 && s->shape_real[1] == (int32_t)d->o);
        if (!ok) return CONV_WHY("bias must have shape [%u] or [1,%u]", d->o, d->o);
        if (bias->format != d->out_fmt)
            return CONV_WHY("bias->format = %s, expected %s", tx8_format_name(bias->format),
                            tx8_format_name(d->out_fmt));
    }

    /* Whole tensors in SPM and out apart from the inputs: then no instruction of the tiling can fault, so a bad
     * call writes nothing. */
    const uint64_t spm = hw->spm_bytes;
    uint64_t in_b, w_b, out_b, bias_b = 0;
    if (conv_check_in_spm("in", in, tx8_format_bytes(d->in_fmt), spm, &in_b, why, why_size) ||
        conv_check_in_spm("weight", weight, tx8_format_bytes(d->in_fmt), spm, &w_b, why, why_size) ||
        conv_check_in_spm("out", out, 4, spm, &out_b, why, why_size) ||
        (bias && conv_check_in_spm("bias", bias, 4, spm, &bias_b, why, why_size)))
        return -1;
    if (ranges_overlap(out->addr, out_b, in->addr, in_b)) return CONV_WHY("out overlaps in");
    if (ranges_overlap(out->addr, out_b, weight->addr, w_b)) return CONV_WHY("out overlaps weight");
    if (bias && ranges_overlap(out->addr, out_b, bias->addr, bias_b)) return CONV_WHY("out overlaps bias");
    return 0;
}

int tx8_check_conv(const tx8_hw_config *hw, const CONV_PARAM *param, const TSR *in, const TSR *weight,
                   const TSR *bias, const TSR *out, char *why, size_t why_size) {
    conv_dims d;
    return tx8_check_conv_dims(hw, param, in, weight, bias, out, &d, why, why_size);
}

/* ---- op_attention ---- */

#define ATTN_WHY(...) tx8_why(why, why_size, "op_attention: " __VA_ARGS__)

static int attn_float(Data_Format f) { return f == Fmt_FP32 || f == Fmt_BF16 || f == Fmt_FP16; }

int tx8_check_attention_plan(const tx8_hw_config *hw, const ATTENTION_PARAM *param, const TSR *q, const TSR *k,
                             const TSR *v, const TSR *mask, const TSR *imm, const TSR *out, attn_plan *pl,
                             char *why, size_t why_size) {
    if (!param) return ATTN_WHY("param is NULL");
    const TSR *const t[6] = {q, k, v, out, imm, mask};
    static const char *const names[6] = {"q", "k", "v", "out", "imm", "mask"};
    for (int i = 0; i < 6; ++i) {
        if (i == 5 && !mask) break;
        if (!t[i] || !t[i]->shape) return ATTN_WHY("%s (or its shape) is NULL", names[i]);
        if (i == 4) continue;
        const int32_t dim = t[i]->shape->dim;
        if (dim < 2 || dim > MAX_SHAPE_DIM) return ATTN_WHY("%s->shape->dim = %d, supported 2..%d", names[i], dim,
                                                            MAX_SHAPE_DIM);
        for (int32_t j = 0; j < dim; ++j)
            if (t[i]->shape->shape_real[j] < 1)
                return ATTN_WHY("%s->shape->shape_real[%d] = %d, must be >= 1", names[i], j,
                                t[i]->shape->shape_real[j]);
    }
    const int32_t d = out->shape->dim;
    for (int i = 0; i < 6; ++i)
        if (i != 4 && t[i] && t[i]->shape->dim != d)
            return ATTN_WHY("%s has %d dims, out %d; all operands must have the same dim count", names[i],
                            t[i]->shape->dim, d);
    const int32_t *qs = q->shape->shape_real, *ks = k->shape->shape_real, *vs = v->shape->shape_real;
    const int32_t *os = out->shape->shape_real;
    const int32_t sq = qs[d - 2], dq = qs[d - 1], skv = ks[d - 2], dk = ks[d - 1], skv2 = vs[d - 2], dv = vs[d - 1];
    if (dk != dq || skv2 != skv || os[d - 2] != sq || os[d - 1] != dv)
        return ATTN_WHY("shapes q [%d,%d], k [%d,%d], v [%d,%d] -> out [%d,%d] do not match ([Sq,D], [Skv,D], "
                        "[Skv,Dv] -> [Sq,Dv])",
                        sq, dq, skv, dk, skv2, dv, os[d - 2], os[d - 1]);
    for (int32_t i = 0; i + 2 < d; ++i)
        for (int j = 0; j < 6; ++j) {
            if (j == 3 || j == 4 || !t[j]) continue;
            const int32_t e = t[j]->shape->shape_real[i];
            if (e != os[i] && e != 1)
                return ATTN_WHY("batch dim %d of %s (%d) must be out's (%d) or 1", (int)i, names[j], e, os[i]);
        }
    if (mask) {
        const int32_t *ms = mask->shape->shape_real;
        if ((ms[d - 2] != sq && ms[d - 2] != 1) || (ms[d - 1] != skv && ms[d - 1] != 1))
            return ATTN_WHY("mask's last dims [%d,%d] must broadcast to [Sq,Skv] = [%d,%d]", ms[d - 2], ms[d - 1], sq,
                            skv);
        if (!attn_float(mask->format))
            return ATTN_WHY("mask->format = %s, supported fp32, fp16, bf16", tx8_format_name(mask->format));
    }
    if (dq > (int32_t)TSM_NE_GEMM_MAX_K || dv > (int32_t)TSM_NE_GEMM_MAX_N)
        return ATTN_WHY("D = %d, Dv = %d; at most %u and %u", dq, dv, TSM_NE_GEMM_MAX_K, TSM_NE_GEMM_MAX_N);
    if (!attn_float(q->format))
        return ATTN_WHY("q->format = %s, supported fp32, fp16, bf16", tx8_format_name(q->format));
    if (k->format != q->format || v->format != q->format)
        return ATTN_WHY("k->format = %s, v->format = %s; both must be q's (%s)", tx8_format_name(k->format),
                        tx8_format_name(v->format), tx8_format_name(q->format));
    if (out->format != Fmt_FP32 && out->format != q->format)
        return ATTN_WHY("out->format = %s, must be fp32 or q's (%s)", tx8_format_name(out->format),
                        tx8_format_name(q->format));
    if (param->causal > 1) return ATTN_WHY("param->causal = %u, expected 0 or 1", param->causal);
    if (param->causal && sq > skv)
        return ATTN_WHY("causal with Sq = %d > Skv = %d: the first queries would see no key", sq, skv);
    if (!(param->scale == param->scale) || param->scale > 3.4e38f || param->scale < -3.4e38f)
        return ATTN_WHY("param->scale is not finite");
    if (tx8_plan_attention(hw, param, q, k, v, mask, out, pl) != 0)
        return ATTN_WHY("a matrix of q, k, v or out holds 2^30 elements or more");
    if (imm->format != Fmt_INT8 || imm->shape->dim != 1 || imm->shape->shape_real[0] < 0 ||
        (uint64_t)imm->shape->shape_real[0] < pl->imm_bytes)
        return ATTN_WHY("imm must be an int8 [bytes] buffer of at least %llu bytes (op_attention_imm_size)",
                        (unsigned long long)pl->imm_bytes);
    uint64_t bytes[6];
    for (int i = 0; i < 6; ++i) {
        if (!t[i]) continue;
        bytes[i] = i == 4 ? pl->imm_bytes : tx8_tsr_compact_bytes(t[i]);
        if (tx8_check_range_in_spm(hw, "op_attention", names[i], t[i]->addr, bytes[i], why, why_size) != 0)
            return -1;
    }
    for (int i = 0; i < 6; ++i) {
        if (!t[i] || i == 3 || i == 4) continue;
        if (ranges_overlap(t[i]->addr, bytes[i], imm->addr, bytes[4])) return ATTN_WHY("imm overlaps %s", names[i]);
        if (ranges_overlap(t[i]->addr, bytes[i], out->addr, bytes[3])) return ATTN_WHY("out overlaps %s", names[i]);
    }
    if (ranges_overlap(out->addr, bytes[3], imm->addr, bytes[4])) return ATTN_WHY("imm overlaps out");
    return 0;
}

int tx8_check_attention(const tx8_hw_config *hw, const ATTENTION_PARAM *param, const TSR *q, const TSR *k,
                        const TSR *v, const TSR *mask, const TSR *imm, const TSR *out, char *why, size_t why_size) {
    attn_plan pl;
    return tx8_check_attention_plan(hw, param, q, k, v, mask, imm, out, &pl, why, why_size);
}

/* ---- op_gather_rows ---- */

#define GR_WHY(...) tx8_why(why, why_size, "op_gather_rows: " __VA_ARGS__)

int tx8_check_gather_rows(const tx8_hw_config *hw, const GATHER_ROWS_PARAM *param, const TSR *table, const TSR *index,
                          const TSR *out, char *why, size_t why_size) {
    const TSR *const all[3] = {table, index, out};
    static const char *const names[3] = {"table", "index", "out"};
    if (!param) return GR_WHY("param is NULL");
    for (int i = 0; i < 3; ++i)
        if (!all[i] || !all[i]->shape) return GR_WHY("%s (or its shape) is NULL", names[i]);
    if (param->layout != LAYOUT_TENSOR && param->layout != LAYOUT_NTENSOR)
        return GR_WHY("param->layout = %d (%s), must be Tensor or NTensor (compact rows)", (int)param->layout,
                      (unsigned)param->layout < LAYOUT_COUNT ? tx8_layout_name(param->layout) : "invalid");
    if (table->shape->dim != 2) return GR_WHY("table->shape->dim = %d, must be 2 ([rows][width])", table->shape->dim);
    if (!is_ct_float(table->format))
        return GR_WHY("table->format = %s, supported fp32, fp16, bf16", tx8_format_name(table->format));
    if (index->format != Fmt_INT32) return GR_WHY("index->format = %s, must be int32", tx8_format_name(index->format));
    if (index->shape->dim < 1 || index->shape->dim > MAX_SHAPE_DIM)
        return GR_WHY("index->shape->dim = %d, supported 1..%d", index->shape->dim, MAX_SHAPE_DIM);
    if (out->format != table->format)
        return GR_WHY("out->format = %s differs from table->format = %s", tx8_format_name(out->format),
                      tx8_format_name(table->format));
    if (out->shape->dim != 2) return GR_WHY("out->shape->dim = %d, must be 2 ([count][width])", out->shape->dim);
    const int32_t rows = table->shape->shape_real[0], width = table->shape->shape_real[1];
    if (rows < 1 || width < 1) return GR_WHY("table is [%d][%d]; its extents must be >= 1", rows, width);
    const uint64_t index_bytes = tx8_tsr_compact_bytes(index);
    if (index_bytes == 0) return GR_WHY("index's extents must be >= 1");
    const uint64_t count = index_bytes / 4;
    if ((uint64_t)out->shape->shape_real[0] != count || out->shape->shape_real[1] != width)
        return GR_WHY("out is [%d][%d]; it must be [count][width] = [%llu][%d]", out->shape->shape_real[0],
                      out->shape->shape_real[1], (unsigned long long)count, width);
    const uint64_t eb = tx8_format_bytes(table->format), row_bytes = (uint64_t)width * eb;
    if (row_bytes > UINT32_MAX) return GR_WHY("a row of %llu bytes exceeds one RDMA run", (unsigned long long)row_bytes);
    const uint64_t table_bytes = tx8_tsr_compact_bytes(table);
    if (table_bytes == 0 || table->addr > hw->ddr_bytes || table_bytes > hw->ddr_bytes - table->addr)
        return GR_WHY("table = 0x%llx + %llu bytes is outside DDR", (unsigned long long)table->addr,
                      (unsigned long long)table_bytes);
    const uint64_t out_bytes = tx8_tsr_compact_bytes(out);
    if (tx8_check_range_in_spm(hw, "op_gather_rows", "index", index->addr, index_bytes, why, why_size) != 0 ||
        tx8_check_range_in_spm(hw, "op_gather_rows", "out", out->addr, out_bytes, why, why_size) != 0)
        return -1;
    if (ranges_overlap(index->addr, index_bytes, out->addr, out_bytes))
        return GR_WHY("out [0x%llx, +%llu) overlaps index [0x%llx, +%llu)", (unsigned long long)out->addr,
                      (unsigned long long)out_bytes, (unsigned long long)index->addr,
                      (unsigned long long)index_bytes);
    return 0;
}
