/*
 * op_conv_db: op_conv streamed from DDR to DDR through a double-buffered SPM workspace (tx8/ops.h; the bookkeeping
 * and the hazards it expresses: db_common.h).
 *
 * The shard is out's box [n0, +nr) x [y0, +yr) x [x0, +xr) x [o0, +or) (rank 3: no y). It needs the weight
 * columns [o0, +or) (loaded once), the bias entries [o0, +or) (once), and of the input the channels of the
 * shard's groups (all C when group == 1) and the columns its windows reach, clipped to the image. The shard is cut
 * into slices along N (as many whole images as fit) or, when one image does not fit, along the output rows (as
 * many as fit; param->max_rows bounds them); without max_rows a plan of fewer than 4 slices is cut finer (db_deepen:
 * fewer images per slice, or runs of at least 8 rows); lengths are evened out. A slice of output rows [ya, +yb) reads the input row band
 * [ya*stride_h - pad_top, (ya+yb-1)*stride_h - pad_top + dilation_h*(KH-1)] clipped to [0, H): its halo is
 * reloaded with the band, and the rows the clip removed become the slice's own pads for op_conv (pad_top' =
 * clipped rows at the top, pad_bottom' at the bottom; columns alike), so every output element sums exactly the
 * taps and padding terms it sums in op_conv on the whole tensor, in the same order: bit-identical.
 *
 * When the box's weight columns would take more than half the workspace (or leave no room for a one-row slice),
 * the box is done in passes over parts of its channels (whole groups), each a shard of its own: the input is
 * streamed once per pass.
 *
 * Workspace, in order, each piece on the batch alignment: weight [KH,KW,C/group,or], bias [or], in[2] (the largest
 * band), then acc[2] ([n, yb, xr, or] fp32/int32, stored from there) or, when out has the input format, acc[1] +
 * stage[2] (written by one CT convert per slice).
 *
 *   load weight, bias, band 0 (and out's slice 0 into acc[0] when accumulating)
 *   for slice i:  load band i+1 -> in[(i+1)%2] (its last reader, compute i-1, has returned); accumulating: out's
 *                   slice i+1 -> acc[(i+1)%2] after the store of slice i-1 that reads that buffer (dep)
 *                 wait weight/bias (first slice), band i (RAW), acc[i%2]'s last async instruction (store i-2: WAR;
 *                   or the load of out's slice: RAW)
 *                 op_conv (synchronous, NE)
 *                 convert: wait stage[i%2]'s store (i-2, WAR), CT convert acc -> stage[i%2] (synchronous)
 *                 store stage[i%2] or acc[i%2] -> out's slice i (WDMA, async; when accumulating, after the load of
 *                   out's slice i+1, whose DDR bounding range the store may touch)
 *   wait the last stores
 */
#include "tx8/cgra.h"
#include "tx8/hal.h"
#include "tx8/lsu.h"
#include "tx8/ops.h"
#include "tx8/tsm.h"

#include "db_common.h"

#define OP "op_conv_db"
#define CONV_DB_MIN_ROWS 8 /* db_deepen: row slices of fewer output rows cost more in halo and NE overhead */
#define FAIL(...) (tx8_hal_fault(OP ": " __VA_ARGS__), -1)

typedef struct conv_db_plan {
    int one_d;
    int64_t N, H, W, C, KH, KW, O; /* whole tensors */
    int64_t OH, OW, cg, og;
    int32_t n0, y0, x0, o0, nr, yr, xr, orr; /* the shard (out's box) */
    int32_t ci0, ci, groups;                 /* input channels and groups of the shard */
    int32_t c0w, wb, pl, pr;                 /* input columns [c0w, +wb) and the slices' left / right pads */
    int32_t axis, len, count;                /* slices: axis 0 (len images) or 1 (len rows of one image) */
    uint32_t eb, ob;
    Data_Format acc_fmt;
    int convert, has_bias;
    uint64_t w_bytes;
} conv_db_plan;

/* A rank-4 (n, y, x, c) vector in the tensors' rank (3: n, x, c). */
static void to_rank(int one_d, const int32_t *v4, int32_t *v) {
    if (one_d)
        v[0] = v4[0], v[1] = v4[2], v[2] = v4[3];
    else
        v[0] = v4[0], v[1] = v4[1], v[2] = v4[2], v[3] = v4[3];
}
static void from_rank(int one_d, const int32_t *v, int32_t fill_y, int32_t *v4) {
    if (one_d)
        v4[0] = v[0], v4[1] = fill_y, v4[2] = v[1], v4[3] = v[2];
    else
        v4[0] = v[0], v4[1] = v[1], v4[2] = v[2], v4[3] = v[3];
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* The input range [*lo, *hi) that outputs [o, o + cnt) along one axis read, clipped to [0, len), and the pads
 * before / after it; -1 when those outputs read only padding (the window misses the input). */
static int window_calc(int64_t o, int64_t cnt, uint32_t stride, uint32_t dil, int64_t k, int32_t pad, int64_t len,
                       int32_t *lo, int32_t *hi, int32_t *pad_lo, int32_t *pad_hi) {
    const int64_t need_lo = o * stride - pad, need_hi = (o + cnt - 1) * stride - pad + (int64_t)dil * (k - 1) + 1;
    const int64_t a = clamp64(need_lo, 0, len), b = clamp64(need_hi, 0, len);
    *lo = (int32_t)a, *hi = (int32_t)b, *pad_lo = (int32_t)(a - need_lo), *pad_hi = (int32_t)(need_hi - b);
    return b > a ? 0 : -1;
}
static int window(const char *axis, int64_t o, int64_t cnt, uint32_t stride, uint32_t dil, int64_t k, int32_t pad,
                  int64_t len, int32_t *lo, int32_t *hi, int32_t *pad_lo, int32_t *pad_hi) {
    if (window_calc(o, cnt, stride, dil, k, pad, len, lo, hi, pad_lo, pad_hi))
        return FAIL("output %ss [%lld, +%lld) read only padding (not supported: their window misses the input)",
                    axis, (long long)o, (long long)cnt);
    return 0;
}

/* Input rows the band of `rows` output rows can span at most. */
static int64_t band_rows(const conv_db_plan *p, const CONV_PARAM *c, int64_t rows) {
    const int64_t span = (rows - 1) * c->stride_h + (int64_t)c->dilation_h * (p->KH - 1) + 1;
    return span < p->H ? span : p->H;
}

static uint64_t slice_bytes(const db_ws *ws, const conv_db_plan *p, const CONV_PARAM *c, int64_t imgs,
                            int64_t rows) {
    const uint64_t outs = (uint64_t)imgs * rows * p->xr * p->orr;
    uint64_t need = db_ws_size(ws, p->w_bytes) + (p->has_bias ? db_ws_size(ws, 4ull * p->orr) : 0);
    need += 2 * db_ws_size(ws, (uint64_t)imgs * band_rows(p, c, rows) * p->wb * p->ci * p->eb);
    need += (p->convert ? 1 : 2) * db_ws_size(ws, outs * 4);
    if (p->convert) need += 2 * db_ws_size(ws, outs * p->ob);
    return need;
}

static int plan_slices(const db_ws *ws, const CONV_DB_PARAM *param, conv_db_plan *p) {
    const CONV_PARAM *c = &param->conv;
    const uint64_t room = db_ws_usable(ws);
    int32_t best = 0;
    if (!param->max_rows || param->max_rows >= (uint32_t)p->yr) { /* whole images */
        int32_t lo = 0, hi = p->nr;
        while (lo < hi) {
            const int32_t mid = lo + (hi - lo + 1) / 2;
            if (slice_bytes(ws, p, c, mid, p->yr) <= room) lo = mid;
            else hi = mid - 1;
        }
        best = lo;
        p->axis = 0;
    }
    if (best == 0) { /* rows of one image */
        int32_t lo = 0, hi = param->max_rows && param->max_rows < (uint32_t)p->yr ? (int32_t)param->max_rows : p->yr;
        while (lo < hi) {
            const int32_t mid = lo + (hi - lo + 1) / 2;
            if (slice_bytes(ws, p, c, 1, mid) <= room) lo = mid;
            else hi = mid - 1;
        }
        best = lo;
        p->axis = 1;
    }
    if (best == 0) {
        db_fault_workspace(OP, ws, slice_bytes(ws, p, c, 1, 1),
                           p->convert ? "the smallest slice (one output row: weight, bias, 2 input bands, "
                                        "1 accumulator, 2 output stages)"
                                      : "the smallest slice (one output row: weight, bias, 2 input bands, "
                                        "2 accumulators)");
        return -1;
    }
    if (!param->max_rows) db_deepen(p->nr, p->yr, CONV_DB_MIN_ROWS, &p->axis, &best);
    const int32_t total = p->axis == 0 ? p->nr : p->yr;
    p->len = (int32_t)db_balance((uint32_t)total, (uint32_t)best);
    p->count = (int32_t)db_ceil_div((uint64_t)total, (uint64_t)p->len);
    return 0;
}

static int is_in_format(Data_Format f) {
    return f == Fmt_FP32 || f == Fmt_TF32 || f == Fmt_BF16 || f == Fmt_FP16 || f == Fmt_INT8;
}

static int check_args(const CONV_DB_PARAM *param, const TSR *in, const TSR *weight, const TSR *bias,
                      const TSR *out, conv_db_plan *p) {
    if (!param) return FAIL("param is NULL");
    const CONV_PARAM *c = &param->conv;
    if (db_check_view(OP, "in", in, 3, 4) || db_check_view(OP, "weight", weight, 3, 4) ||
        db_check_view(OP, "out", out, 3, 4) || (bias && db_check_view(OP, "bias", bias, 1, 2)))
        return -1;
    const int32_t dim = in->shape->dim;
    if (weight->shape->dim != dim || out->shape->dim != dim)
        return FAIL("in, weight and out must have the same rank (in %d, weight %d, out %d)", dim,
                    weight->shape->dim, out->shape->dim);
    p->one_d = dim == 3;
    if (c->layout != LAYOUT_TENSOR && c->layout != LAYOUT_NTENSOR)
        return FAIL("param->conv.layout = %s, supported Tensor and NTensor (compact NHWC)", tx8_layout_name(c->layout));
    if (!is_in_format(in->format))
        return FAIL("in->format = %s, supported fp32, tf32, bf16, fp16, int8", tx8_format_name(in->format));
    if (weight->format != in->format)
        return FAIL("weight->format = %s differs from in->format = %s", tx8_format_name(weight->format),
                    tx8_format_name(in->format));
    p->acc_fmt = in->format == Fmt_INT8 ? Fmt_INT32 : Fmt_FP32;
    if (out->format != p->acc_fmt && out->format != in->format)
        return FAIL("out->format = %s, expected %s (the accumulator) or %s (in's)", tx8_format_name(out->format),
                    tx8_format_name(p->acc_fmt), tx8_format_name(in->format));
    p->convert = out->format != p->acc_fmt;
    p->eb = tx8_format_bytes(in->format), p->ob = tx8_format_bytes(out->format);
    if (c->stride_h == 0 || c->stride_w == 0 || c->dilation_h == 0 || c->dilation_w == 0)
        return FAIL("param strides and dilations must be >= 1");
    if (c->pad_top < 0 || c->pad_left < 0 || c->pad_bottom < 0 || c->pad_right < 0)
        return FAIL("param pads (top %d, left %d, bottom %d, right %d) must be >= 0", c->pad_top, c->pad_left,
                    c->pad_bottom, c->pad_right);
    if (p->one_d && (c->stride_h != 1 || c->dilation_h != 1 || c->pad_top != 0 || c->pad_bottom != 0))
        return FAIL("1-D conv (rank-3 tensors) needs stride_h 1, dilation_h 1, pad_top 0, pad_bottom 0");
    if (c->accumulate > 1 || c->relu_en > 1)
        return FAIL("param accumulate = %u / relu_en = %u, expected 0 or 1", c->accumulate, c->relu_en);
    if (c->accumulate && p->convert)
        return FAIL("param accumulate needs out in the accumulator's format %s, out is %s",
                    tx8_format_name(p->acc_fmt), tx8_format_name(out->format));
    int32_t iw[4], ww[4], ow[4];
    from_rank(p->one_d, in->shape->shape_whole, 1, iw);
    if (p->one_d) /* [KW, C/group, O] */
        ww[0] = 1, ww[1] = weight->shape->shape_whole[0], ww[2] = weight->shape->shape_whole[1],
        ww[3] = weight->shape->shape_whole[2];
    else
        for (int k = 0; k < 4; ++k) ww[k] = weight->shape->shape_whole[k];
    from_rank(p->one_d, out->shape->shape_whole, 1, ow);
    p->N = iw[0], p->H = iw[1], p->W = iw[2], p->C = iw[3];
    p->KH = ww[0], p->KW = ww[1], p->O = ww[3];
    if (c->group == 0 || p->C % c->group || p->O % c->group)
        return FAIL("group %u does not divide C = %lld and O = %lld", c->group, (long long)p->C, (long long)p->O);
    p->cg = p->C / c->group, p->og = p->O / c->group;
    if (ww[2] != p->cg)
        return FAIL("weight channels = %d, expected C/group = %lld", ww[2], (long long)p->cg);
    const int64_t ph = p->H + c->pad_top + c->pad_bottom, pw = p->W + c->pad_left + c->pad_right;
    const int64_t sph = (int64_t)c->dilation_h * (p->KH - 1) + 1, spw = (int64_t)c->dilation_w * (p->KW - 1) + 1;
    if (ph >= INT32_MAX || pw >= INT32_MAX || sph > ph || spw > pw)
        return FAIL("the dilated kernel does not fit the padded input");
    p->OH = (ph - sph) / c->stride_h + 1, p->OW = (pw - spw) / c->stride_w + 1;
    if (ow[0] != p->N || ow[1] != p->OH || ow[2] != p->OW || ow[3] != p->O)
        return FAIL("out shape_whole [%d,%d,%d,%d] (rank 3: no OH), expected [N,OH,OW,O] = [%lld,%lld,%lld,%lld]",
                    ow[0], ow[1], ow[2], ow[3], (long long)p->N, (long long)p->OH, (long long)p->OW,
                    (long long)p->O);
    int32_t os[4], orl[4];
    from_rank(p->one_d, out->shape->shape_start, 0, os);
    from_rank(p->one_d, out->shape->shape_real, 1, orl);
    p->n0 = os[0], p->y0 = os[1], p->x0 = os[2], p->o0 = os[3];
    p->nr = orl[0], p->yr = orl[1], p->xr = orl[2], p->orr = orl[3];
    if (c->group == 1) {
        p->ci0 = 0, p->ci = (int32_t)p->C, p->groups = 1;
    } else {
        if (p->o0 % p->og || p->orr % p->og)
            return FAIL("out's channel box [%d, +%d) must cover whole groups of %lld channels", p->o0, p->orr,
                        (long long)p->og);
        p->groups = (int32_t)(p->orr / p->og);
        p->ci0 = (int32_t)(p->o0 / p->og * p->cg), p->ci = (int32_t)(p->groups * p->cg);
    }
    p->has_bias = bias != NULL;
    if (bias) {
        const L_SHAPE *s = bias->shape;
        const int ok = s->shape_whole[s->dim - 1] == p->O && (s->dim == 1 || s->shape_whole[0] == 1);
        if (!ok) return FAIL("bias must have shape [%lld] or [1,%lld]", (long long)p->O, (long long)p->O);
        if (bias->format != p->acc_fmt)
            return FAIL("bias->format = %s, expected %s", tx8_format_name(bias->format), tx8_format_name(p->acc_fmt));
    }
    int32_t c1w;
    if (window("column", p->x0, p->xr, c->stride_w, c->dilation_w, p->KW, c->pad_left, p->W, &p->c0w, &c1w, &p->pl,
               &p->pr))
        return -1;
    p->wb = c1w - p->c0w;
    p->w_bytes = (uint64_t)p->KH * p->KW * p->cg * p->orr * p->eb;
    if (db_check_disjoint(OP, "out", out, LAYOUT_TENSOR, "in", in, LAYOUT_TENSOR) ||
        db_check_disjoint(OP, "out", out, LAYOUT_TENSOR, "weight", weight, LAYOUT_TENSOR) ||
        (bias && db_check_disjoint(OP, "out", out, LAYOUT_TENSOR, "bias", bias, LAYOUT_TENSOR)))
        return -1;
    return 0;
}

/* Slice i: images [*n, +*nb), output rows [*ya, +*yb) (global indices). */
static void slice_of(const conv_db_plan *p, int32_t i, int32_t *n, int32_t *nb, int32_t *ya, int32_t *yb) {
    if (p->axis == 0) {
        *n = p->n0 + i * p->len, *nb = p->nr - i * p->len < p->len ? p->nr - i * p->len : p->len;
        *ya = p->y0, *yb = p->yr;
    } else {
        const int32_t r = (i % p->count) * p->len;
        *n = p->n0 + i / p->count, *nb = 1;
        *ya = p->y0 + r, *yb = p->yr - r < p->len ? p->yr - r : p->len;
    }
}

/* The shard's channel box restricted to `oc` output channels (whole groups): what depends on it. */
static void set_channels(conv_db_plan *p, const CONV_PARAM *c, int32_t oc) {
    p->orr = oc;
    if (c->group > 1) p->groups = (int32_t)(oc / p->og), p->ci = (int32_t)(p->groups * p->cg);
    p->w_bytes = (uint64_t)p->KH * p->KW * p->cg * oc * p->eb;
}

/* Output channels per pass: all of the box's when its weight columns take at most half the workspace and a one-row
 * slice fits; else the most whole groups (group 1: channels) that do, the passes then streaming the input again
 * each. 0 when not even one group fits (the fault is the caller's). */
static int32_t channels_per_pass(const db_ws *ws, const CONV_PARAM *c, const conv_db_plan *p0) {
    const uint64_t room = db_ws_usable(ws);
    const int32_t unit = c->group > 1 ? (int32_t)p0->og : 1, units = p0->orr / unit;
    conv_db_plan p = *p0;
    int32_t lo = 0, hi = units;
    while (lo < hi) {
        const int32_t mid = lo + (hi - lo + 1) / 2;
        set_channels(&p, c, mid * unit);
        if (slice_bytes(ws, &p, c, 1, 1) <= room && (mid == 1 || db_ws_size(ws, p.w_bytes) <= room / 2)) lo = mid;
        else hi = mid - 1;
    }
    if (lo == units) { /* all of them, if a one-row slice fits (the weight may take more than half) */
        set_channels(&p, c, p0->orr);
        if (slice_bytes(ws, &p, c, 1, 1) <= room) return p0->orr;
    }
    return lo * unit;
}

static uint64_t conv_db_pass(CONV_DB_PARAM *param, TSR *in, TSR *weight, TSR *bias, TSR *out, uint64_t spm_base,
                             uint64_t spm_bytes);

uint64_t op_conv_db(CONV_DB_PARAM *param, TSR *in, TSR *weight, TSR *bias, TSR *out, uint64_t spm_base,
                    uint64_t spm_bytes) {
    conv_db_plan p;
    if (check_args(param, in, weight, bias, out, &p)) return TX8_CYCLES_INVALID;
    db_ws ws;
    if (db_ws_init(&ws, OP, spm_base, spm_bytes)) return TX8_CYCLES_INVALID;
    const int32_t oc = channels_per_pass(&ws, &param->conv, &p);
    const int32_t unit = param->conv.group > 1 ? (int32_t)p.og : 1;
    if (oc == 0) {
        set_channels(&p, &param->conv, unit);
        db_fault_workspace(OP, &ws, slice_bytes(&ws, &p, &param->conv, 1, 1),
                           p.convert ? "the smallest slice (one output row of one group's channels: weight, bias, "
                                       "2 input bands, 1 accumulator, 2 output stages)"
                                     : "the smallest slice (one output row of one group's channels: weight, bias, "
                                       "2 input bands, 2 accumulators)");
        return TX8_CYCLES_INVALID;
    }
    if (oc == p.orr) return conv_db_pass(param, in, weight, bias, out, spm_base, spm_bytes);
    /* weight columns in parts: one pass per part of out's channel box (each checked before its first instruction;
     * the first pass checks everything the others share) */
    const int32_t part = (int32_t)db_balance((uint32_t)(p.orr / unit), (uint32_t)(oc / unit)) * unit;
    const int32_t cdim = out->shape->dim - 1;
    uint64_t total = 0;
    for (int32_t o = 0; o < p.orr; o += part) {
        L_SHAPE s = *out->shape;
        s.shape_start[cdim] += o;
        s.shape_slice[cdim] = s.shape_real[cdim] = p.orr - o < part ? p.orr - o : part;
        TSR sub = *out;
        sub.shape = &s;
        const uint64_t c = conv_db_pass(param, in, weight, bias, &sub, spm_base, spm_bytes);
        if (c == TX8_CYCLES_INVALID) return c;
        total += c;
    }
    return total;
}

/* One pass: the whole of out's box with its weight columns in SPM. */
static uint64_t conv_db_pass(CONV_DB_PARAM *param, TSR *in, TSR *weight, TSR *bias, TSR *out, uint64_t spm_base,
                             uint64_t spm_bytes) {
    conv_db_plan p;
    if (check_args(param, in, weight, bias, out, &p)) return TX8_CYCLES_INVALID;
    const CONV_PARAM *cp = &param->conv;
    db_ws ws;
    if (db_ws_init(&ws, OP, spm_base, spm_bytes) || plan_slices(&ws, param, &p)) return TX8_CYCLES_INVALID;
    const int32_t nslices = p.axis == 0 ? p.count : p.nr * p.count;
    /* every slice's row window, checked before the first instruction */
    for (int32_t i = 0; i < (p.axis == 0 ? 1 : p.count); ++i) {
        int32_t n, nb, ya, yb, r0, r1, pt, pb;
        slice_of(&p, i, &n, &nb, &ya, &yb);
        if (window("row", ya, yb, cp->stride_h, cp->dilation_h, p.KH, cp->pad_top, p.H, &r0, &r1, &pt, &pb))
            return TX8_CYCLES_INVALID;
    }
    const int32_t dim = p.one_d ? 3 : 4;
    const int nacc = p.convert ? 1 : 2;
    const int32_t rows_max = p.axis == 0 ? p.yr : p.len, imgs_max = p.axis == 0 ? p.len : 1;
    const uint64_t band_bytes = (uint64_t)imgs_max * band_rows(&p, cp, rows_max) * p.wb * p.ci * p.eb;
    const uint64_t outs_max = (uint64_t)imgs_max * rows_max * p.xr * p.orr;

    const uint64_t t_start = tx8_hal_cycles();
    db_buf wb = {0, 0}, bb = {0, 0}, inb[2], acc[2] = {{0, 0}, {0, 0}}, stg[2] = {{0, 0}, {0, 0}};
    wb.addr = db_ws_take(&ws, p.w_bytes);
    if (p.has_bias) bb.addr = db_ws_take(&ws, 4ull * p.orr);
    for (int k = 0; k < 2; ++k) inb[k].addr = db_ws_take(&ws, band_bytes), inb[k].tok = 0;
    for (int k = 0; k < nacc; ++k) acc[k].addr = db_ws_take(&ws, outs_max * 4);
    if (p.convert)
        for (int k = 0; k < 2; ++k) stg[k].addr = db_ws_take(&ws, outs_max * p.ob);
    LOAD_PARAM ld = {LAYOUT_TENSOR};
    STORE_PARAM st = {LAYOUT_TENSOR};
    L_SHAPE s_ddr, s_spm, s_w, s_b;
    TSR t_ddr, t_spm, t_w, t_b;
    int ok = 1;

    /* weight columns [o0, +or) and bias entries, once */
    int32_t wshape[4];
    {
        const int32_t off4[4] = {0, 0, 0, p.o0}, real4[4] = {(int32_t)p.KH, (int32_t)p.KW, (int32_t)p.cg, p.orr};
        int32_t off[4], real[4];
        if (p.one_d)
            off[0] = 0, off[1] = 0, off[2] = p.o0, real[0] = real4[1], real[1] = real4[2], real[2] = real4[3];
        else
            for (int k = 0; k < 4; ++k) off[k] = off4[k], real[k] = real4[k];
        for (int k = 0; k < dim; ++k) wshape[k] = real[k];
        TSR w_whole;
        L_SHAPE s_w_whole;
        db_whole(&w_whole, &s_w_whole, weight);
        db_view(&t_ddr, &s_ddr, &w_whole, off, real);
        db_tsr(&t_w, &s_w, in->format, wb.addr, real, dim);
        wb.tok = op_loadVar_async(&ld, &t_ddr, &t_w, NULL, 0);
        ok = wb.tok != 0;
    }
    if (ok && p.has_bias) { /* the bias box is ignored: entries [o0, +or) of the whole vector */
        const int32_t bdim = bias->shape->dim;
        const int32_t off[2] = {0, p.o0}, real[2] = {1, p.orr};
        TSR whole;
        L_SHAPE s_whole;
        db_whole(&whole, &s_whole, bias);
        db_view(&t_ddr, &s_ddr, &whole, off + 2 - bdim, real + 2 - bdim);
        db_tsr(&t_spm, &s_spm, p.acc_fmt, bb.addr, real + 2 - bdim, bdim);
        bb.tok = op_loadVar_async(&ld, &t_ddr, &t_spm, NULL, 0);
        ok = bb.tok != 0;
    }
    db_tsr(&t_b, &s_b, p.acc_fmt, bb.addr, &p.orr, 1);

    /* Issues slice t's input band (and out's slice when accumulating) into buffer t % 2. */
    TSR in_whole, out_base; /* in's box is ignored; slices of out are addressed in global indices */
    L_SHAPE s_in_whole, s_out_base;
    db_whole(&in_whole, &s_in_whole, in);
    db_whole(&out_base, &s_out_base, out);
#define PREPARE(t)                                                                                                \
    do {                                                                                                          \
        int32_t n_, nb_, ya_, yb_, r0_ = 0, r1_ = 0, pt_, pb_;                                                    \
        slice_of(&p, (t), &n_, &nb_, &ya_, &yb_);                                                                 \
        window_calc(ya_, yb_, cp->stride_h, cp->dilation_h, p.KH, cp->pad_top, p.H, &r0_, &r1_, &pt_, &pb_);     \
        const int32_t off4_[4] = {n_, r0_, p.c0w, p.ci0}, real4_[4] = {nb_, r1_ - r0_, p.wb, p.ci};               \
        int32_t off_[4], real_[4];                                                                                \
        to_rank(p.one_d, off4_, off_), to_rank(p.one_d, real4_, real_);                                           \
        db_view(&t_ddr, &s_ddr, &in_whole, off_, real_);                                                          \
        db_tsr(&t_spm, &s_spm, in->format, inb[(t) % 2].addr, real_, dim);                                        \
        inb[(t) % 2].tok = op_loadVar_async(&ld, &t_ddr, &t_spm, NULL, 0);                                        \
        if (!inb[(t) % 2].tok) ok = 0;                                                                            \
        if (ok && cp->accumulate) {                                                                               \
            db_buf *ab_ = &acc[(t) % 2];                                                                          \
            const int32_t o4_[4] = {n_, ya_, p.x0, p.o0}, q4_[4] = {nb_, yb_, p.xr, p.orr};                       \
            to_rank(p.one_d, o4_, off_), to_rank(p.one_d, q4_, real_);                                            \
            db_view(&t_ddr, &s_ddr, &out_base, off_, real_);                                                      \
            db_tsr(&t_spm, &s_spm, p.acc_fmt, ab_->addr, real_, dim);                                             \
            const tx8_token dep_ = ab_->tok; /* the store of slice t-2 reads this buffer */                      \
            ab_->tok = op_loadVar_async(&ld, &t_ddr, &t_spm, &dep_, dep_ ? 1u : 0u);                              \
            if (!ab_->tok) ok = 0;                                                                                \
        }                                                                                                         \
    } while (0)

    if (ok) PREPARE(0);
    db_wait(&wb), db_wait(&bb);
    for (int32_t i = 0; ok && i < nslices; ++i) {
        if (i + 1 < nslices) PREPARE(i + 1);
        if (!ok) break;
        int32_t n, nb, ya, yb, r0 = 0, r1 = 0, pt = 0, pb = 0;
        slice_of(&p, i, &n, &nb, &ya, &yb);
        window_calc(ya, yb, cp->stride_h, cp->dilation_h, p.KH, cp->pad_top, p.H, &r0, &r1, &pt, &pb);
        db_buf *ab = &acc[p.convert ? 0 : i % 2];
        db_wait(&inb[i % 2]); /* RAW: the band is in SPM */
        db_wait(ab);          /* WAR (the store of slice i-2) or RAW (out's slice, accumulating) */
        const int32_t bi4[4] = {nb, r1 - r0, p.wb, p.ci}, bo4[4] = {nb, yb, p.xr, p.orr};
        int32_t bi[4], bo[4];
        to_rank(p.one_d, bi4, bi), to_rank(p.one_d, bo4, bo);
        L_SHAPE sx, sy;
        TSR x, y;
        db_tsr(&x, &sx, in->format, inb[i % 2].addr, bi, dim);
        db_tsr(&y, &sy, p.acc_fmt, ab->addr, bo, dim);
        db_tsr(&t_w, &s_w, in->format, wb.addr, wshape, dim);
        CONV_PARAM c = *cp;
        c.layout = LAYOUT_NTENSOR;
        c.pad_top = p.one_d ? 0 : pt, c.pad_bottom = p.one_d ? 0 : pb;
        c.pad_left = p.pl, c.pad_right = p.pr;
        c.group = (uint32_t)p.groups;
        if (op_conv(&c, &x, &t_w, p.has_bias ? &t_b : NULL, &y) == TX8_CYCLES_INVALID) {
            ok = 0;
            break;
        }
        int32_t off[4], real[4];
        const int32_t o4[4] = {n, ya, p.x0, p.o0};
        to_rank(p.one_d, o4, off);
        for (int k = 0; k < dim; ++k) real[k] = bo[k];
        db_view(&t_ddr, &s_ddr, &out_base, off, real);
        if (p.convert) {
            db_buf *sg = &stg[i % 2];
            db_wait(sg); /* WAR: the store of slice i-2 has read it */
            CT_Param ct;
            CGRATensor_ConvertOp_V_V_convert(&ct, ab->addr, sg->addr, (uint32_t)((uint64_t)nb * yb * p.xr * p.orr),
                                             p.acc_fmt, out->format, RND_NEAREST_EVEN);
            if (TsmExecute(&ct) == TX8_CYCLES_INVALID) {
                ok = 0;
                break;
            }
            db_tsr(&t_spm, &s_spm, out->format, sg->addr, real, dim);
            sg->tok = op_dma_store_async(&st, &t_spm, &t_ddr, NULL, 0);
            ok = sg->tok != 0;
        } else {
            const tx8_token dep = cp->accumulate ? acc[(i + 1) % 2].tok : 0;
            db_tsr(&t_spm, &s_spm, p.acc_fmt, ab->addr, real, dim);
            ab->tok = op_dma_store_async(&st, &t_spm, &t_ddr, &dep, dep ? 1u : 0u);
            ok = ab->tok != 0;
        }
    }
#undef PREPARE
    db_wait(&wb), db_wait(&bb);
    for (int k = 0; k < 2; ++k) db_wait(&inb[k]), db_wait(&acc[k]), db_wait(&stg[k]);
    return ok ? tx8_hal_cycles() - t_start : TX8_CYCLES_INVALID;
}
