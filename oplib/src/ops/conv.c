/*
 * op_conv on the NE: out[N,OH,OW,O] (+)= conv(in[N,H,W,C], weight[KH,KW,C/group,O]) (+ bias[O]) (relu), compact
 * channel-last SPM tensors (tx8/ops.h; exact semantics: NE_OP_CONV in tx8/isa.h).
 *
 * Tiling keeps every NE instruction within TSM_NE_CONV_MAX_M (output pixels), _N (output channels) and _K (terms
 * per group) of tx8/ne.h:
 *   K  the term order is k = (kh, kw, c); tiles are contiguous ranges of it: whole kernel rows when a row fits,
 *      else runs of kernel columns of one row, else channel runs of one tap (then one group per instruction).
 *      Tiles after the first accumulate into out; bias and relu ride on the last. out is fp32/int32 and the engine
 *      adds terms in ascending k, so the tiled result is bit-identical to one big instruction.
 *   M  whole images when one fits, else runs of output rows, else runs of output columns of one row. Every tile
 *      addresses the whole input of its images; a tile's signed top/left pad moves the window (negative inside the
 *      image) and taps outside the input read as zero, exactly as in the big instruction.
 *   N  whole groups when a group's channels fit, else runs of one group's channels.
 * Cycles: the sum of the instructions' cycles. The step sizes: tx8_plan_conv (plan/plan.h).
 */
#include "tx8/hal.h"
#include "tx8/ne.h"
#include "tx8/ops.h"
#include "tx8/tsm.h"

#include "../plan/plan.h"

#define OP "op_conv"
#define FAIL(...) (tx8_hal_fault(OP ": " __VA_ARGS__), -1)

static uint64_t sat_mul(uint64_t a, uint64_t b) { return a && b > UINT64_MAX / a ? UINT64_MAX : a * b; }

static uint64_t tensor_bytes(const TSR *t, uint32_t elem_bytes) {
    uint64_t n = elem_bytes;
    for (int32_t i = 0; i < t->shape->dim; ++i) n = sat_mul(n, (uint64_t)t->shape->shape_real[i]);
    return n;
}

static int is_in_format(Data_Format f) {
    return f == Fmt_FP32 || f == Fmt_TF32 || f == Fmt_BF16 || f == Fmt_FP16 || f == Fmt_INT8;
}

/* Output extent along one axis, or -1 (fault raised) when the dilated kernel does not fit the padded input. */
static int64_t out_extent(const char *axis, uint32_t in, uint32_t k, uint32_t stride, uint32_t dil, int32_t pad_lo,
                          int32_t pad_hi) {
    const int64_t padded = (int64_t)in + pad_lo + pad_hi;
    const int64_t span = (int64_t)dil * (k - 1) + 1; /* dilated kernel extent */
    if (padded >= INT32_MAX) return FAIL("padded input %s %lld is too large", axis, (long long)padded);
    if (span > padded)
        return FAIL("dilated kernel %s %lld is larger than the padded input %s %lld", axis, (long long)span, axis,
                    (long long)padded);
    return (padded - span) / stride + 1;
}

static int check_tensor(const char *name, const TSR *t) {
    if (!t || !t->shape) return FAIL("%s (or its shape) is NULL", name);
    const int32_t dim = t->shape->dim;
    if (dim < 1 || dim > MAX_SHAPE_DIM) return FAIL("%s->shape->dim = %d", name, dim);
    for (int32_t i = 0; i < dim; ++i)
        if (t->shape->shape_real[i] <= 0)
            return FAIL("%s->shape->shape_real[%d] = %d, must be > 0", name, i, t->shape->shape_real[i]);
    return 0;
}

static int check_in_spm(const char *name, const TSR *t, uint32_t elem_bytes, uint64_t spm, uint64_t *bytes) {
    *bytes = tensor_bytes(t, elem_bytes);
    if (t->addr > spm || *bytes > spm - t->addr)
        return FAIL("%s [0x%llx, +%llu bytes) is outside SPM [0, 0x%llx)", name, (unsigned long long)t->addr,
                    (unsigned long long)*bytes, (unsigned long long)spm);
    return 0;
}

static int overlaps(uint64_t a, uint64_t a_bytes, uint64_t b, uint64_t b_bytes) {
    return a < b + b_bytes && b < a + a_bytes;
}

static int check_args(const tx8_hw_config *hw, const CONV_PARAM *p, TSR *in, TSR *weight, TSR *bias, TSR *out,
                      conv_dims *d) {
    if (!p) return FAIL("param is NULL");
    if (check_tensor("in", in) || check_tensor("weight", weight) || check_tensor("out", out)) return -1;
    if (bias && check_tensor("bias", bias)) return -1;
    const int32_t dim = in->shape->dim;
    if (dim != 4 && dim != 3) return FAIL("in->shape->dim = %d, expected 4 [N,H,W,C] or 3 [N,W,C] (1-D)", dim);
    if (weight->shape->dim != dim)
        return FAIL("weight->shape->dim = %d, expected %d (%s)", weight->shape->dim, dim,
                    dim == 4 ? "[KH,KW,C/group,O]" : "[KW,C/group,O]");
    if (out->shape->dim != dim) return FAIL("out->shape->dim = %d, expected %d like in", out->shape->dim, dim);
    if (p->layout != LAYOUT_TENSOR && p->layout != LAYOUT_NTENSOR)
        return FAIL("param->layout = %s, supported Tensor and NTensor (compact NHWC)", tx8_layout_name(p->layout));
    const int32_t *is = in->shape->shape_real, *ws = weight->shape->shape_real;
    const int one_d = dim == 3;
    d->n = (uint32_t)is[0], d->h = one_d ? 1u : (uint32_t)is[1];
    d->w = (uint32_t)is[dim - 2], d->c = (uint32_t)is[dim - 1];
    d->kh = one_d ? 1u : (uint32_t)ws[0], d->kw = (uint32_t)ws[dim - 3], d->o = (uint32_t)ws[dim - 1];
    if (p->layout == LAYOUT_TENSOR && d->n != 1) return FAIL("layout Tensor needs N == 1, in has N = %u", d->n);

    d->in_fmt = in->format;
    if (!is_in_format(d->in_fmt))
        return FAIL("in->format = %s, supported fp32, tf32, bf16, fp16, int8", tx8_format_name(d->in_fmt));
    if (weight->format != d->in_fmt)
        return FAIL("weight->format = %s differs from in->format = %s", tx8_format_name(weight->format),
                    tx8_format_name(d->in_fmt));
    d->out_fmt = d->in_fmt == Fmt_INT8 ? Fmt_INT32 : Fmt_FP32;
    if (out->format != d->out_fmt)
        return FAIL("out->format = %s, expected %s for %s inputs", tx8_format_name(out->format),
                    tx8_format_name(d->out_fmt), tx8_format_name(d->in_fmt));

    if (p->stride_h == 0 || p->stride_w == 0)
        return FAIL("param stride_h = %u, stride_w = %u, must be >= 1", p->stride_h, p->stride_w);
    if (p->dilation_h == 0 || p->dilation_w == 0)
        return FAIL("param dilation_h = %u, dilation_w = %u, must be >= 1", p->dilation_h, p->dilation_w);
    if (p->pad_top < 0 || p->pad_left < 0 || p->pad_bottom < 0 || p->pad_right < 0)
        return FAIL("param pads (top %d, left %d, bottom %d, right %d) must be >= 0", p->pad_top, p->pad_left,
                    p->pad_bottom, p->pad_right);
    if (one_d && (p->stride_h != 1 || p->dilation_h != 1 || p->pad_top != 0 || p->pad_bottom != 0))
        return FAIL("1-D conv (rank-3 tensors) needs stride_h 1, dilation_h 1, pad_top 0, pad_bottom 0");
    if (p->accumulate > 1 || p->relu_en > 1)
        return FAIL("param accumulate = %u / relu_en = %u, expected 0 or 1", p->accumulate, p->relu_en);
    if (p->group == 0) return FAIL("param group = 0, must be >= 1");
    if (d->c % p->group || d->o % p->group)
        return FAIL("group %u does not divide C = %u and O = %u", p->group, d->c, d->o);
    d->cg = d->c / p->group, d->og = d->o / p->group;
    if ((uint32_t)ws[dim - 2] != d->cg)
        return FAIL("weight channels (dim %d) = %d, expected C/group = %u", dim - 2, ws[dim - 2], d->cg);

    const int64_t oh = out_extent("height", d->h, d->kh, p->stride_h, p->dilation_h, p->pad_top, p->pad_bottom);
    if (oh < 0) return -1;
    const int64_t ow = out_extent("width", d->w, d->kw, p->stride_w, p->dilation_w, p->pad_left, p->pad_right);
    if (ow < 0) return -1;
    d->oh = (uint32_t)oh, d->ow = (uint32_t)ow;
    const int32_t *os = out->shape->shape_real;
    const int out_ok = (uint32_t)os[0] == d->n && (one_d || (uint32_t)os[1] == d->oh) &&
                       (uint32_t)os[dim - 2] == d->ow && (uint32_t)os[dim - 1] == d->o;
    if (!out_ok) {
        if (one_d)
            return FAIL("out shape [%d,%d,%d], expected [N,OW,O] = [%u,%u,%u]", os[0], os[1], os[2], d->n, d->ow,
                        d->o);
        return FAIL("out shape [%d,%d,%d,%d], expected [N,OH,OW,O] = [%u,%u,%u,%u]", os[0], os[1], os[2], os[3],
                    d->n, d->oh, d->ow, d->o);
    }
    if (bias) {
        const L_SHAPE *s = bias->shape;
        const int ok = (s->dim == 1 && s->shape_real[0] == (int32_t)d->o) ||
                       (s->dim == 2 && s->shape_real[0] == 1 && s->shape_real[1] == (int32_t)d->o);
        if (!ok) return FAIL("bias must have shape [%u] or [1,%u]", d->o, d->o);
        if (bias->format != d->out_fmt)
            return FAIL("bias->format = %s, expected %s", tx8_format_name(bias->format), tx8_format_name(d->out_fmt));
    }

    /* Whole tensors in SPM and out apart from the inputs: then no instruction of the tiling can fault, so a bad
     * call writes nothing. */
    const uint64_t spm = hw->spm_bytes;
    uint64_t in_b, w_b, out_b, bias_b = 0;
    if (check_in_spm("in", in, tx8_format_bytes(d->in_fmt), spm, &in_b) ||
        check_in_spm("weight", weight, tx8_format_bytes(d->in_fmt), spm, &w_b) ||
        check_in_spm("out", out, 4, spm, &out_b) || (bias && check_in_spm("bias", bias, 4, spm, &bias_b)))
        return -1;
    if (overlaps(out->addr, out_b, in->addr, in_b)) return FAIL("out overlaps in");
    if (overlaps(out->addr, out_b, weight->addr, w_b)) return FAIL("out overlaps weight");
    if (bias && overlaps(out->addr, out_b, bias->addr, bias_b)) return FAIL("out overlaps bias");
    return 0;
}

static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

/* One output tile: where its slices of in, weight, bias and out start (SPM bytes) and its first output row and
 * column. */
typedef struct conv_tile {
    uint64_t in, w, bias, out;
    int has_bias;
    uint32_t y0, x0;
} conv_tile;

/* Issues the K tiles of output tile t (g has its batch, out_h/out_w, groups and out_c set), in ascending k. */
static uint64_t issue_k_tiles(const CONV_PARAM *param, const conv_dims *d, const conv_steps *s, const conv_tile *t,
                              Ncc_NE_GR_Conv_Regs *g) {
    const uint64_t eb = tx8_format_bytes(d->in_fmt), tap_pitch = (uint64_t)d->cg * d->o;
    uint64_t total = 0;
    for (uint32_t kh0 = 0; kh0 < d->kh; kh0 += s->kh)
        for (uint32_t kw0 = 0; kw0 < d->kw; kw0 += s->kw)
            for (uint32_t c0 = 0; c0 < d->cg; c0 += s->c) {
                const uint32_t nc = min_u32(s->c, d->cg - c0);
                g->kernel_h = min_u32(s->kh, d->kh - kh0), g->kernel_w = min_u32(s->kw, d->kw - kw0);
                g->in_c = g->groups * nc;
                /* the tile's window: tap (0, 0) of output (y0, x0) reads input row y0*stride_h - pad_top +
                 * kh0*dilation_h (columns alike); fits in int32 as check_args keeps the padded input below 2^31 */
                g->pad_top = (int32_t)((int64_t)param->pad_top - (int64_t)t->y0 * param->stride_h -
                                       (int64_t)kh0 * param->dilation_h);
                g->pad_left = (int32_t)((int64_t)param->pad_left - (int64_t)t->x0 * param->stride_w -
                                        (int64_t)kw0 * param->dilation_w);
                const int first = kh0 == 0 && kw0 == 0 && c0 == 0;
                const int last = kh0 + g->kernel_h == d->kh && kw0 + g->kernel_w == d->kw && c0 + nc == d->cg;
                const uint64_t w_off = ((uint64_t)kh0 * d->kw + kw0) * tap_pitch + (uint64_t)c0 * d->o;
                TsmNeInstr p;
                TsmNe_conv(&p, t->in + c0 * eb, t->w + w_off * eb, t->bias, t->out, g, d->in_fmt, d->out_fmt,
                           first ? param->accumulate : 1u, t->has_bias && last ? 1u : 0u, last ? param->relu_en : 0u);
                total = ADD_VALID_CYCLE(total, TsmExecute(&p));
                if (total == TX8_CYCLES_INVALID) return total;
            }
    return total;
}

uint64_t op_conv(CONV_PARAM *param, TSR *in, TSR *weight, TSR *bias, TSR *out) {
    const tx8_hw_config *hw = tx8_hal_config();
    conv_dims d;
    if (check_args(hw, param, in, weight, bias, out, &d) != 0) return TX8_CYCLES_INVALID;
    conv_steps s;
    tx8_plan_conv(hw, &d, param->group, &s);
    const uint64_t eb = tx8_format_bytes(d.in_fmt);
    const uint64_t in_image = (uint64_t)d.h * d.w * d.c, out_image = (uint64_t)d.oh * d.ow * d.o;

    /* every tile addresses the compact tensors with their own pitches (32-bit: the tensors lie in SPM) */
    Ncc_NE_GR_Conv_Regs g = {0};
    g.in_h = d.h, g.in_w = d.w;
    g.stride_h = param->stride_h, g.stride_w = param->stride_w;
    g.dilation_h = param->dilation_h, g.dilation_w = param->dilation_w;
    g.in_pitch[0] = d.c, g.in_pitch[1] = d.w * d.c, g.in_pitch[2] = (uint32_t)in_image;
    g.out_pitch[0] = d.o, g.out_pitch[1] = d.ow * d.o, g.out_pitch[2] = (uint32_t)out_image;
    g.w_pitch[0] = d.o, g.w_pitch[1] = d.cg * d.o;

    uint64_t total = 0;
    for (uint32_t g0 = 0; g0 < param->group; g0 += s.g)
        for (uint32_t o0 = 0; o0 < d.og; o0 += s.oc)
            for (uint32_t n0 = 0; n0 < d.n; n0 += s.n)
                for (uint32_t y0 = 0; y0 < d.oh; y0 += s.y)
                    for (uint32_t x0 = 0; x0 < d.ow; x0 += s.x) {
                        const uint64_t ch = (uint64_t)g0 * d.og + o0; /* first output channel of the tile */
                        g.groups = min_u32(s.g, param->group - g0);
                        g.out_c = g.groups * min_u32(s.oc, d.og - o0);
                        g.batch = min_u32(s.n, d.n - n0);
                        g.out_h = min_u32(s.y, d.oh - y0), g.out_w = min_u32(s.x, d.ow - x0);
                        conv_tile t;
                        t.in = in->addr + (n0 * in_image + (uint64_t)g0 * d.cg) * eb;
                        t.w = weight->addr + ch * eb;
                        t.bias = bias ? bias->addr + ch * 4 : 0, t.has_bias = bias != NULL;
                        t.out = out->addr + (n0 * out_image + ((uint64_t)y0 * d.ow + x0) * d.o + ch) * 4;
                        t.y0 = y0, t.x0 = x0;
                        total = ADD_VALID_CYCLE(total, issue_k_tiles(param, &d, &s, &t, &g));
                        if (total == TX8_CYCLES_INVALID) return total;
                    }
    return total;
}
