/* Validation and chunked issue for the elementwise ops; see eltwise_common.h. */
#include "eltwise_common.h"

#include "tx8/hal.h"
#include "tx8/layout.h"
#include "tx8/tsm.h"

#include "tsr_checks.h"

#include <stdio.h>
#include <string.h>

/* "fp32, fp16 or bf16": the names of the formats in `set`, floats first (the order the messages have always had). */
static const char *format_list(uint32_t set, char *buf, size_t size) {
    static const Data_Format kOrder[] = {Fmt_FP32, Fmt_FP16, Fmt_BF16, Fmt_TF32, Fmt_INT8, Fmt_INT32};
    enum { ORDERED = sizeof kOrder / sizeof kOrder[0] };
    Data_Format f[ORDERED + Fmt_COUNT];
    int n = 0;
    for (int i = 0; i < ORDERED; ++i)
        if (set & ELTWISE_FMT(kOrder[i])) f[n++] = kOrder[i];
    for (int g = 0; g < Fmt_COUNT && g < 24; ++g) { /* formats the order above does not name */
        int listed = 0;
        for (int i = 0; i < ORDERED; ++i) listed |= kOrder[i] == (Data_Format)g;
        if (!listed && (set & ELTWISE_FMT(g))) f[n++] = (Data_Format)g;
    }
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && at < size; ++i) {
        const int w = snprintf(buf + at, size - at, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ",
                               tx8_format_name(f[i]));
        if (w < 0) break;
        at += (size_t)w;
    }
    return buf;
}

static int in_set(Data_Format f, uint32_t set) { return (unsigned)f < 24u && (set & ELTWISE_FMT(f)) != 0; }

int eltwise_prepare_formats(const char *op, LAYOUT_MODE layout, RND_MODE rnd, TSR *const *t,
                            const char *const *names, const uint32_t *formats, int count, uint64_t *elems) {
    const tx8_hw_config *hw = tx8_hal_config();
    for (int i = 0; i < count; ++i) {
        if (!t[i]) return tx8_hal_fault("%s: %s is NULL", op, names[i]), -1;
        if (!t[i]->shape) return tx8_hal_fault("%s: %s->shape is NULL", op, names[i]), -1;
        const int32_t dim = t[i]->shape->dim;
        if (dim < 2 || dim > 4) return tx8_hal_fault("%s: %s->shape->dim = %d, must be 2..4", op, names[i], dim), -1;
        if (!in_set(t[i]->format, formats[i])) {
            char list[128];
            return tx8_hal_fault("%s: %s->format = %s, must be %s", op, names[i], tx8_format_name(t[i]->format),
                                 format_list(formats[i], list, sizeof list)), -1;
        }
    }
    for (int i = 1; i < count; ++i) {
        const uint32_t same = formats[i] >> 24; /* 1 + the operand to match, or 0 */
        if (same && (int)same <= count && t[i]->format != t[same - 1]->format)
            return tx8_hal_fault("%s: %s->format = %s, %s->format = %s; they must match", op, names[i],
                                 tx8_format_name(t[i]->format), names[same - 1],
                                 tx8_format_name(t[same - 1]->format)), -1;
        if (t[i]->shape->dim != t[0]->shape->dim)
            return tx8_hal_fault("%s: %s->shape->dim = %d, %s->shape->dim = %d; they must match", op, names[i],
                                 t[i]->shape->dim, names[0], t[0]->shape->dim), -1;
        for (int32_t d = 0; d < t[0]->shape->dim; ++d)
            if (t[i]->shape->shape_real[d] != t[0]->shape->shape_real[d])
                return tx8_hal_fault("%s: %s->shape->shape_real[%d] = %d, %s->shape->shape_real[%d] = %d; shapes "
                                     "must match", op, names[i], d, t[i]->shape->shape_real[d], names[0], d,
                                     t[0]->shape->shape_real[d]), -1;
    }
    if ((unsigned)layout >= LAYOUT_COUNT)
        return tx8_hal_fault("%s: param->layout = %d is not a LAYOUT_MODE", op, (int)layout), -1;
    if ((unsigned)rnd >= RND_COUNT) return tx8_hal_fault("%s: param->rnd = %d is not a RND_MODE", op, (int)rnd), -1;
    for (int i = 0; i < count; ++i) {
        if (i > 0 && t[i]->format == t[0]->format) continue; /* same format, same shape: valid as t[0] is */
        tx8_layout l;
        if (tx8_layout_init(&l, layout, t[i]->format, t[i]->shape->shape_real, t[i]->shape->dim,
                            tx8_hw_batch_align_bytes(hw)) != 0)
            return tx8_hal_fault("%s: %s->shape_real is not valid in layout %s (extents must be > 0; Tensor and Cx "
                                 "need N == 1)", op, names[i], tx8_layout_name(layout)), -1;
        if (i == 0) *elems = l.total_bytes / l.elem_bytes;
    }
    return 0;
}

int eltwise_prepare(const char *op, const ELTWISE_PARAM *param, TSR *const *t, const char *const *names, int count,
                    uint64_t *elems) {
    if (!param) return tx8_hal_fault("%s: param is NULL", op), -1;
    uint32_t formats[ELTWISE_MAX_OPERANDS];
    for (int i = 0; i < count && i < ELTWISE_MAX_OPERANDS; ++i)
        formats[i] = ELTWISE_FLOATS | (i ? ELTWISE_SAME_AS(0) : 0u);
    return eltwise_prepare_formats(op, param->layout, param->rnd, t, names, formats,
                                   count < ELTWISE_MAX_OPERANDS ? count : ELTWISE_MAX_OPERANDS, elems);
}

int eltwise_check_images(const char *op, TSR *const *t, const char *const *names, const tx8_layout *l, int count) {
    for (int i = 0; i < count; ++i)
        if (tx8_check_in_spm(op, names[i], t[i]->addr, l[i].total_bytes) != 0) return -1;
    const int o = count - 1;
    for (int i = 0; i < o; ++i) {
        if (!ranges_overlap(t[i]->addr, l[i].total_bytes, t[o]->addr, l[o].total_bytes)) continue;
        if (t[i]->addr == t[o]->addr && l[i].elem_bytes == l[o].elem_bytes) continue; /* in place */
        return tx8_hal_fault("%s: %s overlaps %s; it may only be that very buffer, of the same element size", op,
                             names[o], names[i]), -1;
    }
    return 0;
}

uint64_t eltwise_issue_chunks(eltwise_chunk_fn fill, const void *ctx, uint64_t elems) {
    uint64_t total = 0;
    for (uint64_t done = 0; done < elems && total != TX8_CYCLES_INVALID;) {
        const uint32_t n = elems - done > ELTWISE_MAX_ELEMS ? ELTWISE_MAX_ELEMS : (uint32_t)(elems - done);
        CT_Param p;
        fill(&p, ctx, done, n);
        total = ADD_VALID_CYCLE(total, TsmExecute(&p));
        done += n;
    }
    return total;
}

/* n elements from element offsets s (source image) and d (destination image), ELTWISE_MAX_ELEMS at a time, added to
 * total (which stays TX8_CYCLES_INVALID once an instruction failed). */
static uint64_t issue_stretch(eltwise_pair_fn fill, const void *ctx, uint64_t s, uint64_t d, uint64_t n,
                              uint64_t total) {
    for (uint64_t done = 0; done < n && total != TX8_CYCLES_INVALID;) {
        const uint32_t m = n - done > ELTWISE_MAX_ELEMS ? ELTWISE_MAX_ELEMS : (uint32_t)(n - done);
        CT_Param p;
        fill(&p, ctx, s + done, d + done, m);
        total = ADD_VALID_CYCLE(total, TsmExecute(&p));
        done += m;
    }
    return total;
}

/* Whether every element sits at the same element offset within its batch in both layouts: one [HW][W] plane of
 * the same width (a split layout with one Cx block and no C0 part is such a plane), the same blocks, or HW == 1
 * (every form then runs along C). */
static int same_positions(const tx8_layout *x, const tx8_layout *y) {
    if (x->hw == 1) return 1;
    const uint32_t px = x->cx + (x->c0_aligned ? 1u : 0u), py = y->cx + (y->c0_aligned ? 1u : 0u);
    if (px == 1 && py == 1) return (x->cx ? x->unit : x->c0_aligned) == (y->cx ? y->unit : y->c0_aligned);
    return x->c_split == y->c_split && x->cx == y->cx && x->c0_aligned == y->c0_aligned && x->unit == y->unit;
}

uint64_t eltwise_issue_pairs(eltwise_pair_fn fill, const void *ctx, const tx8_layout *ls, const tx8_layout *ld) {
    const uint64_t ss = ls->batch_stride_bytes / ls->elem_bytes, ds = ld->batch_stride_bytes / ld->elem_bytes;
    uint64_t total = 0;
    if (same_positions(ls, ld)) {
        if (ss == ds && ls->batch_elems == ld->batch_elems) /* one image: padding against padding */
            return issue_stretch(fill, ctx, 0, 0, (uint64_t)ls->n * ss, total);
        const uint64_t len = ls->batch_elems < ld->batch_elems ? ls->batch_elems : ld->batch_elems;
        for (uint32_t b = 0; b < ls->n && total != TX8_CYCLES_INVALID; ++b)
            total = issue_stretch(fill, ctx, b * ss, b * ds, len, total);
        return total;
    }
    /* Channel runs no block boundary of either image cuts: the split units (64, 128) are multiples of each other. */
    uint32_t step = ls->c;
    if (ls->c_split && ls->unit < step) step = ls->unit;
    if (ld->c_split && ld->unit < step) step = ld->unit;
    for (uint32_t b = 0; b < ls->n; ++b)
        for (uint32_t h = 0; h < ls->hw; ++h)
            for (uint32_t c = 0; c < ls->c && total != TX8_CYCLES_INVALID; c += step)
                total = issue_stretch(fill, ctx, tx8_layout_offset(ls, b, h, c) / ls->elem_bytes,
                                      tx8_layout_offset(ld, b, h, c) / ld->elem_bytes,
                                      ls->c - c < step ? ls->c - c : step, total);
    return total;
}

typedef struct scalar_chunks {
    TsmArithVS f;
    const TSR *in, *out;
    uint32_t bits;
    RND_MODE rnd;
} scalar_chunks;

static void fill_scalar(CT_Param *p, const void *ctx, uint64_t offset, uint32_t n) {
    const scalar_chunks *c = ctx;
    const uint64_t at = offset * tx8_format_bytes(c->in->format);
    c->f(p, c->in->addr + at, c->bits, c->out->addr + at, n, c->rnd, c->in->format);
}

uint64_t eltwise_issue_scalar(TsmArithVS f, const TSR *in, float scalar, const TSR *out, uint64_t elems, RND_MODE rnd) {
    scalar_chunks c = {f, in, out, 0, rnd};
    memcpy(&c.bits, &scalar, sizeof c.bits);
    return eltwise_issue_chunks(fill_scalar, &c, elems);
}

uint64_t eltwise_issue_scalar_chain(const eltwise_scalar_step *steps, int count, const TSR *in, const TSR *out,
                                    uint64_t elems, RND_MODE rnd) {
    uint64_t total = 0;
    for (int i = 0; i < count && total != TX8_CYCLES_INVALID; ++i)
        total = ADD_VALID_CYCLE(total,
                                eltwise_issue_scalar(steps[i].f, i ? out : in, steps[i].scalar, out, elems, rnd));
    return total;
}

typedef struct unary_chunks {
    eltwise_unary_fn f;
    const TSR *in, *out;
    RND_MODE rnd;
} unary_chunks;

static void fill_unary(CT_Param *p, const void *ctx, uint64_t offset, uint32_t n) {
    const unary_chunks *c = ctx;
    const uint64_t at = offset * tx8_format_bytes(c->in->format);
    c->f(p, c->in->addr + at, c->out->addr + at, n, c->rnd, c->in->format);
}

uint64_t eltwise_issue_unary(eltwise_unary_fn f, const TSR *in, const TSR *out, uint64_t elems, RND_MODE rnd) {
    const unary_chunks c = {f, in, out, rnd};
    return eltwise_issue_chunks(fill_unary, &c, elems);
}

uint64_t eltwise_unary(const char *op, eltwise_unary_fn f, const ELTWISE_PARAM *param, TSR *in, TSR *out) {
    return eltwise_unary_formats(op, f, param, ELTWISE_FLOATS, in, out);
}

uint64_t eltwise_unary_formats(const char *op, eltwise_unary_fn f, const ELTWISE_PARAM *param, uint32_t formats,
                               TSR *in, TSR *out) {
    TSR *const t[2] = {in, out};
    static const char *const names[2] = {"in", "out"};
    const uint32_t sets[2] = {formats, formats | ELTWISE_SAME_AS(0)};
    uint64_t elems;
    if (!param) return tx8_hal_fault("%s: param is NULL", op), TX8_CYCLES_INVALID;
    if (eltwise_prepare_formats(op, param->layout, param->rnd, t, names, sets, 2, &elems) != 0)
        return TX8_CYCLES_INVALID;
    return eltwise_issue_unary(f, in, out, elems, param->rnd);
}

int eltwise_prepare_unary(const char *op, LAYOUT_MODE layout, RND_MODE rnd, TSR *in, TSR *out, uint64_t *elems) {
    TSR *const t[2] = {in, out};
    static const char *const names[2] = {"in", "out"};
    const ELTWISE_PARAM common = {layout, rnd};
    return eltwise_prepare(op, &common, t, names, 2, elems);
}

/* ---- binary ops with numpy broadcasting ---- */

enum { MAX_RUNS = 4 };

/* Consecutive dims of out (extent > 1) in which a and b broadcast alike: `size` elements; the strides (elements) of
 * the run's innermost dim in a, b and out, 0 where the operand broadcasts. */
typedef struct bcast_run {
    uint64_t size, sa, sb, so;
    int fa, fb; /* a / b full (not broadcast) over the run */
} bcast_run;

static int same_shape(const TSR *x, const TSR *y) {
    if (x->shape->dim != y->shape->dim) return 0;
    for (int32_t d = 0; d < x->shape->dim; ++d)
        if (x->shape->shape_real[d] != y->shape->shape_real[d]) return 0;
    return 1;
}

/* The rounding direction of -x: rounding -(b - a) toward +inf is rounding (a - b) toward -inf. */
static RND_MODE mirrored(RND_MODE r) { return r == RND_POS_INF ? RND_NEG_INF : r == RND_NEG_INF ? RND_POS_INF : r; }

/* Checks a, b and out for broadcasting and merges out's dims into runs; 0 on success, -1 after a fault. */
static int plan_broadcast(const eltwise_binary_kind *k, const ELTWISE_PARAM *param, TSR *a, TSR *b, TSR *out,
                          bcast_run *runs, int *count) {
    const char *op = k->name;
    const tx8_hw_config *hw = tx8_hal_config();
    if ((unsigned)param->layout >= LAYOUT_COUNT)
        return tx8_hal_fault("%s: param->layout = %d is not a LAYOUT_MODE", op, (int)param->layout), -1;
    if ((unsigned)param->rnd >= RND_COUNT)
        return tx8_hal_fault("%s: param->rnd = %d is not a RND_MODE", op, (int)param->rnd), -1;
    if (param->layout != LAYOUT_TENSOR && param->layout != LAYOUT_NTENSOR)
        return tx8_hal_fault("%s: a and b broadcast to out, which needs a compact layout (Tensor or NTensor), not %s",
                             op, tx8_layout_name(param->layout)), -1;
    tx8_layout l;
    if (tx8_layout_init(&l, param->layout, out->format, out->shape->shape_real, out->shape->dim,
                        tx8_hw_batch_align_bytes(hw)) != 0)
        return tx8_hal_fault("%s: out->shape_real is not valid in layout %s (extents must be > 0; Tensor needs N == 1)",
                             op, tx8_layout_name(param->layout)), -1;
    const int32_t dim = out->shape->dim;
    const int32_t *o = out->shape->shape_real, *ea = a->shape->shape_real, *eb = b->shape->shape_real;
    for (int32_t d = 0; d < dim; ++d) {
        if (ea[d] != o[d] && ea[d] != 1)
            return tx8_hal_fault("%s: a->shape->shape_real[%d] = %d, out->shape->shape_real[%d] = %d; must be equal "
                                 "or 1 (broadcast)", op, d, ea[d], d, o[d]), -1;
        if (eb[d] != o[d] && eb[d] != 1)
            return tx8_hal_fault("%s: b->shape->shape_real[%d] = %d, out->shape->shape_real[%d] = %d; must be equal "
                                 "or 1 (broadcast)", op, d, eb[d], d, o[d]), -1;
        if (o[d] > 1 && ea[d] == 1 && eb[d] == 1)
            return tx8_hal_fault("%s: out->shape->shape_real[%d] = %d, but a and b both have 1 there", op, d, o[d]),
                   -1;
    }
    /* Row-major strides (elements), then runs from the outermost dim in. */
    uint64_t sa = 1, sb = 1, so = 1, stride_a[4], stride_b[4], stride_o[4];
    for (int32_t d = dim - 1; d >= 0; --d) {
        stride_a[d] = sa, stride_b[d] = sb, stride_o[d] = so;
        sa *= (uint64_t)ea[d], sb *= (uint64_t)eb[d], so *= (uint64_t)o[d];
    }
    int n = 0;
    for (int32_t d = 0; d < dim; ++d) {
        if (o[d] == 1) continue;
        const int fa = ea[d] == o[d], fb = eb[d] == o[d];
        if (n == 0 || runs[n - 1].fa != fa || runs[n - 1].fb != fb) runs[n++] = (bcast_run){1, 0, 0, 0, fa, fb};
        bcast_run *r = &runs[n - 1];
        r->size *= (uint64_t)o[d];
        r->sa = fa ? stride_a[d] : 0, r->sb = fb ? stride_b[d] : 0, r->so = stride_o[d];
    }
    for (int i = 0; i < n; ++i) {
        if (runs[i].size > ELTWISE_MAX_ELEMS / 4)
            return tx8_hal_fault("%s: a run of %llu elements is too long for one instruction", op,
                                 (unsigned long long)runs[i].size), -1;
        if (!runs[i].fa && !k->commutative && !(k->is_sub && tx8_format_is_float(out->format)))
            return tx8_hal_fault("%s: a broadcasts over %llu elements where b does not: not supported (%s: only b, "
                                 "the divisor or exponent, may broadcast alone)", op, (unsigned long long)runs[i].size,
                                 k->is_sub ? "an integer a - b cannot run as -(b - a), which saturates differently"
                                           : "the op does not commute"), -1;
    }
    const uint64_t out_bytes = tx8_tsr_compact_bytes(out);
    for (int i = 0; i < 2; ++i) {
        const TSR *x = i ? b : a;
        const int bcast = !same_shape(x, out), resized = tx8_format_bytes(x->format) != tx8_format_bytes(out->format);
        if ((bcast || resized) && ranges_overlap(x->addr, tx8_tsr_compact_bytes(x), out->addr, out_bytes))
            return tx8_hal_fault("%s: out overlaps %s, which %s", op, i ? "b" : "a",
                                 bcast ? "broadcasts" : "has another element size"), -1;
    }
    /* Several instructions run: check what the engine would only see at the failing one, so a fault writes nothing. */
    static const char *const names[3] = {"a", "b", "out"};
    const TSR *const all[3] = {a, b, out};
    for (int i = 0; i < 3; ++i)
        if (tx8_check_in_spm(op, names[i], all[i]->addr, tx8_tsr_compact_bytes(all[i])) != 0) return -1;
    *count = n;
    return 0;
}

/* The compare that gives the same mask with its operands exchanged: a < b is b > a. */
static CT_OPCODE mirrored_cmp(CT_OPCODE op) {
    switch (op) {
    case CT_OP_CMP_LT: return CT_OP_CMP_GT;
    case CT_OP_CMP_LE: return CT_OP_CMP_GE;
    case CT_OP_CMP_GT: return CT_OP_CMP_LT;
    case CT_OP_CMP_GE: return CT_OP_CMP_LE;
    default: return op; /* EQ, NE */
    }
}

/* One instruction over n elements: dst = full op unit, the unit u elements long (u == n: V_V). `swapped`: the unit
 * is the left operand. fmt: the sources' format (out's too, but for a compare's int8 mask). */
static uint64_t issue_run(const eltwise_binary_kind *k, uint64_t full, uint64_t unit, uint64_t dst, uint64_t n,
                          uint64_t u, int swapped, RND_MODE rnd, Data_Format fmt) {
    CT_Param p;
    if (k->cmp) { /* a compare: with the unit on the left, the mirrored compare of full against it */
        const CT_OPCODE op = (CT_OPCODE)k->cmp;
        if (u == n)
            CGRATensor_RelationOp_V_V_cmp_to(&p, op, swapped ? unit : full, swapped ? full : unit, dst, (uint32_t)n,
                                             fmt, Fmt_INT8);
        else
            CGRATensor_RelationOp_V_VuV_cmp(&p, swapped ? mirrored_cmp(op) : op, full, dst, unit, (uint32_t)n,
                                            (uint32_t)u, fmt, Fmt_INT8);
        return TsmExecute(&p);
    }
    if (u == n) {
        k->vv(&p, swapped ? unit : full, swapped ? full : unit, dst, (uint32_t)n, rnd, fmt);
        return TsmExecute(&p);
    }
    if (!swapped || k->commutative) {
        k->vuv(&p, full, dst, unit, rnd, (uint32_t)n, (uint32_t)u, fmt);
        return TsmExecute(&p);
    }
    /* a - b with a the unit: -(b - a), rounded the mirrored way, then negated (exactly). */
    k->vuv(&p, full, dst, unit, mirrored(rnd), (uint32_t)n, (uint32_t)u, fmt);
    uint64_t cycles = TsmExecute(&p);
    CGRATensor_ArithOp_V_V_neg(&p, dst, dst, (uint32_t)n, rnd, fmt);
    return ADD_VALID_CYCLE(cycles, TsmExecute(&p));
}

static uint64_t issue_broadcast(const eltwise_binary_kind *k, const TSR *a, const TSR *b, const TSR *out,
                                const bcast_run *runs, int n, RND_MODE rnd) {
    const uint64_t eb = tx8_format_bytes(a->format), out_eb = tx8_format_bytes(out->format);
    /* Innermost run full in both and the next broadcasting one operand: one V_VuV over both runs. */
    const int two_level = n >= 2 && runs[n - 1].fa && runs[n - 1].fb && runs[n - 2].fa != runs[n - 2].fb &&
                          runs[n - 2].size * runs[n - 1].size <= ELTWISE_MAX_ELEMS;
    const int loops = two_level ? n - 2 : n - 1;
    const bcast_run *inner = &runs[n - 1], *next = two_level ? &runs[n - 2] : inner;
    uint64_t idx[MAX_RUNS] = {0}, total = 0;
    for (;;) {
        uint64_t oa = 0, ob = 0, oo = 0;
        for (int i = 0; i < loops; ++i) oa += idx[i] * runs[i].sa, ob += idx[i] * runs[i].sb, oo += idx[i] * runs[i].so;
        const uint64_t len = two_level ? next->size * inner->size : inner->size;
        const int a_full = next->fa; /* which operand is full over the instruction's elements */
        const uint64_t unit_len = two_level ? inner->size : (inner->fa && inner->fb ? len : 1);
        const uint64_t full = (a_full ? a->addr + oa * eb : b->addr + ob * eb);
        const uint64_t unit = (a_full ? b->addr + ob * eb : a->addr + oa * eb);
        total = ADD_VALID_CYCLE(total, issue_run(k, full, unit, out->addr + oo * out_eb, len, unit_len, !a_full, rnd,
                                                 a->format));
        if (total == TX8_CYCLES_INVALID) return total;
        int i = loops - 1;
        while (i >= 0 && ++idx[i] == runs[i].size) idx[i--] = 0;
        if (i < 0) return total;
    }
}

typedef struct kind_chunks {
    const eltwise_binary_kind *k;
    const TSR *a, *b, *out;
    RND_MODE rnd;
} kind_chunks;

static void fill_kind(CT_Param *p, const void *ctx, uint64_t s, uint64_t d, uint32_t n) {
    const kind_chunks *c = ctx;
    const Data_Format sf = c->a->format;
    const uint64_t as = s * tx8_format_bytes(sf), at = d * tx8_format_bytes(c->out->format);
    if (!c->k->cmp)
        c->k->vv(p, c->a->addr + as, c->b->addr + as, c->out->addr + at, n, c->rnd, sf);
    else
        CGRATensor_RelationOp_V_V_cmp_to(p, (CT_OPCODE)c->k->cmp, c->a->addr + as, c->b->addr + as,
                                         c->out->addr + at, n, sf, Fmt_INT8);
}

/* Equal shapes, validated: one V_V per chunk over the image, or over the stretches a's and out's images share when
 * their element sizes differ (a compare's int8 mask), after checking every image first. */
static uint64_t issue_same_shape(const eltwise_binary_kind *k, const ELTWISE_PARAM *param, TSR *a, TSR *b,
                                 TSR *out) {
    const uint32_t align = tx8_hw_batch_align_bytes(tx8_hal_config());
    tx8_layout l[3];
    TSR *const t[3] = {a, b, out};
    static const char *const names[3] = {"a", "b", "out"};
    for (int i = 0; i < 3; ++i)
        tx8_layout_init(&l[i], param->layout, t[i]->format, t[i]->shape->shape_real, t[i]->shape->dim, align);
    if (a->format != out->format && eltwise_check_images(k->name, t, names, l, 3) != 0) return TX8_CYCLES_INVALID;
    const kind_chunks c = {k, a, b, out, param->rnd};
    return eltwise_issue_pairs(fill_kind, &c, &l[0], &l[2]);
}

uint64_t eltwise_binary(const eltwise_binary_kind *k, const ELTWISE_PARAM *param, TSR *a, TSR *b, TSR *out) {
    TSR *const t[3] = {a, b, out};
    static const char *const names[3] = {"a", "b", "out"};
    const char *op = k->name;
    if (!param) return tx8_hal_fault("%s: param is NULL", op), TX8_CYCLES_INVALID;
    for (int i = 0; i < 3; ++i) {
        if (!t[i]) return tx8_hal_fault("%s: %s is NULL", op, names[i]), TX8_CYCLES_INVALID;
        if (!t[i]->shape) return tx8_hal_fault("%s: %s->shape is NULL", op, names[i]), TX8_CYCLES_INVALID;
    }
    const uint32_t set = k->formats;
    const uint32_t formats[3] = {set, set | ELTWISE_SAME_AS(0),
                                 k->cmp ? ELTWISE_FMT(Fmt_INT8) : set | ELTWISE_SAME_AS(0)};
    const int formats_ok = in_set(a->format, set) && b->format == a->format &&
                           out->format == (k->cmp ? Fmt_INT8 : a->format);
    uint64_t elems;
    if ((same_shape(a, out) && same_shape(b, out)) || a->shape->dim != out->shape->dim ||
        b->shape->dim != out->shape->dim || !formats_ok || out->shape->dim < 2 || out->shape->dim > 4) {
        /* equal shapes, or arguments eltwise_prepare_formats names the fault of */
        if (eltwise_prepare_formats(op, param->layout, param->rnd, t, names, formats, 3, &elems) != 0)
            return TX8_CYCLES_INVALID;
        return issue_same_shape(k, param, a, b, out);
    }
    bcast_run runs[MAX_RUNS];
    int n = 0;
    if (plan_broadcast(k, param, a, b, out, runs, &n) != 0) return TX8_CYCLES_INVALID;
    if (n == 0) { /* out has one element and so do a and b */
        if (eltwise_prepare_formats(op, param->layout, param->rnd, t, names, formats, 3, &elems) != 0)
            return TX8_CYCLES_INVALID;
        return issue_same_shape(k, param, a, b, out);
    }
    return issue_broadcast(k, a, b, out, runs, n, param->rnd);
}
